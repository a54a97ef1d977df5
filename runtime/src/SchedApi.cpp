// The scheduler's options (environment), the process's instance, the glue
// the launch hooks use, and the C API of include/gmem/gmem_sched.h.
#include "Runtime.h"
#include "Scheduler.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace gmem {
namespace rt {
namespace sched {

namespace {

bool envIs(const char *V, std::initializer_list<const char *> Words) {
  for (const char *W : Words)
    if (std::strcmp(V, W) == 0)
      return true;
  return false;
}

/// A non-negative integer environment variable, or Default (with a message
/// when it is set but not a number).
uint64_t envNumber(const char *Name, uint64_t Default) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return Default;
  char *End = nullptr;
  errno = 0;
  unsigned long long N = std::strtoull(V, &End, 10);
  if (errno || !End || *End || V[0] == '-') {
    std::fprintf(stderr, "gmem: %s=%s is not a non-negative integer; using %llu\n", Name, V,
                 (unsigned long long)Default);
    return Default;
  }
  return N;
}

/// A non-negative decimal environment variable, or Default (with a
/// message when it is set but not such a number).
double envDecimal(const char *Name, double Default) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return Default;
  char *End = nullptr;
  errno = 0;
  const double X = std::strtod(V, &End);
  if (errno || !End || *End || !(X >= 0) || !std::isfinite(X)) {
    std::fprintf(stderr, "gmem: %s=%s is not a non-negative number; using %g\n", Name, V, Default);
    return Default;
  }
  return X;
}

/// A switch: Name=0/no/false/off turns Value off, 1/yes/true/on on,
/// anything else is reported and ignored (Value stays its default).
void envSwitch(const char *Name, bool &Value) {
  const char *V = std::getenv(Name);
  if (!V || !*V)
    return;
  if (envIs(V, {"0", "no", "false", "off"}))
    Value = false;
  else if (envIs(V, {"1", "yes", "true", "on"}))
    Value = true;
  else
    std::fprintf(stderr, "gmem: %s=%s is not 0 or 1; ignored\n", Name, V);
}

std::atomic<Scheduler *> TestOverride{nullptr};
std::atomic<Scheduler *> ProcessScheduler{nullptr};

thread_local const LaunchRecord *PendingRuntimeRecord = nullptr;

} // namespace

int parsePriority(const char *Text) {
  if (!Text)
    return -1;
  std::string T(Text);
  std::transform(T.begin(), T.end(), T.begin(), [](unsigned char C) { return std::tolower(C); });
  if (T == "realtime" || T == "real-time" || T == "rt")
    return GMEM_PRIORITY_REALTIME;
  if (T == "best-effort" || T == "besteffort" || T == "best_effort" || T == "be")
    return GMEM_PRIORITY_BEST_EFFORT;
  if (T.empty() || T.size() > 3 || !std::all_of(T.begin(), T.end(), ::isdigit))
    return -1;
  int N = std::atoi(T.c_str());
  return N < GMEM_PRIORITY_LEVELS ? N : -1;
}

SchedOptions SchedOptions::fromEnvironment() {
  SchedOptions O;
  const char *Dis = std::getenv("GMEM_DISABLE");
  if (Dis && *Dis && !envIs(Dis, {"0", "no", "false", "off"}))
    O.Forbidden = true;
  if (const char *S = std::getenv("GMEM_SCHED"); S && *S) {
    if (envIs(S, {"0", "no", "false", "off"}))
      O.Forbidden = true;
    else if (envIs(S, {"1", "yes", "true", "on"}))
      O.ActiveAtStart = true;
    else
      std::fprintf(stderr, "gmem: GMEM_SCHED=%s is not 0 or 1; ignored\n", S);
  }
  if (const char *P = std::getenv("GMEM_PRIORITY"); P && *P) {
    int L = parsePriority(P);
    if (L < 0) {
      std::fprintf(stderr,
                   "gmem: GMEM_PRIORITY=%s is not a priority (realtime, best-effort or 0..%d); "
                   "ignored\n",
                   P, GMEM_PRIORITY_LEVELS - 1);
    } else {
      O.ProcessPriority = L;
      O.ActiveAtStart = true;
    }
  }
  O.ChaosIntervalNs = envNumber("GMEM_SCHED_CHAOS", 0) * 1000;
  O.ChaosSeed = envNumber("GMEM_SCHED_CHAOS_SEED", O.ChaosSeed);
  O.HostHoldAfter = unsigned(
      std::clamp<uint64_t>(envNumber("GMEM_SCHED_MAX_QUEUED", O.HostHoldAfter), 1, 1u << 16));
  if (O.ChaosIntervalNs)
    O.ActiveAtStart = true;
  O.MaxHoldNs = envNumber("GMEM_SCHED_MAX_HOLD_MS", O.MaxHoldNs / 1000000) * 1000000;
  O.ResumeLingerNs = envNumber("GMEM_SCHED_RESUME_US", O.ResumeLingerNs / 1000) * 1000;
  if (const char *P = std::getenv("GMEM_SCHED_POLICY"); P && *P) {
    if (envIs(P, {"fair", "fair-share", "fair_share"}))
      O.Policy = GMEM_SCHED_POLICY_FAIR_SHARE;
    else if (!envIs(P, {"strict"}))
      std::fprintf(stderr, "gmem: GMEM_SCHED_POLICY=%s is not strict or fair; strict\n", P);
  }
  O.MinShare = double(std::clamp<uint64_t>(
                   envNumber("GMEM_SCHED_SHARE", uint64_t(O.MinShare * 100 + 0.5)), 1, 90)) /
               100.0;
  O.ShareWindowNs = std::max<uint64_t>(
      envNumber("GMEM_SCHED_SHARE_WINDOW_MS", O.ShareWindowNs / 1000000), 1) * 1000000;
  O.ShareSliceNs = std::max<uint64_t>(
      envNumber("GMEM_SCHED_SHARE_SLICE_US", O.ShareSliceNs / 1000), 1) * 1000;
  O.PollIntervalNs = envNumber("GMEM_SCHED_POLL_US", O.PollIntervalNs / 1000) * 1000;
  O.WatchIntervalNs =
      envNumber("GMEM_SCHED_WATCH_US", std::max(O.WatchIntervalNs, O.PollIntervalNs) / 1000) * 1000;
  O.DrainSampleEvery = unsigned(
      std::clamp<uint64_t>(envNumber("GMEM_SCHED_DRAIN_SAMPLE", O.DrainSampleEvery), 1, 1u << 20));
  O.MaxSlots = unsigned(std::min<uint64_t>(envNumber("GMEM_SCHED_MAX_SLOTS", O.MaxSlots), 1u << 20));
  if (const char *G = std::getenv("GMEM_SCHED_GATE"); G && *G) {
    if (envIs(G, {"always"}))
      O.GateAlways = true;
    else if (!envIs(G, {"auto"}))
      std::fprintf(stderr, "gmem: GMEM_SCHED_GATE=%s is not auto or always; ignored\n", G);
  }
  envSwitch("GMEM_PREEMPT_LIGHT", O.Light);
  O.LightMaxUs = envDecimal("GMEM_PREEMPT_LIGHT_US", O.LightMaxUs);
  O.LightTimedMaxUs = envDecimal("GMEM_PREEMPT_LIGHT_TIMED_US", O.LightTimedMaxUs);
  O.BatchUs = envDecimal("GMEM_PREEMPT_BATCH_US", O.BatchUs);
  O.MaxOverhead = envDecimal("GMEM_PREEMPT_MAX_OVERHEAD", O.MaxOverhead * 100) / 100;
  O.ShortUs = envDecimal("GMEM_PREEMPT_SHORT_US", O.ShortUs);
  O.SpreadMax = unsigned(std::clamp<uint64_t>(envNumber("GMEM_PREEMPT_SPREAD", O.SpreadMax), 1, 64));
  O.SegScaleMax = unsigned(std::min<uint64_t>(envNumber("GMEM_PREEMPT_SEG_SCALE", O.SegScaleMax), 3));
  O.SegStopUs = envDecimal("GMEM_PREEMPT_SEG_STOP_US", O.SegStopUs);
  O.SegPairs = unsigned(std::clamp<uint64_t>(envNumber("GMEM_PREEMPT_SEG_PAIRS", O.SegPairs), 1,
                                             ChooserOptions::ScalePairsMax));
  O.SegMargin = envDecimal("GMEM_PREEMPT_SEG_MARGIN", O.SegMargin * 100) / 100;
  envSwitch("GMEM_PREEMPT_ALT", O.Alt);
  envSwitch("GMEM_PREEMPT_VARYING", O.Varying);
  envSwitch("GMEM_PREEMPT_LATCH", O.LatchIdleTimings);
  envSwitch("GMEM_PREEMPT_LATCH_FIRST", O.LatchFirstLaunches); // diagnostics
  envSwitch("GMEM_PREEMPT_FREE", O.Free);
  if (const char *G = std::getenv("GMEM_PREEMPT_GRID_STRIDE"); G && *G && std::string(G) != "auto") {
    const uint64_t T = envNumber("GMEM_PREEMPT_GRID_STRIDE", ~uint64_t(0));
    if (T != ~uint64_t(0)) { // (else not a number: the default, with the message)
      O.GridStrideAuto = false;
      O.GridStrideTrips = unsigned(std::min<uint64_t>(T, 1u << 20));
    }
  }
  envSwitch("GMEM_SCHED_FIRST_QUIET", O.QuietFirstLaunches); // diagnostics
  if (const char *L2 = std::getenv("GMEM_SCHED_L2"); L2 && *L2) {
    if (envIs(L2, {"persist"}))
      O.L2Persist = true;
    else if (!envIs(L2, {"0", "off", "default"}))
      std::fprintf(stderr, "gmem: GMEM_SCHED_L2=%s is not persist or off; ignored\n", L2);
  }
  if (const char *L = std::getenv("GMEM_LOG"); L && *L) {
    O.Log = std::strstr(L, "sched") != nullptr;
    O.LogErrors = !envIs(L, {"none", "off", "0"});
  }
  return O;
}

Scheduler &Scheduler::global() {
  if (Scheduler *T = TestOverride.load(std::memory_order_acquire))
    return *T;
  // Never destroyed: launches may happen from atexit handlers; shutdown()
  // runs from the atexit handler the monitor registers.
  static Scheduler *S = [] {
    Scheduler *P = new Scheduler(realSchedDriver(), SchedOptions::fromEnvironment());
    ProcessScheduler.store(P, std::memory_order_release);
    return P;
  }();
  return *S;
}

Scheduler *Scheduler::activeInstance() {
  if (Scheduler *T = TestOverride.load(std::memory_order_acquire))
    return T->active() ? T : nullptr;
  static Scheduler &G = global();
  return G.active() ? &G : nullptr;
}

void Scheduler::setGlobalForTesting(Scheduler *S) {
  TestOverride.store(S, std::memory_order_release);
}

bool Scheduler::isProcessScheduler(const Scheduler *S) {
  return S && S == ProcessScheduler.load(std::memory_order_acquire);
}

SchedLaunch SchedLaunch::from(const LaunchRequest &L, bool PerThreadStream) {
  SchedLaunch S;
  S.F = reinterpret_cast<CUfunction>(L.Handle);
  for (int I = 0; I < 3; ++I) {
    S.Grid[I] = L.Grid[I];
    S.Block[I] = L.Block[I];
  }
  S.Shmem = L.Shmem;
  S.Stream = reinterpret_cast<CUstream>(L.Stream);
  S.PerThreadStream = PerThreadStream;
  S.Params = L.Params;
  S.Extra = L.Extra;
  return S;
}

RuntimeLaunchScope::RuntimeLaunchScope(const LaunchRecord *Rec) { PendingRuntimeRecord = Rec; }
RuntimeLaunchScope::~RuntimeLaunchScope() { PendingRuntimeRecord = nullptr; }

const LaunchRecord *recordFor(const LaunchRecord *Rec) {
  return Rec ? Rec : PendingRuntimeRecord;
}

int Scheduler::setProcessPriority(int P) {
  if (P < 0 || P >= NumLevels)
    return GMEM_ERROR_INVALID_VALUE;
  if (Opts.Forbidden)
    return GMEM_ERROR_DISABLED;
  ProcessPrio.store(P, std::memory_order_relaxed);
  Active.store(true, std::memory_order_release);
  return GMEM_SUCCESS;
}

int Scheduler::setStreamPriority(CUstream S, int P) {
  if (P < GMEM_PRIORITY_DEFAULT || P >= NumLevels)
    return GMEM_ERROR_INVALID_VALUE;
  if (Opts.Forbidden)
    return GMEM_ERROR_DISABLED;
  {
    std::unique_lock<std::shared_mutex> Lock(PrioMu);
    if (P == GMEM_PRIORITY_DEFAULT)
      StreamPrio.erase(reinterpret_cast<uint64_t>(S));
    else
      StreamPrio[reinterpret_cast<uint64_t>(S)] = P;
  }
  Active.store(true, std::memory_order_release);
  return GMEM_SUCCESS;
}

int Scheduler::streamPriority(CUstream S) const { return levelOf(S, S); }

int Scheduler::setPolicy(int P) {
  if (P == GMEM_SCHED_POLICY_STRICT || P == GMEM_SCHED_POLICY_FAIR_SHARE) {
    // Both policies read only the contexts' views, which every switch
    // leaves as they are: a switch takes effect at the next decision.
    Policy.store(P == GMEM_SCHED_POLICY_STRICT ? static_cast<SchedPolicy *>(&StrictPolicy)
                                               : &FairPolicy,
                 std::memory_order_release);
    if (active())
      wakeMonitor(); // a level the new policy lets run again is not left waiting
    return GMEM_SUCCESS;
  }
  if (P == GMEM_SCHED_POLICY_DEADLINE)
    return GMEM_ERROR_SCHED_NOT_SUPPORTED;
  return GMEM_ERROR_INVALID_VALUE;
}

void Scheduler::stats(gmemSchedStats *Out) const {
  std::memset(Out, 0, sizeof *Out);
  auto Get = [](const std::atomic<uint64_t> &A) { return A.load(std::memory_order_relaxed); };
  Out->launches = Get(N.Launches);
  Out->passed_through = Get(N.Passed);
  Out->urgent = Get(N.Urgent);
  Out->gated = Get(N.Gated);
  Out->preemptible = Get(N.Preemptible);
  Out->suppressions = Get(N.Suppressions);
  Out->preemptions = Get(N.Preemptions);
  Out->preemptions_loop = Get(N.PreemptionsLoop);
  Out->relaunches = Get(N.Relaunches);
  Out->forced_resumes = Get(N.Forced);
  Out->clone_failures = Get(N.CloneFailures);
  Out->active = active() ? 1 : 0;
  Out->policy = policy().id();
  std::vector<uint64_t> S;
  {
    std::lock_guard<std::mutex> Lock(DrainMu);
    S = Drains;
    Out->drain_samples = DrainCount;
  }
  if (!S.empty()) {
    std::sort(S.begin(), S.end());
    uint64_t Sum = 0;
    for (uint64_t V : S)
      Sum += V;
    Out->drain_ns_mean = Sum / S.size();
    Out->drain_ns_p50 = S[(S.size() - 1) / 2];
    Out->drain_ns_p99 = S[std::min(S.size() - 1, (S.size() * 99) / 100)];
    Out->drain_ns_max = S.back();
  }
}

void Scheduler::cloneStats(gmemSchedCloneStats *Out) const {
  auto Get = [](const std::atomic<uint64_t> &A) { return A.load(std::memory_order_relaxed); };
  Out->reserved = 0;
  Out->full_launches = Get(N.FormLaunches[size_t(CloneKind::Full)]);
  Out->light_launches = Get(N.FormLaunches[size_t(CloneKind::Light)]);
  Out->timed_launches = Get(N.TimedLaunches);
  Out->switched_to_light = Get(N.SwitchedTo[size_t(CloneKind::Light)]);
  Out->switched_to_full = Get(N.SwitchedTo[size_t(CloneKind::Full)]);
  Out->alt_launches = Get(N.FormLaunches[size_t(CloneKind::Alt)]);
  Out->switched_to_alt = Get(N.SwitchedTo[size_t(CloneKind::Alt)]);
  Out->free_launches = Get(N.FormLaunches[size_t(CloneKind::Free)]);
  Out->switched_to_free = Get(N.SwitchedTo[size_t(CloneKind::Free)]);
  Out->capped_launches = Get(N.Capped);
  Out->ungated_launches = Get(N.Ungated);
  Out->short_launches = Get(N.Short);
  Out->short_ungated_launches = Get(N.ShortUngated);
  Out->idle_timing_skips = 0; // (retired: idle-stream timings are latched now)
  Out->latched_timings = Get(N.LatchedTimings);
  Out->latch_watchdog_opens = Get(N.LatchWatchdogOpens);
  Out->first_launch_drains = Get(N.FirstLaunchDrains);
  Out->first_launch_stops_skipped = Get(N.FirstLaunchStopsSkipped);
  Out->share_resumes = Get(N.ShareResumes);
  Out->share_arrivals_spared = Get(N.ShareArrivalsSpared);
  Out->share_ends = Get(N.ShareEnds);
  Out->scale_probes = Get(N.ScaleProbes);
  Out->scale_raised = Get(N.ScaleRaised);
}

} // namespace sched
} // namespace rt
} // namespace gmem

// ---------------------------------------------------------------------------
// C API

using gmem::rt::sched::Scheduler;

extern "C" {

GMEM_API int gmemSchedEnable(int on) { return Scheduler::global().enable(on != 0); }

GMEM_API int gmemSchedIsActive(void) { return Scheduler::global().active() ? 1 : 0; }

GMEM_API int gmemSchedSetProcessPriority(int priority) {
  return Scheduler::global().setProcessPriority(priority);
}

GMEM_API int gmemSchedGetProcessPriority(void) { return Scheduler::global().processPriority(); }

GMEM_API int gmemSchedSetStreamPriority(void *stream, int priority) {
  return Scheduler::global().setStreamPriority(static_cast<CUstream>(stream), priority);
}

GMEM_API int gmemSchedGetStreamPriority(void *stream) {
  return Scheduler::global().streamPriority(static_cast<CUstream>(stream));
}

GMEM_API int gmemSchedParsePriority(const char *text, int *out) {
  int L = gmem::rt::sched::parsePriority(text);
  if (L < 0 || !out)
    return GMEM_ERROR_INVALID_VALUE;
  *out = L;
  return GMEM_SUCCESS;
}

GMEM_API int gmemSchedSetPolicy(int policy) { return Scheduler::global().setPolicy(policy); }

GMEM_API int gmemSchedGetStats(gmemSchedStats *out) {
  if (!out)
    return GMEM_ERROR_INVALID_VALUE;
  Scheduler::global().stats(out);
  return GMEM_SUCCESS;
}

GMEM_API int gmemSchedGetCloneStats(gmemSchedCloneStats *out) {
  if (!out || out->size < 8)
    return GMEM_ERROR_INVALID_VALUE;
  // An older caller's struct is shorter, a newer one's longer: whole fields
  // that fit in both, and nothing else, are written.
  gmemSchedCloneStats All;
  std::memset(&All, 0, sizeof All);
  Scheduler::global().cloneStats(&All);
  constexpr size_t Head = offsetof(gmemSchedCloneStats, full_launches);
  static_assert(Head == 8, "size and reserved come first");
  const size_t Fit = std::min<size_t>(out->size, sizeof All);
  out->reserved = 0;
  const size_t Fields = (Fit - Head) / sizeof(uint64_t);
  std::memcpy(reinterpret_cast<char *>(out) + Head, reinterpret_cast<const char *>(&All) + Head,
              Fields * sizeof(uint64_t));
  return GMEM_SUCCESS;
}

GMEM_API int gmemSchedFlush(int timeout_ms) { return Scheduler::global().flush(timeout_ms); }

} // extern "C"

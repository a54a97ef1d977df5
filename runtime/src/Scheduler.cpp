// The scheduler's launch path: contexts, streams, levels and the launch
// itself (passed through, or what it suppresses). A launch below real time
// is held on the host and gated in SchedGated.cpp; stop requests are in
// SchedSuppress.cpp; clones and the choice among them in SchedClone.cpp; the
// monitor side (resumes, relaunches, releases) in SchedMonitor.cpp; a
// context's set-up in SchedContext.cpp; the timing latch in SchedLatch.cpp;
// options, the C API and the hooks' glue in SchedApi.cpp.
#include "Scheduler.h"

#include "LaunchProfile.h"

#include <pthread.h>

#include <cstdarg>
#include <cstdio>
#include <optional>

namespace gmem {
namespace rt {
namespace sched {

namespace {

bool cooperative(const SchedLaunch &L) {
  if (L.Cooperative)
    return true;
  for (unsigned I = 0; I < L.NumAttrs; ++I)
    if (L.Attrs[I].id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && L.Attrs[I].value.cooperative)
      return true;
  return false;
}

std::atomic<uint64_t> NextSchedulerUid{1};

struct ContextCache {
  uint64_t Owner = 0;
  unsigned long long Id = 0;
  void *C = nullptr;
};
thread_local ContextCache TLContext;

} // namespace

Scheduler::Scheduler(SchedDriver &D, const SchedOptions &O)
    : D(D), Opts(O), ProcessPrio(O.ProcessPriority),
      FairPolicy(O.MinShare),
      Policy(O.Policy == GMEM_SCHED_POLICY_FAIR_SHARE ? static_cast<SchedPolicy *>(&FairPolicy)
                                                      : &StrictPolicy),
      Uid(NextSchedulerUid.fetch_add(1)) {
  Active.store(O.ActiveAtStart && !O.Forbidden, std::memory_order_release);
}

namespace {
/// "gmem..." Prefix, then Fmt formatted, on stderr.
void vreport(const char *Prefix, const char *Fmt, va_list A) {
  char Buf[512];
  std::vsnprintf(Buf, sizeof Buf, Fmt, A);
  std::fprintf(stderr, "%s%s\n", Prefix, Buf);
}
} // namespace

void Scheduler::log(const char *Fmt, ...) const {
  if (!Opts.Log)
    return;
  static const uint64_t Start = nowNs();
  char Prefix[48];
  std::snprintf(Prefix, sizeof Prefix, "gmem-sched: %10.1f us ", double(nowNs() - Start) / 1e3);
  va_list A;
  va_start(A, Fmt);
  vreport(Prefix, Fmt, A);
  va_end(A);
}

void Scheduler::error(const char *Fmt, ...) const {
  if (!Opts.LogErrors)
    return;
  va_list A;
  va_start(A, Fmt);
  vreport("gmem: scheduler: ", Fmt, A);
  va_end(A);
}

Scheduler::Context *Scheduler::context(bool Create) {
  CUcontext Ctx = nullptr;
  unsigned long long Id = 0;
  if (D.ctxGetCurrent(&Ctx) != CUDA_SUCCESS || !Ctx || D.ctxGetId(Ctx, &Id) != CUDA_SUCCESS)
    return nullptr;
  ContextCache &TC = TLContext;
  if (TC.Owner == Uid && TC.Id == Id) {
    Context *C = static_cast<Context *>(TC.C);
    return C->Ready && !C->Dead ? C : nullptr;
  }
  std::lock_guard<std::mutex> Lock(ContextsMu);
  Context *C = nullptr;
  for (auto &P : Contexts)
    if (P->Id == Id)
      C = P.get();
  if (!C && !Create)
    return nullptr;
  if (!C) {
    // Context ids are unique for the life of the process: a destroyed
    // context's state is never found again (its resources died with it).
    Contexts.emplace_back(new Context());
    C = Contexts.back().get();
    C->Id = Id;
    C->Ctx = Ctx;
    RelaxedCapture Relaxed(D);
    C->Ready = initContext(*C);
  }
  TC = ContextCache{Uid, Id, C};
  return C->Ready && !C->Dead ? C : nullptr;
}

Scheduler::StreamState &Scheduler::streamOf(Context &C, CUstream S) {
  StreamKey K{reinterpret_cast<uint64_t>(S), 0};
  if (S == CU_STREAM_PER_THREAD) // one handle, one stream per thread
    K.Thread = uint64_t(pthread_self());
  auto &P = C.Streams[K];
  if (!P) {
    P.reset(new StreamState());
    P->Handle = S;
  }
  return *P;
}

StreamRole Scheduler::roleOf(CUstream Raw, bool PerThreadStream) const {
  const CUstream S = Raw ? Raw : PerThreadStream ? CU_STREAM_PER_THREAD : CU_STREAM_LEGACY;
  StreamRole Role;
  if (S == CU_STREAM_LEGACY)
    return Role; // takes no part in scheduling (launch())
  Role.Level = levelOf(Raw, S);
  Role.Unpreempted = Role.Level >= TopLevel;
  Role.WantsRegions = Role.Unpreempted && Opts.L2Persist && Raw; // keepUrgentReadsInL2
  return Role;
}

int Scheduler::levelOf(CUstream Raw, CUstream Normalized) const {
  std::shared_lock<std::shared_mutex> Lock(PrioMu);
  if (!StreamPrio.empty()) {
    auto It = StreamPrio.find(reinterpret_cast<uint64_t>(Raw));
    if (It == StreamPrio.end() && Raw != Normalized)
      It = StreamPrio.find(reinterpret_cast<uint64_t>(Normalized));
    if (It != StreamPrio.end())
      return It->second;
  }
  return ProcessPrio.load(std::memory_order_relaxed);
}

void Scheduler::refreshBusy(Context &C, uint32_t Levels, uint64_t Now) {
  // A stream found idle finished its work at some time since it was last
  // seen busy (or launched on): LastBusyNs keeps that time. Moving it to
  // now would make the monitor's first look after a quiet period (see
  // quietUntil) hold the resume for a second linger.
  uint32_t Busy = 0;
  for (auto &KV : C.Streams) {
    StreamState &St = *KV.second;
    if (!(St.BusyLevels & Levels))
      continue;
    // A stream the program has begun to capture since its last urgent
    // launch must not be queried (the driver would refuse and invalidate
    // the capture); its work counts as done.
    CUstreamCaptureStatus Cap = CU_STREAM_CAPTURE_STATUS_NONE;
    CUresult Q = CUDA_SUCCESS;
    if (St.Handle == CU_STREAM_PER_THREAD)
      Q = D.eventQuery(St.Tail);
    else if (D.streamIsCapturing(St.Handle, &Cap) == CUDA_SUCCESS &&
             Cap == CU_STREAM_CAPTURE_STATUS_NONE)
      Q = D.streamQuery(St.Handle);
    if (Q == CUDA_ERROR_NOT_READY)
      Busy |= St.BusyLevels;
    else
      St.BusyLevels = 0;
  }
  for (int L = 0; L < NumLevels; ++L) {
    if (!(Levels & levelBit(L)))
      continue;
    LevelView &V = C.View.Level[L];
    V.Busy = (Busy & levelBit(L)) != 0;
    if (V.Busy)
      V.LastBusyNs = Now;
  }
}

CUresult Scheduler::launch(const SchedLaunch &L, const LaunchRecord *Rec, OriginalLaunch Original) {
  const LaunchScope InLaunch;
  [[maybe_unused]] const uint64_t ProfT0 = GMEM_PROF_NOW();
  GMEM_PROF_GATED(false);
  N.Launches.fetch_add(1, std::memory_order_relaxed);
  CUstream S = L.Stream ? L.Stream : L.PerThreadStream ? CU_STREAM_PER_THREAD : CU_STREAM_LEGACY;
  // The legacy default stream synchronises with every blocking stream:
  // holding work there, or behind it, would make urgent work wait for
  // suppressed work. It takes no part in scheduling.
  if (S == CU_STREAM_LEGACY) {
    N.Passed.fetch_add(1, std::memory_order_relaxed);
    return legacyLaunch(L, Original);
  }
  if (!D.available()) {
    static std::once_flag Once;
    std::call_once(Once, [this] {
      error("the CUDA driver lacks entry points the scheduler needs; launches pass through");
    });
    N.Passed.fetch_add(1, std::memory_order_relaxed);
    return Original();
  }
  const int P = L.Level >= 0 ? L.Level : levelOf(L.Stream, S);
  // A capturing stream's launches do not run now: they pass through and
  // suppress nothing. Asked at once below the top level (such a launch
  // would be gated) and on the per-thread stream (tracked by an event
  // record, which must not go into a capture); on other top-level streams
  // only when the launch would suppress, as most urgent launches find the
  // levels below already suppressed (a driver call less on the
  // latency-critical path). Such a captured launch may still mark its
  // stream busy: the monitor never queries a capturing stream
  // (refreshBusy), and the resume linger is at most extended.
  auto Capturing = [&] {
    CUstreamCaptureStatus Cap = CU_STREAM_CAPTURE_STATUS_NONE;
    return D.streamIsCapturing(S, &Cap) != CUDA_SUCCESS || Cap != CU_STREAM_CAPTURE_STATUS_NONE;
  };
  const bool CaptureAskedFirst = P < TopLevel || S == CU_STREAM_PER_THREAD;
  Context *C = nullptr;
  if ((CaptureAskedFirst && Capturing()) || !(C = context())) {
    N.Passed.fetch_add(1, std::memory_order_relaxed);
    return Original();
  }
  const bool Coop = cooperative(L);

  // Relaxed capture mode only where the scheduler makes calls of its own
  // beyond queries (a real-time launch usually makes none).
  std::optional<RelaxedCapture> Relaxed;
  if (P < TopLevel || S == CU_STREAM_PER_THREAD)
    Relaxed.emplace(D);
  std::unique_lock<std::mutex> Lock(C->Mu);
  StreamState &St = streamOf(*C, S);
  recycle(*C, St);
  const uint64_t Now = nowNs();
  C->View.UsedLevels |= levelBit(P);
  refreshBusy(*C, levelsAbove(P), Now);
  uint32_t Suppressed = 0;
  for (int Lv = 0; Lv < NumLevels; ++Lv)
    if (C->View.Level[Lv].Suppressed)
      Suppressed |= levelBit(Lv);
  // A function's first launch in the context (SchedFirstLaunch.cpp): it
  // stops nothing, and goes onto the GPU only once nothing waits at a gate
  // or hold. A captured launch is not one (it does not run now).
  const bool First = Opts.QuietFirstLaunches && !L.Graph && L.F && !C->Launched.count(L.F);
  uint32_t Mask = policy().suppressOnArrival(C->View, P, ArrivalHints{}, Now) & ~Suppressed;
  if (policy().id() == GMEM_SCHED_POLICY_FAIR_SHARE &&
      (StrictPriorityPolicy::strictArrival(C->View, P) & ~Suppressed & ~Mask))
    N.ShareArrivalsSpared.fetch_add(1, std::memory_order_relaxed);
  if ((Mask || First) && !CaptureAskedFirst && Capturing()) {
    N.Passed.fetch_add(1, std::memory_order_relaxed);
    return Original(); // (C->Mu is released on return)
  }
  // (A launch below real time may run its clone, not the kernel: it stops
  // as usual, and waits for quiet only if it does launch the kernel.)
  if (Mask && ((First && (P >= TopLevel || Coop)) || !mayStop(*C))) {
    N.FirstLaunchStopsSkipped.fetch_add(1, std::memory_order_relaxed);
    log("urgent launch stops nothing: %s", First ? "its function's first" : "a first launch waits");
    Mask = 0;
  }
  // The kernel as compiled, noted when it was the function's first.
  auto Noted = [&] {
    const CUresult R = Original();
    if (First && R == CUDA_SUCCESS && C->Launched.insert(L.F).second)
      noteFirst(*C, L.F);
    return R;
  };
  const OriginalLaunch NotedOriginal(Noted);
  if (Mask & levelsBelow(P))
    N.Urgent.fetch_add(1, std::memory_order_relaxed);
  if (Mask) {
    if (!Relaxed)
      Relaxed.emplace(D);
    suppress(*C, Mask, Now);
  }

  CUresult R;
  GMEM_PROF_ADD(SchedPre, GMEM_PROF_NOW() - ProfT0);
  if (P >= TopLevel || Coop) {
    if (P < TopLevel)
      N.Passed.fetch_add(1, std::memory_order_relaxed);
    if (First)
      quietForFirst(*C, Lock, "a kernel");
    R = NotedOriginal();
  } else {
    GMEM_PROF_GATED(true);
    if (L.Graph) {
      static std::once_flag Once;
      std::call_once(Once, [this] {
        log("a graph launch below real time is held back until it starts, then runs to its end "
            "(its kernels have no clones)");
      });
    }
    holdOnHost(*C, St, P, Lock);
    R = gatedLaunch(*C, St, L, S, P, Rec, NotedOriginal, Lock, First);
  }
  // Blocks of launches recycle() found finished go back to the pool only
  // now, behind this launch: their side-stream zeroing cost a program that
  // waits for each kernel ~2.5 us before its kernel could start (H200,
  // bench/runtime/RESULTS.md). This launch takes another block meanwhile.
  // At most ReleasesPerLaunch of them (a memset and an event each, ~1.6 us
  // of host time): the first launch after a burst of eight clones found all
  // eight finished and took ~13 us longer to return to a program that waits
  // for each kernel (H200: layernorm_rows +56% -> +268% with the host's
  // path, bench/preempt/results/session31). The rest wait for the next
  // launches, which on average finish one each; a pool that runs out
  // releases them all (recycleAll).
  releaseFinished(*C, ReleasesPerLaunch);
  // Work above best effort is watched per stream (the monitor asks whether
  // the stream is idle); only needed when lower levels exist to suppress.
  if (R == CUDA_SUCCESS && P > 0 && (C->View.UsedLevels & levelsBelow(P))) {
    bool Tracked = true;
    if (S == CU_STREAM_PER_THREAD)
      Tracked = (St.Tail || D.eventCreate(&St.Tail, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS) &&
                D.eventRecord(St.Tail, S) == CUDA_SUCCESS;
    if (Tracked) {
      St.BusyLevels |= levelBit(P);
      C->View.Level[P].Busy = true;
      C->View.Level[P].LastBusyNs = Now;
      C->View.Level[P].LastLaunchNs = Now;
    }
  }
  // The monitor (which resumes the victims later) is woken only now: waking
  // it took ~2 us of the urgent launch's path on the H200's host
  // (bench/colocation/results/diag), and nothing needs it sooner.
  if (Mask) {
    Lock.unlock();
    GMEM_PROF_SCOPE(Wake);
    wakeMonitor();
  } else if (Opts.ChaosIntervalNs && R == CUDA_SUCCESS && P < TopLevel) {
    chaosAtLaunch(*C, Now);
    Lock.unlock();
    wakeMonitor(); // chaos testing: the monitor times the next synthetic preemption
  } else if (C->ScaleProbeWake) {
    C->ScaleProbeWake = false;
    Lock.unlock();
    wakeMonitor(); // it stops the segment scale's probe once that runs
  }
  return R;
}
} // namespace sched
} // namespace rt
} // namespace gmem

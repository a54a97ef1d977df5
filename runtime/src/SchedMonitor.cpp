// The scheduler's monitor: watches urgent work and preempted launches from
// a thread of its own (only while something is suppressed or preempted),
// resumes suppressed levels, relaunches stopped launches on companion
// streams, and releases their streams once a relaunch has finished.
#include "Scheduler.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>

namespace gmem {
namespace rt {
namespace sched {

namespace {
/// Relaunch attempts before a stopped launch is given up (its stream
/// released with the launch incomplete, reported). Relaunches only fail
/// when the context itself is broken.
constexpr unsigned MaxRelaunchFailures = 100;

/// The CPUs the process could use when libgmemrt was loaded (on the loading
/// thread, normally the main thread before the program places any thread).
/// The monitor runs there rather than where the thread that first needed it
/// was placed: a program that pins its urgent thread to one CPU would
/// otherwise have the monitor share it.
struct LoadAffinity {
  cpu_set_t Set;
  bool Ok;
  LoadAffinity() { Ok = sched_getaffinity(0, sizeof Set, &Set) == 0; }
};
const LoadAffinity ProcessCpus;
} // namespace

void Scheduler::sampleDrain(Context &C, Slot &S) {
  (void)C;
  S.Sampled = true;
  float Ms = 0;
  const bool Ok = D.eventElapsed(&Ms, S.EvReq, S.EvDrain) == CUDA_SUCCESS && Ms >= 0;
  if (S.ScaleProbe == 2)
    scaleProbeDrained(S, Ok ? double(Ms) * 1e3 : -1);
  if (!Ok)
    return; // the clone had finished before the request landed
  uint64_t Ns = uint64_t(double(Ms) * 1e6);
  std::lock_guard<std::mutex> Lock(DrainMu);
  if (Drains.size() < DrainRing)
    Drains.push_back(Ns);
  else
    Drains[DrainCount % DrainRing] = Ns;
  ++DrainCount;
}

void Scheduler::sampleTiming(Slot &S) {
  // A stopped launch's time holds its stop and its wait for a relaunch:
  // it says nothing about how long a virtual CTA takes.
  if (S.PreemptGen != 0) {
    S.Timed = S.TimedEnd = false;
    return;
  }
  const CUresult Q = D.eventQuery(S.EvDrain);
  if (Q == CUDA_ERROR_NOT_READY)
    return; // still running: asked again at the next poll or recycle
  float EndMs = -1;
  if (S.TimedEnd) {
    const CUresult QE = D.eventQuery(S.EvEnd);
    if (QE == CUDA_ERROR_NOT_READY)
      return;
    if (QE != CUDA_SUCCESS || D.eventElapsed(&EndMs, S.EvStart, S.EvEnd) != CUDA_SUCCESS)
      EndMs = -1;
  }
  S.Timed = S.TimedEnd = false;
  float Ms = 0;
  if (Q != CUDA_SUCCESS || D.eventElapsed(&Ms, S.EvStart, S.EvDrain) != CUDA_SUCCESS || !(Ms >= 0))
    return;
  const CloneKind Kind = S.kind(); // from its function: relaunches keep it
  const uint64_t Total = ctaCount(S.UserGrid);
  const double Us = double(Ms) * 1e3;
  const CloneChooser::Outcome O = S.Clone->Chooser.record(
      S.ShapeKey, Kind, Us, Total, S.Resident ? S.Resident : S.Grid[0], S.Spread,
      EndMs >= Ms ? double(EndMs) * 1e3 : 0, S.Scale);
  if (O.switched())
    N.SwitchedTo[size_t(CloneChooser::kindOf(O.To))].fetch_add(1, std::memory_order_relaxed);
  log("kernel %s shape %016llx: %s launch #%llu took %.1f us, %llu virtual CTAs on %u (spread "
      "%u, scale %u): tau %.2f us; %s -> %s, spread %u",
      S.Clone->Symbol.c_str(), (unsigned long long)S.ShapeKey, cloneKindName(Kind),
      (unsigned long long)S.Seq, Us, (unsigned long long)Total, S.Grid[0], S.Spread,
      unsigned(S.Scale), O.TauUs,
      CloneChooser::name(O.From), O.Used ? CloneChooser::name(O.To) : "(shape forgotten)",
      O.Spread);
}

bool Scheduler::relaunch(Context &C, StreamState &St, Slot &S) {
  if (!S.Sampled) {
    if (D.eventQuery(S.EvDrain) == CUDA_SUCCESS)
      sampleDrain(C, S);
    S.Sampled = true; // the drain event is about to be re-recorded
  }
  if (!St.Companion &&
      D.streamCreate(&St.Companion, CU_STREAM_NON_BLOCKING, C.PrioLeast) != CUDA_SUCCESS)
    St.Companion = nullptr;
  // request = 0 goes through the control stream, so that a later stop
  // request (same stream) lands after it; the relaunch waits for that
  // write and for the previous instance to have drained (no CTA may run
  // twice at once). Only request is rewritten: the done bitmap, or a
  // persistent clone's ticket counter and redo words, say what is left.
  // Same function and grid (a persistent clone's P: its redo words are per
  // CTA; the light, alternate and free clones' P are their own), same arguments
  // (the user's grid among them).
  KernelLaunch K;
  K.F = S.Fn;
  for (int I = 0; I < 3; ++I) {
    K.Grid[I] = S.Grid[I];
    K.Block[I] = S.Block[I];
  }
  K.Shmem = S.Shmem;
  K.Stream = St.Companion;
  K.Extra = S.Extra;
  CUresult R = St.Companion ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
  if (R == CUDA_SUCCESS)
    R = D.streamWrite(C.Ctrl, S.request(), 0);
  if (R == CUDA_SUCCESS)
    R = D.eventRecord(S.EvCtl, C.Ctrl);
  if (R == CUDA_SUCCESS)
    R = D.streamWaitEvent(St.Companion, S.EvCtl);
  if (R == CUDA_SUCCESS)
    R = D.streamWaitEvent(St.Companion, S.EvDrain);
  if (R == CUDA_SUCCESS)
    R = D.launch(K);
  if (R == CUDA_SUCCESS)
    R = D.eventRecord(S.EvDrain, St.Companion);
  if (R != CUDA_SUCCESS) {
    if (++S.RelaunchFailures >= MaxRelaunchFailures) {
      error("relaunch of preempted launch #%llu failed %u times (error %d); its stream continues "
            "with the launch incomplete",
            (unsigned long long)S.Seq, S.RelaunchFailures, int(R));
      D.streamWrite(C.Ctrl, S.hold(), 0);
      S.Preempted = false;
      C.HostHeld.notify_all();
    }
    return false;
  }
  S.Relaunching = true;
  S.RelaunchGen = S.PreemptGen;
  S.RunSinceNs = policy().id() == GMEM_SCHED_POLICY_FAIR_SHARE ? nowNs() : 0;
  N.Relaunches.fetch_add(1, std::memory_order_relaxed);
  log("relaunch launch #%llu (generation %u, grid %ux%ux%u of %ux%ux%u)", (unsigned long long)S.Seq,
      S.PreemptGen, S.Grid[0], S.Grid[1], S.Grid[2], S.UserGrid[0], S.UserGrid[1], S.UserGrid[2]);
  return true;
}

void Scheduler::resume(Context &C, int L, bool Forced, uint64_t Now) {
  for (auto &KV : C.Streams)
    for (Slot *S : KV.second->Slots)
      if (S->Level == L && S->Preempted && !S->Relaunching)
        relaunch(C, *KV.second, *S);
  // Relaunches first, then the gate: finishing stopped work comes before
  // starting new work of the level.
  D.streamWrite(C.Ctrl, C.Gates + sizeof(uint32_t) * unsigned(L), 0);
  LevelView &V = C.View.Level[L];
  noteShareTransition(V, Now, C.View.ShareWindowNs);
  V.Suppressed = false;
  V.SuppressedTotalNs += Now - V.SuppressedSinceNs;
  C.HostHeld.notify_all();
  if (Forced) {
    // Urgent work did not finish in time: most likely it depends on the
    // suppressed work (an event or the legacy stream). Stop suppressing
    // until the urgent work has drained.
    C.View.Inversion = true;
    N.Forced.fetch_add(1, std::memory_order_relaxed);
    error("level %d suppressed for more than %llu ms; resumed (does urgent work wait for it?)", L,
          (unsigned long long)(Opts.MaxHoldNs / 1000000));
  }
  log("resume level %d%s", L, Forced ? " (forced)" : "");
}

void Scheduler::resumeAllLocked(Context &C, uint64_t Now) {
  for (int L = NumLevels - 1; L >= 0; --L)
    if (C.View.Level[L].Suppressed)
      resume(C, L, false, Now);
}

void Scheduler::endShares(Context &C, uint64_t Now, bool &More, uint64_t &WakeBy) {
  // A level given a slice runs beside the levels above it, whose kernels
  // wait for its thread blocks meanwhile: at the slice's end it is stopped
  // again where they still have work (their Busy flags as the last look or
  // launch left them), by this thread since no arrival does.
  uint32_t End = 0;
  for (int L = 0; L < TopLevel; ++L) {
    LevelView &V = C.View.Level[L];
    if (!V.SliceEndNs)
      continue;
    bool Above = false;
    for (int H = L + 1; H < NumLevels; ++H)
      Above |= C.View.Level[H].Busy;
    if (V.Suppressed || !Above) {
      V.SliceEndNs = 0; // stopped by other means, or nothing above it left
      continue;
    }
    More = true;
    if (Now < V.SliceEndNs)
      WakeBy = std::min(WakeBy, V.SliceEndNs);
    else
      End |= levelBit(L);
  }
  // (A first launch waiting for quiet, or a forced resume, holds the stop:
  // asked again at the next poll.)
  if (End && !C.View.Inversion && mayStop(C)) {
    N.ShareEnds.fetch_add(1, std::memory_order_relaxed);
    log("slice of levels 0x%x over: suppress again", End);
    suppress(C, End, Now); // (clears the levels' slices)
    // The levels above now run on their own for their part of the share
    // (a stop charges the level the work it cut, which could otherwise
    // starve it again at once, slice after slice).
    for (int L = 0; L < TopLevel; ++L)
      if (End & levelBit(L))
        C.View.Level[L].NextSliceNs = Now + FairPolicy.gapAfter(Opts.ShareSliceNs);
  }
}

uint64_t Scheduler::quietUntil(const Context &C, uint64_t Now) const {
  // Strict priority resumes a level only once every level above it has
  // been idle for the linger; a launch counts as busy when issued. So while
  // each suppressed level has a launch above it within the linger, no
  // resume can be due and the monitor has nothing to ask the driver: its
  // stream queries would only contend with the urgent thread's launches
  // (the co-location chain's kernels were measured slower while they ran).
  const uint64_t Linger = C.View.ResumeLingerNs;
  uint64_t Until = UINT64_MAX;
  bool Any = false;
  for (int L = 0; L < NumLevels; ++L) {
    const LevelView &V = C.View.Level[L];
    if (!V.Suppressed)
      continue;
    Any = true;
    if (Now - V.SuppressedSinceNs > Opts.MaxHoldNs)
      return 0;
    // A policy may let the level run again at a time of its own (fair
    // share: once it has been suppressed for too long).
    const uint64_t Due = policy().resumeDueNs(C.View, L, Now);
    if (Due <= Now)
      return 0;
    uint64_t Last = 0;
    for (int H = L + 1; H < NumLevels; ++H)
      Last = std::max(Last, C.View.Level[H].LastLaunchNs);
    if (!Last || Now - Last >= Linger)
      return 0;
    Until = std::min({Until, Last + Linger, Due});
  }
  return Any ? Until : 0;
}

bool Scheduler::settleSlots(Context &C, uint32_t Suppressed) {
  bool More = false;
  if (Opts.MaxOverhead > 0 || Opts.ShortUs > 0)
    sampleOriginals(C);
  for (auto &KV : C.Streams) {
    for (Slot *S : KV.second->Slots) {
      if (S->Timed)
        sampleTiming(*S);
      if (S->Preempted && !S->Sampled && !S->Relaunching &&
          D.eventQuery(S->EvDrain) == CUDA_SUCCESS)
        sampleDrain(C, *S);
      if (S->Relaunching && D.eventQuery(S->EvDrain) != CUDA_ERROR_NOT_READY) {
        if (!S->Sampled)
          sampleDrain(C, *S); // a relaunch stopped again: its drain
        S->Relaunching = false;
        if (S->PreemptGen == S->RelaunchGen) {
          // Every CTA has finished: let the program's stream go on.
          D.streamWrite(C.Ctrl, S->hold(), 0);
          S->Preempted = false;
          C.HostHeld.notify_all();
          log("release launch #%llu", (unsigned long long)S->Seq);
        }
      }
      // Stopped, and its level runs again (a failed relaunch, or a
      // preemption of a relaunch): relaunch now.
      // (A scale's stop probe waits for its drain first: the relaunch
      // records the drain event again.)
      if (S->Preempted && !S->Relaunching && !(Suppressed & levelBit(S->Level)) &&
          !(S->ScaleProbe == 2 && !S->Sampled))
        relaunch(C, *KV.second, *S);
      More |= S->Preempted || S->Relaunching;
    }
  }
  return More;
}

void Scheduler::pollContext(Context &C, uint64_t Now, bool &More, uint64_t &NotBefore,
                            bool &Urgent, uint64_t &WakeBy) {
  // Chaos testing: a synthetic preemption may be due; its hold keeps the
  // levels suppressed like urgent work that has not finished.
  const bool ChaosHeld = chaosTick(C, Now, More, WakeBy);
  probeScales(C, Now, More, WakeBy);
  // A relaunch of a suppressed level was stopped again: seeing it drain can
  // wait for the level's resume (it needs another relaunch anyway). Any
  // other relaunch is watched at every poll (its stream waits for it).
  bool Relaunching = false, WatchRelaunch = false;
  for (auto &KV : C.Streams)
    for (Slot *S : KV.second->Slots)
      if (S->Relaunching) {
        Relaunching = true;
        WatchRelaunch |= !C.View.Level[S->Level].Suppressed;
      }
  for (const LevelView &V : C.View.Level)
    Urgent |= V.Suppressed;
  endShares(C, Now, More, WakeBy);
  if (!WatchRelaunch) {
    if (uint64_t Until = quietUntil(C, Now)) {
      More = true;
      NotBefore = std::min(NotBefore, Until);
      return;
    }
  }
  refreshBusy(C, (1u << NumLevels) - 1, Now);
  uint32_t Suppressed = 0;
  bool AnyBusy = false, ResumeDue = false;
  for (int L = 0; L < NumLevels; ++L) {
    const LevelView &V = C.View.Level[L];
    AnyBusy |= V.Busy;
    if (!V.Suppressed)
      continue;
    Suppressed |= levelBit(L);
    ResumeDue |= Now - V.SuppressedSinceNs > Opts.MaxHoldNs ||
                 (!ChaosHeld && policy().mayResume(C.View, L, Now));
  }
  if (C.View.Inversion && !AnyBusy)
    C.View.Inversion = false;
  // While urgent work runs there is nothing to do but to watch it: no
  // driver calls beyond that (the program's urgent launches share the
  // context lock and the driver with this thread).
  if (Suppressed && !ResumeDue && !Relaunching) {
    More = true;
    return;
  }
  More |= settleSlots(C, Suppressed);
  for (int L = TopLevel - 1; L >= 0; --L) {
    LevelView &V = C.View.Level[L];
    if (!V.Suppressed)
      continue;
    const bool Forced = Now - V.SuppressedSinceNs > Opts.MaxHoldNs;
    if (Forced || (!ChaosHeld && policy().mayResume(C.View, L, Now))) {
      if (!Forced && !StrictPriorityPolicy::strictResume(C.View, L, Now)) {
        N.ShareResumes.fetch_add(1, std::memory_order_relaxed);
        log("resume level %d for a slice of its share", L);
        V.SliceEndNs = Now + Opts.ShareSliceNs;
      }
      resume(C, L, Forced, Now);
    }
    else
      More = true;
  }
  // Relaunches just issued must be watched until they finish.
  for (auto &KV : C.Streams)
    for (Slot *S : KV.second->Slots)
      More |= S->Preempted || S->Relaunching;
}

bool Scheduler::poll() {
  PollHints Ignored;
  return poll(Ignored);
}

bool Scheduler::poll(PollHints &H) {
  std::vector<Context *> Cs;
  {
    std::lock_guard<std::mutex> Lock(ContextsMu);
    for (auto &P : Contexts)
      if (P->Ready && !P->Dead)
        Cs.push_back(P.get());
  }
  bool More = false, Urgent = false;
  uint64_t NotBefore = UINT64_MAX, WakeBy = UINT64_MAX;
  CUcontext Prev = nullptr;
  D.ctxGetCurrent(&Prev);
  for (Context *C : Cs) {
    unsigned long long Id = 0;
    if (D.ctxSetCurrent(C->Ctx) != CUDA_SUCCESS || D.ctxGetId(C->Ctx, &Id) != CUDA_SUCCESS ||
        Id != C->Id) {
      C->Dead = true; // destroyed (its handle may even name another context now)
      log("context %llu is gone", C->Id);
      continue;
    }
    std::lock_guard<std::mutex> Lock(C->Mu);
    pollContext(*C, nowNs(), More, NotBefore, Urgent, WakeBy);
  }
  if (!Cs.empty())
    D.ctxSetCurrent(Prev);
  H.NotBeforeNs = NotBefore == UINT64_MAX ? 0 : NotBefore;
  H.Urgent = Urgent;
  H.WakeByNs = WakeBy == UINT64_MAX ? 0 : WakeBy;
  return More;
}

void Scheduler::wakeMonitor() {
  if (!Opts.MonitorThread)
    return;
  std::lock_guard<std::mutex> Lock(MonMu);
  ++MonWakes;
  if (!MonStarted && !MonStop) {
    MonStarted = true;
    Monitor = std::thread([this] { monitorMain(); });
    shutdownAtExit();
  }
  MonCv.notify_one();
}

void Scheduler::shutdownAtExit() {
  if (isProcessScheduler(this))
    std::call_once(AtExitOnce, [] { std::atexit([] { Scheduler::global().shutdown(); }); });
}

void Scheduler::monitorMain() {
  // This thread captures nothing; its calls must not be refused while
  // another thread captures in global mode.
  CUstreamCaptureMode Mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  D.exchangeCaptureMode(&Mode);
  // Poll intervals of tens of microseconds: the default 50 us timer slack
  // would triple them.
  prctl(PR_SET_TIMERSLACK, 1000UL, 0UL, 0UL, 0UL);
  if (ProcessCpus.Ok)
    pthread_setaffinity_np(pthread_self(), sizeof ProcessCpus.Set, &ProcessCpus.Set);
  std::unique_lock<std::mutex> Lock(MonMu);
  uint64_t Seen = 0;
  while (!MonStop) {
    if (Seen == MonWakes) {
      MonCv.wait(Lock, [&] { return MonStop || Seen != MonWakes; });
      continue;
    }
    const uint64_t Wakes = MonWakes;
    Lock.unlock();
    PollHints H;
    const bool More = poll(H);
    Lock.lock();
    if (!More) {
      Seen = Wakes; // idle until the next wake (a wake during poll keeps us going)
      continue;
    }
    // The poll interval, or longer while nothing can be due before then
    // (at most one linger). Nothing suppressed: only relaunches to see
    // finish, which release their streams. Slower polls leave the driver
    // to the program (each query shares its locks with the program's
    // launches).
    uint64_t Sleep = H.Urgent ? Opts.PollIntervalNs : Opts.WatchIntervalNs;
    const uint64_t Now = nowNs();
    if (H.NotBeforeNs > Now)
      Sleep = std::max(Sleep, H.NotBeforeNs - Now);
    if (H.WakeByNs) // chaos testing: the next synthetic preemption or resume
      Sleep = std::min(Sleep, H.WakeByNs > Now ? H.WakeByNs - Now : 0);
    // A wake (a new suppression) ends the wait: a suppression during a
    // long relaunch watch must not wait for the watch to end before its
    // resume is planned. With sleep_for and a 2 ms watch the training kept
    // 14.5 of 27.5 kernels/s beside the chain, with this wait 26.5
    // (bench/colocation/results/diag/watch_ab.jsonl.gz).
    MonCv.wait_for(Lock, std::chrono::nanoseconds(Sleep),
                   [&] { return MonStop || MonWakes != Wakes; });
  }
}

int Scheduler::flush(int TimeoutMs) {
  {
    std::vector<Context *> Cs;
    {
      std::lock_guard<std::mutex> Lock(ContextsMu);
      for (auto &P : Contexts)
        if (P->Ready && !P->Dead)
          Cs.push_back(P.get());
    }
    CUcontext Prev = nullptr;
    D.ctxGetCurrent(&Prev);
    for (Context *C : Cs) {
      if (D.ctxSetCurrent(C->Ctx) != CUDA_SUCCESS)
        continue;
      std::lock_guard<std::mutex> Lock(C->Mu);
      resumeAllLocked(*C, nowNs());
    }
    if (!Cs.empty())
      D.ctxSetCurrent(Prev);
  }
  const uint64_t End = nowNs() + uint64_t(TimeoutMs > 0 ? TimeoutMs : 0) * 1000000ull;
  for (;;) {
    if (!poll())
      return GMEM_SUCCESS;
    if (nowNs() >= End)
      return GMEM_ERROR_NO_LAUNCH;
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
}

int Scheduler::enable(bool On) {
  if (Opts.Forbidden)
    return GMEM_ERROR_DISABLED;
  bool Was = Active.exchange(On, std::memory_order_acq_rel);
  if (Was && !On) {
    flush(0); // resume everything; the monitor finishes the relaunches
    wakeMonitor();
  }
  return GMEM_SUCCESS;
}

void Scheduler::shutdown() {
  const bool WasActive = Active.exchange(false, std::memory_order_acq_rel);
  flush(2000);
  if (WasActive && Opts.ChaosIntervalNs && Opts.LogErrors)
    std::fprintf(stderr,
                 "gmem: chaos: %llu synthetic preemptions stopped %llu launches (%llu at loop "
                 "checkpoints), %llu relaunches, %llu forced resumes, %llu launches held on the "
                 "host\n",
                 (unsigned long long)N.Chaos.load(), (unsigned long long)N.Preemptions.load(),
                 (unsigned long long)N.PreemptionsLoop.load(),
                 (unsigned long long)N.Relaunches.load(), (unsigned long long)N.Forced.load(),
                 (unsigned long long)N.HostHolds.load());
  {
    std::lock_guard<std::mutex> Lock(MonMu);
    MonStop = true;
    MonCv.notify_one();
  }
  if (Monitor.joinable())
    Monitor.join();
  if (const uint64_t W = N.LatchWatchdogOpens.load(); W && Opts.LogErrors)
    std::fprintf(stderr, "gmem: %llu timing latches opened by the watchdog (of %llu)\n",
                 (unsigned long long)W, (unsigned long long)N.LatchedTimings.load());
  {
    std::lock_guard<std::mutex> Lock(WatchMu);
    WatchStop = true;
    WatchCv.notify_one();
  }
  if (Watch.joinable())
    Watch.join();
}

Scheduler::~Scheduler() { shutdown(); }

} // namespace sched
} // namespace rt
} // namespace gmem

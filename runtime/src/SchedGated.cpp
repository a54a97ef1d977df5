// A launch below real time once Scheduler::launch (Scheduler.cpp) has
// decided what it suppresses: held on the host while its stream cannot
// move (holdOnHost), then put onto its stream behind its level's gate, as
// its preemptible clone with a control block where it has one
// (gatedLaunch), else as compiled. Apart from Scheduler.cpp so that each
// file stays under ~600 lines.
#include "Scheduler.h"

#include "LaunchProfile.h"

#include "Runtime.h"

#include <algorithm>
#include <chrono>

namespace gmem {
namespace rt {
namespace sched {

namespace {

/// Launch attributes a clone can carry unchanged (performance hints). Any
/// other (clusters, programmatic dependencies, completion events...) ties
/// the launch to the original kernel: it is gated but not preemptible.
bool attributesAllowClone(const SchedLaunch &L) {
  for (unsigned I = 0; I < L.NumAttrs; ++I) {
    switch (L.Attrs[I].id) {
    case CU_LAUNCH_ATTRIBUTE_IGNORE:
    case CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW:
    case CU_LAUNCH_ATTRIBUTE_PRIORITY:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP:
    case CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN:
    case CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
      break;
    default:
      return false;
    }
  }
  return true;
}

} // namespace

void Scheduler::holdOnHost(Context &C, StreamState &St, int P, std::unique_lock<std::mutex> &Lock) {
  // The scheduler's lock is held while a launch's work goes onto the
  // program's stream (a suppression must see the launch once it can run).
  // Behind a closed gate or a preempted launch's hold the stream does not
  // move, so enough launches in a row fill it, and the driver then blocks
  // the enqueuing call: with the lock held, the monitor could never reopen
  // the gate (PolyBench's 3DCONV, 254 launches in a row, hung under
  // GMEM_SCHED_CHAOS on the H200). So once HostHoldAfter launches of a
  // stream are not finished, a launch that would only queue behind them
  // waits here instead, without the lock, until the level resumes and the
  // stream's preempted launch is released (forced resumes bound the wait):
  // at most that many launches in flight per stream while it cannot move.
  // Releasing the lock around the enqueue itself was tried: the graph
  // chain's P99 went from 278 us to 10.5 ms beside the training
  // (bench/colocation/results/diag).
  // Launches without a control block (no clone, the cap's or a short
  // launch as compiled) put behind the closed gate fill the stream too:
  // HeldBack counts them while the level stays suppressed.
  if (!C.View.Level[P].Suppressed)
    St.HeldBack = 0;
  auto Held = [&] {
    if (!active())
      return false;
    if (C.View.Level[P].Suppressed && St.HeldBack >= Opts.HostHoldAfter)
      return true;
    if (St.Slots.size() < Opts.HostHoldAfter)
      return false;
    if (C.View.Level[P].Suppressed)
      return true;
    for (const Slot *S : St.Slots)
      if (S->Preempted)
        return true;
    return false;
  };
  if (!Held())
    return;
  N.HostHolds.fetch_add(1, std::memory_order_relaxed);
  log("launch held on the host: %zu launches of its stream unfinished, level %d %s", St.Slots.size(),
      P, C.View.Level[P].Suppressed ? "suppressed" : "waits for a preempted launch");
  // Woken by resume() and by releases; the timeout only guards against a
  // missed notification.
  while (Held())
    C.HostHeld.wait_for(Lock, std::chrono::milliseconds(1));
}

CUresult Scheduler::gatedLaunch(Context &C, StreamState &St, const SchedLaunch &L, CUstream S,
                                int P, const LaunchRecord *Rec, OriginalLaunch Original,
                                std::unique_lock<std::mutex> &Lock, bool OriginalFirst) {
  N.Gated.fetch_add(1, std::memory_order_relaxed);
  const CUdeviceptr Gate = C.Gates + sizeof(uint32_t) * unsigned(P);
  CloneInfo *CI = nullptr;
  if (Rec && Rec->Entry && Rec->Instrumented && Rec->Entry->St == KernelEntry::State::Instrumented &&
      attributesAllowClone(L)) {
    const CloneInfo *Found = cloneOf(C, *Rec->Entry, Lock);
    if (Found->Ok)
      CI = const_cast<CloneInfo *>(Found);
  }
  Slot *Sl = nullptr;
  ClonePlan Plan;
  CloneChoice Choice;
  uint64_t Key = 0;
  [[maybe_unused]] uint64_t ProfT = GMEM_PROF_NOW();
  if (CI && (Opts.MaxOverhead > 0 || Opts.ShortUs > 0))
    sampleOriginals(C);
  // A grid-stride kernel's idempotent launch may run on a grid of Trips
  // loop trips per virtual CTA (GridStride.h; Trips per launch shape by
  // timing, GridStrideTuner.h): its persistent forms then stop between
  // short virtual CTAs. Every instance of the slot keeps that grid
  // (UserGrid below); a launch that falls back to the kernel as compiled
  // runs the user's grid (Original).
  SchedLaunch Regridded;
  const SchedLaunch *LP = &L;
  uint64_t UserKey = 0, ArgsHash = 0;
  unsigned Trips = 0;
  // The tuner keys the launch on its own grid, planLaunch on the one it
  // runs on: the arguments are hashed once for both.
  const bool Tuned = CI && Opts.GridStrideAuto && Rec->Idempotent &&
                     (CI->Flags & PreGridStride) && CI->persistent() &&
                     launchArgsHash(*CI, L.Params, L.Extra, ArgsHash);
  if (Tuned) {
    UserKey = launchShapeKeyOf(L.Grid, L.Block, L.Shmem, ArgsHash);
    Trips = CI->GridTuner.tripsFor(UserKey);
  }
  else if (CI && Opts.GridStrideTrips && Rec->Idempotent && (CI->Flags & PreGridStride))
    Trips = Opts.GridStrideTrips;
  if (Trips) {
    if (const uint32_t X = launchGridStrideX(*CI, L.Grid, L.Block, L.Params, L.Extra, Trips)) {
      Regridded = L;
      Regridded.Grid[0] = X;
      LP = &Regridded;
      if (!CI->GridStrideLogged) {
        CI->GridStrideLogged = true;
        log("kernel %s: a grid-stride launch proved idempotent runs %u trips per virtual CTA "
            "(%u CTAs in x instead of %u)",
            CI->Symbol.c_str(), Trips, X, L.Grid[0]);
      }
    } else if (Tuned) {
      CI->GridTuner.skip(UserKey, Trips);
      Trips = 0;
    }
  }
  const bool Planned =
      CI && planLaunch(C, *CI, *LP, *Rec, Plan, Choice, Key, Tuned ? &ArgsHash : nullptr);
  if (Tuned && Planned && Key)
    CI->GridTuner.observe(UserKey, Trips, CI->Chooser.settledUs(Key));
  if (Planned) {
    Sl = C.Pool->acquire(Plan.Words);
    if (!Sl && C.Pool->inUse() >= C.Pool->capacity()) {
      recycleAll(C);
      Sl = C.Pool->acquire(Plan.Words);
    }
    if (Sl && !buildArgs(*Sl, *CI, LP->Grid, L.Params, L.Extra, Plan.BatchK, Plan.Scale)) {
      C.Pool->release(Sl);
      Sl = nullptr;
    }
  }
  // The clone form's first launch in the context waits for quiet like the
  // kernel's own (SchedFirstLaunch.cpp), before anything goes onto S.
  if (Sl && formFirstNeedsQuiet(C, *CI, Choice.Kind, L.F))
    quietForFirst(C, Lock, CI->Symbol.c_str());
  const bool FormFirst = Sl && !CI->form(Choice.Kind).Launched;
  // A timing on an idle stream is latched (Scheduler::latch); asked before
  // a zeroing or gate wait goes onto the stream.
  const bool Latch =
      CI && Choice.Timed && Opts.LatchIdleTimings && D.streamQuery(S) == CUDA_SUCCESS;
  // The kernel as compiled for the first time (OriginalFirst: the paths
  // below that call Original) waits for quiet first (SchedFirstLaunch.cpp);
  // a launch that runs its clone does not launch it.
  const char *Name = Rec && Rec->Entry ? Rec->Entry->Symbol.c_str() : "a kernel";
  if (!Sl) {
    if (OriginalFirst)
      quietForFirst(C, Lock, Name);
    // Not preemptible (no clone or descriptor, arguments unreadable, grid
    // too large, no occupancy for a persistent clone, no control block, or
    // the overhead cap's choice): held back while not started, then runs
    // to its end. A short one may go without the gate (shortLaunch).
    if (CI && Choice.Original && Choice.Short)
      return shortLaunch(C, St, *CI, Key, Choice.Timed, Latch, S, P, Original);
    D.streamWaitEq(S, Gate, 0);
    St.UngatedUs = 0;
    St.HeldBack += C.View.Level[P].Suppressed;
    if (CI && Choice.Original)
      return cappedLaunch(C, *CI, Key, Choice.Timed, Latch, S, Original);
    return Original();
  }

  KernelLaunch K;
  K.F = Sl->Fn = CI->function(Choice.Kind); // every instance: P is this function's
  for (int I = 0; I < 3; ++I) {
    K.Grid[I] = Sl->Grid[I] = Plan.Grid[I];
    Sl->UserGrid[I] = LP->Grid[I];
    K.Block[I] = Sl->Block[I] = L.Block[I];
  }
  K.Shmem = Sl->Shmem = L.Shmem;
  K.Stream = S;
  K.Extra = Sl->Extra;
  K.Attrs = L.Attrs;
  K.NumAttrs = L.NumAttrs;
  // The whole block, once per launch: request, reserved / next, the bitmap
  // or redo words and hold all start at 0. A slot zeroed on the side stream
  // since its last launch costs this stream nothing, or a wait for that
  // memset where it may still run (it must not land on the clone's words).
  // (The slot's flags change only once the clone is on the stream: a slot
  // released after a failure here may still have its side memset pending.)
  GMEM_PROF_ADD(GatedPlan, GMEM_PROF_NOW() - ProfT);
  ProfT = GMEM_PROF_NOW();
  // The gate wait costs the program's stream ~1.3-1.9 us a launch (H200,
  // bench/preempt/micro/stream_ops.cu). A clone needs it only where a stop
  // request could miss it: suppress() stops, per stream, the first tracked
  // launch that has not drained, whose hold then keeps everything behind
  // it waiting. So a clone may go without it when its level is not
  // suppressed now (else nothing would stop it: the suppression is over),
  // every tracked launch of its stream is of its level (a suppression of
  // that level then targets whichever of them comes first; one of another
  // level would be passed over, and this launch run behind it), and its
  // block is zero already (a memset still to come on this stream or the
  // side stream could wipe a stop request written into it).
  const bool Ungated =
      !Opts.GateAlways && !C.View.Level[P].Suppressed && !Sl->ZeroQueued && !Sl->NeedsZero &&
      std::all_of(St.Slots.begin(), St.Slots.end(), [P](const Slot *O) { return O->Level == P; });
  CUresult R = CUDA_SUCCESS;
  if (Sl->ZeroQueued)
    R = D.streamWaitEvent(S, Sl->EvZero);
  else if (Sl->NeedsZero)
    R = D.memsetD32Async(Sl->Mem, 0, Sl->words(), S);
  if (R == CUDA_SUCCESS && !Ungated)
    R = D.streamWaitEq(S, Gate, 0);
  // Only a launch picked for timing gets a start mark: after the gate (time
  // held back is no run time) and the latch, right before the clone.
  bool Timed = false;
  uint32_t Open = 0;
  // A form's first launch on an idle stream is not timed: the latch may
  // not hold it, and its time would hold the host's launch call (~3 us on
  // the H200: 4.5% of a 67 us clone, enough to flip a 2% comparison of
  // forms). The chooser asks again at the next launch.
  const bool FirstUnlatched = Latch && firstUnlatched(C, CI->form(Choice.Kind).Launched);
  if (R == CUDA_SUCCESS && Choice.Timed && !FirstUnlatched &&
      (Sl->EvStart || D.eventCreate(&Sl->EvStart, CU_EVENT_DEFAULT) == CUDA_SUCCESS)) {
    Open = Latch ? latch(C, S, CI->form(Choice.Kind).Launched, CI->Symbol.c_str()) : 0;
    Timed = D.eventRecord(Sl->EvStart, S) == CUDA_SUCCESS;
  }
  // A segment scale's stop probe: its start mark tells the monitor it
  // runs (CloneScale.cpp; not a timing).
  const bool Probe = R == CUDA_SUCCESS && Choice.StopProbe && !Timed &&
                     (Sl->EvStart || D.eventCreate(&Sl->EvStart, CU_EVENT_DEFAULT) == CUDA_SUCCESS) &&
                     D.eventRecord(Sl->EvStart, S) == CUDA_SUCCESS;
  // The latch opens once everything of this launch is on the stream, on
  // every path out (before the original where the clone fails: that
  // launch may be its function's first, which must not wait behind it).
  // Stands: the watchdog had not opened it first.
  struct LatchOpener {
    Scheduler &Sch;
    Context &C;
    uint32_t V;
    bool Stands = true;
    void open() {
      Stands = Sch.openLatch(C, V) && Stands;
      V = 0;
    }
    ~LatchOpener() { open(); }
  } Opener{*this, C, Open};
  GMEM_PROF_ADD(GatedPre, GMEM_PROF_NOW() - ProfT);
  ProfT = GMEM_PROF_NOW();
  if (R == CUDA_SUCCESS)
    R = D.launch(K);
  GMEM_PROF_ADD(GatedClone, GMEM_PROF_NOW() - ProfT);
  ProfT = GMEM_PROF_NOW();
  if (R != CUDA_SUCCESS) {
    // The original gets the caller's launch as asked (and its error, if
    // the configuration itself is wrong).
    N.CloneFailures.fetch_add(1, std::memory_order_relaxed);
    C.Pool->release(Sl);
    log("clone of %s failed to launch (error %d); the original runs", Rec->Entry->Symbol.c_str(),
        int(R));
    Opener.open();
    if (OriginalFirst)
      quietForFirst(C, Lock, Name);
    return Original();
  }
  CI->form(Choice.Kind).Launched = true; // its next timed launches may be latched
  if (FormFirst)
    joinLocal(C, CI->form(Choice.Kind).LocalBytes);
  Sl->ZeroQueued = false;
  // (Only fair share reads it: no clock read on the launch path otherwise.)
  Sl->RunSinceNs = policy().id() == GMEM_SCHED_POLICY_FAIR_SHARE ? nowNs() : 0;
  Sl->NeedsZero = true; // from here on the launch's words
  St.UngatedUs = 0;     // a stop finds this clone, and its hold keeps the rest back
  if (CI->persistent())
    N.FormLaunches[size_t(Choice.Kind)].fetch_add(1, std::memory_order_relaxed);
  if (Timed)
    N.TimedLaunches.fetch_add(1, std::memory_order_relaxed);
  if (Ungated)
    N.Ungated.fetch_add(1, std::memory_order_relaxed);
  // After this point the clone is on the stream; if tracking fails the
  // slot is dropped (never reused, never preempted): the clone runs to its
  // end like any kernel.
  // The drain is timestamped for a timed launch and for one launch in
  // DrainSampleEvery (a stop of it is then timed: flushStops).
  Sl->EvDrain = Timed || Probe ||
                        N.Preemptible.load(std::memory_order_relaxed) % Opts.DrainSampleEvery == 0
                    ? Sl->EvDrainTimed
                    : Sl->EvDrainPlain;
  if (D.eventRecord(Sl->EvDrain, S) != CUDA_SUCCESS ||
      D.streamWaitEq(S, Sl->hold(), 0) != CUDA_SUCCESS ||
      D.eventRecord(Sl->EvDone, S) != CUDA_SUCCESS) {
    error("cannot track a launch of %s; it is not preemptible", Rec->Entry->Symbol.c_str());
    return CUDA_SUCCESS;
  }
  // A timed launch also times what the program's stream pays for it, up to
  // the stream passing it (the overhead cap, CloneChoice.h).
  Sl->TimedEnd = Timed &&
                 (Sl->EvEnd || D.eventCreate(&Sl->EvEnd, CU_EVENT_DEFAULT) == CUDA_SUCCESS) &&
                 D.eventRecord(Sl->EvEnd, S) == CUDA_SUCCESS;
  GMEM_PROF_ADD(GatedTrack, GMEM_PROF_NOW() - ProfT);
  Opener.open();
  if (!Opener.Stands)
    Timed = Sl->TimedEnd = false; // the watchdog's: the time holds the stall
  Sl->Clone = CI;
  Sl->Timed = Timed;
  Sl->Resident = Plan.Resident;
  Sl->Spread = Choice.Spread;
  Sl->ShapeKey = Key;
  Sl->Scale = Plan.Scale;
  Sl->ScaleProbe = Probe ? 1 : 0;
  Sl->ProbeAtNs = 0;
  Sl->ProbeIssued = false;
  Sl->Level = P;
  // The light clone has no loop checkpoints: request 2 would only make it
  // run the virtual CTA it stopped after once more. The alternate form has
  // the full clone's. The free form runs only idempotent launches and is
  // never asked with request 1 (its stops may rerun work whatever the
  // request; docs/PREEMPTION_DESIGN.md), loop checkpoints or not.
  Sl->StopRequest =
      Sl->kind() == CloneKind::Free || (!Sl->light() && Rec->Idempotent && CI->loopStops()) ? 2 : 1;
  Sl->Seq = C.NextSeq++;
  St.Slots.push_back(Sl);
  N.Preemptible.fetch_add(1, std::memory_order_relaxed);
  if (Probe) {
    N.ScaleProbes.fetch_add(1, std::memory_order_relaxed);
    C.ScaleProbes = C.ScaleProbeWake = true;
  }
  return CUDA_SUCCESS;
}

} // namespace sched
} // namespace rt
} // namespace gmem

// The scheduler's stop requests: suppressing levels below urgent work
// closes their gates and asks each stream's running (or first queued)
// launch of those levels to stop, all in one batch of stream writes on the
// control stream (the urgent launch's path pays one driver call). The
// monitor (SchedMonitor.cpp) resumes the levels and relaunches the stopped
// launches.
#include "LaunchProfile.h"
#include "Scheduler.h"

namespace gmem {
namespace rt {
namespace sched {

void Scheduler::suppress(Context &C, uint32_t Mask, uint64_t Now) {
  GMEM_PROF_SCOPE(Suppress);
  // Every word goes out in one batch on the control stream, in this order
  // (one driver call on the urgent launch's path instead of one per word;
  // measured in bench/colocation). Gates first: once a victim's stop
  // request has landed, whatever follows it in its stream meets a closed
  // gate. Per victim, hold before request: the stream must not pass the
  // hold wait once the clone has stopped early.
  StopBatch B;
  for (int L = 0; L < NumLevels; ++L) {
    if (!(Mask & levelBit(L)))
      continue;
    B.add(C.Gates + sizeof(uint32_t) * unsigned(L), 1);
    noteShareTransition(C.View.Level[L], Now, C.View.ShareWindowNs);
    C.View.Level[L].Suppressed = true;
    C.View.Level[L].SliceEndNs = 0;
    C.View.Level[L].SuppressedSinceNs = Now;
    N.Suppressions.fetch_add(1, std::memory_order_relaxed);
    log("suppress level %d", L);
  }
  // Per stream, at most one tracked launch can be running: the first whose
  // clone has not drained (those after it wait behind its hold wait).
  Slot *Victims[StopBatch::Max / 2];
  unsigned NV = 0;
  auto Take = [&](Slot *S) {
    if (!B.room(2) || NV == sizeof Victims / sizeof *Victims) {
      flushStops(C, B, Victims, NV); // more victims than one batch holds
      B = StopBatch();
      NV = 0;
    }
    B.addStop(*S);
    Victims[NV++] = S;
  };
  for (auto &KV : C.Streams) {
    for (Slot *S : KV.second->Slots) {
      const bool Target = (Mask & levelBit(S->Level)) != 0;
      if (S->Preempted) { // its hold is 1: everything after it waits
        // A relaunch that is queued or running. Not asked whether it has
        // finished (a driver call on the urgent path): stopping a finished
        // relaunch only costs one more relaunch, which finds nothing left.
        if (S->Relaunching && Target)
          Take(S);
        break;
      }
      CUresult Drained;
      {
        GMEM_PROF_SCOPE(VictimQuery);
        Drained = D.eventQuery(S->EvDrain);
      }
      if (Drained != CUDA_ERROR_NOT_READY)
        continue; // its clone has finished
      if (Target)
        Take(S);
      break;
    }
  }
  flushStops(C, B, Victims, NV);
}

void Scheduler::flushStops(Context &C, const StopBatch &B, Slot *const *Victims, unsigned NV) {
  if (B.N) {
    GMEM_PROF_SCOPE(StopWrites);
    D.streamWrites(C.Ctrl, B.Addr, B.Value, B.N);
  }
  // Fair share counts what each stop at a loop checkpoint throws away:
  // per level, the longest a victim's current virtual CTA can have run
  // (its time since it went onto the stream, at most the shape's measured
  // virtual CTA time; all of it where none is known: a shape stopped at
  // every launch is never timed undisturbed, and is the one a share is
  // for). Asked only under that policy (a look-up per victim).
  uint64_t Lost[NumLevels] = {};
  const bool Share = policy().id() == GMEM_SCHED_POLICY_FAIR_SHARE;
  const uint64_t Now = Share ? nowNs() : 0;
  for (unsigned I = 0; I < NV && Share; ++I) {
    const Slot &S = *Victims[I];
    if (S.StopRequest != 2 || !S.Clone || !S.RunSinceNs || Now <= S.RunSinceNs)
      continue;
    const double Tau = S.Clone->Chooser.tauOf(S.ShapeKey);
    const uint64_t Cap = Tau > 0 ? uint64_t(Tau * 1000.0) : UINT64_MAX;
    Lost[S.Level] = std::max(Lost[S.Level], std::min(Now - S.RunSinceNs, Cap));
  }
  for (int L = 0; L < NumLevels && Share; ++L)
    chargeShareLoss(C.View.Level[L], Lost[L], C.View.ShareWindowNs);
  for (unsigned I = 0; I < NV; ++I) {
    Slot &S = *Victims[I];
    // The drain is timed from here where the launch's drain event has a
    // timestamp: one launch in DrainSampleEvery, chosen when it was made.
    const bool Time = S.EvDrain == S.EvDrainTimed;
    if (Time) {
      GMEM_PROF_SCOPE(ReqRecord);
      D.eventRecord(S.EvReq, C.Ctrl);
    }
    S.Preempted = true;
    ++S.PreemptGen;
    S.Sampled = !Time;
    N.Preemptions.fetch_add(1, std::memory_order_relaxed);
    if (S.StopRequest == 2)
      N.PreemptionsLoop.fetch_add(1, std::memory_order_relaxed);
    log("preempt launch #%llu (level %d, request %u, generation %u)", (unsigned long long)S.Seq,
        S.Level, S.StopRequest, S.PreemptGen);
  }
}

} // namespace sched
} // namespace rt
} // namespace gmem

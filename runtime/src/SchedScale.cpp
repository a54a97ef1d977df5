// The scheduler's side of the segment scale (CloneScale.cpp): a launch the
// chooser made a stop probe is stopped by the monitor at a random moment
// in the middle of its run (30-60% of its measured time after the monitor
// saw it start: early on, its CTAs reach their checks in step, and a stop
// then waits for about half a segment; later they drift apart and a stop
// waits for nearly the whole one, H200: wmma_gemm's probes in its first
// 200 us drained in 4.8-5.6 us, random stops of it at P50 10.3 us), alone (its level's gate stays open: nothing else of the
// program waits), relaunched once it has drained as any stopped launch,
// and its drain time (the request's landing to the clone's end, the stop
// latency the 10 us goal is about) goes back to the chooser.
#include "Scheduler.h"

#include <algorithm>

namespace gmem {
namespace rt {
namespace sched {

void Scheduler::probeScales(Context &C, uint64_t Now, bool &More, uint64_t &WakeBy) {
  if (!C.ScaleProbes)
    return;
  bool Any = false;
  for (auto &KV : C.Streams) {
    for (Slot *S : KV.second->Slots) {
      if (S->ScaleProbe != 1)
        continue;
      CloneChooser &Ch = S->Clone->Chooser;
      // Stopped by other work first (its drain is that stop's), or the
      // verdict came from other probes meanwhile: nothing to do.
      if (S->Preempted || S->PreemptGen || !Ch.scaleStopWanted(S->ShapeKey, S->Scale)) {
        S->ScaleProbe = 0;
        continue;
      }
      if (D.eventQuery(S->EvDrain) != CUDA_ERROR_NOT_READY) {
        // It ended before the stop: a launch too short for the monitor
        // to catch says nothing of its segments.
        S->ScaleProbe = 0;
        Ch.recordScaleStop(S->ShapeKey, S->Scale, -1);
        log("kernel %s shape %016llx: scale %u stop probe missed (launch #%llu ended first)",
            S->Clone->Symbol.c_str(), (unsigned long long)S->ShapeKey, unsigned(S->Scale),
            (unsigned long long)S->Seq);
        continue;
      }
      Any = true;
      if (!S->ProbeAtNs) {
        if (D.eventQuery(S->EvStart) != CUDA_SUCCESS) {
          WakeBy = std::min(WakeBy, Now + Opts.PollIntervalNs); // not running yet
          continue;
        }
        // 30% of the run in, plus up to another 30%.
        const uint64_t Tenth =
            Opts.ScaleProbeMidRun ? uint64_t(Ch.scaleTryUs(S->ShapeKey) * 100.0) : 0;
        S->ProbeAtNs = Now + 3 * Tenth + (Tenth ? chaosDraw(C, 3 * Tenth) : 0);
      }
      if (Now < S->ProbeAtNs || !mayStop(C)) {
        WakeBy = std::min(WakeBy, std::max(S->ProbeAtNs, Now + 1000));
        continue;
      }
      // The drain is also timed from before the writes: the probes read
      // 1-4 us lower than the harness's random stops after the write
      // (bench/preempt/results/session37), and this bound includes the
      // write itself (the log shows both, for calibration).
      S->ProbeIssued = (S->EvProbe || D.eventCreate(&S->EvProbe, CU_EVENT_DEFAULT) == CUDA_SUCCESS) &&
                       D.eventRecord(S->EvProbe, C.Ctrl) == CUDA_SUCCESS;
      // This launch alone.
      StopBatch B;
      B.addStop(*S);
      Slot *V = S;
      flushStops(C, B, &V, 1);
      S->ScaleProbe = 2; // its drain goes to the chooser (sampleDrain)
      log("kernel %s shape %016llx: scale %u stop probe of launch #%llu",
          S->Clone->Symbol.c_str(), (unsigned long long)S->ShapeKey, unsigned(S->Scale),
          (unsigned long long)S->Seq);
    }
  }
  C.ScaleProbes = Any;
  More |= Any;
}

void Scheduler::scaleProbeDrained(Slot &S, double DrainUs) {
  S.ScaleProbe = 0;
  float IssueMs = -1;
  if (!S.ProbeIssued || D.eventElapsed(&IssueMs, S.EvProbe, S.EvDrain) != CUDA_SUCCESS)
    IssueMs = -1;
  CloneChooser &Ch = S.Clone->Chooser;
  const unsigned Before = Ch.scaleOf(S.ShapeKey);
  if (!Ch.recordScaleStop(S.ShapeKey, S.Scale, DrainUs))
    return;
  const unsigned After = Ch.scaleOf(S.ShapeKey);
  if (After > Before)
    N.ScaleRaised.fetch_add(1, std::memory_order_relaxed);
  log("kernel %s shape %016llx: scale %u stop probe drained %.1f us after its request "
      "(%.1f us after its issue); scale %u -> %u",
      S.Clone->Symbol.c_str(), (unsigned long long)S.ShapeKey, unsigned(S.Scale), DrainUs,
      double(IssueMs) * 1e3, Before, After);
}

} // namespace sched
} // namespace rt
} // namespace gmem

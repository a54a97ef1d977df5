// Finished launches (Scheduler.h): recycle() finds a stream's finished
// launches, oldest first, and keeps their control blocks in
// Context::Finished; releaseFinished() gives them back to the pool, each
// zeroed on the side stream for its next launch, a few per launch so that
// no launch call pays for a whole burst (Scheduler::launch).
#include "LaunchProfile.h"
#include "Scheduler.h"

#include <algorithm>

namespace gmem {
namespace rt {
namespace sched {

void Scheduler::recycle(Context &C, StreamState &St) {
  GMEM_PROF_SCOPE(Recycle);
  size_t K = 0;
  for (; K < St.Slots.size(); ++K) {
    Slot *S = St.Slots[K];
    if (S->Preempted || S->Relaunching || D.eventQuery(S->EvDone) != CUDA_SUCCESS)
      break;
    if (S->Timed)
      sampleTiming(*S);
    C.Finished.push_back(S);
  }
  St.Slots.erase(St.Slots.begin(), St.Slots.begin() + K);
}

void Scheduler::recycleAll(Context &C) {
  for (auto &KV : C.Streams)
    recycle(C, *KV.second);
  releaseFinished(C, C.Finished.size());
}

void Scheduler::releaseFinished(Context &C, size_t Max) {
  if (C.Finished.empty())
    return;
  // Zeroed on the side stream for its next launch (SlotPool::release).
  if (!C.Zero && D.streamCreate(&C.Zero, CU_STREAM_NON_BLOCKING, C.PrioLeast) != CUDA_SUCCESS)
    C.Zero = nullptr;
  const size_t N = std::min(Max, C.Finished.size());
  for (size_t I = 0; I < N; ++I)
    C.Pool->release(C.Finished[I], C.Zero);
  C.Finished.erase(C.Finished.begin(), C.Finished.begin() + N);
}

} // namespace sched
} // namespace rt
} // namespace gmem

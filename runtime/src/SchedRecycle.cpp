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
  // Only the slots before the first preempted or relaunching one can go
  // (the monitor settles those, and what follows waits behind their hold).
  size_t M = 0;
  while (M < St.Slots.size() && !St.Slots[M]->Preempted && !St.Slots[M]->Relaunching)
    ++M;
  // Every EvDone is recorded on this stream, in launch order, so the
  // finished ones are a prefix: the first query says whether any finished,
  // the last whether all did, a bisection finds the end in between. One
  // query per slot cost a program that waits for each kernel ~1.4 us per
  // launch queued since its last launch, before its kernel could start
  // (H200: ~14 us after a burst of eight, bench/preempt/results/session47).
  auto Done = [&](size_t I) { return D.eventQuery(St.Slots[I]->EvDone) == CUDA_SUCCESS; };
  size_t K = 0;
  if (M > 0 && Done(0)) {
    if (M == 1 || Done(M - 1)) {
      K = M;
    } else {
      size_t Lo = 0, Hi = M - 1; // Lo finished, Hi not
      while (Hi - Lo > 1) {
        const size_t Mid = Lo + (Hi - Lo) / 2;
        (Done(Mid) ? Lo : Hi) = Mid;
      }
      K = Hi;
    }
  }
  for (size_t I = 0; I < K; ++I) {
    Slot *S = St.Slots[I];
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

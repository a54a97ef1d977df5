// Counters in pinned, device-mapped host memory: a stream raises one with
// cuStreamWriteValue32 once it has passed a point, and the host learns
// whether it has with a load instead of a driver call (an event query costs
// the H200 VM's host ~1.4 us, and a program that waits for each kernel pays
// the queries made before its clone goes onto the stream; bench/preempt/
// results/session47). The write costs its stream ~1.3 us more than an
// event record, though (same place), so only the side stream that zeroes
// released control blocks raises one; launches' done marks stay events.
//
// A counter only ever grows (modulo 2^32) and is written by one stream, so
// "passed N" is a wrap-safe comparison while fewer than 2^31 points of one
// counter are outstanding.
#pragma once

#include "SchedDriver.h"

#include <cstdint>

namespace gmem {
namespace rt {
namespace sched {

class HostCounters {
public:
  static constexpr unsigned Capacity = 64; ///< 256 bytes of pinned memory per context

  /// Allocates the counters, all 0, and proves with counter 0 that stream
  /// S's writes reach them. False (and every take() fails) where the driver
  /// refuses mapped pinned memory or such a write.
  bool init(SchedDriver &D, CUstream S) {
    void *H = nullptr;
    CUdeviceptr P = 0;
    if (D.memHostAllocMapped(&H, &P, Capacity * sizeof(uint32_t)) != CUDA_SUCCESS)
      return false;
    uint32_t *W = static_cast<uint32_t *>(H);
    for (unsigned I = 0; I < Capacity; ++I)
      __atomic_store_n(&W[I], 0u, __ATOMIC_RELEASE);
    if (D.streamWrite(S, P, 1) != CUDA_SUCCESS || D.streamSynchronize(S) != CUDA_SUCCESS ||
        __atomic_load_n(&W[0], __ATOMIC_ACQUIRE) != 1)
      return false; // (the memory stays: a write may still be queued)
    Host = W;
    Dev = P;
    Next = 1;
    return true;
  }
  /// A counter of one's own, or -1 when none is left (the caller falls back
  /// to events). Counters are never given back.
  int take() { return Host && Next < Capacity ? int(Next++) : -1; }
  CUdeviceptr dev(int I) const { return Dev + uint64_t(I) * sizeof(uint32_t); }
  uint32_t read(int I) const { return __atomic_load_n(&Host[I], __ATOMIC_ACQUIRE); }
  /// Whether counter I has reached Seq.
  bool passed(int I, uint32_t Seq) const { return int32_t(read(I) - Seq) >= 0; }

private:
  uint32_t *Host = nullptr;
  CUdeviceptr Dev = 0;
  unsigned Next = 0;
};

} // namespace sched
} // namespace rt
} // namespace gmem

// GMEM_SCHED_L2=persist: the allocations top-priority launches read stay in
// L2 (Scheduler::keepUrgentReadsInL2). Best-effort kernels that stream
// through L2 evict a latency-critical chain's weights between its requests;
// an access policy window on the chain's stream marks the largest
// allocation its kernels only read as persisting, in the part of L2 the
// context sets aside for that. Measured beside a training kernel on the
// H200 (bench/colocation/results/diag): chain P50 144 -> 134 us with the
// window set by hand, training throughput unchanged.
#include "Scheduler.h"

#include "Runtime.h"

#include <algorithm>

namespace gmem {
namespace rt {
namespace sched {
namespace {

/// Per thread: the last stream whose window was found to cover at least
/// AllocBytes (a launch reading nothing larger takes no lock).
struct L2Seen {
  uint64_t Owner = 0;
  CUstream Stream = nullptr;
  uint64_t AllocBytes = 0;
};
thread_local L2Seen LastL2;

} // namespace

void Scheduler::keepUrgentReadsInL2(CUstream Raw, const LaunchRecord *Rec) {
  if (!Opts.L2Persist || !Raw || !Rec || !Rec->Instrumented)
    return;
  // The largest allocation this launch only reads.
  uint64_t Alloc = 0, AllocBytes = 0;
  for (int32_t K = 0; K < Rec->NumPtrRec; ++K) {
    const gmemArgAccess &A = Rec->Ptr[K];
    const bool ReadOnly = (A.flags & GMEM_ARG_HAS_ALLOC) && (A.flags & GMEM_ARG_READS) &&
                          !(A.flags & (GMEM_ARG_WRITES | GMEM_ARG_WRITE_ANYTHING));
    if (ReadOnly && A.alloc_size > AllocBytes) {
      Alloc = A.alloc_base;
      AllocBytes = A.alloc_size;
    }
  }
  L2Seen &Seen = LastL2;
  if (!AllocBytes ||
      (Seen.Owner == Uid && Seen.Stream == Raw && AllocBytes <= Seen.AllocBytes))
    return;
  Context *C = context();
  if (!C || levelOf(Raw, Raw) < TopLevel)
    return;
  std::lock_guard<std::mutex> Lock(C->Mu);
  if (C->L2Failed)
    return;
  if (!C->L2SetAside) {
    int SetAside = 0, MaxWindow = 0;
    if (D.deviceGetAttribute(&SetAside, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE) !=
            CUDA_SUCCESS ||
        D.deviceGetAttribute(&MaxWindow, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE) !=
            CUDA_SUCCESS ||
        SetAside <= 0 || MaxWindow <= 0 || D.ctxSetPersistingL2(size_t(SetAside)) != CUDA_SUCCESS) {
      C->L2Failed = true;
      error("GMEM_SCHED_L2=persist: the device or driver has no persisting L2; ignored");
      return;
    }
    C->L2SetAside = size_t(SetAside);
    C->L2MaxWindow = size_t(MaxWindow);
    log("L2: %zu bytes set aside for persisting accesses (windows up to %zu bytes)",
        C->L2SetAside, C->L2MaxWindow);
  }
  StreamState &St = streamOf(*C, Raw);
  if (AllocBytes > St.L2AllocBytes) {
    CUstreamCaptureStatus Cap = CU_STREAM_CAPTURE_STATUS_NONE;
    if (D.streamIsCapturing(Raw, &Cap) != CUDA_SUCCESS || Cap != CU_STREAM_CAPTURE_STATUS_NONE)
      return; // asked again at a launch outside the capture
    const size_t Bytes = size_t(std::min<uint64_t>(AllocBytes, C->L2MaxWindow));
    const float Ratio = std::min(1.0f, float(C->L2SetAside) / float(Bytes));
    if (D.streamSetL2Window(Raw, Alloc, Bytes, Ratio) != CUDA_SUCCESS) {
      C->L2Failed = true; // not asked again at every launch
      error("GMEM_SCHED_L2=persist: the driver refused a stream's L2 window; ignored from now");
      return;
    }
    St.L2AllocBytes = AllocBytes;
    log("L2: stream %p persists [0x%llx, +%zu) at hit ratio %.2f", static_cast<void *>(Raw),
        (unsigned long long)Alloc, Bytes, Ratio);
  }
  Seen = L2Seen{Uid, Raw, St.L2AllocBytes};
}

} // namespace sched
} // namespace rt
} // namespace gmem

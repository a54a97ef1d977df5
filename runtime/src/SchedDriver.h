// The CUDA driver calls the preemptive scheduler makes on its own behalf
// (streams, events, stream memory operations, control blocks, clone
// launches), behind an interface of its own so that unit tests can simulate
// the GPU side (test/runtime/FakeSchedDriver.h) and so that the scheduler
// does not widen the runtime's DriverApi.
//
// Every call reaches the real driver directly (libcuda.so.1 through
// realDlsym), never libgmemrt's own interposed entry points.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

namespace gmem {
namespace rt {
namespace sched {

/// One kernel launch made by the scheduler (a clone, first or relaunched).
struct KernelLaunch {
  CUfunction F = nullptr;
  unsigned Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  unsigned Shmem = 0;
  CUstream Stream = nullptr;
  void **Params = nullptr; ///< either Params or Extra (CU_LAUNCH_PARAM_*)
  void **Extra = nullptr;
  const CUlaunchAttribute *Attrs = nullptr; ///< non-empty: cuLaunchKernelEx
  unsigned NumAttrs = 0;
};

class SchedDriver {
public:
  virtual ~SchedDriver() = default;

  /// False when the driver or an entry point the scheduler needs is missing.
  virtual bool available() = 0;

  // Contexts and threads.
  virtual CUresult ctxGetCurrent(CUcontext *C) = 0;
  virtual CUresult ctxSetCurrent(CUcontext C) = 0;
  virtual CUresult ctxGetId(CUcontext C, unsigned long long *Id) = 0;
  virtual CUresult ctxGetStreamPriorityRange(int *Least, int *Greatest) = 0;
  virtual CUresult exchangeCaptureMode(CUstreamCaptureMode *Mode) = 0;

  // Streams.
  virtual CUresult streamCreate(CUstream *S, unsigned Flags, int Priority) = 0;
  virtual CUresult streamDestroy(CUstream S) = 0;
  virtual CUresult streamIsCapturing(CUstream S, CUstreamCaptureStatus *Status) = 0;
  virtual CUresult streamSynchronize(CUstream S) = 0;
  /// CUDA_SUCCESS when all work enqueued in S has completed.
  virtual CUresult streamQuery(CUstream S) = 0;
  /// Stream-ordered: wait until the 32-bit word at Addr equals Value.
  virtual CUresult streamWaitEq(CUstream S, CUdeviceptr Addr, uint32_t Value) = 0;
  /// Stream-ordered: wait until (int32_t)(word at Addr - Value) >= 0 (a
  /// counter that has reached Value, across its wrap).
  virtual CUresult streamWaitGeq(CUstream S, CUdeviceptr Addr, uint32_t Value) = 0;
  /// Stream-ordered write (with the default memory barrier before it).
  virtual CUresult streamWrite(CUstream S, CUdeviceptr Addr, uint32_t Value) = 0;
  /// N stream-ordered writes, in order, each like streamWrite. The real
  /// driver makes them one cuStreamBatchMemOp: a preempting launch pays one
  /// driver call instead of one per word (each costs microseconds of the
  /// urgent thread's time).
  virtual CUresult streamWrites(CUstream S, const CUdeviceptr *Addr, const uint32_t *Values,
                                unsigned N) {
    for (unsigned I = 0; I < N; ++I)
      if (CUresult R = streamWrite(S, Addr[I], Values[I]); R != CUDA_SUCCESS)
        return R;
    return CUDA_SUCCESS;
  }
  virtual CUresult streamWaitEvent(CUstream S, CUevent E) = 0;

  // Events.
  virtual CUresult eventCreate(CUevent *E, unsigned Flags) = 0;
  virtual CUresult eventDestroy(CUevent E) = 0;
  virtual CUresult eventRecord(CUevent E, CUstream S) = 0;
  virtual CUresult eventQuery(CUevent E) = 0;
  virtual CUresult eventElapsed(float *Ms, CUevent Start, CUevent End) = 0;

  // Device memory.
  virtual CUresult memAlloc(CUdeviceptr *P, size_t Bytes) = 0;
  virtual CUresult memFree(CUdeviceptr P) = 0;
  /// Pinned host memory the device can read and stream memory operations
  /// can wait on (the timing latch: the host opens it with a plain store,
  /// so no driver call is needed to let a latched stream go). Kept for the
  /// life of the process.
  virtual CUresult memHostAllocMapped(void **Host, CUdeviceptr *Dev, size_t Bytes) = 0;
  virtual CUresult memsetD32Async(CUdeviceptr P, uint32_t Value, size_t Words, CUstream S) = 0;
  /// Copies to the host through a private non-blocking stream (no implicit
  /// synchronisation with the program's streams, no stream capture joined).
  virtual CUresult readDevice(void *Dst, CUdeviceptr Src, size_t Bytes) = 0;

  // Kernels.
  virtual CUresult moduleGetFunction(CUfunction *F, CUmodule M, const char *Name) = 0;
  virtual CUresult moduleGetGlobal(CUdeviceptr *P, size_t *Bytes, CUmodule M, const char *Name) = 0;
  virtual CUresult libraryGetKernel(CUkernel *K, CUlibrary L, const char *Name) = 0;
  virtual CUresult libraryGetGlobal(CUdeviceptr *P, size_t *Bytes, CUlibrary L, const char *Name) = 0;
  virtual CUresult kernelGetFunction(CUfunction *F, CUkernel K) = 0;
  virtual CUresult funcGetParamInfo(CUfunction F, size_t Index, size_t *Offset, size_t *Size) = 0;
  virtual CUresult funcGetAttribute(int *Value, CUfunction_attribute A, CUfunction F) = 0;
  virtual CUresult funcSetAttribute(CUfunction F, CUfunction_attribute A, int Value) = 0;
  /// CTAs of F that one multiprocessor keeps resident at once, for
  /// BlockSize threads per CTA and Smem bytes of dynamic shared memory.
  virtual CUresult occupancyMaxActiveBlocks(int *Blocks, CUfunction F, int BlockSize,
                                            size_t Smem) = 0;
  virtual CUresult launch(const KernelLaunch &K) = 0;

  // Devices.
  /// An attribute of the current context's device.
  virtual CUresult deviceGetAttribute(int *Value, CUdevice_attribute A) = 0;
  /// Multiprocessors of the current context's device.
  CUresult deviceSmCount(int *Count) {
    return deviceGetAttribute(Count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  }

  // L2 (GMEM_SCHED_L2=persist).
  /// Bytes of L2 the current context sets aside for persisting accesses.
  virtual CUresult ctxSetPersistingL2(size_t) { return CUDA_ERROR_NOT_SUPPORTED; }
  /// Accesses of S's later kernels to [Base, Base + Bytes) persist in L2
  /// (a HitRatio fraction of them; the others stream).
  virtual CUresult streamSetL2Window(CUstream, CUdeviceptr, size_t, float) {
    return CUDA_ERROR_NOT_SUPPORTED;
  }
};

/// The process's real driver for the scheduler (resolved at first use).
SchedDriver &realSchedDriver();

/// The scheduler's own calls must neither join nor break a stream capture
/// in progress on this thread (or a global-mode one on another thread).
class RelaxedCapture {
public:
  explicit RelaxedCapture(SchedDriver &D) : D(D) {
    Ok = D.exchangeCaptureMode(&Mode) == CUDA_SUCCESS;
  }
  ~RelaxedCapture() {
    if (Ok)
      D.exchangeCaptureMode(&Mode);
  }
  RelaxedCapture(const RelaxedCapture &) = delete;
  RelaxedCapture &operator=(const RelaxedCapture &) = delete;

private:
  SchedDriver &D;
  CUstreamCaptureMode Mode = CU_STREAM_CAPTURE_MODE_RELAXED;
  bool Ok = false;
};

} // namespace sched
} // namespace rt
} // namespace gmem

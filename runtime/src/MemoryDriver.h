// The driver calls libgmemrt's memory side makes (prefetch, advice, the copy
// stream and its events, managed allocations), behind a small interface so
// that unit tests fake them (test/runtime/FakeMemoryDriver.h). Separate from
// DriverApi: the launch check never needs these.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

namespace gmem {
namespace rt {

class MemoryDriver {
public:
  virtual ~MemoryDriver() = default;

  /// 1: managed memory, 0: not, -1: the driver could not say.
  virtual int isManaged(uint64_t Ptr) = 0;
  virtual CUresult ctxGetCurrent(CUcontext *C) = 0;
  virtual CUresult ctxGetDevice(CUdevice *D) = 0;

  /// Prefetch [Ptr, Ptr+Bytes) to Device (CU_DEVICE_CPU: the host).
  virtual CUresult prefetch(uint64_t Ptr, uint64_t Bytes, CUdevice Device, CUstream S) = 0;
  /// cuMemAdvise on Device (CU_DEVICE_CPU: the host).
  virtual CUresult advise(uint64_t Ptr, uint64_t Bytes, CUmem_advise A, CUdevice Device) = 0;
  /// Contents of [Ptr, Ptr+Bytes) are no longer needed (cuMemDiscardBatchAsync);
  /// NOT_SUPPORTED where the driver lacks it.
  virtual CUresult discard(uint64_t Ptr, uint64_t Bytes, CUstream S) = 0;

  virtual CUresult streamCreate(CUstream *S) = 0; ///< non-blocking
  virtual CUresult streamIsCapturing(CUstream S, bool *Capturing) = 0;
  virtual CUresult streamWaitEvent(CUstream S, CUevent E) = 0;
  virtual CUresult eventCreate(CUevent *E) = 0; ///< timing disabled
  virtual CUresult eventRecord(CUevent E, CUstream S) = 0;
  /// CUDA_SUCCESS when complete, CUDA_ERROR_NOT_READY while pending.
  virtual CUresult eventQuery(CUevent E) = 0;
  virtual CUresult eventDestroy(CUevent E) = 0;

  virtual CUresult memAllocManaged(uint64_t *Ptr, uint64_t Bytes) = 0;
  virtual CUresult memFree(uint64_t Ptr) = 0;
  virtual CUresult memGetInfo(size_t *Free, size_t *Total) = 0;
};

/// The process's real driver (libcuda.so.1 through Driver.h's loader).
MemoryDriver &realMemoryDriver();

} // namespace rt
} // namespace gmem

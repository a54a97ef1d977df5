// MemoryDriver on libcuda.so.1, resolved at first use like RealDriver.cpp.
// Versioned entry points are named explicitly (cuMemPrefetchAsync_v2 and
// cuMemAdvise_v2 take a CUmemLocation since CUDA 12.2 and are what CUDA 13's
// headers mean by the plain names), so the library works the same whether it
// was built against CUDA 12 or 13 headers.
#include "Driver.h"
#include "MemoryDriver.h"

#include <mutex>

namespace gmem {
namespace rt {
namespace {

template <typename Fn> Fn sym(const char *Name) { return driverSymbol<Fn>(Name); }

CUmemLocation location(CUdevice D) {
  CUmemLocation L;
  if (D == CU_DEVICE_CPU) {
    L.type = CU_MEM_LOCATION_TYPE_HOST;
    L.id = 0;
  } else {
    L.type = CU_MEM_LOCATION_TYPE_DEVICE;
    L.id = D;
  }
  return L;
}

class RealMemoryDriver final : public MemoryDriver {
  using PointerGetAttribute = CUresult (*)(void *, CUpointer_attribute, CUdeviceptr);
  using CtxGetCurrent = CUresult (*)(CUcontext *);
  using CtxGetDevice = CUresult (*)(CUdevice *);
  using PrefetchV2 = CUresult (*)(CUdeviceptr, size_t, CUmemLocation, unsigned, CUstream);
  using PrefetchV1 = CUresult (*)(CUdeviceptr, size_t, CUdevice, CUstream);
  using AdviseV2 = CUresult (*)(CUdeviceptr, size_t, CUmem_advise, CUmemLocation);
  using AdviseV1 = CUresult (*)(CUdeviceptr, size_t, CUmem_advise, CUdevice);
  using DiscardBatch = CUresult (*)(CUdeviceptr *, size_t *, size_t, unsigned long long, CUstream);
  using StreamCreate = CUresult (*)(CUstream *, unsigned);
  using StreamIsCapturing = CUresult (*)(CUstream, CUstreamCaptureStatus *);
  using StreamWaitEvent = CUresult (*)(CUstream, CUevent, unsigned);
  using EventCreate = CUresult (*)(CUevent *, unsigned);
  using EventRecord = CUresult (*)(CUevent, CUstream);
  using EventQuery = CUresult (*)(CUevent);
  using EventDestroy = CUresult (*)(CUevent);
  using AllocManaged = CUresult (*)(CUdeviceptr *, size_t, unsigned);
  using MemFree = CUresult (*)(CUdeviceptr);
  using MemGetInfo = CUresult (*)(size_t *, size_t *);

  std::once_flag Once;
  PointerGetAttribute PGetAttr = nullptr;
  CtxGetCurrent PCtxGetCurrent = nullptr;
  CtxGetDevice PCtxGetDevice = nullptr;
  PrefetchV2 PPrefetch2 = nullptr;
  PrefetchV1 PPrefetch1 = nullptr;
  AdviseV2 PAdvise2 = nullptr;
  AdviseV1 PAdvise1 = nullptr;
  DiscardBatch PDiscard = nullptr;
  StreamCreate PStreamCreate = nullptr;
  StreamIsCapturing PIsCapturing = nullptr;
  StreamWaitEvent PWaitEvent = nullptr;
  EventCreate PEventCreate = nullptr;
  EventRecord PEventRecord = nullptr;
  EventQuery PEventQuery = nullptr;
  EventDestroy PEventDestroy = nullptr;
  AllocManaged PAllocManaged = nullptr;
  MemFree PMemFree = nullptr;
  MemGetInfo PMemGetInfo = nullptr;

  void load() {
    std::call_once(Once, [this] {
      PGetAttr = sym<PointerGetAttribute>("cuPointerGetAttribute");
      PCtxGetCurrent = sym<CtxGetCurrent>("cuCtxGetCurrent");
      PCtxGetDevice = sym<CtxGetDevice>("cuCtxGetDevice");
      PPrefetch2 = sym<PrefetchV2>("cuMemPrefetchAsync_v2");
      if (!PPrefetch2)
        PPrefetch1 = sym<PrefetchV1>("cuMemPrefetchAsync");
      PAdvise2 = sym<AdviseV2>("cuMemAdvise_v2");
      if (!PAdvise2)
        PAdvise1 = sym<AdviseV1>("cuMemAdvise");
      PDiscard = sym<DiscardBatch>("cuMemDiscardBatchAsync");
      PStreamCreate = sym<StreamCreate>("cuStreamCreate");
      PIsCapturing = sym<StreamIsCapturing>("cuStreamIsCapturing");
      PWaitEvent = sym<StreamWaitEvent>("cuStreamWaitEvent");
      PEventCreate = sym<EventCreate>("cuEventCreate");
      PEventRecord = sym<EventRecord>("cuEventRecord");
      PEventQuery = sym<EventQuery>("cuEventQuery");
      PEventDestroy = sym<EventDestroy>("cuEventDestroy_v2");
      // The real functions, not our interposed wrappers: the pool tells the
      // runtime about its allocations itself.
      PAllocManaged = sym<AllocManaged>("cuMemAllocManaged");
      PMemFree = sym<MemFree>("cuMemFree_v2");
      PMemGetInfo = sym<MemGetInfo>("cuMemGetInfo_v2");
    });
  }

public:
  int isManaged(uint64_t Ptr) override {
    load();
    if (!PGetAttr)
      return -1;
    unsigned int V = 0;
    CUresult R = PGetAttr(&V, CU_POINTER_ATTRIBUTE_IS_MANAGED, CUdeviceptr(Ptr));
    if (R != CUDA_SUCCESS)
      return R == CUDA_ERROR_INVALID_VALUE ? 0 : -1;
    return V ? 1 : 0;
  }
  CUresult ctxGetCurrent(CUcontext *C) override { GMEM_CALL(PCtxGetCurrent, C); }
  CUresult ctxGetDevice(CUdevice *D) override { GMEM_CALL(PCtxGetDevice, D); }
  CUresult prefetch(uint64_t Ptr, uint64_t Bytes, CUdevice Device, CUstream S) override {
    load();
    if (PPrefetch2)
      return PPrefetch2(CUdeviceptr(Ptr), size_t(Bytes), location(Device), 0, S);
    return PPrefetch1 ? PPrefetch1(CUdeviceptr(Ptr), size_t(Bytes), Device, S)
                      : CUDA_ERROR_NOT_SUPPORTED;
  }
  CUresult advise(uint64_t Ptr, uint64_t Bytes, CUmem_advise A, CUdevice Device) override {
    load();
    if (PAdvise2)
      return PAdvise2(CUdeviceptr(Ptr), size_t(Bytes), A, location(Device));
    return PAdvise1 ? PAdvise1(CUdeviceptr(Ptr), size_t(Bytes), A, Device) : CUDA_ERROR_NOT_SUPPORTED;
  }
  CUresult discard(uint64_t Ptr, uint64_t Bytes, CUstream S) override {
    load();
    if (!PDiscard)
      return CUDA_ERROR_NOT_SUPPORTED;
    CUdeviceptr P = CUdeviceptr(Ptr);
    size_t N = size_t(Bytes);
    return PDiscard(&P, &N, 1, 0, S);
  }
  CUresult streamCreate(CUstream *S) override { GMEM_CALL(PStreamCreate, S, CU_STREAM_NON_BLOCKING); }
  CUresult streamIsCapturing(CUstream S, bool *Capturing) override {
    load();
    *Capturing = false;
    if (!PIsCapturing)
      return CUDA_ERROR_NOT_SUPPORTED;
    CUstreamCaptureStatus St = CU_STREAM_CAPTURE_STATUS_NONE;
    CUresult R = PIsCapturing(S, &St);
    *Capturing = St != CU_STREAM_CAPTURE_STATUS_NONE;
    return R;
  }
  CUresult streamWaitEvent(CUstream S, CUevent E) override { GMEM_CALL(PWaitEvent, S, E, 0); }
  CUresult eventCreate(CUevent *E) override { GMEM_CALL(PEventCreate, E, CU_EVENT_DISABLE_TIMING); }
  CUresult eventRecord(CUevent E, CUstream S) override { GMEM_CALL(PEventRecord, E, S); }
  CUresult eventQuery(CUevent E) override { GMEM_CALL(PEventQuery, E); }
  CUresult eventDestroy(CUevent E) override { GMEM_CALL(PEventDestroy, E); }
  CUresult memAllocManaged(uint64_t *Ptr, uint64_t Bytes) override {
    load();
    if (!PAllocManaged)
      return CUDA_ERROR_NOT_SUPPORTED;
    CUdeviceptr P = 0;
    CUresult R = PAllocManaged(&P, size_t(Bytes), CU_MEM_ATTACH_GLOBAL);
    *Ptr = uint64_t(P);
    return R;
  }
  CUresult memFree(uint64_t Ptr) override { GMEM_CALL(PMemFree, CUdeviceptr(Ptr)); }
  CUresult memGetInfo(size_t *Free, size_t *Total) override { GMEM_CALL(PMemGetInfo, Free, Total); }
};

} // namespace

MemoryDriver &realMemoryDriver() {
  static RealMemoryDriver *D = new RealMemoryDriver(); // never destroyed (atexit paths)
  return *D;
}

} // namespace rt
} // namespace gmem

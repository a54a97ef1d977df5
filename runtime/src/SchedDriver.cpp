// The scheduler's real driver: entry points of libcuda.so.1 resolved with
// the non-interposed dlsym (Driver.h), so that the scheduler's own launches
// and stream operations never re-enter libgmemrt's hooks.
#include "SchedDriver.h"

#include "Driver.h"

#include <cstring>
#include <mutex>

namespace gmem {
namespace rt {
namespace sched {
namespace {

void *symbol(const char *Name, const char *Fallback = nullptr) {
  void *P = driverSymbol<void *>(Name);
  return P || !Fallback ? P : driverSymbol<void *>(Fallback);
}

class RealSchedDriver final : public SchedDriver {
  // One member per entry point; null when the driver lacks it.
#define GMEM_FN(Name, Ret, ...) Ret(CUDAAPI *Name)(__VA_ARGS__) = nullptr
  GMEM_FN(PCtxGetCurrent, CUresult, CUcontext *);
  GMEM_FN(PCtxSetCurrent, CUresult, CUcontext);
  GMEM_FN(PCtxGetId, CUresult, CUcontext, unsigned long long *);
  GMEM_FN(PPrioRange, CUresult, int *, int *);
  GMEM_FN(PExchange, CUresult, CUstreamCaptureMode *);
  GMEM_FN(PStreamCreate, CUresult, CUstream *, unsigned, int);
  GMEM_FN(PStreamDestroy, CUresult, CUstream);
  GMEM_FN(PIsCapturing, CUresult, CUstream, CUstreamCaptureStatus *);
  GMEM_FN(PStreamSync, CUresult, CUstream);
  GMEM_FN(PStreamQuery, CUresult, CUstream);
  GMEM_FN(PWait32, CUresult, CUstream, CUdeviceptr, cuuint32_t, unsigned);
  GMEM_FN(PWrite32, CUresult, CUstream, CUdeviceptr, cuuint32_t, unsigned);
  GMEM_FN(PBatch, CUresult, CUstream, unsigned, CUstreamBatchMemOpParams *, unsigned);
  GMEM_FN(PWaitEvent, CUresult, CUstream, CUevent, unsigned);
  GMEM_FN(PEventCreate, CUresult, CUevent *, unsigned);
  GMEM_FN(PEventDestroy, CUresult, CUevent);
  GMEM_FN(PEventRecord, CUresult, CUevent, CUstream);
  GMEM_FN(PEventQuery, CUresult, CUevent);
  GMEM_FN(PElapsed, CUresult, float *, CUevent, CUevent);
  GMEM_FN(PMemAlloc, CUresult, CUdeviceptr *, size_t);
  GMEM_FN(PMemFree, CUresult, CUdeviceptr);
  GMEM_FN(PHostAlloc, CUresult, void **, size_t, unsigned);
  GMEM_FN(PHostDevPtr, CUresult, CUdeviceptr *, void *, unsigned);
  GMEM_FN(PFreeHost, CUresult, void *);
  GMEM_FN(PMemset32, CUresult, CUdeviceptr, unsigned, size_t, CUstream);
  GMEM_FN(PCopyDtoH, CUresult, void *, CUdeviceptr, size_t, CUstream);
  GMEM_FN(PModFunc, CUresult, CUfunction *, CUmodule, const char *);
  GMEM_FN(PModGlobal, CUresult, CUdeviceptr *, size_t *, CUmodule, const char *);
  GMEM_FN(PLibKernel, CUresult, CUkernel *, CUlibrary, const char *);
  GMEM_FN(PLibGlobal, CUresult, CUdeviceptr *, size_t *, CUlibrary, const char *);
  GMEM_FN(PKernFunc, CUresult, CUfunction *, CUkernel);
  GMEM_FN(PParamInfo, CUresult, CUfunction, size_t, size_t *, size_t *);
  GMEM_FN(PGetAttr, CUresult, int *, CUfunction_attribute, CUfunction);
  GMEM_FN(PSetAttr, CUresult, CUfunction, CUfunction_attribute, int);
  GMEM_FN(POccupancy, CUresult, int *, CUfunction, int, size_t);
  GMEM_FN(PCtxGetDevice, CUresult, CUdevice *);
  GMEM_FN(PCtxSetLimit, CUresult, CUlimit, size_t);
  GMEM_FN(PStreamSetAttr, CUresult, CUstream, CUstreamAttrID, const CUstreamAttrValue *);
  GMEM_FN(PDevAttr, CUresult, int *, CUdevice_attribute, CUdevice);
  GMEM_FN(PLaunch, CUresult, CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
          unsigned, CUstream, void **, void **);
  GMEM_FN(PLaunchEx, CUresult, const CUlaunchConfig *, CUfunction, void **, void **);
#undef GMEM_FN

  std::once_flag Once;
  bool Loaded = false;

  template <typename Fn> static void bind(Fn &Slot, const char *Name, const char *Fallback = nullptr) {
    Slot = reinterpret_cast<Fn>(symbol(Name, Fallback));
  }

  void load() {
    std::call_once(Once, [this] {
      if (!libcudaHandle())
        return;
      bind(PCtxGetCurrent, "cuCtxGetCurrent");
      bind(PCtxSetCurrent, "cuCtxSetCurrent");
      bind(PCtxGetId, "cuCtxGetId");
      bind(PPrioRange, "cuCtxGetStreamPriorityRange");
      bind(PExchange, "cuThreadExchangeStreamCaptureMode");
      bind(PStreamCreate, "cuStreamCreateWithPriority");
      bind(PStreamDestroy, "cuStreamDestroy_v2", "cuStreamDestroy");
      bind(PIsCapturing, "cuStreamIsCapturing");
      bind(PStreamSync, "cuStreamSynchronize");
      bind(PStreamQuery, "cuStreamQuery");
      bind(PWait32, "cuStreamWaitValue32_v2", "cuStreamWaitValue32");
      bind(PWrite32, "cuStreamWriteValue32_v2", "cuStreamWriteValue32");
      bind(PBatch, "cuStreamBatchMemOp_v2", "cuStreamBatchMemOp"); // optional
      bind(PWaitEvent, "cuStreamWaitEvent");
      bind(PEventCreate, "cuEventCreate");
      bind(PEventDestroy, "cuEventDestroy_v2", "cuEventDestroy");
      bind(PEventRecord, "cuEventRecord");
      bind(PEventQuery, "cuEventQuery");
      bind(PElapsed, "cuEventElapsedTime_v2", "cuEventElapsedTime");
      bind(PMemAlloc, "cuMemAlloc_v2");
      bind(PMemFree, "cuMemFree_v2");
      bind(PHostAlloc, "cuMemHostAlloc");                                // optional
      bind(PHostDevPtr, "cuMemHostGetDevicePointer_v2", "cuMemHostGetDevicePointer");
      bind(PFreeHost, "cuMemFreeHost");
      bind(PMemset32, "cuMemsetD32Async");
      bind(PCopyDtoH, "cuMemcpyDtoHAsync_v2");
      bind(PModFunc, "cuModuleGetFunction");
      bind(PModGlobal, "cuModuleGetGlobal_v2");
      bind(PLibKernel, "cuLibraryGetKernel");
      bind(PLibGlobal, "cuLibraryGetGlobal");
      bind(PKernFunc, "cuKernelGetFunction");
      bind(PParamInfo, "cuFuncGetParamInfo");
      bind(PGetAttr, "cuFuncGetAttribute");
      bind(PSetAttr, "cuFuncSetAttribute");
      // Optional: without them persistent clones are not preemptible.
      bind(POccupancy, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
      bind(PCtxGetDevice, "cuCtxGetDevice");
      bind(PCtxSetLimit, "cuCtxSetLimit");                                  // optional
      bind(PStreamSetAttr, "cuStreamSetAttribute");                      // optional
      bind(PDevAttr, "cuDeviceGetAttribute");
      bind(PLaunch, "cuLaunchKernel");
      bind(PLaunchEx, "cuLaunchKernelEx");
      // Without these the scheduler cannot gate, preempt or relaunch.
      Loaded = PCtxGetCurrent && PCtxSetCurrent && PCtxGetId && PStreamCreate && PIsCapturing &&
               PWait32 && PWrite32 && PWaitEvent && PEventCreate && PEventRecord && PEventQuery &&
               PElapsed && PMemAlloc && PMemset32 && PCopyDtoH && PStreamSync && PStreamQuery &&
               PParamInfo &&
               PLaunch && PPrioRange;
    });
  }

public:
  bool available() override {
    load();
    return Loaded;
  }

  CUresult ctxGetCurrent(CUcontext *C) override { GMEM_CALL(PCtxGetCurrent, C); }
  CUresult ctxSetCurrent(CUcontext C) override { GMEM_CALL(PCtxSetCurrent, C); }
  CUresult ctxGetId(CUcontext C, unsigned long long *Id) override { GMEM_CALL(PCtxGetId, C, Id); }
  CUresult ctxGetStreamPriorityRange(int *L, int *G) override { GMEM_CALL(PPrioRange, L, G); }
  CUresult exchangeCaptureMode(CUstreamCaptureMode *M) override { GMEM_CALL(PExchange, M); }
  CUresult streamCreate(CUstream *S, unsigned F, int P) override { GMEM_CALL(PStreamCreate, S, F, P); }
  CUresult streamDestroy(CUstream S) override { GMEM_CALL(PStreamDestroy, S); }
  CUresult streamIsCapturing(CUstream S, CUstreamCaptureStatus *St) override {
    GMEM_CALL(PIsCapturing, S, St);
  }
  CUresult streamSynchronize(CUstream S) override { GMEM_CALL(PStreamSync, S); }
  CUresult streamQuery(CUstream S) override { GMEM_CALL(PStreamQuery, S); }
  CUresult streamWaitEq(CUstream S, CUdeviceptr A, uint32_t V) override {
    GMEM_CALL(PWait32, S, A, V, CU_STREAM_WAIT_VALUE_EQ);
  }
  CUresult streamWaitGeq(CUstream S, CUdeviceptr A, uint32_t V) override {
    GMEM_CALL(PWait32, S, A, V, CU_STREAM_WAIT_VALUE_GEQ);
  }
  CUresult streamWrite(CUstream S, CUdeviceptr A, uint32_t V) override {
    GMEM_CALL(PWrite32, S, A, V, CU_STREAM_WRITE_VALUE_DEFAULT);
  }
  CUresult streamWrites(CUstream S, const CUdeviceptr *A, const uint32_t *V, unsigned N) override {
    constexpr unsigned Max = 16;
    if (!PBatch || N > Max)
      return SchedDriver::streamWrites(S, A, V, N);
    CUstreamBatchMemOpParams Ops[Max];
    std::memset(Ops, 0, sizeof Ops);
    for (unsigned I = 0; I < N; ++I) {
      Ops[I].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
      Ops[I].writeValue.address = A[I];
      Ops[I].writeValue.value = V[I];
      Ops[I].writeValue.flags = CU_STREAM_WRITE_VALUE_DEFAULT;
    }
    GMEM_CALL(PBatch, S, N, Ops, 0);
  }
  CUresult streamWaitEvent(CUstream S, CUevent E) override { GMEM_CALL(PWaitEvent, S, E, 0); }
  CUresult eventCreate(CUevent *E, unsigned F) override { GMEM_CALL(PEventCreate, E, F); }
  CUresult eventDestroy(CUevent E) override { GMEM_CALL(PEventDestroy, E); }
  CUresult eventRecord(CUevent E, CUstream S) override { GMEM_CALL(PEventRecord, E, S); }
  CUresult eventQuery(CUevent E) override { GMEM_CALL(PEventQuery, E); }
  CUresult eventElapsed(float *Ms, CUevent A, CUevent B) override { GMEM_CALL(PElapsed, Ms, A, B); }
  CUresult memAlloc(CUdeviceptr *P, size_t N) override { GMEM_CALL(PMemAlloc, P, N); }
  CUresult memFree(CUdeviceptr P) override { GMEM_CALL(PMemFree, P); }
  CUresult memHostAllocMapped(void **Host, CUdeviceptr *Dev, size_t Bytes) override {
    if (!PHostAlloc || !PHostDevPtr || !PFreeHost)
      return CUDA_ERROR_NOT_SUPPORTED;
    void *H = nullptr;
    CUresult R = PHostAlloc(&H, Bytes, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE);
    if (R == CUDA_SUCCESS && (R = PHostDevPtr(Dev, H, 0)) != CUDA_SUCCESS)
      PFreeHost(H);
    if (R == CUDA_SUCCESS)
      *Host = H;
    return R;
  }
  CUresult memsetD32Async(CUdeviceptr P, uint32_t V, size_t N, CUstream S) override {
    GMEM_CALL(PMemset32, P, V, N, S);
  }
  CUresult moduleGetFunction(CUfunction *F, CUmodule M, const char *N) override {
    GMEM_CALL(PModFunc, F, M, N);
  }
  CUresult moduleGetGlobal(CUdeviceptr *P, size_t *B, CUmodule M, const char *N) override {
    GMEM_CALL(PModGlobal, P, B, M, N);
  }
  CUresult libraryGetKernel(CUkernel *K, CUlibrary L, const char *N) override {
    GMEM_CALL(PLibKernel, K, L, N);
  }
  CUresult libraryGetGlobal(CUdeviceptr *P, size_t *B, CUlibrary L, const char *N) override {
    GMEM_CALL(PLibGlobal, P, B, L, N);
  }
  CUresult kernelGetFunction(CUfunction *F, CUkernel K) override { GMEM_CALL(PKernFunc, F, K); }
  CUresult funcGetParamInfo(CUfunction F, size_t I, size_t *O, size_t *S) override {
    GMEM_CALL(PParamInfo, F, I, O, S);
  }
  CUresult funcGetAttribute(int *V, CUfunction_attribute A, CUfunction F) override {
    GMEM_CALL(PGetAttr, V, A, F);
  }
  CUresult funcSetAttribute(CUfunction F, CUfunction_attribute A, int V) override {
    GMEM_CALL(PSetAttr, F, A, V);
  }
  CUresult occupancyMaxActiveBlocks(int *N, CUfunction F, int Threads, size_t Smem) override {
    GMEM_CALL(POccupancy, N, F, Threads, Smem);
  }

  CUresult deviceGetAttribute(int *V, CUdevice_attribute A) override {
    load();
    if (!PCtxGetDevice || !PDevAttr)
      return CUDA_ERROR_NOT_SUPPORTED;
    CUdevice Dev = 0;
    CUresult R = PCtxGetDevice(&Dev);
    return R == CUDA_SUCCESS ? PDevAttr(V, A, Dev) : R;
  }

  CUresult ctxSetPersistingL2(size_t Bytes) override {
    GMEM_CALL(PCtxSetLimit, CU_LIMIT_PERSISTING_L2_CACHE_SIZE, Bytes);
  }
  CUresult streamSetL2Window(CUstream S, CUdeviceptr Base, size_t Bytes, float HitRatio) override {
    CUstreamAttrValue V;
    std::memset(&V, 0, sizeof V);
    V.accessPolicyWindow.base_ptr = reinterpret_cast<void *>(Base);
    V.accessPolicyWindow.num_bytes = Bytes;
    V.accessPolicyWindow.hitRatio = HitRatio;
    V.accessPolicyWindow.hitProp = CU_ACCESS_PROPERTY_PERSISTING;
    V.accessPolicyWindow.missProp = CU_ACCESS_PROPERTY_STREAMING;
    GMEM_CALL(PStreamSetAttr, S, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &V);
  }

  CUresult readDevice(void *Dst, CUdeviceptr Src, size_t Bytes) override {
    load();
    if (!Loaded)
      return CUDA_ERROR_NOT_SUPPORTED;
    // Relaxed capture mode and a private non-blocking stream: the copy
    // happens inside a program's launch call, possibly during a capture.
    CUstreamCaptureMode Mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    bool Exchanged = PExchange && PExchange(&Mode) == CUDA_SUCCESS;
    CUstream S = nullptr;
    CUresult R = PStreamCreate(&S, CU_STREAM_NON_BLOCKING, 0);
    if (R == CUDA_SUCCESS) {
      R = PCopyDtoH(Dst, Src, Bytes, S);
      if (R == CUDA_SUCCESS)
        R = PStreamSync(S);
      if (PStreamDestroy)
        PStreamDestroy(S);
    }
    if (Exchanged)
      PExchange(&Mode);
    return R;
  }

  CUresult launch(const KernelLaunch &K) override {
    load();
    if (K.NumAttrs == 0 || !PLaunchEx) {
      if (!PLaunch)
        return CUDA_ERROR_NOT_SUPPORTED;
      return PLaunch(K.F, K.Grid[0], K.Grid[1], K.Grid[2], K.Block[0], K.Block[1], K.Block[2],
                     K.Shmem, K.Stream, K.Params, K.Extra);
    }
    CUlaunchConfig C = {};
    C.gridDimX = K.Grid[0], C.gridDimY = K.Grid[1], C.gridDimZ = K.Grid[2];
    C.blockDimX = K.Block[0], C.blockDimY = K.Block[1], C.blockDimZ = K.Block[2];
    C.sharedMemBytes = K.Shmem;
    C.hStream = K.Stream;
    C.attrs = const_cast<CUlaunchAttribute *>(K.Attrs);
    C.numAttrs = K.NumAttrs;
    return PLaunchEx(&C, K.F, K.Params, K.Extra);
  }
};

} // namespace

SchedDriver &realSchedDriver() {
  static RealSchedDriver *D = new RealSchedDriver(); // never destroyed: used at exit
  return *D;
}

} // namespace sched
} // namespace rt
} // namespace gmem

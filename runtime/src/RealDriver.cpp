// The real CUDA driver, resolved at run time (dlopen libcuda.so.1), so that
// libgmemrt builds without a GPU or libcuda and works under LD_PRELOAD.
#include "Driver.h"

#include <dlfcn.h>

#include <atomic>
#include <mutex>

namespace gmem {
namespace rt {

void *realDlsym(void *Handle, const char *Name) {
  using DlsymFn = void *(*)(void *, const char *);
  static std::atomic<DlsymFn> Real{nullptr};
  DlsymFn F = Real.load(std::memory_order_acquire);
  if (!F) {
    // dlvsym is not interposed by libgmemrt, so this is libc's dlsym.
    F = reinterpret_cast<DlsymFn>(dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.34"));
    if (!F)
      F = reinterpret_cast<DlsymFn>(dlvsym(RTLD_NEXT, "dlsym", "GLIBC_2.2.5"));
    if (!F)
      return nullptr;
    Real.store(F, std::memory_order_release);
  }
  return F(Handle, Name);
}

void *libcudaHandle() {
  static std::atomic<void *> Handle{nullptr};
  static std::atomic<bool> Tried{false};
  void *H = Handle.load(std::memory_order_acquire);
  if (H || Tried.load(std::memory_order_acquire))
    return H;
  static std::mutex Mu;
  std::lock_guard<std::mutex> Lock(Mu);
  H = Handle.load(std::memory_order_acquire);
  if (H || Tried.load())
    return H;
  H = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!H)
    H = dlopen("libcuda.so", RTLD_LAZY | RTLD_LOCAL);
  Handle.store(H, std::memory_order_release);
  Tried.store(true, std::memory_order_release);
  return H;
}

namespace {

template <typename Fn> Fn sym(const char *Name) { return driverSymbol<Fn>(Name); }

class RealDriver final : public DriverApi {
  using FuncGetName = CUresult (*)(const char **, CUfunction);
  using FuncGetModule = CUresult (*)(CUmodule *, CUfunction);
  using FuncGetParamInfo = CUresult (*)(CUfunction, size_t, size_t *, size_t *);
  using GetGlobal = CUresult (*)(CUdeviceptr *, size_t *, CUmodule, const char *);
  using KernelGetFunction = CUresult (*)(CUfunction *, CUkernel);
  using KernelGetLibrary = CUresult (*)(CUlibrary *, CUkernel);
  using KernelGetName = CUresult (*)(const char **, CUkernel);
  using LibGetGlobal = CUresult (*)(CUdeviceptr *, size_t *, CUlibrary, const char *);
  using CtxGetCurrent = CUresult (*)(CUcontext *);
  using AddrRange = CUresult (*)(CUdeviceptr *, size_t *, CUdeviceptr);
  using MemcpyDtoH = CUresult (*)(void *, CUdeviceptr, size_t);
  using MemcpyDtoHAsync = CUresult (*)(void *, CUdeviceptr, size_t, CUstream);
  using StreamCreate = CUresult (*)(CUstream *, unsigned);
  using StreamSync = CUresult (*)(CUstream);
  using StreamDestroy = CUresult (*)(CUstream);
  using ExchangeCapture = CUresult (*)(CUstreamCaptureMode *);

  std::once_flag Once;
  bool Loaded = false;
  FuncGetName PFuncGetName = nullptr;
  FuncGetModule PFuncGetModule = nullptr;
  FuncGetParamInfo PFuncGetParamInfo = nullptr;
  GetGlobal PModuleGetGlobal = nullptr;
  KernelGetFunction PKernelGetFunction = nullptr;
  KernelGetLibrary PKernelGetLibrary = nullptr;
  KernelGetName PKernelGetName = nullptr;
  LibGetGlobal PLibraryGetGlobal = nullptr;
  CtxGetCurrent PCtxGetCurrent = nullptr;
  AddrRange PAddrRange = nullptr;
  MemcpyDtoH PMemcpyDtoH = nullptr;
  MemcpyDtoHAsync PMemcpyDtoHAsync = nullptr;
  StreamCreate PStreamCreate = nullptr;
  StreamSync PStreamSync = nullptr;
  StreamDestroy PStreamDestroy = nullptr;
  ExchangeCapture PExchangeCapture = nullptr;

  void load() {
    std::call_once(Once, [this] {
      if (!libcudaHandle())
        return;
      PFuncGetName = sym<FuncGetName>("cuFuncGetName");
      PFuncGetModule = sym<FuncGetModule>("cuFuncGetModule");
      PFuncGetParamInfo = sym<FuncGetParamInfo>("cuFuncGetParamInfo");
      PModuleGetGlobal = sym<GetGlobal>("cuModuleGetGlobal_v2");
      PKernelGetFunction = sym<KernelGetFunction>("cuKernelGetFunction");
      PKernelGetLibrary = sym<KernelGetLibrary>("cuKernelGetLibrary");
      PKernelGetName = sym<KernelGetName>("cuKernelGetName");
      PLibraryGetGlobal = sym<LibGetGlobal>("cuLibraryGetGlobal");
      PCtxGetCurrent = sym<CtxGetCurrent>("cuCtxGetCurrent");
      PAddrRange = sym<AddrRange>("cuMemGetAddressRange_v2");
      PMemcpyDtoH = sym<MemcpyDtoH>("cuMemcpyDtoH_v2");
      PMemcpyDtoHAsync = sym<MemcpyDtoHAsync>("cuMemcpyDtoHAsync_v2");
      PStreamCreate = sym<StreamCreate>("cuStreamCreate");
      PStreamSync = sym<StreamSync>("cuStreamSynchronize");
      PStreamDestroy = sym<StreamDestroy>("cuStreamDestroy_v2");
      PExchangeCapture = sym<ExchangeCapture>("cuThreadExchangeStreamCaptureMode");
      Loaded = true;
    });
  }

public:
  bool available() override {
    load();
    return Loaded;
  }
  CUresult funcGetName(const char **N, CUfunction F) override { GMEM_CALL(PFuncGetName, N, F); }
  CUresult funcGetModule(CUmodule *M, CUfunction F) override { GMEM_CALL(PFuncGetModule, M, F); }
  CUresult funcGetParamInfo(CUfunction F, size_t I, size_t *O, size_t *S) override {
    GMEM_CALL(PFuncGetParamInfo, F, I, O, S);
  }
  CUresult moduleGetGlobal(CUdeviceptr *P, size_t *B, CUmodule M, const char *N) override {
    GMEM_CALL(PModuleGetGlobal, P, B, M, N);
  }
  CUresult kernelGetFunction(CUfunction *F, CUkernel K) override {
    GMEM_CALL(PKernelGetFunction, F, K);
  }
  CUresult kernelGetLibrary(CUlibrary *L, CUkernel K) override { GMEM_CALL(PKernelGetLibrary, L, K); }
  CUresult kernelGetName(const char **N, CUkernel K) override { GMEM_CALL(PKernelGetName, N, K); }
  CUresult libraryGetGlobal(CUdeviceptr *P, size_t *B, CUlibrary L, const char *N) override {
    GMEM_CALL(PLibraryGetGlobal, P, B, L, N);
  }
  CUresult ctxGetCurrent(CUcontext *C) override { GMEM_CALL(PCtxGetCurrent, C); }
  CUresult memGetAddressRange(CUdeviceptr *B, size_t *S, CUdeviceptr P) override {
    GMEM_CALL(PAddrRange, B, S, P);
  }

  CUresult readDevice(void *Dst, CUdeviceptr Src, size_t Bytes) override {
    load();
    // Relaxed capture mode: a capture in progress on this thread (in any
    // stream) must neither forbid nor be invalidated by our copy, which goes
    // through a private non-blocking stream (no implicit synchronisation
    // with the legacy default stream or the program's streams).
    CUstreamCaptureMode Mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    bool Exchanged = PExchangeCapture && PExchangeCapture(&Mode) == CUDA_SUCCESS;
    CUresult R = CUDA_ERROR_NOT_SUPPORTED;
    CUstream S = nullptr;
    if (PStreamCreate && PMemcpyDtoHAsync && PStreamSync && PStreamDestroy &&
        PStreamCreate(&S, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS) {
      R = PMemcpyDtoHAsync(Dst, Src, Bytes, S);
      if (R == CUDA_SUCCESS)
        R = PStreamSync(S);
      PStreamDestroy(S);
    } else if (PMemcpyDtoH) {
      R = PMemcpyDtoH(Dst, Src, Bytes);
    }
    if (Exchanged)
      PExchangeCapture(&Mode);
    return R;
  }
};

} // namespace

DriverApi &realDriver() {
  static RealDriver *D = new RealDriver(); // never destroyed: used from atexit paths
  return *D;
}

} // namespace rt
} // namespace gmem

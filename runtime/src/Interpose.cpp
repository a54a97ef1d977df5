// libgmemrt's ways in: the exported CUDA driver and runtime entry points,
// cuGetProcAddress, and dlsym.
//
// * LD_PRELOAD or linking (libgmemrt before libcudart/libcuda): calls that
//   bind by symbol (cuLaunchKernel, cudaLaunchKernel, cudaFree, ...) land here.
// * CUDA 12+ runtimes (shared or static) dlopen libcuda.so.1 and fetch
//   cuGetProcAddress(_v2) with dlsym on that handle, then every other entry
//   point through it. Our dlsym returns our cuGetProcAddress for that, and
//   our cuGetProcAddress returns our wrappers for the launch, allocation,
//   free and unload entry points (the driver's own pointers otherwise).
//
// Each hooked entry point exists in several variants (exported legacy and
// _ptsz symbols; cuGetProcAddress results for the default, legacy-stream and
// per-thread-stream flags), each with its own slot for the real function,
// so that a wrapper always calls exactly what the caller would have called.
//
// dlsym is interposed, so a dlsym(RTLD_NEXT, ...) made by someone else would
// otherwise be resolved relative to libgmemrt instead of the caller; that
// case is emulated from the caller's position in the link map.
#include "LaunchProfile.h"
#include "Runtime.h"
#include "Scheduler.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <dlfcn.h>
#include <link.h>

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstring>

#define GMEM_EXPORT extern "C" __attribute__((visibility("default")))

using namespace gmem::rt;

namespace {

enum Family {
  F_LaunchKernel,
  F_LaunchKernelEx,
  F_LaunchCoop,
  F_GraphLaunch,
  F_GetProcAddressV2,
  F_GetProcAddressV1,
  F_MemAlloc,
  F_MemAllocManaged,
  F_MemAllocPitch,
  F_MemAllocAsync,
  F_MemAllocFromPoolAsync,
  F_MemAllocHost,
  F_MemHostAlloc,
  F_MemFree,
  F_MemFreeAsync,
  F_MemFreeHost,
  F_MemHostUnregister,
  F_MemMap,
  F_MemUnmap,
  F_ModuleUnload,
  F_LibraryUnload,
  F_CtxDestroy,
  F_PrimaryCtxReset,
  F_PrimaryCtxRelease,
  F_CtxSynchronize,
  F_CtxSynchronizeV2,
  F_StreamSynchronize,
  F_StreamQuery,
  F_EventSynchronize,
  F_EventQuery,
  F_ModuleLoad,
  F_ModuleLoadData,
  F_ModuleLoadDataEx,
  F_ModuleLoadFatBinary,
  F_ModuleGetFunction,
  F_LibraryLoadData,
  F_LibraryLoadFromFile,
  F_LibraryGetKernel,
  F_KernelGetFunction,
  F_FuncLoad,
  NumFamilies
};

enum Variant { V_Export, V_ExportPtsz, V_GpaDefault, V_GpaLegacy, V_GpaPtds, NumVariants };

struct FamilyInfo {
  const char *GpaName;    ///< name given to cuGetProcAddress
  const char *Export;     ///< exported symbol (legacy stream)
  const char *ExportPtsz; ///< exported _ptsz symbol, or null
  int MinVersion, MaxVersion; ///< cudaVersion range with our wrapper's ABI
};

const FamilyInfo Families[NumFamilies] = {
    {"cuLaunchKernel", "cuLaunchKernel", "cuLaunchKernel_ptsz", 0, INT_MAX},
    {"cuLaunchKernelEx", "cuLaunchKernelEx", "cuLaunchKernelEx_ptsz", 11060, INT_MAX},
    {"cuLaunchCooperativeKernel", "cuLaunchCooperativeKernel", "cuLaunchCooperativeKernel_ptsz", 9000, INT_MAX},
    {"cuGraphLaunch", "cuGraphLaunch", "cuGraphLaunch_ptsz", 10000, INT_MAX},
    {"cuGetProcAddress", "cuGetProcAddress_v2", nullptr, 12000, INT_MAX},
    {"cuGetProcAddress", "cuGetProcAddress", nullptr, 0, 11999},
    {"cuMemAlloc", "cuMemAlloc_v2", nullptr, 3020, INT_MAX},
    {"cuMemAllocManaged", "cuMemAllocManaged", nullptr, 0, INT_MAX},
    {"cuMemAllocPitch", "cuMemAllocPitch_v2", nullptr, 3020, INT_MAX},
    {"cuMemAllocAsync", "cuMemAllocAsync", "cuMemAllocAsync_ptsz", 11020, INT_MAX},
    {"cuMemAllocFromPoolAsync", "cuMemAllocFromPoolAsync", "cuMemAllocFromPoolAsync_ptsz", 11020, INT_MAX},
    {"cuMemAllocHost", "cuMemAllocHost_v2", nullptr, 3020, INT_MAX},
    {"cuMemHostAlloc", "cuMemHostAlloc", nullptr, 0, INT_MAX},
    {"cuMemFree", "cuMemFree_v2", nullptr, 3020, INT_MAX},
    {"cuMemFreeAsync", "cuMemFreeAsync", "cuMemFreeAsync_ptsz", 11020, INT_MAX},
    {"cuMemFreeHost", "cuMemFreeHost", nullptr, 0, INT_MAX},
    {"cuMemHostUnregister", "cuMemHostUnregister", nullptr, 0, INT_MAX},
    {"cuMemMap", "cuMemMap", nullptr, 10020, INT_MAX},
    {"cuMemUnmap", "cuMemUnmap", nullptr, 10020, INT_MAX},
    {"cuModuleUnload", "cuModuleUnload", nullptr, 0, INT_MAX},
    {"cuLibraryUnload", "cuLibraryUnload", nullptr, 12000, INT_MAX},
    {"cuCtxDestroy", "cuCtxDestroy_v2", nullptr, 4000, INT_MAX},
    {"cuDevicePrimaryCtxReset", "cuDevicePrimaryCtxReset_v2", nullptr, 11000, INT_MAX},
    {"cuDevicePrimaryCtxRelease", "cuDevicePrimaryCtxRelease_v2", nullptr, 11000, INT_MAX},
    // Host synchronisation: afterwards the host may touch managed memory
    // (and migrate it back), so the memory side stops trusting residency.
    // CUDA 13 added cuCtxSynchronize_v2(CUcontext), what lookups for 13000+
    // return (CUDA 13's cudart asks for both). One wrapper serves both: it
    // takes and forwards a context, which the argument-less v1 ignores.
    {"cuCtxSynchronize", "cuCtxSynchronize", nullptr, 0, 12999},
    {"cuCtxSynchronize", "cuCtxSynchronize_v2", nullptr, 13000, INT_MAX},
    {"cuStreamSynchronize", "cuStreamSynchronize", "cuStreamSynchronize_ptsz", 0, INT_MAX},
    {"cuStreamQuery", "cuStreamQuery", "cuStreamQuery_ptsz", 0, INT_MAX},
    {"cuEventSynchronize", "cuEventSynchronize", nullptr, 0, INT_MAX},
    {"cuEventQuery", "cuEventQuery", nullptr, 0, INT_MAX},
    // Calls that may load code: in quiet (runtime/src/SchedFirstLaunch.cpp).
    {"cuModuleLoad", "cuModuleLoad", nullptr, 0, INT_MAX},
    {"cuModuleLoadData", "cuModuleLoadData", nullptr, 0, INT_MAX},
    {"cuModuleLoadDataEx", "cuModuleLoadDataEx", nullptr, 0, INT_MAX},
    {"cuModuleLoadFatBinary", "cuModuleLoadFatBinary", nullptr, 0, INT_MAX},
    {"cuModuleGetFunction", "cuModuleGetFunction", nullptr, 0, INT_MAX},
    {"cuLibraryLoadData", "cuLibraryLoadData", nullptr, 12000, INT_MAX},
    {"cuLibraryLoadFromFile", "cuLibraryLoadFromFile", nullptr, 12000, INT_MAX},
    {"cuLibraryGetKernel", "cuLibraryGetKernel", nullptr, 12000, INT_MAX},
    {"cuKernelGetFunction", "cuKernelGetFunction", nullptr, 12000, INT_MAX},
    {"cuFuncLoad", "cuFuncLoad", nullptr, 12040, INT_MAX},
};

std::atomic<void *> RealFn[NumFamilies][NumVariants];

// What every launch entry point tells the runtime.
inline LaunchRequest request(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                             unsigned by, unsigned bz, unsigned shmem, CUstream s, void **params,
                             void **extra) {
  LaunchRequest L;
  L.Handle = reinterpret_cast<uintptr_t>(f);
  L.Grid[0] = gx, L.Grid[1] = gy, L.Grid[2] = gz;
  L.Block[0] = bx, L.Block[1] = by, L.Block[2] = bz;
  L.Shmem = shmem;
  L.Stream = reinterpret_cast<uint64_t>(s);
  L.Params = params;
  L.Extra = extra;
  return L;
}

/// Runtime::before, told first what the scheduler will do with the launch
/// (one question per launch; its level goes on to the scheduler in Level).
LaunchRecord *decide(Runtime &RT, LaunchRequest &L, CUstream S, bool PerThread,
                     int *Level = nullptr) {
  const sched::StreamRole Role = sched::streamRole(S, PerThread);
  L.Unpreempted = Role.Unpreempted && !Role.WantsRegions;
  LaunchRecord *Rec;
  {
    GMEM_PROF_SCOPE(Decide);
    Rec = RT.before(L);
  }
  if (Role.WantsRegions)
    sched::noteUrgentReads(S, Rec);
  if (Level)
    *Level = Role.Level;
  return Rec;
}

template <typename Fn> Fn realOf(int F, int V) {
  void *P = RealFn[F][V].load(std::memory_order_acquire);
  if (!P && (V == V_Export || V == V_ExportPtsz)) {
    const char *Name = V == V_Export ? Families[F].Export : Families[F].ExportPtsz;
    void *H = libcudaHandle();
    if (Name && H) {
      P = realDlsym(H, Name);
      if (P)
        RealFn[F][V].store(P, std::memory_order_release);
    }
  }
  return reinterpret_cast<Fn>(P);
}

// Runtime::before itself returns null under a runtime-API launch (the
// driver launch underneath a cudaLaunchKernel), so a hook needs no TLS access
// of its own.
inline bool active(Runtime &R) { return R.enabled(); }

// Whether variant V's null stream is the per-thread default stream (the
// scheduler must know which stream a launch really goes to).
constexpr bool perThreadStream(int V) { return V == V_ExportPtsz || V == V_GpaPtds; }

// --- launches ---------------------------------------------------------------

using LaunchKernelFn = CUresult(CUDAAPI *)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                                           unsigned, unsigned, unsigned, CUstream, void **, void **);
// Calls driver entry point F (version V) and hands its result to Then,
// which updates the runtime's view (allocations, modules, contexts).
template <typename Fn, typename ThenFn, typename... A>
CUresult forwardThen(int F, int V, ThenFn &&Then, A... Args) {
  auto Real = realOf<Fn>(F, V);
  if (!Real)
    return CUDA_ERROR_NOT_INITIALIZED;
  CUresult R = Real(Args...);
  Then(R);
  return R;
}

template <int V>
CUresult CUDAAPI hkLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                unsigned by, unsigned bz, unsigned shmem, CUstream s, void **params,
                                void **extra) {
  auto Real = realOf<LaunchKernelFn>(F_LaunchKernel, V);
  if (!Real)
    return CUDA_ERROR_NOT_INITIALIZED;
  Runtime &RT = Runtime::global();
  if (!active(RT))
    return Real(f, gx, gy, gz, bx, by, bz, shmem, s, params, extra);
  [[maybe_unused]] const uint64_t ProfT0 = GMEM_PROF_NOW();
  LaunchRequest L = request(f, gx, gy, gz, bx, by, bz, shmem, s, params, extra);
  sched::SchedLaunch SL = sched::SchedLaunch::from(L, perThreadStream(V));
  LaunchRecord *Rec = decide(RT, L, s, perThreadStream(V), &SL.Level);
  auto Original = [&] {
    GMEM_PROF_SCOPE(Driver);
    return Real(f, gx, gy, gz, bx, by, bz, shmem, s, params, extra);
  };
  CUresult R = sched::scheduleOr(SL, sched::recordFor(Rec), Original);
  {
    GMEM_PROF_SCOPE(After);
    RT.after(Rec, R);
  }
  GMEM_PROF_HOOK(ProfT0);
  return R;
}

using LaunchKernelExFn = CUresult(CUDAAPI *)(const CUlaunchConfig *, CUfunction, void **, void **);
template <int V>
CUresult CUDAAPI hkLaunchKernelEx(const CUlaunchConfig *cfg, CUfunction f, void **params,
                                  void **extra) {
  auto Real = realOf<LaunchKernelExFn>(F_LaunchKernelEx, V);
  if (!Real)
    return CUDA_ERROR_NOT_INITIALIZED;
  Runtime &RT = Runtime::global();
  if (!active(RT) || !cfg)
    return Real(cfg, f, params, extra);
  LaunchRequest L = request(f, cfg->gridDimX, cfg->gridDimY, cfg->gridDimZ, cfg->blockDimX,
                            cfg->blockDimY, cfg->blockDimZ, cfg->sharedMemBytes, cfg->hStream,
                            params, extra);
  sched::SchedLaunch SL = sched::SchedLaunch::from(L, perThreadStream(V));
  LaunchRecord *Rec = decide(RT, L, cfg->hStream, perThreadStream(V), &SL.Level);
  auto Original = [&] { return Real(cfg, f, params, extra); };
  SL.Attrs = cfg->attrs;
  SL.NumAttrs = cfg->numAttrs;
  CUresult R = sched::scheduleOr(SL, sched::recordFor(Rec), Original);
  RT.after(Rec, R);
  return R;
}

using LaunchCoopFn = CUresult(CUDAAPI *)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                                         unsigned, unsigned, unsigned, CUstream, void **);
template <int V>
CUresult CUDAAPI hkLaunchCoop(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                              unsigned by, unsigned bz, unsigned shmem, CUstream s, void **params) {
  auto Real = realOf<LaunchCoopFn>(F_LaunchCoop, V);
  if (!Real)
    return CUDA_ERROR_NOT_INITIALIZED;
  Runtime &RT = Runtime::global();
  if (!active(RT))
    return Real(f, gx, gy, gz, bx, by, bz, shmem, s, params);
  LaunchRequest L = request(f, gx, gy, gz, bx, by, bz, shmem, s, params, nullptr);
  LaunchRecord *Rec = RT.before(L);
  auto Original = [&] { return Real(f, gx, gy, gz, bx, by, bz, shmem, s, params); };
  sched::SchedLaunch SL = sched::SchedLaunch::from(L, perThreadStream(V));
  SL.Cooperative = true;
  CUresult R = sched::scheduleOr(SL, sched::recordFor(Rec), Original);
  RT.after(Rec, R);
  return R;
}

// A CUDA graph's kernels cannot be swapped for clones, but the graph as a
// whole takes part in scheduling like a kernel without one: on a real-time
// stream its launch suppresses the levels below (inference servers launch
// their decode steps as graphs), below real time it is held behind its
// level's gate until started, then runs to its end.
using GraphLaunchFn = CUresult(CUDAAPI *)(CUgraphExec, CUstream);
template <int V> CUresult CUDAAPI hkGraphLaunch(CUgraphExec g, CUstream s) {
  auto Real = realOf<GraphLaunchFn>(F_GraphLaunch, V);
  if (!Real)
    return CUDA_ERROR_NOT_INITIALIZED;
  if (!active(Runtime::global()))
    return Real(g, s);
  [[maybe_unused]] const uint64_t ProfT0 = GMEM_PROF_NOW();
  sched::SchedLaunch SL;
  SL.Stream = s;
  SL.PerThreadStream = perThreadStream(V);
  SL.Graph = true;
  auto Original = [&] {
    GMEM_PROF_SCOPE(Driver);
    return Real(g, s);
  };
  CUresult R = sched::scheduleOr(SL, nullptr, Original);
  GMEM_PROF_HOOK(ProfT0);
  return R;
}

// --- cuGetProcAddress -------------------------------------------------------

void *wrapperOf(int F, int V);

void *hookProc(const char *Sym, void *P, int Version, cuuint64_t Flags) {
  if (!Sym || !P || Sym[0] != 'c' || Sym[1] != 'u')
    return P;
  for (int F = 0; F < NumFamilies; ++F) {
    const FamilyInfo &I = Families[F];
    if (std::strcmp(Sym, I.GpaName) != 0 || Version < I.MinVersion || Version > I.MaxVersion)
      continue;
    int V = (Flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) ? V_GpaPtds
            : (Flags & CU_GET_PROC_ADDRESS_LEGACY_STREAM)          ? V_GpaLegacy
                                                                    : V_GpaDefault;
    void *Expected = nullptr;
    if (!RealFn[F][V].compare_exchange_strong(Expected, P, std::memory_order_acq_rel) &&
        Expected != P)
      return P; // another function for the same slot: leave it alone
    return wrapperOf(F, V);
  }
  return P;
}

// GMEM_LOG=driver: which entry points a runtime looks up, and which we wrap.
void *logProc(const char *Sym, void *Real, void *Given, int Version, cuuint64_t Flags) {
  if (Runtime::global().logMask() & GMEM_LOG_DRIVER)
    std::fprintf(stderr, "gmem: cuGetProcAddress %s version=%d flags=%llu%s\n", Sym, Version,
                 (unsigned long long)Flags, Given != Real ? " (wrapped)" : "");
  return Given;
}

using GetProcV2Fn = CUresult(CUDAAPI *)(const char *, void **, int, cuuint64_t,
                                        CUdriverProcAddressQueryResult *);
template <int V>
CUresult CUDAAPI hkGetProcAddressV2(const char *sym, void **pfn, int ver, cuuint64_t flags,
                                    CUdriverProcAddressQueryResult *status) {
  auto Real = realOf<GetProcV2Fn>(F_GetProcAddressV2, V);
  if (!Real)
    return CUDA_ERROR_NOT_INITIALIZED;
  CUresult R = Real(sym, pfn, ver, flags, status);
  if (R == CUDA_SUCCESS && pfn && *pfn && Runtime::global().enabled())
    *pfn = logProc(sym, *pfn, hookProc(sym, *pfn, ver, flags), ver, flags);
  return R;
}

using GetProcV1Fn = CUresult(CUDAAPI *)(const char *, void **, int, cuuint64_t);
template <int V>
CUresult CUDAAPI hkGetProcAddressV1(const char *sym, void **pfn, int ver, cuuint64_t flags) {
  auto Real = realOf<GetProcV1Fn>(F_GetProcAddressV1, V);
  if (!Real)
    return CUDA_ERROR_NOT_INITIALIZED;
  CUresult R = Real(sym, pfn, ver, flags);
  if (R == CUDA_SUCCESS && pfn && *pfn && Runtime::global().enabled())
    *pfn = logProc(sym, *pfn, hookProc(sym, *pfn, ver, flags), ver, flags);
  return R;
}

// --- allocations and frees --------------------------------------------------

template <int V> CUresult CUDAAPI hkMemAlloc(CUdeviceptr *p, size_t n) {
  return forwardThen<CUresult(CUDAAPI *)(CUdeviceptr *, size_t)>(F_MemAlloc, V, [&](CUresult R) {
    if (R == CUDA_SUCCESS && p)
      Runtime::global().onAlloc(*p, n);
  }, p, n);
}
template <int V> CUresult CUDAAPI hkMemAllocManaged(CUdeviceptr *p, size_t n, unsigned flags) {
  return forwardThen<CUresult(CUDAAPI *)(CUdeviceptr *, size_t, unsigned)>(F_MemAllocManaged, V, [&](CUresult R) {
    if (R == CUDA_SUCCESS && p)
      Runtime::global().onManagedAlloc(*p, n);
  }, p, n, flags);
}
template <int V>
CUresult CUDAAPI hkMemAllocPitch(CUdeviceptr *p, size_t *pitch, size_t w, size_t h, unsigned e) {
  auto Real = realOf<CUresult(CUDAAPI *)(CUdeviceptr *, size_t *, size_t, size_t, unsigned)>(
      F_MemAllocPitch, V);
  if (!Real)
    return CUDA_ERROR_NOT_INITIALIZED;
  CUresult R = Real(p, pitch, w, h, e);
  if (R == CUDA_SUCCESS && p && pitch)
    Runtime::global().onAlloc(*p, *pitch * h);
  return R;
}
template <int V> CUresult CUDAAPI hkMemAllocAsync(CUdeviceptr *p, size_t n, CUstream s) {
  return forwardThen<CUresult(CUDAAPI *)(CUdeviceptr *, size_t, CUstream)>(F_MemAllocAsync, V, [&](CUresult R) {
    if (R == CUDA_SUCCESS && p)
      Runtime::global().onAlloc(*p, n);
  }, p, n, s);
}
template <int V>
CUresult CUDAAPI hkMemAllocFromPoolAsync(CUdeviceptr *p, size_t n, CUmemoryPool pool, CUstream s) {
  auto Real = realOf<CUresult(CUDAAPI *)(CUdeviceptr *, size_t, CUmemoryPool, CUstream)>(
      F_MemAllocFromPoolAsync, V);
  if (!Real)
    return CUDA_ERROR_NOT_INITIALIZED;
  CUresult R = Real(p, n, pool, s);
  if (R == CUDA_SUCCESS && p)
    Runtime::global().onAlloc(*p, n);
  return R;
}
template <int V> CUresult CUDAAPI hkMemAllocHost(void **p, size_t n) {
  return forwardThen<CUresult(CUDAAPI *)(void **, size_t)>(F_MemAllocHost, V, [&](CUresult R) {
    if (R == CUDA_SUCCESS && p)
      Runtime::global().onAlloc(reinterpret_cast<uint64_t>(*p), n);
  }, p, n);
}
template <int V> CUresult CUDAAPI hkMemHostAlloc(void **p, size_t n, unsigned flags) {
  return forwardThen<CUresult(CUDAAPI *)(void **, size_t, unsigned)>(F_MemHostAlloc, V, [&](CUresult R) {
    if (R == CUDA_SUCCESS && p)
      Runtime::global().onAlloc(reinterpret_cast<uint64_t>(*p), n);
  }, p, n, flags);
}
template <int V> CUresult CUDAAPI hkMemFree(CUdeviceptr p) {
  return forwardThen<CUresult(CUDAAPI *)(CUdeviceptr)>(F_MemFree, V, [&](CUresult R) {
    if (R == CUDA_SUCCESS)
      Runtime::global().onFree(p);
  }, p);
}
template <int V> CUresult CUDAAPI hkMemFreeAsync(CUdeviceptr p, CUstream s) {
  return forwardThen<CUresult(CUDAAPI *)(CUdeviceptr, CUstream)>(F_MemFreeAsync, V, [&](CUresult R) {
    if (R == CUDA_SUCCESS)
      Runtime::global().onFree(p);
  }, p, s);
}
template <int V> CUresult CUDAAPI hkMemFreeHost(void *p) {
  return forwardThen<CUresult(CUDAAPI *)(void *)>(F_MemFreeHost, V, [&](CUresult R) {
    if (R == CUDA_SUCCESS)
      Runtime::global().onFree(reinterpret_cast<uint64_t>(p));
  }, p);
}
template <int V> CUresult CUDAAPI hkMemHostUnregister(void *p) {
  return forwardThen<CUresult(CUDAAPI *)(void *)>(F_MemHostUnregister, V, [&](CUresult R) {
    if (R == CUDA_SUCCESS)
      Runtime::global().onFree(reinterpret_cast<uint64_t>(p));
  }, p);
}
template <int V>
CUresult CUDAAPI hkMemMap(CUdeviceptr p, size_t n, size_t off, CUmemGenericAllocationHandle h,
                          unsigned long long flags) {
  return forwardThen<CUresult(CUDAAPI *)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle,
                                         unsigned long long)>(F_MemMap, V, [&](CUresult R) {
    if (R == CUDA_SUCCESS)
      Runtime::global().onAlloc(p, n);
  }, p, n, off, h, flags);
}
template <int V> CUresult CUDAAPI hkMemUnmap(CUdeviceptr p, size_t n) {
  return forwardThen<CUresult(CUDAAPI *)(CUdeviceptr, size_t)>(F_MemUnmap, V, [&](CUresult R) {
    if (R == CUDA_SUCCESS)
      Runtime::global().onAlloc(p, n);
  }, p, n);
}

// --- modules and contexts ---------------------------------------------------

template <int V> CUresult CUDAAPI hkModuleUnload(CUmodule m) {
  return forwardThen<CUresult(CUDAAPI *)(CUmodule)>(F_ModuleUnload, V, [&](CUresult R) {
    if (R == CUDA_SUCCESS) {
      Runtime::global().onModuleUnload(m);
      sched::Scheduler::global().forgetFunctions();
    }
  }, m);
}
template <int V> CUresult CUDAAPI hkLibraryUnload(CUlibrary l) {
  return forwardThen<CUresult(CUDAAPI *)(CUlibrary)>(F_LibraryUnload, V, [&](CUresult R) {
    if (R == CUDA_SUCCESS) {
      Runtime::global().onLibraryUnload(l);
      sched::Scheduler::global().forgetFunctions();
    }
  }, l);
}
template <int V> CUresult CUDAAPI hkCtxDestroy(CUcontext c) {
  return forwardThen<CUresult(CUDAAPI *)(CUcontext)>(F_CtxDestroy, V, [&](CUresult R) {
    if (R == CUDA_SUCCESS)
      Runtime::global().onContextDestroy();
  }, c);
}
template <int V> CUresult CUDAAPI hkPrimaryCtxReset(CUdevice d) {
  return forwardThen<CUresult(CUDAAPI *)(CUdevice)>(F_PrimaryCtxReset, V, [&](CUresult R) {
    if (R == CUDA_SUCCESS)
      Runtime::global().onContextDestroy();
  }, d);
}
template <int V> CUresult CUDAAPI hkPrimaryCtxRelease(CUdevice d) {
  return forwardThen<CUresult(CUDAAPI *)(CUdevice)>(F_PrimaryCtxRelease, V, [&](CUresult R) {
    if (R == CUDA_SUCCESS)
      Runtime::global().onContextDestroy();
  }, d);
}

// --- host synchronisation ---------------------------------------------------

// Family F with its one handle argument; on success the host has waited for
// device work (and may touch managed memory next).
template <int F, int V, typename H> CUresult hostSync(H h) {
  return forwardThen<CUresult(CUDAAPI *)(H)>(F, V, [](CUresult R) {
    if (R == CUDA_SUCCESS)
      Runtime::global().onHostSync();
  }, h);
}
template <int V> CUresult CUDAAPI hkCtxSynchronize(CUcontext c) { return hostSync<F_CtxSynchronize, V>(c); }
template <int V> CUresult CUDAAPI hkCtxSynchronizeV2(CUcontext c) { return hostSync<F_CtxSynchronizeV2, V>(c); }
template <int V> CUresult CUDAAPI hkStreamSynchronize(CUstream s) { return hostSync<F_StreamSynchronize, V>(s); }
template <int V> CUresult CUDAAPI hkStreamQuery(CUstream s) { return hostSync<F_StreamQuery, V>(s); }
template <int V> CUresult CUDAAPI hkEventSynchronize(CUevent e) { return hostSync<F_EventSynchronize, V>(e); }
template <int V> CUresult CUDAAPI hkEventQuery(CUevent e) { return hostSync<F_EventQuery, V>(e); }

// --- code loading ----------------------------------------------------------

// Family F may load code into the current context: while the scheduler has
// work stopped there, the driver may then wait for it forever (H200,
// test/runtime/gpu/results/first_launch): the call waits for quiet and no
// stop is made until it returns. Key: for a look-up that loads only the
// first time (Scheduler::beginCodeLoad), else 0.
template <typename Fn, typename... A> CUresult loadingKeyed(int F, int V, uint64_t Key, A... Args) {
  sched::CodeLoadQuiet Quiet(Key);
  auto Real = realOf<Fn>(F, V);
  const CUresult R = Real ? Real(Args...) : CUDA_ERROR_NOT_INITIALIZED;
  Quiet.done(R == CUDA_SUCCESS);
  return R;
}
template <typename Fn, typename... A> CUresult loading(int F, int V, A... Args) {
  return loadingKeyed<Fn>(F, V, 0, Args...);
}
/// A look-up's key: the handle it looks in and the name (or the handle alone).
uint64_t lookupKey(const void *Handle, const char *Name = nullptr) {
  uint64_t H = reinterpret_cast<uintptr_t>(Handle) * 0x9e3779b97f4a7c15ull;
  for (const char *P = Name; P && *P; ++P)
    H = (H ^ uint8_t(*P)) * 0x100000001b3ull;
  return H | 1; // never 0
}
template <int V> CUresult CUDAAPI hkModuleLoad(CUmodule *m, const char *path) {
  return loading<CUresult(CUDAAPI *)(CUmodule *, const char *)>(F_ModuleLoad, V, m, path);
}
template <int V> CUresult CUDAAPI hkModuleLoadData(CUmodule *m, const void *image) {
  return loading<CUresult(CUDAAPI *)(CUmodule *, const void *)>(F_ModuleLoadData, V, m, image);
}
template <int V>
CUresult CUDAAPI hkModuleLoadDataEx(CUmodule *m, const void *image, unsigned n, CUjit_option *o,
                                    void **v) {
  return loading<CUresult(CUDAAPI *)(CUmodule *, const void *, unsigned, CUjit_option *, void **)>(
      F_ModuleLoadDataEx, V, m, image, n, o, v);
}
template <int V> CUresult CUDAAPI hkModuleLoadFatBinary(CUmodule *m, const void *fatbin) {
  return loading<CUresult(CUDAAPI *)(CUmodule *, const void *)>(F_ModuleLoadFatBinary, V, m,
                                                                 fatbin);
}
template <int V> CUresult CUDAAPI hkModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  return loadingKeyed<CUresult(CUDAAPI *)(CUfunction *, CUmodule, const char *)>(
      F_ModuleGetFunction, V, lookupKey(m, name), f, m, name);
}
using LibraryLoadDataFn = CUresult(CUDAAPI *)(CUlibrary *, const void *, CUjit_option *, void **,
                                              unsigned, CUlibraryOption *, void **, unsigned);
template <int V>
CUresult CUDAAPI hkLibraryLoadData(CUlibrary *l, const void *code, CUjit_option *jo, void **jv,
                                   unsigned jn, CUlibraryOption *lo, void **lv, unsigned ln) {
  return loading<LibraryLoadDataFn>(F_LibraryLoadData, V, l, code, jo, jv, jn, lo, lv, ln);
}
using LibraryLoadFromFileFn = CUresult(CUDAAPI *)(CUlibrary *, const char *, CUjit_option *,
                                                  void **, unsigned, CUlibraryOption *, void **,
                                                  unsigned);
template <int V>
CUresult CUDAAPI hkLibraryLoadFromFile(CUlibrary *l, const char *path, CUjit_option *jo, void **jv,
                                       unsigned jn, CUlibraryOption *lo, void **lv, unsigned ln) {
  return loading<LibraryLoadFromFileFn>(F_LibraryLoadFromFile, V, l, path, jo, jv, jn, lo, lv, ln);
}
template <int V> CUresult CUDAAPI hkLibraryGetKernel(CUkernel *k, CUlibrary l, const char *name) {
  return loadingKeyed<CUresult(CUDAAPI *)(CUkernel *, CUlibrary, const char *)>(
      F_LibraryGetKernel, V, lookupKey(l, name), k, l, name);
}
template <int V> CUresult CUDAAPI hkKernelGetFunction(CUfunction *f, CUkernel k) {
  return loadingKeyed<CUresult(CUDAAPI *)(CUfunction *, CUkernel)>(F_KernelGetFunction, V,
                                                                   lookupKey(k), f, k);
}
template <int V> CUresult CUDAAPI hkFuncLoad(CUfunction f) {
  return loadingKeyed<CUresult(CUDAAPI *)(CUfunction)>(F_FuncLoad, V, lookupKey(f), f);
}

#define GMEM_VARIANTS(T)                                                                           \
  {                                                                                                \
    reinterpret_cast<void *>(&T<V_Export>), reinterpret_cast<void *>(&T<V_ExportPtsz>),            \
        reinterpret_cast<void *>(&T<V_GpaDefault>), reinterpret_cast<void *>(&T<V_GpaLegacy>),     \
        reinterpret_cast<void *>(&T<V_GpaPtds>)                                                    \
  }

void *const Wrappers[NumFamilies][NumVariants] = {
    GMEM_VARIANTS(hkLaunchKernel),      GMEM_VARIANTS(hkLaunchKernelEx),
    GMEM_VARIANTS(hkLaunchCoop),        GMEM_VARIANTS(hkGraphLaunch),
    GMEM_VARIANTS(hkGetProcAddressV2),
    GMEM_VARIANTS(hkGetProcAddressV1),  GMEM_VARIANTS(hkMemAlloc),
    GMEM_VARIANTS(hkMemAllocManaged),   GMEM_VARIANTS(hkMemAllocPitch),
    GMEM_VARIANTS(hkMemAllocAsync),     GMEM_VARIANTS(hkMemAllocFromPoolAsync),
    GMEM_VARIANTS(hkMemAllocHost),      GMEM_VARIANTS(hkMemHostAlloc),
    GMEM_VARIANTS(hkMemFree),           GMEM_VARIANTS(hkMemFreeAsync),
    GMEM_VARIANTS(hkMemFreeHost),       GMEM_VARIANTS(hkMemHostUnregister),
    GMEM_VARIANTS(hkMemMap),            GMEM_VARIANTS(hkMemUnmap),
    GMEM_VARIANTS(hkModuleUnload),      GMEM_VARIANTS(hkLibraryUnload),
    GMEM_VARIANTS(hkCtxDestroy),        GMEM_VARIANTS(hkPrimaryCtxReset),
    GMEM_VARIANTS(hkPrimaryCtxRelease), GMEM_VARIANTS(hkCtxSynchronize),
    GMEM_VARIANTS(hkCtxSynchronizeV2),
    GMEM_VARIANTS(hkStreamSynchronize), GMEM_VARIANTS(hkStreamQuery),
    GMEM_VARIANTS(hkEventSynchronize),  GMEM_VARIANTS(hkEventQuery),
    GMEM_VARIANTS(hkModuleLoad),        GMEM_VARIANTS(hkModuleLoadData),
    GMEM_VARIANTS(hkModuleLoadDataEx),  GMEM_VARIANTS(hkModuleLoadFatBinary),
    GMEM_VARIANTS(hkModuleGetFunction), GMEM_VARIANTS(hkLibraryLoadData),
    GMEM_VARIANTS(hkLibraryLoadFromFile), GMEM_VARIANTS(hkLibraryGetKernel),
    GMEM_VARIANTS(hkKernelGetFunction), GMEM_VARIANTS(hkFuncLoad),
};

void *wrapperOf(int F, int V) { return Wrappers[F][V]; }

/// Our wrapper for an exported driver symbol name, or null.
void *exportWrapper(const char *Name) {
  for (int F = 0; F < NumFamilies; ++F) {
    if (Families[F].Export && std::strcmp(Name, Families[F].Export) == 0)
      return Wrappers[F][V_Export];
    if (Families[F].ExportPtsz && std::strcmp(Name, Families[F].ExportPtsz) == 0)
      return Wrappers[F][V_ExportPtsz];
  }
  return nullptr;
}

/// dlsym(RTLD_NEXT, Name) as the caller at Caller would have seen it: the
/// first definition in an object loaded after the caller's.
void *nextSymbol(void *Caller, const char *Name) {
  Dl_info Info;
  struct link_map *Self = nullptr;
  if (!dladdr1(Caller, &Info, reinterpret_cast<void **>(&Self), RTLD_DL_LINKMAP) || !Self)
    return realDlsym(RTLD_NEXT, Name);
  for (struct link_map *L = Self->l_next; L; L = L->l_next) {
    if (!L->l_name || !L->l_name[0])
      continue;
    void *H = dlopen(L->l_name, RTLD_LAZY | RTLD_NOLOAD);
    if (!H)
      continue;
    void *S = realDlsym(H, Name);
    dlclose(H);
    if (!S)
      continue;
    Dl_info SI;
    struct link_map *Def = nullptr;
    if (dladdr1(S, &SI, reinterpret_cast<void **>(&Def), RTLD_DL_LINKMAP) && Def == L)
      return S;
  }
  return nullptr;
}

// --- CUDA runtime API -------------------------------------------------------

template <typename Fn> Fn cudartNext(std::atomic<void *> &Slot, const char *Name) {
  void *P = Slot.load(std::memory_order_acquire);
  if (!P) {
    P = realDlsym(RTLD_NEXT, Name);
    if (P)
      Slot.store(P, std::memory_order_release);
  }
  return reinterpret_cast<Fn>(P);
}

/// The CUfunction of a host stub (current device), or null. Leaves the
/// runtime's last-error state as it found it.
CUfunction funcOfStub(const void *Func) {
  static std::atomic<void *> SGet{nullptr}, SPeek{nullptr}, SLast{nullptr};
  auto Get = cudartNext<cudaError_t (*)(cudaFunction_t *, const void *)>(SGet, "cudaGetFuncBySymbol");
  auto Peek = cudartNext<cudaError_t (*)()>(SPeek, "cudaPeekAtLastError");
  auto Last = cudartNext<cudaError_t (*)()>(SLast, "cudaGetLastError");
  if (!Get || !Peek || !Last)
    return nullptr;
  cudaError_t Pending = Peek();
  cudaFunction_t F = nullptr;
  if (Get(&F, Func) != cudaSuccess) {
    if (Pending == cudaSuccess)
      Last(); // clear the error we caused
    return nullptr;
  }
  return reinterpret_cast<CUfunction>(F);
}

using CudaLaunchFn = cudaError_t (*)(const void *, dim3, dim3, void **, size_t, cudaStream_t);
cudaError_t cudaLaunch(CudaLaunchFn Real, const void *func, dim3 g, dim3 b, void **args, size_t shmem,
                       cudaStream_t s) {
  if (!Real)
    return cudaErrorInitializationError;
  Runtime &RT = Runtime::global();
  if (!active(RT))
    return Real(func, g, b, args, shmem, s);
  LaunchRequest L;
  L.Handle = reinterpret_cast<uintptr_t>(funcOfStub(func));
  L.Grid[0] = g.x, L.Grid[1] = g.y, L.Grid[2] = g.z;
  L.Block[0] = b.x, L.Block[1] = b.y, L.Block[2] = b.z;
  L.Shmem = uint32_t(shmem);
  L.Stream = reinterpret_cast<uint64_t>(s);
  L.Params = args;
  L.Api = GMEM_API_RUNTIME;
  // (The per-thread default stream is not told apart here: a null stream
  // counts as the legacy one, which keeps its launches evaluated.)
  LaunchRecord *Rec = decide(RT, L, reinterpret_cast<CUstream>(s), false);
  ++runtimeApiDepth();
  cudaError_t R;
  {
    sched::RuntimeLaunchScope Scheduled(Rec); // the driver launch underneath is scheduled
    R = Real(func, g, b, args, shmem, s);
  }
  --runtimeApiDepth();
  RT.after(Rec, int(R));
  return R;
}

using CudaLaunchExFn = cudaError_t (*)(const cudaLaunchConfig_t *, const void *, void **);
cudaError_t cudaLaunchEx(CudaLaunchExFn Real, const cudaLaunchConfig_t *c, const void *func,
                         void **args) {
  if (!Real)
    return cudaErrorInitializationError;
  Runtime &RT = Runtime::global();
  if (!active(RT) || !c)
    return Real(c, func, args);
  LaunchRequest L;
  L.Handle = reinterpret_cast<uintptr_t>(funcOfStub(func));
  L.Grid[0] = c->gridDim.x, L.Grid[1] = c->gridDim.y, L.Grid[2] = c->gridDim.z;
  L.Block[0] = c->blockDim.x, L.Block[1] = c->blockDim.y, L.Block[2] = c->blockDim.z;
  L.Shmem = uint32_t(c->dynamicSmemBytes);
  L.Stream = reinterpret_cast<uint64_t>(c->stream);
  L.Params = args;
  L.Api = GMEM_API_RUNTIME;
  LaunchRecord *Rec = decide(RT, L, reinterpret_cast<CUstream>(c->stream), false);
  ++runtimeApiDepth();
  cudaError_t R;
  {
    sched::RuntimeLaunchScope Scheduled(Rec); // the driver launch underneath is scheduled
    R = Real(c, func, args);
  }
  --runtimeApiDepth();
  RT.after(Rec, int(R));
  return R;
}

std::atomic<void *> SLaunch{nullptr}, SLaunchPtsz{nullptr}, SLaunchEx{nullptr},
    SLaunchExPtsz{nullptr}, SFree{nullptr}, SFreeAsync{nullptr}, SFreeAsyncPtsz{nullptr},
    SFreeHost{nullptr}, SMalloc{nullptr}, SMallocManaged{nullptr}, SMallocAsync{nullptr},
    SMallocAsyncPtsz{nullptr}, SMallocHost{nullptr}, SHostAlloc{nullptr}, SMallocPitch{nullptr};

} // namespace

// ===========================================================================
// Exported symbols.

// Driver API: launches.
GMEM_EXPORT CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz,
                                            unsigned bx, unsigned by, unsigned bz, unsigned shmem,
                                            CUstream s, void **params, void **extra) {
  return hkLaunchKernel<V_Export>(f, gx, gy, gz, bx, by, bz, shmem, s, params, extra);
}
GMEM_EXPORT CUresult CUDAAPI cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy,
                                                 unsigned gz, unsigned bx, unsigned by, unsigned bz,
                                                 unsigned shmem, CUstream s, void **params,
                                                 void **extra) {
  return hkLaunchKernel<V_ExportPtsz>(f, gx, gy, gz, bx, by, bz, shmem, s, params, extra);
}
GMEM_EXPORT CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **params,
                                              void **extra) {
  return hkLaunchKernelEx<V_Export>(c, f, params, extra);
}
GMEM_EXPORT CUresult CUDAAPI cuLaunchKernelEx_ptsz(const CUlaunchConfig *c, CUfunction f,
                                                   void **params, void **extra) {
  return hkLaunchKernelEx<V_ExportPtsz>(c, f, params, extra);
}
GMEM_EXPORT CUresult CUDAAPI cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy,
                                                       unsigned gz, unsigned bx, unsigned by,
                                                       unsigned bz, unsigned shmem, CUstream s,
                                                       void **params) {
  return hkLaunchCoop<V_Export>(f, gx, gy, gz, bx, by, bz, shmem, s, params);
}
GMEM_EXPORT CUresult CUDAAPI cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned gx, unsigned gy,
                                                            unsigned gz, unsigned bx, unsigned by,
                                                            unsigned bz, unsigned shmem,
                                                            CUstream s, void **params) {
  return hkLaunchCoop<V_ExportPtsz>(f, gx, gy, gz, bx, by, bz, shmem, s, params);
}

GMEM_EXPORT CUresult CUDAAPI cuGraphLaunch(CUgraphExec g, CUstream s) {
  return hkGraphLaunch<V_Export>(g, s);
}
GMEM_EXPORT CUresult CUDAAPI cuGraphLaunch_ptsz(CUgraphExec g, CUstream s) {
  return hkGraphLaunch<V_ExportPtsz>(g, s);
}

// Driver API: entry-point lookup. cuda.h renames cuGetProcAddress to _v2,
// so the 4-argument CUDA 11 symbol is defined through an asm label.
GMEM_EXPORT CUresult CUDAAPI cuGetProcAddress_v2(const char *sym, void **pfn, int ver,
                                                 cuuint64_t flags,
                                                 CUdriverProcAddressQueryResult *status) {
  return hkGetProcAddressV2<V_Export>(sym, pfn, ver, flags, status);
}
GMEM_EXPORT CUresult CUDAAPI gmemCuGetProcAddressV1(const char *sym, void **pfn, int ver,
                                                    cuuint64_t flags) __asm__("cuGetProcAddress");
GMEM_EXPORT CUresult CUDAAPI gmemCuGetProcAddressV1(const char *sym, void **pfn, int ver,
                                                    cuuint64_t flags) {
  return hkGetProcAddressV1<V_Export>(sym, pfn, ver, flags);
}

// Driver API: memory.
GMEM_EXPORT CUresult CUDAAPI cuMemAlloc_v2(CUdeviceptr *p, size_t n) { return hkMemAlloc<V_Export>(p, n); }
GMEM_EXPORT CUresult CUDAAPI cuMemAllocManaged(CUdeviceptr *p, size_t n, unsigned flags) {
  return hkMemAllocManaged<V_Export>(p, n, flags);
}
GMEM_EXPORT CUresult CUDAAPI cuMemAllocPitch_v2(CUdeviceptr *p, size_t *pitch, size_t w, size_t h,
                                                unsigned e) {
  return hkMemAllocPitch<V_Export>(p, pitch, w, h, e);
}
GMEM_EXPORT CUresult CUDAAPI cuMemAllocAsync(CUdeviceptr *p, size_t n, CUstream s) {
  return hkMemAllocAsync<V_Export>(p, n, s);
}
GMEM_EXPORT CUresult CUDAAPI cuMemAllocAsync_ptsz(CUdeviceptr *p, size_t n, CUstream s) {
  return hkMemAllocAsync<V_ExportPtsz>(p, n, s);
}
GMEM_EXPORT CUresult CUDAAPI cuMemAllocFromPoolAsync(CUdeviceptr *p, size_t n, CUmemoryPool pool,
                                                     CUstream s) {
  return hkMemAllocFromPoolAsync<V_Export>(p, n, pool, s);
}
GMEM_EXPORT CUresult CUDAAPI cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *p, size_t n,
                                                          CUmemoryPool pool, CUstream s) {
  return hkMemAllocFromPoolAsync<V_ExportPtsz>(p, n, pool, s);
}
GMEM_EXPORT CUresult CUDAAPI cuMemAllocHost_v2(void **p, size_t n) { return hkMemAllocHost<V_Export>(p, n); }
GMEM_EXPORT CUresult CUDAAPI cuMemHostAlloc(void **p, size_t n, unsigned flags) {
  return hkMemHostAlloc<V_Export>(p, n, flags);
}
GMEM_EXPORT CUresult CUDAAPI cuMemFree_v2(CUdeviceptr p) { return hkMemFree<V_Export>(p); }
GMEM_EXPORT CUresult CUDAAPI cuMemFreeAsync(CUdeviceptr p, CUstream s) {
  return hkMemFreeAsync<V_Export>(p, s);
}
GMEM_EXPORT CUresult CUDAAPI cuMemFreeAsync_ptsz(CUdeviceptr p, CUstream s) {
  return hkMemFreeAsync<V_ExportPtsz>(p, s);
}
GMEM_EXPORT CUresult CUDAAPI cuMemFreeHost(void *p) { return hkMemFreeHost<V_Export>(p); }
GMEM_EXPORT CUresult CUDAAPI cuMemHostUnregister(void *p) { return hkMemHostUnregister<V_Export>(p); }
GMEM_EXPORT CUresult CUDAAPI cuMemMap(CUdeviceptr p, size_t n, size_t off,
                                      CUmemGenericAllocationHandle h, unsigned long long flags) {
  return hkMemMap<V_Export>(p, n, off, h, flags);
}
GMEM_EXPORT CUresult CUDAAPI cuMemUnmap(CUdeviceptr p, size_t n) { return hkMemUnmap<V_Export>(p, n); }

// Driver API: modules and contexts.
GMEM_EXPORT CUresult CUDAAPI cuModuleUnload(CUmodule m) { return hkModuleUnload<V_Export>(m); }
GMEM_EXPORT CUresult CUDAAPI cuLibraryUnload(CUlibrary l) { return hkLibraryUnload<V_Export>(l); }
GMEM_EXPORT CUresult CUDAAPI cuCtxDestroy_v2(CUcontext c) { return hkCtxDestroy<V_Export>(c); }
GMEM_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxReset_v2(CUdevice d) { return hkPrimaryCtxReset<V_Export>(d); }
GMEM_EXPORT CUresult CUDAAPI cuDevicePrimaryCtxRelease_v2(CUdevice d) {
  return hkPrimaryCtxRelease<V_Export>(d);
}

// Driver API: code loading.
GMEM_EXPORT CUresult CUDAAPI cuModuleLoad(CUmodule *m, const char *path) {
  return hkModuleLoad<V_Export>(m, path);
}
GMEM_EXPORT CUresult CUDAAPI cuModuleLoadData(CUmodule *m, const void *image) {
  return hkModuleLoadData<V_Export>(m, image);
}
GMEM_EXPORT CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned n,
                                                CUjit_option *o, void **v) {
  return hkModuleLoadDataEx<V_Export>(m, image, n, o, v);
}
GMEM_EXPORT CUresult CUDAAPI cuModuleLoadFatBinary(CUmodule *m, const void *fatbin) {
  return hkModuleLoadFatBinary<V_Export>(m, fatbin);
}
GMEM_EXPORT CUresult CUDAAPI cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  return hkModuleGetFunction<V_Export>(f, m, name);
}
GMEM_EXPORT CUresult CUDAAPI cuLibraryLoadData(CUlibrary *l, const void *code, CUjit_option *jo,
                                               void **jv, unsigned jn, CUlibraryOption *lo,
                                               void **lv, unsigned ln) {
  return hkLibraryLoadData<V_Export>(l, code, jo, jv, jn, lo, lv, ln);
}
GMEM_EXPORT CUresult CUDAAPI cuLibraryLoadFromFile(CUlibrary *l, const char *path, CUjit_option *jo,
                                                   void **jv, unsigned jn, CUlibraryOption *lo,
                                                   void **lv, unsigned ln) {
  return hkLibraryLoadFromFile<V_Export>(l, path, jo, jv, jn, lo, lv, ln);
}
GMEM_EXPORT CUresult CUDAAPI cuLibraryGetKernel(CUkernel *k, CUlibrary l, const char *name) {
  return hkLibraryGetKernel<V_Export>(k, l, name);
}
GMEM_EXPORT CUresult CUDAAPI cuKernelGetFunction(CUfunction *f, CUkernel k) {
  return hkKernelGetFunction<V_Export>(f, k);
}
GMEM_EXPORT CUresult CUDAAPI cuFuncLoad(CUfunction f) { return hkFuncLoad<V_Export>(f); }

// Driver API: host synchronisation.
GMEM_EXPORT CUresult CUDAAPI cuCtxSynchronize(void) { return hkCtxSynchronize<V_Export>(nullptr); }
GMEM_EXPORT CUresult CUDAAPI cuCtxSynchronize_v2(CUcontext c) {
  return hkCtxSynchronizeV2<V_Export>(c);
}
GMEM_EXPORT CUresult CUDAAPI cuStreamSynchronize(CUstream s) { return hkStreamSynchronize<V_Export>(s); }
GMEM_EXPORT CUresult CUDAAPI cuStreamSynchronize_ptsz(CUstream s) {
  return hkStreamSynchronize<V_ExportPtsz>(s);
}
GMEM_EXPORT CUresult CUDAAPI cuStreamQuery(CUstream s) { return hkStreamQuery<V_Export>(s); }
GMEM_EXPORT CUresult CUDAAPI cuStreamQuery_ptsz(CUstream s) { return hkStreamQuery<V_ExportPtsz>(s); }
GMEM_EXPORT CUresult CUDAAPI cuEventSynchronize(CUevent e) { return hkEventSynchronize<V_Export>(e); }
GMEM_EXPORT CUresult CUDAAPI cuEventQuery(CUevent e) { return hkEventQuery<V_Export>(e); }

// Runtime API.
GMEM_EXPORT cudaError_t cudaLaunchKernel(const void *func, dim3 g, dim3 b, void **args, size_t shmem,
                                         cudaStream_t s) {
  return cudaLaunch(cudartNext<CudaLaunchFn>(SLaunch, "cudaLaunchKernel"), func, g, b, args, shmem, s);
}
GMEM_EXPORT cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 g, dim3 b, void **args,
                                              size_t shmem, cudaStream_t s) {
  return cudaLaunch(cudartNext<CudaLaunchFn>(SLaunchPtsz, "cudaLaunchKernel_ptsz"), func, g, b, args,
                    shmem, s);
}
GMEM_EXPORT cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *c, const void *func,
                                            void **args) {
  return cudaLaunchEx(cudartNext<CudaLaunchExFn>(SLaunchEx, "cudaLaunchKernelExC"), c, func, args);
}
GMEM_EXPORT cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *c, const void *func,
                                                 void **args) {
  return cudaLaunchEx(cudartNext<CudaLaunchExFn>(SLaunchExPtsz, "cudaLaunchKernelExC_ptsz"), c, func,
                      args);
}

// The cudart allocation entry points: call the real one, then tell the
// allocation map what changed (a free invalidates cached lookups).
template <typename... Rest>
cudaError_t freeThrough(std::atomic<void *> &Slot, const char *Name, void *P, Rest... R) {
  auto Real = cudartNext<cudaError_t (*)(void *, Rest...)>(Slot, Name);
  if (!Real)
    return cudaErrorInitializationError;
  cudaError_t E = Real(P, R...);
  if (E == cudaSuccess && P)
    Runtime::global().onFree(reinterpret_cast<uint64_t>(P));
  return E;
}
template <typename... Rest>
cudaError_t allocThrough(std::atomic<void *> &Slot, const char *Name, void **P, size_t N,
                         Rest... R) {
  auto Real = cudartNext<cudaError_t (*)(void **, size_t, Rest...)>(Slot, Name);
  if (!Real)
    return cudaErrorInitializationError;
  cudaError_t E = Real(P, N, R...);
  if (E == cudaSuccess && P)
    Runtime::global().onAlloc(reinterpret_cast<uint64_t>(*P), N);
  return E;
}

GMEM_EXPORT cudaError_t cudaFree(void *p) { return freeThrough(SFree, "cudaFree", p); }
GMEM_EXPORT cudaError_t cudaFreeAsync(void *p, cudaStream_t s) { return freeThrough(SFreeAsync, "cudaFreeAsync", p, s); }
GMEM_EXPORT cudaError_t cudaFreeAsync_ptsz(void *p, cudaStream_t s) { return freeThrough(SFreeAsyncPtsz, "cudaFreeAsync_ptsz", p, s); }
GMEM_EXPORT cudaError_t cudaFreeHost(void *p) { return freeThrough(SFreeHost, "cudaFreeHost", p); }
GMEM_EXPORT cudaError_t cudaMalloc(void **p, size_t n) { return allocThrough(SMalloc, "cudaMalloc", p, n); }
GMEM_EXPORT cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags) { return allocThrough(SMallocManaged, "cudaMallocManaged", p, n, flags); }
GMEM_EXPORT cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s) { return allocThrough(SMallocAsync, "cudaMallocAsync", p, n, s); }
GMEM_EXPORT cudaError_t cudaMallocAsync_ptsz(void **p, size_t n, cudaStream_t s) { return allocThrough(SMallocAsyncPtsz, "cudaMallocAsync_ptsz", p, n, s); }
GMEM_EXPORT cudaError_t cudaMallocHost(void **p, size_t n) { return allocThrough(SMallocHost, "cudaMallocHost", p, n); }
GMEM_EXPORT cudaError_t cudaHostAlloc(void **p, size_t n, unsigned flags) { return allocThrough(SHostAlloc, "cudaHostAlloc", p, n, flags); }
GMEM_EXPORT cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t w, size_t h) {
  auto Real = cudartNext<cudaError_t (*)(void **, size_t *, size_t, size_t)>(SMallocPitch,
                                                                             "cudaMallocPitch");
  if (!Real)
    return cudaErrorInitializationError;
  cudaError_t R = Real(p, pitch, w, h);
  if (R == cudaSuccess && p && pitch)
    Runtime::global().onAlloc(reinterpret_cast<uint64_t>(*p), *pitch * h);
  return R;
}

// dlsym: see the top of this file.
GMEM_EXPORT void *dlsym(void *Handle, const char *Name) {
  if (Handle == RTLD_NEXT)
    return nextSymbol(__builtin_return_address(0), Name);
  void *R = realDlsym(Handle, Name);
  if (!R || Name[0] != 'c' || Name[1] != 'u')
    return R;
  void *W = exportWrapper(Name);
  if (!W)
    return R;
  // Replace only the driver's own definition (not another interposer's, nor ours).
  void *H = libcudaHandle();
  if (H && R == realDlsym(H, Name) && Runtime::global().enabled())
    return W;
  return R;
}

// The hooks: one template per entry-point family (Interpose.h), instantiated
// per variant. InterposeDriverApi.cpp includes this: it exports the
// V_Export and V_ExportPtsz instances and puts every variant in the wrapper
// table that cuGetProcAddress and dlsym hand out.
#pragma once

#include "Interpose.h"

#include <cuda.h>

#include <cstdint>

namespace gmem {
namespace rt {
namespace interpose {

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

// --- launches ---------------------------------------------------------------

using LaunchKernelFn = CUresult(CUDAAPI *)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                                           unsigned, unsigned, unsigned, CUstream, void **, void **);
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
inline uint64_t lookupKey(const void *Handle, const char *Name = nullptr) {
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

} // namespace interpose
} // namespace rt
} // namespace gmem

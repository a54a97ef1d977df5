// The driver entry points libgmemrt replaces: the exported symbols (bound
// by symbol when preloaded or linked first), and the table of every hook's
// every variant, which cuGetProcAddress and dlsym hand out (Interpose.cpp).
#include "InterposeHooks.h"

#include <cstring>

using namespace gmem::rt;
using namespace gmem::rt::interpose;

namespace gmem {
namespace rt {
namespace interpose {

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

} // namespace interpose
} // namespace rt
} // namespace gmem

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

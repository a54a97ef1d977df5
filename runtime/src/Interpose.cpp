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
//
// Here: the family table, cuGetProcAddress's hook and dlsym. The hooks are
// in InterposeHooks.h, the exported driver entry points and the wrapper
// table in InterposeDriverApi.cpp, the CUDA runtime's in
// InterposeRuntimeApi.cpp.
#include "Interpose.h"

#include <cuda.h>

#include <dlfcn.h>
#include <link.h>

#include <atomic>
#include <climits>
#include <cstdio>
#include <cstring>

using namespace gmem::rt;
using namespace gmem::rt::interpose;

namespace gmem {
namespace rt {
namespace interpose {

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

} // namespace interpose
} // namespace rt
} // namespace gmem

namespace {

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

} // namespace

// ===========================================================================
// Exported symbols.

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

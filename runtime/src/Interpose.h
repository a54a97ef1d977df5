// What libgmemrt's interposed entry points share (Interpose.cpp,
// InterposeHooks.h, InterposeDriverApi.cpp, InterposeRuntimeApi.cpp): the
// hooked driver entry-point families and their variants, the slots for the
// real functions, and the launch decision every launch hook asks for.
#pragma once

#include "LaunchProfile.h"
#include "Runtime.h"
#include "Scheduler.h"

#include <cuda.h>

#include <atomic>
#include <cstdint>

#define GMEM_EXPORT extern "C" __attribute__((visibility("default")))

namespace gmem {
namespace rt {
namespace interpose {

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

// The family table and the real-function slots, in Interpose.cpp.
extern const FamilyInfo Families[NumFamilies];
extern std::atomic<void *> RealFn[NumFamilies][NumVariants];

/// Runtime::before, told first what the scheduler will do with the launch
/// (one question per launch; its level goes on to the scheduler in Level).
inline LaunchRecord *decide(Runtime &RT, LaunchRequest &L, CUstream S, bool PerThread,
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

// cuGetProcAddress's hook (Interpose.cpp) and the wrapper table
// (InterposeDriverApi.cpp).
void *hookProc(const char *Sym, void *P, int Version, cuuint64_t Flags);
void *logProc(const char *Sym, void *Real, void *Given, int Version, cuuint64_t Flags);
void *wrapperOf(int F, int V);
void *exportWrapper(const char *Name);

} // namespace interpose
} // namespace rt
} // namespace gmem

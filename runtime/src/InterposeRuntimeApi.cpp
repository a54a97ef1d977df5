// The CUDA runtime API entry points libgmemrt replaces: kernel launches
// (recorded as driver launches are, and the driver launch underneath not
// twice) and allocations and frees (which tell the allocation map).
#include "Interpose.h"

#include <cuda_runtime_api.h>

#include <dlfcn.h>

#include <atomic>
#include <cstdint>

using namespace gmem::rt;
using namespace gmem::rt::interpose;

namespace {

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

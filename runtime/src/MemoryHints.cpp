// MemoryManager's C API side: hints (gmemAdvise), the managed pool, stats.
#include "MemoryManager.h"

namespace gmem {
namespace rt {

int MemoryManager::advise(uint64_t Ptr, uint64_t Bytes, int Hint) {
  if (!Ptr || !Bytes || Hint < GMEM_HINT_PREFETCH || Hint > GMEM_HINT_NORMAL)
    return GMEM_ERROR_INVALID_VALUE;
  if (Ptr + Bytes < Ptr)
    return GMEM_ERROR_INVALID_VALUE;
  if (Drv.isManaged(Ptr) != 1 || Drv.isManaged(Ptr + Bytes - 1) != 1)
    return GMEM_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> Lock(Mu);
  bumpLocked(); // any hint may change what a launch moves
  Range R = Tracker.widen({Ptr, Ptr + Bytes});
  ContextState *C = contextLocked();
  auto Ok = [](CUresult X) { return X == CUDA_SUCCESS ? GMEM_SUCCESS : GMEM_ERROR_DRIVER; };
  switch (Hint) {
  case GMEM_HINT_PREFETCH:
  case GMEM_HINT_PIN: {
    Random.remove(R);
    WholeOnUnbounded.add(R);
    if (!C)
      return GMEM_ERROR_DRIVER;
    if (Remote.intersects(R.Lo, R.Hi))
      unmapRemoteLocked(*C, R);
    if (Hint == GMEM_HINT_PIN) {
      Tracker.pin(R);
      if (Drv.advise(R.Lo, R.size(), CU_MEM_ADVISE_SET_PREFERRED_LOCATION, C->Device) != CUDA_SUCCESS)
        return GMEM_ERROR_DRIVER;
    }
    std::vector<Range> Moves;
    Tracker.toPrefetch(R, Moves);
    if (Opts.Budget) {
      RangeSet Keep;
      Keep.add(R);
      uint64_t Adds = 0;
      for (const Range &M : Moves)
        Adds += M.size();
      if (Tracker.accountedBytes() + Adds > Opts.Budget)
        evictLocked(*C, Tracker.accountedBytes() + Adds - Opts.Budget, Keep);
    }
    std::vector<Range> Split;
    for (const Range &M : Moves)
      Tracker.splitByAllocation(M, Split);
    for (const Range &M : Split) {
      if (Drv.prefetch(M.Lo, M.size(), C->Device, C->Copy) != CUDA_SUCCESS)
        return GMEM_ERROR_DRIVER;
      Tracker.markResident(M);
      PrefetchedBytes.fetch_add(M.size(), std::memory_order_relaxed);
      PrefetchOps.fetch_add(1, std::memory_order_relaxed);
    }
    notePeakLocked();
    return GMEM_SUCCESS;
  }
  case GMEM_HINT_RANDOM:
    Random.add(R);
    WholeOnUnbounded.remove(R);
    return GMEM_SUCCESS;
  case GMEM_HINT_DROP: {
    if (!C)
      return GMEM_ERROR_DRIVER;
    Tracker.unpin(R);
    // Only whole granules inside the caller's range may lose their contents.
    Range Inner{(Ptr + ResidencyTracker::Granule - 1) / ResidencyTracker::Granule *
                    ResidencyTracker::Granule,
                (Ptr + Bytes) / ResidencyTracker::Granule * ResidencyTracker::Granule};
    CUresult X = CUDA_ERROR_NOT_SUPPORTED;
    if (!Inner.empty())
      X = Drv.discard(Inner.Lo, Inner.size(), C->Copy);
    if (X != CUDA_SUCCESS) // no discard: write back instead (always correct)
      X = Drv.prefetch(Ptr, Bytes, CU_DEVICE_CPU, C->Copy);
    if (X == CUDA_SUCCESS) {
      Tracker.markEvicted(R);
      EvictedBytes.fetch_add(Bytes, std::memory_order_relaxed);
      EvictOps.fetch_add(1, std::memory_order_relaxed);
    }
    return Ok(X);
  }
  case GMEM_HINT_UNPIN:
    Tracker.unpin(R);
    return C ? Ok(Drv.advise(R.Lo, R.size(), CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, C->Device))
             : GMEM_ERROR_DRIVER;
  case GMEM_HINT_READ_MOSTLY:
    return C ? Ok(Drv.advise(R.Lo, R.size(), CU_MEM_ADVISE_SET_READ_MOSTLY, C->Device))
             : GMEM_ERROR_DRIVER;
  case GMEM_HINT_NORMAL:
    Random.remove(R);
    WholeOnUnbounded.remove(R);
    return C ? Ok(Drv.advise(R.Lo, R.size(), CU_MEM_ADVISE_UNSET_READ_MOSTLY, C->Device))
             : GMEM_ERROR_DRIVER;
  }
  return GMEM_ERROR_INVALID_VALUE;
}

int MemoryManager::mallocManaged(uint64_t *Ptr, uint64_t Bytes) {
  if (!Ptr)
    return GMEM_ERROR_INVALID_VALUE;
  CUresult R = Pool->allocate(Bytes, Ptr);
  if (R == CUDA_SUCCESS)
    return GMEM_SUCCESS;
  return R == CUDA_ERROR_OUT_OF_MEMORY ? GMEM_ERROR_OUT_OF_MEMORY : GMEM_ERROR_DRIVER;
}

int MemoryManager::freeManaged(uint64_t Ptr) {
  if (!Ptr)
    return GMEM_SUCCESS; // like free(NULL)
  return Pool->release(Ptr) == CUDA_SUCCESS ? GMEM_SUCCESS : GMEM_ERROR_INVALID_VALUE;
}

void MemoryManager::stats(gmemMemoryStats *Out) const {
  gmemMemoryStats S = {};
  S.budget_bytes = Opts.Budget;
  {
    std::lock_guard<std::mutex> Lock(Mu);
    S.resident_bytes = Tracker.accountedBytes();
    S.peak_resident_bytes = Peak;
  }
  S.prefetched_bytes = PrefetchedBytes.load(std::memory_order_relaxed);
  S.prefetch_ops = PrefetchOps.load(std::memory_order_relaxed);
  S.evicted_bytes = EvictedBytes.load(std::memory_order_relaxed);
  S.evict_ops = EvictOps.load(std::memory_order_relaxed);
  S.skipped_resident_bytes = SkippedBytes.load(std::memory_order_relaxed);
  S.unbounded_fallbacks = Unbounded.load(std::memory_order_relaxed);
  S.remote_bytes = RemoteBytes.load(std::memory_order_relaxed);
  S.launches_prefetched = LaunchesPrefetched.load(std::memory_order_relaxed);
  S.capture_skips = CaptureSkips.load(std::memory_order_relaxed);
  S.pool_bytes = Pool->heldBytes();
  S.pool_used_bytes = Pool->usedBytes();
  *Out = S;
}

} // namespace rt
} // namespace gmem

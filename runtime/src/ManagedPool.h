// A pool of managed memory (gmemMallocManaged / gmemFreeManaged).
//
// Why: cuMemAllocManaged is slow and cuMemFree of managed memory
// synchronises the whole device; and the driver packs small managed
// allocations next to each other, so two arguments can share a 2 MiB
// migration block and a prefetch or eviction of one moves the other.
// Blocks here are 2 MiB-aligned and padded to 2 MiB, carved best-fit from
// slabs the pool keeps; freed blocks coalesce and are reused without a
// driver call. Slabs are returned to the driver only by trim() or at exit.
#pragma once

#include "MemoryDriver.h"

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>

namespace gmem {
namespace rt {

class ManagedPool {
public:
  static constexpr uint64_t Align = 2ull << 20;
  static constexpr uint64_t SlabMin = 32ull << 20;

  /// OnBlock(base, size, live): a block became live (true) or was freed (false).
  ManagedPool(MemoryDriver &D, std::function<void(uint64_t, uint64_t, bool)> OnBlock)
      : Drv(D), OnBlock(std::move(OnBlock)) {}
  ~ManagedPool() = default; // slabs are left to the driver at exit

  /// A block of at least Bytes (Bytes == 0: one 2 MiB block).
  CUresult allocate(uint64_t Bytes, uint64_t *Ptr);
  /// CUDA_ERROR_INVALID_VALUE for a pointer the pool did not return.
  CUresult release(uint64_t Ptr);
  bool owns(uint64_t Ptr) const;
  /// Returns wholly free slabs to the driver; the bytes released.
  uint64_t trim();

  uint64_t heldBytes() const;
  uint64_t usedBytes() const;

private:
  void addFree(uint64_t Base, uint64_t Size);
  void removeFree(uint64_t Base, uint64_t Size);
  uint64_t slabOf(uint64_t Ptr) const; ///< base of the slab containing Ptr

  MemoryDriver &Drv;
  std::function<void(uint64_t, uint64_t, bool)> OnBlock;
  mutable std::mutex Mu;
  std::map<uint64_t, uint64_t> Slabs;           ///< base -> size
  std::map<uint64_t, uint64_t> Used;            ///< base -> size
  std::map<uint64_t, uint64_t> FreeByAddr;      ///< base -> size
  std::multimap<uint64_t, uint64_t> FreeBySize; ///< size -> base
  uint64_t Held = 0, InUse = 0;
};

} // namespace rt
} // namespace gmem

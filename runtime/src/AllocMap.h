// Pointer -> allocation lookups for the launch path.
//
// Three levels:
//   1. a per-thread direct-mapped cache keyed by the exact pointer value
//      (no locks, no atomics beyond one acquire load of the generation);
//   2. a process-wide interval map of known allocations (base -> size) under
//      a reader/writer lock;
//   3. the driver (cuMemGetAddressRange_v2), whose answer is inserted in 2.
//
// Every interposed allocation or free bumps a generation counter, which
// invalidates all per-thread entries, and erases the affected intervals from
// level 2. Invalidating on allocations too (not only frees) keeps the cache
// right even when a free went unseen: a new allocation can only reuse
// addresses that were freed, and every allocation we see evicts whatever the
// cache believed about its addresses.
#pragma once

#include "Driver.h"

#include "gmem/compiler/InstanceCheck.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <shared_mutex>

namespace gmem {
namespace rt {

class AllocMap {
public:
  /// One entry of the per-thread cache.
  struct L1Entry {
    uint64_t Ptr, Base, Size, Gen, Owner;
    bool Found;
  };
  static constexpr unsigned L1Bits = 6;
  /// This thread's cache (look it up once per launch, not per pointer).
  static L1Entry *threadCache();

  explicit AllocMap(DriverApi &D);
  AllocMap(const AllocMap &) = delete;
  AllocMap &operator=(const AllocMap &) = delete;

  /// The allocation containing Ptr (true), or false when the driver knows
  /// none (null, host memory, freed memory).
  bool lookup(uint64_t Ptr, Allocation &Out) { return lookup(Ptr, Out, threadCache()); }
  inline bool lookup(uint64_t Ptr, Allocation &Out, L1Entry *Cache);

  /// An allocation or free of [Lo, Hi) was seen.
  void invalidateRange(uint64_t Lo, uint64_t Hi);
  /// A free of the allocation that contains (starts at) Ptr was seen.
  void invalidateAddress(uint64_t Ptr);
  /// Something changed whose extent is unknown.
  void invalidateAll();

  /// A block of a larger driver allocation that the program sees as an
  /// allocation of its own (gmemMallocManaged): lookups inside it answer the
  /// block, not the driver's slab. Kept across invalidateAll().
  void registerBlock(uint64_t Base, uint64_t Size);
  void unregisterBlock(uint64_t Base);

  uint64_t generation() const { return Gen.load(std::memory_order_acquire); }
  size_t size() const;

  // Counters (relaxed).
  std::atomic<uint64_t> Lookups{0}, DriverQueries{0}, Invalidations{0}, Level2Hits{0};

private:
  bool slowLookup(uint64_t Ptr, uint64_t G, Allocation &Out, bool &Found);
  bool fill(uint64_t Ptr, uint64_t G, Allocation &Out, L1Entry &E);

  // Device pointers have long runs of zero low bits (allocation granularity)
  // and differ in a few middle bits: mix all of them (splitmix64 finaliser).
  static unsigned l1Index(uint64_t P) {
    P ^= P >> 30;
    P *= 0xbf58476d1ce4e5b9ull;
    P ^= P >> 27;
    P *= 0x94d049bb133111ebull;
    P ^= P >> 31;
    return unsigned(P & ((1u << L1Bits) - 1));
  }

  DriverApi &Drv;
  const uint64_t Id; ///< distinguishes instances in the per-thread cache
  std::atomic<uint64_t> Gen{1};
  mutable std::shared_mutex Mu;
  std::map<uint64_t, uint64_t> Map;    ///< base -> size
  std::map<uint64_t, uint64_t> Blocks; ///< registered blocks: base -> size
};

inline bool AllocMap::lookup(uint64_t Ptr, Allocation &Out, L1Entry *Cache) {
  if (Ptr == 0)
    return false;
  uint64_t G = Gen.load(std::memory_order_acquire);
  L1Entry &E = Cache[l1Index(Ptr)];
  if (E.Ptr == Ptr && E.Gen == G && E.Owner == Id) {
    Out.Base = E.Base;
    Out.Size = E.Size;
    return E.Found;
  }
  return fill(Ptr, G, Out, E);
}

} // namespace rt
} // namespace gmem

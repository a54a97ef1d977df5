#include "AllocMap.h"

#include <mutex>

namespace gmem {
namespace rt {
namespace {

// Plain-old-data, zero-initialised: no TLS constructor, no guard.
thread_local AllocMap::L1Entry L1[1u << AllocMap::L1Bits];

std::atomic<uint64_t> NextId{1};

} // namespace

AllocMap::AllocMap(DriverApi &D) : Drv(D), Id(NextId.fetch_add(1)) {}

AllocMap::L1Entry *AllocMap::threadCache() { return L1; }

bool AllocMap::fill(uint64_t Ptr, uint64_t G, Allocation &Out, L1Entry &E) {
  bool Found = false;
  slowLookup(Ptr, G, Out, Found);
  E.Ptr = Ptr;
  E.Gen = G;
  E.Owner = Id;
  E.Found = Found;
  E.Base = Found ? Out.Base : 0;
  E.Size = Found ? Out.Size : 0;
  return Found;
}

bool AllocMap::slowLookup(uint64_t Ptr, uint64_t G, Allocation &Out, bool &Found) {
  Lookups.fetch_add(1, std::memory_order_relaxed);
  {
    std::shared_lock<std::shared_mutex> Lock(Mu);
    if (!Blocks.empty()) {
      auto B = Blocks.upper_bound(Ptr);
      if (B != Blocks.begin() && Ptr - std::prev(B)->first < std::prev(B)->second) {
        --B;
        Out.Base = B->first;
        Out.Size = B->second;
        Found = true;
        Level2Hits.fetch_add(1, std::memory_order_relaxed);
        return true;
      }
    }
    auto It = Map.upper_bound(Ptr);
    if (It != Map.begin()) {
      --It;
      if (Ptr - It->first < It->second) {
        Out.Base = It->first;
        Out.Size = It->second;
        Found = true;
        Level2Hits.fetch_add(1, std::memory_order_relaxed);
        return true;
      }
    }
  }
  DriverQueries.fetch_add(1, std::memory_order_relaxed);
  CUdeviceptr Base = 0;
  size_t Size = 0;
  if (Drv.memGetAddressRange(&Base, &Size, CUdeviceptr(Ptr)) != CUDA_SUCCESS || Size == 0 ||
      Ptr < Base || Ptr - Base >= Size) {
    Found = false;
    return false;
  }
  Out.Base = Base;
  Out.Size = Size;
  Found = true;
  std::unique_lock<std::shared_mutex> Lock(Mu);
  if (Gen.load(std::memory_order_relaxed) == G) {
    // Drop anything the new interval overlaps (cannot happen unless an
    // allocation change went unseen), then insert.
    auto It = Map.upper_bound(Base);
    if (It != Map.begin() && std::prev(It)->first + std::prev(It)->second > Base)
      --It;
    while (It != Map.end() && It->first < Base + Size)
      It = Map.erase(It);
    Map.emplace(Base, Size);
  }
  return true;
}

void AllocMap::invalidateRange(uint64_t Lo, uint64_t Hi) {
  std::unique_lock<std::shared_mutex> Lock(Mu);
  if (Hi <= Lo)
    Hi = Lo + 1;
  auto It = Map.upper_bound(Lo);
  if (It != Map.begin() && std::prev(It)->first + std::prev(It)->second > Lo)
    --It;
  while (It != Map.end() && It->first < Hi)
    It = Map.erase(It);
  Gen.fetch_add(1, std::memory_order_acq_rel);
  Invalidations.fetch_add(1, std::memory_order_relaxed);
}

void AllocMap::invalidateAddress(uint64_t Ptr) { invalidateRange(Ptr, Ptr + 1); }

void AllocMap::invalidateAll() {
  std::unique_lock<std::shared_mutex> Lock(Mu);
  Map.clear();
  Gen.fetch_add(1, std::memory_order_acq_rel);
  Invalidations.fetch_add(1, std::memory_order_relaxed);
}

void AllocMap::registerBlock(uint64_t Base, uint64_t Size) {
  std::unique_lock<std::shared_mutex> Lock(Mu);
  Blocks[Base] = Size;
  Gen.fetch_add(1, std::memory_order_acq_rel);
}

void AllocMap::unregisterBlock(uint64_t Base) {
  std::unique_lock<std::shared_mutex> Lock(Mu);
  Blocks.erase(Base);
  Gen.fetch_add(1, std::memory_order_acq_rel);
}

size_t AllocMap::size() const {
  std::shared_lock<std::shared_mutex> Lock(Mu);
  return Map.size();
}

} // namespace rt
} // namespace gmem

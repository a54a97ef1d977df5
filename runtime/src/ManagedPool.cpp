#include "ManagedPool.h"

#include <iterator>
#include <vector>

namespace gmem {
namespace rt {

namespace {
uint64_t roundUp(uint64_t X, uint64_t A) { return (X + A - 1) / A * A; }
} // namespace

void ManagedPool::addFree(uint64_t Base, uint64_t Size) {
  FreeByAddr[Base] = Size;
  FreeBySize.emplace(Size, Base);
}

void ManagedPool::removeFree(uint64_t Base, uint64_t Size) {
  FreeByAddr.erase(Base);
  auto [Lo, Hi] = FreeBySize.equal_range(Size);
  for (auto It = Lo; It != Hi; ++It)
    if (It->second == Base) {
      FreeBySize.erase(It);
      return;
    }
}

uint64_t ManagedPool::slabOf(uint64_t Ptr) const {
  auto It = Slabs.upper_bound(Ptr);
  if (It == Slabs.begin())
    return UINT64_MAX;
  --It;
  return Ptr - It->first < It->second ? It->first : UINT64_MAX;
}

CUresult ManagedPool::allocate(uint64_t Bytes, uint64_t *Ptr) {
  if (!Ptr)
    return CUDA_ERROR_INVALID_VALUE;
  *Ptr = 0;
  if (Bytes > (1ull << 62))
    return CUDA_ERROR_OUT_OF_MEMORY;
  uint64_t Need = roundUp(Bytes ? Bytes : 1, Align);
  uint64_t Base = 0;
  {
    std::lock_guard<std::mutex> Lock(Mu);
    auto It = FreeBySize.lower_bound(Need); // best fit
    if (It != FreeBySize.end()) {
      uint64_t Size = It->first;
      Base = It->second;
      removeFree(Base, Size);
      if (Size > Need)
        addFree(Base + Need, Size - Need);
      Used[Base] = Need;
      InUse += Need;
    }
  }
  if (!Base) {
    // A new slab, over-allocated by one block so it can be aligned.
    uint64_t SlabBytes = Need > SlabMin ? Need : SlabMin;
    uint64_t Raw = 0;
    CUresult R = Drv.memAllocManaged(&Raw, SlabBytes + Align);
    if (R != CUDA_SUCCESS)
      return R;
    uint64_t Aligned = roundUp(Raw, Align);
    std::lock_guard<std::mutex> Lock(Mu);
    // The slab is [Raw, Raw+SlabBytes+Align); hand out [Aligned, ...).
    Slabs[Raw] = SlabBytes + Align;
    Held += SlabBytes + Align;
    uint64_t End = Raw + SlabBytes + Align;
    Base = Aligned;
    Used[Base] = Need;
    InUse += Need;
    if (Base + Need < End)
      addFree(Base + Need, (End - (Base + Need)) / Align * Align);
  }
  if (OnBlock)
    OnBlock(Base, Need, true);
  *Ptr = Base;
  return CUDA_SUCCESS;
}

CUresult ManagedPool::release(uint64_t Ptr) {
  uint64_t Size = 0;
  {
    std::lock_guard<std::mutex> Lock(Mu);
    auto It = Used.find(Ptr);
    if (It == Used.end())
      return CUDA_ERROR_INVALID_VALUE;
    Size = It->second;
    Used.erase(It);
    InUse -= Size;
  }
  if (OnBlock)
    OnBlock(Ptr, Size, false);
  std::lock_guard<std::mutex> Lock(Mu);
  uint64_t Base = Ptr, Slab = slabOf(Ptr);
  // Coalesce with free neighbours of the same slab.
  auto Next = FreeByAddr.find(Base + Size);
  if (Next != FreeByAddr.end() && slabOf(Next->first) == Slab) {
    uint64_t NS = Next->second;
    removeFree(Base + Size, NS);
    Size += NS;
  }
  auto Prev = FreeByAddr.lower_bound(Base);
  if (Prev != FreeByAddr.begin()) {
    --Prev;
    if (Prev->first + Prev->second == Base && slabOf(Prev->first) == Slab) {
      uint64_t PB = Prev->first, PS = Prev->second;
      removeFree(PB, PS);
      Base = PB;
      Size += PS;
    }
  }
  addFree(Base, Size);
  return CUDA_SUCCESS;
}

bool ManagedPool::owns(uint64_t Ptr) const {
  std::lock_guard<std::mutex> Lock(Mu);
  return Used.count(Ptr) != 0;
}

uint64_t ManagedPool::trim() {
  std::vector<uint64_t> Release;
  uint64_t Bytes = 0;
  {
    std::lock_guard<std::mutex> Lock(Mu);
    for (auto It = Slabs.begin(); It != Slabs.end();) {
      uint64_t Raw = It->first, Size = It->second;
      // Wholly free: no used block inside.
      auto U = Used.lower_bound(Raw);
      if (U != Used.end() && U->first < Raw + Size) {
        ++It;
        continue;
      }
      for (auto F = FreeByAddr.lower_bound(Raw); F != FreeByAddr.end() && F->first < Raw + Size;) {
        uint64_t FB = F->first, FS = F->second;
        ++F;
        removeFree(FB, FS);
      }
      Held -= Size;
      Bytes += Size;
      Release.push_back(Raw);
      It = Slabs.erase(It);
    }
  }
  for (uint64_t Raw : Release)
    Drv.memFree(Raw);
  return Bytes;
}

uint64_t ManagedPool::heldBytes() const {
  std::lock_guard<std::mutex> Lock(Mu);
  return Held;
}

uint64_t ManagedPool::usedBytes() const {
  std::lock_guard<std::mutex> Lock(Mu);
  return InUse;
}

} // namespace rt
} // namespace gmem

#include "KernelCache.h"

namespace gmem {
namespace rt {

KernelTable::KernelTable() {
  Tables.emplace_back(new Table(64));
  Cur.store(Tables.back().get(), std::memory_order_release);
}

KernelTable::~KernelTable() = default;

void KernelTable::insertLocked(Table &T, uintptr_t H, KernelEntry *E) {
  size_t I = hash(H) & T.Mask;
  for (;;) {
    uintptr_t K = T.Slots[I].Key.load(std::memory_order_relaxed);
    if (K == H) {
      T.Slots[I].Val.store(E, std::memory_order_release);
      return;
    }
    if (K == 0) {
      // Value first, then the key: a reader that sees the key sees the value.
      T.Slots[I].Val.store(E, std::memory_order_release);
      T.Slots[I].Key.store(H, std::memory_order_release);
      ++T.Used;
      return;
    }
    I = (I + 1) & T.Mask;
  }
}

KernelEntry *KernelTable::findOrInsert(uintptr_t H,
                                       const std::function<std::unique_ptr<KernelEntry>()> &Make) {
  std::lock_guard<std::mutex> Lock(Mu);
  if (KernelEntry *E = find(H))
    return E;
  std::unique_ptr<KernelEntry> New = Make();
  KernelEntry *E = New.get();
  Entries.push_back(std::move(New));
  Table *T = Cur.load(std::memory_order_relaxed);
  if ((T->Used + 1) * 2 > T->Mask + 1) {
    // Grow: copy the live slots into a table twice the size and publish it.
    std::unique_ptr<Table> N(new Table((T->Mask + 1) * 2));
    for (size_t I = 0; I <= T->Mask; ++I) {
      uintptr_t K = T->Slots[I].Key.load(std::memory_order_relaxed);
      if (K)
        insertLocked(*N, K, T->Slots[I].Val.load(std::memory_order_relaxed));
    }
    T = N.get();
    Tables.push_back(std::move(N));
    Cur.store(T, std::memory_order_release);
  }
  insertLocked(*T, H, E);
  ++Live;
  return E;
}

void KernelTable::invalidate(const std::function<bool(const KernelEntry &)> &Pred) {
  std::lock_guard<std::mutex> Lock(Mu);
  Table *T = Cur.load(std::memory_order_relaxed);
  for (size_t I = 0; I <= T->Mask; ++I) {
    KernelEntry *E = T->Slots[I].Val.load(std::memory_order_relaxed);
    if (E && Pred(*E)) {
      T->Slots[I].Val.store(nullptr, std::memory_order_release);
      --Live;
    }
  }
}

size_t KernelTable::size() const {
  std::lock_guard<std::mutex> Lock(Mu);
  return Live;
}

} // namespace rt
} // namespace gmem

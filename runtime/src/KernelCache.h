// Kernel handle (CUfunction, or CUkernel passed as one) -> descriptor.
//
// Lookups are lock-free: an open-addressing table of (handle, entry) slots
// whose pointer is published with release/acquire. Inserts, growth and
// invalidation (module/library unload) happen under a mutex. Entries are
// never freed (kernel names handed out through the C API stay valid for the
// life of the process); a replaced table is retired, not freed, because a
// reader may still be walking it.
#pragma once

#include "Driver.h"
#include "gmem/compiler/FlatEval.h"

namespace gmem::rt {
using namespace gmem::flat; // the evaluator shared with gmem-analyze
}

#include "gmem/compiler/KernelDescriptor.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace gmem {
namespace rt {

struct KernelEntry {
  enum class State : uint8_t {
    Instrumented,   ///< valid descriptor
    Uninstrumented, ///< no descriptor (or the kernel could not be identified)
    Bad,            ///< descriptor present but rejected (reported once)
  };
  uintptr_t Handle = 0;
  State St = State::Uninstrumented;
  std::string Symbol; ///< mangled name ("" when unknown)
  std::string Plain;  ///< plain name from the descriptor, else Symbol
  std::string Why;    ///< why uninstrumented / bad
  bool ViaLibrary = false;
  CUmodule Module = nullptr;
  CUlibrary Library = nullptr;
  CUfunction Func = nullptr; ///< for parameter queries

  KernelDescriptor Desc;
  FlatKernel Flat;
  int Class = -1;
  /// Desc.Variants compiled (LaunchGuard.h): a launch whose arguments meet
  /// a variant's guard is decided with it. Same parameters, globals and
  /// pointer fields as Desc; Flat.NeedsBytes covers theirs too.
  struct Variant {
    const KernelDescriptor *Desc = nullptr; ///< owned by Desc.Variants
    FlatKernel Flat;
  };
  std::vector<Variant> Variants;

  /// Parameter layout (cuFuncGetParamInfo, else from the descriptor types).
  std::vector<uint32_t> ParamOffset, ParamSize;
  bool OffsetsKnown = false;
  bool AnyBytes = false; ///< some parameter's raw bytes are read

  /// Module globals the descriptor names, resolved in GlobalsCtx.
  std::vector<std::optional<Allocation>> Globals;
  bool GlobalsPerContext = false; ///< CUkernel: addresses depend on the context
  CUcontext GlobalsCtx = nullptr;
  std::mutex GlobalsMu;
};

class KernelTable {
public:
  KernelTable();
  ~KernelTable();

  /// Lock-free. Null when the handle was never resolved (or was invalidated).
  KernelEntry *find(uintptr_t H) const {
    const Table *T = Cur.load(std::memory_order_acquire);
    size_t I = hash(H) & T->Mask;
    for (;;) {
      uintptr_t K = T->Slots[I].Key.load(std::memory_order_acquire);
      if (K == H)
        return T->Slots[I].Val.load(std::memory_order_acquire);
      if (K == 0)
        return nullptr;
      I = (I + 1) & T->Mask;
    }
  }

  /// Resolves H with Make under the table's mutex unless another thread did.
  KernelEntry *findOrInsert(uintptr_t H, const std::function<std::unique_ptr<KernelEntry>()> &Make);
  /// Forgets every entry for which Pred holds (the next launch re-resolves).
  void invalidate(const std::function<bool(const KernelEntry &)> &Pred);
  size_t size() const;

private:
  struct Slot {
    std::atomic<uintptr_t> Key{0};
    std::atomic<KernelEntry *> Val{nullptr};
  };
  struct Table {
    size_t Mask;
    std::unique_ptr<Slot[]> Slots;
    size_t Used = 0;
    explicit Table(size_t N) : Mask(N - 1), Slots(new Slot[N]) {}
  };
  static size_t hash(uintptr_t H) {
    uint64_t X = H;
    X ^= X >> 30;
    X *= 0xbf58476d1ce4e5b9ull;
    X ^= X >> 27;
    X *= 0x94d049bb133111ebull;
    return size_t(X ^ (X >> 31));
  }
  void insertLocked(Table &T, uintptr_t H, KernelEntry *E);

  std::atomic<Table *> Cur;
  mutable std::mutex Mu;
  std::vector<std::unique_ptr<Table>> Tables; ///< current and retired
  std::vector<std::unique_ptr<KernelEntry>> Entries;
  size_t Live = 0;
};

} // namespace rt
} // namespace gmem

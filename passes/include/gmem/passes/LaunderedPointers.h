//===- LaunderedPointers.h - Pointer values that leave the registers --*- C++ -*-===//
//
// An address computed from the integer value of a pointer into another
// object (`a[(b - a) + t]`) reaches that object whatever its provenance in
// the IR; AccessCollector follows such integers through arithmetic. A
// kernel may also park the value in memory (shared or local memory, a
// global slot) or pass it through a call (a shuffle, an inline asm move) and
// use what comes back: an adversarial round (session 49) wrote b in place
// through `a[d + t]` with d = b - a read back from shared memory, called
// idempotent. This analysis says which loaded or returned values may carry
// such an integer.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_PASSES_LAUNDEREDPOINTERS_H
#define GMEM_PASSES_LAUNDEREDPOINTERS_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"

namespace gmem {

/// The loads, call results and atomics' results of F that may carry an
/// integer made from the value of a pointer into global memory (or a
/// pointer read back as an integer). Forward from every such ptrtoint:
/// through arithmetic and calls taking it; a store of it (or an inline
/// asm or call that may store it) makes every integer load of memory such
/// a value, and a pointer stored where an integer load may read it back
/// does too.
class LaunderedPointers {
public:
  explicit LaunderedPointers(const llvm::Function &F);
  /// Whether V (a load, call or atomic) may carry a pointer's value.
  bool carries(const llvm::Value *V) const { return Carriers.contains(V); }

private:
  llvm::SmallPtrSet<const llvm::Value *, 16> Carriers;
};

} // namespace gmem

#endif

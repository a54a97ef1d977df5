//===- DisjointnessProver.h - Exact read/write disjointness -----*- C++ -*-===//
//
// Proves that no byte one access reads is written by another access to the
// same object, for every pair of threads and loop iterations of every
// launch, by checking that an integer set is empty (MLIR's Presburger
// library). This is what makes `buf[i+n] = buf[i]` (i < n) and "read even,
// write odd elements" idempotent, where interval hulls overlap.
//
// Model: each access gets its own copy of the thread and iteration
// variables (threadIdx, blockIdx, loop counters: the reader and the writer
// may be different threads); launch dimensions and scalar parameters are
// shared. Offsets are affine forms over these; a non-affine piece
// (blockIdx.x * blockDim.x, a udiv) becomes a fresh variable bounded by what
// SymbolicRange proves about it. Dropping relations only enlarges the set,
// so emptiness stays a proof. The bounds used carry their no-wrap checks,
// which the caller records as the proof's launch conditions.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_PASSES_DISJOINTNESSPROVER_H
#define GMEM_PASSES_DISJOINTNESSPROVER_H

#include "gmem/passes/AccessCollector.h"
#include "gmem/passes/SymbolicRange.h"

#include <vector>

namespace gmem {

class DisjointnessProver {
public:
  explicit DisjointnessProver(SymbolicRange &SR) : SR(SR) {}

  /// True when no byte read by R can be a byte written by W, at any launch
  /// passing Checks (appended to).
  bool proveDisjoint(const MemAccess &R, const MemAccess &W, std::vector<RangeCheck> &Checks);

private:
  SymbolicRange &SR;
};

} // namespace gmem

#endif

//===- IdempotentUpdates.h - Updates that leave their result alone -*- C++ -*-===//
//
// A thread that loads a value and stores a function of it back to the same
// address reads what the launch writes, yet the pair is harmless when the
// function is idempotent (f(f(x)) = f(x)): run again, on its own result, it
// stores what it stored. In-place ReLU (`x = fmaxf(x, 0)`, `x = x <= 0 ? 0
// : x`), clamps and saturations (`min(max(x, lo), hi)`, `if (h > 255) h =
// 255`), masks (`x &= m`, `x |= bit`), `fabsf`/`floorf` in place, a store
// back of the loaded value, and a breadth-first search's `if (level[v] ==
// UNSEEN) level[v] = depth + 1` are such updates.
//
// Recognised (the function must be the same for the thread in every run:
// its other operands are constants, scalar kernel arguments and fields of
// aggregate ones, the thread's geometry, and loads of memory the launch
// never writes at addresses computed from such values (StableLoads), never
// the loaded value, shared memory or another thread's value):
//  * the loaded value itself, or a value that does not depend on it;
//  * `select(P(x), x, c)` or `select(P(x), c, x)`: x replaced by c where P
//    holds (f(c) = c whatever P says): masked_fill_ with a mask tensor;
//  * a chain of min/max of one kind (signed, unsigned, maxnum/minnum, or
//    maximum/minimum) with fixed operands: a clamp;
//  * a chain of `and`/`or` with fixed operands: each bit kept or set;
//  * fabs, floor, ceil, trunc, round, rint, nearbyint, roundeven, integer
//    abs of x; a chain of remainders by non-zero literals;
//  * a map with few outcomes built from x and literals by exact operations
//    (sign, a binarisation, a flag normalised): each way its comparisons
//    of x come out leaves x or a literal the map keeps (checked by
//    evaluating it);
// and the store may be guarded by a branch on a predicate of x and fixed
// values alone whose guarded block holds nothing else that writes: if P(x)
// then g(x) with g one of the above is idempotent too (g(x) = g(g(x))).
// The loaded value must go nowhere else (no other store, address, call or
// phi), so nothing else the launch does depends on which run it saw.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_PASSES_IDEMPOTENTUPDATES_H
#define GMEM_PASSES_IDEMPOTENTUPDATES_H

#include "gmem/compiler/KernelDescriptor.h"
#include "gmem/passes/AccessCollector.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ScalarEvolution.h"

namespace gmem {

/// Whether \p Write stores, at the address \p Read loads, an idempotent
/// function of the loaded value, which goes nowhere else (see above), the
/// same function for every thread that may store there. Both are accesses
/// of one object at one pointer, or (\p MergedPair) of two pointer
/// parameters the caller takes for one address (KernelDescriptor::AliasOk):
/// then the same offset from each is the same bytes. \p StableLoads: loads
/// of objects the launch never writes (their values are the same in a run
/// again, given the same address).
bool isIdempotentUpdate(const MemAccess &Read, const MemAccess &Write,
                        llvm::ScalarEvolution &SE,
                        const llvm::SmallPtrSetImpl<const llvm::Instruction *> &StableLoads,
                        bool MergedPair = false);

/// A flag that turns its own work off, `if (m[i]) { ...; m[i] = 0; }`
/// (Rodinia BFS): where \p Read loads the flag and \p Write clears it in
/// the one block the branch on it runs, that block, else null. The pair
/// needs no proof, and neither do the block's other loads: a thread run
/// again skips the block, so nothing it read there is read again. The
/// block is straight-line code entered only from that branch, without
/// calls, writing only \p TrackedWrites (global stores the analysis
/// places), whose values do not outlive it; the skipped path goes where the
/// block goes, and no path returns to the block without loading the flag.
/// The flag is the thread's own (`m[blockIdx.x * blockDim.x +
/// threadIdx.x]`): \p Checks receives the launch conditions that make it
/// so (a one-dimensional launch), to hold for the flag's object.
const llvm::BasicBlock *
selfDisabledBlock(const MemAccess &Read, const MemAccess &Write, llvm::ScalarEvolution &SE,
                  const llvm::SmallPtrSetImpl<const llvm::Instruction *> &StableLoads,
                  const llvm::SmallPtrSetImpl<const llvm::Instruction *> &TrackedWrites,
                  std::vector<RangeCheck> &Checks);

} // namespace gmem

#endif

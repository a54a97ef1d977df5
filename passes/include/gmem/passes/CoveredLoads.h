//===- CoveredLoads.h - Loads of bytes the thread itself stored -*- C++ -*-===//
//
// A load whose every byte the same thread stored earlier in the launch
// reads no value from before the launch: `out[i] = e; ...; out[i] /= s`, or a
// row written in one loop and read back in the next (softmax, layernorm,
// fused residual kernels). Idempotence only asks that what a launch reads
// from before it is not what it writes, so such a load needs no proof that
// it is apart from the object's writes: run again, the thread stores the
// same bytes first and reads them back as before. (Another thread storing
// those bytes in between with no barrier is a write-write race, which the
// analysis assumes absent everywhere; test/gpu/README.md "Races".)
//
// Two sufficient shapes are recognised, both by SCEV of the addresses
// themselves (not of offsets from an object: a store through a pointer that
// may be one of several objects is a may-write of each, a must-write of
// none):
//  * the store dominates the load and their addresses differ by a constant
//    that keeps the load's bytes inside the store's: the store ran in the
//    same iteration of every loop around both, or last in a loop it left;
//  * the store is in a loop L1 that runs every iteration to the end and
//    stores on each, the load in a later sibling loop L2 at the same address
//    function of its iteration number, L2 running at most as many
//    iterations as L1, and L2 entered only where L1 was (L1's header
//    dominates L2's, or both are guarded by one condition value).
// Only simple (not volatile, not atomic) loads and stores count.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_PASSES_COVEREDLOADS_H
#define GMEM_PASSES_COVEREDLOADS_H

#include "gmem/passes/AccessCollector.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"

namespace gmem {

/// Whether every byte \p Read loads was stored before by the same thread
/// through one of \p Writes (accesses of the same object).
bool loadCoveredByOwnStore(const MemAccess &Read, llvm::ArrayRef<const MemAccess *> Writes,
                           llvm::ScalarEvolution &SE, llvm::DominatorTree &DT,
                           llvm::LoopInfo &LI);

} // namespace gmem

#endif

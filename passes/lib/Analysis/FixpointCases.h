//===- FixpointCases.h - Maps with few outcomes, checked by folding -*- C++ -*-===//
//
// Part of IdempotentUpdates (internal to passes/lib/Analysis).
//
// Maps with few outcomes: sign (`(0 < x) - (x < 0)`), a binarisation or step
// (`x > 0.5f ? 1.f : 0.f`), a flag normalised (`f = f != 0`), a sentinel
// replaced by a literal, a saturation written as `if / else if`. The map is
// built from X and literals by exact operations only (integer arithmetic,
// casts, comparisons, selects, sign bit operations), and X reaches it only
// through comparisons or unchanged. Every way those comparisons can come out
// (infeasible ones too: a spurious failure only loses the proof) must leave
// the value X, or a literal c that the same map keeps, which is checked by
// evaluating the map on c with LLVM's constant folder. Floating-point
// arithmetic is left out: the backend may contract it, and the folder does
// not know the target's rounding of fused operations; so are fast-math flags
// but contraction (the backend may assume their facts) and subnormal
// literals (a flush-to-zero comparison treats them as 0).
//
//===----------------------------------------------------------------------===//

#ifndef GMEM_PASSES_ANALYSIS_FIXPOINTCASES_H
#define GMEM_PASSES_ANALYSIS_FIXPOINTCASES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Instructions.h"

namespace gmem {

class FixpointCases {
public:
  FixpointCases(const llvm::Value *X, const llvm::DataLayout &DL) : X(X), DL(DL) {}

  /// Whether V, as a map of X, keeps each of its results.
  bool holds(const llvm::Value *V);

  /// The same for the map a store makes when branches on X decide whether
  /// it runs and what it stores (`if (x < 0) p[i] = 0; else if (x > 255)
  /// p[i] = 255;`): from the load, every path through blocks that only
  /// compute reaches the store's block (the map gives what it stores) or the
  /// block after it without it (the map keeps X). The caller has checked
  /// the shape (guardedRegion in IdempotentUpdates.cpp); Region holds the
  /// blocks between the load's and the store's, Join the store block's
  /// successor.
  bool holdsOnPaths(const llvm::LoadInst &Load, const llvm::StoreInst &St,
                    const llvm::SmallPtrSetImpl<const llvm::BasicBlock *> &Region,
                    const llvm::BasicBlock *Join);

  /// V's value when X is the literal C, by the same exact operations; null
  /// where V is not built that way or does not fold.
  llvm::Constant *evaluateAt(const llvm::Value *V, llvm::Constant *C);

private:
  static constexpr unsigned MaxCases = 4, MaxNodes = 48, MaxSteps = 16;
  struct Result {
    enum Kind { Fail, IsX, Const } K = Fail;
    llvm::Constant *C = nullptr;
  };

  const llvm::Value *X;
  const llvm::DataLayout &DL;
  llvm::SmallVector<const llvm::Instruction *, MaxCases + 1> Cases; ///< comparisons of X
  llvm::SmallPtrSet<const llvm::Value *, 32> Visited;
  llvm::DenseMap<const llvm::Value *, bool> OnX; ///< depends on X
  llvm::DenseMap<const llvm::Value *, Result> Memo;
  llvm::Constant *XValue = nullptr; ///< X's value in the check of an outcome
  unsigned CaseBits = 0;
  bool PathMode = false; ///< phis allowed: the path walk gives their values

  static bool plainLiteral(const llvm::Constant *C);
  static bool plainType(const llvm::Type *T);
  static bool exactOp(const llvm::Instruction &I);
  bool collect(const llvm::Value *V);
  Result eval(const llvm::Value *V);
  Result evalUncached(const llvm::Value *V);
  /// Literal outcomes of the cases (appended once each); false on a case
  /// that fails to evaluate.
  template <typename OutcomeFn> bool outcomes(OutcomeFn &&Outcome,
                                              llvm::SmallVectorImpl<llvm::Constant *> &Out);
  Result walk(const llvm::LoadInst &Load, const llvm::StoreInst &St,
              const llvm::SmallPtrSetImpl<const llvm::BasicBlock *> &Region,
              const llvm::BasicBlock *Join);
};

/// The shape FixpointCases::holdsOnPaths walks: a store guarded by
/// branches on the loaded value, between blocks that only compute (see
/// FixpointCases.cpp). IsPure tells the caller's pure operations (the
/// value's uses may be only those, branches and phis). Fills Region and
/// Join; false where the shape differs.
bool guardedRegion(const llvm::LoadInst &LI, const llvm::StoreInst &St,
                   llvm::SmallPtrSetImpl<const llvm::BasicBlock *> &Region,
                   const llvm::BasicBlock *&Join,
                   llvm::function_ref<bool(const llvm::Instruction &)> IsPure);

} // namespace gmem

#endif

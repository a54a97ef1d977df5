//===- SymbolicRangeSupport.h - Helpers of SymbolicRange*.cpp ------*- C++ -*-===//
//
// Bound arithmetic shared by SymbolicRange.cpp and SymbolicRangeLoops.cpp
// (private to lib/Analysis): null means unbounded on that side.
//
//===----------------------------------------------------------------------===//

#ifndef GMEM_PASSES_SYMBOLICRANGESUPPORT_H
#define GMEM_PASSES_SYMBOLICRANGESUPPORT_H

#include "gmem/passes/SymbolicRange.h"

#include "llvm/Analysis/ScalarEvolutionDivision.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"

#include <climits>

namespace gmem {
namespace range_support {


constexpr unsigned MaxDepth = 24;
// Budgets of one access region (bounds plus checks). The launch path
// evaluates each distinct sub-expression once (FlatEval merges equal ones
// across a kernel's regions), but nested mins and maxes repeat their
// operands in the trees the descriptor stores (a `<=` loop from -1 over a
// row pitch: 50 distinct nodes, 1,406 in trees). A region must fit
// MaxRegionNodes tree nodes; one that fits no other way may have
// MaxRegionNodes distinct nodes in up to MaxRegionTreeNodes tree nodes.
constexpr size_t MaxRegionNodes = 400;
constexpr size_t MaxRegionTreeNodes = 4096; // descriptor bytes

struct RegionCost {
  size_t Distinct = 0;
  size_t Tree = 0; // saturates past MaxRegionTreeNodes
};
RegionCost regionCost(llvm::ArrayRef<ExprRef> Roots);
// Guards are applied down to this depth: deep enough for (z*Y + y)*X + x
// style 3D offsets, shallow enough that guard operands (which are bounded
// with guards again) cannot blow up.
constexpr unsigned GuardDepth = 16;

inline int64_t typeMin(unsigned Bits, bool Signed) {
  if (!Signed || Bits == 0)
    return 0;
  return Bits >= 64 ? INT64_MIN : -(int64_t(1) << (Bits - 1));
}
inline int64_t typeMax(unsigned Bits, bool Signed) {
  if (Bits >= 64 || (!Signed && Bits >= 63))
    return INT64_MAX;
  return Signed ? (int64_t(1) << (Bits - 1)) - 1 : (int64_t(1) << Bits) - 1;
}

inline ExprRef cst(int64_t V) { return Expr::constant(V); }
inline ExprRef plus(const ExprRef &A, const ExprRef &B) { return A && B ? Expr::add(A, B) : nullptr; }
inline ExprRef times(const ExprRef &A, const ExprRef &B) { return A && B ? Expr::mul(A, B) : nullptr; }
inline ExprRef lesser(const ExprRef &A, const ExprRef &B) {
  if (!A) return B;
  if (!B) return A;
  return Expr::smin(A, B);
}
inline ExprRef greater(const ExprRef &A, const ExprRef &B) {
  if (!A) return B;
  if (!B) return A;
  return Expr::smax(A, B);
}

inline Bounds addBounds(const Bounds &A, const Bounds &B) { return {plus(A.Lo, B.Lo), plus(A.Hi, B.Hi)}; }

inline bool nonNeg(const ExprRef &E) { return E && isKnownNonNegative(E); }
/// Bounds of A / B for A >= 0 and B >= 1 (B.Lo non-null): the smallest
/// dividend over the largest divisor, the largest over the smallest.
inline Bounds unsignedQuotient(const Bounds &A, const Bounds &B) {
  return {A.Lo && B.Hi ? Expr::udiv(A.Lo, B.Hi) : cst(0), A.Hi ? Expr::udiv(A.Hi, B.Lo) : nullptr};
}
inline bool nonPos(const ExprRef &E) { return E && E->isConst() && E->constant() <= 0; }

// Interval product. Exact sign knowledge keeps the common case (index *
// stride with both non-negative) free of min/max clutter.
inline Bounds mulBounds(const Bounds &A, const Bounds &B) {
  if (A.Lo && A.Hi && sameExpr(A.Lo, A.Hi) && A.Lo->isConst()) { // constant factor
    int64_t K = A.Lo->constant();
    if (K >= 0)
      return {times(A.Lo, B.Lo), times(A.Lo, B.Hi)};
    return {times(A.Lo, B.Hi), times(A.Lo, B.Lo)};
  }
  if (B.Lo && B.Hi && sameExpr(B.Lo, B.Hi) && B.Lo->isConst())
    return mulBounds(B, A);
  if (nonNeg(A.Lo) && nonNeg(B.Lo))
    return {times(A.Lo, B.Lo), times(A.Hi, B.Hi)};
  if (!A.bounded() || !B.bounded())
    return {};
  std::vector<ExprRef> C{Expr::mul(A.Lo, B.Lo), Expr::mul(A.Lo, B.Hi), Expr::mul(A.Hi, B.Lo),
                         Expr::mul(A.Hi, B.Hi)};
  return {Expr::smin(C), Expr::smax(C)};
}

/// x % d (C's truncating remainder) for x in X and d in D, D.Lo >= 1:
/// [0, min(x, d - 1)] for x >= 0, else within d - 1 of 0 on x's side.
Bounds signedRemainderBounds(const Bounds &X, const Bounds &D);

/// E involves gridDim and blockDim only (SymbolicRange.cpp).
bool onlyGeometry(const ExprRef &E);

inline bool isSignedPred(llvm::CmpInst::Predicate P) { return llvm::ICmpInst::isSigned(P); }


/// c with ARStep == c * Step: 1 for equal steps, the quotient of two
/// constant steps, else the constant factor (at most 32 significant bits,
/// nonzero) of ARStep; 0 when none.
inline int64_t stepRatio(llvm::ScalarEvolution &SE, const llvm::SCEV *ARStep,
                         const llvm::SCEV *Step) {
  if (ARStep == Step)
    return 1;
  // Two constant steps (a byte offset stepping -4 over an index stepping -1).
  auto *KA = llvm::dyn_cast<llvm::SCEVConstant>(ARStep);
  auto *KS = llvm::dyn_cast<llvm::SCEVConstant>(Step);
  if (KA && KS && !KS->isZero() && KA->getAPInt().getSignificantBits() <= 32 &&
      KS->getAPInt().getSignificantBits() <= 32) {
    int64_t A = KA->getAPInt().getSExtValue(), S = KS->getAPInt().getSExtValue();
    if (A % S == 0 && A / S != 0)
      return A / S;
  }
  auto *M = llvm::dyn_cast<llvm::SCEVMulExpr>(ARStep);
  auto *K = M ? llvm::dyn_cast<llvm::SCEVConstant>(M->getOperand(0)) : nullptr;
  if (K && K->getAPInt().getSignificantBits() <= 32 && !K->isZero() &&
      SE.getMulExpr(K, Step) == ARStep)
    return K->getAPInt().getSExtValue();
  return 0;
}

/// The conditional branch that ends L's latch and its integer compare
/// (null where the latch ends otherwise).
struct LatchTest {
  llvm::BranchInst *Br = nullptr;
  llvm::ICmpInst *Cmp = nullptr;
};
inline LatchTest latchTest(const llvm::Loop *L) {
  llvm::BasicBlock *Latch = L->getLoopLatch();
  auto *Br = Latch ? llvm::dyn_cast<llvm::BranchInst>(Latch->getTerminator()) : nullptr;
  if (!Br || !Br->isConditional())
    return {};
  return {Br, llvm::dyn_cast<llvm::ICmpInst>(Br->getCondition())};
}

/// The recurrence one step behind Y in L ({s, +, t} for Y = {s + t, +, t}):
/// a header phi's own recurrence where one steps to Y (the induction
/// variable a latch `i + step < n` tests), else Y's start minus its step,
/// which SCEV may not fold back to the phi's start (a 64-bit grid stride
/// `bid * bd + tid + gd * bd` distributes into `tid + bd * (gd + bid)`,
/// and minus `gd * bd` stays a sum that no longer matches the index).
inline const llvm::SCEVAddRecExpr *preIncrement(llvm::ScalarEvolution &SE, const llvm::Loop *L,
                                                const llvm::SCEVAddRecExpr *Y) {
  const llvm::SCEV *Step = Y->getStepRecurrence(SE);
  for (llvm::PHINode &Phi : L->getHeader()->phis()) {
    if (!SE.isSCEVable(Phi.getType()))
      continue;
    auto *PR = llvm::dyn_cast<llvm::SCEVAddRecExpr>(SE.getSCEV(&Phi));
    if (PR && PR != Y && PR->getLoop() == L && PR->isAffine() && PR->getType() == Y->getType() &&
        PR->getStepRecurrence(SE) == Step && PR->getPostIncExpr(SE) == Y)
      return PR;
  }
  return llvm::dyn_cast<llvm::SCEVAddRecExpr>(SE.getAddRecExpr(
      SE.getMinusSCEV(Y->getStart(), Step), Step, L, llvm::SCEV::FlagAnyWrap));
}

/// c with ARStep == c * Step as a SCEV invariant in L: stepRatio's
/// constant, else the exact quotient of the two steps (a row stride
/// `i * ld` over `i += blockDim.x`: c = ld); null when none.
inline const llvm::SCEV *stepFactor(llvm::ScalarEvolution &SE, const llvm::SCEV *ARStep,
                                    const llvm::SCEV *Step, const llvm::Loop *L) {
  if (int64_t K = stepRatio(SE, ARStep, Step))
    return SE.getConstant(ARStep->getType(), K, /*isSigned=*/true);
  if (Step->isZero())
    return nullptr;
  const llvm::SCEV *Q = nullptr, *R = nullptr;
  llvm::SCEVDivision::divide(SE, ARStep, Step, &Q, &R);
  if (!Q || !R || !R->isZero() || Q->isZero() || !SE.isLoopInvariant(Q, L) ||
      SE.getMulExpr(Q, Step) != ARStep)
    return nullptr;
  return Q;
}

/// d with AR == c * Y + d for c = CV an invariant factor (stepFactor's;
/// null: none), d invariant in the loop; null where there is no such d.
/// Both affine in one loop, AR's step c times Y's and d = AR(0) - c * Y(0):
/// then AR(k) = c * Y(k) + d modulo 2^N at every k. (Asking SCEV to fold
/// c * Y + d back to AR says the same where it can, but an inner loop's
/// start that holds an outer recurrence does not fold back.)
inline const llvm::SCEV *offsetOverFactor(llvm::ScalarEvolution &SE,
                                          const llvm::SCEVAddRecExpr *AR,
                                          const llvm::SCEVAddRecExpr *Y, const llvm::SCEV *CV) {
  if (!CV || !AR->isAffine() || !Y->isAffine() || AR->getLoop() != Y->getLoop() ||
      AR->getType() != Y->getType() ||
      SE.getMulExpr(CV, Y->getStepRecurrence(SE)) != AR->getStepRecurrence(SE))
    return nullptr;
  const llvm::SCEV *D = SE.getMinusSCEV(AR->getStart(), SE.getMulExpr(CV, Y->getStart()));
  if (llvm::isa<llvm::SCEVCouldNotCompute>(D) || !SE.isLoopInvariant(D, AR->getLoop()))
    return nullptr;
  return D;
}

/// d with AR == c * Y + d for Y a recurrence of AR's loop and c = Ratio a
/// constant (stepRatio of the steps), d invariant in the loop (as
/// offsetOverFactor: AR(k) = c * Y(k) + d modulo 2^N at every k); null where
/// there is no such d.
inline const llvm::SCEV *offsetOver(llvm::ScalarEvolution &SE, const llvm::SCEVAddRecExpr *AR,
                                    const llvm::SCEVAddRecExpr *Y, int64_t Ratio) {
  return Ratio ? offsetOverFactor(SE, AR, Y, SE.getConstant(AR->getType(), Ratio, /*isSigned=*/true))
               : nullptr;
}

} // namespace range_support
} // namespace gmem

#endif // GMEM_PASSES_SYMBOLICRANGESUPPORT_H

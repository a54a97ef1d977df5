//===- SymbolicRangeSums.cpp - Sums whose terms cancel in part -------------===//
//
// SymbolicRange bounds a sum term by term. Some sums are tighter as a whole:
// x - (x mod 2^k), which SCEV writes x + (-1 * zext(trunc x to ik)), is x
// rounded down to a multiple of 2^k, in [0, x] for x >= 0, where the two
// terms apart give x.lo - (2^k - 1). It is the exit value of the remainder
// loop LLVM's runtime unroller puts before a count-down loop (i - ((i + 1)
// & 3)), the start of the unrolled main loop.
//
//===----------------------------------------------------------------------===//

#include "SymbolicRangeSupport.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"

using namespace llvm;

namespace gmem {
using namespace range_support;

bool SymbolicRange::takeRoundedDown(const SCEV *S, SmallVectorImpl<const SCEV *> &Rest, Bounds &Acc,
                                    Ctx &C) {
  for (size_t I = 0; I < Rest.size(); ++I) {
    auto *M = dyn_cast<SCEVMulExpr>(Rest[I]);
    if (!M || M->getNumOperands() != 2 || !M->getOperand(0)->isAllOnesValue())
      continue;
    auto *Z = dyn_cast<SCEVZeroExtendExpr>(M->getOperand(1));
    auto *T = Z ? dyn_cast<SCEVTruncateExpr>(Z->getOperand()) : nullptr;
    if (!T || T->getOperand()->getType() != S->getType())
      continue;
    const SCEV *X = T->getOperand();
    SmallVector<const SCEV *, 8> Left(Rest.begin(), Rest.end());
    Left.erase(Left.begin() + I);
    // x's constant need not be in the sum (i - ((i + 1) & 3) is
    // (i + 1) - ((i + 1) & 3) - 1): the difference is added apart.
    SmallVector<const SCEV *, 8> XOps;
    int64_t Shift = 0;
    auto TakeConstant = [](const SCEV *Op, int64_t &K) {
      auto *SC = dyn_cast<SCEVConstant>(Op);
      if (!SC || SC->getAPInt().getSignificantBits() > 32)
        return false;
      K = SC->getAPInt().getSExtValue();
      return true;
    };
    for (const SCEV *Op : isa<SCEVAddExpr>(X) ? cast<SCEVAddExpr>(X)->operands()
                                               : ArrayRef<const SCEV *>(X)) {
      int64_t K;
      if (TakeConstant(Op, K))
        Shift -= K;
      else
        XOps.push_back(Op);
    }
    if (XOps.empty() || !removeOperands(Left, XOps))
      continue;
    for (size_t J = 0; J < Left.size(); ++J) {
      int64_t K;
      if (TakeConstant(Left[J], K)) {
        Shift += K;
        Left.erase(Left.begin() + J);
        break;
      }
    }
    SideProof P(C.At, C.Depth);
    Bounds XB = aside([&] { return walk(X, P.Sub); });
    if (!nonNeg(XB.Lo) || !XB.Hi)
      continue;
    addChecks(C, P.Checks);
    Acc = addBounds(Acc, {cst(Shift), Expr::add(XB.Hi, cst(Shift))});
    Rest.assign(Left.begin(), Left.end());
    return true;
  }
  return false;
}

} // namespace gmem

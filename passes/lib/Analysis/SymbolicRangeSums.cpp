//===- SymbolicRangeSums.cpp - Sums and products bounded as a whole --------===//
//
// SymbolicRange bounds a sum term by term. Some sums are tighter as a whole:
// x - (x mod 2^k), which SCEV writes x + (-1 * zext(trunc x to ik)), is x
// rounded down to a multiple of 2^k, in [0, x] for x >= 0, where the two
// terms apart give x.lo - (2^k - 1). It is the exit value of the remainder
// loop LLVM's runtime unroller puts before a count-down loop (i - ((i + 1)
// & 3)), the start of the unrolled main loop.
//
// Likewise x - (x / d) * d with a signed division: LLVM's DivRemPairs pass
// rewrites `x % d` that way where `x / d` is computed too (every index
// split into coordinates), and SCEV, for which the sdiv is opaque, flattens
// the product into the sum. It is x % d, within d - 1 of zero; the terms
// apart give nothing usable.
//
// And products of launch values of unknown sign, which term by term bound
// to a min/max over every sign combination that nests with each factor
// (`b * N * 3 * NH * d`): regionOf's second try checks such a factor
// >= 0 at launch instead. Signed divisions, shifts and remainders that SCEV
// leaves opaque (signedDivision) are here too.
//
//===----------------------------------------------------------------------===//

#include "SymbolicRangeSupport.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Operator.h"

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

Bounds range_support::signedRemainderBounds(const Bounds &X, const Bounds &D) {
  ExprRef Below = Expr::sub(D.Hi, cst(1)); // |x % d| <= d - 1
  if (nonNeg(X.Lo))
    return Bounds{cst(0), Expr::smin(X.Hi, Below)};
  return Bounds{Expr::smin(cst(0), Expr::smax(X.Lo, Expr::sub(cst(1), D.Hi))),
                Expr::smax(cst(0), Expr::smin(X.Hi, Below))};
}

std::optional<Bounds> SymbolicRange::signedDivisor(const Value *V, Ctx &C) {
  if (auto *K = dyn_cast<ConstantInt>(V)) {
    if (K->getValue().getSignificantBits() > 64 || K->getSExtValue() < 1)
      return std::nullopt;
    return Bounds{cst(K->getSExtValue()), cst(K->getSExtValue())};
  }
  Bounds D = inType(SE.getSCEV(const_cast<Value *>(V)), /*Signed=*/true, C);
  if (!D.bounded())
    return std::nullopt;
  addCheck(C, D.Lo, 1, INT64_MAX, /*Assumed=*/false);
  return D;
}

Bounds SymbolicRange::productBounds(const Bounds &A, const Bounds &B, Ctx &C) {
  if (!CheckFactorSigns)
    return mulBounds(A, B);
  auto Exact = [](const Bounds &X) { return X.bounded() && sameExpr(X.Lo, X.Hi); };
  if (Exact(A) && Exact(B)) // one value times one value, whatever the signs
    return {Expr::mul(A.Lo, B.Lo), Expr::mul(A.Lo, B.Lo)};
  for (auto [V, X] : {std::pair{&A, &B}, std::pair{&B, &A}}) {
    // A constant's sign is known (a negative one, from `n - x`, would fail
    // its check at every launch): mulBounds is exact for it.
    if (!Exact(*V) || V->Lo->isConst() || nonNeg(V->Lo) || !X->bounded())
      continue;
    // V >= 0 (checked): V * x grows with x.
    addCheck(C, V->Lo, 0, INT64_MAX, /*Assumed=*/false);
    return {Expr::mul(V->Lo, X->Lo), Expr::mul(V->Lo, X->Hi)};
  }
  return mulBounds(A, B);
}

namespace {
/// S as a sum of products, each product over a sum distributed (SCEV
/// factors x*a*c + y*a*c into (x + y)*a*c, which hides the terms a match
/// looks for); false past Limit terms.
bool sumOfProducts(ScalarEvolution &SE, const SCEV *S, SmallVectorImpl<const SCEV *> &Out,
                   size_t Limit = 24) {
  if (auto *A = dyn_cast<SCEVAddExpr>(S)) {
    for (const SCEV *Op : A->operands())
      if (!sumOfProducts(SE, Op, Out, Limit))
        return false;
    return true;
  }
  auto *M = dyn_cast<SCEVMulExpr>(S);
  const SCEVAddExpr *Inner = nullptr;
  SmallVector<const SCEV *, 4> Factors;
  for (const SCEV *Op : M ? M->operands() : ArrayRef<const SCEV *>()) {
    if (!Inner && isa<SCEVAddExpr>(Op))
      Inner = cast<SCEVAddExpr>(Op);
    else
      Factors.push_back(Op);
  }
  if (!Inner) {
    Out.push_back(S);
    return Out.size() <= Limit;
  }
  const SCEV *F = SE.getMulExpr(Factors);
  for (const SCEV *T : Inner->operands())
    if (!sumOfProducts(SE, SE.getMulExpr(F, T), Out, Limit))
      return false;
  return true;
}
} // namespace

std::optional<Bounds> SymbolicRange::signedRemainder(const SCEVAddExpr *S, Ctx &C) {
  // Nested splits (`(i % (N*d)) % d` after DivRemPairs) put the inner
  // remainder's terms inside the outer one's x: the match with the most
  // terms of x is the outermost, and bounds the whole sum.
  const BinaryOperator *Best = nullptr;
  int64_t BestK = 0;
  size_t BestTerms = 0;
  SmallVector<const SCEV *, 8> BestRest, Terms;
  if (!sumOfProducts(SE, S, Terms))
    return std::nullopt;
  for (const SCEV *Op : Terms) {
    // The term (-k) * (x / d) * d, or (-k*d) * (x / d) for a constant d.
    auto *M = dyn_cast<SCEVMulExpr>(Op);
    auto *NegK = M ? dyn_cast<SCEVConstant>(M->getOperand(0)) : nullptr;
    if (!NegK || !NegK->getAPInt().isNegative() || NegK->getAPInt().getSignificantBits() > 32)
      continue;
    int64_t K = -NegK->getAPInt().getSExtValue();
    for (unsigned I = 1; I < M->getNumOperands(); ++I) {
      auto *U = dyn_cast<SCEVUnknown>(M->getOperand(I));
      auto *Div = U ? dyn_cast<BinaryOperator>(U->getValue()) : nullptr;
      if (!Div || Div->getOpcode() != Instruction::SDiv)
        continue;
      SmallVector<const SCEV *, 4> Others;
      for (unsigned J = 1; J < M->getNumOperands(); ++J)
        if (J != I)
          Others.push_back(M->getOperand(J));
      int64_t Kq = K; // the factor of x % d
      if (Others.empty()) {
        auto *Dc = dyn_cast<ConstantInt>(Div->getOperand(1));
        if (!Dc || Dc->getValue().getSignificantBits() > 33 || Dc->getSExtValue() < 1 ||
            K % Dc->getSExtValue() != 0)
          continue;
        Kq = K / Dc->getSExtValue();
      } else if (SE.getMulExpr(Others) != SE.getSCEV(Div->getOperand(1))) {
        continue;
      }
      // The terms of Kq * x among the rest of the sum.
      const SCEV *KX =
          SE.getMulExpr(SE.getConstant(S->getType(), Kq), SE.getSCEV(Div->getOperand(0)));
      SmallVector<const SCEV *, 8> Rest(Terms.begin(), Terms.end());
      Rest.erase(llvm::find(Rest, Op));
      SmallVector<const SCEV *, 8> Need;
      if (!sumOfProducts(SE, KX, Need) || Need.size() <= BestTerms || !removeOperands(Rest, Need))
        continue;
      Best = Div, BestK = Kq, BestTerms = Need.size();
      BestRest.assign(Rest.begin(), Rest.end());
    }
  }
  if (!Best)
    return std::nullopt;
  std::optional<Bounds> D = signedDivisor(Best->getOperand(1), C);
  Bounds X = inType(SE.getSCEV(Best->getOperand(0)), /*Signed=*/true, C);
  if (!D || !X.bounded())
    return std::nullopt;
  Bounds Acc = mulBounds({cst(BestK), cst(BestK)}, signedRemainderBounds(X, *D));
  for (const SCEV *T : BestRest)
    Acc = addBounds(Acc, walk(T, C));
  return Acc;
}

bool SymbolicRange::poisonOnlyByFlags(const FreezeInst *Fr) const {
  // Walk the operand's instructions (a few dozen at most): each may make
  // poison only through its flags, and every leaf is never poison.
  SmallVector<const Value *, 16> Work{Fr->getOperand(0)};
  SmallPtrSet<const Value *, 32> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    if (Seen.size() > 48)
      return false;
    auto *I = dyn_cast<Instruction>(V);
    if (!I || isa<PHINode>(I) || isa<CallBase>(I) || isa<LoadInst>(I)) {
      if (!isGuaranteedNotToBePoison(V))
        return false;
      continue;
    }
    if (!isa<BinaryOperator>(I) && !isa<CastInst>(I) && !isa<FreezeInst>(I))
      return false;
    if (isa<FreezeInst>(I))
      continue; // never poison
    if (canCreatePoison(cast<Operator>(I), /*ConsiderFlagsAndMetadata=*/false))
      return false;
    for (const Value *O : I->operands())
      Work.push_back(O);
  }
  return true;
}

// Warp, row and column indices are often computed on signed ints
// (`tid >> 5`, `tid / 32`, `idx % width`), which SCEV does not model. x is
// bounded as a signed machine value (the checks of inType say so); the
// divisor must be a positive constant or is checked to be >= 1 at launch.
// Known non-negative x: unsigned division, remainder in [0, min(x, d - 1)].
// Otherwise sdiv truncates toward zero and is monotone in x for d > 0;
// ashr rounds down, so at most one below the truncated quotient; a
// remainder takes x's sign and is smaller than d in magnitude.
std::optional<Bounds> SymbolicRange::signedDivision(const BinaryOperator *BO, Ctx &C) {
  unsigned Op = BO->getOpcode();
  if (Op != Instruction::AShr && Op != Instruction::SDiv && Op != Instruction::SRem)
    return std::nullopt;
  if (!SE.isSCEVable(BO->getType()))
    return std::nullopt;
  // Launch values on both sides (a row pitch rounded up to an alignment,
  // `n + a - 1 - (n + a - 1) % a`): the quotient or remainder itself, with
  // C's truncating division (x % d = x - (x / d) * d), so the pitch stays
  // one value instead of a range that every product with it widens. The
  // operands without guards: a guard at the use (`col < n`) would only
  // make two forms of the one value. Any nonzero divisor: a zero one
  // leaves the expression without a value at that launch.
  if (Op != Instruction::AShr) {
    const SCEV *SX = SE.getSCEV(BO->getOperand(0)), *SD = SE.getSCEV(BO->getOperand(1));
    if (launchInvariant(SX) && launchInvariant(SD))
      if (ExprRef X = invariantExpr(SX))
        if (ExprRef Dx = invariantExpr(SD)) {
          // The operands' mathematical values are the machine's only while
          // they lie in the type: `(int)(ua + ub)` wraps on the GPU.
          const unsigned Bits = BO->getType()->getIntegerBitWidth();
          requireInType({X, X}, Bits, /*Signed=*/true, C, wrapIsUB(SX));
          requireInType({Dx, Dx}, Bits, /*Signed=*/true, C, wrapIsUB(SD));
          ExprRef Q = Expr::sdiv(X, Dx);
          ExprRef R = Op == Instruction::SDiv ? Q : Expr::sub(X, Expr::mul(Q, Dx));
          return Bounds{R, R};
        }
  }
  unsigned Bits = BO->getType()->getIntegerBitWidth();
  Bounds D;
  if (Op == Instruction::AShr) {
    auto *K = dyn_cast<ConstantInt>(BO->getOperand(1));
    uint64_t Sh = K ? K->getZExtValue() : 0;
    if (Sh == 0 || Sh >= Bits || Sh > 62)
      return std::nullopt;
    D = {cst(int64_t(1) << Sh), cst(int64_t(1) << Sh)};
  } else if (std::optional<Bounds> Dv = signedDivisor(BO->getOperand(1), C)) {
    D = *Dv;
  } else {
    return std::nullopt;
  }
  Bounds X = inType(SE.getSCEV(BO->getOperand(0)), /*Signed=*/true, C);
  if (!X.bounded())
    return std::nullopt;
  if (Op == Instruction::SRem)
    return signedRemainderBounds(X, D);
  if (nonNeg(X.Lo))
    return unsignedQuotient(X, D);
  Bounds Q{Expr::smin(Expr::sdiv(X.Lo, D.Lo), Expr::sdiv(X.Lo, D.Hi)),
           Expr::smax(Expr::sdiv(X.Hi, D.Lo), Expr::sdiv(X.Hi, D.Hi))};
  if (Op == Instruction::AShr)
    Q.Lo = Expr::sub(Q.Lo, cst(1));
  return Q;
}

} // namespace gmem

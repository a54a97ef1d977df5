//===- SymbolicRangeLatch.cpp - Recurrences bounded by their latch test ---===//
//
// `for (int i = tid; i < n; i += blockDim.x * gridDim.x)` with size_t n:
// the latch tests sext(i + G) <u n in 64 bits, i is an i32 recurrence that
// SCEV cannot give a trip count (the step is unsigned, so i + G may wrap
// without UB), and the access reads sext(i). addRec's latch bound needs the
// test on the recurrence itself and an induction that i never wraps; here
// neither holds, yet every value i takes after the first is one that
// passed the test. This file bounds a recurrence's machine value through
// that fact.
//
// Why it holds: the latch is the loop's only back edge, so iteration k >= 1
// runs only after iteration k - 1's latch test passed, and that test read
// X(k - 1) for the tested recurrence X; with Y = X - step (the recurrence
// whose value at iteration k is X's at k - 1, exactly, modulo 2^N), every
// Y(k), k >= 1, satisfies the test. This needs no no-wrap argument: the
// test reads the same machine value the iteration uses. Y(0) is the start,
// bounded as such (or by a guard testing it the same way, as the rotated
// loop's entry test does). A use after the loop reads the value of its
// last iteration, which is one of these.
//
// The bounds are of the machine value's signed or unsigned reading (what
// inType asks for), not of the unbounded sum start + k * step: an
// `unsigned i` that wraps past 2^32 restarts at small values, which the
// test bounds like any other.
//
//===----------------------------------------------------------------------===//

#include "SymbolicRangeSupport.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"

using namespace llvm;

namespace gmem {
using namespace range_support;

std::optional<SymbolicRange::TestFact>
SymbolicRange::testFact(int Ext, CmpInst::Predicate P, const SCEV *Bound, unsigned Bits,
                        Ctx &C) {
  if (!ICmpInst::isRelational(P) || !Bound->getType()->isIntegerTy())
    return std::nullopt;
  unsigned W = SE.getTypeSizeInBits(Bound->getType());
  if (W > 64 || Bits > W || (Ext == 0) != (Bits == W))
    return std::nullopt;
  bool SignedP = isSignedPred(P);
  bool Less = ICmpInst::isLT(P) || ICmpInst::isLE(P);
  bool Strict = ICmpInst::isLT(P) || ICmpInst::isGT(P);
  // The bound as the comparison reads it (checks say so where needed: an
  // unsigned 64-bit bound must be below 2^63). Without the guards at the
  // access: the bound is a parameter as a rule, and a guard relating it to
  // the index's start (the loop's entry test) would only add checks on the
  // start, which a 16-bit start fails as a constant.
  Ctx Plain{nullptr, C.Checks, C.Why, C.Depth};
  Bounds BB = inType(Bound, SignedP, Plain);
  ExprRef Lim = Less ? (BB.Hi && Strict ? Expr::sub(BB.Hi, cst(1)) : BB.Hi)
                     : (BB.Lo && Strict ? Expr::add(BB.Lo, cst(1)) : BB.Lo);
  if (!Lim)
    return std::nullopt;
  TestFact F;
  switch (Ext) {
  case 0: // Y P B in Y's own type: the reading P names.
    F.Signed = SignedP;
    if (Less)
      F.B = {SignedP ? nullptr : cst(0), Lim};
    else
      F.B = {Lim, SignedP || Bits >= 63 ? nullptr : cst(typeMax(Bits, false))};
    return F;
  case 1: // sext keeps the signed value.
    F.Signed = true;
    if (SignedP) {
      F.B = Less ? Bounds{nullptr, Lim} : Bounds{Lim, nullptr};
      return F;
    }
    if (!Less)
      return std::nullopt;
    // Unsigned, a negative Y reads as at least 2^W - 2^(Bits-1), above any
    // bound below 2^(W-1): only Y in [0, B) passes.
    addCheck(C, BB.Hi, INT64_MIN, typeMax(W, true), /*Assumed=*/false);
    F.B = {cst(0), Lim};
    return F;
  case 2: // zext keeps the unsigned value, below 2^Bits <= 2^63: a signed
          // and an unsigned comparison in W bits both read it exactly.
    F.Signed = false;
    F.B = Less ? Bounds{cst(0), Lim} : Bounds{Lim, cst(typeMax(Bits, false))};
    return F;
  default:
    return std::nullopt;
  }
}

std::optional<Bounds> SymbolicRange::latchReading(const SCEVAddRecExpr *AR, bool Signed, Ctx &C) {
  if (!AR->isAffine() || !AR->getType()->isIntegerTy() || C.Depth + 3 >= MaxDepth)
    return std::nullopt;
  unsigned N = SE.getTypeSizeInBits(AR->getType());
  const Loop *L = AR->getLoop();
  auto [Br, Cmp] = latchTest(L);
  if (N > 64 || !Cmp || !SE.isSCEVable(Cmp->getOperand(0)->getType()))
    return std::nullopt;
  bool Cont0 = Br->getSuccessor(0) == L->getHeader();
  if (Cont0 == (Br->getSuccessor(1) == L->getHeader()))
    return std::nullopt;
  // The predicate under which the loop goes on.
  CmpInst::Predicate P0 = Cont0 ? Cmp->getPredicate() : Cmp->getInversePredicate();
  for (unsigned Side = 0; Side < 2; ++Side) {
    const SCEV *Tested = SE.getSCEV(Cmp->getOperand(Side));
    const SCEV *Bound = SE.getSCEV(Cmp->getOperand(1 - Side));
    CmpInst::Predicate P = Side == 0 ? P0 : CmpInst::getSwappedPredicate(P0);
    if (!SE.isLoopInvariant(Bound, L))
      continue;
    int Ext = 0;
    const SCEV *X = Tested;
    if (auto *E = dyn_cast<SCEVSignExtendExpr>(Tested)) {
      Ext = 1;
      X = E->getOperand();
    } else if (auto *E = dyn_cast<SCEVZeroExtendExpr>(Tested)) {
      Ext = 2;
      X = E->getOperand();
    }
    auto *XR = dyn_cast<SCEVAddRecExpr>(X);
    if (!XR || XR->getLoop() != L || !XR->isAffine() || XR->getType() != AR->getType())
      continue;
    // Y(k) = X(k - 1): the value iteration k got from the test before it.
    const SCEV *Step = XR->getStepRecurrence(SE);
    const SCEVAddRecExpr *Y = preIncrement(SE, L, XR);
    if (!Y)
      continue;
    // AR = c * Y + d, c a constant step ratio, d invariant (offsetOver:
    // AR(k) = c * Y(k) + d modulo 2^N at every k).
    const int64_t Ratio = stepRatio(SE, AR->getStepRecurrence(SE), Step);
    const SCEV *D = offsetOver(SE, AR, Y, Ratio);
    if (!D)
      continue;

    // Worked out on the side: a failed attempt leaves no checks behind.
    std::vector<RangeCheck> Scratch;
    std::string Why;
    Ctx Sub{C.At, Scratch, Why, C.Depth + 1};
    Bounds Out;
    {
      RecordingPaused Aside(Recording);
      std::optional<TestFact> R =
          testedRecurrence(Y->getStart(), Step, Ext, P, Bound, Sub);
      if (R && Ratio == 1 && D->isZero()) {
        Out = R->B;
      } else if (R) {
        // c * reading(Y) + d is congruent to AR's value; inside AR's type it
        // is the reading asked for.
        Bounds K{cst(Ratio), cst(Ratio)};
        Out = addBounds(mulBounds(K, R->B), walk(D, Sub));
        if (Out.bounded()) {
          addCheck(Sub, Out.Lo, typeMin(N, Signed), INT64_MAX, /*Assumed=*/false);
          addCheck(Sub, Out.Hi, INT64_MIN, typeMax(N, Signed), /*Assumed=*/false);
        }
      }
      // testedRecurrence gives Y's reading in the test's signedness; the two
      // readings agree on [0, 2^(N-1)).
      if (R && Ratio == 1 && D->isZero() && R->Signed != Signed) {
        addCheck(Sub, Out.Lo, 0, INT64_MAX, /*Assumed=*/false);
        addCheck(Sub, Out.Hi, INT64_MIN, typeMax(N, true), /*Assumed=*/false);
      }
    }
    if (!Out.bounded())
      continue;
    addChecks(C, Scratch);
    return Out;
  }
  return std::nullopt;
}

std::optional<SymbolicRange::TestFact>
SymbolicRange::testedRecurrence(const SCEV *Start, const SCEV *Step, int Ext,
                                CmpInst::Predicate P, const SCEV *Bound, Ctx &C) {
  unsigned N = SE.getTypeSizeInBits(Start->getType());
  std::optional<TestFact> F = testFact(Ext, P, Bound, N, C);
  if (!F)
    return std::nullopt;
  bool FS = F->Signed;
  // Y(0), the start, in the same reading; a guard at the access that tests
  // the start as the latch tests the later values (a rotated loop's entry
  // test) bounds it as well, and where its bound is the latch's, Y(0)
  // needs no side of its own. The start's own bounds (and their checks)
  // only where a side still needs them.
  Bounds GB;
  bool LoIn = false, HiIn = false;
  if (C.At) {
    Type *WTy = Bound->getType();
    const SCEV *TestedStart = Ext == 1   ? SE.getSignExtendExpr(Start, WTy)
                              : Ext == 2 ? SE.getZeroExtendExpr(Start, WTy)
                                         : Start;
    for (const GuardFact &G : guardsAt(C.At)) {
      if (G.LHS != TestedStart)
        continue;
      std::optional<TestFact> GF = testFact(Ext, G.Pred, G.RHS, N, C);
      if (!GF || GF->Signed != FS)
        continue;
      LoIn |= GF->B.Lo && F->B.Lo && sameExpr(GF->B.Lo, F->B.Lo);
      HiIn |= GF->B.Hi && F->B.Hi && sameExpr(GF->B.Hi, F->B.Hi);
      GB.Lo = greater(GB.Lo, GF->B.Lo);
      GB.Hi = lesser(GB.Hi, GF->B.Hi);
    }
  }
  Bounds S0 = GB;
  if (!(F->B.Lo && F->B.Hi && LoIn && HiIn)) {
    S0 = inType(Start, FS, C);
    S0.Lo = greater(S0.Lo, GB.Lo);
    S0.Hi = lesser(S0.Hi, GB.Hi);
  }
  auto Hull = [](bool In, const ExprRef &Fact, const ExprRef &First, bool Lo) -> ExprRef {
    if (In)
      return Fact;
    if (!Fact || !First)
      return nullptr;
    return Lo ? Expr::smin(First, Fact) : Expr::smax(First, Fact);
  };
  TestFact R;
  R.Signed = FS;
  if (F->B.Lo && F->B.Hi) { // both sides: every value after the first
    R.B = {Hull(LoIn, F->B.Lo, S0.Lo, true), Hull(HiIn, F->B.Hi, S0.Hi, false)};
    return R.B.bounded() ? std::optional<TestFact>(R) : std::nullopt;
  }
  // One side only (`sext(i) <s n`: i may wrap to negative values, which
  // pass). The other side is the start's, by induction, where no step can
  // wrap: M(k+1) = M(k) + step exactly while M(k) + step stays in the type,
  // and every M(k) lies within the start's and the test's bound.
  if (!Step)
    return std::nullopt;
  if (F->B.Hi) {
    Bounds T = walk(Step, C);
    ExprRef H = Hull(HiIn, F->B.Hi, S0.Hi, false);
    if (!nonNeg(T.Lo) || !T.Hi || !H || !S0.Lo)
      return std::nullopt;
    addCheck(C, Expr::add(H, T.Hi), INT64_MIN, typeMax(N, FS), /*Assumed=*/false);
    R.B = {S0.Lo, H};
    return R;
  }
  Bounds NT = walk(SE.getNegativeSCEV(Step), C); // -step >= 0: decreasing
  ExprRef Lo = Hull(LoIn, F->B.Lo, S0.Lo, true);
  if (!nonNeg(NT.Lo) || !NT.Hi || !Lo || !S0.Hi)
    return std::nullopt;
  addCheck(C, Expr::sub(Lo, NT.Hi), typeMin(N, FS), INT64_MAX, /*Assumed=*/false);
  R.B = {Lo, S0.Hi};
  return R;
}

// `for (short i = tid; i < n; i += G)` or an int i stepped by an int: the
// index is a header phi SCEV does not model (sext(trunc(...)) or the nsw
// extension of the step), but its value from the latch is the very value
// the latch compares: iteration k >= 1 sees one that passed the test, as
// above; iteration 0 the value from the preheader. With no step known,
// only a test bounding both sides of the reading helps.
std::optional<Bounds> SymbolicRange::latchPhi(const PHINode *Phi, Ctx &C) {
  const Loop *L = LI.getLoopFor(Phi->getParent());
  if (!L || L->getHeader() != Phi->getParent() || Phi->getNumIncomingValues() != 2 ||
      !Phi->getType()->isIntegerTy() || C.Depth + 3 >= MaxDepth)
    return std::nullopt;
  BasicBlock *Latch = L->getLoopLatch(), *Pre = L->getLoopPreheader();
  auto [Br, Cmp] = latchTest(L);
  if (!Pre || !Cmp || Phi->getBasicBlockIndex(Pre) < 0 || Phi->getBasicBlockIndex(Latch) < 0)
    return std::nullopt;
  bool Cont0 = Br->getSuccessor(0) == L->getHeader();
  if (Cont0 == (Br->getSuccessor(1) == L->getHeader()))
    return std::nullopt;
  CmpInst::Predicate P0 = Cont0 ? Cmp->getPredicate() : Cmp->getInversePredicate();
  Value *Next = Phi->getIncomingValueForBlock(Latch);
  unsigned N = Phi->getType()->getIntegerBitWidth();
  for (unsigned Side = 0; Side < 2; ++Side) {
    if (Cmp->getOperand(Side) != Next)
      continue;
    const SCEV *Bound = SE.getSCEV(Cmp->getOperand(1 - Side));
    CmpInst::Predicate P = Side == 0 ? P0 : CmpInst::getSwappedPredicate(P0);
    if (N > 64 || !SE.isLoopInvariant(Bound, L))
      continue;
    std::vector<RangeCheck> Scratch;
    std::string Why;
    Ctx Sub{C.At, Scratch, Why, C.Depth + 1};
    std::optional<TestFact> R;
    {
      RecordingPaused Aside(Recording);
      R = testedRecurrence(SE.getSCEV(Phi->getIncomingValueForBlock(Pre)), nullptr, 0, P, Bound,
                           Sub);
      // An unknown's bounds are of its signed reading.
      if (R && !R->Signed) {
        addCheck(Sub, R->B.Lo, 0, INT64_MAX, /*Assumed=*/false);
        addCheck(Sub, R->B.Hi, INT64_MIN, typeMax(N, true), /*Assumed=*/false);
      }
    }
    if (!R || !R->B.bounded())
      continue;
    addChecks(C, Scratch);
    return R->B;
  }
  return std::nullopt;
}

} // namespace gmem

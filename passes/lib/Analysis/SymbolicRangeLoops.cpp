//===- SymbolicRangeLoops.cpp - Bounds of loop recurrences ----------------===//
//
// SymbolicRange for SCEV add-recurrences: trip counts, latch tests, the
// guarded and narrow forms of a recurrence, and recurrences that are a
// multiple of the one the latch tests.
//
//===----------------------------------------------------------------------===//

#include "SymbolicRangeSupport.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"

#include <optional>

using namespace llvm;

namespace gmem {
using namespace range_support;

namespace {
/// T / D as numbers, when D divides T's constant factor. SCEV's exact
/// division is unsigned: in i32 it reads -2 / 2 as 2^31 - 1, which times 2 is
/// -2 again modulo 2^32 (so a SCEV equality check passes) but not as the
/// number the bounds are computed with.
const SCEV *signedQuotient(ScalarEvolution &SE, const SCEV *T, const APInt &D) {
  if (D.isZero())
    return nullptr;
  if (D.isOne())
    return T;
  auto Divide = [&](const APInt &K) -> std::optional<APInt> {
    if ((K.isMinSignedValue() && D.isAllOnes()) || !K.srem(D).isZero())
      return std::nullopt;
    return K.sdiv(D);
  };
  if (auto *C = dyn_cast<SCEVConstant>(T)) {
    std::optional<APInt> Q = Divide(C->getAPInt());
    return Q ? SE.getConstant(*Q) : nullptr;
  }
  if (auto *M = dyn_cast<SCEVMulExpr>(T))
    if (auto *K = dyn_cast<SCEVConstant>(M->getOperand(0))) {
      std::optional<APInt> Q = Divide(K->getAPInt());
      if (!Q)
        return nullptr;
      SmallVector<const SCEV *, 4> Ops(M->operands());
      Ops[0] = SE.getConstant(*Q);
      return SE.getMulExpr(Ops);
    }
  return D.isAllOnes() ? SE.getNegativeSCEV(T) : nullptr;
}

/// A counter with a constant start and step in a loop of a few iterations
/// (the remainder loop of LLVM's unroller counts `k != (end - begin) & 3`
/// with no wrap flags): it stays far inside its signed type.
bool shortCounter(const SCEVAddRecExpr *Y, ScalarEvolution &SE) {
  auto *Y0 = dyn_cast<SCEVConstant>(Y->getStart());
  auto *TY = dyn_cast<SCEVConstant>(Y->getStepRecurrence(SE));
  auto *K = dyn_cast<SCEVConstant>(SE.getConstantMaxBackedgeTakenCount(Y->getLoop()));
  if (!Y0 || !TY || !K || SE.getTypeSizeInBits(Y->getType()) < 32)
    return false;
  const APInt &KV = K->getAPInt();
  if (KV.getActiveBits() > 16 || Y0->getAPInt().getSignificantBits() > 16 ||
      TY->getAPInt().getSignificantBits() > 16)
    return false;
  // |y0| + |step| * count < 2^15 + 2^15 * 2^16 < 2^31.
  return true;
}

/// A check that no launch passes (a constant outside its range): bounds
/// that need it are of no use, whatever else would bound the value.
bool failsAlways(const std::vector<RangeCheck> &Checks) {
  for (const RangeCheck &K : Checks)
    if (K.Value && K.Value->isConst() && (K.Value->constant() < K.Min || K.Value->constant() > K.Max))
      return true;
  return false;
}
} // namespace

// `a[i * m + j]` with int indices is F * sext({i*m + j0,+,1}<nsw>) in IR;
// SCEV folds the extension into an i64 recurrence {F*sext(i*m + j0),+,F},
// out of reach of the i32 latch test `j < m` and the i32 guards: the wide
// bound adds the largest start to the largest trip count even where each
// thread's start and trip count sum to less (j0 = i + 1, trip count
// m - 2 - i). Where the loop's latch tests a narrower value and SCEV itself
// rebuilds AR as F * ext(R) of a narrow recurrence R, R relates to the
// latch's and the guards' recurrences (R = G + i*m): bound it through them
// and extend. (A latch in AR's type, e.g. of a widened induction variable,
// relates to AR directly.) The narrow bounds must lie in the narrow type, so
// that R's math value is the machine value the extension reads; the check
// says so even where SCEV proved no wrap.
const SCEVAddRecExpr *SymbolicRange::narrowInner(const SCEVAddRecExpr *AR, NarrowForm &Form) {
  if (!AR->isAffine() || !AR->getType()->isIntegerTy())
    return nullptr;
  auto [Br, Cmp] = latchTest(AR->getLoop());
  unsigned WideBits = SE.getTypeSizeInBits(AR->getType());
  if (!Cmp || !Cmp->getOperand(0)->getType()->isIntegerTy() ||
      Cmp->getOperand(0)->getType()->getIntegerBitWidth() >= WideBits || WideBits > 64)
    return nullptr;
  // A trip count that is one value per launch keeps its relation to the
  // start in the wide bound's formula; only one that varies (with the
  // thread or an outer loop) needs the narrow recurrence.
  const SCEV *BTC = SE.getSymbolicMaxBackedgeTakenCount(AR->getLoop());
  if (!isa<SCEVCouldNotCompute>(BTC) && launchInvariant(BTC))
    return nullptr;
  Type *Wide = AR->getType();
  const SCEV *Start = AR->getStart();
  int64_t F = 1;
  if (auto *M = dyn_cast<SCEVMulExpr>(Start); M && M->getNumOperands() == 2)
    if (auto *K = dyn_cast<SCEVConstant>(M->getOperand(0)))
      if (K->getAPInt().getSignificantBits() <= 32 && !K->isZero()) {
        F = K->getAPInt().getSExtValue();
        Start = M->getOperand(1);
      }
  if (!isa<SCEVSignExtendExpr>(Start) && !isa<SCEVZeroExtendExpr>(Start))
    return nullptr;
  auto *X = cast<SCEVCastExpr>(Start);
  bool Signed = isa<SCEVSignExtendExpr>(X);
  const SCEV *S0 = X->getOperand();
  Type *Narrow = S0->getType();
  // F * ext(R) with |F| <= 2^31 and R of at most 32 bits fits in 64.
  if (SE.getTypeSizeInBits(Narrow) > 32)
    return nullptr;
  const SCEV *FW = SE.getConstant(Wide, F, /*isSigned=*/true);
  const SCEV *Step = AR->getStepRecurrence(SE);
  if (F != 1)
    Step = signedQuotient(SE, Step, cast<SCEVConstant>(FW)->getAPInt());
  if (!Step)
    return nullptr;
  const SCEV *T0 = SE.getTruncateExpr(Step, Narrow);
  if (!SE.isLoopInvariant(T0, AR->getLoop()))
    return nullptr;
  auto *Inner =
      dyn_cast<SCEVAddRecExpr>(SE.getAddRecExpr(S0, T0, AR->getLoop(), SCEV::FlagAnyWrap));
  if (!Inner)
    return nullptr;
  const SCEV *Ext = Signed ? SE.getSignExtendExpr(Inner, Wide) : SE.getZeroExtendExpr(Inner, Wide);
  if (SE.getMulExpr(FW, Ext) != AR)
    return nullptr;
  Form = {F, Signed, unsigned(SE.getTypeSizeInBits(Narrow))};
  return Inner;
}

Bounds SymbolicRange::narrowRecurrence(const SCEVAddRecExpr *AR, Ctx &C) {
  NarrowForm Form;
  const SCEVAddRecExpr *Inner = narrowInner(AR, Form);
  if (!Inner)
    return {};
  Bounds B = splitRecurrence(Inner, C);
  if (!B.bounded())
    return {};
  requireInType(B, Form.Bits, Form.Signed, C, Form.Signed && wrapIsUB(Inner));
  return mulBounds({cst(Form.F), cst(Form.F)}, B);
}

const SCEVAddRecExpr *SymbolicRange::narrowLatchInner(const SCEVAddRecExpr *AR, NarrowForm &Form,
                                                       const SCEV *&D) {
  const Loop *L = AR->getLoop();
  auto [Br, Cmp] = latchTest(L);
  Type *Wide = AR->getType();
  if (!Cmp || !AR->isAffine() || !Wide->isIntegerTy() || SE.getTypeSizeInBits(Wide) > 64)
    return nullptr;
  // As in narrowInner: a count that is one value per launch is better kept.
  const SCEV *BTC = SE.getSymbolicMaxBackedgeTakenCount(L);
  if (!isa<SCEVCouldNotCompute>(BTC) && launchInvariant(BTC))
    return nullptr;
  const SCEV *ARStep = AR->getStepRecurrence(SE);
  for (Value *Op : Cmp->operands()) {
    auto *X = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Op));
    if (!X || X->getLoop() != L || !X->isAffine() || !X->getType()->isIntegerTy() ||
        SE.getTypeSizeInBits(X->getType()) > 32 ||
        SE.getTypeSizeInBits(X->getType()) >= SE.getTypeSizeInBits(Wide))
      continue;
    const SCEVAddRecExpr *Pre = preIncrement(SE, L, X);
    for (const SCEVAddRecExpr *Inner : {X, Pre}) {
      if (!Inner)
        continue;
      for (bool Signed : {true, false}) {
        const SCEV *Ext =
            Signed ? SE.getSignExtendExpr(Inner, Wide) : SE.getZeroExtendExpr(Inner, Wide);
        auto *ER = dyn_cast<SCEVAddRecExpr>(Ext);
        if (!ER || ER->getLoop() != L)
          continue;
        const int64_t F = stepRatio(SE, ARStep, ER->getStepRecurrence(SE));
        if (!F)
          continue;
        const SCEV *FE = SE.getMulExpr(SE.getConstant(Wide, F, /*isSigned=*/true), Ext);
        const SCEV *Rest = SE.getMinusSCEV(AR, FE);
        // Only a constant D: with a per-thread D (a row offset) the wide
        // count's bound, with the guards on the row, is usually tighter.
        if (!isa<SCEVConstant>(Rest) || SE.getAddExpr(FE, Rest) != AR)
          continue;
        Form = {F, Signed, unsigned(SE.getTypeSizeInBits(X->getType()))};
        D = Rest;
        return Inner;
      }
    }
  }
  return nullptr;
}

Bounds SymbolicRange::narrowLatchBounds(const SCEVAddRecExpr *AR, Ctx &C) {
  NarrowForm Form;
  const SCEV *D = nullptr;
  const SCEVAddRecExpr *Inner = narrowInner(AR, Form);
  if (!Inner)
    Inner = narrowLatchInner(AR, Form, D);
  if (!Inner)
    return {};
  std::vector<RangeCheck> Scratch;
  std::string Why;
  Ctx Sub{C.At, Scratch, Why, C.Depth};
  bool ByTest = false;
  Bounds B;
  {
    RecordingPaused Aside(Recording);
    B = addRec(Inner, Sub, &ByTest);
  }
  if (!ByTest || !B.bounded())
    return {};
  requireInType(B, Form.Bits, Form.Signed, Sub, Form.Signed && wrapIsUB(Inner));
  Bounds Off{cst(0), cst(0)};
  if (D)
    Off = walk(D, Sub);
  if (!Off.bounded() || failsAlways(Scratch))
    return {};
  addChecks(C, Scratch);
  return addBounds(mulBounds({cst(Form.F), cst(Form.F)}, B), Off);
}

Bounds SymbolicRange::splitRecurrence(const SCEVAddRecExpr *AR, Ctx &C) {
  Bounds B;
  for (const SCEVAddRecExpr *G : guardedRecurrences(AR, C.At, /*SameStep=*/false)) {
    // AR = F * G + D with F = step(AR) / step(G) (e.g. kb*N for a guarded kb).
    const SCEV *F = SE.getOne(AR->getType());
    const SCEV *T = AR->getStepRecurrence(SE), *T2 = G->getStepRecurrence(SE);
    if (T != T2) {
      auto *C2 = dyn_cast<SCEVConstant>(T2);
      if (!C2 || C2->isZero())
        continue;
      F = signedQuotient(SE, T, C2->getAPInt());
      if (!F || SE.getMulExpr(F, T2) != T || !SE.isLoopInvariant(F, AR->getLoop()))
        continue;
    }
    const SCEV *D = SE.getMinusSCEV(AR, SE.getMulExpr(F, G));
    if (isa<SCEVCouldNotCompute>(D) || !SE.isLoopInvariant(D, AR->getLoop()))
      continue;
    Bounds Split = addBounds(mulBounds(walk(G, C), walk(F, C)), walk(D, C));
    B.Lo = greater(B.Lo, Split.Lo);
    B.Hi = lesser(B.Hi, Split.Hi);
  }
  return B;
}

Bounds SymbolicRange::addRecByCount(const SCEVAddRecExpr *AR, Ctx &C, bool *ByTest) {
  if (!AR->isAffine()) {
    if (C.Why.empty())
      C.Why = "index is a non-affine function of a loop counter";
    return {};
  }
  const Loop *L = AR->getLoop();
  unsigned Bits = SE.getTypeSizeInBits(AR->getType());
  Bounds S = walk(AR->getStart(), C);
  Bounds T = walk(AR->getStepRecurrence(SE), C);

  // Iteration count k in [0, maxBTC]. The count is read unsigned, so its
  // bounds must lie in [0, 2^N): for the threads that reach C.At only, which
  // the guards there describe. A thread that a guard keeps out of the loop
  // (j1 >= m - 1 for j2 = j1 + 1 .. m - 1) may have any count; one that runs
  // the loop with a count below 0 as a math value (a huge unsigned one)
  // fails the check, so its launch gets the whole allocation.
  // Its checks are kept apart: where the latch test replaces the count's
  // bound they are not needed, and they can fail at ordinary launches (for
  // `for (long i = tid; i < n; i += G)` the count is (max(tid + G, n) - tid
  // - G) /u G, bounded term by term: "-27 >= 0" at n = 100 on 64 threads).
  std::vector<RangeCheck> KChecks;
  std::string KWhy;
  Ctx KC{C.At, KChecks, KWhy, C.Depth};
  ExprRef KMax;
  const SCEV *BTC = SE.getSymbolicMaxBackedgeTakenCount(L);
  if (!isa<SCEVCouldNotCompute>(BTC)) {
    // Hidden from the memo entries being recorded around this one too: they
    // get the count's checks below, only where its bound is used.
    RecordingPaused Aside(Recording);
    KMax = inType(BTC, /*Signed=*/false, KC).Hi;
  }
  if (!KMax) {
    const SCEV *CM = SE.getConstantMaxBackedgeTakenCount(L);
    if (auto *K = dyn_cast<SCEVConstant>(CM))
      if (K->getAPInt().getActiveBits() < 62)
        KMax = cst(int64_t(K->getAPInt().getZExtValue()));
  }

  Bounds R;
  bool Up = nonNeg(T.Lo), Down = nonPos(T.Hi);
  if (CheckFactorSigns && !Up && !Down && T.bounded() && sameExpr(T.Lo, T.Hi)) {
    // A step of one launch value and unknown sign (`r * ld` over `r +=
    // blockDim.x`): checked >= 0 at launch on regionOf's second try, so that
    // the latch's bounds apply instead of a min/max over both directions.
    addCheck(C, T.Lo, 0, INT64_MAX, /*Assumed=*/false);
    Up = true;
  }
  if (Up) {
    R.Lo = S.Lo;
    R.Hi = KMax ? plus(S.Hi, times(T.Hi, KMax)) : nullptr;
  } else if (Down) {
    R.Hi = S.Hi;
    R.Lo = KMax ? plus(S.Lo, times(T.Lo, KMax)) : nullptr;
  } else if (KMax && T.bounded() && S.bounded()) {
    R.Lo = Expr::smin(S.Lo, Expr::add(S.Lo, Expr::mul(T.Lo, KMax)));
    R.Hi = Expr::smax(S.Hi, Expr::add(S.Hi, Expr::mul(T.Hi, KMax)));
  }

  // The latch test bounds every iteration that continues: for `continue
  // while X < B` with X the post-increment value, every iteration after the
  // first sees X <= B - 1. Induction keeps this exact provided X never
  // wraps, which one check covers: max(hi(start), hi(B) - 1) + step fits.
  bool LatchUsed = false;
  auto [Br, Cmp] = latchTest(L);
  if (Cmp && (Up || Down) && S.bounded() && T.bounded()) {
    CmpInst::Predicate P = Cmp->getPredicate();
    if (Br->getSuccessor(0) != L->getHeader())
      P = CmpInst::getInversePredicate(P);
    const SCEV *A = SE.getSCEV(Cmp->getOperand(0));
    const SCEV *B = SE.getSCEV(Cmp->getOperand(1));
    if (A != AR && A != AR->getPostIncExpr(SE)) {
      std::swap(A, B);
      P = CmpInst::getSwappedPredicate(P);
    }
    bool PostInc = A == AR->getPostIncExpr(SE);
    if ((A == AR || PostInc) && SE.isLoopInvariant(B, L) && P != CmpInst::ICMP_NE &&
        P != CmpInst::ICMP_EQ) {
      bool Signed = isSignedPred(P);
      bool Less = ICmpInst::isLT(P) || ICmpInst::isLE(P);
      bool Strict = ICmpInst::isLT(P) || ICmpInst::isGT(P);
      Bounds BB = inType(B, Signed, C);
      if (Up && Less && BB.Hi) {
        ExprRef Lim = Strict ? Expr::sub(BB.Hi, cst(1)) : BB.Hi;
        if (!PostInc)
          Lim = Expr::add(Lim, T.Hi);
        ExprRef Hi = Expr::smax(S.Hi, Lim);
        addCheck(C, Expr::add(Hi, T.Hi), INT64_MIN, typeMax(Bits, Signed), Signed && Bits >= 32);
        addCheck(C, S.Lo, typeMin(Bits, Signed), INT64_MAX, Signed && Bits >= 32);
        // The latch bound is exact for `i < n` loops and small; a trip-count
        // bound next to it mostly adds size, so it replaces it.
        R.Hi = Hi;
        LatchUsed = true;
        if (!R.Lo)
          R.Lo = S.Lo;
      } else if (Down && !Less && BB.Lo) {
        ExprRef Lim = Strict ? Expr::add(BB.Lo, cst(1)) : BB.Lo;
        if (!PostInc)
          Lim = Expr::add(Lim, T.Lo);
        ExprRef Lo = Expr::smin(S.Lo, Lim);
        addCheck(C, Expr::add(Lo, T.Lo), typeMin(Bits, Signed), INT64_MAX, Signed && Bits >= 32);
        addCheck(C, S.Hi, INT64_MIN, typeMax(Bits, Signed), Signed && Bits >= 32);
        R.Lo = Lo;
        LatchUsed = true;
        if (!R.Hi)
          R.Hi = S.Hi;
      }
    }
  }
  // AR a multiple of the recurrence the latch tests (a 64-bit index and its
  // byte offset): for an increasing AR the latch bound replaces the count's
  // too; elsewhere it only fills a side the count left open.
  if (!LatchUsed && (Up || !R.Lo || !R.Hi)) {
    Bounds Via = viaLatchRecurrence(AR, C);
    // An increasing AR starts lowest: its start's bound is the simpler one.
    if (Up && Via.bounded())
      return {R.Lo ? R.Lo : Via.Lo, Via.Hi};
    if (!R.Lo)
      R.Lo = Via.Lo;
    if (!R.Hi)
      R.Hi = Via.Hi;
  }
  // The count's checks, where its bound is used.
  if (!LatchUsed)
    addChecks(C, KChecks);
  if (ByTest)
    *ByTest = LatchUsed;
  if ((!R.Lo || !R.Hi) && C.Why.empty())
    C.Why = "loop trip count the analysis cannot bound";
  return R;
}

// A latch that goes on while `Y != B` (IndVarSimplify rewrites `i < end`
// so; LLVM's unrolled loops test the next index, or an iteration counter):
// AR's value at the exit bounds the side the count would, without adding a
// per-thread start to a per-thread count term by term.
Bounds SymbolicRange::addRec(const SCEVAddRecExpr *AR, Ctx &C, bool *ByTest) {
  bool CountByTest = false;
  bool UsedExit = false;
  Bounds R = eitherOrBoth(
      [&](Ctx &CC) { return addRecByCount(AR, CC, &CountByTest); },
      [&](Ctx &EC) { return equalityExit(AR, EC); }, C, &UsedExit);
  if (ByTest)
    *ByTest = UsedExit || CountByTest;
  return R;
}

Bounds SymbolicRange::eitherOrBoth(function_ref<Bounds(Ctx &)> First,
                                   function_ref<Bounds(Ctx &)> Second, Ctx &C, bool *UsedSecond) {
  // Checks are evaluated at every launch. One that is assumed because it
  // is about geometry alone (a count that is negative for blockDim > 256)
  // fails at ordinary launches all the same; one assumed because failing
  // it is UB in the kernel does not.
  auto MayFail = [&](const std::vector<RangeCheck> &Ks) {
    unsigned N = 0;
    for (const RangeCheck &K : Ks)
      N += (!K.Assumed || onlyGeometry(K.Value)) &&
           !staticallyWithin(K.Value, K.Min, K.Max, ArgBits);
    return N;
  };
  std::vector<RangeCheck> Checks1, Checks2;
  std::string Why1, Why2;
  Ctx C1{C.At, Checks1, Why1, C.Depth}, C2{C.At, Checks2, Why2, C.Depth};
  Bounds B1, B2;
  {
    RecordingPaused Aside(Recording);
    B1 = First(C1);
    B2 = Second(C2);
  }
  bool Use1 = B1.Lo || B1.Hi, Use2 = B2.bounded();
  if (Use1 && Use2) {
    unsigned Fail1 = MayFail(Checks1), Fail2 = MayFail(Checks2);
    if (Fail1 && Fail1 >= Fail2)
      Use1 = false;
    else if (Fail2)
      Use2 = false;
  }
  Bounds R;
  if (Use1) {
    addChecks(C, Checks1);
    R = B1;
  }
  if (Use2) {
    addChecks(C, Checks2);
    R.Lo = greater(R.Lo, B2.Lo);
    R.Hi = lesser(R.Hi, B2.Hi);
  }
  if (!Use2 && C.Why.empty())
    C.Why = Why1;
  if (UsedSecond)
    *UsedSecond = Use2;
  return R;
}

// `for (i = begin; i != end; i += 4)`, the main loop LLVM's runtime unroller
// makes of `for (i = begin; i < end; ++i)`, and its remainder loop, which
// counts `k != (end - begin) & 3`: the count is (end - begin - 4) / 4 with
// begin and end per thread, and its bound, added term by term to the
// start's, doubles a chunked loop's region and gives a count-down loop
// negative offsets. What the latch says is exact instead. The loop leaves
// only at the latch (its one exiting block), after the number of
// iterations SCEV computes for that exit, E; at the last iteration Y(E) ==
// B. Y must not wrap (nsw, or nuw with B read unsigned): then Y(E) - Y(0)
// is the math difference, and for AR = c * Y + d (c a constant ratio of
// the steps, offsetOver's d), AR(E) = c * B + d in math.
// AR(k) = AR(0) + k * step is monotone in k, so every iteration lies
// between AR(0) and AR(E). That is AR's math value, as addRec's bounds are;
// readers of AR's machine value add their own wrap checks (inType).
Bounds SymbolicRange::equalityExit(const SCEVAddRecExpr *AR, Ctx &C) {
  const Loop *L = AR->getLoop();
  BasicBlock *Latch = L->getLoopLatch();
  if (!AR->isAffine() || !Latch || L->getExitingBlock() != Latch || C.Depth + 2 >= MaxDepth)
    return {};
  auto [Br, Cmp] = latchTest(L);
  if (!Cmp || !Cmp->isEquality() || !SE.isSCEVable(Cmp->getOperand(0)->getType()))
    return {};
  bool Cont0 = Br->getSuccessor(0) == L->getHeader();
  if (Cont0 == (Br->getSuccessor(1) == L->getHeader()))
    return {};
  // The loop must go on while Y != B.
  CmpInst::Predicate P = Cont0 ? Cmp->getPredicate() : Cmp->getInversePredicate();
  if (P != CmpInst::ICMP_NE || isa<SCEVCouldNotCompute>(SE.getExitCount(L, Latch)))
    return {};
  Bounds S = walk(AR->getStart(), C);
  Bounds T = walk(AR->getStepRecurrence(SE), C);
  bool Up = nonNeg(T.Lo), Down = nonPos(T.Hi);
  if (!(Up || Down) || !S.bounded())
    return {};
  const SCEV *ARStep = AR->getStepRecurrence(SE);
  for (unsigned Side = 0; Side < 2; ++Side) {
    auto *Y = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Cmp->getOperand(Side)));
    const SCEV *B = SE.getSCEV(Cmp->getOperand(1 - Side));
    if (!Y || Y->getLoop() != L || !Y->isAffine() || Y->getType() != AR->getType() ||
        !SE.isLoopInvariant(B, L))
      continue;
    bool Signed = Y->hasNoSignedWrap();
    if (!Signed && !Y->hasNoUnsignedWrap() && !shortCounter(Y, SE))
      continue;
    Signed |= !Y->hasNoUnsignedWrap();
    const int64_t Ratio = stepRatio(SE, ARStep, Y->getStepRecurrence(SE));
    const SCEV *D = offsetOver(SE, AR, Y, Ratio);
    if (!D)
      continue;
    const SCEV *CV = SE.getConstant(AR->getType(), Ratio, /*isSigned=*/true);
    // Worked out on the side: a failed attempt leaves no checks behind.
    SideProof P(C.At, C.Depth + 1);
    Bounds Last = aside([&] {
      // B read as Y's machine value (its checks); the sum c * B + d as one
      // SCEV, so that terms of d that B takes away cancel (the remainder
      // loop's exit i + 1 - ((i + 1) & 3) is at least 0).
      return inType(B, Signed, P.Sub).bounded()
                 ? walk(SE.getAddExpr(SE.getMulExpr(CV, B), D), P.Sub)
                 : Bounds{};
    });
    if (!Last.bounded() || failsAlways(P.Checks))
      continue;
    addChecks(C, P.Checks);
    return Up ? Bounds{S.Lo, Last.Hi} : Bounds{Last.Lo, S.Hi};
  }
  return {};
}

// `for (size_t i = tid; i < n; i += blockDim.x * gridDim.x) a[i]`: the
// access's recurrence is the byte offset {4*tid,+,4*step}, the latch tests
// the index {tid,+,step}, and SCEV has no trip count (a symbolic step of
// unsigned i64 values may wrap as far as SCEV can tell). So the latch test
// above, which must compare AR itself, says nothing about AR. Where AR = c * X
// + d for a factor c and the latch's recurrence X of the same loop (pre- or
// post-increment form; offsetOverFactor's d), bound X through its latch
// test (with X's own no-wrap checks) and map: every
// iteration's AR is c times that iteration's X plus the invariant d. c may
// be an invariant of the loop, such as the row stride of a column walk
// `a[i * ld + col]` over `i += blockDim.x`.
Bounds SymbolicRange::viaLatchRecurrence(const SCEVAddRecExpr *AR, Ctx &C) {
  const Loop *L = AR->getLoop();
  auto [Br, Cmp] = latchTest(L);
  if (!Cmp || C.Depth + 2 >= MaxDepth || !AR->isAffine())
    return {};
  const SCEV *ARStep = AR->getStepRecurrence(SE);
  // AR = c * XW + d, XW the latch's recurrence X or X extended to AR's
  // width: bound X through its latch test and map.
  auto Map = [&](const SCEVAddRecExpr *X, const SCEVAddRecExpr *XW, bool Signed, Bounds &Out) {
    // The step factor c: 1, the constant factor of AR's step, or an
    // invariant one (a row stride).
    const SCEV *Factor = stepFactor(SE, ARStep, XW->getStepRecurrence(SE), L);
    const SCEV *D = Factor ? offsetOverFactor(SE, AR, XW, Factor) : nullptr;
    if (!D)
      return false;
    std::string SubWhy; // X's failure is not AR's story
    Ctx Sub{C.At, C.Checks, SubWhy, C.Depth + 1};
    Bounds BX = addRec(X, Sub);
    if (!BX.bounded())
      return false;
    if (X != XW) // XW(k) is X(k) extended so: X(k) must read the same that way
      requireInType(BX, SE.getTypeSizeInBits(X->getType()), Signed, C, Signed && wrapIsUB(X));
    Out = addBounds(productBounds(walk(Factor, C), BX, C), walk(D, C));
    return true;
  };
  for (Value *Operand : Cmp->operands()) {
    auto *Y = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Operand));
    if (!Y || Y == AR || Y->getLoop() != L || !Y->isAffine())
      continue;
    unsigned YBits = SE.getTypeSizeInBits(Y->getType()), ARBits = SE.getTypeSizeInBits(AR->getType());
    if (YBits > ARBits || (YBits < ARBits && !Y->getType()->isIntegerTy()))
      continue;
    // The pre-increment form of Y when the latch tests Y's next value.
    const SCEV *Pre = preIncrement(SE, L, Y);
    for (const SCEV *XS : {Pre, static_cast<const SCEV *>(Y)}) {
      auto *X = dyn_cast<SCEVAddRecExpr>(XS);
      if (!X || X == AR)
        continue;
      Bounds Out;
      if (YBits == ARBits) {
        if (Map(X, X, /*Signed=*/true, Out))
          return Out;
        continue;
      }
      // A 32-bit counter (`for (int k = 0; k < K; k += 16)`) whose accesses
      // SCEV carries as 64-bit recurrences (a row pointer made before the
      // loop, stepped by k): X's extension folds into a recurrence only
      // where SCEV proves X does not wrap, and then XW(k) = ext(X(k)) at
      // every iteration. Without a trip count (a loop with a barrier or a
      // volatile asm) this is the only bound the access has.
      for (bool Signed : {false, true}) {
        const SCEV *Ext = Signed ? SE.getSignExtendExpr(X, AR->getType())
                                 : SE.getZeroExtendExpr(X, AR->getType());
        auto *XW = dyn_cast<SCEVAddRecExpr>(Ext);
        if (XW && XW->getLoop() == L && XW->isAffine() && Map(X, XW, Signed, Out))
          return Out;
      }
    }
  }
  return {};
}

} // namespace gmem



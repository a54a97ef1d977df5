//===- SymbolicRange.cpp - Symbolic bounds of SCEV expressions ------------===//

#include "SymbolicRangeSupport.h"
#include "gmem/passes/GpuTarget.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"

#include <algorithm>
#include <climits>

using namespace llvm;

namespace gmem {
using namespace range_support;

bool staticallyWithin(const ExprRef &E, int64_t Min, int64_t Max,
                      const std::vector<unsigned> &ArgBits) {
  using I128 = __int128;
  const I128 Cap = I128(1) << 120;
  auto Sat = [&](I128 V) { return V > Cap ? Cap : V < -Cap ? -Cap : V; };
  struct R { I128 Lo, Hi; };
  std::function<R(const Expr &)> Go = [&](const Expr &X) -> R {
    switch (X.op()) {
    case ExprOp::Const: return {X.constant(), X.constant()};
    case ExprOp::Var: {
      Var V = X.var();
      if (V.Kind == VarKind::GridDim) return {1, INT32_MAX};
      if (V.Kind == VarKind::BlockDim) return {1, 1024};
      unsigned W = V.Kind == VarKind::ArgField ? 8 * V.fieldBytes()
                   : V.Index < ArgBits.size()    ? ArgBits[V.Index]
                                                 : 64;
      if (W == 0 || W > 64) W = 64;
      return {-(I128(1) << (W - 1)), (I128(1) << (W - 1)) - 1};
    }
    default: break;
    }
    R Acc = Go(*X.operands()[0]);
    for (size_t I = 1; I < X.operands().size(); ++I) {
      R O = Go(*X.operands()[I]);
      switch (X.op()) {
      case ExprOp::Add: Acc = {Sat(Acc.Lo + O.Lo), Sat(Acc.Hi + O.Hi)}; break;
      case ExprOp::Mul: {
        I128 C[4] = {Sat(Acc.Lo * O.Lo), Sat(Acc.Lo * O.Hi), Sat(Acc.Hi * O.Lo), Sat(Acc.Hi * O.Hi)};
        Acc = {*std::min_element(C, C + 4), *std::max_element(C, C + 4)};
        break;
      }
      case ExprOp::SMin: Acc = {std::min(Acc.Lo, O.Lo), std::min(Acc.Hi, O.Hi)}; break;
      case ExprOp::SMax: Acc = {std::max(Acc.Lo, O.Lo), std::max(Acc.Hi, O.Hi)}; break;
      case ExprOp::UDiv: Acc = {0, std::max<I128>(Acc.Hi, 0)}; break;
      case ExprOp::SDiv: {
        I128 M = std::max(Acc.Hi, -Acc.Lo);
        Acc = {-M, M};
        break;
      }
      default: return {-Cap, Cap};
      }
    }
    return Acc;
  };
  R B = Go(*E);
  return B.Lo >= Min && B.Hi <= Max;
}

SymbolicRange::SymbolicRange(Function &F, ScalarEvolution &SE, DominatorTree &DT, LoopInfo &LI)
    : F(F), SE(SE), DT(DT), LI(LI) {
  for (Argument &A : F.args())
    ArgBits.push_back(A.getType()->isIntegerTy() ? A.getType()->getIntegerBitWidth() : 64);
}

bool SymbolicRange::launchInvariant(const SCEV *S) const {
  return !SCEVExprContains(S, [&](const SCEV *X) {
    if (isa<SCEVAddRecExpr>(X))
      return true;
    auto *U = dyn_cast<SCEVUnknown>(X);
    if (!U)
      return false;
    const Value *V = U->getValue();
    if (auto G = classifyGeometry(V))
      return G->Kind != GeometryKind::BlockDim && G->Kind != GeometryKind::GridDim;
    if (auto PF = matchParamField(V); PF && !PF->IsPointer)
      return false;
    auto *A = dyn_cast<Argument>(V);
    return !A || A->getParent() != &F || !A->getType()->isIntegerTy();
  });
}

bool range_support::onlyGeometry(const ExprRef &E) {
  if (E->op() == ExprOp::Var)
    return E->var().Kind == VarKind::GridDim || E->var().Kind == VarKind::BlockDim;
  for (const ExprRef &O : E->operands())
    if (!onlyGeometry(O))
      return false;
  return true;
}

void SymbolicRange::addCheck(Ctx &C, const ExprRef &E, int64_t Min, int64_t Max, bool Assumed) {
  if (!E || staticallyWithin(E, Min, Max, ArgBits))
    return;
  // What the launch assumption (fewer than 2^31 threads per dimension) buys
  // is the 32-bit fit of sizes like blockDim.x*gridDim.x - 1: an upper bound
  // of at least INT32_MAX on geometry alone. Not a constant (a check not
  // statically within its range fails at every launch), nor a lower bound
  // or a narrow type's limit (`threadIdx.x <= 15` for a 5-bit truncation):
  // ordinary launches fail those.
  Assumed |= onlyGeometry(E) && !E->isConst() && Min == INT64_MIN && Max >= INT32_MAX;
  for (std::vector<RangeCheck> *R : Recording)
    R->push_back({E, Min, Max, Assumed});
  // A check already there on the same value that is at least as narrow
  // implies this one. (A wider one does not: `stride >= -2^31` from a
  // truncation took the place of `stride >= 0`, and a launch with stride =
  // -1 kept a bound that needed it.)
  for (RangeCheck &R : C.Checks)
    if (sameExpr(R.Value, E) && R.Min >= Min && R.Max <= Max) {
      R.Assumed &= Assumed; // one semantic use makes it semantic
      return;
    }
  C.Checks.push_back({E, Min, Max, Assumed});
}

void SymbolicRange::requireInType(const Bounds &B, unsigned Bits, bool Signed, Ctx &C,
                                  bool WrapIsUB) {
  // A wrap of a 32/64-bit value computed in signed arithmetic is C's signed
  // overflow (UB); a wrap of an unsigned or narrower value, of unsigned
  // arithmetic read as signed (`(int)(ua + ub)`), or a truncation is
  // something a correct program may do, and must be checked.
  bool Assumed = Signed && Bits >= 32 && WrapIsUB;
  if (B.Lo)
    addCheck(C, B.Lo, typeMin(Bits, Signed), INT64_MAX, Assumed);
  if (B.Hi)
    addCheck(C, B.Hi, INT64_MIN, typeMax(Bits, Signed), Assumed);
}

bool SymbolicRange::wrapIsUB(const SCEV *S) {
  if (!NswScanned) {
    NswScanned = true;
    auto Note = [&](const Instruction &I, bool Nsw) {
      auto [It, New] = NswComputed.try_emplace(SE.getSCEV(const_cast<Instruction *>(&I)), Nsw);
      if (!New)
        It->second = It->second && Nsw;
    };
    for (const Instruction &I : instructions(F)) {
      if (!I.getType()->isIntegerTy() || !SE.isSCEVable(I.getType()))
        continue;
      if (const auto *O = dyn_cast<OverflowingBinaryOperator>(&I)) {
        Note(I, O->hasNoSignedWrap());
      } else if (const auto *Phi = dyn_cast<PHINode>(&I)) {
        // An induction variable: its values past the start are the latch's
        // increment.
        const Loop *L = LI.getLoopFor(Phi->getParent());
        const BasicBlock *Latch =
            L && L->getHeader() == Phi->getParent() ? L->getLoopLatch() : nullptr;
        if (!Latch || !isa<SCEVAddRecExpr>(SE.getSCEV(const_cast<PHINode *>(Phi))))
          continue;
        auto *Inc = dyn_cast<OverflowingBinaryOperator>(
            const_cast<PHINode *>(Phi)->getIncomingValueForBlock(Latch));
        Note(I, Inc && Inc->hasNoSignedWrap());
      }
    }
  }
  auto It = NswComputed.find(S);
  return It != NswComputed.end() && It->second;
}

Bounds SymbolicRange::inType(const SCEV *S, bool Signed, Ctx &C) {
  Bounds B = walk(S, C);
  unsigned Bits = SE.getTypeSizeInBits(S->getType());
  // A min/max of the other signedness (`(int)max(rows, (unsigned)(lane -
  // v))`) was bounded in its own reading; SCEV's no-wrap flags on it say
  // nothing about this one. Its bounds hold here only while the value lies
  // in this reading's range too (an unsigned max above INT32_MAX is a
  // negative int): checked, and never assumed (that conversion is no UB).
  const bool UnsignedMinMax = isa<SCEVUMaxExpr>(S) || isa<SCEVUMinExpr>(S) ||
                              isa<SCEVSequentialUMinExpr>(S);
  const bool SignedMinMax = isa<SCEVSMaxExpr>(S) || isa<SCEVSMinExpr>(S);
  if (Bits < 63 && ((UnsignedMinMax && Signed) || (SignedMinMax && !Signed))) {
    if (!B.bounded())
      return {};
    addCheck(C, B.Lo, typeMin(Bits, Signed), INT64_MAX, /*Assumed=*/false);
    addCheck(C, B.Hi, INT64_MIN, typeMax(Bits, Signed), /*Assumed=*/false);
    return B;
  }
  auto *NA = dyn_cast<SCEVNAryExpr>(S);
  bool NoWrap = NA && (Signed ? NA->hasNoSignedWrap() : NA->hasNoUnsignedWrap());
  // Machine values (parameters, loads, geometry) are in their type already.
  bool Machine = isa<SCEVUnknown>(S) || isa<SCEVConstant>(S);
  // (Narrow types keep their whole range below instead.)
  if (isa<SCEVUnknown>(S) && Bits > 16) {
    // Read unsigned, a machine value that may be negative (`umin(ids[i],
    // v - 1)` of an int loaded from memory) is its bit pattern, >= 0 with
    // no check to fail. Its top, 2^Bits - 1, bounds no region: left open,
    // so that a min takes its other operand's.
    if (!Signed && (!B.Lo || (B.Lo->isConst() && B.Lo->constant() < 0)))
      return {cst(0), nullptr};
    // A machine value bounded on one side (a guard or a select's condition:
    // `x < 0 ? 0 : min(x, w - 1)` of an x loaded from memory) is that bound.
    if (!B.bounded() && (B.Lo || B.Hi)) {
      if (!Signed)
        requireInType(B, Bits, Signed, C, /*WrapIsUB=*/false);
      return B;
    }
  }
  if (B.bounded()) {
    if (!NoWrap && !(Machine && Signed))
      requireInType(B, Bits, Signed, C, Signed && wrapIsUB(S));
    return B;
  }
  // A recurrence whose later values passed its loop's latch test (`int i`
  // under `i < n` with size_t n): bounds of the reading itself.
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(S))
    if (std::optional<Bounds> R = latchReading(AR, Signed, C))
      return *R;
  // One side unbounded: the mathematical value says nothing about the
  // machine value unless SCEV proves no wrap. The interpreted value still
  // lies in the type, which only helps for narrow types (a byte is <= 255).
  // An extension's value is its operand's reading, which natural() bounded
  // in the operand's type: one side of it is still a bound (`umin(zext
  // ids[i], v - 1)` takes its top from v).
  if ((B.Lo || B.Hi) && (isa<SCEVZeroExtendExpr>(S) || (Signed && isa<SCEVSignExtendExpr>(S))))
    return B;
  if (NoWrap && Bits < 63) {
    if (!B.Lo) B.Lo = cst(typeMin(Bits, Signed));
    if (!B.Hi) B.Hi = cst(typeMax(Bits, Signed));
    return B;
  }
  if (Bits <= 16)
    return {cst(typeMin(Bits, Signed)), cst(typeMax(Bits, Signed))};
  return {};
}

Bounds SymbolicRange::bounds(const SCEV *S, const Instruction *At, std::vector<RangeCheck> &Checks,
                             std::string &Why) {
  Ctx C{At, Checks, Why, 0};
  return walk(S, C);
}

ExprRef SymbolicRange::invariantExpr(const SCEV *S) {
  std::vector<RangeCheck> Checks;
  std::string Why;
  Ctx C{nullptr, Checks, Why, MaxDepth - 4}; // no guards
  Bounds B = walk(S, C);
  if (B.bounded() && sameExpr(B.Lo, B.Hi) && Checks.empty())
    return B.Lo;
  return nullptr;
}

Bounds SymbolicRange::walk(const SCEV *S, Ctx &C) {
  if (C.Depth > MaxDepth) {
    if (C.Why.empty())
      C.Why = "index expression too deep";
    return {};
  }
  // Guards make bounds of one SCEV recur inside bounds of others; without
  // this memo some kernels took hundreds of milliseconds. A cached bound is
  // valid at any depth (depth only limits how many guards are used).
  auto Key = std::make_pair(S, C.At ? C.At->getParent() : nullptr);
  const bool Memoise = SelectFacts.empty();
  if (auto It = Memoise ? Memo.find(Key) : Memo.end(); It != Memo.end()) {
    addChecks(C, It->second.Checks);
    if (C.Why.empty())
      C.Why = It->second.Why;
    return It->second.B;
  }
  std::vector<RangeCheck> Used;
  std::string WhyBefore = C.Why;
  Recording.push_back(&Used);
  ++C.Depth;
  Bounds B = natural(S, C);
  if (C.At && C.Depth < GuardDepth)
    B = applyGuards(S, B, C);
  // A bitwise operation's operands bound it only where guards did not (a
  // butterfly `p = i ^ j` under `p < n` needs no check on j).
  if (!B.bounded() && C.Depth + 2 < MaxDepth)
    if (auto *U = dyn_cast<SCEVUnknown>(S))
      if (auto *BO = dyn_cast<BinaryOperator>(U->getValue()))
        if (std::optional<Bounds> W = bitwiseBounds(BO, C)) {
          B.Lo = B.Lo ? B.Lo : W->Lo;
          B.Hi = B.Hi ? B.Hi : W->Hi;
        }
  // Nothing above bounds S (`ids[i] >> 22`, `h & mask` of a hash): what
  // SCEV knows of S's machine value. The nodes above S keep their own wrap
  // checks, so reading S as an opaque machine value is sound wherever it
  // sits; only a fully open S is replaced (a one-sided symbolic bound is of
  // no use to a region).
  if (!B.bounded())
    if (std::optional<Bounds> M = machineRange(S))
      B = *M;
  --C.Depth;
  Recording.pop_back();
  if (Memoise)
    Memo[Key] = {B, std::move(Used), C.Why != WhyBefore ? C.Why : std::string()};
  return B;
}

Bounds SymbolicRange::natural(const SCEV *S, Ctx &C) {
  switch (S->getSCEVType()) {
  case scConstant: {
    const APInt &V = cast<SCEVConstant>(S)->getAPInt();
    if (V.getSignificantBits() > 64)
      return {};
    return {cst(V.getSExtValue()), cst(V.getSExtValue())};
  }
  case scTruncate: {
    auto *T = cast<SCEVTruncateExpr>(S);
    Bounds B = walk(T->getOperand(), C);
    requireInType(B, SE.getTypeSizeInBits(T->getType()), /*Signed=*/true, C,
                  /*WrapIsUB=*/false); // a truncation is no overflow
    return B;
  }
  case scZeroExtend:
  case scSignExtend: {
    auto *E = cast<SCEVCastExpr>(S);
    bool Signed = S->getSCEVType() == scSignExtend;
    // An extended narrow value (a mask such as i & 255 or (unsigned char)x,
    // which SCEV writes ext(trunc x) or ext(7 * trunc x)) is always inside
    // its narrow type. Keep the operand's own bounds only when they fit
    // statically without checks; otherwise the type's range, check-free.
    const SCEV *Op = E->getOperand();
    unsigned OpBits = SE.getTypeSizeInBits(Op->getType());
    // zext(trunc x) with x >= 0 is x mod 2^k <= min(x, 2^k - 1).
    if (!Signed && OpBits < 63)
      if (auto *T = dyn_cast<SCEVTruncateExpr>(Op)) {
        Bounds X = walk(T->getOperand(), C);
        if (nonNeg(X.Lo) && X.Hi)
          return {cst(0), Expr::smin(X.Hi, cst(typeMax(OpBits, false)))};
      }
    // sext(trunc x) to 28 bits or more is how SCEV reads `(x << 2) >> 2`
    // (`i / 4` of a 4 * gid computed in unsigned arithmetic, ashr exact):
    // no mask, just x where x fits, and a type range of +-2^27 elements or
    // more bounds nothing useful. There x's bounds, checked to fit (below).
    const bool WideSignedTrunc = Signed && OpBits >= 28 && isa<SCEVTruncateExpr>(Op);
    if (OpBits <= 16 || (isa<SCEVTruncateExpr>(Op) && !WideSignedTrunc)) {
      unsigned Bits = OpBits;
      // A narrow recurrence its latch tests (`short i` under `i < n`):
      // the test's bounds on the reading, within the type's.
      if (auto *AR = dyn_cast<SCEVAddRecExpr>(Op); AR && Bits < 63)
        if (std::optional<Bounds> R = latchReading(AR, Signed, C))
          return {greater(R->Lo, cst(typeMin(Bits, Signed))),
                  lesser(R->Hi, cst(typeMax(Bits, Signed)))};
      std::vector<RangeCheck> Scratch;
      std::string Ignored;
      Ctx Sub{C.At, Scratch, Ignored, C.Depth + 1};
      Bounds X;
      {
        // Not the checks of the memo entries being recorded around this
        // one: a bound that needs checks is not used here.
        RecordingPaused Aside(Recording);
        X = walk(Op, Sub);
      }
      if (X.bounded() && Scratch.empty() &&
          staticallyWithin(X.Lo, typeMin(Bits, Signed), typeMax(Bits, Signed), ArgBits) &&
          staticallyWithin(X.Hi, typeMin(Bits, Signed), typeMax(Bits, Signed), ArgBits))
        return X;
      if (Bits < 63)
        return {cst(typeMin(Bits, Signed)), cst(typeMax(Bits, Signed))};
    }
    return inType(E->getOperand(), Signed, C);
  }
  case scAddExpr: {
    Bounds Acc{cst(0), cst(0)};
    SmallVector<const SCEV *, 8> Rest;
    for (const SCEV *Op : cast<SCEVAddExpr>(S)->operands())
      Rest.push_back(Op);
    const bool Rounded = takeRoundedDown(S, Rest, Acc, C);
    if (!Rounded && C.Depth + 2 < MaxDepth) {
      if (std::optional<Bounds> R = unsignedRemainder(cast<SCEVAddExpr>(S), C))
        return *R;
      if (std::optional<Bounds> R = signedRemainder(cast<SCEVAddExpr>(S), C))
        return *R;
    }
    // SCEV flattens sums, so a guarded index `c` inside `r*N + c` is no
    // node of its own: split out every guarded sub-sum first.
    if (C.At && C.Depth < GuardDepth)
      for (const GuardedPart &Part : guardedSubSums(S, C.At)) {
        if (!removeOperands(Rest, Part.Ops))
          continue;
        // Scale * ext(X) + Offset: X bounded with its guard; an extension
        // reads X in its type (checks say so unless SCEV proved no wrap).
        Bounds X = Part.Ext == 0 ? walk(Part.Guarded, C) : inType(Part.Guarded, Part.Ext == 1, C);
        Bounds K{cst(Part.Scale), cst(Part.Scale)};
        Acc = addBounds(Acc, mulBounds(K, X));
        Acc = addBounds(Acc, {cst(Part.Offset), cst(Part.Offset)});
      }
    for (const SCEV *Op : Rest)
      Acc = addBounds(Acc, walk(Op, C));
    return Acc;
  }
  case scMulExpr: {
    Bounds Acc{cst(1), cst(1)};
    for (const SCEV *Op : cast<SCEVMulExpr>(S)->operands()) {
      Bounds B = walk(Op, C);
      Acc = productBounds(Acc, B, C);
    }
    return Acc;
  }
  case scUDivExpr: {
    auto *D = cast<SCEVUDivExpr>(S);
    Bounds A = inType(D->getLHS(), false, C);
    Bounds B = inType(D->getRHS(), false, C);
    if (!B.Lo)
      return {};
    addCheck(C, B.Lo, 1, INT64_MAX, /*Assumed=*/true); // division by zero is UB
    return unsignedQuotient(A, B);
  }
  case scAddRecExpr: {
    auto *AR = cast<SCEVAddRecExpr>(S);
    // A wide recurrence over a narrow one that the latch tests: the test
    // bounds the narrow one, where the wide trip count, a per-thread end
    // minus a per-thread start, is bounded term by term with checks that
    // fail at ordinary launches.
    Bounds B = eitherOrBoth([&](Ctx &WC) { return addRec(AR, WC); },
                            [&](Ctx &NC) { return narrowLatchBounds(AR, NC); }, C, nullptr);
    if (C.At && C.Depth < GuardDepth) {
      Bounds Split = splitRecurrence(AR, C);
      Bounds Narrow = narrowRecurrence(AR, C);
      B.Lo = greater(greater(B.Lo, Split.Lo), Narrow.Lo);
      B.Hi = lesser(lesser(B.Hi, Split.Hi), Narrow.Hi);
    }
    return B;
  }
  case scUMaxExpr:
  case scSMaxExpr:
  case scUMinExpr:
  case scSMinExpr:
  case scSequentialUMinExpr: {
    auto *MM = cast<SCEVNAryExpr>(S);
    bool Signed = S->getSCEVType() == scSMaxExpr || S->getSCEVType() == scSMinExpr;
    bool IsMax = S->getSCEVType() == scUMaxExpr || S->getSCEVType() == scSMaxExpr;
    Bounds R;
    bool First = true;
    for (const SCEV *Op : MM->operands()) {
      Bounds B = inType(Op, Signed, C);

      if (First) {
        R = B;
        First = false;
        continue;
      }
      if (IsMax) {
        R.Lo = R.Lo && B.Lo ? Expr::smax(R.Lo, B.Lo) : (R.Lo ? R.Lo : B.Lo);
        R.Hi = R.Hi && B.Hi ? Expr::smax(R.Hi, B.Hi) : nullptr;
      } else {
        R.Lo = R.Lo && B.Lo ? Expr::smin(R.Lo, B.Lo) : nullptr;
        R.Hi = R.Hi && B.Hi ? Expr::smin(R.Hi, B.Hi) : (R.Hi ? R.Hi : B.Hi);
      }
    }
    return R;
  }
  case scUnknown:
    return unknown(cast<SCEVUnknown>(S), C);
  case scPtrToInt:
    if (C.Why.empty())
      C.Why = "pointer value used as an integer";
    return {};
  default:
    if (C.Why.empty())
      C.Why = "index expression the analysis cannot bound";
    return {};
  }
}

Bounds SymbolicRange::unknown(const SCEVUnknown *U, Ctx &C) {
  Value *V = U->getValue();
  if (auto G = classifyGeometry(V)) {
    unsigned D = G->Dim;
    switch (G->Kind) {
    case GeometryKind::ThreadIdx:
      return {cst(0), Expr::sub(Expr::variable(Var::blockDim(D)), cst(1))};
    case GeometryKind::BlockIdx:
      return {cst(0), Expr::sub(Expr::variable(Var::gridDim(D)), cst(1))};
    case GeometryKind::BlockDim:
      return {Expr::variable(Var::blockDim(D)), Expr::variable(Var::blockDim(D))};
    case GeometryKind::GridDim:
      return {Expr::variable(Var::gridDim(D)), Expr::variable(Var::gridDim(D))};
    case GeometryKind::LaneId:
      return {cst(0), cst(63)};
    }
  }
  if (auto PF = matchParamField(V); PF && !PF->IsPointer) {
    ExprRef E = Expr::variable(Var::argField(PF->Param, PF->Offset, PF->Bytes));
    return {E, E};
  }
  if (auto *A = dyn_cast<Argument>(V)) {
    if (A->getParent() == &F && A->getType()->isIntegerTy() &&
        A->getType()->getIntegerBitWidth() <= 64) {
      ExprRef E = Expr::variable(Var::arg(A->getArgNo()));
      return {E, E};
    }
  }
  // A phi that is not an induction variable (e.g. the exit value of an
  // unrolled loop's main part feeding its remainder): hull of its inputs,
  // each bounded with the facts that hold on its incoming edge.
  if (auto *Phi = dyn_cast<PHINode>(V)) {
    Loop *L = LI.getLoopFor(Phi->getParent());
    bool IsHeader = L && L->getHeader() == Phi->getParent();
    if (!IsHeader && C.Depth + 2 < MaxDepth && Phi->getNumIncomingValues() <= 8) {
      Bounds R;
      bool First = true;
      for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I) {
        Value *In = Phi->getIncomingValue(I);
        if (!SE.isSCEVable(In->getType()))
          return {};
        Ctx Sub{Phi->getIncomingBlock(I)->getTerminator(), C.Checks, C.Why, C.Depth + 1};
        Bounds B = walk(SE.getSCEV(In), Sub);
        R = First ? B : Bounds{R.Lo && B.Lo ? Expr::smin(R.Lo, B.Lo) : nullptr,
                               R.Hi && B.Hi ? Expr::smax(R.Hi, B.Hi) : nullptr};
        First = false;
      }
      return R;
    }
  }
  if (auto *Phi = dyn_cast<PHINode>(V))
    if (std::optional<Bounds> B = latchPhi(Phi, C))
      return *B;
  if (auto *Sel = dyn_cast<SelectInst>(V)) {
    if (SE.isSCEVable(Sel->getType()) && C.Depth + 2 < MaxDepth) {
      // Each arm under its side of the condition: a clamp such as
      // `t < 0 ? 0 : (t < v ? t : v - 1)` bounds t by both comparisons.
      auto Arm = [&](Value *X, bool Holds) {
        size_t Mark = SelectFacts.size();
        conditionFacts(Sel->getCondition(), Holds, SelectFacts);
        Bounds R = walk(SE.getSCEV(X), C);
        SelectFacts.resize(Mark);
        return R;
      };
      Bounds A = Arm(Sel->getTrueValue(), true);
      Bounds B = Arm(Sel->getFalseValue(), false);
      return {A.Lo && B.Lo ? Expr::smin(A.Lo, B.Lo) : nullptr,
              A.Hi && B.Hi ? Expr::smax(A.Hi, B.Hi) : nullptr};
    }
  }
  if (auto *BO = dyn_cast<BinaryOperator>(V); BO && C.Depth + 2 < MaxDepth)
    if (std::optional<Bounds> B = signedDivision(BO, C))
      return *B;
  if (auto *Fr = dyn_cast<FreezeInst>(V); Fr && C.Depth + 2 < MaxDepth && poisonOnlyByFlags(Fr))
    return walk(SE.getSCEV(Fr->getOperand(0)), C);
  if (C.Depth + 2 < MaxDepth)
    if (std::optional<Bounds> B = floatToInt(V, C))
      return *B;
  // Anything else: only what SCEV's constant ranges say (e.g. a zero-extended
  // byte loaded from memory is in [0, 255]).
  if (C.Why.empty())
    C.Why = isa<LoadInst>(V)     ? "index depends on a value loaded from memory"
            : isa<CallBase>(V)   ? "index depends on the result of a call"
            : isa<PHINode>(V)    ? "index depends on a loop-carried value that is not an induction"
                                 : "index depends on a value the analysis cannot bound";
  // A whole 32-bit range still bounds the operand of an extension here.
  return machineRange(U, /*WholeWords=*/true).value_or(Bounds{});
}

std::optional<Bounds> SymbolicRange::unsignedRemainder(const SCEVAddExpr *S, Ctx &C) {
  // A scaled remainder k * (x % m) inside a larger sum (`row * n + h % m`,
  // times the element size) reads k*x + (-k) * (x /u m) * m, every term
  // flattened into S: find the term (-k) * (x /u m) * m, then the terms of
  // k*x among the others.
  // A constant divisor d is folded into the factor: (-k*d) * (x /u d).
  for (const SCEV *Op : S->operands()) {
    auto *M = dyn_cast<SCEVMulExpr>(Op);
    if (!M || (M->getNumOperands() != 3 && M->getNumOperands() != 2))
      continue;
    auto *NegK = dyn_cast<SCEVConstant>(M->getOperand(0));
    if (!NegK || !NegK->getAPInt().isNegative() || NegK->getAPInt().getSignificantBits() > 32)
      continue;
    int64_t K = -NegK->getAPInt().getSExtValue();
    const SCEVUDivExpr *D = nullptr;
    const SCEV *Other = nullptr;
    for (unsigned I = 1; I < M->getNumOperands(); ++I) {
      if (auto *U = dyn_cast<SCEVUDivExpr>(M->getOperand(I)); U && !D)
        D = U;
      else
        Other = M->getOperand(I);
    }
    if (!D)
      continue;
    if (M->getNumOperands() == 2) {
      auto *Dc = dyn_cast<SCEVConstant>(D->getRHS());
      if (!Dc || !Dc->getAPInt().isStrictlyPositive() || Dc->getAPInt().getActiveBits() > 32 ||
          K % int64_t(Dc->getAPInt().getZExtValue()) != 0)
        continue;
      K /= int64_t(Dc->getAPInt().getZExtValue());
    } else if (Other != D->getRHS()) {
      continue;
    }
    const SCEV *KX = SE.getMulExpr(SE.getConstant(S->getType(), K), D->getLHS());
    SmallVector<const SCEV *, 8> Rest(S->operands().begin(), S->operands().end());
    Rest.erase(llvm::find(Rest, Op));
    SmallVector<const SCEV *, 8> Need;
    if (auto *A = dyn_cast<SCEVAddExpr>(KX))
      Need.append(A->operands().begin(), A->operands().end());
    else
      Need.push_back(KX);
    bool All = true;
    for (const SCEV *T : Need) {
      auto It = llvm::find(Rest, T);
      if (It == Rest.end()) {
        All = false;
        break;
      }
      Rest.erase(It);
    }
    if (!All)
      continue;
    Bounds Xb = inType(D->getLHS(), /*Signed=*/false, C);
    Bounds Mb = inType(D->getRHS(), /*Signed=*/false, C);
    if (!Mb.Lo)
      return std::nullopt;
    addCheck(C, Mb.Lo, 1, INT64_MAX, /*Assumed=*/true); // division by zero is UB
    ExprRef Hi = lesser(Xb.Hi, Mb.Hi ? Expr::sub(Mb.Hi, cst(1)) : nullptr);
    if (!Hi)
      return std::nullopt;
    Bounds Acc = mulBounds({cst(K), cst(K)}, {cst(0), Hi});
    for (const SCEV *T : Rest)
      Acc = addBounds(Acc, walk(T, C));
    return Acc;
  }
  return std::nullopt;
}

std::optional<Bounds> SymbolicRange::machineRange(const SCEV *S, bool WholeWords) {
  if (!S->getType()->isIntegerTy())
    return std::nullopt;
  ConstantRange CR = SE.getSignedRange(S);
  if (CR.isFullSet() || CR.getBitWidth() > 64)
    return std::nullopt;
  int64_t Lo = CR.getSignedMin().getSExtValue(), Hi = CR.getSignedMax().getSExtValue();
  // A whole 32-bit type (an extended int loaded from memory) bounds nothing
  // a region can use; saying why it failed reads better than +-8 GiB.
  if (!WholeWords && (Lo < 0 ? Hi >= 0 && uint64_t(Hi) + uint64_t(-(Lo + 1)) >= 0xFFFFFFFEull
                             : uint64_t(Hi - Lo) >= 0xFFFFFFFFull))
    return std::nullopt;
  return Bounds{cst(Lo), cst(Hi)};
}

} // namespace gmem

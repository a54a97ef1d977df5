//===- CheckpointLoopSite.cpp - Latch forms and induction variables -------===//
//
// How a loop checkpoint site counts its iterations (CheckpointLoopSite.h):
// the induction variable, the latch form the Limit kind strip-mines by, the
// short-entry test of its unchecked copy, its K at the entry of a nest, and
// what decides whether it is paced (a grid-stride step, a memory-free body).
//
//===----------------------------------------------------------------------===//

#include "CheckpointLoopSite.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/IntrinsicInst.h"

#include <cstdlib>

using namespace llvm;

namespace gmem::ckpt {

bool isMinMaxForm(LatchForm F) {
  return F == LatchForm::MinSigned || F == LatchForm::MinUnsigned ||
         F == LatchForm::MaxSigned || F == LatchForm::MaxUnsigned;
}

/// The min/max intrinsic that picks, of two limits, the one the loop
/// reaches first.
Intrinsic::ID nearerOf(LatchForm F) {
  return F == LatchForm::MinSigned     ? Intrinsic::smin
         : F == LatchForm::MinUnsigned ? Intrinsic::umin
         : F == LatchForm::MaxSigned   ? Intrinsic::smax
                                       : Intrinsic::umax;
}

/// Site S's K at the loop's entry where its subloops' trip counts are
/// known there (CheckpointLoopNest.cpp): the static guess for a subloop
/// bounded by a kernel argument says "long" and made the loop check every
/// iteration.
Value *dynamicK(const Site &S, LoopInfo &LI, ScalarEvolution &SE, unsigned Budget) {
  if (S.Barrier || !S.IV || !isMinMaxForm(S.Form) || envSaysOff("GMEM_CHECKPOINT_NEST"))
    return nullptr;
  // A grid-stride loop takes no K from its nest's counted work: it keeps
  // the static rule (a check every trip where its weight is over the
  // budget, as im2col's; else the clock pace of grid-stride loops). The
  // count is of instructions, not of the memory latency a grid-stride trip
  // waits on: im2col's 3x3 nest checked ~2-3 trips of ~5 us apart with the
  // counted K (stop P99 14 us after the write on the H200), 6.4 us with a
  // check every trip, its overhead as launched unchanged
  // (bench/preempt/results/session35). GMEM_CHECKPOINT_NEST=counted gives
  // such loops the counted K again.
  const char *V = std::getenv("GMEM_CHECKPOINT_NEST");
  if (!(V && StringRef(V) == "counted") && stridesByGrid(S.Step))
    return nullptr;
  return emitDynamicK(*S.L, LI, SE, Budget, S.Step->getType());
}

/// The site's exit test in the terms of CheckpointLoopVersion.cpp; Kind
/// None where its short entries cannot be told (no Limit form, a step that
/// is not a constant, or a loop that checks every iteration anyway).
ShortEntryTest shortEntryTest(const Site &S, unsigned Budget) {
  ShortEntryTest T;
  auto *C = dyn_cast_or_null<ConstantInt>(S.Step);
  if (S.NeverDue || S.Barrier || !S.IV || !C || S.Weight >= Budget || S.Form == LatchForm::None)
    return T;
  T.Kind = S.Form == LatchForm::NeUp || S.Form == LatchForm::NeDown ? ShortEntryTest::Equality
           : CmpInst::isSigned(S.ContPred)                          ? ShortEntryTest::Signed
                                                                    : ShortEntryTest::Unsigned;
  T.ContPred = S.ContPred;
  T.Bound = S.Bound;
  T.Step = C;
  T.Steps = 2 * uint64_t(S.K);
  return T;
}

/// The latch continues while `IVNext pred N` (N loop-invariant): which
/// limit the segment may use instead of N (see Builder::checkLatch).
void matchLimit(Site &S) {
  // Default since the strip-mined form (stripMine); GMEM_CHECKPOINT_LIMIT=0
  // keeps the IV kind. Measured on the H200 (bench/preempt/results/parts/
  // strip-limit): geomean overhead +14.0% -> +12.1% against the IV kind in
  // one run; the earlier unsplit Limit kind was slower than IV (+17.1% vs
  // +13.7%) because ptxas would not unroll a loop whose bound was a phi.
  const char *Env = std::getenv("GMEM_CHECKPOINT_LIMIT");
  if (!S.IV || (Env && StringRef(Env) == "0"))
    return;
  auto *Br = dyn_cast<BranchInst>(S.Latches.front()->getTerminator());
  if (!Br || !Br->isConditional())
    return;
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp)
    return;
  CmpInst::Predicate P = Cmp->getPredicate();
  Value *N;
  if (Cmp->getOperand(0) == S.IVNext) {
    N = Cmp->getOperand(1);
  } else if (Cmp->getOperand(1) == S.IVNext) {
    N = Cmp->getOperand(0);
    P = CmpInst::getSwappedPredicate(P);
  } else {
    return;
  }
  if (!S.L->isLoopInvariant(N) || (isa<Instruction>(N) && S.L->contains(cast<Instruction>(N))))
    return;
  if (Br->getSuccessor(0) != S.Header)
    P = CmpInst::getInversePredicate(P);
  switch (P) {
  case CmpInst::ICMP_SLT:
  case CmpInst::ICMP_SLE:
    S.Form = LatchForm::MinSigned;
    break;
  case CmpInst::ICMP_ULT:
  case CmpInst::ICMP_ULE:
    S.Form = LatchForm::MinUnsigned;
    break;
  case CmpInst::ICMP_SGT:
  case CmpInst::ICMP_SGE:
    S.Form = LatchForm::MaxSigned;
    break;
  case CmpInst::ICMP_UGT:
  case CmpInst::ICMP_UGE:
    S.Form = LatchForm::MaxUnsigned;
    break;
  case CmpInst::ICMP_NE:
    // A constant step (an unrolled loop steps by its unroll factor).
    if (auto *C = dyn_cast<ConstantInt>(S.Step); C && !C->isZero())
      S.Form = C->isNegative() ? LatchForm::NeDown : LatchForm::NeUp;
    break;
  default:
    break;
  }
  if (S.Form != LatchForm::None) {
    S.ContPred = P;
    S.Bound = N;
  }
}

/// An induction variable to count iterations with, instead of a counter:
/// preferably the one the latch's exit test compares (unrolled loops keep
/// a separate `niter` for that), which enables the Limit kind.
void findInduction(Site &S) {
  if (S.Latches.size() != 1)
    return;
  BasicBlock *Latch = S.Latches.front();
  Value *Tested[2] = {nullptr, nullptr};
  if (auto *Br = dyn_cast<BranchInst>(Latch->getTerminator()); Br && Br->isConditional())
    if (auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition())) {
      Tested[0] = Cmp->getOperand(0);
      Tested[1] = Cmp->getOperand(1);
    }
  bool Found = false;
  for (PHINode &PN : S.Header->phis()) {
    auto *Next = dyn_cast<BinaryOperator>(PN.getIncomingValueForBlock(Latch));
    if (!PN.getType()->isIntegerTy() || !Next || Next->getOpcode() != Instruction::Add ||
        PN.getType()->getIntegerBitWidth() < 16)
      continue;
    Value *Other = Next->getOperand(0) == &PN   ? Next->getOperand(1)
                   : Next->getOperand(1) == &PN ? Next->getOperand(0)
                                                : nullptr;
    if (!Other || !S.L->isLoopInvariant(Other))
      continue;
    // Step must be usable in the loop's entering blocks and in the check.
    if (auto *I = dyn_cast<Instruction>(Other); I && S.L->contains(I))
      continue;
    bool IsTested = Next == Tested[0] || Next == Tested[1];
    if (Found && !IsTested)
      continue;
    S.IV = &PN;
    S.IVNext = Next;
    S.Step = Other;
    Found = true;
    if (IsTested)
      return;
  }
}

/// Whether \p Step is computed from the grid's size (%nctaid): a
/// grid-stride loop's.
bool stridesByGrid(Value *Step) {
  SmallVector<Value *, 8> Work{Step};
  SmallPtrSet<Value *, 8> Seen;
  while (!Work.empty()) {
    Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second || Seen.size() > 32)
      continue;
    bool IsCount = false;
    if (auto *II = dyn_cast<IntrinsicInst>(V);
        II && gridAxis(II->getIntrinsicID(), IsCount) >= 0 && IsCount)
      return true;
    if (auto *I = dyn_cast<Instruction>(V);
        I && (isa<BinaryOperator>(I) || isa<CastInst>(I)))
      append_range(Work, I->operands());
  }
  return false;
}

/// Whether no instruction of \p L reads or writes memory (or calls what
/// might).
bool touchesNoMemory(const Loop &L) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      if (I.mayReadOrWriteMemory())
        return false;
  return true;
}

} // namespace gmem::ckpt

//===- CheckpointLoopVersion.cpp - Short loop entries run untouched -------===//
//
// A strip-mined loop (CheckpointLoops.cpp, the Limit kind) compares against
// a segment limit that ptxas cannot see is a whole number of steps away, so
// it no longer unrolls the loop the way it unrolls the original: an inner
// loop of 32 steps in kmeans' assignment issued 4 loads per trip instead of
// 16 and the clone ran 70% slower than the kernel. An entry of the loop that
// is short (its trip count, computed once at the entry, at most a few K)
// would run as one or two segments anyway; it now runs an untouched copy of
// the loop instead, which ptxas compiles like the original's, and the check
// is left to whatever encloses the loop. Long entries keep the strip-mined
// form with its checks every K iterations.
//
//===----------------------------------------------------------------------===//

#include "CheckpointInternal.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace gmem::ckpt {

bool ShortEntryTest::usable() const {
  if (Kind == None || !Step || Step->isZero() || !Bound)
    return false;
  bool Up = !Step->isNegative();
  switch (ContPred) {
  case CmpInst::ICMP_SLT:
  case CmpInst::ICMP_SLE:
  case CmpInst::ICMP_ULT:
  case CmpInst::ICMP_ULE:
    if (!Up)
      return false;
    break;
  case CmpInst::ICMP_SGT:
  case CmpInst::ICMP_SGE:
  case CmpInst::ICMP_UGT:
  case CmpInst::ICMP_UGE:
    if (Up)
      return false;
    break;
  case CmpInst::ICMP_NE:
    if (Kind != Equality)
      return false;
    break;
  default:
    return false;
  }
  unsigned Bits = Step->getBitWidth();
  APInt Span = Step->getValue().abs().zext(Bits + 24) * APInt(Bits + 24, Steps);
  return Span.getActiveBits() < Bits - 1;
}

namespace {

/// i1 "an entry starting at Start ends within T.Steps iterations": it
/// leaves on the exit test by then (or earlier by another exit). Arithmetic
/// that would wrap says "not short": the strip-mined loop, correct for
/// every entry, runs then.
Value *emitShortEntry(IRBuilder<> &B, const ShortEntryTest &T, Value *Start) {
  const APInt &C = T.Step->getValue();
  Type *Ty = T.Step->getType();
  APInt Span = C.abs() * APInt(C.getBitWidth(), T.Steps); // no wrap: usable()
  if (T.Kind == ShortEntryTest::Equality) {
    // The bound is reached after Dist / |C| steps when Dist is a nonzero
    // multiple of |C| (0 would go all the way around).
    Value *Dist = C.isNegative() ? B.CreateSub(Start, T.Bound) : B.CreateSub(T.Bound, Start);
    Value *Near = B.CreateICmpULE(Dist, ConstantInt::get(Ty, Span));
    Value *NonZero = B.CreateICmpNE(Dist, ConstantInt::get(Ty, 0));
    Value *Short = B.CreateAnd(Near, NonZero);
    if (C.abs().isOne())
      return Short;
    Value *Whole = B.CreateICmpEQ(B.CreateURem(Dist, ConstantInt::get(Ty, C.abs())),
                                  ConstantInt::get(Ty, 0));
    return B.CreateAnd(Short, Whole);
  }
  // The IV moves monotonically towards the bound (usable() checked the
  // step's sign), so if the IV T.Steps steps on, computed without
  // wrapping, fails the latch's test, some step up to then fails it first.
  Intrinsic::ID Op = T.Kind == ShortEntryTest::Signed ? Intrinsic::sadd_with_overflow
                     : C.isNegative()                 ? Intrinsic::usub_with_overflow
                                                      : Intrinsic::uadd_with_overflow;
  APInt By = Op == Intrinsic::sadd_with_overflow ? C * APInt(C.getBitWidth(), T.Steps) : Span;
  Value *R = B.CreateBinaryIntrinsic(Op, Start, ConstantInt::get(Ty, By));
  Value *Probe = B.CreateExtractValue(R, 0), *Wrapped = B.CreateExtractValue(R, 1);
  Value *Ends = B.CreateNot(B.CreateICmp(T.ContPred, Probe, T.Bound));
  Value *NoWrap = B.CreateNot(Wrapped);
  return B.CreateAnd(Ends, NoWrap);
}

} // namespace

bool canVersionLoop(Loop &L, bool Nest) {
  if ((!Nest && !L.getSubLoops().empty()) || !L.getLoopLatch())
    return false;
  // An inner loop that leaves the nest itself (an early return or a break
  // out of both) shares that exit with the nest: once the nest is copied,
  // the exit has predecessors in both copies, and versioning the inner
  // loop after that wired its copy's values into phis they do not dominate
  // (random kernel fuzzing, seed 23). Such nests keep one copy.
  if (Nest)
    for (Loop *Sub : L.getLoopsInPreorder()) {
      if (Sub == &L)
        continue;
      SmallVector<BasicBlock *, 4> Exits;
      Sub->getExitBlocks(Exits);
      if (any_of(Exits, [&](BasicBlock *X) { return !L.contains(X); }))
        return false;
    }
  for (BasicBlock *BB : L.blocks()) {
    if (!isa<BranchInst>(BB->getTerminator()) && !isa<SwitchInst>(BB->getTerminator()))
      return false;
    for (Instruction &I : *BB)
      if (I.getType()->isTokenTy())
        return false; // a token cannot flow through the copy's phis
  }
  return true;
}

bool prepareLoopVersion(Loop &L, DominatorTree &DT, LoopInfo &LI, bool Nest) {
  if (!canVersionLoop(L, Nest))
    return false;
  // An exit block the loop shares with a path around it (an unrolled
  // loop's remainder, reached also when the loop is skipped) gets a block
  // of its own, where the copy's exit values can join.
  if (!L.hasDedicatedExits())
    formDedicatedExitBlocks(&L, &DT, &LI, /*MSSAU=*/nullptr, /*PreserveLCSSA=*/false);
  if (!L.hasDedicatedExits())
    return false;
  formLCSSARecursively(L, DT, &LI, /*SE=*/nullptr);
  // Every value of the loop used outside it now flows through a phi of an
  // exit block: the copy adds its own incoming values there.
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      for (User *U : I.users()) {
        auto *UI = cast<Instruction>(U);
        if (L.contains(UI->getParent()))
          continue;
        auto *PN = dyn_cast<PHINode>(UI);
        if (!PN)
          return false;
      }
  return true;
}

void placeShortEntryTest(ShortEntryTest &T, Loop &L, PHINode *IV) {
  T.HoistTo = nullptr;
  T.Start = nullptr;
  if (envSaysOff("GMEM_CHECKPOINT_VERSION_HOIST"))
    return;
  // The test depends on the bound and the IV's start only. Where every
  // entry starts the IV at one value and neither changes in an enclosing
  // loop, the test is the same for every entry of L in that loop: computed
  // in the guard, it ran again at each of them (kmeans' feature loop: eight
  // instructions every cluster, which ptxas did not hoist). A value defined
  // outside loop A that dominates L's entry or latch dominates A's header,
  // so A's preheader's end sees it; the test's instructions (arithmetic,
  // compares, a remainder by a nonzero constant) may run where L is not
  // entered.
  Value *Start = nullptr;
  for (unsigned I = 0; I < IV->getNumIncomingValues(); ++I) {
    if (L.contains(IV->getIncomingBlock(I)))
      continue;
    Value *V = IV->getIncomingValue(I);
    if (Start && V != Start)
      return;
    Start = V;
  }
  if (!Start)
    return;
  auto InvariantIn = [](const Loop *A, const Value *V) {
    const auto *I = dyn_cast<Instruction>(V);
    return !I || !A->contains(I->getParent());
  };
  Loop *Best = nullptr;
  for (Loop *A = L.getParentLoop(); A; A = A->getParentLoop()) {
    if (!InvariantIn(A, Start) || !InvariantIn(A, T.Bound))
      break;
    if (A->getLoopPreheader())
      Best = A;
  }
  if (!Best)
    return;
  T.HoistTo = Best->getLoopPreheader();
  T.Start = Start;
}

BasicBlock *versionShortEntries(Function &F, Loop &L, PHINode *IV, const ShortEntryTest &T) {
  Value *Hoisted = nullptr;
  if (T.HoistTo) {
    IRBuilder<> HB(T.HoistTo->getTerminator());
    Hoisted = emitShortEntry(HB, T, T.Start);
  }
  BasicBlock *Guard =
      versionLoop(F, L, [&](IRBuilder<> &GB, const DenseMap<PHINode *, PHINode *> &AtEntry) {
        return Hoisted ? Hoisted : emitShortEntry(GB, T, AtEntry.lookup(IV));
      });
  if (!Guard && Hoisted)
    RecursivelyDeleteTriviallyDeadInstructions(Hoisted);
  return Guard;
}

BasicBlock *versionLoop(Function &F, Loop &L, GuardCondition Cond) {
  BasicBlock *Header = L.getHeader();
  LLVMContext &LC = F.getContext();
  SmallVector<BasicBlock *, 8> Blocks(L.blocks());
  SmallVector<BasicBlock *, 4> Entries;
  for (BasicBlock *P : predecessors(Header))
    if (!L.contains(P) && !is_contained(Entries, P))
      Entries.push_back(P);
  if (Entries.empty())
    return nullptr;

  // The guard: takes over the header's values from the loop's entries.
  BasicBlock *Guard = BasicBlock::Create(LC, "gmem.ckpt.short", &F, Header);
  DenseMap<PHINode *, PHINode *> AtEntry;
  for (PHINode &PN : Header->phis()) {
    PHINode *G = PHINode::Create(PN.getType(), Entries.size(), PN.getName() + ".in", Guard);
    for (unsigned I = 0; I < PN.getNumIncomingValues(); ++I)
      if (!L.contains(PN.getIncomingBlock(I)))
        G->addIncoming(PN.getIncomingValue(I), PN.getIncomingBlock(I));
    AtEntry[&PN] = G;
  }

  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 8> Copies;
  for (BasicBlock *BB : Blocks) {
    BasicBlock *C = CloneBasicBlock(BB, VMap, ".short", &F);
    VMap[BB] = C;
    Copies.push_back(C);
  }
  remapInstructionsInBlocks(Copies, VMap);

  // Both headers are entered from the guard alone.
  auto *CopyHeader = cast<BasicBlock>(VMap[Header]);
  for (PHINode &PN : Header->phis()) {
    auto *CP = cast<PHINode>(VMap[&PN]);
    for (PHINode *P : {&PN, CP}) {
      for (unsigned I = P->getNumIncomingValues(); I-- > 0;)
        if (!L.contains(P->getIncomingBlock(I)) &&
            !(P == CP && is_contained(Copies, P->getIncomingBlock(I))))
          P->removeIncomingValue(I, /*DeletePHIIfEmpty=*/false);
      P->addIncoming(AtEntry[&PN], Guard);
    }
  }
  for (BasicBlock *E : Entries)
    E->getTerminator()->replaceSuccessorWith(Header, Guard);

  // The copy leaves to the same exit blocks, with its own values.
  SmallVector<BasicBlock *, 4> Exits;
  L.getUniqueExitBlocks(Exits);
  for (BasicBlock *X : Exits)
    for (PHINode &PN : X->phis()) {
      unsigned N = PN.getNumIncomingValues();
      for (unsigned I = 0; I < N; ++I) {
        BasicBlock *From = PN.getIncomingBlock(I);
        if (!L.contains(From))
          continue;
        Value *V = PN.getIncomingValue(I);
        Value *CV = VMap.count(V) ? static_cast<Value *>(VMap[V]) : V;
        PN.addIncoming(CV, cast<BasicBlock>(VMap[From]));
      }
    }

  IRBuilder<> GB(Guard);
  Value *Short = Cond(GB, AtEntry);
  Short->setName("gmem.ckpt.isshort");
  GB.CreateCondBr(Short, CopyHeader, Header);
  return Guard;
}

} // namespace gmem::ckpt

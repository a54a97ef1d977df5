//===- CheckpointDeferredStop.cpp - Loop stops that wait for a sync point ==//
//
// A thread may not leave a loop alone when a barrier or a warp collective
// follows it: the others would wait for it there. The most common shape of
// GPU code is exactly that, a loop that accumulates and then a reduction
// (a norm, a softmax, a GEMV row, a block sum), and its loop went without a
// checkpoint: such kernels stopped only between CTAs (tens of us, bench/
// preempt/results/parts/stops: layernorm_rows 38 us, gemv_warp 26 us).
//
// A deferred stop keeps the loop's per-thread check but moves the exit to
// the first synchronising instruction S that every path from the loop
// reaches, where the threads meet anyway. A thread whose check fires jumps
// straight to a new block M right before S (skipping what lies between the
// loop and S) with "aborted" set; every other thread reaches M on its own
// path. M decides for everyone who takes part in S:
//  * S a CTA barrier: `barrier.red.or` over "aborted" replaces it; every
//    thread of the CTA leaves at once when any aborted;
//  * S a warp collective with a constant member mask: `vote.sync.any` over
//    "aborted" with that mask before S; the warp leaves when any lane
//    aborted. Only where no CTA barrier (or call that could hold one) can
//    follow S: a warp that left must not be waited for later.
// Nothing after M runs in a warp or CTA that has a thread which aborted, so
// the values a jumping thread skipped (poison on its path) are never used.
// A cut CTA is re-run from its start (loop checks only fire for request 2,
// launches proved idempotent), so the work others did before M is redone.
//
// Only NVPTX: AMDGPU's joined barriers use LDS stop words, not a reduction.
//
//===----------------------------------------------------------------------===//

#include "CheckpointInternal.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"

using namespace llvm;

namespace gmem::ckpt {

namespace {

/// The member mask of a warp collective intrinsic, or null where it has none
/// the pass can use (no mask operand, or one that is not a constant).
ConstantInt *memberMask(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  if (!II)
    return nullptr;
  StringRef Name = II->getCalledFunction()->getName();
  unsigned MaskArg;
  if (Name.starts_with("llvm.nvvm.shfl.sync.") || Name.starts_with("llvm.nvvm.vote.") ||
      Name.starts_with("llvm.nvvm.match.") || Name.starts_with("llvm.nvvm.bar.warp.sync"))
    MaskArg = 0;
  else if (Name.starts_with("llvm.nvvm.redux.sync."))
    MaskArg = 1;
  else
    return nullptr;
  if (II->arg_size() <= MaskArg)
    return nullptr;
  auto *Mask = dyn_cast<ConstantInt>(II->getArgOperand(MaskArg));
  return Mask && Mask->getType()->isIntegerTy(32) && !Mask->isZero() ? Mask : nullptr;
}

bool hasToken(const BasicBlock &BB) {
  for (const Instruction &I : BB)
    if (I.getType()->isTokenTy())
      return true;
  return false;
}

/// \p BB's first synchronising instruction, or null.
Instruction *firstSync(BasicBlock &BB, GpuArch Arch) {
  for (Instruction &I : BB)
    if (classifySync(I, Arch) != SyncKind::None)
      return &I;
  return nullptr;
}

} // namespace

DeferredStopPoint deferredStopPoint(Loop &L, GpuArch Arch, std::string *Why) {
  auto Fail = [&](const char *Reason) -> DeferredStopPoint {
    if (Why)
      *Why = Reason;
    return {};
  };
  if (Arch != GpuArch::NVPTX)
    return Fail("not NVPTX");
  for (BasicBlock *BB : L.blocks())
    if (firstSync(*BB, Arch))
      return Fail("synchronises inside the loop");
    else if (hasToken(*BB))
      return Fail("token values");
  // Walk forward from the exits to the first synchronising instruction on
  // every path; all must meet the same one, and none may come back into the
  // loop first (it would then run between an abort and the meeting point).
  SmallVector<BasicBlock *, 8> Exits;
  L.getUniqueExitBlocks(Exits);
  SmallPtrSet<BasicBlock *, 16> Seen;
  SmallVector<BasicBlock *, 16> Work(Exits.begin(), Exits.end());
  Instruction *Meet = nullptr;
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (!Seen.insert(BB).second)
      continue;
    if (L.contains(BB))
      return Fail("the loop is re-entered before a sync point");
    if (Instruction *S = firstSync(*BB, Arch)) {
      if (Meet && Meet != S)
        return Fail("paths reach different sync points");
      Meet = S;
      continue;
    }
    if (hasToken(*BB))
      return Fail("token values");
    append_range(Work, successors(BB));
  }
  if (!Meet)
    return Fail("no sync point follows");
  SyncKind Kind = classifySync(*Meet, Arch);
  if (Kind == SyncKind::MergeableBarrier)
    return {Meet, nullptr};
  ConstantInt *Mask = Kind == SyncKind::Collective ? memberMask(*Meet) : nullptr;
  if (!Mask)
    return Fail("the sync point is not a CTA barrier or a masked warp collective");
  // A warp that stops at a collective leaves, unless a CTA barrier follows,
  // where it would be waited for: it then skips to that barrier (the first
  // CTA-level sync on every path on), which decides for the CTA.
  SmallVector<std::pair<BasicBlock *, Instruction *>, 16> After{{Meet->getParent(), Meet}};
  SmallPtrSet<BasicBlock *, 16> Reached;
  Instruction *Then = nullptr;
  while (!After.empty()) {
    auto [BB, From] = After.pop_back_val();
    if (!From && !Reached.insert(BB).second)
      continue;
    bool Stopped = false;
    for (auto It = From ? From->getIterator() : BB->begin(); It != BB->end(); ++It) {
      SyncKind K = classifySync(*It, Arch);
      if (K == SyncKind::None || K == SyncKind::Collective)
        continue;
      if (K != SyncKind::MergeableBarrier || (Then && Then != &*It))
        return Fail("a CTA-level sync after the warp collective is not one plain barrier");
      Then = &*It;
      Stopped = true;
      break;
    }
    if (!Stopped) {
      if (hasToken(*BB))
        return Fail("token values");
      for (BasicBlock *Succ : successors(BB))
        After.push_back({Succ, nullptr});
    }
  }
  // Lanes outside a partial mask would go on to collectives with lanes
  // that skipped them.
  if (Then && !Mask->isMinusOne())
    return Fail("a partial-mask collective before a CTA barrier");
  return {Meet, Then};
}

BasicBlock *DeferredStops::abortTarget(DeferredStopPoint Where, Function &F,
                                       const CloneContext &Ctx) {
  Instruction *Meet = Where.Meet;
  LLVMContext &LC = F.getContext();
  // A warp that stops before a CTA barrier joins that barrier's decision
  // (built first: the map's references do not survive an insertion).
  BasicBlock *Leave = Ctx.AbortBlock;
  if (Where.Then && !Points.count(Meet))
    Leave = abortTarget({Where.Then, nullptr}, F, Ctx);
  auto [It, New] = Points.try_emplace(Meet);
  Point &P = It->second;
  if (New) {
    // Prefix [code before Meet] -> M [phi aborted, decide] -> Rest [Meet ...]
    BasicBlock *Prefix = Meet->getParent();
    BasicBlock *Rest = SplitBlock(Prefix, Meet, (DominatorTree *)nullptr, nullptr, nullptr,
                                  Prefix->getName() + ".gmem.after");
    P.Meet = BasicBlock::Create(LC, "gmem.meet", &F, Rest);
    Prefix->getTerminator()->replaceSuccessorWith(Rest, P.Meet);
    IRBuilder<> B(P.Meet);
    P.Aborted = B.CreatePHI(B.getInt1Ty(), 4, "gmem.meet.aborted");
    P.Aborted->addIncoming(B.getFalse(), Prefix);
    BranchInst *Decide = B.CreateBr(Rest); // replaced by the decision below
    const bool Cta = classifySync(*Meet, GpuArch::NVPTX) == SyncKind::MergeableBarrier;
    Value *Mine = P.Aborted;
    if (ReadRequest) {
      // The meeting point is a checkpoint of its own: where the loop's
      // entries are too short for its checks to come due (a row of 16
      // elements per thread), launches still stop here. Thread 0 reads for
      // the CTA, every lane for its warp (the cached copy, as latch checks).
      Value *Saw;
      if (Cta) {
        BasicBlock *Head = Decide->getParent();
        Instruction *ThenTerm = SplitBlockAndInsertIfThen(Ctx.Tid0, Decide, false);
        Value *Read = emitRequestTest(ThenTerm, Ctx, /*NonZero=*/false, /*Cached=*/true);
        PHINode *Phi = PHINode::Create(B.getInt1Ty(), 2, "gmem.meet.saw", Decide->getIterator());
        Phi->addIncoming(Read, ThenTerm->getParent());
        Phi->addIncoming(B.getFalse(), Head);
        Saw = Phi;
      } else {
        Saw = emitRequestTest(Decide, Ctx, /*NonZero=*/false, /*Cached=*/true);
      }
      Mine = IRBuilder<>(Decide).CreateOr(P.Aborted, Saw, "gmem.meet.mine");
    }
    B.SetInsertPoint(Decide);
    Value *Stop;
    if (Cta) {
      Stop = unalignedBarrierOr(B, Mine, "gmem.meet.stop");
      P.Replaced = Meet; // the reduction is the barrier; erased in finish()
    } else {
      Stop = B.CreateIntrinsic(Intrinsic::nvvm_vote_any_sync, {}, {memberMask(*Meet), Mine},
                               nullptr, "gmem.meet.stop");
    }
    B.CreateCondBr(Stop, Leave, Rest);
    Decide->eraseFromParent();
  }
  // One block per abort edge: the values the jump skips are poison there.
  BasicBlock *Jump = BasicBlock::Create(LC, "gmem.meet.jump", &F, P.Meet);
  BranchInst::Create(P.Meet, Jump);
  P.Aborted->addIncoming(ConstantInt::getTrue(LC), Jump);
  Jumps.push_back(Jump);
  return Jump;
}

/// What a jump carries for \p I instead of poison. Any value will do (the
/// jump's path leaves at the meeting point without using it), and for a
/// generic pointer the cast it is addressed from keeps its address space:
/// LLVM 19's InferAddressSpaces joins a poison incoming value to the flat
/// space, so a poison-fed phi of `&red[tid]` made softmax_rows' clones
/// reduce through generic loads and stores (ld.f32) where the kernel uses
/// ld.shared. The cast (found through the address's GEPs) must be a
/// constant or defined where the jump starts.
static Value *jumpValue(Instruction *I, BasicBlock *Jump, const DominatorTree &DT) {
  Value *Poison = PoisonValue::get(I->getType());
  if (!I->getType()->isPointerTy() || jumpsCarryPoison())
    return Poison;
  Value *V = I;
  while (auto *GEP = dyn_cast<GEPOperator>(V))
    V = GEP->getPointerOperand();
  auto *Cast = dyn_cast<AddrSpaceCastOperator>(V);
  if (!Cast || Cast->getType() != I->getType())
    return Poison;
  if (auto *CI = dyn_cast<Instruction>(Cast))
    return DT.dominates(CI, Jump->getTerminator()) ? Cast : Poison;
  return Cast; // a constant expression
}

/// \p V computed again right before \p At from values available there, by
/// at most \p Budget pure instructions (casts, GEPs, arithmetic, compares,
/// selects: no loads, nothing that may trap); null where it cannot be.
/// \p Made keeps what was made there so far (shared by the values of one
/// meeting point), \p New what this chain added to it.
static Value *recompute(Value *V, Instruction *At, const DominatorTree &DT, unsigned &Budget,
                        DenseMap<Value *, Value *> &Made, SmallVectorImpl<Value *> &New) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || DT.dominates(I, At))
    return V;
  if (Value *Done = Made.lookup(I))
    return Done;
  if (Budget == 0 || isa<PHINode>(I) || I->mayReadOrWriteMemory() ||
      !isSafeToSpeculativelyExecute(I) ||
      !(isa<CastInst>(I) || isa<GetElementPtrInst>(I) || isa<BinaryOperator>(I) ||
        isa<CmpInst>(I) || isa<SelectInst>(I)))
    return nullptr;
  --Budget;
  SmallVector<Value *, 4> Ops;
  for (Value *Op : I->operands())
    if (Value *R = recompute(Op, At, DT, Budget, Made, New))
      Ops.push_back(R);
    else
      return nullptr;
  Instruction *C = I->clone();
  for (unsigned K = 0; K < Ops.size(); ++K)
    C->setOperand(K, Ops[K]);
  C->setName(I->getName() + ".meet");
  C->insertBefore(At);
  Made[I] = C;
  New.push_back(I);
  return C;
}

/// Gives \p I's uses that it no longer dominates a copy of its computation
/// at the meeting point they all follow, where one is and \p I's operands
/// are available there. Then nothing is carried past the meeting point: no
/// phi, no register live across the code the jumps skip, and for a pointer
/// into shared memory no poison joined with it, which LLVM 19's
/// InferAddressSpaces turns into a generic pointer (softmax_rows' clones
/// reduced through generic ld.f32/st.f32 where the kernel uses ld.shared).
static bool recomputeAtMeet(Instruction *I, ArrayRef<Use *> Uses, ArrayRef<BasicBlock *> Jumps,
                            const DominatorTree &DT,
                            DenseMap<BasicBlock *, DenseMap<Value *, Value *>> &MadeAt,
                            DenseMap<BasicBlock *, Instruction *> &AnchorAt) {
  if (jumpsCarryPoison() || jumpsCarryCast())
    return false;
  for (BasicBlock *J : Jumps) {
    BasicBlock *Meet = J->getSingleSuccessor();
    if (!Meet)
      continue;
    // Copies go before the meeting point's first instruction of its own,
    // after the copies made there before (which they may use).
    Instruction *&At = AnchorAt[Meet];
    if (!At)
      At = &*Meet->getFirstInsertionPt();
    if (!all_of(Uses, [&](Use *U) { return DT.dominates(At, *U); }))
      continue;
    unsigned Budget = 8;
    DenseMap<Value *, Value *> &Made = MadeAt[Meet];
    SmallVector<Value *, 8> New;
    Value *R = recompute(I, At, DT, Budget, Made, New);
    if (!R) {
      // Undo what the failed chain made, last first (nothing else uses it).
      for (Value *From : reverse(New))
        cast<Instruction>(Made.lookup(From))->eraseFromParent(), Made.erase(From);
      return false;
    }
    for (Use *U : Uses)
      U->set(R);
    return true;
  }
  return false;
}

void DeferredStops::finish(Function &F) {
  for (auto &[Meet, P] : Points)
    if (P.Replaced)
      P.Replaced->eraseFromParent();
  Points.clear();
  if (Jumps.empty())
    return;
  // The jumps bypass the code between a loop and its meeting point: values
  // defined there no longer dominate their uses after it. Give them phis
  // with poison on the jumps' paths (which leave at the meeting point; for
  // pointers, what jumpValue gives).
  DominatorTree DT(F);
  SmallVector<Instruction *, 16> Broken;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      for (Use &U : I.uses())
        if (!DT.dominates(&I, U)) {
          Broken.push_back(&I);
          break;
        }
  DenseMap<BasicBlock *, DenseMap<Value *, Value *>> MadeAt;
  DenseMap<BasicBlock *, Instruction *> AnchorAt;
  for (Instruction *I : Broken) {
    SmallVector<Use *, 8> Uses;
    for (Use &U : I->uses())
      if (!DT.dominates(I, U))
        Uses.push_back(&U);
    if (recomputeAtMeet(I, Uses, Jumps, DT, MadeAt, AnchorAt))
      continue;
    SSAUpdater SSA;
    SSA.Initialize(I->getType(), I->getName());
    SSA.AddAvailableValue(I->getParent(), I);
    for (BasicBlock *J : Jumps)
      SSA.AddAvailableValue(J, jumpValue(I, J, DT));
    for (Use *U : Uses)
      SSA.RewriteUse(*U);
  }
}

} // namespace gmem::ckpt

//===- CheckpointBarriers.cpp - Loop checkpoints joined to a barrier -----===//
//
// A loop with a CTA barrier in every iteration stops at that barrier: every
// thread of the CTA takes the same decision at the same barrier instance
// (NVPTX `bar.red.or`, or a shared stop word; AMDGPU an LDS stop word).
// Which iterations decide comes from a per-site counter that every thread
// steps alike. CheckpointLoops.cpp decides where these go.
//
//===----------------------------------------------------------------------===//

#include "CheckpointInternal.h"

#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstdlib>

using namespace llvm;

namespace gmem::ckpt {

namespace {

/// How a joined NVPTX barrier decides: due iterations reduce, the others
/// keep the plain barrier (default), or, with GMEM_CHECKPOINT_JOIN=flag, the
/// plain barrier always plus a shared stop word. Measured on the H200
/// (bench/preempt/results/parts/cache-v2): flag took scan from +145% to
/// +104% but gemm_tiled16 from +18% to +23%, geomean -0.35 points; reducing
/// on every iteration took bitonic sort from +152% to +209%.
enum class JoinForm { Diamond, Flag };

JoinForm joinFormFromEnv() {
  const char *V = std::getenv("GMEM_CHECKPOINT_JOIN");
  return V && StringRef(V) == "flag" ? JoinForm::Flag : JoinForm::Diamond;
}

class BarrierJoiner {
public:
  BarrierJoiner(Function &F, CloneContext &Ctx) : F(F), Ctx(Ctx), LC(F.getContext()) {}

  /// i1 "this thread saw request == 2", available right before \p Before;
  /// decreases the work counter and reads the request only when it runs out.
  Value *wantStop(Instruction *Before, uint64_t Weight) {
    if (Weight >= Ctx.Budget)
      return emitRequestTest(Before, Ctx, /*NonZero=*/false);
    IRBuilder<> B(Before);
    Value *Left = B.CreateSub(B.CreateLoad(B.getInt32Ty(), Ctx.WorkLeft),
                              B.getInt32(uint32_t(Weight)));
    Value *Due = B.CreateICmpSLT(Left, B.getInt32(0), "gmem.due");
    B.CreateStore(B.CreateSelect(Due, B.getInt32(int32_t(Ctx.Budget)), Left), Ctx.WorkLeft);
    return requestTestIf(Due, Before);
  }

  /// i1 "request == 2" read only where \p Cond holds (false elsewhere),
  /// available right before \p Before.
  Value *requestTestIf(Value *Cond, Instruction *Before) {
    BasicBlock *Head = Before->getParent();
    Instruction *ThenTerm = SplitBlockAndInsertIfThen(Cond, Before, false);
    Value *Mine = emitRequestTest(ThenTerm, Ctx, /*NonZero=*/false);
    PHINode *P = PHINode::Create(Type::getInt1Ty(LC), 2, "gmem.stop.mine", Before->getIterator());
    P->addIncoming(Mine, ThenTerm->getParent());
    P->addIncoming(ConstantInt::getFalse(LC), Head);
    return P;
  }

  /// Where a joined barrier's request read goes: the top of the iteration,
  /// so that its latency overlaps the iteration's work instead of stalling
  /// the whole CTA at the barrier. The header dominates the barrier.
  static Instruction *earlyPoint(BasicBlock *Header) { return &*Header->getFirstInsertionPt(); }

  /// Branches to the abort block when \p Stop (an instruction) is true.
  void abortIf(Instruction *Stop) {
    BasicBlock *Tail = SplitBlock(Stop->getParent(), Stop->getNextNode());
    Instruction *Br = Stop->getParent()->getTerminator();
    BranchInst::Create(Ctx.AbortBlock, Tail, Stop, Br->getIterator());
    Br->eraseFromParent();
  }

  /// A joined NVPTX barrier. Only iterations that are due for a check use
  /// `bar.red.or` (measured slower than a plain barrier in barrier-bound
  /// loops such as a bitonic sort); the others keep the original barrier.
  /// Which iteration is due comes from a counter of this site alone, so it
  /// is the same in every thread of the CTA (each runs the barrier equally
  /// often) and the choice between the two barriers is uniform. Only thread
  /// 0 reads the request: the reduction decides for everyone.
  void joinBarrierNVPTX(CallInst *Bar, BasicBlock *Header, uint64_t Weight) {
    Instruction *Early = earlyPoint(Header);
    Value *Due = nullptr;
    if (Weight < Ctx.Budget) {
      BasicBlock &Entry = F.getEntryBlock();
      IRBuilder<> EB(Entry.getTerminator());
      const DataLayout &DL = F.getParent()->getDataLayout();
      AllocaInst *Left =
          EB.CreateAlloca(EB.getInt32Ty(), DL.getAllocaAddrSpace(), nullptr, "gmem.site.left");
      EB.CreateStore(EB.getInt32(int32_t(Ctx.Budget)), Left);
      Ctx.SiteCounters.push_back(Left);
      IRBuilder<> B(Early);
      Value *L = B.CreateSub(B.CreateLoad(B.getInt32Ty(), Left), B.getInt32(uint32_t(Weight)));
      Due = B.CreateICmpSLT(L, B.getInt32(0), "gmem.site.due");
      B.CreateStore(B.CreateSelect(Due, B.getInt32(int32_t(Ctx.Budget)), L), Left);
    }
    // Thread 0, when due, reads the request at the top of the iteration.
    Value *Lead = Ctx.Tid0;
    if (Due)
      Lead = IRBuilder<>(Early).CreateAnd(Due, Lead);
    JoinForm Form = joinFormFromEnv();
    if (Form == JoinForm::Flag) {
      joinBarrierFlag(Bar, Early, Lead);
      return;
    }
    Value *Mine = requestTestIf(Lead, Early);
    BasicBlock *Plain = nullptr, *Join = nullptr;
    if (Due) {
      // due ? reduce : the original barrier
      BasicBlock *BB = Bar->getParent();
      Join = SplitBlock(BB, Bar->getNextNode(), (DominatorTree *)nullptr, nullptr, nullptr, "gmem.site.join");
      Plain = SplitBlock(BB, Bar, (DominatorTree *)nullptr, nullptr, nullptr, "gmem.site.plain"); // holds Bar
      BasicBlock *Red = BasicBlock::Create(LC, "gmem.site.red", &F, Plain);
      BB->getTerminator()->eraseFromParent();
      BranchInst::Create(Red, Plain, Due, BB);
      BranchInst::Create(Join, Red);
      Bar->moveBefore(Red->getTerminator());
      // Plain gets its own copy of the original barrier.
      Instruction *Copy = Bar->clone();
      Copy->insertBefore(Plain->getTerminator());
    }
    IRBuilder<> B(Bar);
    Value *Reduced;
    if (Bar->getIntrinsicID() == Intrinsic::nvvm_barrier0) {
      Reduced = barrierOr(B, Mine);
    } else {
      // barrier.sync 0 is the non-.aligned barrier (threads of a warp may
      // arrive at different instructions); keep that with barrier.red.
      Reduced = unalignedBarrierOr(B, Mine, "gmem.stop");
    }
    Bar->eraseFromParent();
    Instruction *Stop = cast<Instruction>(Reduced);
    if (Due) {
      IRBuilder<> JB(&*Join->getFirstInsertionPt());
      PHINode *P = JB.CreatePHI(JB.getInt1Ty(), 2, "gmem.cta.stop");
      P->addIncoming(Reduced, cast<Instruction>(Reduced)->getParent());
      P->addIncoming(JB.getFalse(), Plain);
      Stop = P;
    }
    abortIf(Stop);
  }

  /// Flag form: the original barrier stays; thread 0, when due, writes
  /// "request == 2" to a shared stop word before it and every thread reads
  /// the word after it. Two words alternate by barrier instance (a parity
  /// every thread toggles alike), so that thread 0 writing for instance n+2
  /// cannot be seen by a thread still after instance n: it has to pass
  /// instance n+1 first, which waits for everyone.
  void joinBarrierFlag(CallInst *Bar, Instruction *Early, Value *Lead) {
    IRBuilder<> B(Early);
    if (!Ctx.StopWords)
      Ctx.StopWords = createSharedPair(*F.getParent(), F, "__gmem_stop_");
    if (!Ctx.Parity) {
      IRBuilder<> EB(F.getEntryBlock().getTerminator());
      const DataLayout &DL = F.getParent()->getDataLayout();
      Ctx.Parity =
          EB.CreateAlloca(EB.getInt32Ty(), DL.getAllocaAddrSpace(), nullptr, "gmem.parity");
      EB.CreateStore(EB.getInt32(0), Ctx.Parity); // promoted with the clone's slots
    }
    Value *Par = B.CreateLoad(B.getInt32Ty(), Ctx.Parity);
    B.CreateStore(B.CreateXor(Par, B.getInt32(1)), Ctx.Parity);
    Value *Word = B.CreateInBoundsGEP(Ctx.StopWords->getValueType(), Ctx.StopWords,
                                      {B.getInt32(0), Par}, "gmem.stop.word");
    Instruction *ThenTerm = SplitBlockAndInsertIfThen(Lead, Early, false);
    IRBuilder<> TB(ThenTerm);
    Value *Mine = emitRequestTest(ThenTerm, Ctx, /*NonZero=*/false);
    TB.SetInsertPoint(ThenTerm);
    TB.CreateAlignedStore(TB.CreateZExt(Mine, TB.getInt32Ty()), Word, Align(4), true);
    IRBuilder<> AB(Bar->getNextNode());
    Value *V = AB.CreateAlignedLoad(AB.getInt32Ty(), Word, Align(4), true, "gmem.stop.seen");
    abortIf(cast<Instruction>(AB.CreateICmpNE(V, AB.getInt32(0), "gmem.stop")));
  }

  void joinBarrierAMDGPU(CallInst *Bar, BasicBlock *Header, uint64_t Weight) {
    IRBuilder<> B(Bar);
    // Alternate two stop words, so that a word set for barrier instance n+1
    // cannot be read by a slow thread still after instance n. A word is only
    // ever set to 1, and then every thread leaves at that instance.
    Value *Par = B.CreateLoad(B.getInt32Ty(), Ctx.Parity);
    B.CreateStore(B.CreateXor(Par, B.getInt32(1)), Ctx.Parity);
    Type *StateTy = Ctx.CtaState->getValueType();
    Value *Word = B.CreateInBoundsGEP(
        StateTy, Ctx.CtaState, {B.getInt32(0), B.CreateAdd(Par, B.getInt32(LoopStop0))},
        "gmem.stop.word");
    Value *Mine = wantStop(earlyPoint(Header), Weight);
    Instruction *SetTerm = SplitBlockAndInsertIfThen(Mine, Bar, false);
    IRBuilder<> SB(SetTerm);
    SB.CreateAlignedStore(SB.getInt32(1), Word, Align(4));
    IRBuilder<> BB(Bar);
    SyncScope::ID WG = LC.getOrInsertSyncScopeID("workgroup");
    BB.CreateFence(AtomicOrdering::Release, WG);
    BB.SetInsertPoint(Bar->getNextNode());
    BB.CreateFence(AtomicOrdering::Acquire, WG);
    Value *V = BB.CreateAlignedLoad(BB.getInt32Ty(), Word, Align(4));
    abortIf(cast<Instruction>(BB.CreateICmpNE(V, BB.getInt32(0), "gmem.stop")));
  }

private:
  Function &F;
  CloneContext &Ctx;
  LLVMContext &LC;
};

} // namespace

Value *segmentBarrierStop(const CloneContext &Ctx, Instruction *AtSegmentStart,
                          Instruction *AtSegmentEnd, bool Aligned) {
  // Thread 0's read is issued at the segment's start and its value is
  // first used at the segment's end: the phi carries the loaded word, not
  // a compare of it, so nothing waits for the load until the reduction
  // (as with the read between virtual CTAs). A request that lands after
  // the read is seen one segment later: a stop waits for up to two
  // segments of K iterations, where the per-iteration form's fresh read
  // waited for one; the extra barrier per segment is what halving K would
  // have doubled.
  BasicBlock *Head = AtSegmentStart->getParent();
  Instruction *ThenTerm = SplitBlockAndInsertIfThen(Ctx.Tid0, AtSegmentStart, false);
  IRBuilder<> TB(ThenTerm);
  Value *Read = loadRequest(TB, Ctx.Ctl);
  PHINode *Req = PHINode::Create(TB.getInt32Ty(), 2, "gmem.seg.request",
                                 AtSegmentStart->getIterator());
  Req->addIncoming(Read, ThenTerm->getParent());
  Req->addIncoming(TB.getInt32(0), Head);
  IRBuilder<> EB(AtSegmentEnd);
  Value *Mine = EB.CreateICmpEQ(Req, EB.getInt32(2), "gmem.seg.mine");
  return Aligned ? barrierOr(EB, Mine) : unalignedBarrierOr(EB, Mine, "gmem.seg.stop");
}

void joinBarrier(Function &Clone, CloneContext &Ctx, CallInst *Bar, BasicBlock *Header,
                 uint64_t Weight) {
  BarrierJoiner J(Clone, Ctx);
  if (Ctx.Arch == GpuArch::NVPTX)
    J.joinBarrierNVPTX(Bar, Header, Weight);
  else
    J.joinBarrierAMDGPU(Bar, Header, Weight);
}

} // namespace gmem::ckpt

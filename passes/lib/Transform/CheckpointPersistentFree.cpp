//===- CheckpointPersistentFree.cpp - The barrier-free persistent form ----===//
//
// `__gmem_prf_`: every thread loops over the virtual CTAs on its own and
// decides its own stop (docs/PREEMPTION_DESIGN.md, "Free clones").
//
//===----------------------------------------------------------------------===//

#include "CheckpointPersistentLoop.h"

#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstdlib>

using namespace llvm;

namespace gmem::ckpt {

/// The free form's latch: only when \p Due does a thread look at the
/// request (through the CTA's cache), after \p Before's bookkeeping; i1
/// "asked to stop" at \p At (false when it did not look).
template <typename Fn>
Value *LoopBuilder::lookWhen(Value *Due, Instruction *At, Fn Before) {
  Instruction *Then = SplitBlockAndInsertIfThen(Due, At, false);
  Then->getParent()->setName("gmem.f.look");
  IRBuilder<> TB(Then);
  Before(TB);
  Value *Seen = emitRequestTest(Then, Ctx, /*NonZero=*/true, /*Cached=*/true);
  IRBuilder<> JB(At);
  PHINode *Phi = JB.CreatePHI(JB.getInt1Ty(), 2, "gmem.f.asked");
  Phi->addIncoming(JB.getFalse(), cast<Instruction>(Due)->getParent());
  Phi->addIncoming(Seen, Then->getParent());
  return Phi;
}

/// The free form (`__gmem_prf_`, kernels without barriers, warp
/// collectives or shared memory): every thread loops over the virtual
/// CTAs on its own and decides its own stop, so a virtual CTA costs no
/// barrier and no per-CTA request read. On leaving, each thread folds the
/// first virtual CTA it has not finished (+1) into its CTA's resume word
/// with an atomic min; a relaunch restarts every thread there, re-running
/// what threads that were ahead had done: for idempotent launches only
/// (the runtime's rule, docs/PREEMPTION_DESIGN.md).
void LoopBuilder::buildFreeProtocol(IRBuilder<> &B) {
  Type *I32 = B.getInt32Ty();
  Instruction *EntryTerm = Parts.NewEntry->getTerminator();
  Value *PCta = PCtaValue;
  IRBuilder<> HB(HeaderEnd);

  // A per-thread deadline for looking at the request (GMEM_CHECKPOINT_
  // FREE_GATE=0: look after every virtual CTA).
  if (Ctx.ReqCache && !Left && !envSaysOff("GMEM_CHECKPOINT_FREE_GATE")) {
    Deadline = B.CreateAlloca(I32, C.getParent()->getDataLayout().getAllocaAddrSpace(), nullptr,
                              "gmem.f.deadline");
    Allocas.push_back(Deadline);
    B.CreateStore(B.CreateAdd(readClock(B), B.getInt32(Ctx.RefreshCycles)), Deadline);
  }
  // Entry: every thread reads the resume word, thread 0 the request;
  // one bar.red.or decides a stop at entry (nothing written then).
  Value *W1 = B.CreateAlignedLoad(I32, Word[1], Align(4), /*isVolatile=*/true, "gmem.w.resume");
  BasicBlock *Entry = B.GetInsertBlock();
  BasicBlock *ReadReq = block("gmem.f.read"), *Decide = block("gmem.f.decide");
  B.CreateCondBr(Tid0, ReadReq, Decide);
  EntryTerm->eraseFromParent();
  IRBuilder<> RB(ReadReq);
  Value *Req0 = loadRequest(RB, Ctx.Ctl);
  initSharedWords(RB, Ctx); // ordered by the barrier below
  RB.CreateBr(Decide);
  IRBuilder<> DB(Decide);
  PHINode *Seen = DB.CreatePHI(I32, 2, "gmem.f.req0");
  Seen->addIncoming(Req0, ReadReq);
  Seen->addIncoming(DB.getInt32(0), Entry);
  Value *StopAtEntry = barrierOr(DB, DB.CreateICmpNE(Seen, DB.getInt32(0)));
  Value *First = DB.CreateSelect(DB.CreateICmpNE(W1, DB.getInt32(0)),
                                 DB.CreateSub(W1, DB.getInt32(1)), PCta, "gmem.resume.at");
  st(DB, First, Vcta);
  if (Carried)
    storeCoords(DB, First);
  // Past the barrier every thread has read the word: thread 0 sets it to
  // the largest value, and a second barrier orders that before any fold.
  BasicBlock *Arm = block("gmem.f.arm"), *Clear = block("gmem.f.clear"),
             *Armed = block("gmem.f.armed"), *Finish = block("gmem.f.finish");
  DB.CreateCondBr(StopAtEntry, Ret, Arm);
  IRBuilder<> AB(Arm);
  AB.CreateCondBr(Tid0, Clear, Armed);
  IRBuilder<> CB0(Clear);
  CB0.CreateAlignedStore(CB0.getInt32(-1), Word[1], Align(4), /*isVolatile=*/true);
  CB0.CreateBr(Armed);
  IRBuilder<> KB(Armed);
  KB.CreateIntrinsic(Intrinsic::nvvm_barrier0, {}, {});
  KB.CreateCondBr(KB.CreateICmpULT(First, Total), Header, Finish);
  HB.CreateBr(Parts.OldEntry);

  // Latch: every return and every loop checkpoint abort arrives here.
  IRBuilder<> LB(Parts.Exit);
  Value *Cur = ld(LB, Vcta, "gmem.v.cur");
  Value *Here[3] = {};
  for (unsigned I = 0; Carried && I < 3; ++I)
    Here[I] = ld(LB, Coord[I]);
  Value *Ab = LB.CreateLoad(LB.getInt1Ty(), Parts.Aborted, "gmem.f.aborted");
  BasicBlock *StopLoop = block("gmem.f.stop"), *Cont = block("gmem.f.cont");
  BranchInst *ToCont = LB.CreateBr(Cont);
  Value *Asked;
  if (Left) {
    // Every K-th virtual CTA (the runtime's K, from the shape's measured
    // virtual CTA time) looks through the CTA's request cache; the others
    // cost a decrement and a compare.
    IRBuilder<> GB(ToCont);
    Value *LeftV = GB.CreateLoad(I32, Left, "gmem.left.v");
    Value *Due = GB.CreateICmpEQ(LeftV, GB.getInt32(1), "gmem.f.due");
    GB.CreateStore(GB.CreateSelect(Due, BatchK, GB.CreateSub(LeftV, GB.getInt32(1))), Left);
    Asked = lookWhen(Due, ToCont, [](IRBuilder<> &) {});
  } else if (Deadline) {
    // Only when this thread's own deadline has passed does it look at the
    // CTA's cache: the common case is a clock read and a compare, no
    // memory access (two dependent shared loads per virtual CTA cost
    // relu's free clone more than the barrier they replaced).
    IRBuilder<> GB(ToCont);
    Value *Now = readClock(GB);
    Value *Due = GB.CreateICmpSGE(GB.CreateSub(Now, GB.CreateLoad(I32, Deadline)),
                                  GB.getInt32(0), "gmem.f.due");
    Asked = lookWhen(Due, ToCont, [&](IRBuilder<> &DB2) {
      DB2.CreateStore(DB2.CreateAdd(Now, DB2.getInt32(Ctx.RefreshCycles)), Deadline);
    });
  } else {
    Asked = emitRequestTest(ToCont, Ctx, /*NonZero=*/true, /*Cached=*/true);
  }
  IRBuilder<> TB(ToCont);
  TB.CreateCondBr(TB.CreateOr(Ab, Asked), StopLoop, Cont);
  ToCont->eraseFromParent();
  IRBuilder<> CB(Cont);
  Value *VN = CB.CreateAdd(Cur, Stride, "gmem.v.next");
  st(CB, VN, Vcta);
  if (!Carried) {
    CB.CreateCondBr(CB.CreateICmpULT(VN, Total), Header, Finish);
  } else {
    BasicBlock *Step = block("gmem.f.step");
    CB.CreateCondBr(CB.CreateICmpULT(VN, Total), Step, Finish);
    IRBuilder<> PB(Step);
    stepCoords(PB, Here);
    PB.CreateBr(Header);
  }

  // Leaving: fold the first virtual CTA this thread has not finished
  // (+1): the current one when a loop checkpoint cut it, else the next
  // one of its own, at most the total.
  auto Fold = [&](IRBuilder<> &FB, Value *Resume) {
    FB.CreateAtomicRMW(AtomicRMWInst::UMin, Word[1], Resume, Align(4),
                       AtomicOrdering::Monotonic);
    FB.CreateBr(Ret);
  };
  IRBuilder<> SB(StopLoop);
  Value *After = SB.CreateBinaryIntrinsic(Intrinsic::umin, SB.CreateAdd(Cur, Stride), Total);
  Fold(SB, SB.CreateAdd(SB.CreateSelect(Ab, Cur, After), SB.getInt32(1)));
  IRBuilder<> FB(Finish);
  Fold(FB, FB.CreateAdd(Total, FB.getInt32(1)));
}

} // namespace gmem::ckpt

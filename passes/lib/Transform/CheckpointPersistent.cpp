//===- CheckpointPersistent.cpp - Clones that loop over virtual CTAs ------===//
//
// A version-1 clone pays its entry checkpoint once per CTA: volatile reads of
// the control block, a barrier, and at the exit an atomic on a shared
// counter and one on the done bitmap. For kernels of a million CTAs that live
// a microsecond each, those round trips sit on every CTA's critical path
// (+150..+340% measured on the H200). And a non-idempotent launch can only
// be drained by letting every CTA not yet started be dispatched and return.
//
// A persistent clone is launched with P CTAs (about as many as fit on the
// GPU at once). CTA p runs virtual CTAs p, p + P, p + 2P, ... of the user's
// grid (three trailing parameters), the kernel body once each with
// blockIdx/gridDim replaced by the virtual ones. Per virtual CTA, thread 0
// reads the request word at the start (its latency hides behind the body)
// and one `bar.red.or` at the end decides, uniformly for the CTA, whether to
// stop (light twins read it again there after a long virtual CTA:
// askedAtEnd). A stopping CTA writes two words of its own in the control block: the
// virtual CTA to run again (request 2 only: a loop checkpoint may have cut
// it) and the next one; a relaunch with the same P starts from there. A
// first version took tickets from one shared counter: a million atomics on
// one address serialised in L2 and made the clone 3x slower.
//
// When a clone may be persistent is decided in
// CheckpointPersistentSafety.cpp; the builder's state is declared in
// CheckpointPersistentLoop.h, the barrier-free form is built in
// CheckpointPersistentFree.cpp.
//
//===----------------------------------------------------------------------===//

#include "CheckpointPersistentLoop.h"

#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstdlib>

using namespace llvm;

namespace gmem::ckpt {

SmallVector<AllocaInst *, 8> LoopBuilder::build() {
  IRBuilder<> B(Parts.NewEntry->getTerminator());
  setUp(B);
  if (Parts.Free)
    buildFreeProtocol(B);
  else
    buildCtaProtocol(B);
  if (Ctx.CtaState && Ctx.CtaState->use_empty()) {
    Ctx.CtaState->eraseFromParent(); // the version-1 exit counter
    Ctx.CtaState = nullptr;
  }
  return Allocas;
}

/// What both protocols share: the loop's state slots, the virtual CTA's
/// coordinates in the header (the body's blockIdx/gridDim replaced), the
/// persistent CTA's words, the total and the coordinate steps. \p B sits
/// before the entry block's terminator.
void LoopBuilder::setUp(IRBuilder<> &B) {
  unsigned N = C.arg_size();
  for (unsigned I = 0; I < 3; ++I)
    Grid[I] = C.getArg(N - 3 + I);
  Module &M = *C.getParent();
  Type *I32 = Type::getInt32Ty(LC);
  if (Parts.MaskGridZ) {
    // A kernel parameter: ptxas knows the interval, hence the counter and
    // every branch on it, is the same in every thread (a value loaded
    // from memory would make the loop look divergent to it).
    Value *GZ = Grid[2];
    Grid[2] = B.CreateAnd(GZ, B.getInt32(0xffff), "gmem.grid.z.lo");
    if (Parts.Batch) {
      Value *Interval = B.CreateLShr(GZ, B.getInt32(16));
      if (Parts.SegScaled)
        Interval = B.CreateAnd(Interval, B.getInt32(0xff));
      BatchK = B.CreateBinaryIntrinsic(Intrinsic::umax, Interval, B.getInt32(1), nullptr,
                                       "gmem.batch");
      Left = B.CreateAlloca(I32, M.getDataLayout().getAllocaAddrSpace(), nullptr, "gmem.left");
      B.CreateStore(BatchK, Left);
      Allocas.push_back(Left);
    }
  }

  // The body's view of the grid: virtual CTA coordinates, computed in the
  // loop header from the ticket (x fastest, as the hardware numbers them).
  Header = block("gmem.p.header");
  Ret = block("gmem.p.ret");
  ReturnInst::Create(LC, Ret);
  IRBuilder<> HB(Header);
  const DataLayout &DL = M.getDataLayout();
  auto Alloca = [&](const char *Name) {
    AllocaInst *AI = B.CreateAlloca(I32, DL.getAllocaAddrSpace(), nullptr, Name);
    B.CreateStore(B.getInt32(0), AI);
    Allocas.push_back(AI);
    return AI;
  };
  // Words of the shared state: vcta, next, x, y, z, step x, y, z, total.
  if (Parts.StateInShared) {
    Type *Ty = ArrayType::get(I32, 9);
    State = new GlobalVariable(M, Ty, false, GlobalValue::InternalLinkage, UndefValue::get(Ty),
                               "__gmem_pstate_" + C.getName(), nullptr,
                               GlobalValue::NotThreadLocal, PersistentSharedAS);
    State->setAlignment(Align(4));
  }
  unsigned NextWord = 0;
  auto Slot = [&](const char *Name) -> Value * {
    if (!State)
      return Alloca(Name);
    return ConstantExpr::getInBoundsGetElementPtr(
        State->getValueType(), State,
        ArrayRef<Constant *>{B.getInt32(0), B.getInt32(NextWord++)});
  };
  Vcta = Slot("gmem.vcta");
  if (!Parts.Free) {
    // The free form's next virtual CTA is always this one + P.
    Next = Slot("gmem.vnext");
    Req = Alloca("gmem.req");
  }
  Value *V = ld(HB, Vcta, "gmem.v");
  HB.CreateStore(HB.getFalse(), Parts.Aborted);
  // The virtual CTA's coordinates (x fastest, as the hardware numbers
  // them). Which way is cheapest depends on what the body reads (each
  // measured on the H200 against the alternatives):
  //  * blockIdx.x only (one-dimensional kernels, most with many CTAs):
  //    x = ticket when it is below grid_x (always, in a one-dimensional
  //    grid), else ticket % grid_x. A division per virtual CTA cost
  //    relu, gelu, vec_add 5-8%; carried coordinates held registers
  //    across the body (nbody +48%, bicg +94%).
  //  * blockIdx.y or z: coordinates carried from one virtual CTA to the
  //    next, stepped by P's with carries. The same branch around a
  //    division cost floyd_warshall +39% (ptxas cannot tell it is uniform
  //    and adds reconvergence); straight-line division cost jacobi2d,
  //    conv2d, hotspot 20-45%.
  // The masks are exact (the runtime launches a clone only for grids
  // within the hardware's limits: x < 2^31, y and z < 2^16) and give the
  // coordinates the ranges the %ctaid registers have, which loop strength
  // reduction needs to keep the body's pointer increments (gemm_naive).
  collectGeometry();
  Carried = readsCtaYZ();
  Value *Raw[3];
  if (Carried) {
    for (unsigned I = 0; I < 3; ++I) {
      Coord[I] = Slot(I == 0 ? "gmem.cx" : I == 1 ? "gmem.cy" : "gmem.cz");
      Raw[I] = ld(HB, Coord[I]);
    }
  } else {
    Value *InRow = HB.CreateICmpULT(V, Grid[0], "gmem.v.row0");
    BasicBlock *Div = block("gmem.p.div"), *Coords = block("gmem.p.coords");
    HB.CreateCondBr(InRow, Coords, Div);
    IRBuilder<> VB(Div);
    Value *X = VB.CreateURem(V, Grid[0]);
    VB.CreateBr(Coords);
    HB.SetInsertPoint(Coords);
    PHINode *Phi = HB.CreatePHI(I32, 2);
    Phi->addIncoming(V, Header);
    Phi->addIncoming(X, Div);
    Raw[0] = Phi;
    Raw[1] = Raw[2] = HB.getInt32(0); // the body reads neither
  }
  Value *Cta[3];
  for (unsigned I = 0; I < 3; ++I)
    Cta[I] = HB.CreateAnd(Raw[I], HB.getInt32(I == 0 ? 0x7fffffff : 0xffff),
                          I == 0 ? "gmem.vcta.x" : I == 1 ? "gmem.vcta.y" : "gmem.vcta.z");
  replaceGeometry(Cta); // before this builder reads the real %ctaid.x

  // Persistent CTA p runs virtual CTAs p, p + P, p + 2P, ...: no shared
  // counter (a million atomics on one address serialise in L2).
  Tid0 = Ctx.Tid0;
  Value *PCta = PCtaValue =
      B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ctaid_x, {}, {}, nullptr, "gmem.p");
  Stride = B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_nctaid_x, {}, {}, nullptr, "gmem.P");
  Word[0] = wordsOf(B, PCta);
  Word[1] = B.CreateInBoundsGEP(B.getInt8Ty(), Word[0], B.getInt64(4), "gmem.resume");
  Total = B.CreateMul(B.CreateMul(Grid[0], Grid[1]), Grid[2], "gmem.total");
  if (Parts.TailPercent && !Parts.Free && !Parts.Batch) {
    // Static order leaves the CTAs of barrier-heavy kernels unevenly
    // loaded (ncu: achieved occupancy 91% -> 83% in scan's clone; the
    // warp scheduler favours some CTAs of an SM throughout, and they
    // finish their share early). So the last TailPercent of the tickets
    // (from StaticEnd, at least P so that every CTA's first ticket is
    // static) go to whichever CTA asks first. One atomic per virtual CTA
    // on one address is cheap only where virtual CTAs are long, and the
    // state costs some loops their registers (bench/preempt/results/
    // parts/tail-25): the inserter asks for it only in the alternate form
    // of barrier kernels with shared memory, which the runtime launches
    // only where its timing finds it faster.
    Value *Pool = B.CreateTrunc(
        B.CreateUDiv(B.CreateMul(B.CreateZExt(Total, B.getInt64Ty()),
                                 B.getInt64(Parts.TailPercent)),
                     B.getInt64(100)),
        I32);
    StaticEnd = B.CreateBinaryIntrinsic(
        Intrinsic::umin, Total,
        B.CreateBinaryIntrinsic(Intrinsic::umax, Stride, B.CreateSub(Total, Pool)), nullptr,
        "gmem.static.end");
    ClaimWord = B.CreateInBoundsGEP(B.getInt8Ty(), Ctx.Ctl, B.getInt64(4), "gmem.claimed");
    ClaimSlots = createSharedPair(M, C, "__gmem_claim_");
    const DataLayout &DL = M.getDataLayout();
    auto Flag = [&](Type *Ty, const char *Name) {
      AllocaInst *AI = B.CreateAlloca(Ty, DL.getAllocaAddrSpace(), nullptr, Name);
      B.CreateStore(Constant::getNullValue(Ty), AI);
      Allocas.push_back(AI);
      return AI;
    };
    Claim = Flag(B.getInt1Ty(), "gmem.claim");
    Fixed = Flag(B.getInt1Ty(), "gmem.fixed");
    Mine = Flag(I32, "gmem.mine");
    Par = Flag(I32, "gmem.par");
  }
  if (Carried) {
    Value *PQ = B.CreateUDiv(Stride, Grid[0]);
    StepBy[0] = B.CreateURem(Stride, Grid[0], "gmem.step.x");
    StepBy[1] = B.CreateURem(PQ, Grid[1], "gmem.step.y");
    StepBy[2] = B.CreateUDiv(PQ, Grid[1], "gmem.step.z");
  }
  // In shared state the constants the latch needs are stored once (every
  // thread the same values, before the entry's barrier) and read back
  // there with volatile loads, which nothing hoists.
  if (State) {
    NextWord = 5;
    for (unsigned I = 0; Carried && I < 3; ++I)
      st(B, StepBy[I], StepWord[I] = Slot("gmem.step"));
    NextWord = 8;
    st(B, Total, TotalWord = Slot("gmem.total"));
  }
  HeaderEnd = HB.GetInsertBlock();
}

/// Per virtual CTA, one stop decision for the whole CTA (`bar.red.or`).
void LoopBuilder::buildCtaProtocol(IRBuilder<> &B) {
  Type *I32 = B.getInt32Ty();
  Instruction *EntryTerm = Parts.NewEntry->getTerminator();
  Value *PCta = PCtaValue;
  IRBuilder<> HB(HeaderEnd);

  // Entry: every thread reads the CTA's two words (once per persistent
  // CTA); thread 0 reads the request. One bar.red.or decides; a CTA that
  // stops here has changed nothing.
  Value *W0 = B.CreateAlignedLoad(I32, Word[0], Align(4), /*isVolatile=*/true, "gmem.w.redo");
  Value *W1 = B.CreateAlignedLoad(I32, Word[1], Align(4), /*isVolatile=*/true, "gmem.w.resume");
  BasicBlock *ReadReq = block("gmem.p.read"), *Decide = block("gmem.p.decide");
  B.CreateCondBr(Tid0, ReadReq, Decide);
  EntryTerm->eraseFromParent();
  IRBuilder<> RB(ReadReq);
  RB.CreateStore(loadRequest(RB, Ctx.Ctl), Req);
  initSharedWords(RB, Ctx); // ordered by the barrier below
  if (Parts.StampedStop) {
    StopWord = createSharedPair(*C.getParent(), C, "__gmem_vstop_");
    RB.CreateAlignedStore(RB.getInt32(0), ctaStateWord(RB, StopWord, 0), Align(4),
                          /*isVolatile=*/true);
  }
  RB.CreateBr(Decide);
  IRBuilder<> DB(Decide);
  Value *Asked0 = DB.CreateAnd(Tid0, DB.CreateICmpNE(DB.CreateLoad(I32, Req), DB.getInt32(0)));
  Value *StopAtEntry = barrierOr(DB, Asked0);
  Value *HasRedo = DB.CreateICmpNE(W0, DB.getInt32(0));
  Value *Resume = DB.CreateSelect(DB.CreateICmpNE(W1, DB.getInt32(0)),
                                  DB.CreateSub(W1, DB.getInt32(1)), PCta, "gmem.resume.at");
  Value *First = DB.CreateSelect(HasRedo, DB.CreateSub(W0, DB.getInt32(1)), Resume);
  st(DB, First, Vcta);
  if (Carried)
    storeCoords(DB, First);
  st(DB, DB.CreateSelect(HasRedo, Resume, DB.CreateAdd(Resume, Stride)), Next);
  if (Fixed)
    DB.CreateStore(HasRedo, Fixed); // the resume word's ticket is this CTA's
  BasicBlock *Start = block("gmem.p.start"), *Clear = block("gmem.p.clear"),
             *Check = block("gmem.p.check");
  DB.CreateCondBr(StopAtEntry, Ret, Start);
  // The redo word is consumed now; the barrier above ordered every
  // thread's read before this store.
  IRBuilder<> SB0(Start);
  SB0.CreateCondBr(SB0.CreateAnd(Tid0, HasRedo), Clear, Check);
  IRBuilder<> CB0(Clear);
  CB0.CreateAlignedStore(CB0.getInt32(0), Word[0], Align(4));
  CB0.CreateBr(Check);
  BasicBlock *Finish = block("gmem.p.finish");
  IRBuilder<> KB(Check);
  KB.CreateCondBr(KB.CreateICmpULT(First, Total), Header, Finish);

  // Header (once the coordinates are known): thread 0 reads the request
  // now, used only at the latch (the load's latency hides behind the body).
  // (Measured: without this read floyd_warshall and odd_even_step ran
  // 10% faster, but gating it on %clock cost more than it saved and a
  // register across the body cost hotspot a quarter of its CTAs:
  // bench/preempt/results/parts.)
  BasicBlock *Take = block("gmem.p.req");
  Value *ReadNow = Tid0;
  if (Left) // only before a virtual CTA whose end looks
    ReadNow = HB.CreateAnd(Tid0, HB.CreateICmpEQ(HB.CreateLoad(I32, Left), HB.getInt32(1)));
  Value *ClaimNow = nullptr;
  if (Claim) {
    // Past the static part thread 0 claims the next ticket now; the
    // atomic's latency hides behind the body like the request's.
    ClaimNow = HB.CreateAnd(HB.CreateNot(HB.CreateLoad(HB.getInt1Ty(), Fixed)),
                            HB.CreateICmpUGE(ld(HB, Next), StaticEnd), "gmem.claim.now");
    HB.CreateStore(ClaimNow, Claim);
  }
  HB.CreateCondBr(ReadNow, Take, Parts.OldEntry);
  IRBuilder<> TB(Take);
  TB.CreateStore(loadRequest(TB, Ctx.Ctl), Req);
  if (Parts.LateReadCycles) {
    // When this read was issued, for the late read at the end. A shared
    // word written and read with volatile accesses: nothing keeps the
    // clock in a register across the body (a register there cost hotspot
    // a quarter of its CTAs).
    StartWord = createSharedPair(*C.getParent(), C, "__gmem_vstart_");
    TB.CreateAlignedStore(readClock(TB), ctaStateWord(TB, StartWord, 0), Align(4),
                          /*isVolatile=*/true);
  }
  if (Claim) {
    BasicBlock *Claiming = block("gmem.p.claim");
    TB.CreateCondBr(ClaimNow, Claiming, Parts.OldEntry);
    IRBuilder<> AB(Claiming);
    Value *Got = AB.CreateAtomicRMW(AtomicRMWInst::Add, ClaimWord, AB.getInt32(1), Align(4),
                                    AtomicOrdering::Monotonic);
    AB.CreateStore(AB.CreateAdd(StaticEnd, Got), Mine);
    AB.CreateBr(Parts.OldEntry);
  } else {
    TB.CreateBr(Parts.OldEntry);
  }

  // Latch: every return and every loop checkpoint abort arrives here.
  // The state is read before the barrier and written after it: in shared
  // state a thread that has passed the barrier must not overwrite words
  // another has yet to read (all write the same values).
  IRBuilder<> LB(Parts.Exit);
  Value *Cur = ld(LB, Vcta, "gmem.v.cur");
  Value *VN = ld(LB, Next, "gmem.v.next");
  Value *Here[3] = {};
  for (unsigned I = 0; Carried && I < 3; ++I)
    Here[I] = ld(LB, Coord[I]);
  if (Claim) {
    // Thread 0 publishes its claim before the barrier, everyone reads it
    // after. Two slots in turn: a thread still to read slot Par after
    // this barrier holds up the next one, before which slot Par is not
    // written again.
    BasicBlock *Publish = block("gmem.p.publish"), *Latch = block("gmem.p.latch");
    LB.CreateCondBr(LB.CreateAnd(Tid0, LB.CreateLoad(LB.getInt1Ty(), Claim)), Publish, Latch);
    IRBuilder<> PB(Publish);
    PB.CreateStore(PB.CreateLoad(I32, Mine), claimSlot(PB));
    PB.CreateBr(Latch);
    LB.SetInsertPoint(Latch);
  }
  Value *Ab = LB.CreateLoad(LB.getInt1Ty(), Parts.Aborted);
  BasicBlock *StopLoop = block("gmem.p.stop"), *Cont = block("gmem.p.cont");
  if (Left) {
    // K - 1 of every K virtual CTAs end without the barrier: the counter
    // is the same in every thread, and so is Aborted (only barrier-joined
    // loop checks abort here), so the CTA's threads agree on the branch.
    Value *LeftV = LB.CreateLoad(I32, Left, "gmem.left.v");
    Value *Due = LB.CreateOr(Ab, LB.CreateICmpEQ(LeftV, LB.getInt32(1)), "gmem.p.due");
    BasicBlock *Look = block("gmem.p.look"), *Skip = block("gmem.p.skip");
    LB.CreateCondBr(Due, Look, Skip);
    IRBuilder<> SkB(Skip);
    SkB.CreateStore(SkB.CreateSub(LeftV, SkB.getInt32(1)), Left);
    SkB.CreateBr(Cont);
    LB.SetInsertPoint(Look);
    LB.CreateStore(BatchK, Left);
  }
  Value *Asked = askedAtEnd(LB);
  Value *Stop = StopWord ? stampedBarrier(LB, LB.CreateOr(Ab, Asked), Cur)
                         : barrierOr(LB, LB.CreateOr(Ab, Asked));
  LB.CreateCondBr(Stop, StopLoop, Cont);
  IRBuilder<> CB(Cont);
  Value *Own = VN; // the stop path's next ticket: its own, or its claim
  if (Claim) {
    Value *Claimed = CB.CreateLoad(CB.getInt1Ty(), Claim);
    BasicBlock *Read = block("gmem.p.claimed"), *Got = block("gmem.p.next");
    CB.CreateCondBr(Claimed, Read, Got);
    IRBuilder<> RB2(Read);
    Value *Ticket = RB2.CreateLoad(I32, claimSlot(RB2), "gmem.v.claimed");
    RB2.CreateStore(RB2.CreateXor(RB2.CreateLoad(I32, Par), RB2.getInt32(1)), Par);
    RB2.CreateBr(Got);
    CB.SetInsertPoint(Got);
    PHINode *Phi = CB.CreatePHI(I32, 2, "gmem.v.next");
    Phi->addIncoming(VN, Cont);
    Phi->addIncoming(Ticket, Read);
    VN = Phi;
    CB.CreateStore(CB.getFalse(), Fixed);
  }
  Value *Stepped = Carried ? CB.CreateICmpEQ(VN, CB.CreateAdd(Cur, Stride)) : nullptr;
  st(CB, VN, Vcta);
  st(CB, CB.CreateAdd(VN, Stride), Next);
  Value *TotalNow = State ? ld(CB, TotalWord) : Total;
  if (!Carried) {
    CB.CreateCondBr(CB.CreateICmpULT(VN, TotalNow), Header, Finish);
  } else {
    // The next virtual CTA is P further on (all but the step after a
    // redo): its coordinates follow from the current ones by adding P's,
    // with carries.
    BasicBlock *Step = block("gmem.p.step"), *Jump = block("gmem.p.jump"),
               *Advance = block("gmem.p.advance");
    CB.CreateCondBr(CB.CreateICmpULT(VN, TotalNow), Advance, Finish);
    IRBuilder<> AB(Advance);
    AB.CreateCondBr(Stepped, Step, Jump);
    IRBuilder<> JB(Jump);
    storeCoords(JB, VN);
    JB.CreateBr(Header);
    IRBuilder<> PB(Step);
    stepCoords(PB, Here);
    PB.CreateBr(Header);
  }

  // A stop after a virtual CTA. The current one is run again where a loop
  // checkpoint cut it, in any thread: the threads' Aborted flags OR-ed by
  // one more barrier, on the stop path only (the stop is uniform, so every
  // thread is here). The request word cannot tell: a relaunch writes it
  // back to 0 on the control stream as soon as the level resumes, which may
  // land before this instance gets here, and a cut virtual CTA would then
  // be skipped, its output never written (a wrong nbody_forces checksum
  // under 20 us chaos on the H200). Request 1 arms no loop checkpoint, and
  // a clone without loop checkpoints has none to arm.
  BasicBlock *SaveLoop = block("gmem.p.save");
  Value *Cut = nullptr;
  if (Parts.LoopStops) {
    IRBuilder<> SB(StopLoop);
    Cut = barrierOr(SB, SB.CreateLoad(SB.getInt1Ty(), Parts.Aborted, "gmem.p.cut.mine"));
  }
  BranchInst::Create(SaveLoop, Ret, Tid0, StopLoop);
  IRBuilder<> SL(SaveLoop);
  Value *Redo = SL.getInt32(0);
  if (Cut)
    Redo = SL.CreateSelect(Cut, SL.CreateAdd(Cur, SL.getInt32(1)), SL.getInt32(0), "gmem.p.redo");
  if (Claim) // a claimed ticket is this CTA's to run: kept in its resume word
    Own = SL.CreateSelect(SL.CreateLoad(SL.getInt1Ty(), Claim), SL.CreateLoad(I32, Mine), Own);
  record(SL, Redo, Own);
  SL.CreateBr(Ret);

  // Done: the CTA's position past the total, so a relaunch (another stop
  // request raced with the end) runs nothing twice.
  BasicBlock *SaveDone = block("gmem.p.save.done");
  BranchInst::Create(SaveDone, Ret, Tid0, Finish);
  IRBuilder<> SD(SaveDone);
  record(SD, SD.getInt32(0), State ? ld(SD, TotalWord) : Total);
  SD.CreateBr(Ret);
}

/// Thread 0's "stop requested" at the end of a virtual CTA (false in the
/// other threads). Its read at the start hides the L2 round trip behind the
/// body but misses a request that lands during it, which then waited for
/// the whole next virtual CTA as well. So where that read saw none and the
/// virtual CTA has run LateReadCycles or more, thread 0 reads the request
/// again now: the round trip is exposed only where warp 0 reaches the
/// barrier last, and amortised over at least LateReadCycles. Any read of
/// the request here is sound: every stop between virtual CTAs is.
Value *LoopBuilder::askedAtEnd(IRBuilder<> &B) {
  Type *I32 = B.getInt32Ty();
  if (StartWord) {
    BasicBlock *Timed = block("gmem.p.late.time"), *Late = block("gmem.p.late"),
               *Join = block("gmem.p.late.join");
    Value *Unseen = B.CreateICmpEQ(B.CreateLoad(I32, Req), B.getInt32(0));
    B.CreateCondBr(B.CreateAnd(Tid0, Unseen), Timed, Join);
    IRBuilder<> TB(Timed);
    Value *Start = TB.CreateAlignedLoad(I32, ctaStateWord(TB, StartWord, 0), Align(4),
                                       /*isVolatile=*/true, "gmem.v.start");
    Value *Ran = TB.CreateSub(readClock(TB), Start, "gmem.v.ran");
    TB.CreateCondBr(TB.CreateICmpUGE(Ran, TB.getInt32(Parts.LateReadCycles)), Late, Join);
    IRBuilder<> RB(Late);
    RB.CreateStore(loadRequest(RB, Ctx.Ctl), Req);
    RB.CreateBr(Join);
    B.SetInsertPoint(Join);
  }
  return B.CreateAnd(Tid0, B.CreateICmpNE(B.CreateLoad(I32, Req), B.getInt32(0)));
}

/// The end-of-virtual-CTA decision as a plain barrier and a shared word:
/// threads that want to stop (\p Mine) write the virtual CTA's stamp
/// (its ticket + 1, never 0, the word's value at entry) before the
/// barrier, every thread compares the word with it after. One word
/// suffices: a thread that reads the word late, after a faster one has
/// written the next virtual CTA's stamp into it, sees a stamp other than
/// its own, so no thread stops where the others go on; and once the
/// current stamp is written, nobody goes on to overwrite it.
/// Consecutive virtual CTAs of one persistent CTA have distinct tickets
/// (a redo is followed by the CTA's resume ticket, static tickets grow
/// by P, claimed ones come from one counter).
Value *LoopBuilder::stampedBarrier(IRBuilder<> &B, Value *Mine, Value *Cur) {
  Value *Stamp = B.CreateAdd(Cur, B.getInt32(1), "gmem.v.stamp");
  BasicBlock *Mark = block("gmem.p.mark"), *Meet = block("gmem.p.meet");
  B.CreateCondBr(Mine, Mark, Meet);
  IRBuilder<> MB(Mark);
  MB.CreateAlignedStore(Stamp, ctaStateWord(MB, StopWord, 0), Align(4), /*isVolatile=*/true);
  MB.CreateBr(Meet);
  B.SetInsertPoint(Meet);
  B.CreateIntrinsic(Intrinsic::nvvm_barrier0, {}, {});
  Value *Seen = B.CreateAlignedLoad(B.getInt32Ty(), ctaStateWord(B, StopWord, 0), Align(4),
                                    /*isVolatile=*/true, "gmem.v.stop.seen");
  return B.CreateICmpEQ(Seen, Stamp, "gmem.v.stop");
}

SmallVector<AllocaInst *, 8> buildPersistentLoop(Function &Clone, CloneContext &Ctx,
                                                 const PersistentParts &Parts) {
  return LoopBuilder(Clone, Ctx, Parts).build();
}

} // namespace gmem::ckpt
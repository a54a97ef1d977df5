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
// stop. A stopping CTA writes two words of its own in the control block: the
// virtual CTA to run again (request 2 only: a loop checkpoint may have cut
// it) and the next one; a relaunch with the same P starts from there. A
// first version took tickets from one shared counter: a million atomics on
// one address serialised in L2 and made the clone 3x slower.
//
// When a clone may be persistent is decided in
// CheckpointPersistentSafety.cpp.
//
//===----------------------------------------------------------------------===//

#include "CheckpointInternal.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstdlib>

using namespace llvm;

namespace gmem::ckpt {

namespace {

constexpr unsigned SharedAS = 3;

struct LoopBuilder {
  Function &C;
  CloneContext &Ctx;
  const PersistentParts &Parts;
  LLVMContext &LC;
  Value *Grid[3] = {};
  Value *Tid0 = nullptr, *Total = nullptr, *Stride = nullptr, *Word[2] = {};
  AllocaInst *Req = nullptr;
  /// Parts.Batch: the check interval K (>= 1, from grid_z's high bits) and
  /// the virtual CTAs left until the next check, this one included.
  Value *BatchK = nullptr;
  AllocaInst *Left = nullptr;
  /// The loop's state: allocas (promoted to registers) or, with
  /// GMEM_CHECKPOINT_STATE=shared, words of a shared array read and written
  /// with volatile accesses, so nothing holds them in a register across the
  /// body.
  Value *Vcta = nullptr, *Next = nullptr, *Coord[3] = {}, *StepWord[3] = {}, *TotalWord = nullptr;
  SmallVector<AllocaInst *, 8> Allocas;
  GlobalVariable *State = nullptr;
  Value *StepBy[3] = {};
  bool Carried = false; ///< coordinates carried from one virtual CTA to the next
  BasicBlock *Header = nullptr, *Ret = nullptr;
  /// Balanced tail (Parts.TailPercent): tickets from StaticEnd on are
  /// claimed from control word 1. Claim: this virtual CTA's thread 0
  /// claims the next ticket (into Mine, published in ClaimSlots[Par]);
  /// Fixed: Next came from the CTA's resume word and needs no claim.
  Value *StaticEnd = nullptr, *ClaimWord = nullptr;
  GlobalVariable *ClaimSlots = nullptr;
  AllocaInst *Claim = nullptr, *Fixed = nullptr, *Mine = nullptr, *Par = nullptr;

  LoopBuilder(Function &C, CloneContext &Ctx, const PersistentParts &Parts)
      : C(C), Ctx(Ctx), Parts(Parts), LC(C.getContext()) {}

  BasicBlock *block(const char *Name) { return BasicBlock::Create(LC, Name, &C); }

  Value *ld(IRBuilder<> &B, Value *Slot, const Twine &Name = "") {
    return B.CreateAlignedLoad(B.getInt32Ty(), Slot, Align(4), /*isVolatile=*/State != nullptr,
                               Name);
  }
  void st(IRBuilder<> &B, Value *V, Value *Slot) {
    B.CreateAlignedStore(V, Slot, Align(4), /*isVolatile=*/State != nullptr);
  }

  /// The body's reads of blockIdx/gridDim, collected once before the loop
  /// is built (the loop adds reads of its own).
  SmallVector<IntrinsicInst *, 16> GeometryReads;

  void collectGeometry() {
    for (Instruction &I : instructions(C))
      if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
        bool IsCount;
        if (gridAxis(II->getIntrinsicID(), IsCount) >= 0)
          GeometryReads.push_back(II);
      }
  }

  void replaceGeometry(Value *Cta[3]) {
    for (IntrinsicInst *II : GeometryReads) {
      bool IsCount;
      int Axis = gridAxis(II->getIntrinsicID(), IsCount);
      II->replaceAllUsesWith(IsCount ? Grid[Axis] : Cta[Axis]);
      II->eraseFromParent();
    }
    GeometryReads.clear();
  }

  /// Whether the body reads blockIdx.y or blockIdx.z.
  bool readsCtaYZ() const {
    return any_of(GeometryReads, [](IntrinsicInst *II) {
      bool IsCount;
      return gridAxis(II->getIntrinsicID(), IsCount) > 0 && !IsCount;
    });
  }

  /// The coordinates of virtual CTA V into the Coord slots, by division: at
  /// the start and after a redo only.
  void storeCoords(IRBuilder<> &B, Value *V) {
    Value *Q = B.CreateUDiv(V, Grid[0]);
    st(B, B.CreateURem(V, Grid[0]), Coord[0]);
    st(B, B.CreateURem(Q, Grid[1]), Coord[1]);
    st(B, B.CreateUDiv(Q, Grid[1]), Coord[2]);
  }

  /// Thread 0 records where this CTA stands: word 0 the virtual CTA to run
  /// again first (+1, 0 for none), word 1 the next one of its own (+1).
  void record(IRBuilder<> &B, Value *Redo, Value *NextTicket) {
    Value *W0 = Word[0], *W1 = Word[1];
    if (State) {
      // The words' address anew from %ctaid.x: an asm read is not merged
      // with the entry's, so no 64-bit pointer lives across the body.
      auto *Ty = FunctionType::get(B.getInt32Ty(), false);
      Value *P = B.CreateCall(InlineAsm::get(Ty, "mov.u32 $0, %ctaid.x;", "=r", true), {});
      W0 = wordsOf(B, P);
      W1 = B.CreateInBoundsGEP(B.getInt8Ty(), W0, B.getInt64(4));
    }
    B.CreateAlignedStore(Redo, W0, Align(4));
    B.CreateAlignedStore(B.CreateAdd(NextTicket, B.getInt32(1)), W1, Align(4));
  }

  Value *claimSlot(IRBuilder<> &B) {
    return B.CreateInBoundsGEP(ClaimSlots->getValueType(), ClaimSlots,
                               {B.getInt32(0), B.CreateLoad(B.getInt32Ty(), Par)});
  }

  /// Control words of persistent CTA P (redo; resume is 4 bytes on).
  Value *wordsOf(IRBuilder<> &B, Value *P) {
    Value *Off = B.CreateAdd(B.getInt64(8), B.CreateShl(B.CreateZExt(P, B.getInt64Ty()), 3));
    return B.CreateInBoundsGEP(B.getInt8Ty(), Ctx.Ctl, Off, "gmem.redo");
  }

  SmallVector<AllocaInst *, 8> build() {
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
  void setUp(IRBuilder<> &B) {
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
        BatchK = B.CreateBinaryIntrinsic(Intrinsic::umax, B.CreateLShr(GZ, B.getInt32(16)),
                                         B.getInt32(1), nullptr, "gmem.batch");
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
                                 GlobalValue::NotThreadLocal, SharedAS);
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

  /// The end of the header's coordinate computation (the body's entry
  /// follows it).
  BasicBlock *HeaderEnd = nullptr;

  /// Per virtual CTA, one stop decision for the whole CTA (`bar.red.or`).
  void buildCtaProtocol(IRBuilder<> &B) {
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
    Value *Asked = LB.CreateAnd(Tid0, LB.CreateICmpNE(LB.CreateLoad(I32, Req), LB.getInt32(0)));
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

    // A stop after a virtual CTA. Under request 2 the current one is run
    // again (a loop checkpoint may have cut it; rerunning a finished one is
    // harmless for an idempotent launch). Request 1 arms no loop checkpoint,
    // and a clone without loop checkpoints has none to arm: the current one
    // finished.
    BasicBlock *SaveLoop = block("gmem.p.save");
    BranchInst::Create(SaveLoop, Ret, Tid0, StopLoop);
    IRBuilder<> SL(SaveLoop);
    Value *Redo = SL.getInt32(0);
    if (Parts.LoopStops) {
      Value *R = loadRequest(SL, Ctx.Ctl);
      Redo = SL.CreateSelect(SL.CreateICmpEQ(R, SL.getInt32(2)), SL.CreateAdd(Cur, SL.getInt32(1)),
                             SL.getInt32(0));
    }
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

  Value *PCtaValue = nullptr;
  AllocaInst *Deadline = nullptr; ///< free form: when this thread looks next

  /// The CTA protocol's stop word (word 0 of a shared pair), where
  /// Parts.StampedStop asks for it.
  GlobalVariable *StopWord = nullptr;

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
  Value *stampedBarrier(IRBuilder<> &B, Value *Mine, Value *Cur) {
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

  /// The free form's latch: only when \p Due does a thread look at the
  /// request (through the CTA's cache), after \p Before's bookkeeping; i1
  /// "asked to stop" at \p At (false when it did not look).
  template <typename Fn> Value *lookWhen(Value *Due, Instruction *At, Fn Before) {
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
  void buildFreeProtocol(IRBuilder<> &B) {
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

  /// The coordinates of the virtual CTA P further on from \p Here, by
  /// adding P's coordinates with carries: coord + step + carry < 2 * grid,
  /// so one subtraction wraps it (z needs none: the ticket is below the
  /// total).
  void stepCoords(IRBuilder<> &PB, Value *Here[3]) {
    Type *I32 = PB.getInt32Ty();
    Value *Carry = nullptr;
    for (unsigned I = 0; I < 3; ++I) {
      Value *Sum = PB.CreateAdd(Here[I], State ? ld(PB, StepWord[I]) : StepBy[I]);
      if (I > 0)
        Sum = PB.CreateAdd(Sum, PB.CreateZExt(Carry, I32));
      if (I < 2) {
        Carry = PB.CreateICmpUGE(Sum, Grid[I]);
        Sum = PB.CreateSelect(Carry, PB.CreateSub(Sum, Grid[I]), Sum);
      }
      st(PB, Sum, Coord[I]);
    }
  }
};

} // namespace

SmallVector<AllocaInst *, 8> buildPersistentLoop(Function &Clone, CloneContext &Ctx,
                                                 const PersistentParts &Parts) {
  return LoopBuilder(Clone, Ctx, Parts).build();
}

} // namespace gmem::ckpt

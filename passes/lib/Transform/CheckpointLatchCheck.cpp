//===- CheckpointLatchCheck.cpp - Latch checks and strip-mined segments ---===//
//
// How CheckpointLoops.cpp's sites check: the per-thread latch check (Limit,
// IV or counter kind, CheckpointLoops.cpp's header says when which), the
// strip-mined segments of the Limit kind (timed on %clock where paced,
// CheckpointLoopPace.cpp), a warp vote where whole warps leave together, and
// the reduction between segments of a joined barrier's loop
// (segmentBarrierStop, CheckpointBarriers.cpp).
//
//===----------------------------------------------------------------------===//

#include "CheckpointLoopPace.h"
#include "CheckpointLoopSite.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace gmem::ckpt {

namespace {
/// A paced site's pace at each of the loop's entry edges: now, and a first
/// segment of at most min(K, 4) trips; one value per entry block, added
/// once per edge (\p Entries lists a block once per edge) as phis need.
void addPaceStarts(PHINode *Pace, ArrayRef<BasicBlock *> Entries, const Site &S) {
  DenseMap<BasicBlock *, Value *> StartOf;
  for (BasicBlock *E : Entries) {
    Value *&Start = StartOf[E];
    if (!Start) {
      IRBuilder<> EB(E->getTerminator());
      Start = emitPaceAtEntry(EB, S.K);
    }
    Pace->addIncoming(Start, E);
  }
}

/// The pace a segment's length comes from. Each lane times its segments on
/// its own %clock; a warp-vote site needs one length for the whole warp
/// (every lane at the vote on the same trip): lane 0's, by a shuffle.
Value *segmentPace(IRBuilder<> &B, const Site &S, Value *Pace) {
  if (!S.WarpVote)
    return Pace;
  return B.CreateIntrinsic(Intrinsic::nvvm_shfl_sync_idx_i32, {},
                           {B.getInt32(-1), Pace, B.getInt32(0), B.getInt32(31)}, nullptr,
                           "gmem.pace.warp");
}
} // namespace

LatchCheckBuilder::LatchCheckBuilder(Function &F, CloneContext &Ctx)
    : F(F), Ctx(Ctx), LC(F.getContext()) {}

/// The check's last block: stop (abort) or back to the header.
void LatchCheckBuilder::finishCheck(BranchInst *ToHeaderBr, Value *Stop, BasicBlock *Header) {
  if (Vote) {
    IRBuilder<> VB(ToHeaderBr);
    Stop = VB.CreateIntrinsic(Intrinsic::nvvm_vote_any_sync, {},
                              {VB.getInt32(-1), Stop}, nullptr, "gmem.warp.stop");
  }
  BranchInst::Create(AbortTo ? AbortTo : Ctx.AbortBlock, Header, Stop,
                     ToHeaderBr->getIterator());
  ToHeaderBr->eraseFromParent();
}

/// i1 "the original latch goes back to the header".
Value *LatchCheckBuilder::continueCond(IRBuilder<> &B, BranchInst *Br, BasicBlock *Header) {
  return Br->getSuccessor(0) == Header ? Br->getCondition() : B.CreateNot(Br->getCondition());
}

/// The Limit of a segment starting at Start: K steps ahead, or the real
/// bound itself when that is at most 1.5 K steps away, so that a loop a
/// little longer than K runs as one segment instead of K plus a short
/// remainder (each segment start costs a check and ptxas's unrolled loop
/// its prologue). Continuing on the Limit always implies continuing on
/// the real bound, whatever the values (wraps included): a wrong guess
/// only moves where the checks fall.
Value *LatchCheckBuilder::limitFrom(IRBuilder<> &B, const Site &S, Value *Start) {
  Type *Ty = S.Step->getType();
  uint64_t KFar = uint64_t(S.K) + S.K / 2;
  // The segment scale: K << s, computed here, once per segment start (the
  // segment's own loop compares against the Limit alone). Not hoisted to the
  // entry: made once there (two more registers live through the kernel), it
  // took the scaled build's gain away on the H200 (bench/preempt/results/
  // session38, hoist.patch).
  Value *Scale = S.Scaled && !S.KDyn ? segScale(Ctx) : nullptr;
  Value *KDyn = S.KDyn;
  if (Scale)
    KDyn = B.CreateShl(ConstantInt::get(Ty, S.K), B.CreateZExtOrTrunc(Scale, Ty), "gmem.seg.k");
  Value *KV = KDyn ? KDyn : ConstantInt::get(Ty, S.K);
  Value *Ahead = B.CreateAdd(Start, B.CreateMul(S.Step, KV));
  switch (S.Form) {
  case LatchForm::MinSigned:
  case LatchForm::MinUnsigned:
  case LatchForm::MaxSigned:
  case LatchForm::MaxUnsigned: {
    Intrinsic::ID Nearer = nearerOf(S.Form);
    Value *KFarV = KDyn ? B.CreateAdd(KDyn, B.CreateLShr(KDyn, 1))
                        : static_cast<Value *>(ConstantInt::get(Ty, KFar));
    Value *Probe = B.CreateAdd(Start, B.CreateMul(S.Step, KFarV));
    Value *Far = B.CreateICmp(S.ContPred, Probe, S.Bound, "gmem.ckpt.far");
    return B.CreateSelect(Far, B.CreateBinaryIntrinsic(Nearer, S.Bound, Ahead), S.Bound);
  }
  case LatchForm::NeUp:
  case LatchForm::NeDown: {
    // Constant step s: the bound is (Bound - Start) away (modular). If that
    // exceeds 1.5 K*|s|, none of the next K values can equal it (j*|s| <
    // K*|s| < distance, no wrap), so stopping K steps ahead is safe;
    // otherwise the bound itself comes first.
    Value *Dist = S.Form == LatchForm::NeUp ? B.CreateSub(S.Bound, Start)
                                            : B.CreateSub(Start, S.Bound);
    Value *Span = ConstantInt::get(Dist->getType(), S.KSpan);
    if (Scale) // CheckpointLoops.cpp made sure KSpan << 3 stays far from wrapping
      Span = B.CreateShl(Span, B.CreateZExtOrTrunc(Scale, Dist->getType()));
    Value *Far = B.CreateICmpUGT(Dist, B.CreateAdd(Span, B.CreateLShr(Span, 1)), "gmem.ckpt.far");
    return B.CreateSelect(Far, Ahead, S.Bound);
  }
  case LatchForm::None:
    break;
  }
  return S.Bound;
}

/// Per-thread check on the latch branch back to the header. Kinds, best
/// first (all leave the loop's real exit test to a new block `sel`, which
/// tells a real exit from a due check):
///  Limit: the loop is strip-mined (stripMine); the exit compare itself
///    runs against the segment's Limit, the nearer of the real bound and
///    K steps ahead: no extra instruction per iteration. Continuing on the
///    Limit compare implies continuing on the real one, so leaving early
///    only ever means "check now".
///  IV: IV.next != Bound (a header phi K steps ahead) joins the exit
///    test: one compare per iteration.
///  Counter: the work counter, one subtract and one compare.
/// Whether \p Latch ends in a branch that goes back to the header once.
bool LatchCheckBuilder::checkable(const Site &S, BasicBlock *Latch) {
  auto *Br = dyn_cast<BranchInst>(Latch->getTerminator());
  return Br && count(Br->successors(), S.Header) == 1;
}

bool LatchCheckBuilder::checkLatch(const Site &S, BasicBlock *Latch) {
  BasicBlock *Header = S.Header;
  if (!checkable(S, Latch))
    return false;
  auto *Br = cast<BranchInst>(Latch->getTerminator());
  bool Always = S.Weight >= Ctx.Budget && !S.KDyn;
  bool ByLimit = !Always && S.Form != LatchForm::None;
  bool ByIV = !Always && !ByLimit && S.IV;
  SmallVector<BasicBlock *, 4> Entries;
  for (BasicBlock *P : predecessors(Header))
    if (P != Latch)
      Entries.push_back(P);
  if (ByLimit && S.Paced && S.PacedInBody && Ctx.Landing)
    return checkPacedInBody(S, Latch, Entries);

  // The check: reset the counter, read the request, stop or go on.
  BasicBlock *Check = BasicBlock::Create(LC, "gmem.ckpt", &F);
  IRBuilder<> CB(Check);
  if (!Always && !ByIV && !ByLimit)
    CB.CreateStore(CB.getInt32(int32_t(Ctx.Budget)), Ctx.WorkLeft);
  BranchInst *ToHeaderBr = CB.CreateBr(Header);
  // A paced segment's check reads what its start prefetched: built with
  // the segment (stripMine).
  Value *Stop = ByLimit && (S.Paced || S.Barrier)
                    ? nullptr
                    : emitRequestTest(ToHeaderBr, Ctx, /*NonZero=*/false, /*Cached=*/true,
                                      /*Sparse=*/Always,
                                      /*Landed=*/Always && S.Chained && chainedChecksLanded());
  BasicBlock *CheckEnd = ToHeaderBr->getParent(); // (== Check: one block)

  if (Always) {
    // Every trip back goes through the check.
    for (unsigned I = 0; I < Br->getNumSuccessors(); ++I)
      if (Br->getSuccessor(I) == Header)
        Br->setSuccessor(I, Check);
    Header->replacePhiUsesWith(Latch, CheckEnd);
    finishCheck(ToHeaderBr, Stop, Header);
    return true;
  }
  IRBuilder<> B(Br);
  Value *Cont; // continue this trip around the loop
  BasicBlock *Resume = Header; // where a check that does not stop goes
  if (ByLimit) {
    Segment Seg = stripMine(S, Entries, Latch, Check, CheckEnd);
    Resume = Seg.Start;
    Cont = B.CreateICmp(S.ContPred, S.IVNext, Seg.Limit, "gmem.cont");
    if (S.Barrier)
      Stop = segmentBarrierStop(Ctx, Seg.Start->getTerminator(), ToHeaderBr,
                                S.Barrier->getIntrinsicID() == Intrinsic::nvvm_barrier0);
    if (S.Paced) {
      Stop = emitPacedRequestTest(ToHeaderBr, Ctx, Seg.Pending);
      if (BasicBlock *End = ToHeaderBr->getParent(); End != CheckEnd)
        for (PHINode &PN : Resume->phis())
          PN.replaceIncomingBlockWith(CheckEnd, End);
    }
  } else {
    for (PHINode &PN : Header->phis())
      PN.addIncoming(PN.getIncomingValueForBlock(Latch), CheckEnd);
  }
  if (ByIV) {
    // A header phi per segment of K iterations: the bound K steps ahead.
    auto Next = [&](IRBuilder<> &IB, Value *Start) -> Value * {
      return IB.CreateAdd(Start, IB.CreateMul(S.Step, ConstantInt::get(S.Step->getType(), S.K)));
    };
    PHINode *Seg =
        PHINode::Create(S.IV->getType(), Entries.size() + 2, "gmem.ckpt.at", Header->begin());
    for (BasicBlock *P : Entries) {
      IRBuilder<> PB(P->getTerminator());
      Seg->addIncoming(Next(PB, S.IV->getIncomingValueForBlock(P)), P);
    }
    Seg->addIncoming(Seg, Latch);
    IRBuilder<> EB(ToHeaderBr);
    Seg->addIncoming(Next(EB, S.IVNext), CheckEnd);
    Value *NotDue = B.CreateICmpNE(S.IVNext, Seg, "gmem.not.due");
    Cont = Br->isUnconditional() ? NotDue : B.CreateAnd(continueCond(B, Br, Header), NotDue);
  } else if (!ByLimit) {
    Value *Left = B.CreateSub(B.CreateLoad(B.getInt32Ty(), Ctx.WorkLeft),
                              B.getInt32(uint32_t(S.Weight)));
    B.CreateStore(Left, Ctx.WorkLeft);
    Value *NotDue = B.CreateICmpSGE(Left, B.getInt32(0), "gmem.not.due");
    Cont = Br->isUnconditional() ? NotDue : B.CreateAnd(continueCond(B, Br, Header), NotDue);
  }
  rewireLatch(Br, Cont, Header, Check);
  finishCheck(ToHeaderBr, Stop, Resume);
  return true;
}

/// Replaces the latch branch \p Br by one that goes on to \p Header while
/// \p Cont holds; otherwise the real exit test, now off the hot path in a
/// block `sel`, tells a real exit from a due check (\p Check).
void LatchCheckBuilder::rewireLatch(BranchInst *Br, Value *Cont, BasicBlock *Header,
                                    BasicBlock *Check) {
  IRBuilder<> B(Br);
  BasicBlock *Latch = Br->getParent();
  BranchInst *New;
  if (Br->isUnconditional()) {
    New = B.CreateCondBr(Cont, Header, Check);
  } else {
    bool HeaderOnTrue = Br->getSuccessor(0) == Header;
    BasicBlock *Out = Br->getSuccessor(HeaderOnTrue ? 1 : 0);
    BasicBlock *Sel = BasicBlock::Create(LC, "gmem.ckpt.sel", &F);
    BranchInst::Create(HeaderOnTrue ? Check : Out, HeaderOnTrue ? Out : Check,
                       Br->getCondition(), Sel);
    Out->replacePhiUsesWith(Latch, Sel);
    New = B.CreateCondBr(Cont, Header, Sel);
  }
  New->copyMetadata(*Br, {LLVMContext::MD_loop});
  Br->eraseFromParent();
}

/// A paced loop checked in its body (Site::PacedInBody): no strip-mining.
/// Two header phis, `pace` (as stripMine's) and `left`, the trips left in
/// the segment; the latch goes on while the loop does and `left - 1 != 0`
/// (one subtract and one compare a trip, besides the loop's own), and the
/// check, reached from the latch, updates the pace, sets `left` to 2^s,
/// reads the landing area and stops or goes back to the header. What this
/// is for: a strip-mined segment's end leaves the inner loop, runs the
/// check and the next segment's limit as one dependent chain and enters
/// the loop again, ~160 cycles of a warp's time on the H200 in loops that
/// wait on memory every trip (bench/preempt/results/session42); here the
/// trip's own compare stays and only the check's chain remains. Soundness
/// is the latch check's: a due check that does not stop goes back to the
/// header with every value the latch would have given it, so the loop runs
/// exactly its trips; a stop leaves a request-2 (idempotent) launch's CTA
/// through the abort path, to be re-run.
bool LatchCheckBuilder::checkPacedInBody(const Site &S, BasicBlock *Latch,
                                         ArrayRef<BasicBlock *> Entries) {
  BasicBlock *Header = S.Header;
  auto *Br = cast<BranchInst>(Latch->getTerminator());
  Type *I32 = Type::getInt32Ty(LC);
  SmallVector<PHINode *, 8> Original;
  for (PHINode &PN : Header->phis())
    Original.push_back(&PN);
  PHINode *Pace = PHINode::Create(I32, Entries.size() + 2, "gmem.pace", Header->begin());
  PHINode *Left = PHINode::Create(I32, Entries.size() + 2, "gmem.pace.left", Header->begin());
  // Each entry edge starts a segment of at most min(K, 4) trips.
  addPaceStarts(Pace, Entries, S);
  for (BasicBlock *E : Entries)
    Left->addIncoming(ConstantInt::get(I32, 1u << startShift(S.K)), E);
  IRBuilder<> B(Br);
  Value *LeftNext = B.CreateSub(Left, B.getInt32(1), "gmem.pace.left.next");
  Pace->addIncoming(Pace, Latch);
  Left->addIncoming(LeftNext, Latch);
  Value *NotDue = B.CreateICmpNE(LeftNext, B.getInt32(0), "gmem.not.due");
  Value *Cont = Br->isUnconditional() ? NotDue : B.CreateAnd(continueCond(B, Br, Header), NotDue);

  BasicBlock *Check = BasicBlock::Create(LC, "gmem.ckpt", &F);
  IRBuilder<> CB(Check);
  BranchInst *ToHeaderBr = CB.CreateBr(Header);
  CB.SetInsertPoint(ToHeaderBr);
  Value *Landed = loadLanded(CB, Ctx);
  Value *PaceNext = emitPaceUpdate(CB, Pace, S.PaceCycles, S.Scaled ? segScale(Ctx) : nullptr);
  // (A warp-vote site's entries start alike, and its checks take lane 0's
  // length, so every lane reaches each check on the same trip.)
  Value *LeftNew = CB.CreateShl(CB.getInt32(1), paceShift(CB, segmentPace(CB, S, PaceNext)),
                                "gmem.pace.left.new");
  Value *Stop = emitPacedBodyCheck(ToHeaderBr, Ctx, Landed, PaceNext);
  BasicBlock *CheckEnd = ToHeaderBr->getParent();
  for (PHINode *PN : Original)
    PN->addIncoming(PN->getIncomingValueForBlock(Latch), CheckEnd);
  Pace->addIncoming(PaceNext, CheckEnd);
  Left->addIncoming(LeftNew, CheckEnd);
  rewireLatch(Br, Cont, Header, Check);
  finishCheck(ToHeaderBr, Stop, Header);
  return true;
}

/// Limit kind: strip-mines the loop. A new block `gmem.ckpt.seg` in front
/// of the header starts each segment of at most K iterations: it takes
/// over the header's phis from the loop's entries and from the check, and
/// computes the segment's Limit once. The header then keeps only two
/// incoming edges (the segment start and the latch), so the inner loop
/// compares against a value that does not change inside it: a counted
/// loop ptxas can unroll as it would the original, where a header phi
/// for the limit (the earlier Limit kind) made it give up. Returns the
/// segment block and the segment's Limit. \p Entries: the header's
/// predecessors outside the loop (one per edge); \p Check and \p CheckEnd:
/// the check's first and last block.
LatchCheckBuilder::Segment LatchCheckBuilder::stripMine(const Site &S,
                                                       ArrayRef<BasicBlock *> Entries,
                                                       BasicBlock *Latch, BasicBlock *Check,
                                                       BasicBlock *CheckEnd) {
  BasicBlock *Header = S.Header;
  BasicBlock *Seg = BasicBlock::Create(LC, "gmem.ckpt.seg", &F, Header);
  PHINode *IV0 = nullptr;
  for (PHINode &PN : Header->phis()) {
    PHINode *Outer = PHINode::Create(PN.getType(), PN.getNumIncomingValues() + 1,
                                     PN.getName() + ".seg", Seg);
    for (unsigned I = 0; I < PN.getNumIncomingValues(); ++I)
      if (PN.getIncomingBlock(I) != Latch)
        Outer->addIncoming(PN.getIncomingValue(I), PN.getIncomingBlock(I));
    Outer->addIncoming(PN.getIncomingValueForBlock(Latch), CheckEnd);
    for (BasicBlock *E : Entries)
      while (PN.getBasicBlockIndex(E) >= 0) // a switch may enter twice
        PN.removeIncomingValue(E, /*DeletePHIIfEmpty=*/false);
    PN.addIncoming(Outer, Seg);
    if (&PN == S.IV)
      IV0 = Outer;
  }
  for (BasicBlock *E : Entries)
    E->getTerminator()->replaceSuccessorWith(Header, Seg);
  IRBuilder<> SB(Seg);
  Value *Limit;
  if (S.Paced) {
    // The segment's start time and length travel in one register.
    PHINode *Pace = SB.CreatePHI(SB.getInt32Ty(), Entries.size() + 1, "gmem.pace");
    addPaceStarts(Pace, Entries, S);
    IRBuilder<> UB(&*Check->getFirstInsertionPt());
    Pace->addIncoming(emitPaceUpdate(UB, Pace, S.PaceCycles, S.Scaled ? segScale(Ctx) : nullptr),
                      CheckEnd);
    // A warp-vote site's segment length: lane 0's, at the segment's start.
    Value *SegPace = segmentPace(SB, S, Pace);
    Limit = isMinMaxForm(S.Form)
                ? emitPacedLimit(SB, IV0, S.Step, S.Bound, paceShift(SB, SegPace),
                                 nearerOf(S.Form), S.ContPred)
                : emitPacedStrideLimit(SB, IV0, cast<ConstantInt>(S.Step), S.Bound,
                                       paceShift(SB, SegPace));
    Limit->setName("gmem.ckpt.limit");
    Value *Pending = emitPacedPrefetch(SB.CreateBr(Header), Ctx, Pace);
    return {Seg, Limit, Pending};
  }
  Limit = limitFrom(SB, S, IV0);
  Limit->setName("gmem.ckpt.limit");
  SB.CreateBr(Header);
  return {Seg, Limit};
}

} // namespace gmem::ckpt

//===- CheckpointLoopPace.cpp - Strip-mined segments timed on %clock ------===//
//
// The static check interval K (CheckpointLoops.cpp) comes from a cost model
// in "ALU units": a global load counts 8. It says nothing about time, and on
// the H200 the corpus's memory-bound loops went far longer between checks
// than the ALU-bound victims the budget was tuned on: a grid-stride copy ran
// ~50 us per segment and stopped at P99 44.5 us, iota 17.3 us, saxpy_gs 22.4
// us (bench/preempt/results/parts/pace, the "stops" part).
//
// A paced segment keeps its length as a power of two, K = 2^s, and measures
// itself: the thread notes %clock when a segment starts, and the check at
// its end, having read the clock again, moves s by log2(target / elapsed),
// rounded through the leading zeros of both (one `clz`):
//
//     s' = clamp(s + clz(elapsed) - clz(target), 0, MaxPaceShift)
//
// so segments settle between target and twice the target whatever a trip
// costs: an ALU loop keeps about the K the model gave it, a loop waiting on
// DRAM checks every trip or two. A loop entry starts at K <= 4 (a first
// segment of a slow loop must not run long) and reaches its pace after one
// segment. The clock and s travel in one register, `pace`: the clock with
// its low PaceShiftBits bits replaced by s (a resolution of 64 cycles).
//
// Reading the request. The request cache (CheckpointIR.cpp, cachedRequest)
// refreshes synchronously: the warp that finds the cache's deadline passed
// reads the control word and waits for it. Once segments are as short as
// the refresh period, nearly every check of every warp waited for an L2
// round trip (iota +4% -> +44% over its kernel with 1-2 us segments, H100).
// A paced loop therefore refreshes at the *start* of a segment: where the
// deadline has passed (by the segment's start clock, held in `pace`), the
// thread moves it and issues the read, and only the check at the segment's
// end uses the value (`pending`), so the read's latency hides behind the
// segment; that check publishes a nonzero value in the cache and decides on
// the cached value or'ed with its own. Within a launch the request only
// goes from 0 to its one value, so the or is that value whenever either saw
// it, and a stale cache only delays a stop. On sm_80+ the read is a
// cp.async into a landing area that the checks read (refreshIfDue); the
// every-trip checks of loops with chained loads read it too
// (landedRequest): their trips wait on dependent misses, behind which a
// synchronous refresh waited as well.
//
// Where the loop touches memory (and the clone has a landing area) the
// segment is not strip-mined but counted down in the loop's own header
// (CheckpointLatchCheck.cpp, checkPacedInBody): the same pace, update and
// landing read, without the inner loop's exit, limit and re-entry
// (emitPacedBodyCheck).
//
// Soundness does not depend on any of this: the segment's limit is still
// the nearer of the real bound and K steps ahead (limitFrom's argument), so
// continuing on it implies continuing on the real test for any K >= 1; the
// steps ahead are computed in 64 bits for narrower induction variables, so
// a large K times a grid-stride step does not wrap into a short segment.
//
//===----------------------------------------------------------------------===//

#include "CheckpointLoopPace.h"

#include "llvm/ADT/bit.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <algorithm>
#include <cstdlib>

using namespace llvm;

namespace gmem::ckpt {

namespace {
/// Low bits of `pace` that hold the shift s.
constexpr unsigned PaceShiftBits = 6;
/// K at most 2^16 iterations per segment (a trip of one cycle would need
/// 2^16 cycles, far above any target).
constexpr unsigned MaxPaceShift = 16;
/// A loop entry's first segment is at most 2^2 iterations.
constexpr unsigned MaxStartShift = 2;
/// The landing area: 4 words that cp.async fills, then the deadline.
constexpr unsigned LandingWords = 8, LandingDeadline = 4;

/// \p Clock with the low PaceShiftBits bits cleared: a pace's clock part.
Value *clockPart(IRBuilder<> &B, Value *Clock) {
  return B.CreateAnd(Clock, B.getInt32(~((1u << PaceShiftBits) - 1)));
}

Value *clockBits(IRBuilder<> &B) { return clockPart(B, readClock(B)); }
} // namespace

namespace {
/// GMEM_CHECKPOINT_PACE_START=s: a loop entry's first segment is at most
/// 2^s iterations (default 2; at most MaxPaceShift), for A/Bs (s = 16, the
/// static K's first segment, lost softmax_rows its stop: bench/preempt/
/// results/parts/defer, call2).
unsigned maxStartShift() {
  static const unsigned Max = [] {
    const char *V = std::getenv("GMEM_CHECKPOINT_PACE_START");
    return V && *V ? std::min<unsigned>(unsigned(std::atoi(V)), MaxPaceShift) : MaxStartShift;
  }();
  return Max;
}
} // namespace

unsigned startShift(unsigned StaticK) {
  unsigned S = 0;
  while (S < maxStartShift() && (2u << S) <= StaticK)
    ++S;
  return S;
}

Value *emitPaceAtEntry(IRBuilder<> &B, unsigned StaticK) {
  return B.CreateOr(clockBits(B), B.getInt32(startShift(StaticK)), "gmem.pace.start");
}

Value *paceShift(IRBuilder<> &B, Value *Pace) {
  return B.CreateAnd(Pace, B.getInt32((1u << PaceShiftBits) - 1), "gmem.pace.shift");
}

Value *emitPaceUpdate(IRBuilder<> &B, Value *Pace, unsigned TargetCycles, Value *Scale) {
  Value *Now = clockBits(B);
  Value *Start = clockPart(B, Pace);
  Value *Elapsed = B.CreateSub(Now, Start, "gmem.pace.elapsed");
  // ctlz(0) is 32: an elapsed time below the clock's resolution doubles K
  // several times at once, as it should.
  Value *Lz = B.CreateBinaryIntrinsic(Intrinsic::ctlz, Elapsed, B.getFalse());
  const int TargetLz = int(countl_zero(TargetCycles));
  Value *S = B.CreateAdd(B.CreateSub(paceShift(B, Pace), B.getInt32(TargetLz)), Lz);
  if (Scale) // a target 2^s times longer has s fewer leading zeros
    S = B.CreateAdd(S, Scale, "gmem.pace.scaled");
  S = B.CreateBinaryIntrinsic(Intrinsic::smax, S, B.getInt32(0));
  S = B.CreateBinaryIntrinsic(Intrinsic::smin, S, B.getInt32(MaxPaceShift));
  return B.CreateOr(Now, S, "gmem.pace.next");
}

Value *emitPacedLimit(IRBuilder<> &B, Value *Start, Value *Step, Value *Bound, Value *Shift,
                      Intrinsic::ID Nearer, CmpInst::Predicate ContPred) {
  Type *Ty = Step->getType();
  const unsigned Bits = Ty->getIntegerBitWidth();
  const bool Signed = CmpInst::isSigned(ContPred);
  Type *Wide = Bits < 64 ? B.getInt64Ty() : Ty;
  auto Ext = [&](Value *V, bool S) -> Value * {
    return Bits < 64 ? (S ? B.CreateSExt(V, Wide) : B.CreateZExt(V, Wide)) : V;
  };
  // The step keeps its sign (the direction); start and bound are read as
  // the latch's compare reads them.
  Value *StepW = Ext(Step, /*S=*/true), *StartW = Ext(Start, Signed);
  Value *ShiftW = B.CreateZExt(Shift, Wide);
  // 1.5 K steps: a bound within that runs as one segment (limitFrom); only
  // where the segment ends depends on it.
  Value *KStep = B.CreateShl(StepW, ShiftW);
  Value *AheadW = B.CreateAdd(StartW, KStep);
  Value *ProbeW = B.CreateAdd(StartW, B.CreateAdd(KStep, B.CreateAShr(KStep, 1)));
  Value *Far = B.CreateICmp(ContPred, ProbeW, Ext(Bound, Signed), "gmem.ckpt.far");
  Value *Ahead = Bits < 64 ? B.CreateTrunc(AheadW, Ty) : AheadW;
  return B.CreateSelect(Far, B.CreateBinaryIntrinsic(Nearer, Bound, Ahead), Bound);
}

Value *emitPacedStrideLimit(IRBuilder<> &B, Value *Start, ConstantInt *Step, Value *Bound,
                            Value *Shift) {
  // The loop continues while iv.next != Bound, stepping by the constant
  // Step. Bound is Dist = |Bound - Start| (modular, in the step's direction)
  // away; if that exceeds 1.5 K|Step|, none of the next K values can equal
  // it (j |Step| <= K |Step| < Dist < 2^bits: no wrap), so the segment may
  // stop K steps ahead; otherwise the bound comes first (or, where Dist is
  // not a multiple of the step, never, as in the kernel). The caller keeps
  // |Step| << MaxPaceShift far below 2^62 (pacedStrideOk).
  Type *Ty = Step->getType();
  const unsigned Bits = Ty->getIntegerBitWidth();
  const bool Up = !Step->isNegative();
  // In the IV's own width where 1.5 |Step| 2^MaxPaceShift stays below half
  // its range (a counter stepping by 1: a 32-bit IV saves the 64-bit pairs
  // of SASS a segment's start would otherwise pay), else in 64 bits.
  const bool Narrow =
      Step->getValue().abs().getActiveBits() + MaxPaceShift + 1 < Bits - 1;
  Type *Wide = Narrow ? Ty : B.getInt64Ty();
  auto Ext = [&](Value *V) { return Wide != Ty ? B.CreateZExt(V, Wide) : V; };
  Value *Dist = Ext(Up ? B.CreateSub(Bound, Start) : B.CreateSub(Start, Bound));
  Value *ShiftW = B.CreateZExtOrTrunc(Shift, Wide);
  Value *KSpan = B.CreateShl(ConstantInt::get(Wide, Step->getValue().abs().getZExtValue()), ShiftW);
  Value *Far = B.CreateICmpUGT(Dist, B.CreateAdd(KSpan, B.CreateLShr(KSpan, 1)), "gmem.ckpt.far");
  Value *KStep = B.CreateShl(Wide != Ty ? B.CreateSExt(Step, Wide) : Step, ShiftW);
  Value *Ahead = B.CreateAdd(Ext(Start), KStep);
  if (Wide != Ty)
    Ahead = B.CreateTrunc(Ahead, Ty);
  return B.CreateSelect(Far, Ahead, Bound);
}

bool pacedStrideOk(const ConstantInt *Step) {
  const APInt &V = Step->getValue();
  // 1.5 |Step| 2^MaxPaceShift below half the IV's range and below 2^62.
  unsigned Need = V.abs().getActiveBits() + MaxPaceShift + 1;
  return !V.isZero() && Need < std::min(V.getBitWidth() - 1, 62u);
}

GlobalVariable *createLanding(Module &M, Function &Clone) {
  Type *Ty = ArrayType::get(Type::getInt32Ty(M.getContext()), LandingWords);
  auto *GV = new GlobalVariable(M, Ty, /*isConstant=*/false, GlobalValue::InternalLinkage,
                                UndefValue::get(Ty), "__gmem_landing_" + Clone.getName(), nullptr,
                                GlobalValue::NotThreadLocal, /*AddressSpace=*/3);
  GV->setAlignment(Align(16));
  return GV;
}

void initLanding(IRBuilder<> &B, GlobalVariable *Landing) {
  B.CreateAlignedStore(B.getInt32(0), ctaStateWord(B, Landing, 0), Align(4), /*isVolatile=*/true);
  B.CreateAlignedStore(readClock(B), ctaStateWord(B, Landing, LandingDeadline), Align(4),
                       /*isVolatile=*/true);
}

void waitForLandings(Function &Clone) {
  for (BasicBlock &BB : Clone)
    if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator())) {
      IRBuilder<> B(RI);
      B.CreateIntrinsic(Intrinsic::nvvm_cp_async_wait_all, {}, {});
    }
}

namespace {

/// Where \p Deadline (a shared word) has passed by \p Now: a block, before
/// \p Before, that moves it RefreshCycles past what \p From gives there
/// and, where the clone has a landing area, copies the control block's
/// first 16 bytes into it with a cp.async nobody waits for. Returns that
/// block's terminator.
Instruction *refreshIfDue(Instruction *Before, const CloneContext &Ctx, Value *Deadline, Value *Now,
                          function_ref<Value *(IRBuilder<> &)> From) {
  IRBuilder<> B(Before);
  Value *Late =
      B.CreateSub(Now, B.CreateAlignedLoad(B.getInt32Ty(), Deadline, Align(4), /*isVolatile=*/true));
  Value *Due = B.CreateICmpSGE(Late, B.getInt32(0), "gmem.cache.due");
  Instruction *Then = SplitBlockAndInsertIfThen(Due, Before, /*Unreachable=*/false);
  Then->getParent()->setName("gmem.cache.prefetch");
  IRBuilder<> TB(Then);
  TB.CreateAlignedStore(TB.CreateAdd(From(TB), TB.getInt32(Ctx.RefreshCycles)), Deadline, Align(4),
                        /*isVolatile=*/true);
  if (Ctx.Landing)
    TB.CreateIntrinsic(Intrinsic::nvvm_cp_async_cg_shared_global_16, {},
                       {ctaStateWord(TB, Ctx.Landing, 0), Ctx.Ctl});
  return Then;
}

} // namespace

Value *emitPacedPrefetch(Instruction *Before, const CloneContext &Ctx, Value *Pace) {
  IRBuilder<> B(Before);
  if (!Ctx.ReqCache)
    return loadRequest(B, Ctx.Ctl); // no cache: every segment reads the word
  GlobalVariable *Words = Ctx.Landing ? Ctx.Landing : Ctx.ReqCache;
  Value *Deadline = ctaStateWord(B, Words, Ctx.Landing ? LandingDeadline : 1);
  Value *Start = clockPart(B, Pace);
  Instruction *Then = refreshIfDue(Before, Ctx, Deadline, Start, [&](IRBuilder<> &) { return Start; });
  if (Ctx.Landing)
    return nullptr; // the checks read the landing area
  IRBuilder<> TB(Then);
  Value *Fresh = loadRequest(TB, Ctx.Ctl);
  PHINode *P = PHINode::Create(B.getInt32Ty(), 2, "gmem.request.pending", Before->getIterator());
  P->addIncoming(Fresh, Then->getParent());
  P->addIncoming(B.getInt32(0), Then->getParent()->getSinglePredecessor());
  return P;
}

Value *landedRequest(Instruction *Before, const CloneContext &Ctx) {
  // The synchronous refresh of cachedRequest makes the warp that finds the
  // deadline passed wait for an L2 round trip queued behind the kernel's
  // own traffic; here it only issues the copy, and this check (like every
  // other until the copy lands) sees the value before it. A stale value
  // only delays a stop. (A second clock read in the refresh, as in
  // cachedRequest, rather than keeping the first live across the branch.)
  IRBuilder<> B(Before);
  Value *Now = readClock(B);
  refreshIfDue(Before, Ctx, ctaStateWord(B, Ctx.Landing, LandingDeadline), Now,
               [](IRBuilder<> &TB) { return readClock(TB); });
  IRBuilder<> AB(Before);
  return AB.CreateAlignedLoad(AB.getInt32Ty(), ctaStateWord(AB, Ctx.Landing, 0), Align(4),
                              /*isVolatile=*/true, "gmem.request.landed");
}

Value *loadLanded(IRBuilder<> &B, const CloneContext &Ctx) {
  return B.CreateAlignedLoad(B.getInt32Ty(), ctaStateWord(B, Ctx.Landing, 0), Align(4),
                             /*isVolatile=*/true, "gmem.request.landed");
}

Value *emitPacedBodyCheck(Instruction *Before, const CloneContext &Ctx, Value *Landed,
                          Value *PaceNext) {
  IRBuilder<> B(Before);
  Value *Now = clockPart(B, PaceNext);
  refreshIfDue(Before, Ctx, ctaStateWord(B, Ctx.Landing, LandingDeadline), Now,
               [&](IRBuilder<> &) { return Now; });
  Before->getParent()->setName("gmem.ckpt.stop");
  IRBuilder<> AB(Before);
  return AB.CreateICmpEQ(Landed, AB.getInt32(2), "gmem.pace.stop");
}

Value *emitPacedRequestTest(Instruction *Before, const CloneContext &Ctx, Value *Pending) {
  IRBuilder<> B(Before);
  if (!Pending) {
    Value *Landed = B.CreateAlignedLoad(B.getInt32Ty(), ctaStateWord(B, Ctx.Landing, 0), Align(4),
                                        /*isVolatile=*/true, "gmem.request.landed");
    return B.CreateICmpEQ(Landed, B.getInt32(2));
  }
  Value *R = Pending;
  if (Ctx.ReqCache) {
    Value *ValueWord = ctaStateWord(B, Ctx.ReqCache, 0);
    Value *Cached = B.CreateAlignedLoad(B.getInt32Ty(), ValueWord, Align(4), /*isVolatile=*/true,
                                        "gmem.request.cached");
    R = B.CreateOr(Cached, Pending, "gmem.request.seen");
    Value *Fresh = B.CreateICmpNE(Pending, B.getInt32(0));
    Instruction *Then = SplitBlockAndInsertIfThen(Fresh, Before, /*Unreachable=*/false);
    Then->getParent()->setName("gmem.cache.publish");
    IRBuilder<> TB(Then);
    TB.CreateAlignedStore(Pending, ValueWord, Align(4), /*isVolatile=*/true);
  }
  return B.CreateICmpEQ(R, B.getInt32(2));
}

} // namespace gmem::ckpt

//===- CheckpointLoopPace.h - Paced loop checks (timed on %clock) ---------===//
//
// The helpers CheckpointLoopPace.cpp gives the latch checks
// (CheckpointLatchCheck.cpp) and the clone's setup (CheckpointInserter.cpp):
// the pace register, the segment limits, the request's landing area and
// its refresh.
//
//===----------------------------------------------------------------------===//

#ifndef GMEM_PASSES_CHECKPOINTLOOPPACE_H
#define GMEM_PASSES_CHECKPOINTLOOPPACE_H

#include "CheckpointInternal.h"

namespace gmem::ckpt {

/// Paced segments (CheckpointLoopPace.cpp). The i32 `pace` holds the
/// segment's start clock and its shift s (K = 2^s).
unsigned paceCyclesFromEnv();
/// Whether paced loops of \p Clone refresh the request with cp.async
/// (GMEM_CHECKPOINT_PREFETCH; needs sm_80+ in its target-cpu).
bool asyncPrefetchFor(const llvm::Function &Clone);
/// The cp.async landing area (CloneContext::Landing) of \p Clone.
llvm::GlobalVariable *createLanding(llvm::Module &M, llvm::Function &Clone);
/// Thread 0 at the clone's entry: request 0, deadline now.
void initLanding(llvm::IRBuilder<> &B, llvm::GlobalVariable *Landing);
/// cp.async.wait_all before every return of \p Clone: no copy may land in
/// shared memory after its CTA has left.
void waitForLandings(llvm::Function &Clone);
/// The request as a check sees it in the landing area, where the cache's
/// deadline has passed first issuing a cp.async of the control word into
/// it that nobody waits for (CheckpointLoopPace.cpp).
llvm::Value *landedRequest(llvm::Instruction *Before, const CloneContext &Ctx);
/// A loop entry's pace: now, and a first segment of at most min(StaticK, 4)
/// iterations.
llvm::Value *emitPaceAtEntry(llvm::IRBuilder<> &B, unsigned StaticK);
/// s of a loop entry's first segment: log2 of min(StaticK, 4), rounded down.
unsigned startShift(unsigned StaticK);
/// s of a pace.
llvm::Value *paceShift(llvm::IRBuilder<> &B, llvm::Value *Pace);
/// The next segment's pace, at the check ending this one: s moved towards
/// a segment of TargetCycles to 2 x TargetCycles; with Scale (i32 s, the
/// clone's segment scale), of 2^s times that.
llvm::Value *emitPaceUpdate(llvm::IRBuilder<> &B, llvm::Value *Pace, unsigned TargetCycles,
                            llvm::Value *Scale = nullptr);
/// The segment's limit: the nearer (Nearer: smin/umin/smax/umax) of Bound
/// and Start + (Step << Shift), or Bound itself within 1.5 x that.
llvm::Value *emitPacedLimit(llvm::IRBuilder<> &B, llvm::Value *Start, llvm::Value *Step,
                            llvm::Value *Bound, llvm::Value *Shift, llvm::Intrinsic::ID Nearer,
                            llvm::CmpInst::Predicate ContPred);

/// The limit of a paced segment of a loop that continues while iv.next !=
/// Bound with the constant \p Step: Start + (Step << Shift) where Bound is
/// over 1.5 times that far away, else Bound.
llvm::Value *emitPacedStrideLimit(llvm::IRBuilder<> &B, llvm::Value *Start,
                                  llvm::ConstantInt *Step, llvm::Value *Bound,
                                  llvm::Value *Shift);
/// Whether emitPacedStrideLimit's 64-bit arithmetic holds for \p Step at
/// every shift a pace may take.
bool pacedStrideOk(const llvm::ConstantInt *Step);

/// At a paced segment's start, before \p Before: where the request cache's
/// deadline has passed by the segment's start clock, move it and issue the
/// control word's read; the i32 read (0 where none was issued), for the
/// check at the segment's end. Without a cache, every segment reads. With a
/// landing area, the read is a cp.async into it and nothing is returned.
llvm::Value *emitPacedPrefetch(llvm::Instruction *Before, const CloneContext &Ctx,
                               llvm::Value *Pace);
/// The landing area's request word (volatile shared load; Ctx.Landing).
llvm::Value *loadLanded(llvm::IRBuilder<> &B, const CloneContext &Ctx);
/// i1 "request == 2" at an in-body paced check (Site::PacedInBody), before
/// \p Before: \p Landed (loadLanded, issued at the check's start so that
/// the pace's update overlaps its latency), with the refresh issued where
/// the landing deadline has passed by \p PaceNext's clock.
llvm::Value *emitPacedBodyCheck(llvm::Instruction *Before, const CloneContext &Ctx,
                                llvm::Value *Landed, llvm::Value *PaceNext);
/// Where paced loops check (GMEM_CHECKPOINT_PACE_FORM): inside the body
/// where they touch memory (Auto), always strip-mined, always in the body.
enum class PacedForm { Auto, Segment, Body };
PacedForm pacedForm();
/// i1 "request == 2" at a paced segment's end: the cached value or'ed with
/// \p Pending, which a nonzero read publishes in the cache.
llvm::Value *emitPacedRequestTest(llvm::Instruction *Before, const CloneContext &Ctx,
                                  llvm::Value *Pending);

} // namespace gmem::ckpt

#endif

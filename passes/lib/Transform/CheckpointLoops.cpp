//===- CheckpointLoops.cpp - Loop checkpoints of preemptible clones -------===//
//
// Where a loop gets a checkpoint, and of which kind:
//
//  * Joined barrier. A CTA barrier (__syncthreads) in the loop that runs on
//    every iteration (its block dominates every latch) becomes the check:
//    NVPTX `bar.red.or` over "I saw request == 2", AMDGPU a store of 1 to an
//    LDS stop word before the s_barrier and a read after it. All threads of
//    the CTA see one decision at the same barrier instance and leave together.
//  * Per-thread latch check. Where no barrier, warp collective or unknown
//    call can be reached from the loop (in it, or anywhere after it), a
//    thread may leave alone: nobody will wait for it. The check is folded
//    into the latch branch. On NVPTX it reads the CTA's request cache
//    (CheckpointIR.cpp, cachedRequest), not the control word.
//  * Warp-vote latch check. Where only warp collectives can be reached (a
//    wmma k-loop, a loop of shuffles) and whole warps run the loop alike
//    (WarpAlikeBlocks; persistent forms, whole-warp rows), the latch check
//    leaves on `vote.any.sync` over the lanes' requests: the warp leaves
//    together, so no collective waits for a lane that left. Counted by IV or
//    Limit only (the per-thread counter may differ between lanes); a paced
//    segment takes lane 0's length (%clock differs between lanes).
//  * Nothing, elsewhere (a barrier-free loop followed by a barrier).
//
// Amortisation. A site of loop body cost W (weighted instructions, subloops
// without a counting check of their own times their trip count) checks
// every K = ceil(budget / W) iterations; W >= budget checks every
// iteration. Latch checks count with, in order of preference:
//  * Limit (default; GMEM_CHECKPOINT_LIMIT=0 turns it off): the loop is
//    strip-mined into segments of at most K iterations (the last one up to
//    1.5 K); the exit compare runs against the segment's limit, computed once
//    per segment: no extra instruction per iteration, and the inner loop is
//    a counted loop ptxas unrolls as it would the original; entries of an
//    innermost loop that run at most 2 K iterations in all (known at the
//    entry) take an untouched copy instead (CheckpointLoopVersion.cpp;
//    GMEM_CHECKPOINT_VERSION=0 turns it off), which ptxas compiles like the
//    original: it does not see that a segment is a whole number of steps.
//    On NVPTX a min/max latch's segments are timed on %clock instead, K a
//    power of two that settles at 1-2 us a segment (CheckpointLoopPace.cpp;
//    the static K still decides whether a loop checks at all and which
//    entries are short);
//  * IV: an integer induction variable, iv.next != at (at = K steps ahead):
//    one compare per iteration;
//  * the per-thread work counter (gmem.work.left, starts at the budget, each
//    iteration subtracts W, the check comes below zero): one subtract and
//    one compare.
// Joined barriers (NVPTX) are strip-mined by Limit too where every thread
// computes the same segments (a CTA-uniform IV, step and bound): the loop's
// barriers stay as they were and one reduction between segments decides
// (segmentBarrierStop). Elsewhere, and on AMDGPU, a counter of the site
// that every thread steps alike picks the iterations whose barrier decides.
//
//===----------------------------------------------------------------------===//

#include "CheckpointLoopPace.h"
#include "CheckpointLoopSite.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopUtils.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <optional>
#include <tuple>

using namespace llvm;

namespace gmem::ckpt {

namespace {

/// Back to the per-iteration form of a site's check: no induction variable
/// to strip-mine by.
void unsegment(Site &S) {
  S.IV = nullptr;
  S.Form = LatchForm::None;
}

/// An analysis remark about loop \p L (`-pass-remarks-analysis=
/// gmem-checkpoint`), where the clone reports them.
void remarkLoop(std::optional<OptimizationRemarkEmitter> &ORE, Loop &L, StringRef Name,
                const std::string &Text) {
  if (!ORE)
    return;
  ORE->emit([&] {
    return OptimizationRemarkAnalysis("gmem-checkpoint", Name, L.getStartLoc(), L.getHeader())
           << Text;
  });
}

} // namespace

LoopCheckpointStats insertLoopCheckpoints(Function &F, CloneContext &Ctx) {
  LoopCheckpointStats Stats;
  DominatorTree DT(F);
  LoopInfo LI(DT);
  if (LI.empty())
    return Stats;
  // Loops with subloops get a preheader where the pipeline's last
  // SimplifyCFG left them none: that is where a nest's work and K are
  // computed (CheckpointLoopNest.cpp). Innermost loops are left as they are.
  if (!envSaysOff("GMEM_CHECKPOINT_NEST"))
    for (Loop *L : LI.getLoopsInPreorder())
      if (!L->getSubLoops().empty() && !L->getLoopPreheader())
        InsertPreheaderForLoop(L, &DT, &LI, /*MSSAU=*/nullptr, /*PreserveLCSSA=*/false);
  TargetLibraryInfoImpl TLII{Triple(F.getParent()->getTargetTriple())};
  TargetLibraryInfo TLI(TLII);
  AssumptionCache AC(F);
  ScalarEvolution SE(F, TLI, AC, DT, LI);

  const bool Defer = deferredStopsEnabled();
  std::optional<OptimizationRemarkEmitter> ORE;
  if (Ctx.Remarks)
    ORE.emplace(&F);
  // Blocks that synchronise, and those from which such a block is reachable;
  // the same for what a whole warp leaving together cannot satisfy (CTA
  // barriers, opaque calls, grid synchronisation: all but warp collectives).
  SmallPtrSet<BasicBlock *, 16> ReachesSync, ReachesBarrier;
  SmallVector<CallInst *, 8> Joinable;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      SyncKind K = classifySync(I, Ctx.Arch);
      if (K == SyncKind::None)
        continue;
      ReachesSync.insert(&BB);
      if (K != SyncKind::Collective)
        ReachesBarrier.insert(&BB);
      if (K == SyncKind::MergeableBarrier)
        Joinable.push_back(cast<CallInst>(&I));
    }
  for (SmallPtrSet<BasicBlock *, 16> *Reaches : {&ReachesSync, &ReachesBarrier}) {
    SmallVector<BasicBlock *, 16> Work(Reaches->begin(), Reaches->end());
    while (!Work.empty())
      for (BasicBlock *P : predecessors(Work.pop_back_val()))
        if (Reaches->insert(P).second)
          Work.push_back(P);
  }
  std::optional<WarpAlikeBlocks> Alike;
  auto WarpVoteOk = [&](Loop &L) {
    if (!Ctx.WarpVoteLoops || Ctx.Arch != GpuArch::NVPTX || ReachesBarrier.count(L.getHeader()) ||
        envSaysOff("GMEM_CHECKPOINT_WARP_VOTE"))
      return false;
    if (!Alike)
      Alike.emplace(F, Ctx.Arch);
    return Alike->loopReachedAlike(L);
  };

  // Innermost loops first: a barrier joins the innermost loop it runs in
  // every iteration of.
  SmallVector<Site, 8> Sites;
  SmallPtrSet<CallInst *, 8> Claimed;
  SmallVector<Loop *, 8> Order = LI.getLoopsInPreorder();
  for (Loop *L : reverse(Order)) {
    Site S;
    S.L = L;
    S.Header = L->getHeader();
    L->getLoopLatches(S.Latches);
    for (CallInst *Bar : Joinable) {
      if (Claimed.count(Bar) || !L->contains(Bar->getParent()))
        continue;
      if (all_of(S.Latches, [&](BasicBlock *Lt) { return DT.dominates(Bar->getParent(), Lt); })) {
        S.Barrier = Bar;
        break;
      }
    }
    bool LatchesOk = all_of(S.Latches, [](BasicBlock *Lt) {
      return isa<BranchInst>(Lt->getTerminator());
    });
    std::string Why;
    if (S.Barrier) {
      Claimed.insert(S.Barrier);
    } else if (!LatchesOk || S.Latches.empty() ||
               (ReachesSync.count(S.Header) &&
                !(Defer && (S.Deferred = deferredStopPoint(*L, Ctx.Arch, &Why))) &&
                !(S.WarpVote = WarpVoteOk(*L)))) {
      if (ReachesSync.count(S.Header))
        remarkLoop(ORE, *L, "LoopNotChecked",
                   "no loop checkpoint: a barrier or warp collective follows the loop" +
                       (Why.empty() ? std::string() : " (" + Why + ")"));
      ++Stats.SkippedLoops;
      continue;
    }
    Sites.push_back(S);
  }
  // Deferred stops only where no enclosing loop joined a barrier: that loop
  // stops at its barrier once an iteration already (a tile loop's
  // __syncthreads), so checks in the loops between its barriers would only
  // shorten that wait, at a cost that measured 2x on nbody's tile of 256
  // bodies (~9 us at the overhead table's size; H200, bench/preempt/
  // results/parts/defer). A joined barrier is never a meeting point.
  SmallPtrSet<const Loop *, 8> Joined;
  for (const Site &S : Sites)
    if (S.Barrier)
      Joined.insert(S.L);
  auto InJoinedLoop = [&](Instruction *I) {
    for (Loop *P = I ? LI.getLoopFor(I->getParent()) : nullptr; P; P = P->getParentLoop())
      if (Joined.count(P))
        return true;
    return false;
  };
  erase_if(Sites, [&](const Site &S) {
    bool Drop = S.Deferred && (InJoinedLoop(S.L->getHeader()->getFirstNonPHI()) ||
                               InJoinedLoop(S.Deferred.Meet) || InJoinedLoop(S.Deferred.Then));
    if (Drop)
      remarkLoop(ORE, *S.L, "LoopNotChecked",
                 "no loop checkpoint: an enclosing loop stops at its barrier every iteration");
    else if (S.Deferred)
      remarkLoop(ORE, *S.L, "LoopDeferredStop",
                 std::string("loop checkpoint deferred to the ") +
                     (classifySync(*S.Deferred.Meet, Ctx.Arch) == SyncKind::MergeableBarrier
                          ? "CTA barrier"
                          : S.Deferred.Then ? "warp collective and then the CTA barrier"
                                            : "warp collective") +
                     " after the loop");
    Stats.SkippedLoops += Drop;
    return Drop;
  });

  // Work per iteration counted by each site: its loop's own blocks, plus
  // subloops times their trip count unless they decrease the work counter
  // themselves (an IV-counted subloop restarts its count at every entry).
  // A joined barrier's loop is strip-mined like a latch check where every
  // thread of the CTA computes the same segments: its induction variable,
  // step and bound CTA-uniform (NVPTX; GMEM_CHECKPOINT_JOIN_SEGMENT=0 keeps
  // the per-iteration counter). The loop's own barriers stay as they were
  // and one reduction between segments decides (segmentBarrierStop): the
  // counter and the choice of barrier in every iteration cost
  // tile_sum_async's two-barrier loop ~26% (H200, session 28).
  const bool SegmentJoined =
      Ctx.Arch == GpuArch::NVPTX && !envSaysOff("GMEM_CHECKPOINT_JOIN_SEGMENT");
  std::optional<CtaUniformValues> Uniform;
  for (Site &S : Sites) {
    if (S.Barrier && !SegmentJoined)
      continue;
    findInduction(S);
    matchLimit(S);
    if (!S.Barrier || !S.IV)
      continue;
    bool Ok = S.Form != LatchForm::None && S.Latches.size() == 1 &&
              LatchCheckBuilder::checkable(S, S.Latches.front());
    if (Ok) {
      if (!Uniform)
        Uniform.emplace(F);
      Ok = Uniform->isUniform(S.IV) && Uniform->isUniform(S.Step) &&
           Uniform->isUniform(S.Bound);
    }
    if (!Ok)
      unsegment(S);
  }
  DenseSet<const Loop *> Counting, SiteLoops;
  for (Site &S : Sites) {
    SiteLoops.insert(S.L);
    if (!S.IV) // the work counter, or a joined barrier's own counter
      Counting.insert(S.L);
  }
  std::function<uint64_t(Loop *)> OwnCost = [&](Loop *L) -> uint64_t {
    uint64_t C = 0;
    for (BasicBlock *BB : L->blocks())
      if (LI.getLoopFor(BB) == L)
        for (Instruction &I : *BB)
          C += loopInstructionCost(I, *L);
    for (Loop *Sub : L->getSubLoops())
      if (!Counting.count(Sub))
        C += OwnCost(Sub) * tripEstimate(Sub, SE);
    return std::min<uint64_t>(C, 1u << 24);
  };
  for (Site &S : Sites) {
    S.Weight = std::max<uint64_t>(1, OwnCost(S.L));
    S.Chained = hasChainedLoad(*S.L, LI);
    S.K = unsigned(std::min<uint64_t>((Ctx.Budget + S.Weight - 1) / S.Weight, 1u << 20));
    if (S.Form == LatchForm::NeUp || S.Form == LatchForm::NeDown) {
      // K * |step| must stay far from wrapping for the distance test.
      const APInt &Step = cast<ConstantInt>(S.Step)->getValue();
      unsigned Bits = Step.getBitWidth();
      APInt Mag = Step.abs().zext(Bits + 24), Span = Mag * APInt(Bits + 24, S.K);
      APInt Far = Span + Span.lshr(1); // limitFrom's 1.5 K
      if (Far.getActiveBits() >= Bits - 1 || Far.getActiveBits() > 63) {
        if (S.Barrier)
          unsegment(S);
        else
          S.Form = LatchForm::None;
      } else
        S.KSpan = Span.getZExtValue();
    }
    // K << 3 must keep the distance test as far from wrapping (below).
    bool SpanScalable = true;
    if (S.Form == LatchForm::NeUp || S.Form == LatchForm::NeDown) {
      const APInt &Step = cast<ConstantInt>(S.Step)->getValue();
      unsigned Bits = Step.getBitWidth();
      APInt Span = Step.abs().zext(Bits + 27) * APInt(Bits + 27, uint64_t(S.K) << SegScaleMaxShift);
      APInt Far = Span + Span.lshr(1);
      SpanScalable = Far.getActiveBits() < Bits - 1 && Far.getActiveBits() <= 63;
    }
    S.KDyn = dynamicK(S, LI, SE, Ctx.Budget);
    if (!S.KDyn && (S.Weight >= Ctx.Budget || (S.IV && S.IV->getType()->getIntegerBitWidth() < 32 &&
                                               S.K >= (1u << 14))))
      unsegment(S); // every iteration checks; or the bound would wrap too soon
    // Loops that count with `!=` (LLVM's unrolled loops) are paced only
    // where they touch no memory: there a segment's end costs a few ALU
    // operations, while the time of an iteration depends on how many warps
    // share the SM, which the static model cannot see (an ALU-bound victim
    // at full occupancy went ~6 us between checks). With memory in the loop
    // ptxas's schedule of it suffered (gemm_naive +41%, H200, bench/preempt/
    // results/parts/pace/ne-forms).
    bool PaceStride = (S.Form == LatchForm::NeUp || S.Form == LatchForm::NeDown) &&
                      computePaceCycles(Ctx.PaceCycles) && isa<ConstantInt>(S.Step) &&
                      pacedStrideOk(cast<ConstantInt>(S.Step)) && touchesNoMemory(*S.L);
    // A deferred stop's loop is mostly a row (a norm's, a GEMV's, a
    // softmax's): too short for a pace to grow past its first segments, so
    // it counts the static K; but a grid-stride loop's entry covers the
    // data divided by the grid, as any other paced grid-stride loop's.
    const bool GridStride = S.IV && stridesByGrid(S.Step);
    // (Never a barrier's segments: %clock differs between the CTA's warps.)
    S.Paced = Ctx.PaceCycles && !S.KDyn && S.IV && !S.Barrier &&
              (isMinMaxForm(S.Form) || PaceStride) &&
              (!S.Deferred || deferredStopsPaced() || GridStride);
    // A warp-vote site's segment end costs a shuffle and a vote besides the
    // read: such sites take the longer target of grid-stride loops (H200,
    // wmma_gemm 4096^3: 2048 cycles +9.5%, stop P99 8.7 us).
    S.PaceCycles = !isMinMaxForm(S.Form)      ? computePaceCycles(Ctx.PaceCycles)
                   : GridStride || S.WarpVote ? gridPaceCycles(Ctx.PaceCycles)
                                              : Ctx.PaceCycles;
    if (!S.PaceCycles)
      S.Paced = false;
    // A paced loop that touches memory checks inside its body: its trips
    // wait on memory, beside which the counter's subtract and compare cost
    // nothing, and it keeps the strip-mined segment's exit, limit and
    // re-entry off the warp's path (H200, bench/preempt/results/session43:
    // warp_reduce_sum +7.2% -> +4.0%). A memory-free loop keeps its
    // segments, whose trips carry no instruction of the check.
    S.PacedInBody = S.Paced && pacedForm() != PacedForm::Segment &&
                    (pacedForm() == PacedForm::Body || !touchesNoMemory(*S.L));
    // The segment scale: strip-mined segments of the static K (not the
    // nest's K computed at the entry) and paced ones. Narrow IVs keep the
    // K the wrap rule above allowed.
    S.Scaled = Ctx.SegScaleWord && S.Form != LatchForm::None && !S.KDyn &&
               (S.Paced || (S.Weight < Ctx.Budget && S.K <= SegScaleMaxK && SpanScalable &&
                            !(S.IV && S.IV->getType()->getIntegerBitWidth() < 32 &&
                              (uint64_t(S.K) << SegScaleMaxShift) >= (1u << 14))));
    // An IV or Limit check restarts its count at every entry of the loop, so
    // in a loop that never runs more than K iterations it can never fire:
    // leave it out (the enclosing loop counts this one's cost). A loop
    // whose every entry costs at most the budget (a reduction or scan tree
    // over blockDim) needs no check of its own either, provided whatever
    // encloses it checks: the clone's loop over virtual CTAs, or an
    // enclosing site, which then counts it. (Sites come innermost first, so
    // this loop's subloops are decided when its weight is taken.)
    unsigned MaxTrip = maxTripCount(S.L, SE);
    // A joined barrier's loop that never runs a whole segment: its counter,
    // which goes on across entries, and the rule below for barrier loops.
    if (S.Barrier && S.IV && MaxTrip && MaxTrip <= S.K)
      unsegment(S);
    if (S.IV) {
      S.NeverDue = MaxTrip && MaxTrip <= S.K;
    } else if (MaxTrip && uint64_t(MaxTrip) * S.Weight <= Ctx.Budget) {
      Loop *Parent = S.L->getParentLoop();
      S.NeverDue = !Parent || SiteLoops.count(Parent);
    }
    if (S.NeverDue)
      Counting.erase(S.L);
    if (S.NeverDue && S.KDyn) {
      RecursivelyDeleteTriviallyDeadInstructions(S.KDyn);
      S.KDyn = nullptr;
    }
  }

  // Warp-vote sites count by IV or Limit, or check every trip: the work
  // counter is per thread and other loops may have left it different in
  // each lane. (A paced segment's length comes from lane 0: stripMine.)
  // Lanes that reached the check at different trips would wait for each
  // other at the vote for ever.
  erase_if(Sites, [&](Site &S) {
    if (!S.WarpVote)
      return false;
    const bool Always = S.Weight >= Ctx.Budget && !S.KDyn;
    const bool Drop = !S.NeverDue && !Always && S.Form == LatchForm::None && !S.IV;
    remarkLoop(ORE, *S.L, Drop ? "LoopNotChecked" : "LoopWarpVote",
               Drop ? "no loop checkpoint: warp collectives in or after the loop, and no "
                      "induction variable to count a warp's trips alike"
                    : "loop checkpoint left by a warp vote (warp collectives in or after the "
                      "loop, which whole warps run alike)");
    Stats.SkippedLoops += Drop;
    return Drop;
  });

  // Nests whose entry does at most 2 budgets of work, known at the entry
  // (CheckpointLoopNest.cpp), and short entries of strip-mined innermost
  // loops: an unchecked copy. Conditions are computed and every loop put in
  // LCSSA form first, while SE, DT and LI are current; nests are copied
  // outermost first, before their inner loops get guards of their own.
  SmallVector<std::pair<Loop *, Value *>, 4> Nests;
  if (!envSaysOff("GMEM_CHECKPOINT_NEST") && !envSaysOff("GMEM_CHECKPOINT_VERSION")) {
    DenseMap<const Loop *, const Site *> SiteOf;
    for (const Site &S : Sites)
      SiteOf[S.L] = &S;
    auto Checks = [&](Loop *L) {
      for (Loop *M : L->getLoopsInPreorder())
        if (auto It = SiteOf.find(M); It != SiteOf.end() && !It->second->NeverDue)
          return true;
      return false;
    };
    for (Loop *L : Order) {
      auto It = SiteOf.find(L);
      if (It == SiteOf.end() || It->second->Barrier || L->getSubLoops().empty() || !Checks(L))
        continue;
      if (Value *Short = emitNestIsShort(*L, LI, SE, 2 * uint64_t(Ctx.Budget)))
        Nests.push_back({L, Short});
    }
  }
  SmallVector<std::pair<Site *, ShortEntryTest>, 8> ToVersion;
  for (auto &[L, Short] : Nests)
    if (!prepareLoopVersion(*L, DT, LI, /*Nest=*/true)) {
      RecursivelyDeleteTriviallyDeadInstructions(Short);
      Short = nullptr;
    }
  if (Ctx.VersionShortLoops && !envSaysOff("GMEM_CHECKPOINT_VERSION"))
    for (Site &S : Sites)
      if (ShortEntryTest T = shortEntryTest(S, Ctx.Budget);
          T.usable() && prepareLoopVersion(*S.L, DT, LI))
        ToVersion.push_back({&S, T});
  for (auto &[S, T] : ToVersion)
    placeShortEntryTest(T, *S->L, S->IV);
  for (auto &[L, Short] : Nests)
    if (Short)
      versionLoop(F, *L, [&](IRBuilder<> &, const auto &) { return Short; });
  for (auto &[S, T] : ToVersion)
    versionShortEntries(F, *S->L, S->IV, T);

  LatchCheckBuilder B(F, Ctx);
  DeferredStops Deferred(meetingPointsRead());
  for (Site &S : Sites) {
    unsigned K = S.K;
    if (S.NeverDue) {
      ++Stats.SkippedLoops;
      continue;
    }
    if (S.Barrier && !S.IV) {
      joinBarrier(F, Ctx, S.Barrier, S.Header, S.Weight);
      ++Stats.Merged;
      ++Stats.Sites;
      Stats.MaxInterval = std::max(Stats.MaxInterval, K);
      continue;
    }
    for (BasicBlock *Latch : S.Latches) {
      if (!LatchCheckBuilder::checkable(S, Latch))
        continue;
      B.AbortTo = S.Deferred ? Deferred.abortTarget(S.Deferred, F, Ctx) : nullptr;
      B.Vote = S.WarpVote;
      B.checkLatch(S, Latch);
      ++Stats.Sites;
      Stats.Merged += S.Barrier != nullptr; // a segmented joined barrier
      Stats.WarpVoted += S.WarpVote;
      Stats.MaxInterval = std::max(Stats.MaxInterval, K);
    }
  }
  Deferred.finish(F);
  return Stats;
}

} // namespace gmem::ckpt

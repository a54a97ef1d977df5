//===- CheckpointLoopSite.h - A loop checkpoint site and its latch form ---===//
//
// What CheckpointLoops.cpp knows about one loop that gets a checkpoint: its
// kind (joined barrier or latch check), its cost and K, its induction
// variable and the latch form the Limit kind strip-mines by.
//
//===----------------------------------------------------------------------===//

#ifndef GMEM_PASSES_CHECKPOINTLOOPSITE_H
#define GMEM_PASSES_CHECKPOINTLOOPSITE_H

#include "CheckpointInternal.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"

namespace gmem::ckpt {

enum class LatchForm { None, MinSigned, MinUnsigned, MaxSigned, MaxUnsigned, NeUp, NeDown };

struct Site {
  llvm::Loop *L = nullptr;
  llvm::CallInst *Barrier = nullptr; ///< joined barrier, or null for latch checks
  llvm::BasicBlock *Header = nullptr;
  llvm::SmallVector<llvm::BasicBlock *, 2> Latches;
  uint64_t Weight = 1;
  unsigned K = 1; ///< iterations between two checks
  /// Latch checks of single-latch loops: an integer header phi IV with
  /// IVNext = IV + Step on the back edge (Step loop-invariant).
  llvm::PHINode *IV = nullptr;
  llvm::Value *IVNext = nullptr, *Step = nullptr;
  /// Limit kind: the latch continues while `IVNext ContPred Bound`.
  LatchForm Form = LatchForm::None;
  llvm::CmpInst::Predicate ContPred = llvm::CmpInst::BAD_ICMP_PREDICATE;
  llvm::Value *Bound = nullptr;
  uint64_t KSpan = 0; ///< NeUp/NeDown: K * |step|
  bool NeverDue = false; ///< IV/Limit check that no entry of the loop can reach
  /// The loop loads through addresses its own loads computed (hasChainedLoad).
  bool Chained = false;
  /// Limit kind of a loop with subloops: K computed at each entry from the
  /// iteration's work at this entry's trip counts (CheckpointLoopNest.cpp),
  /// in the IV's type; null: the constant K.
  llvm::Value *KDyn = nullptr;
  /// Limit kind, min/max forms, NVPTX: segments timed on %clock
  /// (CheckpointLoopPace.cpp); K is then the static model's, for the
  /// loop's first segment and the short-entry test only.
  bool Paced = false;
  /// Paced, with a landing area: checked inside the body by a segment
  /// counter instead of strip-mined (checkPacedInBody; pacedForm()).
  bool PacedInBody = false;
  /// Limit kind of the static K, or paced: the segment follows the clone's
  /// segment scale (CloneContext::SegScaleWord): K << s iterations, or 2^s
  /// times the pace target.
  bool Scaled = false;
  /// Paced: the SM cycles a segment aims at (CloneContext::PaceCycles, or
  /// the compute-loop target for memory-free `!=` loops).
  unsigned PaceCycles = 0;
  /// Warp-vote check: the loop holds or is followed by warp collectives (no
  /// CTA barrier), and whole warps run it alike (WarpAlikeBlocks): the
  /// lanes leave together, on `vote.any.sync` of what each saw.
  bool WarpVote = false;
  /// Deferred stop (CheckpointDeferredStop.cpp): the barrier or warp
  /// collective after the loop where its checks stop; none: they leave at
  /// once.
  DeferredStopPoint Deferred;
};

/// Builds a site's check on its latch (CheckpointLatchCheck.cpp): the
/// Limit kind strip-mines the loop, IV and counter kinds add a compare; the
/// check stops (aborts, or jumps to a deferred stop's meeting point) or goes
/// back to the loop. A joined barrier's site with an induction variable
/// gets the Limit kind's segments and decides between them with a barrier
/// reduction.
class LatchCheckBuilder {
public:
  LatchCheckBuilder(llvm::Function &F, CloneContext &Ctx);

  /// Where the checks being built go when they stop: the clone's abort
  /// block, or for a deferred stop a jump to its meeting point.
  llvm::BasicBlock *AbortTo = nullptr;
  /// The site's lanes leave by a warp vote (Site::WarpVote).
  bool Vote = false;

  /// Whether \p Latch ends in a branch that goes back to the header once.
  static bool checkable(const Site &S, llvm::BasicBlock *Latch);
  /// The check on \p Latch, of the kind the site says; false where the
  /// latch is not checkable.
  bool checkLatch(const Site &S, llvm::BasicBlock *Latch);

private:
  struct Segment {
    llvm::BasicBlock *Start;        ///< gmem.ckpt.seg, where a check goes on
    llvm::Value *Limit;             ///< the segment's limit
    llvm::Value *Pending = nullptr; ///< paced: the request read at the start
  };
  void finishCheck(llvm::BranchInst *ToHeaderBr, llvm::Value *Stop, llvm::BasicBlock *Header);
  void rewireLatch(llvm::BranchInst *Br, llvm::Value *Cont, llvm::BasicBlock *Header,
                   llvm::BasicBlock *Check);
  bool checkPacedInBody(const Site &S, llvm::BasicBlock *Latch,
                        llvm::ArrayRef<llvm::BasicBlock *> Entries);
  static llvm::Value *continueCond(llvm::IRBuilder<> &B, llvm::BranchInst *Br,
                                   llvm::BasicBlock *Header);
  llvm::Value *limitFrom(llvm::IRBuilder<> &B, const Site &S, llvm::Value *Start);
  Segment stripMine(const Site &S, llvm::ArrayRef<llvm::BasicBlock *> Entries,
                    llvm::BasicBlock *Latch, llvm::BasicBlock *Check,
                    llvm::BasicBlock *CheckEnd);

  llvm::Function &F;
  CloneContext &Ctx;
  llvm::LLVMContext &LC;
};

bool isMinMaxForm(LatchForm F);
/// The min/max intrinsic that picks, of two limits, the one the loop
/// reaches first.
llvm::Intrinsic::ID nearerOf(LatchForm F);
/// Site S's K at the loop's entry where its subloops' trip counts are
/// known there (CheckpointLoopNest.cpp); null: the constant K.
llvm::Value *dynamicK(const Site &S, llvm::LoopInfo &LI, llvm::ScalarEvolution &SE,
                      unsigned Budget);
/// The site's exit test in the terms of CheckpointLoopVersion.cpp.
ShortEntryTest shortEntryTest(const Site &S, unsigned Budget);
/// The latch continues while `IVNext pred N` (N loop-invariant): which
/// limit the segment may use instead of N (the Limit kind).
void matchLimit(Site &S);
/// An induction variable to count iterations with, instead of a counter.
void findInduction(Site &S);
/// Whether \p Step is computed from the grid's size (%nctaid): a
/// grid-stride loop's.
bool stridesByGrid(llvm::Value *Step);
/// Whether no instruction of \p L reads or writes memory (or calls what
/// might).
bool touchesNoMemory(const llvm::Loop &L);

} // namespace gmem::ckpt

#endif

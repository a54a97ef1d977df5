//===- CheckpointInternal.h - Shared by the checkpoint sources --*- C++ -*-===//
//
// CheckpointInserter.cpp builds the clone and its entry checkpoint;
// CheckpointSync.cpp says which instructions synchronise threads;
// CheckpointLoops.cpp places the loop checkpoints and builds latch checks;
// CheckpointBarriers.cpp builds the ones joined to a barrier;
// CheckpointLoopCost.cpp is the cost model that spaces them;
// CheckpointLoopVersion.cpp gives short loop entries an unchecked copy;
// CheckpointLoopNest.cpp bounds a loop nest's work at its entry;
// CheckpointIR.cpp holds the IR pieces they share.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_TRANSFORM_CHECKPOINTINTERNAL_H
#define GMEM_TRANSFORM_CHECKPOINTINTERNAL_H

#include "gmem/passes/GpuTarget.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/IR/CycleInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"

#include <memory>
#include <string>
#include <utility>

namespace llvm {
class DominatorTree;
class Loop;
class LoopInfo;
class ScalarEvolution;
} // namespace llvm

namespace gmem {
struct CheckpointInfo; // gmem/passes/CheckpointInserter.h
}

namespace gmem::ckpt {

/// What an instruction means for thread synchronisation.
enum class SyncKind {
  None,
  /// CTA barrier that a checkpoint can join: `llvm.nvvm.barrier0`,
  /// `llvm.nvvm.barrier.sync(0)`, `llvm.amdgcn.s.barrier`.
  MergeableBarrier,
  /// Any other CTA-wide synchronisation (counted/named barriers,
  /// __syncthreads_or, mbarrier, barriers in inline asm).
  Barrier,
  /// Warp/wavefront collective (shuffle, vote, match, mma, DPP, ...): a lane
  /// that leaves early may hang or corrupt its warp-mates.
  Collective,
  /// A call the pass cannot see into (indirect, external, unknown asm call).
  Opaque,
  /// Grid-wide or cluster-wide synchronisation, or `exit` in inline asm:
  /// skipping a CTA deadlocks the others or a thread never reaches the exit.
  Unsupported,
};

SyncKind classifySync(const llvm::Instruction &I, GpuArch Arch, std::string *Why = nullptr);

/// Summary over a kernel and every device function it calls.
struct SyncSummary {
  bool Unsupported = false;
  bool Opaque = false;
  bool Barriers = false;
  bool Collectives = false;
  std::string Why; ///< first unsupported or opaque construct, for remarks
};
SyncSummary summarizeSync(const llvm::Function &F, GpuArch Arch);

/// Why \p K (or a device function it calls) has a loop that waits for
/// memory other CTAs write, which no stop may leave unwritten
/// (CheckpointSpinWait.cpp); empty if it has none.
std::string spinWaitBlocker(llvm::Function &K, GpuArch Arch);

/// Why \p K's parameters or static shared memory leave no room for what a
/// clone adds under the target's limits (CheckpointCloneBudget.cpp); empty
/// if they do.
std::string cloneBudgetBlocker(llvm::Function &K, GpuArch Arch);

/// Whether a call to F may synchronise (F or a function it calls).
bool functionMaySync(const llvm::Function &F, GpuArch Arch);

/// What the loop checkpoint builder needs from the clone under construction.
struct CloneContext {
  GpuArch Arch = GpuArch::None;
  llvm::Value *Ctl = nullptr;              ///< gmem_ctl addrspace(1) *
  llvm::BasicBlock *AbortBlock = nullptr;  ///< marks the thread aborted, goes to the exit
  llvm::AllocaInst *WorkLeft = nullptr;    ///< i32 work units until the next check
  /// i1 "this is thread (0,0,0)", computed once in the clone's entry block
  /// (loop checks would otherwise read three special registers per trip).
  llvm::Value *Tid0 = nullptr;
  llvm::AllocaInst *Parity = nullptr;      ///< i32, AMDGPU: which stop word is current
  llvm::GlobalVariable *CtaState = nullptr; ///< shared/LDS words of the clone
  unsigned Budget = 0;
  /// NVPTX request cache, shared [2 x i32] {value, deadline} (null: loop
  /// checks read the control word itself). See cachedRequest.
  llvm::GlobalVariable *ReqCache = nullptr;
  /// NVPTX shared [2 x i32] stop words of the flag form of joined barriers.
  llvm::GlobalVariable *StopWords = nullptr;
  /// Cycles a cached request value may be reused (0: no cache).
  unsigned RefreshCycles = 0;
  /// NVPTX: target SM cycles of a strip-mined loop segment, timed on %clock
  /// (CheckpointLoopPace.cpp; 0: segments of the static K).
  unsigned PaceCycles = 0;
  /// NVPTX sm_80+, paced loops: shared [8 x i32], 16-byte aligned. Words
  /// 0-3 receive the control block's first 16 bytes by cp.async (word 0: the
  /// request), word 4 is their refresh deadline (CheckpointLoopPace.cpp).
  llvm::GlobalVariable *Landing = nullptr;
  /// i32 counters of joined NVPTX barriers, one per site (promoted with the
  /// clone's other slots).
  llvm::SmallVector<llvm::AllocaInst *, 4> SiteCounters;
  /// Whether short entries of strip-mined loops get an unchecked copy
  /// (CheckpointLoopVersion.cpp): the main clone's loops do, its alternate
  /// and barrier-free twins' do not, so that the runtime's timing picks
  /// whichever ptxas compiled better for the kernel.
  bool VersionShortLoops = true;
  /// Whether the loop checkpoints of this clone are reported as analysis
  /// remarks (`-pass-remarks-analysis=gmem-checkpoint`): the main clone's
  /// only, so that the twins do not repeat them.
  bool Remarks = false;
  /// Whether loops with warp collectives that whole warps run alike may get
  /// warp-vote checks: persistent forms, which run only with whole-warp
  /// rows once a site exists (info flag WarpAlignedBlock). NVPTX only.
  bool WarpVoteLoops = false;
  /// Segment scale (info flag SegmentScale; persistent forms only): the
  /// raw grid_z parameter, whose bits 24..25 give s; strip-mined segments
  /// of the static K then run K << s iterations and paced segments aim at
  /// 2^s times their target. Null: no scale (version-1 clones, or
  /// GMEM_CHECKPOINT_SEG_SCALE=0).
  llvm::Value *SegScaleWord = nullptr;
  /// Where s is computed on first use (the clone's entry block's end).
  llvm::Instruction *SegScaleAt = nullptr;
  /// i32 s, once a site has asked for it (segScale in CheckpointIR.cpp).
  llvm::Value *SegScale = nullptr;
};

/// Bits of grid_z under SegmentScale: the scale s (0..3) in 24..25, a check
/// interval (Batched) in 16..23.
inline constexpr unsigned SegScaleShift = 24, SegScaleMask = 3;
/// The largest s (K << 3 at most).
inline constexpr unsigned SegScaleMaxShift = 3;
/// The largest static K a site may be scaled from: K << 3 stays far from
/// any bound that matters (2^20, the cost model's own cap).
inline constexpr unsigned SegScaleMaxK = 1u << 17;

/// i32 s of the clone (CloneContext::SegScale), created at SegScaleAt on
/// the first call; null where the context has no segment scale.
llvm::Value *segScale(CloneContext &Ctx);

/// AMDGPU LDS state words ([4 x i32]); NVPTX uses only ExitCount (i32).
enum CtaStateWord : unsigned { ExitCount = 0, EntryStop = 1, LoopStop0 = 2, LoopStop1 = 3 };

struct LoopCheckpointStats {
  unsigned Sites = 0;      ///< per-thread latch checks + merged barrier checks
  unsigned Merged = 0;     ///< of which joined a barrier
  unsigned MaxInterval = 0; ///< largest iterations between two checks of a site
  unsigned SkippedLoops = 0; ///< loops left without a checkpoint
  unsigned WarpVoted = 0;    ///< of the sites, latch checks left by a warp vote
};

/// Adds loop checkpoints to the clone. Every loop gets at most one kind:
/// a barrier that runs every iteration becomes the check (CTA-uniform), else
/// a per-thread check on the latch where no synchronisation can follow.
LoopCheckpointStats insertLoopCheckpoints(llvm::Function &Clone, CloneContext &Ctx);

/// Short-entry loop versions (CheckpointLoopVersion.cpp). A loop's exit
/// test: its latch continues while `iv.next ContPred Bound`, iv stepping by
/// the constant Step; Kind says how to tell that an entry ends within Steps
/// iterations.
struct ShortEntryTest {
  enum KindTy { None, Signed, Unsigned, Equality } Kind = None;
  llvm::CmpInst::Predicate ContPred = llvm::CmpInst::BAD_ICMP_PREDICATE;
  llvm::Value *Bound = nullptr;
  llvm::ConstantInt *Step = nullptr;
  uint64_t Steps = 0;
  /// Where the test is computed once for many entries (placeShortEntryTest):
  /// the preheader of the outermost enclosing loop in which the bound and
  /// the IV's one start value \c Start do not change. Null: in the guard,
  /// at every entry.
  llvm::BasicBlock *HoistTo = nullptr;
  llvm::Value *Start = nullptr;
  /// A step that moves towards the bound (<: up, >: down), and Steps steps
  /// far from wrapping.
  bool usable() const;
};
/// Sets T.HoistTo and T.Start for \p L's test where they can be (LI and DT
/// current; call before any loop is versioned).
void placeShortEntryTest(ShortEntryTest &T, llvm::Loop &L, llvm::PHINode *IV);
/// Whether \p L can get an untouched copy: innermost (or, with \p Nest,
/// with its subloops), one latch, branches only, no tokens.
bool canVersionLoop(llvm::Loop &L, bool Nest = false);
/// Gives \p L dedicated exits and LCSSA form, keeping DT and LI current
/// (call it for every loop to version before versioning any). False if
/// \p L cannot be copied.
bool prepareLoopVersion(llvm::Loop &L, llvm::DominatorTree &DT, llvm::LoopInfo &LI,
                        bool Nest = false);
/// Builds, in the guard block in front of a loop's header, the i1 "run the
/// untouched copy"; the map gives each header phi's value at the entry.
using GuardCondition = llvm::function_ref<llvm::Value *(
    llvm::IRBuilder<> &, const llvm::DenseMap<llvm::PHINode *, llvm::PHINode *> &)>;
/// Gives the prepared loop \p L (with its subloops) a copy that entries run
/// when \p Cond holds; the original runs the others. Returns the guard block
/// or null. LI and DT are stale after it.
llvm::BasicBlock *versionLoop(llvm::Function &F, llvm::Loop &L, GuardCondition Cond);
/// i1 "this entry of the nest headed by \p L does at most \p Limit work
/// units" (CheckpointLoopNest.cpp), computed in front of \p L (in the
/// outermost preheader where it can be) from SCEV's upper bounds on each
/// loop's trip count; null when they are not known before \p L is entered.
llvm::Value *emitNestIsShort(llvm::Loop &L, llvm::LoopInfo &LI, llvm::ScalarEvolution &SE,
                             uint64_t Limit);
/// \p L's K (iterations between two checks) for an entry of \p L, in type
/// \p Ty: ceil(budget / work of one iteration), the subloops counted at
/// their trip counts of this entry (known before it), at least 1. Null when
/// they are not known or \p L has no subloop. Computed in the outermost
/// preheader where it can be.
llvm::Value *emitDynamicK(llvm::Loop &L, llvm::LoopInfo &LI, llvm::ScalarEvolution &SE,
                          unsigned Budget, llvm::Type *Ty);
/// Gives the prepared loop \p L a copy that entries run when they end
/// within T.Steps iterations (from the start value of \p IV); the original,
/// which the caller then checkpoints, runs the others. Returns the guard
/// block (the header's one entry from then on) or null. LI and DT are stale
/// after it.
llvm::BasicBlock *versionShortEntries(llvm::Function &F, llvm::Loop &L, llvm::PHINode *IV,
                                      const ShortEntryTest &T);

/// Deferred stops (CheckpointDeferredStop.cpp): where a loop's per-thread
/// checks stop instead of leaving at once. Meet: the synchronising
/// instruction every path from the loop's exits reaches first, a CTA
/// barrier or a warp collective with a constant member mask. Then: for a
/// collective, the CTA barrier that every path from it reaches first, if
/// any (a warp that stops skips to it; full mask only).
struct DeferredStopPoint {
  llvm::Instruction *Meet = nullptr;
  llvm::Instruction *Then = nullptr;
  explicit operator bool() const { return Meet != nullptr; }
};
/// \p L's deferred stop point; none (and \p Why) where \p L synchronises
/// itself or no single such point follows it.
DeferredStopPoint deferredStopPoint(llvm::Loop &L, GpuArch Arch, std::string *Why = nullptr);

/// The meeting points of a clone's deferred stops.
class DeferredStops {
public:
  explicit DeferredStops(bool ReadRequest) : ReadRequest(ReadRequest) {}
  /// Where a check of a loop deferred to \p Where goes when it stops: a new
  /// block that jumps to the meeting point built in front of Where.Meet (on
  /// first use) with "aborted" set. The meeting point leaves through the
  /// clone's abort block (or on to Where.Then's meeting point) when any
  /// thread taking part in Where.Meet aborted, or (ReadRequest) saw
  /// request 2 there.
  llvm::BasicBlock *abortTarget(DeferredStopPoint Where, llvm::Function &F,
                                const CloneContext &Ctx);
  /// After every check is built: erases the barriers the reductions
  /// replaced and gives the values the jumps skip phis (poison on a jump's
  /// path, which never gets past its meeting point).
  void finish(llvm::Function &F);

private:
  struct Point {
    llvm::BasicBlock *Meet = nullptr;
    llvm::PHINode *Aborted = nullptr;
    llvm::Instruction *Replaced = nullptr;
  };
  bool ReadRequest;
  llvm::DenseMap<llvm::Instruction *, Point> Points;
  llvm::SmallVector<llvm::BasicBlock *, 8> Jumps;
};

/// The CTA barrier check of a joined loop that is strip-mined (NVPTX, Limit
/// kind; CheckpointLoops.cpp): thread 0 reads the request right before
/// \p AtSegmentStart (the segment block's branch to the loop), and the CTA
/// decides with one barrier reduction right before \p AtSegmentEnd (the
/// check between two segments). \p Aligned: `bar.red.or` (the loop's
/// barrier is `barrier0`), else the non-.aligned form. Returns the i1 stop.
llvm::Value *segmentBarrierStop(const CloneContext &Ctx, llvm::Instruction *AtSegmentStart,
                                llvm::Instruction *AtSegmentEnd, bool Aligned);

/// CTA-level uniformity of one function's values, with the rules
/// persistentBlocker uses (CheckpointPersistentSafety.cpp, CtaDivergence).
class CtaUniformValues {
public:
  explicit CtaUniformValues(llvm::Function &F);
  ~CtaUniformValues();
  /// Whether every thread of a CTA that computes \p V gets the same value
  /// (constants and kernel parameters included).
  bool isUniform(const llvm::Value *V) const;

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

/// Makes the CTA barrier \p Bar, which runs in every iteration of the loop
/// headed by \p Header, the loop's checkpoint (CheckpointBarriers.cpp);
/// \p Weight is the iteration's cost.
void joinBarrier(llvm::Function &Clone, CloneContext &Ctx, llvm::CallInst *Bar,
                 llvm::BasicBlock *Header, uint64_t Weight);

/// The cost model (CheckpointLoopCost.cpp). Rough time of one instruction
/// for one thread in "simple ALU op" units.
unsigned instructionCost(const llvm::Instruction &I);
/// instructionCost of I as part of loop L's iteration: a global load whose
/// address comes from another global load of the same iteration (a gather
/// through an index array) waits for both round trips, which no other
/// instruction of the iteration hides.
unsigned loopInstructionCost(const llvm::Instruction &I, const llvm::Loop &L);
/// Whether some block of \p L (subloops included) loads through an address
/// that a load of the same iteration computed: its trips wait on dependent
/// misses (an ELL or CSR row, a gather through an index).
bool hasChainedLoad(const llvm::Loop &L, const llvm::LoopInfo &LI);
/// What loopInstructionCost adds for such a load (GMEM_CHECKPOINT_CHAIN
/// overrides it; 0: none).
unsigned chainedLoadCost();
/// Most iterations per entry of \p L, 0 when unknown.
unsigned maxTripCount(llvm::Loop *L, llvm::ScalarEvolution &SE);
/// Iterations per entry to count a subloop's cost with (16 when unknown).
unsigned tripEstimate(llvm::Loop *L, llvm::ScalarEvolution &SE);

/// Why K's clone cannot loop over virtual CTAs (CheckpointPersistentSafety.cpp),
/// or "" when it can. Sync is K's summary. When it can only because the
/// branches its warp collectives depend on are taken by whole warps, which
/// holds where blockDim.x is a multiple of 32, NeedsWarpAlignedBlock is set
/// (info flag WarpAlignedBlock; GMEM_CHECKPOINT_WARP_ALIGNED=0: refused).
std::string persistentBlocker(llvm::Function &K, GpuArch Arch, const SyncSummary &Sync,
                              llvm::FunctionAnalysisManager &FAM,
                              bool &NeedsWarpAlignedBlock);

/// Whether the branch Term takes is the same in every lane of a warp when
/// blockDim.x is a multiple of 32 (CheckpointWarpUniform.cpp). UI: the
/// CTA-level uniformity of Term's function, CI its cycles.
bool branchWarpUniform(const llvm::Instruction &Term, const llvm::UniformityInfo &UI,
                       const llvm::CycleInfo &CI);

/// Which loops of F every lane of a warp runs alike, trip for trip, given
/// whole-warp rows (blockDim.x a multiple of 32): none of the loop's blocks
/// lies where a branch that lanes of one warp may take differently decides
/// whether a thread gets there (an exit of the loop included). A check
/// there may leave the loop by a warp vote (CheckpointLoops.cpp).
class WarpAlikeBlocks {
public:
  WarpAlikeBlocks(llvm::Function &F, GpuArch Arch);
  bool loopReachedAlike(const llvm::Loop &L) const;

private:
  llvm::SmallPtrSet<const llvm::BasicBlock *, 32> Decided; ///< reached by some lanes only
  bool Usable = false;
};

/// Why K's persistent clone may not have a free form (`__gmem_prf_`,
/// threads of a CTA on different virtual CTAs), or "" when it may: no CTA
/// barrier, warp collective, shared memory or inline asm in K or anything
/// it calls.
std::string freeBlocker(llvm::Function &K, const SyncSummary &Sync);

/// Why K's threads may not run ahead into the next virtual CTA before the
/// others have finished the current one, or "" when they may: shared memory
/// (a thread ahead would overwrite words a slower one has yet to read) or
/// inline asm (which might touch it) in K or anything it calls.
std::string sharedMemoryBlocker(llvm::Function &K);

/// Inline asm that computes on registers and immediates only (allowlisted
/// PTX arithmetic, no side effects, no memory operand or clobber): it can
/// neither share nor synchronise anything (CheckpointPersistentSafety.cpp).
bool registerOnlyAsm(const llvm::InlineAsm &IA);

/// Why K's shared memory may not be doubled for check intervals, or "" when
/// it may (CheckpointSharedDoubling.cpp): static shared globals used by K
/// alone (no callee touches shared memory), no pointer made from an integer
/// or cast into shared memory, no inline asm but register arithmetic, a CTA
/// barrier on every path through K, and twice the shared bytes within
/// GMEM_CHECKPOINT_DOUBLE_SHARED_MAX (unset or 0: off, the default).
std::string sharedDoublingBlocker(llvm::Function &K);

/// In clone C before it becomes persistent (NVPTX): a second copy of each
/// static shared global of the kernel's, and at the body's entry (run once
/// per virtual CTA) a parity that flips every time and picks the copy the
/// body uses. Returns the parity's slot, for promotion.
llvm::AllocaInst *doubleSharedMemory(llvm::Function &C, llvm::BasicBlock &NewEntry,
                                     llvm::BasicBlock &OldEntry);

/// For the special-register reads a persistent clone rewrites
/// (%ctaid.x/y/z, %nctaid.x/y/z): the axis, and in IsCount whether it is a
/// count; -1 for any other intrinsic.
int gridAxis(llvm::Intrinsic::ID Id, bool &IsCount);

/// The clone's pieces a persistent loop is built around.
struct PersistentParts {
  llvm::BasicBlock *NewEntry = nullptr; ///< allocas, ends in a branch to OldEntry
  llvm::BasicBlock *OldEntry = nullptr; ///< the body's entry
  llvm::BasicBlock *Exit = nullptr;     ///< empty; every return and abort leads here
  llvm::AllocaInst *Aborted = nullptr;  ///< i1, set by loop checkpoint aborts
  bool LoopStops = false;               ///< the clone has loop checkpoints
  /// The loop's own state in a shared array, not registers (the alternate
  /// form `__gmem_pra_`, or every clone under GMEM_CHECKPOINT_STATE=shared).
  bool StateInShared = false;
  /// The free form (`__gmem_prf_`): every thread loops and stops on its
  /// own; for kernels freeBlocker() accepts, launches proved idempotent.
  bool Free = false;
  /// The grid's z word carries a check interval in its high 16 bits (info
  /// flag Batched): the clone masks it off (every form of a kernel whose
  /// flag is set must).
  bool MaskGridZ = false;
  /// Between virtual CTAs, look at the request (and, in the CTA protocol,
  /// hold the barrier that decides) only every K-th one, K = grid_z >> 16
  /// (0 counts as 1). The CTA protocol may do so only where nothing needs
  /// the end-of-virtual-CTA barrier: no shared memory of the kernel's (see
  /// sharedMemoryBlocker), loop stops uniform per CTA (barrier-joined only),
  /// state in registers.
  bool Batch = false;
  /// The kernel has flag SegmentScale: the check interval is grid_z's bits
  /// 16..23 only (24..25 are the segment scale).
  bool SegScaled = false;
  /// Balanced tail (info flag BalancedTail): the last TailPercent of the
  /// virtual CTAs are claimed from control word 1 (CTA protocol only, not
  /// with Batch: the claim is published at the end-of-virtual-CTA barrier).
  unsigned TailPercent = 0;
  /// The CTA protocol decides after each virtual CTA with a plain barrier
  /// and a shared stop word instead of `bar.red.or` (stampedBarrier in
  /// CheckpointPersistent.cpp).
  bool StampedStop = false;
  /// CTA protocol: where a virtual CTA has run at least this many SM cycles
  /// and thread 0's read at its start saw no request, thread 0 reads the
  /// request again before the end-of-virtual-CTA decision (0: never). Stops
  /// between virtual CTAs then wait for the current one, not the next too.
  /// Light twins only (CheckpointInserter.cpp says why).
  unsigned LateReadCycles = 0;
};

/// Turns the clone into a loop over virtual CTAs (NVPTX); returns the
/// allocas it added, for promotion.
llvm::SmallVector<llvm::AllocaInst *, 8>
buildPersistentLoop(llvm::Function &Clone, CloneContext &Ctx, const PersistentParts &Parts);

/// Whether environment variable Name says "0", "off", "false" or "no"
/// (unset: no).
bool envSaysOff(const char *Name);

/// The pass's environment knobs (CheckpointOptions.cpp, where each says
/// what it does and what measurement chose its default).
bool loopCheckpointsEnabled();
bool deferredStopsEnabled();
bool deferredStopsPaced();
/// Where a request cache refresh moves the deadline after its load
/// (GMEM_CHECKPOINT_REFRESH_ORDER; CheckpointOptions.cpp).
enum class RefreshOrder { Before, After, Sparse };
RefreshOrder refreshOrder();
bool meetingPointsRead();
bool jumpsCarryPoison();
bool jumpsCarryCast();
/// GMEM_CHECKPOINT_CHAIN_REFRESH=sync: every-trip checks of loops with
/// chained loads refresh the request cache synchronously like the others.
bool chainedChecksLanded();
unsigned computePaceCycles(unsigned PaceCycles);
unsigned gridPaceCycles(unsigned PaceCycles);
bool lightTwinsEnabled();
bool lightTwinsForEveryKernel();
bool altClonesEnabled();
bool freeClonesEnabled();
bool gridStrideEnabled();
bool batchingEnabled();
/// GMEM_CHECKPOINT_SEG_SCALE=1: a segment scale (flag SegmentScale); off by default.
bool segScaleEnabled();
unsigned tailPercentFromEnv();
/// Which persistent forms end a virtual CTA with a plain barrier and a
/// shared stop word instead of `bar.red.or`: none, light twins, light twins
/// and every form of kernels without shared memory of their own (Auto),
/// every form.
enum class StampedForms { None, Light, Auto, All };
StampedForms stampedFormsFromEnv();
bool mainStateInShared();
unsigned budgetFromEnv();
unsigned refreshCyclesFromEnv();
unsigned lateReadCyclesFromEnv();
enum class LateReadForms { Light, LightAndAlt, All };
LateReadForms lateReadFormsFromEnv();

/// Clone functions and their reservations (CheckpointClone.cpp).
/// Records why kernel KernelSymbol got less than in-loop preemption in the
/// module's named metadata PreemptionNotesMD: {symbol, note} pairs.
void notePreemption(llvm::Module &M, llvm::StringRef KernelSymbol, const llvm::Twine &Note);
/// Copies K's `!nvvm.annotations` entries (kernel, launch bounds,
/// grid_constant) to the clone.
void copyNVVMAnnotations(llvm::Module &M, llvm::Function &K, llvm::Function &Clone);
/// K's parameters, the control block pointer and the user's grid (3 x i32).
llvm::FunctionType *cloneType(llvm::Function &K);
/// The declaration CheckpointReservePass made for K, if it still fits.
llvm::Function *reservedClone(llvm::Module &M, llvm::Function &K);
/// Erases a reserved clone declaration and its annotations.
void dropReservation(llvm::Module &M, llvm::Function *D);
/// A copy of K with the clone's parameters, named Name (the reserved
/// declaration of that name, if any, becomes it).
llvm::Function *createClone(llvm::Module &M, llvm::Function &K, const std::string &Name);
/// `-pass-remarks-analysis=gmem-checkpoint`: whether K's clone loops over
/// virtual CTAs, or why not (\p Why empty: it does).
void remarkPersistent(llvm::Function &K, llvm::FunctionAnalysisManager &FAM,
                      const std::string &Why);
/// False (and C dropped, with a warning) where clone C does not verify.
bool keepValidClone(llvm::Module &M, llvm::Function &C);
/// K's info global `__gmem_pre_info_<K>` (replacing an earlier one).
void emitInfo(llvm::Module &M, llvm::StringRef KernelSymbol, const CheckpointInfo &Info);
/// Info and preemption note of a kernel that gets no clone.
void emitNoClone(llvm::Module &M, llvm::StringRef Kernel, const SyncSummary &Sync,
                 const llvm::Twine &Why);

/// Calls \p Visit on \p K and on every function with a body it calls
/// directly, transitively, once each (recursion included).
void forEachReachableFunction(llvm::Function &K,
                              llvm::function_ref<void(llvm::Function &)> Visit);
/// N of \p F's target-cpu `sm_N`; 0 where it names none.
unsigned nvptxSmVersion(const llvm::Function &F);
/// Whether F (a clone) reads the request word at GPU scope
/// (GMEM_CHECKPOINT_SCOPE; NVPTX sm_70+). Why: CheckpointIR.cpp.
bool gpuScopeRequestReads(const llvm::Function &F);

/// The kernel's own asynchronous copies into shared memory
/// (CheckpointAsyncCopies.cpp): cp.async groups (sm_80) and bulk copies
/// (sm_90), in the function or the device functions it calls.
struct AsyncCopyUse {
  bool Groups = false;
  bool Bulk = false;
  explicit operator bool() const { return Groups || Bulk; }
};
AsyncCopyUse asyncCopiesIn(llvm::Function &F);
/// Waits for the calling thread's copies of the kinds in \p U.
void drainAsyncCopies(llvm::IRBuilder<> &B, AsyncCopyUse U);

/// IR helpers (CheckpointIR.cpp).
llvm::Value *linearCta(llvm::IRBuilder<> &B, GpuArch Arch);
llvm::Value *isThreadZero(llvm::IRBuilder<> &B, GpuArch Arch);
/// Address of this CTA's done word in the control block, and its bit.
std::pair<llvm::Value *, llvm::Value *> doneWordAndBit(llvm::IRBuilder<> &B, GpuArch Arch,
                                                       llvm::Value *Ctl);
/// Atomically sets (or clears) this CTA's done bit.
void updateDoneBit(llvm::IRBuilder<> &B, GpuArch Arch, llvm::Value *Ctl, bool Set);
void updateDoneBit(llvm::IRBuilder<> &B, GpuArch Arch, llvm::Value *Word, llvm::Value *Bit,
                   bool Set);
/// The read of the request word (the control block's first, addrspace(1)),
/// performed afresh at every execution: `ld.relaxed.gpu` on NVPTX sm_70+
/// (gpuScopeRequestReads), else a volatile load.
llvm::Value *loadRequest(llvm::IRBuilder<> &B, llvm::Value *Ctl);
/// A shared [2 x i32] of the clone named Prefix + the clone's name: the
/// request cache (`__gmem_reqcache_`, CloneContext::ReqCache) and the stop
/// words of the flag join form (`__gmem_stop_`, CloneContext::StopWords).
llvm::GlobalVariable *createSharedPair(llvm::Module &M, llvm::Function &Clone,
                                       llvm::StringRef Prefix);
/// Thread 0, before the clone's first barrier: value 0, deadline now (the
/// first cached read refreshes).
void initRequestCache(llvm::IRBuilder<> &B, llvm::GlobalVariable *Cache);
/// Thread 0 zeroes the flag join form's stop words before the clone's first
/// barrier.
void initStopWords(llvm::IRBuilder<> &B, llvm::GlobalVariable *Words);
/// Thread 0's shared-memory set-up at the clone's entry (cache, stop words).
void initSharedWords(llvm::IRBuilder<> &B, const CloneContext &Ctx);
/// %clock, the SM's cycle counter (not hoisted: an inaccessible-memory read).
llvm::Value *readClock(llvm::IRBuilder<> &B);
/// The request right before \p Before: from the cache while its deadline
/// has not passed, else read from the control word into the cache. \p
/// Sparse: a check that comes round rarely (every trip of a long loop body),
/// whose refresh moves the deadline only after its load under
/// GMEM_CHECKPOINT_REFRESH_ORDER=sparse.
/// \p Landed: read the cp.async landing area instead, refreshed by a copy
/// nobody waits for (landedRequest; the clone must have a landing area).
llvm::Value *cachedRequest(llvm::Instruction *Before, const CloneContext &Ctx,
                           bool Sparse = false, bool Landed = false);
/// i1 "request != 0" (NonZero) or "request == 2", right before \p Before
/// (through the cache where \p Cached and the clone has one; \p Sparse as
/// for cachedRequest).
llvm::Value *emitRequestTest(llvm::Instruction *Before, const CloneContext &Ctx, bool NonZero,
                             bool Cached = false, bool Sparse = false, bool Landed = false);
llvm::Value *threadsPerCta(llvm::IRBuilder<> &B, GpuArch Arch);
llvm::Value *ctaStateWord(llvm::IRBuilder<> &B, llvm::GlobalVariable *State, unsigned Word);
/// NVPTX `bar.red.or` over an i1: true in every thread when any had true.
llvm::Value *barrierOr(llvm::IRBuilder<> &B, llvm::Value *Mine);
/// NVPTX `barrier.red.or.pred` without `.aligned` (inline asm): for
/// threads of a warp that may reach it from different paths
/// (`barrier.sync 0`, the meeting points of deferred stops).
llvm::Value *unalignedBarrierOr(llvm::IRBuilder<> &B, llvm::Value *Mine,
                                const llvm::Twine &Name);
/// Workgroup-scope release fence, s_barrier, acquire fence (HIP __syncthreads).
void emitAMDGPUBarrier(llvm::IRBuilder<> &B);

} // namespace gmem::ckpt

#endif

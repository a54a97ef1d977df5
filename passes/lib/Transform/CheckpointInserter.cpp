//===- CheckpointInserter.cpp - Preemptible kernel clones -----------------===//
//
// For every kernel K the pass adds `__gmem_pre_K` (K's parameters plus a
// trailing `gmem_ctl addrspace(1) *`) and `__gmem_pre_info_K`. The clone is
// K's body with three additions:
//
//  * Entry checkpoint. Every thread reads `request` and its CTA's done bit
//    with volatile loads; the CTA leaves at once when request != 0 or the bit
//    is set. The decision is made uniform per CTA: NVPTX joins it in one
//    `bar.red.or` (llvm.nvvm.barrier0.or), AMDGPU has thread 0 read and
//    publish it in LDS around an s_barrier. Before that barrier thread 0 also
//    clears the CTA's bookkeeping words in shared memory / LDS.
//
//  * Unified exit. Every `ret` branches to one exit block; loop checkpoints
//    branch there too, marking the thread aborted. The exit needs no barrier
//    (threads that returned early must not wait for threads still working):
//    each thread adds 1, or 1 + 2^16 when aborted, to a shared counter; the
//    thread whose add completes the CTA's thread count is the last one out
//    and sets the CTA's done bit if no thread aborted.
//
//  * Loop checkpoints (CheckpointLoops.cpp), armed by request == 2.
//
// Kernels with grid-wide or cluster synchronisation get no clone (skipping
// one CTA at entry would deadlock the others); their info global says so.
// So do kernels whose loops wait for another CTA's write
// (CheckpointSpinWait.cpp) and kernels whose static shared memory leaves no
// room for the clone's own words (CheckpointCloneBudget.cpp).
//
//===----------------------------------------------------------------------===//

#include "gmem/passes/CheckpointInserter.h"
#include "CheckpointLoopPace.h"
#include "gmem/passes/GpuTarget.h"
#include "gmem/passes/GridStrideLoop.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <cstdlib>

using namespace llvm;

namespace gmem {

using namespace ckpt;

namespace {

constexpr unsigned GlobalAS = 1, SharedAS = 3;

/// How a persistent form treats grid_z's high bits (flag Batched), and its
/// balanced tail (flag BalancedTail).
struct BatchMode {
  bool Mask = false;  ///< the kernel's flag is set: mask them off
  bool Batch = false; ///< and skip checks between virtual CTAs by them
  unsigned Tail = 0;  ///< percent of the tickets claimed at the end (CTA protocol)
  /// Read the request again at the end of a long virtual CTA (CTA protocol;
  /// PersistentParts::LateReadCycles).
  bool LateRead = false;
  /// With Batch: two copies of the kernel's shared memory, one per parity
  /// of the virtual CTA (CheckpointSharedDoubling.cpp).
  bool DoubleShared = false;
};

/// Shared/LDS words of one clone: NVPTX only the exit counter (i32), AMDGPU
/// the exit counter, the entry decision and two loop stop words.
GlobalVariable *createCtaState(Module &M, Function &Clone, GpuArch Arch) {
  Type *Ty = Arch == GpuArch::NVPTX ? (Type *)Type::getInt32Ty(M.getContext())
                                    : ArrayType::get(Type::getInt32Ty(M.getContext()), 4);
  auto *GV = new GlobalVariable(M, Ty, /*isConstant=*/false, GlobalValue::InternalLinkage,
                                UndefValue::get(Ty), "__gmem_state_" + Clone.getName(),
                                nullptr, GlobalValue::NotThreadLocal, SharedAS);
  GV->setAlignment(Align(4));
  return GV;
}

/// Moves the static allocas of the old entry block to the new one, so that
/// they stay static (entry-block allocas are frame slots, others dynamic).
void hoistStaticAllocas(BasicBlock &OldEntry, BasicBlock &NewEntry) {
  SmallVector<AllocaInst *, 8> Static;
  for (Instruction &I : OldEntry)
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && AI->isStaticAlloca())
      Static.push_back(AI);
  for (AllocaInst *AI : Static)
    AI->moveBefore(NewEntry, NewEntry.end());
}

struct CloneBuild {
  Module &M;
  GpuArch Arch;
  Function &C;
  CloneContext Ctx;
  AllocaInst *Aborted = nullptr;
  AsyncCopyUse KernelCopies;
  BasicBlock *OldEntry = nullptr, *NewEntry = nullptr, *Exit = nullptr;

  CloneBuild(Module &M, GpuArch Arch, Function &C) : M(M), Arch(Arch), C(C) {}

  /// Segment scale (CloneContext::SegScaleWord) for this clone's loops:
  /// persistent forms of a kernel that may carry flag SegmentScale.
  bool SegScale = false;

  void prepare(unsigned Budget) {
    LLVMContext &LC = M.getContext();
    KernelCopies = asyncCopiesIn(C); // the kernel's own, before ours go in
    OldEntry = &C.getEntryBlock();
    NewEntry = BasicBlock::Create(LC, "gmem.entry", &C, OldEntry);
    hoistStaticAllocas(*OldEntry, *NewEntry);
    IRBuilder<> B(NewEntry);
    const DataLayout &DL = M.getDataLayout();
    auto Slot = [&](Type *Ty, const char *Name, Value *Init) {
      AllocaInst *AI = B.CreateAlloca(Ty, DL.getAllocaAddrSpace(), nullptr, Name);
      B.CreateStore(Init, AI);
      return AI;
    };
    Aborted = Slot(B.getInt1Ty(), "gmem.aborted", B.getFalse());
    Ctx.Arch = Arch;
    Ctx.Ctl = C.getArg(C.arg_size() - 4);
    Ctx.Budget = Budget;
    Ctx.RefreshCycles = Arch == GpuArch::NVPTX ? refreshCyclesFromEnv() : 0;
    Ctx.PaceCycles = Arch == GpuArch::NVPTX ? paceCyclesFromEnv() : 0;
    if (Ctx.RefreshCycles)
      Ctx.ReqCache = createSharedPair(M, C, "__gmem_reqcache_");
    if (Ctx.ReqCache && Ctx.PaceCycles && asyncPrefetchFor(C))
      Ctx.Landing = createLanding(M, C);
    Ctx.WorkLeft = Slot(B.getInt32Ty(), "gmem.work.left", B.getInt32(int32_t(Budget)));
    Ctx.Tid0 = isThreadZero(B, Arch);
    if (Arch == GpuArch::AMDGPU)
      Ctx.Parity = Slot(B.getInt32Ty(), "gmem.parity", B.getInt32(0));
    Ctx.CtaState = createCtaState(M, C, Arch);
    Instruction *ToOld = B.CreateBr(OldEntry);
    if (SegScale) {
      Ctx.SegScaleWord = C.getArg(C.arg_size() - 1);
      Ctx.SegScaleAt = ToOld;
    }

    // One exit for every return; aborting threads come through gmem.abort.
    SmallVector<ReturnInst *, 8> Returns;
    for (BasicBlock &BB : C)
      if (auto *RI = dyn_cast<ReturnInst>(BB.getTerminator()))
        Returns.push_back(RI);
    Exit = BasicBlock::Create(LC, "gmem.exit", &C);
    for (ReturnInst *RI : Returns) {
      BranchInst::Create(Exit, RI->getParent());
      RI->eraseFromParent();
    }
    Ctx.AbortBlock = BasicBlock::Create(LC, "gmem.abort", &C);
    IRBuilder<> AB(Ctx.AbortBlock);
    AB.CreateStore(AB.getTrue(), Aborted);
    AB.CreateBr(Exit);
  }

  /// The request cache serves loop checks only.
  void dropUnusedCache() {
    if (Ctx.ReqCache && Ctx.ReqCache->use_empty()) {
      Ctx.ReqCache->eraseFromParent();
      Ctx.ReqCache = nullptr;
    }
    dropUnusedLanding();
  }

  /// The landing area serves paced loop checks only (every form's; the free
  /// form keeps its request cache for its latch, not this).
  void dropUnusedLanding() {
    if (Ctx.Landing && Ctx.Landing->use_empty()) {
      Ctx.Landing->eraseFromParent();
      Ctx.Landing = nullptr;
    }
  }

  /// Entry checkpoint at the end of gmem.entry.
  void buildEntry() {
    dropUnusedCache();
    LLVMContext &LC = M.getContext();
    BasicBlock *EarlyRet = BasicBlock::Create(LC, "gmem.skip", &C);
    ReturnInst::Create(LC, EarlyRet);
    Instruction *Term = NewEntry->getTerminator();
    IRBuilder<> B(Term);
    Value *Tid0 = Ctx.Tid0;
    GlobalVariable *State = Ctx.CtaState;
    auto ReadSkip = [&](IRBuilder<> &IB) {
      Value *Req = loadRequest(IB, Ctx.Ctl);
      auto [WordPtr, Bit] = doneWordAndBit(IB, Arch, Ctx.Ctl);
      Value *Word = IB.CreateAlignedLoad(IB.getInt32Ty(), WordPtr, Align(4), /*isVolatile=*/true);
      Value *Done = IB.CreateICmpNE(IB.CreateAnd(Word, Bit), IB.getInt32(0));
      return IB.CreateOr(IB.CreateICmpNE(Req, IB.getInt32(0)), Done, "gmem.skip.mine");
    };
    Instruction *ThenTerm = SplitBlockAndInsertIfThen(Tid0, Term, false);
    B.SetInsertPoint(Term); // Term now ends the tail of the split
    IRBuilder<> TB(ThenTerm);
    if (Arch == GpuArch::NVPTX) {
      // Thread 0 clears the exit counter (and the request cache), reads the
      // request and the CTA's done bit; the bar.red.or below orders the
      // stores and gives every thread its decision. (Every thread reading
      // both words cost gemv_warp's grid clone 14% against 2-3%, H200,
      // bench/preempt/results/parts/grid-entry; the persistent forms'
      // thread 0 reads alone before the same kind of barrier.)
      TB.CreateAlignedStore(TB.getInt32(0), State, Align(4));
      initSharedWords(TB, Ctx);
      Value *Mine = ReadSkip(TB);
      PHINode *Skip = B.CreatePHI(B.getInt1Ty(), 2, "gmem.skip.seen");
      Skip->addIncoming(Mine, ThenTerm->getParent());
      Skip->addIncoming(B.getFalse(), NewEntry);
      Value *Any = barrierOr(B, Skip);
      B.CreateCondBr(Any, EarlyRet, OldEntry);
    } else {
      Value *Skip = ReadSkip(TB);
      TB.CreateAlignedStore(TB.CreateZExt(Skip, TB.getInt32Ty()),
                            ctaStateWord(TB, State, EntryStop), Align(4));
      for (unsigned W : {ExitCount, LoopStop0, LoopStop1})
        TB.CreateAlignedStore(TB.getInt32(0), ctaStateWord(TB, State, W), Align(4));
      emitAMDGPUBarrier(B);
      Value *Flag = B.CreateAlignedLoad(B.getInt32Ty(), ctaStateWord(B, State, EntryStop),
                                        Align(4), "gmem.skip.cta");
      B.CreateCondBr(B.CreateICmpNE(Flag, B.getInt32(0)), EarlyRet, OldEntry);
    }
    Term->eraseFromParent();
  }

  /// The unified exit: count threads out, the last one sets the done bit.
  void buildExit() {
    LLVMContext &LC = M.getContext();
    BasicBlock *SetDone = BasicBlock::Create(LC, "gmem.set.done", &C);
    BasicBlock *Ret = BasicBlock::Create(LC, "gmem.ret", &C);
    ReturnInst::Create(LC, Ret);
    IRBuilder<> B(Exit);
    SyncScope::ID CtaScope = SyncScope::System;
    if (Arch == GpuArch::AMDGPU)
      CtaScope = LC.getOrInsertSyncScopeID("workgroup");
    Value *Ab = B.CreateLoad(B.getInt1Ty(), Aborted);
    // Low 16 bits count threads out, high 16 bits aborted threads (<= 1024).
    Value *Inc = B.CreateSelect(Ab, B.getInt32(0x10001), B.getInt32(1));
    Value *Old = B.CreateAtomicRMW(AtomicRMWInst::Add, ctaStateWord(B, Ctx.CtaState, ExitCount),
                                   Inc, Align(4), AtomicOrdering::Monotonic, CtaScope);
    Value *New = B.CreateAdd(Old, Inc, "gmem.out");
    Value *Last = B.CreateICmpEQ(B.CreateAnd(New, B.getInt32(0xffff)), threadsPerCta(B, Arch));
    Value *Clean = B.CreateICmpULT(New, B.getInt32(0x10000));
    B.CreateCondBr(B.CreateAnd(Last, Clean, "gmem.cta.done"), SetDone, Ret);
    IRBuilder<> DB(SetDone);
    updateDoneBit(DB, Arch, Ctx.Ctl, /*Set=*/true);
    DB.CreateBr(Ret);
  }

  /// The body as a loop over virtual CTAs instead of entry and exit
  /// checkpoints per CTA (CheckpointPersistent.cpp).
  void buildPersistent(bool LoopStops, bool StateInShared, BatchMode Mode, bool Free = false,
                       bool StampedStop = false) {
    if (!Free)
      dropUnusedCache(); // the free form's latch reads the cache too
    dropUnusedLanding();
    PersistentParts Parts;
    Parts.LoopStops = LoopStops;
    Parts.StateInShared = StateInShared;
    Parts.Free = Free;
    Parts.MaskGridZ = Mode.Mask;
    // Batching only under the kernel's Batched flag: the mask may be there
    // for the segment scale alone.
    Parts.Batch = Mode.Mask && Mode.Batch && (ZFlags & CheckpointInfo::Batched);
    Parts.SegScaled = ZFlags & CheckpointInfo::SegmentScale;
    Parts.TailPercent = Free || Parts.Batch ? 0 : Mode.Tail;
    Parts.StampedStop = StampedStop && !Free;
    Parts.LateReadCycles = Mode.LateRead && !Free ? lateReadCyclesFromEnv() : 0;
    Parts.NewEntry = NewEntry;
    Parts.OldEntry = OldEntry;
    Parts.Exit = Exit;
    Parts.Aborted = Aborted;
    AllocaInst *Parity = nullptr;
    if (Parts.Batch && Mode.DoubleShared)
      Parity = doubleSharedMemory(C, *NewEntry, *OldEntry);
    ExtraSlots = buildPersistentLoop(C, Ctx, Parts);
    if (Parity)
      ExtraSlots.push_back(Parity);
  }

  SmallVector<AllocaInst *, 8> ExtraSlots;
  /// The kernel's info flags Batched and SegmentScale: what grid_z's high
  /// bits carry.
  uint32_t ZFlags = 0;

  void promote() {
    if (Ctx.Landing)
      waitForLandings(C);
    // Every way out of the body (returns, aborts) passes gmem.exit, which
    // the persistent forms also end a virtual CTA with.
    if (KernelCopies) {
      IRBuilder<> EB(&*Exit->getFirstInsertionPt());
      drainAsyncCopies(EB, KernelCopies);
    }
    if (pred_empty(Ctx.AbortBlock)) // no loop checkpoint leads there
      Ctx.AbortBlock->eraseFromParent();
    DominatorTree DT(C);
    SmallVector<AllocaInst *, 12> Slots{Aborted, Ctx.WorkLeft};
    Slots.append(Ctx.SiteCounters.begin(), Ctx.SiteCounters.end());
    Slots.append(ExtraSlots.begin(), ExtraSlots.end());
    if (Ctx.Parity)
      Slots.push_back(Ctx.Parity);
    PromoteMemToReg(Slots, DT);
  }
};

/// Another persistent clone of K named Symbol, next to the main one (same
/// parameters and control block): with loop checkpoints or not, its loop
/// state in registers or in shared memory, or the free form.
bool emitPersistentTwin(Module &M, GpuArch Arch, Function &K, const std::string &Symbol,
                        unsigned Budget, bool LoopStops, bool StateInShared, BatchMode Mode,
                        uint32_t ZFlags, bool Free = false, bool StampedStop = false) {
  Function *T = createClone(M, K, Symbol);
  CloneBuild Build(M, Arch, *T);
  Build.SegScale = ZFlags & CheckpointInfo::SegmentScale;
  Build.ZFlags = ZFlags;
  Build.prepare(Budget);
  // Copies of short loop entries help some kernels and hurt others (ptxas
  // compiles the strip-mined loop differently beside one; H200, bench/
  // preempt/results/parts/loop-version: kmeans_assign +78% -> +23%,
  // gemm_naive +24% -> +70%): only the main clone has them, and the runtime
  // times it against these twins.
  Build.Ctx.VersionShortLoops = false;
  // Twins are persistent forms: their loops may leave by a warp vote as the
  // main clone's do (the kernel's info then carries WarpAlignedBlock).
  Build.Ctx.WarpVoteLoops = true;
  if (LoopStops) {
    LoopCheckpointStats S = insertLoopCheckpoints(*T, Build.Ctx);
    if (S.Sites != S.Merged && !Free)
      Mode.Batch = false; // a per-thread loop stop needs the barrier after it
  }
  Build.buildPersistent(LoopStops, StateInShared, Mode, Free, StampedStop);
  if (Free)
    Build.dropUnusedCache();
  Build.promote();
  if (!keepValidClone(M, *T))
    return false;
  appendToUsed(M, {T});
  return true;
}

/// Flag GridStride (GridStrideLoop.h) where K is one grid-stride loop whose
/// effects depend on its index alone; a remark says which (gmem-analyze's
/// report reads the flag).
void noteGridStride(Function &K, FunctionAnalysisManager &FAM, CheckpointInfo &Info) {
  std::string Why;
  std::optional<GridStrideLoop> G = findGridStrideLoop(K, FAM.getResult<LoopAnalysis>(K),
                                                       FAM.getResult<ScalarEvolutionAnalysis>(K), Why);
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(K);
  ORE.emit([&] {
    OptimizationRemarkAnalysis R("gmem-checkpoint", G ? "GridStride" : "NotGridStride", &K);
    if (G)
      R << "grid-stride loop over parameter #" << std::to_string(G->BoundParam)
        << ": the runtime may run it on a larger grid";
    else
      R << "grid stays the launch's: " << Why;
    return R;
  });
  if (!G)
    return;
  Info.Flags |= CheckpointInfo::GridStride;
  Info.GridStrideBound = G->encode();
}

} // namespace

PreservedAnalyses CheckpointInserterPass::run(Module &M, ModuleAnalysisManager &MAM) {
  GpuArch Arch = getGpuArch(M);
  if (Arch == GpuArch::None || !checkpointsEnabled())
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  unsigned Budget = budgetFromEnv();
  bool Changed = false;
  for (Function *K : findKernels(M)) {
    if (!K->hasName() || !K->getReturnType()->isVoidTy() || K->isVarArg())
      continue; // nothing to call it by, or not a kernel's shape
    if (Function *Existing = M.getFunction(checkpointCloneSymbol(K->getName()))) {
      if (!Existing->isDeclaration())
        continue; // done already
      if (!reservedClone(M, *K))
        dropReservation(M, Existing); // K changed type since; start afresh
    }
    SyncSummary Sync = summarizeSync(*K, Arch);
    CheckpointInfo Info;
    if (Sync.Barriers)
      Info.Flags |= CheckpointInfo::UsesBarriers;
    // Loops that wait for another CTA's write (CheckpointSpinWait.cpp):
    // stopping the writer at its entry would leave the waiters spinning.
    // Parameters or static shared memory at the limit
    // (CheckpointCloneBudget.cpp): the clones' additions would not fit, and
    // ptxas would reject the module.
    std::string NoCloneWhy;
    if (!Sync.Unsupported)
      NoCloneWhy = spinWaitBlocker(*K, Arch);
    if (!Sync.Unsupported && NoCloneWhy.empty())
      NoCloneWhy = cloneBudgetBlocker(*K, Arch);
    // Every kernel left without a clone says why (a construct the pass
    // cannot see through as much as a spin wait or the budget).
    if (Sync.Unsupported || !NoCloneWhy.empty()) {
      auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(*K);
      ORE.emit([&] {
        return OptimizationRemarkAnalysis("gmem-checkpoint", "NoClone", K)
               << "no preemptible clone: " << (Sync.Unsupported ? Sync.Why : NoCloneWhy);
      });
    }
    if (Sync.Unsupported || !NoCloneWhy.empty()) {
      if (Function *D = reservedClone(M, *K))
        dropReservation(M, D);
      emitNoClone(M, K->getName(), Sync, Sync.Unsupported ? Sync.Why : NoCloneWhy);
      Changed = true;
      continue;
    }
    // Asked of K before any clone exists: the clone's body is K's.
    bool NeedsWarpAlignedBlock = false;
    std::string NotPersistent = persistentBlocker(*K, Arch, Sync, FAM, NeedsWarpAlignedBlock);
    remarkPersistent(*K, FAM, NotPersistent);
    if (!NotPersistent.empty())
      notePreemption(M, K->getName(), "not persistent: " + NotPersistent);
    Function *C = createClone(M, *K, checkpointCloneSymbol(K->getName()));
    CloneBuild Build(M, Arch, *C);
    Build.SegScale = NotPersistent.empty() && segScaleEnabled();
    Build.prepare(Budget);
    bool PerThreadLoopStops = false;
    if (Sync.Opaque || !loopCheckpointsEnabled()) {
      Info.Flags |= CheckpointInfo::EntryOnly;
      notePreemption(M, K->getName(),
                     "no loop checkpoints: " +
                         (Sync.Opaque ? Sync.Why : std::string("GMEM_CHECKPOINT_LOOPS=0")));
    } else {
      Build.Ctx.Remarks = true;
      Build.Ctx.WarpVoteLoops = NotPersistent.empty();
      LoopCheckpointStats S = insertLoopCheckpoints(*C, Build.Ctx);
      Build.Ctx.Remarks = false;
      // A warp vote needs every lane of the warp: whole-warp rows.
      NeedsWarpAlignedBlock |= S.WarpVoted != 0;
      PerThreadLoopStops = S.Sites != S.Merged;
      Info.LoopCheckpoints = S.Sites;
      Info.IntervalK = S.MaxInterval;
      if (S.Sites)
        Info.Flags |= CheckpointInfo::HasLoopCheckpoints;
      // Only where some strip-mined segment follows the scale: the grid_z
      // mask it brings changes ptxas's registers (see Batched below).
      if (Build.Ctx.SegScale)
        Info.Flags |= CheckpointInfo::SegmentScale;
    }

    if (NotPersistent.empty()) {
      Info.Flags |= CheckpointInfo::Persistent;
      // Asked of K, untouched so far (the clones are copies).
      if (Arch == GpuArch::NVPTX && gridStrideEnabled())
        noteGridStride(*K, FAM, Info);
      if (NeedsWarpAlignedBlock)
        Info.Flags |= CheckpointInfo::WarpAlignedBlock;
      // Check intervals (flag Batched): the barrier at the end of a virtual
      // CTA costs short ones most of their overhead (H200, bench/preempt/
      // micro: a grid-stride vec_add +2.2% with it after every virtual CTA,
      // -1.5% after every 4th, -4.2% with none). Without it a thread may
      // start the next virtual CTA while others finish this one: sound only
      // where no shared memory is reused across them.
      const bool HasLoops = Info.Flags & CheckpointInfo::HasLoopCheckpoints;
      // Every persistent kernel gets a light twin. With loop checkpoints it
      // is the form without them; without, it is the main clone plus the
      // late read (below), which every launch of such a kernel may run:
      // they all stop between virtual CTAs only (libgmemrt's LightOk).
      const bool EmitLight = HasLoops ? lightTwinsEnabled() : lightTwinsForEveryKernel();
      const bool EmitFree = freeClonesEnabled() && freeBlocker(*K, Sync).empty();
      BatchMode Mode;
      const bool SharedMemory = !sharedMemoryBlocker(*K).empty();
      // A kernel with shared memory batches in its main clone with two
      // copies of it (CheckpointSharedDoubling.cpp; off unless
      // GMEM_CHECKPOINT_DOUBLE_SHARED_MAX is set: measured a loss as the
      // main clone), where virtual CTAs may be short: without loop
      // checkpoints (with them a virtual CTA is long enough to need them,
      // and the runtime's interval would be 1).
      const bool DoubleShared = SharedMemory && !HasLoops && batchingEnabled() &&
                                sharedDoublingBlocker(*K).empty();
      Mode.Batch = batchingEnabled() && (!SharedMemory || DoubleShared);
      Mode.DoubleShared = DoubleShared;
      // Kernels that share memory across a barrier cannot batch; they are
      // the barrier-heavy ones whose CTAs static ticket order leaves
      // unevenly loaded (scan, bitonic sort, tiled GEMM). The twins hand out
      // their tail, the main clone never: the runtime times the forms per
      // launch shape (tailPercentFromEnv says what the tail cost where it
      // was not wanted). Such a kernel without loop checkpoints gets an
      // alternate form for its tail alone (its state in registers, as the
      // main clone's).
      const unsigned Tail = SharedMemory && Sync.Barriers ? tailPercentFromEnv() : 0;
      const bool EmitAlt =
          (HasLoops ? EmitLight : Tail != 0) && altClonesEnabled() && !mainStateInShared();
      const unsigned AltTail = EmitAlt ? Tail : 0;
      const unsigned LightTail = EmitLight ? Tail : 0;
      if (AltTail)
        Info.Flags |= CheckpointInfo::BalancedTail;
      if (LightTail)
        Info.Flags |= CheckpointInfo::LightTail;
      if (AltTail || LightTail)
        Info.Flags |= Tail << CheckpointInfo::TailPercentShift;
      BatchMode MainMode = Mode;
      MainMode.Batch = Mode.Batch && !PerThreadLoopStops && !mainStateInShared();
      // The flag (and with it grid_z's mask in every form) only where some
      // form batches: the mask alone changed ptxas's registers for a
      // kernel that could not batch (transpose_tiled 30 -> 32, +3.6% ->
      // +18.9% on the H200), and a flagged shape is timed by the runtime.
      Mode.Mask = MainMode.Batch || (EmitLight && Mode.Batch && !SharedMemory) ||
                  (EmitFree && batchingEnabled());
      if (Mode.Mask)
        Info.Flags |= CheckpointInfo::Batched;
      // The segment scale shares the word: every form masks it then.
      Mode.Mask |= bool(Info.Flags & CheckpointInfo::SegmentScale);
      const uint32_t ZFlags =
          Info.Flags & (CheckpointInfo::Batched | CheckpointInfo::SegmentScale);
      Build.ZFlags = ZFlags;
      MainMode.Mask = Mode.Mask;
      const StampedForms Stamped = stampedFormsFromEnv();
      const bool StampAll = Stamped == StampedForms::All ||
                            (Stamped == StampedForms::Auto && !SharedMemory);
      const LateReadForms Late = lateReadFormsFromEnv();
      MainMode.LateRead = Late == LateReadForms::All;
      Build.buildPersistent(HasLoops, mainStateInShared(), MainMode, /*Free=*/false, StampAll);
      if (EmitLight) {
        // Loop checkpoints cost up to 2x on kernels whose CTAs are short
        // anyway (a check's L2 round trip stalls the CTA at its barrier):
        // the twin lets the runtime skip them where a CTA is short enough.
        // Only the twin reads the request again at the end of a long
        // virtual CTA (launches that stop only between virtual CTAs run
        // it, by timing): in the other forms the same latch code made
        // ptxas schedule unrelated loops worse (H200, bench/preempt/
        // results/parts/late-read: nbody's full clone +1% -> +25%,
        // transpose_tiled +3% -> +20%).
        if (emitPersistentTwin(M, Arch, *K, checkpointLightSymbol(K->getName()), Budget,
                               /*LoopStops=*/false, /*StateInShared=*/false,
                               BatchMode{Mode.Mask, Mode.Batch && !SharedMemory, LightTail,
                                         /*LateRead=*/true},
                               ZFlags, /*Free=*/false, Stamped != StampedForms::None))
          Info.Flags |= CheckpointInfo::HasLight;
      }
      if (EmitAlt) {
        // Where a clone's loop checks cost most, ptxas's register choices
        // decide it, and neither state form wins everywhere (H200, bench/
        // preempt/results/parts/shared-state: stencil3d +26% -> +4% in
        // shared state, gemm_tiled16 +19% -> +43%): the runtime times both.
        // Its latch reads the shared state before a barrier and writes it
        // after: it keeps the barrier after every virtual CTA. Without loop
        // checkpoints it is the main clone with the balanced tail.
        if (emitPersistentTwin(M, Arch, *K, checkpointAltSymbol(K->getName()), Budget,
                               /*LoopStops=*/HasLoops, /*StateInShared=*/HasLoops,
                               BatchMode{Mode.Mask, false, AltTail,
                                         /*LateRead=*/Late != LateReadForms::Light},
                               ZFlags, /*Free=*/false, StampAll))
          Info.Flags |= CheckpointInfo::HasAlt;
      }
      if (EmitFree) {
        // The per-virtual-CTA barrier and request read are what short
        // virtual CTAs pay for (bench/preempt/results/parts/ptx-variants):
        // where nothing in the body needs a CTA's threads together, the
        // runtime may time a form without them for idempotent launches.
        if (emitPersistentTwin(M, Arch, *K, checkpointFreeSymbol(K->getName()), Budget, HasLoops,
                               /*StateInShared=*/false, BatchMode{Mode.Mask, true, 0}, ZFlags,
                               /*Free=*/true))
          Info.Flags |= CheckpointInfo::HasFree;
      }
    } else {
      Build.buildEntry();
      Build.buildExit();
    }
    Build.promote();
    Changed = true;
    if (!keepValidClone(M, *C)) {
      for (const std::string &Twin : {checkpointLightSymbol(K->getName()),
                                      checkpointAltSymbol(K->getName()),
                                      checkpointFreeSymbol(K->getName())})
        if (Function *T = M.getFunction(Twin))
          dropReservation(M, T);
      emitNoClone(M, K->getName(), Sync, "the clone failed verification (a bug)");
      continue;
    }
    appendToUsed(M, {C});
    emitInfo(M, K->getName(), Info);
  }
  // Reservations whose kernel went away (or was never a kernel) must not
  // reach the backend as undefined entries.
  SmallVector<Function *, 4> Orphans;
  for (Function &F : M)
    if (F.isDeclaration() && isCheckpointCloneName(F.getName()))
      Orphans.push_back(&F);
  for (Function *F : Orphans) {
    dropReservation(M, F);
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace gmem

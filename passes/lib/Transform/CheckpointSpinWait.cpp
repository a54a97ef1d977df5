//===- CheckpointSpinWait.cpp - Kernels that wait for other CTAs ----------===//
//
// A loop whose exit hangs on a volatile or atomic load of global memory (or
// on an inline-asm load) waits for a value some other thread writes: CUB's
// decoupled look-back, where the CTA of tile t spins until the CTA of tile
// t - 1 has published, a producer CTA's flag, a work queue. Such a kernel
// relies on the CTA it waits for being started once the waiting one is.
// A stop breaks that: a launch not found idempotent stops at CTA entry (or
// between virtual CTAs), and a CTA that starts before the request lands can
// wait forever for one that saw it and left, so the stop never completes
// and neither does the kernel. Such kernels get no clone: they run as
// compiled, gated by the scheduler and not preemptible, which the info
// global and a remark say.
//
// Lock loops (an atomic exchange or compare-and-swap in the exit test) are
// not counted: a lock's holder is a running CTA, which a stop lets finish.
// An atomic that cannot change memory (`atomicAdd(p, 0)`, `atomicCAS(p, x,
// x)`) is a coherent read, though, and counts as the wait it is.
// Nor are non-coherent asm loads (`ld.global.nc`, `ldu`: CUB's LOAD_LDG in
// binary searches), which cannot see another CTA's write.
// Loads of shared or local memory are not counted either: a CTA's threads
// stop together. Unless the loop also holds a wait load: one thread
// waiting and handing the value to the rest through shared memory is the
// same wait. Warp votes and other calls between the load and the exit test
// (CUB leaves its look-back loop on `__any_sync` of the lanes' statuses)
// are looked through.
// So are branches: a value the exit test reads may be a phi whose incoming
// value a branch on the wait load chooses, as in a loop that only steps
// `k` once its predecessor has published (`while (k < n) { if (ready[k-1])
// { ...; k += stride; } }`, ECL-BH's summarization) or that sets its
// again-flag under such a branch and leaves on `__any_sync(again)` (ECL-GC's
// colouring): the branches that decide which incoming value a phi in the
// loop takes count as its operands (control dependence, from the
// post-dominator tree).
//
//===----------------------------------------------------------------------===//

#include "CheckpointInternal.h"
#include "gmem/passes/GpuTarget.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace gmem::ckpt {

namespace {

/// Shared (3) and local (5) memory: only the CTA's own threads write it.
bool ctaPrivate(const Value *Ptr) {
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  return AS == 3 || AS == 5;
}

/// Whether \p Ptr points into shared or local memory, also through a cast
/// to a generic pointer (clang's `__shared__ int flag` read as `flag`).
bool inCtaPrivateObject(const Value *Ptr) {
  return ctaPrivate(Ptr) || ctaPrivate(getUnderlyingObject(Ptr));
}

/// An atomic that leaves memory as it was: `atomicAdd(p, 0)`,
/// `atomicOr(p, 0)`, `atomicCAS(p, x, x)` and the like, the usual way to
/// read a flag coherently. In an exit test it is a wait, not a lock.
bool isAtomicRead(const Instruction &I) {
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    const Value *V = RMW->getValOperand();
    if (const auto *F = dyn_cast<ConstantFP>(V))
      return (RMW->getOperation() == AtomicRMWInst::FAdd ||
              RMW->getOperation() == AtomicRMWInst::FSub) &&
             F->isZero();
    const auto *C = dyn_cast<ConstantInt>(V);
    if (!C)
      return false;
    switch (RMW->getOperation()) {
    case AtomicRMWInst::Add:
    case AtomicRMWInst::Sub:
    case AtomicRMWInst::Or:
    case AtomicRMWInst::Xor:
    case AtomicRMWInst::UMax:
      return C->isZero();
    case AtomicRMWInst::And:
    case AtomicRMWInst::UMin:
      return C->isMinusOne();
    case AtomicRMWInst::Max:
      return C->getValue().isMinSignedValue();
    case AtomicRMWInst::Min:
      return C->getValue().isMaxSignedValue();
    default:
      return false;
    }
  }
  if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return CX->getCompareOperand() == CX->getNewValOperand();
  return false;
}

/// A load that sees other threads' writes while the loop runs.
bool isWaitLoad(const Instruction &I, GpuArch Arch) {
  if (const auto *LI = dyn_cast<LoadInst>(&I))
    return (LI->isVolatile() || LI->isAtomic()) && !ctaPrivate(LI->getPointerOperand());
  if (isAtomicRead(I))
    return !ctaPrivate(I.getOperand(0));
  if (const auto *CB = dyn_cast<CallBase>(&I))
    if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand()))
      return Arch == GpuArch::NVPTX ? asmHasCoherentGlobalLoad(IA->getAsmString())
                                    : scanAsmMemoryUse(IA->getAsmString(), Arch).Reads;
  return false;
}

/// An atomic that changes memory: a lock or a counter, whose holder or
/// taker is a running CTA that a stop lets finish.
bool isLockStep(const Instruction &I, GpuArch Arch) {
  if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
    return true;
  const auto *CB = dyn_cast<CallBase>(&I);
  if (!CB)
    return false;
  if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand()))
    return scanAsmMemoryUse(IA->getAsmString(), Arch).Writes;
  const Function *Callee = CB->getCalledFunction();
  return Callee && (Callee->getName().contains("atomic") || Callee->getName().contains("atom."));
}

bool loopHasWaitLoad(const Loop &L, GpuArch Arch) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      if (isWaitLoad(I, Arch))
        return true;
  return false;
}

/// Whether the loop's exit test at \p Cond depends, through values computed
/// in \p L, on a wait load. Calls are looked through (a warp vote or
/// ballot over the loaded status is how CUB leaves its look-back loop), and
/// so is shared memory: a loop that waits in one thread and hands the value
/// to the others through shared memory tests a shared load, so such a load
/// in the exit test counts when the loop also holds a wait load.
/// The conditions of the branches (and switches) in \p L that \p BB is
/// control dependent on: one successor of theirs leads to \p BB for sure,
/// another may not.
void controllingConditions(const BasicBlock *BB, const Loop &L, const PostDominatorTree &PDT,
                           SmallVectorImpl<const Value *> &Out) {
  for (const BasicBlock *Y : L.blocks()) {
    const Instruction *T = Y->getTerminator();
    if (T->getNumSuccessors() < 2 || PDT.properlyDominates(BB, Y))
      continue;
    if (none_of(successors(Y), [&](const BasicBlock *S) { return PDT.dominates(BB, S); }))
      continue;
    if (const auto *Br = dyn_cast<BranchInst>(T))
      Out.push_back(Br->getCondition());
    else if (const auto *SI = dyn_cast<SwitchInst>(T))
      Out.push_back(SI->getCondition());
    else
      Out.push_back(T); // an invoke or callbr: looked at like any call
  }
}

bool dependsOnWaitLoad(const Value *Cond, const Loop &L, const PostDominatorTree &PDT,
                       GpuArch Arch) {
  SmallVector<const Value *, 16> Work{Cond};
  SmallPtrSet<const Value *, 32> Seen;
  bool SharedRelay = false;
  while (!Work.empty()) {
    const auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !L.contains(I) || !Seen.insert(I).second)
      continue;
    if (isWaitLoad(*I, Arch))
      return true;
    if (isLockStep(*I, Arch))
      continue;
    if (const auto *LI = dyn_cast<LoadInst>(I)) {
      SharedRelay |= inCtaPrivateObject(LI->getPointerOperand());
      continue;
    }
    if (!isa<CallBase>(I) && I->mayWriteToMemory())
      continue;
    for (const Value *Op : I->operands())
      Work.push_back(Op);
    if (const auto *Phi = dyn_cast<PHINode>(I))
      for (const BasicBlock *In : Phi->blocks())
        if (L.contains(In))
          controllingConditions(In, L, PDT, Work);
  }
  return SharedRelay && loopHasWaitLoad(L, Arch);
}

std::string where(const Loop &L) {
  if (DebugLoc DL = L.getStartLoc())
    return (" at line " + Twine(DL.getLine())).str();
  return "";
}

std::string spinLoopIn(Function &F, GpuArch Arch) {
  DominatorTree DT(F);
  LoopInfo LI(DT);
  PostDominatorTree PDT(F);
  for (const Loop *L : LI.getLoopsInPreorder()) {
    SmallVector<BasicBlock *, 4> Exiting;
    L->getExitingBlocks(Exiting);
    for (BasicBlock *BB : Exiting) {
      const auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
      const Value *Cond = Br && Br->isConditional() ? Br->getCondition() : nullptr;
      if (const auto *SI = dyn_cast<SwitchInst>(BB->getTerminator()))
        Cond = SI->getCondition();
      if (Cond && dependsOnWaitLoad(Cond, *L, PDT, Arch))
        return "a loop" + where(*L) + " in '" + plainName(demangle(F.getName().str())) +
               "' waits on memory other threads write (a volatile, atomic or asm load decides its "
               "exit test): a CTA stopped before writing it would leave the waiters spinning";
    }
  }
  return "";
}

} // namespace

std::string spinWaitBlocker(Function &K, GpuArch Arch) {
  // GMEM_CHECKPOINT_SPIN_WAIT=0 clones such kernels anyway: only for
  // showing on a GPU what goes wrong (bench/preempt/results/parts/spin-wait).
  if (envSaysOff("GMEM_CHECKPOINT_SPIN_WAIT"))
    return "";
  std::string Why;
  forEachReachableFunction(K, [&](Function &F) {
    if (Why.empty())
      Why = spinLoopIn(F, Arch);
  });
  return Why;
}

} // namespace gmem::ckpt

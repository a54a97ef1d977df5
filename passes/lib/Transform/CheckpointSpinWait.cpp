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
// Mutex loops are not counted: an exchange or compare-and-swap of constants
// in the exit test on a word that the same code later releases (stores the
// free value to), whose holder is a running CTA, which a stop between
// virtual CTAs lets finish. Other atomics in an exit test wait like loads:
// a compare-and-swap of the CTA count (a counting barrier) or an exchange
// that consumes a token another CTA deposits (found by blind runs over
// HeteroSync and ScoR, session 45). A token passed back and forth on one
// word looks like a mutex and is not told apart.
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
// So are calls to functions that hold a wait load (a poll in a noinline
// helper). A plain load of global memory counts too where it polls: in a
// loop that holds a fence, a sleep or a call that may write memory (which
// make the compiler read it again every trip: `while (flag[b] == 0)
// __threadfence();`, also when the flag is published through another,
// aliasing pointer, or a hand-written look-back walking back over flags),
// or, at an address the loop does not change, of an object the kernel
// writes, in a loop with a barrier or an atomic. A bound read from an input
// the kernel never writes, in a tiled loop's barriers, is not a poll.
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
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace gmem::ckpt {

namespace {

/// Shared (3) and local (5) memory: only the CTA's own threads write it.
bool ctaPrivate(const Value *Ptr) {
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  return AS == 3 || AS == 5;
}

/// A thread's own object: a stack slot, or its copy of a by-value kernel
/// parameter (a struct the kernel writes, as CUB's radix sort upsweep does
/// with its GridEvenShare before testing `block_end` in a tile loop that
/// holds barriers; NVPTX gives every thread a local copy of a written
/// parameter). Generic pointers in the IR, so the address space misses them.
bool threadPrivate(const Value *Obj) {
  if (isa<AllocaInst>(Obj))
    return true;
  const auto *A = dyn_cast<Argument>(Obj);
  return A && A->hasByValAttr();
}

/// Whether \p Ptr points into shared or local memory, also through a cast
/// to a generic pointer (clang's `__shared__ int flag` read as `flag`), or
/// into an object of the thread's own: only the CTA's threads write it.
bool inCtaPrivateObject(const Value *Ptr) {
  if (ctaPrivate(Ptr))
    return true;
  const Value *Obj = getUnderlyingObject(Ptr);
  return ctaPrivate(Obj) || threadPrivate(Obj);
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
    return (LI->isVolatile() || LI->isAtomic()) && !inCtaPrivateObject(LI->getPointerOperand());
  if (isAtomicRead(I))
    return !inCtaPrivateObject(I.getOperand(0));
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

/// The word a load, store or atomic accesses; null for anything else.
const Value *accessedPointer(const Instruction &I) {
  if (const auto *LI = dyn_cast<LoadInst>(&I))
    return LI->getPointerOperand();
  if (const auto *SI = dyn_cast<StoreInst>(&I))
    return SI->getPointerOperand();
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getPointerOperand();
  if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return CX->getPointerOperand();
  return nullptr;
}

/// Whether \p A and \p B address the same word for sure: one value through
/// pointer casts, or GEPs of the same operands.
bool samePointer(const Value *A, const Value *B) {
  A = A->stripPointerCasts();
  B = B->stripPointerCasts();
  if (A == B)
    return true;
  const auto *GA = dyn_cast<GEPOperator>(A), *GB = dyn_cast<GEPOperator>(B);
  if (!GA || !GB || GA->getNumOperands() != GB->getNumOperands() ||
      GA->getSourceElementType() != GB->getSourceElementType() ||
      !samePointer(GA->getPointerOperand(), GB->getPointerOperand()))
    return false;
  for (unsigned K = 1; K < GA->getNumOperands(); ++K)
    if (GA->getOperand(K) != GB->getOperand(K))
      return false;
  return true;
}

/// A mutex acquire: `atomicCAS(lock, FREE, TAKEN)` or `atomicExch(lock,
/// TAKEN)` of constants, on a word that a store, exchange or CAS reachable
/// from it sets back to a constant free value (FREE; for an exchange, any
/// other constant), and that only a thread that acquired it sets back:
/// every such release follows an acquire of the same word (it is dominated
/// by one). Not a counting barrier's `atomicCAS(ctr, gridDim.x, 0)` (a
/// count, and nothing releases), nor the consumer of a token that it passes
/// on to another word, nor a hand-off that looks like a lock: a word the
/// host leaves taken, which one CTA sets free without acquiring it for the
/// others to take (two blind runs of session 46 found it cloned; a CTA
/// stopped at its entry before the hand-off would leave the takers
/// spinning).
bool isMutexAcquire(const Instruction &I, const DominatorTree &DT, const LoopInfo &LI) {
  const Value *Ptr;
  const Constant *Free = nullptr, *Taken = nullptr;
  if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
    Free = dyn_cast<Constant>(CX->getCompareOperand());
    Taken = dyn_cast<Constant>(CX->getNewValOperand());
    Ptr = CX->getPointerOperand();
    if (!Free || !Taken || Free == Taken)
      return false;
  } else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
    Taken = dyn_cast<Constant>(RMW->getValOperand());
    Ptr = RMW->getPointerOperand();
    if (RMW->getOperation() != AtomicRMWInst::Xchg || !Taken)
      return false;
  } else {
    return false;
  }
  auto Releases = [&](const Value *P, const Value *V) {
    const auto *C = dyn_cast<Constant>(V);
    return C && samePointer(P, Ptr) && (Free ? C == Free : C != Taken);
  };
  // Acquires of the same word with the same constants (the loop's own, or a
  // try-lock's `if (atomicCAS(lock, 0, 1) == 0)` elsewhere in the kernel).
  SmallVector<const Instruction *, 4> Acquires;
  for (const BasicBlock &BB : *I.getFunction())
    for (const Instruction &A : BB) {
      if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&A)) {
        if (samePointer(CX->getPointerOperand(), Ptr) && CX->getCompareOperand() == Free &&
            CX->getNewValOperand() == Taken)
          Acquires.push_back(&A);
      } else if (const auto *RMW = dyn_cast<AtomicRMWInst>(&A)) {
        if (!Free && RMW->getOperation() == AtomicRMWInst::Xchg &&
            samePointer(RMW->getPointerOperand(), Ptr) && RMW->getValOperand() == Taken)
          Acquires.push_back(&A);
      }
    }
  bool Reached = false;
  for (const BasicBlock &BB : *I.getFunction())
    for (const Instruction &R : BB) {
      bool Release = false;
      if (const auto *SI = dyn_cast<StoreInst>(&R))
        Release = Releases(SI->getPointerOperand(), SI->getValueOperand());
      else if (const auto *X = dyn_cast<AtomicRMWInst>(&R))
        Release = X->getOperation() == AtomicRMWInst::Xchg &&
                  Releases(X->getPointerOperand(), X->getValOperand());
      else if (const auto *C = dyn_cast<AtomicCmpXchgInst>(&R))
        Release = &R != &I && Releases(C->getPointerOperand(), C->getNewValOperand());
      if (!Release)
        continue;
      if (none_of(Acquires, [&](const Instruction *A) { return DT.dominates(A, &R); }))
        return false; // set free by a thread that never took it: a hand-off
      Reached |= isPotentiallyReachable(&I, &R, nullptr, &DT, &LI);
    }
  return Reached;
}

/// A lock-free retry: a compare-and-swap whose expected value was computed
/// from what the kernel read of the same object (the word itself, as in a
/// float atomicMax's `atomicCAS(p, old, f(old))` loop, or other words of it,
/// as in a union-find's `atomicCAS(&parent[r], r, s)` with r found by
/// reading `parent`): it fails only while another running thread changed
/// the word. A counting barrier's expected value is a count (gridDim.x, a
/// parameter), not something read.
bool isRetryCas(const AtomicCmpXchgInst &CX) {
  const Value *Obj = getUnderlyingObject(CX.getPointerOperand());
  SmallVector<const Value *, 16> Work{CX.getCompareOperand()};
  SmallPtrSet<const Value *, 32> Seen;
  while (!Work.empty() && Seen.size() < 64) {
    const auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Seen.insert(I).second)
      continue;
    const Value *Read = isa<StoreInst>(I) ? nullptr : accessedPointer(*I);
    if (Read) {
      if (getUnderlyingObject(Read) == Obj)
        return true;
      continue;
    }
    if (I->mayReadOrWriteMemory() && !isa<CallBase>(I))
      continue;
    append_range(Work, I->operands());
  }
  return false;
}

/// Whether an atomic the exit test depends on waits for other CTAs: an
/// exchange or compare-and-swap of global memory that is neither a mutex
/// acquire nor a lock-free retry (a counting barrier's CAS of the CTA
/// count, a token's consumer). Counters (add, increment, ...) are not: their
/// taker is the running CTA itself.
bool atomicWaits(const Instruction &I, const DominatorTree &DT, const LoopInfo &LI) {
  if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return !inCtaPrivateObject(CX->getPointerOperand()) && !isRetryCas(*CX) &&
           !isMutexAcquire(I, DT, LI);
  if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return RMW->getOperation() == AtomicRMWInst::Xchg &&
           !inCtaPrivateObject(RMW->getPointerOperand()) && !isMutexAcquire(I, DT, LI);
  return false;
}

/// Whether \p F writes the object \p Ptr points into (a store or an
/// atomic): a word its threads publish to, not a read-only input.
bool writtenIn(const Value *Ptr, const Function &F) {
  const Value *Obj = getUnderlyingObject(Ptr);
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      const Value *P = isa<LoadInst>(I) ? nullptr : accessedPointer(I);
      if (P && getUnderlyingObject(P) == Obj)
        return true;
    }
  return false;
}

bool loopHasAtomic(const Loop &L) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
        return true;
  return false;
}

/// What in the loop makes the compiler read memory again every trip.
/// Strong: a fence, a sleep or a call to a function that may write memory,
/// the tools of a poll (a plain load the exit test depends on then counts
/// wherever it reads). Weak: a barrier (also what a tiled loop holds: only
/// a word the kernel itself writes, read at one address, counts).
enum class Reload { None, Weak, Strong };

Reload loopReload(const Loop &L) {
  Reload R = Reload::None;
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB) {
      if (isa<FenceInst>(I))
        return Reload::Strong;
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand())) {
        StringRef Asm = IA->getAsmString();
        if (Asm.contains("membar") || Asm.contains("fence") || Asm.contains("nanosleep") ||
            Asm.contains("s_sleep"))
          return Reload::Strong;
        if (Asm.contains("bar.sync") || Asm.contains("barrier"))
          R = Reload::Weak;
        continue;
      }
      const Function *Callee = CB->getCalledFunction();
      if (!Callee || !Callee->isIntrinsic()) {
        if (CB->mayWriteToMemory())
          return Reload::Strong;
        continue;
      }
      StringRef N = Callee->getName();
      if (N.contains("membar") || N.contains("fence") || N.contains("nanosleep") ||
          N.contains("s.sleep"))
        return Reload::Strong;
      if (N.contains("barrier"))
        R = Reload::Weak;
    }
  return R;
}

/// Whether \p F or a function it calls (up to a few levels) holds a wait
/// load.
bool functionHasWaitLoad(const Function &F, GpuArch Arch, unsigned Depth = 4) {
  if (F.isDeclaration() || Depth == 0)
    return false;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (isWaitLoad(I, Arch))
        return true;
      if (const auto *CB = dyn_cast<CallBase>(&I))
        if (const Function *Callee = CB->getCalledFunction())
          if (Callee != &F && functionHasWaitLoad(*Callee, Arch, Depth - 1))
            return true;
    }
  return false;
}

/// Whether the loop holds a wait load or an atomic that waits (a CTA's
/// thread 0 trying a counting barrier's CAS and telling the others through
/// shared memory).
bool loopHasWait(const Loop &L, const DominatorTree &DT, const LoopInfo &LI, GpuArch Arch) {
  for (const BasicBlock *BB : L.blocks())
    for (const Instruction &I : *BB)
      if (isWaitLoad(I, Arch) || atomicWaits(I, DT, LI))
        return true;
  return false;
}

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

/// Whether the loop's exit test at \p Cond depends, through values computed
/// in \p L, on a wait load. Calls are looked through (a warp vote or
/// ballot over the loaded status is how CUB leaves its look-back loop; a
/// call to a function holding a wait load is one), and so is shared memory:
/// a loop that waits in one thread and hands the value to the others
/// through shared memory tests a shared load, so such a load in the exit
/// test counts when the loop also holds a wait load.
bool dependsOnWaitLoad(const Value *Cond, const Loop &L, const DominatorTree &DT,
                       const LoopInfo &LInfo, const PostDominatorTree &PDT, GpuArch Arch) {
  SmallVector<const Value *, 16> Work{Cond};
  SmallPtrSet<const Value *, 32> Seen;
  bool SharedRelay = false;
  const Reload Reloads = loopReload(L);
  while (!Work.empty()) {
    const auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !L.contains(I) || !Seen.insert(I).second)
      continue;
    if (isWaitLoad(*I, Arch))
      return true;
    if (isLockStep(*I, Arch)) {
      if (atomicWaits(*I, DT, LInfo))
        return true;
      continue;
    }
    if (const auto *CB = dyn_cast<CallBase>(I))
      if (const Function *Callee = CB->getCalledFunction())
        if (functionHasWaitLoad(*Callee, Arch))
          return true;
    if (const auto *LI = dyn_cast<LoadInst>(I)) {
      const Value *Ptr = LI->getPointerOperand();
      if (inCtaPrivateObject(Ptr))
        SharedRelay = true;
      else if (Reloads == Reload::Strong ||
               (L.isLoopInvariant(Ptr) && (Reloads == Reload::Weak || loopHasAtomic(L)) &&
                writtenIn(Ptr, *I->getFunction())))
        return true; // a plain poll
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
  return SharedRelay && loopHasWait(L, DT, LInfo, Arch);
}

std::string where(const Loop &L) {
  if (DebugLoc DL = L.getStartLoc())
    return (" at line " + Twine(DL.getLine())).str();
  return "";
}

/// Inline asm that branches and reads global memory coherently (or with an
/// atomic): a wait loop inside one asm statement (`W: ld.acquire.gpu ...;
/// setp ...; @p bra W;`), which the IR's loops do not show. Also taken: an
/// asm statement that only branches forward around such a load.
bool asmLoopsOnMemory(StringRef Text, GpuArch Arch) {
  if (Arch == GpuArch::NVPTX) {
    bool Branches = false, Reads = asmHasCoherentGlobalLoad(Text);
    forEachPtxWord(Text, [&](StringRef Word, StringRef Op) {
      if (Op == "bra" || Op == "brx")
        Branches = true;
      if (Op == "atom" && !Word.contains(".shared"))
        Reads = true;
    });
    return Branches && Reads;
  }
  std::string Lower = Text.lower();
  return StringRef(Lower).contains("s_cbranch") || StringRef(Lower).contains("s_branch")
             ? scanAsmMemoryUse(Text, Arch).Reads
             : false;
}

std::string spinLoopIn(Function &F, GpuArch Arch) {
  for (const Instruction &I : instructions(F))
    if (const auto *CB = dyn_cast<CallBase>(&I))
      if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand()))
        if (asmLoopsOnMemory(IA->getAsmString(), Arch)) {
          std::string Line;
          if (const DebugLoc &DL = I.getDebugLoc())
            Line = (" at line " + Twine(DL.getLine())).str();
          return "inline asm" + Line + " in '" + plainName(demangle(F.getName().str())) +
                 "' branches around a load of global memory (a wait loop inside the asm, which "
                 "the pass cannot see into): a CTA stopped before writing what it waits for "
                 "would leave it spinning";
        }
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
      if (Cond && dependsOnWaitLoad(Cond, *L, DT, LI, PDT, Arch))
        return "a loop" + where(*L) + " in '" + plainName(demangle(F.getName().str())) +
               "' waits on memory other threads write (a load or atomic that sees other CTAs' "
               "writes decides its exit test): a CTA stopped before writing it would leave the "
               "waiters spinning";
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

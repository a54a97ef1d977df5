//===- CheckpointSharedDoubling.cpp - Two copies of a kernel's shared memory -===//
//
// Check intervals (info flag Batched) let a persistent CTA's threads go on
// into the next virtual CTA without the barrier that ends this one, which
// is what short virtual CTAs pay most for. With shared memory of the
// kernel's that was unsound: a thread ahead would overwrite words a slower
// one still reads. Barrier-heavy kernels with short virtual CTAs (block
// scans and reductions, tiled transposes) are exactly those.
//
// With two copies of the kernel's static shared memory, one for the even and
// one for the odd virtual CTAs of a persistent CTA, a thread ahead writes
// the other copy. It can come back to this copy only in the virtual CTA
// after the next, and to get there it passes a CTA barrier of the next one,
// which waits for every thread of the CTA, so for every thread to have left
// this one. That holds where every path through the body runs a CTA
// barrier (its block post-dominates the body's entry). Every thread runs the
// same virtual CTAs in the same order (static tickets: check intervals and
// the balanced tail never go together), so a parity each thread flips at
// the body's entry names the same copy in all of them; a relaunch starts
// with fresh shared memory and parity 0.
//
// The copy a pointer points into is chosen where the body begins, so every
// pointer derived from a shared global follows it; pointers that could
// reach shared memory by another road rule the kernel out: an integer made a
// pointer, a cast into the shared address space, inline asm other than
// register arithmetic, or a device function that touches shared memory
// itself. So do dynamic shared memory (its size is the launch's), and twice
// the static bytes over GMEM_CHECKPOINT_DOUBLE_SHARED_MAX (more could cost
// the clone its occupancy, which the runtime cannot undo).
//
// Off by default (the variable unset or 0; 16384 was measured): it replaces
// the main clone, and on the H200 (bench/preempt/results/session29/
// double-shared, same call) reduce<256> went +8.5% -> +6.1% as launched
// (check interval 2) while transpose_tiled went +3.6% -> +19.2% (interval
// 1: its virtual CTAs of ~2.9 us gain nothing, and the grid_z mask and
// counter cost ptxas's schedule what they cost it before, see
// CheckpointInserter.cpp) and scan_hillis_steele's chosen alternate form
// stayed as it was. It wants to be a form of its own that the runtime
// times against the main clone, as the alternate and free forms are.
//
//===----------------------------------------------------------------------===//

#include "CheckpointInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"

#include <cstdlib>

using namespace llvm;

namespace gmem::ckpt {

namespace {

constexpr unsigned SharedAS = 3;

/// The static shared globals \p V is or is built on (constant expressions),
/// into \p Out; false where one is not a sized definition (dynamic
/// `extern __shared__` memory).
bool collectSharedGlobals(const Value *V, SmallPtrSetImpl<GlobalVariable *> &Out,
                          SmallPtrSetImpl<const Value *> &Seen) {
  if (!Seen.insert(V).second)
    return true;
  if (auto *GV = dyn_cast<GlobalVariable>(V)) {
    if (GV->getAddressSpace() != SharedAS)
      return true;
    if (GV->isDeclaration() || GV->getName().starts_with("__gmem_") ||
        GV->getParent()->getDataLayout().getTypeAllocSize(GV->getValueType()) == 0)
      return false;
    Out.insert(const_cast<GlobalVariable *>(GV));
    return true;
  }
  if (auto *CE = dyn_cast<ConstantExpr>(V))
    for (const Value *Op : CE->operands())
      if (!collectSharedGlobals(Op, Out, Seen))
        return false;
  return true;
}

/// Twice the shared bytes a clone may hold (GMEM_CHECKPOINT_DOUBLE_SHARED_MAX;
/// unset: 0, the form is off).
uint64_t doubledBytesLimit() {
  const char *V = std::getenv("GMEM_CHECKPOINT_DOUBLE_SHARED_MAX");
  if (!V || !*V)
    return 0;
  char *End = nullptr;
  unsigned long long N = std::strtoull(V, &End, 10);
  return End && *End == '\0' ? N : 0;
}

/// Whether some CTA barrier of K runs on every path through it.
bool barrierOnEveryPath(Function &K) {
  PostDominatorTree PDT(K);
  BasicBlock &Entry = K.getEntryBlock();
  for (Instruction &I : instructions(K))
    if (classifySync(I, GpuArch::NVPTX) == SyncKind::MergeableBarrier &&
        PDT.dominates(I.getParent(), &Entry))
      return true;
  return false;
}

} // namespace

std::string sharedDoublingBlocker(Function &K) {
  const uint64_t Limit = doubledBytesLimit();
  if (Limit == 0)
    return "GMEM_CHECKPOINT_DOUBLE_SHARED_MAX=0";
  SmallPtrSet<GlobalVariable *, 8> Globals;
  SmallPtrSet<const Value *, 32> Seen;
  std::string Why;
  forEachReachableFunction(K, [&](Function &F) {
    if (!Why.empty())
      return;
    if (&F != &K) {
      if (!sharedMemoryBlocker(F).empty())
        Why = "a function it calls uses shared memory or inline asm";
      return;
    }
    for (Instruction &I : instructions(F)) {
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand());
            IA && !registerOnlyAsm(*IA) && !stopsKernel(*CB)) {
          Why = "inline asm";
          return;
        }
      if (isa<IntToPtrInst>(I)) {
        Why = "a pointer made from an integer";
        return;
      }
      if (auto *ASC = dyn_cast<AddrSpaceCastInst>(&I); ASC && ASC->getDestAddressSpace() == SharedAS) {
        Why = "a pointer cast into shared memory";
        return;
      }
      for (const Value *Op : I.operands())
        if (!collectSharedGlobals(Op, Globals, Seen)) {
          Why = "dynamic shared memory";
          return;
        }
    }
  });
  if (!Why.empty())
    return Why;
  if (Globals.empty())
    return "no shared memory";
  const DataLayout &DL = K.getParent()->getDataLayout();
  uint64_t Bytes = 0;
  for (const GlobalVariable *GV : Globals)
    Bytes = alignTo(Bytes, GV->getAlign() ? GV->getAlign()->value() : 1) +
            DL.getTypeAllocSize(GV->getValueType());
  if (2 * Bytes > Limit)
    return "twice its shared memory (" + std::to_string(2 * Bytes) + " bytes) is over " +
           std::to_string(Limit);
  if (!barrierOnEveryPath(K))
    return "no CTA barrier on every path";
  return "";
}

AllocaInst *doubleSharedMemory(Function &C, BasicBlock &NewEntry, BasicBlock &OldEntry) {
  SmallPtrSet<GlobalVariable *, 8> Found;
  SmallPtrSet<const Value *, 32> Seen;
  for (Instruction &I : instructions(C))
    for (const Value *Op : I.operands())
      if (!collectSharedGlobals(Op, Found, Seen))
        return nullptr; // sharedDoublingBlocker said no already
  if (Found.empty())
    return nullptr;
  SmallVector<GlobalVariable *, 8> Globals(Found.begin(), Found.end());
  llvm::sort(Globals, [](const GlobalVariable *A, const GlobalVariable *B) {
    return A->getName() < B->getName(); // a stable order of the new globals
  });
  SmallVector<Constant *, 8> AsConstants(Globals.begin(), Globals.end());
  convertUsersOfConstantsToInstructions(AsConstants, &C);

  Module &M = *C.getParent();
  const DataLayout &DL = M.getDataLayout();
  IRBuilder<> EB(&*NewEntry.getFirstInsertionPt());
  AllocaInst *Parity =
      EB.CreateAlloca(EB.getInt32Ty(), DL.getAllocaAddrSpace(), nullptr, "gmem.shared.parity");
  EB.SetInsertPoint(NewEntry.getTerminator());
  EB.CreateStore(EB.getInt32(0), Parity);

  // Once per virtual CTA, before anything of the body.
  IRBuilder<> B(&*OldEntry.getFirstInsertionPt());
  Value *P = B.CreateLoad(B.getInt32Ty(), Parity, "gmem.shared.par");
  B.CreateStore(B.CreateXor(P, B.getInt32(1)), Parity);
  Value *Odd = B.CreateICmpNE(P, B.getInt32(0), "gmem.shared.odd");
  for (GlobalVariable *G : Globals) {
    auto *Copy = new GlobalVariable(M, G->getValueType(), /*isConstant=*/false,
                                    GlobalValue::InternalLinkage, UndefValue::get(G->getValueType()),
                                    G->getName() + ".gmem.odd", nullptr,
                                    GlobalValue::NotThreadLocal, SharedAS);
    Copy->setAlignment(G->getAlign());
    auto *Cur = cast<Instruction>(B.CreateSelect(Odd, Copy, G, G->getName() + ".cur"));
    SmallVector<Use *, 16> Uses;
    for (Use &U : G->uses())
      if (auto *I = dyn_cast<Instruction>(U.getUser());
          I && I->getFunction() == &C && I != Cur)
        Uses.push_back(&U);
    for (Use *U : Uses)
      U->set(Cur);
  }
  return Parity;
}

} // namespace gmem::ckpt

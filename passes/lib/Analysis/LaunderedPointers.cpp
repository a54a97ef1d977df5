//===- LaunderedPointers.cpp - Pointer values that leave the registers ----===//

#include "gmem/passes/LaunderedPointers.h"
#include "gmem/passes/GpuTarget.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

namespace gmem {
namespace {

/// Whether P may point into global memory: not only into allocas or
/// shared/local memory (their addresses reach no global object).
bool mayPointToGlobal(const Value *P) {
  SmallVector<const Value *, 4> Objs;
  getUnderlyingObjects(P, Objs, /*LI=*/nullptr, /*MaxLookup=*/0);
  return any_of(Objs, [](const Value *O) {
    const unsigned AS = O->getType()->getPointerAddressSpace();
    return !isa<AllocaInst>(O) && AS != 3 && AS != 5;
  });
}

/// Whether inline asm may store one of its operands' values to memory: a
/// statement that writes memory other than an asynchronous copy (whose
/// operands are addresses and sizes, never stored data).
bool asmMayStoreOperand(const InlineAsm &IA) {
  bool Stores = false;
  forEachPtxWord(IA.getAsmString(), [&](StringRef Word, StringRef Op) {
    if (Op == "st" || Op == "atom" || Op == "red" || Op == "sust" || Op == "sured" ||
        Op == "multimem" || Op == "stmatrix" || Op == "mbarrier" || Op == "call" ||
        (Op == "cp" && !Word.starts_with("cp.async")))
      Stores = true;
  });
  return Stores;
}

/// Whether a pointer stored by SI may be read back as an integer: stored
/// anywhere but an alloca, or into an alloca some load reads as a non-pointer.
bool pointerStoreReadAsInteger(const StoreInst &SI, const Function &F) {
  const Value *Obj = getUnderlyingObject(SI.getPointerOperand());
  if (!isa<AllocaInst>(Obj))
    return true;
  for (const Instruction &I : instructions(F))
    if (const auto *LI = dyn_cast<LoadInst>(&I))
      if (!LI->getType()->isPointerTy() && getUnderlyingObject(LI->getPointerOperand()) == Obj)
        return true;
  return false;
}

} // namespace

LaunderedPointers::LaunderedPointers(const Function &F) {
  SmallPtrSet<const Value *, 32> Tainted;
  SmallVector<const Value *, 32> Work;
  bool Memory = false; // some integer in memory may be a pointer's value
  auto Taint = [&](const Value *V) {
    if (Tainted.insert(V).second)
      Work.push_back(V);
  };
  for (const Instruction &I : instructions(F)) {
    if (const auto *PI = dyn_cast<PtrToIntInst>(&I)) {
      if (mayPointToGlobal(PI->getPointerOperand()))
        Taint(PI);
    } else if (const auto *SI = dyn_cast<StoreInst>(&I)) {
      const Value *V = SI->getValueOperand();
      if (V->getType()->isPointerTy() && mayPointToGlobal(V) && pointerStoreReadAsInteger(*SI, F))
        Memory = true;
    }
    for (const Value *Op : I.operands())
      if (const auto *CE = dyn_cast<ConstantExpr>(Op))
        if (CE->getOpcode() == Instruction::PtrToInt && mayPointToGlobal(CE->getOperand(0)))
          Taint(&I);
  }
  auto TaintLoads = [&] {
    for (const Instruction &I : instructions(F))
      if (const auto *LI = dyn_cast<LoadInst>(&I); LI && !LI->getType()->isPointerTy())
        Taint(LI);
  };
  if (Memory)
    TaintLoads();
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      const auto *I = dyn_cast<Instruction>(U);
      if (!I || isa<ICmpInst>(I)) // (a comparison's bit is no address)
        continue;
      bool Stores = false;
      if (const auto *SI = dyn_cast<StoreInst>(I)) {
        Stores = SI->getValueOperand() == V;
      } else if (const auto *CB = dyn_cast<CallBase>(I)) {
        if (!is_contained(CB->args(), V))
          continue;
        if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand()))
          Stores = asmMayStoreOperand(*IA);
        else
          Stores = !CB->onlyReadsMemory() && !CB->onlyAccessesInaccessibleMemory();
        if (!CB->getType()->isVoidTy())
          Taint(CB);
      } else if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I)) {
        Stores = I->getOperand(0) != V; // the value, not the address
        Taint(I);
      } else {
        Taint(I);
      }
      if (Stores && !Memory) {
        Memory = true;
        TaintLoads();
      }
    }
  }
  for (const Value *V : Tainted)
    if (isa<LoadInst>(V) || isa<CallBase>(V) || isa<AtomicRMWInst>(V) ||
        isa<AtomicCmpXchgInst>(V) || isa<ExtractValueInst>(V))
      Carriers.insert(V);
}

} // namespace gmem

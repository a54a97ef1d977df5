//===- CheckpointSharedBudget.cpp - Room for the clone's shared words -----===//
//
// Every clone adds a few words of static shared memory of its own (the
// CTA's stop and exit words, the request cache, the cp.async landing area:
// under 128 bytes). A kernel whose static shared memory is already at
// ptxas's limit (48 KB on NVIDIA GPUs; 64 KB of LDS on AMD GPUs) would then
// have clones ptxas rejects, and with them the whole module: a program that
// built without gmem would no longer build. Such kernels get no clone; they
// run as compiled, gated and not preemptible.
//
//===----------------------------------------------------------------------===//

#include "CheckpointInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace gmem::ckpt {

namespace {
/// Static shared memory a kernel may declare.
constexpr uint64_t NvptxStaticSharedLimit = 48 * 1024;
constexpr uint64_t AmdgpuLdsLimit = 64 * 1024;
/// What the clones may add, with room to spare (the largest form adds 96
/// bytes on the H200's clones of 2026-11-27).
constexpr uint64_t CloneSharedReserve = 256;

/// Adds the shared globals \p V uses (through constant expressions).
void collectShared(const Value *V, SmallPtrSetImpl<const GlobalVariable *> &Out,
                   SmallPtrSetImpl<const Value *> &Seen) {
  if (!Seen.insert(V).second)
    return;
  if (const auto *GV = dyn_cast<GlobalVariable>(V)) {
    if (GV->getAddressSpace() == 3)
      Out.insert(GV);
    return;
  }
  if (const auto *CE = dyn_cast<ConstantExpr>(V))
    for (const Value *Op : CE->operands())
      collectShared(Op, Out, Seen);
}
} // namespace

std::string sharedBudgetBlocker(Function &K, GpuArch Arch) {
  SmallPtrSet<const GlobalVariable *, 8> Shared;
  SmallPtrSet<const Value *, 32> Seen;
  SmallPtrSet<Function *, 8> Visited;
  SmallVector<Function *, 8> Work{&K};
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    if (!Visited.insert(F).second || F->isDeclaration())
      continue;
    for (Instruction &I : instructions(*F)) {
      for (const Value *Op : I.operands())
        collectShared(Op, Shared, Seen);
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          Work.push_back(Callee);
    }
  }
  const DataLayout &DL = K.getParent()->getDataLayout();
  uint64_t Bytes = 0;
  for (const GlobalVariable *GV : Shared) {
    uint64_t Align = GV->getAlign() ? GV->getAlign()->value() : 1;
    Bytes = alignTo(Bytes, Align) + DL.getTypeAllocSize(GV->getValueType());
  }
  const uint64_t Limit = Arch == GpuArch::AMDGPU ? AmdgpuLdsLimit : NvptxStaticSharedLimit;
  if (Bytes + CloneSharedReserve <= Limit)
    return "";
  return "its static shared memory (" + std::to_string(Bytes) + " bytes) leaves no room under the " +
         std::to_string(Limit / 1024) + " KB limit for the clone's own words";
}

} // namespace gmem::ckpt

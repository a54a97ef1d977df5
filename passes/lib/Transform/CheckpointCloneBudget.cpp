//===- CheckpointCloneBudget.cpp - Room for what a clone adds -------------===//
//
// Every clone adds a few words of static shared memory of its own (the
// CTA's stop and exit words, the request cache, the cp.async landing area:
// under 128 bytes) and four parameters (the control block and the user's
// grid: 20 bytes). A kernel already at the target's limit for either
// (static shared memory: 48 KB on NVIDIA GPUs, 64 KB of LDS on AMD GPUs;
// parameters: 32,764 bytes from PTX ISA 8.1 on sm_70, else 4 KB) would have
// clones ptxas rejects, and with them the whole module: a program that
// built without gmem would no longer build. Such kernels get no clone; they
// run as compiled, gated and not preemptible.
//
//===----------------------------------------------------------------------===//

#include "CheckpointInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
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
/// The clone's parameters: a pointer and three u32, with padding.
constexpr uint64_t CloneParamBytes = 24;

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

/// The highest `+ptxNN` of \p F's target features, and its sm_NN.
std::pair<unsigned, unsigned> ptxAndSm(const Function &F) {
  unsigned Ptx = 0, Sm = 0;
  SmallVector<StringRef, 16> Features;
  F.getFnAttribute("target-features").getValueAsString().split(Features, ',');
  for (StringRef Fe : Features) {
    unsigned V;
    if (Fe.consume_front("+ptx") && !Fe.getAsInteger(10, V))
      Ptx = std::max(Ptx, V);
  }
  Sm = nvptxSmVersion(F);
  return {Ptx, Sm};
}

/// Bytes of \p K's parameter space, each parameter at its alignment.
uint64_t paramBytes(const Function &K) {
  const DataLayout &DL = K.getParent()->getDataLayout();
  uint64_t Bytes = 0;
  for (const Argument &A : K.args()) {
    Type *Agg = aggregateParamType(A);
    Type *T = Agg ? Agg : A.getType();
    uint64_t Align = Agg && A.getParamAlign() ? A.getParamAlign()->value()
                                              : DL.getABITypeAlign(T).value();
    Bytes = alignTo(Bytes, Align) + DL.getTypeAllocSize(T);
  }
  return Bytes;
}

std::string paramBudgetBlocker(const Function &K, GpuArch Arch) {
  uint64_t Limit = 4096;
  if (Arch == GpuArch::NVPTX) {
    auto [Ptx, Sm] = ptxAndSm(K);
    if (Ptx >= 81 && Sm >= 70)
      Limit = 32764;
  }
  uint64_t Bytes = paramBytes(K);
  if (Bytes + CloneParamBytes <= Limit)
    return "";
  return "its parameters (" + std::to_string(Bytes) + " bytes) leave no room under the " +
         std::to_string(Limit) + "-byte limit for the clone's own";
}
} // namespace

std::string cloneBudgetBlocker(Function &K, GpuArch Arch) {
  if (std::string Why = paramBudgetBlocker(K, Arch); !Why.empty())
    return Why;
  SmallPtrSet<const GlobalVariable *, 8> Shared;
  SmallPtrSet<const Value *, 32> Seen;
  forEachReachableFunction(K, [&](Function &F) {
    for (Instruction &I : instructions(F))
      for (const Value *Op : I.operands())
        collectShared(Op, Shared, Seen);
  });
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

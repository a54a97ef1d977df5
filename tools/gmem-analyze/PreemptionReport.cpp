//===- PreemptionReport.cpp - What the checkpoint pass made of each kernel -===//
//
// gmem-analyze compiles .cu/.hip inputs with the plugin, so the bitcode it
// reads back holds, next to each kernel, what the checkpoint pass added:
// the `__gmem_pre_info_` word the runtime reads, the clone forms, and the
// pass's notes on what it held back (PreemptionNotesMD). The report shows
// them, so a user sees which kernels stop inside loops, which only between
// CTAs, which not at all, and why, without running anything.
//
//===----------------------------------------------------------------------===//

#include "PreemptionReport.h"

#include "gmem/passes/CheckpointInserter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Metadata.h"

#include <algorithm>

using namespace llvm;

namespace gmem::tool {

namespace {

/// The words of K's info global (five, a sixth with GridStride; 0 where
/// absent), or false where there is none (the module was not built with the
/// checkpoint pass, or it is malformed).
bool readInfo(const Module &M, StringRef Symbol, uint32_t Words[6]) {
  const GlobalVariable *GV =
      M.getGlobalVariable((CheckpointInfoPrefix + Symbol).str(), /*AllowInternal=*/true);
  if (!GV || !GV->hasInitializer())
    return false;
  const auto *A = dyn_cast<ConstantDataArray>(GV->getInitializer());
  if (!A || A->getNumElements() < 5 || A->getNumElements() > 6 ||
      !A->getElementType()->isIntegerTy(32))
    return false;
  for (unsigned I = 0; I < 6; ++I)
    Words[I] = I < A->getNumElements() ? uint32_t(A->getElementAsInteger(I)) : 0;
  return Words[0] == CheckpointInfo::Magic;
}

bool defines(const Module &M, const char *Prefix, StringRef Symbol) {
  const Function *F = M.getFunction((Prefix + Symbol).str());
  return F && !F->isDeclaration();
}

} // namespace

void fillPreemption(const Module &M, std::vector<KernelDescriptor> &Kernels) {
  for (KernelDescriptor &K : Kernels) {
    uint32_t W[6];
    if (!readInfo(M, K.Symbol, W))
      continue;
    PreemptionSummary &P = K.Preemption;
    P.Known = true;
    const uint32_t Flags = W[2];
    P.Clone = !(Flags & CheckpointInfo::NoClone) && defines(M, CheckpointClonePrefix, K.Symbol);
    P.Persistent = P.Clone && (Flags & CheckpointInfo::Persistent);
    P.InLoop = P.Clone && (Flags & CheckpointInfo::HasLoopCheckpoints) &&
               !(Flags & CheckpointInfo::EntryOnly);
    P.LoopCheckpoints = P.InLoop ? W[3] : 0;
    if (P.Clone) {
      P.Forms.push_back("full");
      if (defines(M, CheckpointLightPrefix, K.Symbol))
        P.Forms.push_back("light");
      if (defines(M, CheckpointAltPrefix, K.Symbol))
        P.Forms.push_back("alt");
      if (defines(M, CheckpointFreePrefix, K.Symbol))
        P.Forms.push_back("free");
    }
    if (P.InLoop && (Flags & CheckpointInfo::SegmentScale))
      P.Notes.push_back("loop segments scalable 1-8x per launch (the runtime may run fewer, "
                        "longer segments where that is faster and stops stay prompt)");
    if (P.Persistent && (Flags & CheckpointInfo::GridStride)) {
      const unsigned N = W[5] & 0xffffu;
      const std::string Bound = N < K.Params.size() && !K.Params[N].Name.empty()
                                    ? "'" + K.Params[N].Name + "'"
                                    : "parameter #" + std::to_string(N);
      P.Notes.push_back("one grid-stride loop up to " + Bound +
                        ": an idempotent launch may run on a larger grid, one trip per "
                        "virtual CTA");
    }
    if (Flags & CheckpointInfo::WarpAlignedBlock)
      P.Notes.push_back("persistent only where blockDim.x is a multiple of 32 (warp "
                        "collectives after a warp-uniform return)");
  }
  const NamedMDNode *N = M.getNamedMetadata(PreemptionNotesMD);
  if (!N)
    return;
  for (const MDNode *Op : N->operands()) {
    if (Op->getNumOperands() != 2)
      continue;
    const auto *Sym = dyn_cast<MDString>(Op->getOperand(0));
    const auto *Note = dyn_cast<MDString>(Op->getOperand(1));
    if (!Sym || !Note)
      continue;
    for (KernelDescriptor &K : Kernels)
      if (K.Preemption.Known && K.Symbol == Sym->getString()) {
        std::vector<std::string> &V = K.Preemption.Notes;
        if (!is_contained(V, Note->getString().str())) // the pass may have run twice
          V.push_back(Note->getString().str());
      }
  }
}

} // namespace gmem::tool

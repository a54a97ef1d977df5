//===- CheckpointReserve.cpp - Clone declarations early in the pipeline ---===//
//
// CheckpointReservePass declares each kernel's clones (the main clone and
// the twins the inserter may build) at the start of clang's pipeline, with
// the kernel's `!nvvm.annotations`; CheckpointInserterPass fills them at
// the end (CheckpointInserter.cpp) and drops the declarations it does not
// fill. Why early: LLVM 19's NVPTX backend caches annotations per Function
// pointer and never forgets functions deleted during optimisation, so a
// clone created at the end of the pipeline may reuse such an address and
// lose its "kernel" annotation. Also here: the clones' and info globals'
// symbol names, which the inserter, the tools and the runtime share.
//
//===----------------------------------------------------------------------===//

#include "gmem/passes/CheckpointInserter.h"
#include "CheckpointInternal.h"
#include "gmem/passes/GpuTarget.h"

#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace gmem {

std::string checkpointCloneSymbol(StringRef KernelSymbol) {
  return (CheckpointClonePrefix + KernelSymbol).str();
}

std::string checkpointLightSymbol(StringRef KernelSymbol) {
  return (CheckpointLightPrefix + KernelSymbol).str();
}

std::string checkpointAltSymbol(StringRef KernelSymbol) {
  return (CheckpointAltPrefix + KernelSymbol).str();
}

std::string checkpointFreeSymbol(StringRef KernelSymbol) {
  return (CheckpointFreePrefix + KernelSymbol).str();
}

std::string checkpointInfoSymbol(StringRef KernelSymbol) {
  return (CheckpointInfoPrefix + KernelSymbol).str();
}

bool checkpointsEnabled() { return !ckpt::envSaysOff("GMEM_CHECKPOINTS"); }

using namespace ckpt;

PreservedAnalyses CheckpointReservePass::run(Module &M, ModuleAnalysisManager &) {
  if (getGpuArch(M) != GpuArch::NVPTX || !checkpointsEnabled())
    return PreservedAnalyses::all();
  bool Changed = false;
  for (Function *K : findKernels(M)) {
    if (!K->hasName() || !K->getReturnType()->isVoidTy() || K->isVarArg() ||
        M.getFunction(checkpointCloneSymbol(K->getName())))
      continue;
    // Every form the inserter may build, twins too: a function created at
    // OptimizerLast can land where a function deleted during optimisation
    // was, whose (empty) entry in LLVM 19's NVPTX annotation cache then
    // makes it a .func, not an .entry (seen: 1 build in 12 of
    // constant_memory.cu lost its free clone). The inserter drops the
    // declarations it does not fill.
    for (const std::string &Name :
         {checkpointCloneSymbol(K->getName()), checkpointLightSymbol(K->getName()),
          checkpointAltSymbol(K->getName()), checkpointFreeSymbol(K->getName())}) {
      if (M.getFunction(Name))
        continue;
      Function *D = Function::Create(cloneType(*K), GlobalValue::ExternalLinkage,
                                     K->getAddressSpace(), Name, &M);
      D->setCallingConv(K->getCallingConv());
      copyNVVMAnnotations(M, *K, *D);
      appendToCompilerUsed(M, {D}); // GlobalDCE would drop an unused declaration
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace gmem

//===- DescriptorEmitter.cpp - Embed kernel descriptors ------------------===//

#include "gmem/passes/DescriptorEmitter.h"
#include "gmem/compiler/DescriptorCodec.h"
#include "gmem/passes/GpuTarget.h"
#include "gmem/passes/KernelAnalysis.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

namespace gmem {

static constexpr const char *Prefix = "__gmem_desc_";

std::string descriptorSymbol(const std::string &KernelSymbol) { return Prefix + KernelSymbol; }

unsigned emitDescriptors(Module &M, const std::vector<KernelDescriptor> &Kernels) {
  // NVPTX and AMDGPU both keep addressable device globals in address space 1.
  constexpr unsigned GlobalAS = 1;
  unsigned N = 0;
  SmallVector<GlobalValue *, 8> Used;
  for (const KernelDescriptor &K : Kernels) {
    std::vector<uint8_t> Blob = encodeDescriptor(K);
    Constant *Init = ConstantDataArray::get(M.getContext(), ArrayRef<uint8_t>(Blob));
    std::string Name = descriptorSymbol(K.Symbol);
    if (GlobalVariable *Old = M.getGlobalVariable(Name, /*AllowInternal=*/true)) {
      // Re-running the pass (e.g. opt then llc) replaces, never duplicates.
      removeFromUsedLists(M, [&](Constant *C) { return C == Old; });
      Old->eraseFromParent();
    }
    auto *GV = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                  GlobalValue::ExternalLinkage, Init, Name, nullptr,
                                  GlobalValue::NotThreadLocal, GlobalAS);
    GV->setAlignment(Align(8));
    GV->setVisibility(GlobalValue::DefaultVisibility);
    Used.push_back(GV);
    ++N;
  }
  if (!Used.empty())
    appendToUsed(M, Used); // kept through every later pass and the backend
  return N;
}

std::vector<KernelDescriptor> readDescriptors(const Module &M, std::vector<std::string> *Errors) {
  std::vector<KernelDescriptor> Out;
  for (const GlobalVariable &GV : M.globals()) {
    if (!GV.getName().starts_with(Prefix) || !GV.hasInitializer())
      continue;
    auto *Data = dyn_cast<ConstantDataArray>(GV.getInitializer());
    KernelDescriptor K;
    std::string Err;
    if (!Data || Data->getElementByteSize() != 1) {
      Err = "not a byte array";
    } else {
      StringRef Raw = Data->getRawDataValues();
      if (decodeDescriptor(reinterpret_cast<const uint8_t *>(Raw.data()), Raw.size(), K, &Err))
        Out.push_back(std::move(K));
    }
    if (!Err.empty() && Errors)
      Errors->push_back(GV.getName().str() + ": " + Err);
  }
  return Out;
}

PreservedAnalyses DescriptorEmitterPass::run(Module &M, ModuleAnalysisManager &) {
  if (getGpuArch(M) == GpuArch::None)
    return PreservedAnalyses::all(); // host half: nothing to describe
  if (emitDescriptors(M, analyzeModule(M)) == 0)
    return PreservedAnalyses::all();
  PreservedAnalyses PA = PreservedAnalyses::all();
  PA.abandon<KernelRegionAnalysis>();
  return PA;
}

} // namespace gmem

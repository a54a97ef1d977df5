//===- KernelAnalysis.h - Regions and idempotence of kernels ----*- C++ -*-===//
//
// The analysis the plugin, the tool and the tests share: for each kernel of
// a GPU module, the read/write regions of every pointer parameter and module
// global, and the kernel's idempotence class.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_PASSES_KERNELANALYSIS_H
#define GMEM_PASSES_KERNELANALYSIS_H

#include "gmem/compiler/KernelDescriptor.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

#include <vector>

namespace gmem {

/// Analyses one kernel. F should have its device calls inlined (see
/// analyzeModule); calls that remain are summarised conservatively.
KernelDescriptor analyzeKernel(llvm::Function &F, llvm::FunctionAnalysisManager &FAM);

/// Analyses every kernel of M. M itself is not modified: the analysis works
/// on a copy in which device functions are inlined into the kernels.
std::vector<KernelDescriptor> analyzeModule(const llvm::Module &M);

/// New-PM analysis wrapper (for passes that consume the descriptors).
class KernelRegionAnalysis : public llvm::AnalysisInfoMixin<KernelRegionAnalysis> {
public:
  using Result = std::vector<KernelDescriptor>;
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  friend llvm::AnalysisInfoMixin<KernelRegionAnalysis>;
  static llvm::AnalysisKey Key;
};

} // namespace gmem

#endif

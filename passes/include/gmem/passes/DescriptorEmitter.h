//===- DescriptorEmitter.h - Embed kernel descriptors -----------*- C++ -*-===//
//
// Embeds each kernel's descriptor (include/gmem/descriptor_abi.h) in the
// device module as a global the runtime can read through the driver API:
//
//   __gmem_desc_<mangled kernel name>   bytes of the blob, global memory
//
// Why a device global: the runtime meets kernels as CUfunction handles,
// whether the program was built with clang + this plugin, loaded from
// PTX/cubin with cuModuleLoadData/cuLibraryLoadData, or only interposed with
// LD_PRELOAD. From any CUfunction, cuFuncGetModule + cuFuncGetName +
// cuModuleGetGlobal find the blob, read once at the first launch and cached.
// Nothing else has to be registered by the host half, and modules built
// without gmem simply have no such global (uninstrumented launches).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_PASSES_DESCRIPTOREMITTER_H
#define GMEM_PASSES_DESCRIPTOREMITTER_H

#include "gmem/compiler/KernelDescriptor.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

#include <string>
#include <vector>

namespace gmem {

/// Name of the global holding the descriptor of a kernel.
std::string descriptorSymbol(const std::string &KernelSymbol);

/// Adds (or replaces) one descriptor global per kernel. Returns how many.
unsigned emitDescriptors(llvm::Module &M, const std::vector<KernelDescriptor> &Kernels);

/// Reads back the descriptors a module carries (the tool's view of what the
/// runtime will see). Malformed blobs are reported through Errors.
std::vector<KernelDescriptor> readDescriptors(const llvm::Module &M,
                                              std::vector<std::string> *Errors = nullptr);

/// The pass: analyse every kernel and embed its descriptor.
struct DescriptorEmitterPass : llvm::PassInfoMixin<DescriptorEmitterPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

} // namespace gmem

#endif

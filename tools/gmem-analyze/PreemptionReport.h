// What the checkpoint pass made of each kernel of a compiled module, for
// gmem-analyze's report (PreemptionReport.cpp).
#pragma once

#include "gmem/compiler/KernelDescriptor.h"

#include "llvm/IR/Module.h"

#include <vector>

namespace gmem::tool {

/// Fills each kernel's Preemption from M's info globals, clone functions
/// and the pass's notes; kernels without an info global stay unknown.
void fillPreemption(const llvm::Module &M, std::vector<KernelDescriptor> &Kernels);

} // namespace gmem::tool

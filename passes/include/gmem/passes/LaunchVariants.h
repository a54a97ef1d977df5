//===- LaunchVariants.h - Kernels analysed again under launch guards -*- C++ -*-===//
//
// A kernel's accesses often hang on a scalar argument the whole launch
// shares: `if (beta != 0) y = a*x + beta*y; else y = a*x;`, `if (accumulate)
// out += v; else out = v;`, `if (bias) v += bias[i];`. For the launches
// where such a condition has one value, the kernel behaves like a simpler
// one. addLaunchVariants finds the conditions (a branch or select on a
// comparison of a scalar kernel parameter with a constant, LaunchGuard.h),
// and for each value of each analyses a copy of the kernel in which that
// comparison (and every comparison of the same parameter it decides) is
// folded and the code it cuts off removed. A copy whose class is better
// than the kernel's becomes a variant: the runtime uses it for the launches
// whose arguments meet its guard.
//
// Sound by construction: at such a launch every thread evaluates the folded
// comparisons to the folded value, so the copy performs every access the
// kernel does. Only branch conditions and selects are folded; no load is
// deleted, so what the kernel may read stays in the copy's read regions.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_PASSES_LAUNCHVARIANTS_H
#define GMEM_PASSES_LAUNCHVARIANTS_H

#include "gmem/compiler/KernelDescriptor.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/PassManager.h"

#include <functional>

namespace gmem {

/// Analyses K's kernel F again under each launch guard found in F and adds
/// the variants that improve on K's class to K.Variants. Analyse runs the
/// kernel analysis on a function of F's module (the copy; it is erased
/// afterwards).
void addLaunchVariants(
    llvm::Function &F, KernelDescriptor &K, llvm::FunctionAnalysisManager &FAM,
    const std::function<KernelDescriptor(llvm::Function &, llvm::FunctionAnalysisManager &)>
        &Analyse);

} // namespace gmem

#endif

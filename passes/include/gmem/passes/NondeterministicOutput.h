//===- NondeterministicOutput.h - Kernels whose output is no function --*- C++ -*-===//
//
// A kernel that stores what it read from a clock, the global timer, a
// performance counter, the id of the SM, warp slot or launch it runs in, a
// heap address, the active-lane mask or what an atomic returned (or stores
// only where such a value says so) may write something else at every run: run
// again on its own output it does not reproduce it, so it is not idempotent
// whatever its regions say (a block run again after a stop rewrites its
// stamps with later ones). A kernel that only waits on a clock (a spin
// until a deadline) and stores nothing that depends on it is not affected.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_PASSES_NONDETERMINISTICOUTPUT_H
#define GMEM_PASSES_NONDETERMINISTICOUTPUT_H

#include "llvm/IR/Function.h"

#include <string>

namespace gmem {

/// Why F's memory effects depend on a value that differs from run to run
/// (through data or control), or
/// the empty string where they do not. F is the kernel as analysed (its
/// calls inlined where possible); a call left whose callee reads such a
/// value counts as depending on it.
std::string nondeterministicOutput(const llvm::Function &F);

} // namespace gmem

#endif

//===- GridStrideLoop.h - Kernels whose result does not depend on the grid -*- C++ -*-===//
//
// A kernel that is one grid-stride loop,
//
//   for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
//        i += blockDim.x * gridDim.x)
//     body(i);
//
// where nothing else reads blockIdx.x or gridDim.x, nothing but i is
// carried from one trip to the next and the items of one thread write
// disjoint bytes, runs body(i) once for every i in [0, n) whatever
// gridDim.x is: item i goes to the thread whose
// threadIdx.x is i mod blockDim.x, at the trip and block that make up the
// rest. Where a launch's items also do not see each other's writes (the
// launch is idempotent: what it reads it does not write) the launch leaves
// the same memory on any grid. The runtime then may run such a kernel's
// persistent clone on a larger virtual grid (one trip per virtual CTA),
// which stops between virtual CTAs without loop checks.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_PASSES_GRIDSTRIDELOOP_H
#define GMEM_PASSES_GRIDSTRIDELOOP_H

#include "llvm/IR/Function.h"

#include <cstdint>
#include <optional>
#include <string>

namespace llvm {
class LoopInfo;
class ScalarEvolution;
class DominatorTree;
} // namespace llvm

namespace gmem {

/// The loop's bound as the runtime must check it before it enlarges the
/// grid: the next index, i + blockDim.x * gridDim.x, must not wrap in the
/// index's type for any i the loop runs (i < n, or i <= n).
struct GridStrideLoop {
  unsigned BoundParam = 0; ///< the kernel parameter n
  bool Unsigned = false;   ///< the loop compares unsigned (its limit is UINT_MAX)
  bool Inclusive = false;  ///< i <= n rather than i < n
  bool Wide = false;       ///< the index is 64-bit
  bool ParamSigned = false; ///< n is read sign-extended (else zero-extended)

  /// The info global's sixth word (docs/PREEMPTION_DESIGN.md, "Grid-stride
  /// kernels"): bits 0..15 the parameter, 16 Unsigned, 17 Inclusive, 18
  /// Wide, 19 ParamSigned, 20 always set: the items of a thread were proved
  /// to write apart (session 50; a runtime ignores a word without it, which
  /// the session 49 pass emitted without that proof).
  static constexpr uint32_t WritesApart = 1u << 20;
  uint32_t encode() const {
    return (BoundParam & 0xffffu) | (Unsigned ? 1u << 16 : 0) | (Inclusive ? 1u << 17 : 0) |
           (Wide ? 1u << 18 : 0) | (ParamSigned ? 1u << 19 : 0) | WritesApart;
  }
};

/// K as one grid-stride loop whose effects depend on its index alone
/// (NVPTX kernels, as optimised), or std::nullopt with \p Why. Sound where
/// it answers: any construct it does not recognise is a no.
std::optional<GridStrideLoop> findGridStrideLoop(llvm::Function &K, llvm::LoopInfo &LI,
                                                 llvm::ScalarEvolution &SE, std::string &Why);

} // namespace gmem

#endif

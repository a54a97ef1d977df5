// The grid a launch of a grid-stride kernel may run on instead of its own.
//
// The pass flags a kernel (PreGridStride) that is one loop
//   for (i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
// whose effects depend on i alone (passes/lib/Analysis/GridStrideLoop.cpp):
// on any grid in x it runs body(i) once for each i in [0, n), so a launch
// whose reads and writes are disjoint (proved idempotent) leaves the same
// memory. Its persistent forms may then run on a larger grid, a few trips
// per virtual CTA: they stop between virtual CTAs, where the light twin
// needs no loop check, instead of inside one long loop per CTA. T trips
// per virtual CTA are chosen per launch shape by timing
// (GMEM_PREEMPT_GRID_STRIDE=auto, the default; GridStrideTuner.h): on the
// H200 one trip cost streaming loops (iota, saxpy) more than their loop
// checks, four made iota faster than the kernel, while copy_vec4 gained
// most from one (bench/preempt/results/session49).
//
// The only thing a larger grid could change is whether the next index,
// i + blockDim.x * gridDim.x, wraps in the index's type: the info global's
// sixth word says how to read n and the index (GridStrideLoop::encode), and
// the grid is chosen so that the last index plus the stride stays below the
// type's limit (then the kernel's own grid did not wrap either).
#pragma once

#include <cstddef>
#include <cstdint>

namespace gmem {
namespace rt {
namespace sched {

/// Bits of the sixth info word. Bit 20 (WritesApart) says the pass proved
/// that a thread's items write disjoint bytes; the session 49 pass flagged
/// kernels without that proof (out[threadIdx.x], a fixed slot: a regrid
/// changed what they left), so a word without it flags nothing.
constexpr uint32_t GridStrideWritesApart = 1u << 20;
struct GridStrideBound {
  unsigned Param = 0;
  bool Unsigned = false, Inclusive = false, Wide = false, ParamSigned = false;
  static GridStrideBound decode(uint32_t W) {
    GridStrideBound B;
    B.Param = W & 0xffffu;
    B.Unsigned = W >> 16 & 1;
    B.Inclusive = W >> 17 & 1;
    B.Wide = W >> 18 & 1;
    B.ParamSigned = W >> 19 & 1;
    return B;
  }
};

/// The x extent to launch instead of Grid[0]: ceil(items / (Trips x
/// Block[0])) (Trips trips of the loop per virtual CTA), at most MaxX, and
/// only where the index cannot wrap on it; 0 where that is no larger than
/// Grid[0] (or n cannot be read: ParamBytes not 4 or 8, a 64-bit n for a
/// 32-bit index). \p N holds n's bytes (ParamBytes of them).
uint32_t gridStrideX(const GridStrideBound &B, const void *N, size_t ParamBytes,
                     const unsigned Grid[3], const unsigned Block[3], uint32_t MaxX,
                     unsigned Trips = 1);

} // namespace sched
} // namespace rt
} // namespace gmem

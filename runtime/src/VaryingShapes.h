// Launch shapes of kernels whose scalar arguments change on every launch.
//
// The clone choice (CloneChoice.h) learns per launch shape: grid, block,
// dynamic shared memory and the kernel's scalar argument bytes. A program
// that passes a step counter, a pivot row or a phase (Floyd-Warshall's k,
// an optimizer's t, a sort's stage) makes every launch a shape never seen:
// each one is a timed first launch of the full clone (three timestamped
// events: ~3 us of its stream on the H200 and ~8 us of host time;
// bench/runtime/RESULTS.md), and no launch ever gets what the chooser
// learns (the light twin, check intervals, the alternate or free form, the
// spread).
//
// So per kernel, launches are also grouped by their coarse shape (grid,
// block, shared memory). A coarse shape whose launches keep bringing exact
// shapes not among the last Recent seen (more than Recent such arrivals,
// and more than half of its launches) is marked varying for good: its
// launches then share one chooser shape, keyed by the coarse shape. A
// program cycling through up to Recent shapes keeps them apart.
//
// What sharing costs: the launches of a varying shape may differ in their
// work (a scalar that is a trip count), so the chooser keeps the largest
// of its latest virtual-CTA times for such a shape (CloneChooser's
// Varying), which sizes its check interval and its light-twin verdict:
// stops no later than the slowest recent launch allows. Form comparisons
// (speed only) may compare launches of different work; they are made again
// every FormRetimeEvery launches.
//
// Pure logic, no driver (under the context's lock).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gmem {
namespace rt {
namespace sched {

class VaryingShapes {
public:
  /// Exact shapes remembered per coarse shape.
  static constexpr unsigned Recent = 16;
  /// Coarse shapes remembered per kernel (round robin beyond).
  static constexpr size_t MaxCoarse = 16;

  /// The chooser key for a launch of exact shape Exact and coarse shape
  /// Coarse: Exact, or, once Coarse is varying, a key derived from Coarse
  /// (Varying set). Counts the launch.
  uint64_t keyFor(uint64_t Coarse, uint64_t Exact, bool &Varying);
  /// Whether coarse shape Coarse is marked varying.
  bool varying(uint64_t Coarse) const;
  /// The key keyFor gives a varying coarse shape (never an exact shape's
  /// hash by accident in practice: a fixed tag mixed in).
  static uint64_t sharedKey(uint64_t Coarse) { return Coarse ^ 0x5641525953484150ull; }

private:
  struct Entry {
    uint64_t Coarse = 0;
    uint64_t Keys[Recent] = {};
    uint8_t NKeys = 0, NextKey = 0;
    uint32_t Launches = 0, Arrivals = 0; ///< launches; of them, exact shapes not among Keys
    bool Varying = false;
  };
  std::vector<Entry> Entries;
  size_t Next = 0, Last = 0;
};

} // namespace sched
} // namespace rt
} // namespace gmem

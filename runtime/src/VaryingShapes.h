// Launch shapes of kernels whose arguments or grids change on every launch.
//
// The clone choice (CloneChoice.h) learns per launch shape: grid, block,
// dynamic shared memory and the kernel's scalar argument bytes. A program
// that passes a step counter, a pivot row or a phase (Floyd-Warshall's k,
// an optimizer's t, a sort's stage) makes every launch a shape never seen:
// each one is a timed first launch of the full clone (three timestamped
// events: ~3 us of its stream on the H200 and ~8 us of host time;
// bench/runtime/RESULTS.md), and no launch ever gets what the chooser
// learns (the light twin, check intervals, the alternate or free form, the
// spread). So does one whose grid follows its input (a batch or sequence
// length that changes per request).
//
// So launches are also grouped, per kernel, at two coarser levels: by
// grid, block and shared memory (a coarse shape), and by block and shared
// memory alone (a family). A group whose launches keep bringing members
// not among the last Recent it saw (exact shapes of a coarse shape, coarse
// shapes of a family; more than Recent such arrivals, and more than half of
// its recent launches) is marked varying for good, and its later launches share
// one chooser shape keyed by the group: a family first (grids vary), else
// a coarse shape (only arguments vary). A program cycling through up to
// Recent shapes keeps them apart.
//
// What sharing costs: the launches of a shared shape may differ in their
// work (a scalar that is a trip count, more or fewer virtual CTAs), so the
// chooser keeps the largest of its latest virtual-CTA times for it
// (CloneChooser's Varying), which sizes its check interval and its light
// verdict: stops no later than the slowest recent launch allows (a virtual
// CTA's time is per round, so the grid itself does not enter it). Form
// comparisons (speed only) may compare launches of different work; they
// are made again every FormRetimeEvery launches.
//
// Pure logic, no driver (under the context's lock).
#pragma once

#include "KeyedCache.h"

#include <cstddef>
#include <cstdint>

namespace gmem {
namespace rt {
namespace sched {

class VaryingShapes {
public:
  /// Members remembered per group: as many shapes as the chooser remembers
  /// (CloneChooser::MaxShapes), so that a program cycling through shapes
  /// the chooser can keep apart is never marked; beyond, the chooser would
  /// forget each before its next launch anyway.
  static constexpr unsigned Recent = 64;
  /// Groups remembered per level (round robin beyond).
  static constexpr size_t MaxGroups = 16;
  /// A group's launch and arrival counts halve every Window launches, so
  /// that "more than half of its launches" is about its latest ones.
  static constexpr uint32_t Window = 4 * Recent;

  /// The chooser key for a launch of exact shape Exact, coarse shape
  /// Coarse (grid, block, shared memory) and family Family (block, shared
  /// memory): Exact, or the shared key of its varying family or coarse
  /// shape (Varying set). Counts the launch.
  uint64_t keyFor(uint64_t Family, uint64_t Coarse, uint64_t Exact, bool &Varying);
  /// Whether family Family (coarse shape Coarse) is marked varying.
  bool familyVaries(uint64_t Family) const { return Families.varying(Family); }
  bool coarseVaries(uint64_t Coarse) const { return Coarses.varying(Coarse); }
  /// The keys keyFor gives a varying family or coarse shape (a fixed tag
  /// mixed in, so that they stand apart from exact shapes' hashes).
  static uint64_t familyKey(uint64_t Family) { return Family ^ 0x46414d494c594b59ull; }
  static uint64_t coarseKey(uint64_t Coarse) { return Coarse ^ 0x5641525953484150ull; }

private:
  /// Groups of one level, each with the members it saw last.
  class Level {
  public:
    /// Notes a launch of Member in group Group: whether the group is
    /// varying (from an earlier launch; this one may mark it for the next).
    bool note(uint64_t Group, uint64_t Member);
    bool varying(uint64_t Group) const;

  private:
    struct Group {
      uint64_t Key = 0;
      uint64_t Members[Recent] = {};
      uint8_t NMembers = 0, NextMember = 0;
      uint32_t Launches = 0, Arrivals = 0; ///< launches; of them, members not among Members
      bool Varying = false;
    };
    KeyedCache<Group, MaxGroups> Groups;
  };
  Level Families, Coarses;
};

} // namespace sched
} // namespace rt
} // namespace gmem

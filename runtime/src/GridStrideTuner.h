// Which number of loop trips per virtual CTA a grid-stride kernel's
// idempotent launches run (GMEM_PREEMPT_GRID_STRIDE=auto; GridStride.h).
//
// The best number follows the kernel's time per trip (H200, session 49: one
// trip made im2col and copy_vec4 faster and iota 75% slower; four made iota
// 9% faster than the kernel itself and im2col slower than its own grid), so
// it is measured per launch shape, as the spread is: the shape's launches
// run on their own grid until the chooser has settled their form
// (CloneChooser::settledUs: decided, spread probed, the light trial done),
// then on each candidate in turn until that grid's shape has settled too,
// and from then on at the fastest, which must beat the own grid by Margin.
// A launch's time is the settled form's latest whole-launch time, the light
// twin's where the shape runs light.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gmem {
namespace rt {
namespace sched {

class GridStrideTuner {
public:
  static constexpr unsigned Candidates[] = {1, 4, 16};
  static constexpr size_t NumCandidates = sizeof(Candidates) / sizeof(Candidates[0]);
  /// Launches a stage may wait for its settled time; then it is skipped.
  /// A comparison, a spread probe, a light trial and the twin's own spread
  /// probe each wait for their timing, which a program that syncs every
  /// few launches returns a round later (H200, session 50: im2col's
  /// one-trip grid settled after ~35 launches; at 32 it was skipped).
  static constexpr unsigned WaitLaunches = 128;
  /// Observations of a settled shape before its time counts (a timing
  /// that returns late may still move it).
  static constexpr unsigned SettleLaunches = 2;
  static constexpr double Margin = 0.02;
  static constexpr size_t MaxShapes = 64;

  /// Trips per virtual CTA for the next launch of the shape whose own-grid
  /// key is UserKey: 0 for its own grid.
  unsigned tripsFor(uint64_t UserKey);
  /// After a launch of UserKey made with Trips was planned: the settled
  /// time (us) of the shape it ran as (CloneChooser::settledUs; 0 while
  /// that shape is still being decided).
  void observe(uint64_t UserKey, unsigned Trips, double SettledUs);
  /// Trips cannot regrid this shape (no larger grid is safe): next stage.
  void skip(uint64_t UserKey, unsigned Trips);
  /// The decided trips of UserKey, or -1 while it is being measured.
  int decided(uint64_t UserKey) const;

private:
  struct Entry {
    uint64_t Key = 0;
    uint8_t Stage = 0; ///< 0 own grid, 1..NumCandidates a candidate, past it decided
    unsigned Best = 0;
    double BestUs = 0;
    unsigned Waited = 0, Settled = 0;
  };
  std::vector<Entry> Entries;
  size_t Next = 0;
  Entry &entry(uint64_t Key);
  const Entry *find(uint64_t Key) const;
  static unsigned stageTrips(const Entry &E);
  static void advance(Entry &E);
};

} // namespace sched
} // namespace rt
} // namespace gmem

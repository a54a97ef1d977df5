// Which number of loop trips per virtual CTA a grid-stride kernel's
// idempotent launches run (GMEM_PREEMPT_GRID_STRIDE=auto; GridStride.h).
//
// The best number follows the kernel's time per trip (H200, session 49: one
// trip made im2col and copy_vec4 faster and iota 75% slower; four made iota
// 9% faster than the kernel itself and im2col slower than its own grid), so
// it is measured per launch shape, as the spread is: the shape's launches
// run on their own grid until the chooser has decided their form and timed
// it, then on each candidate in turn until the chooser has decided and
// timed that grid's shape too, and from then on at the fastest, which must
// beat the own grid by Margin. A launch's time is its shape's virtual CTA
// time times its rounds (tau x ceil(virtual CTAs / resident CTAs), as the
// chooser measures tau), the form it settled on included (the light twin
// on short virtual CTAs).
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
  /// Launches a stage may wait for its decided time; then it is skipped.
  static constexpr unsigned WaitLaunches = 24;
  /// Observations of a decided shape before its time counts: the light
  /// twin's first timing follows the full clone's decision, and a shape a
  /// little over the light limit tries the twin once after it (H200: with
  /// 3, im2col's one-trip grid was judged on its full clone and lost).
  static constexpr unsigned SettleLaunches = 8;
  static constexpr double Margin = 0.02;
  static constexpr size_t MaxShapes = 64;

  /// Trips per virtual CTA for the next launch of the shape whose own-grid
  /// key is UserKey: 0 for its own grid.
  unsigned tripsFor(uint64_t UserKey);
  /// After a launch of UserKey made with Trips was planned: whether the
  /// chooser has decided the form of the shape it ran as, that shape's tau
  /// (us), its virtual CTAs and resident CTAs.
  void observe(uint64_t UserKey, unsigned Trips, bool Decided, double TauUs, uint64_t Total,
               uint64_t Resident);
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

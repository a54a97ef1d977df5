// Scheduling policy: which levels an arriving launch suppresses, and when a
// suppressed level may run again. The scheduler owns the mechanism (gates,
// stop requests, relaunches); a policy only decides.
//
// Strict priority and fair share are implemented:
//  * strict: an arrival suppresses every lower level in use, which runs
//    again once the levels above it have been idle for the linger;
//  * fair share: strict, except that a level below the top keeps a minimum
//    share of useful time over a sliding window (an exponentially weighted
//    suppressed fraction per level, kept in LevelView; the work a stop cuts
//    counts as suppressed): a level suppressed for more than 1 - share of
//    it gets a slice of time in which it runs beside the busy levels above
//    it and arrivals leave it alone; at the slice's end it is suppressed
//    again, and those levels run alone for their part before the next
//    slice (SchedMonitor.cpp).
// Deadline is next: an arrival carries a deadline (ArrivalHints) and
// suppresses the levels whose running work would make it miss, earliest
// deadline first among equal levels.
#pragma once

#include "gmem/gmem_sched.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>

namespace gmem {
namespace rt {
namespace sched {

constexpr int NumLevels = GMEM_PRIORITY_LEVELS;
constexpr int TopLevel = GMEM_PRIORITY_REALTIME;
inline uint32_t levelBit(int L) { return 1u << L; }
inline uint32_t levelsBelow(int L) { return levelBit(L) - 1; }
inline uint32_t levelsAbove(int L) { return ~((levelBit(L) << 1) - 1) & ((1u << NumLevels) - 1); }

struct LevelView {
  bool Suppressed = false;
  uint64_t SuppressedSinceNs = 0;
  /// Work at this level was incomplete at LastBusyNs (monitor's last look,
  /// or a launch just issued).
  bool Busy = false;
  uint64_t LastBusyNs = 0;
  /// The last launch issued at this level (0: none).
  uint64_t LastLaunchNs = 0;
  uint64_t SuppressedTotalNs = 0;
  /// Fair share's accounting: the level's suppressed fraction, weighted
  /// exponentially over PolicyView::ShareWindowNs, as it stood at
  /// ShareStampNs (the last suppression or resume); Suppressed tells how
  /// it has moved since (shareSuppressed).
  double ShareSuppressed = 0;
  uint64_t ShareStampNs = 0;
  /// Fair share let this level run beside busy levels above it until
  /// then (0: no slice): arrivals leave it running, and the monitor
  /// suppresses it again at that time.
  uint64_t SliceEndNs = 0;
  /// No new slice before this time: after a slice the levels above run on
  /// their own for slice x (1 - share) / share (SchedMonitor.cpp).
  uint64_t NextSliceNs = 0;
};

struct PolicyView {
  LevelView Level[NumLevels];
  uint32_t UsedLevels = 0;  ///< levels that launched in this context
  bool Inversion = false;   ///< a forced resume happened: do not suppress until idle
  uint64_t ResumeLingerNs = 0;
  uint64_t ShareWindowNs = 20'000'000; ///< fair share's time constant
};

/// Level V's suppressed fraction at NowNs (fair share's accounting): the
/// value at its stamp decayed over the time since, plus that time's weight
/// if it has been suppressed all along.
inline double shareSuppressed(const LevelView &V, uint64_t NowNs, uint64_t WindowNs) {
  if (!V.ShareStampNs || NowNs <= V.ShareStampNs || !WindowNs)
    return V.ShareSuppressed;
  const double Keep = std::exp(-double(NowNs - V.ShareStampNs) / double(WindowNs));
  return V.ShareSuppressed * Keep + (V.Suppressed ? 1.0 - Keep : 0.0);
}

/// Counts the last LostNs of V's running time as suppressed instead: a stop
/// at a loop checkpoint makes an idempotent victim run the virtual CTA it
/// cut again, so the time that virtual CTA had run bought nothing (the
/// share is one of useful time, not of time unsuppressed). That interval,
/// the latest, weighs 1 - exp(-LostNs / W) in the fraction, where it
/// counted 0. Call it after the transition, LostNs at most the run.
inline void chargeShareLoss(LevelView &V, uint64_t LostNs, uint64_t WindowNs) {
  if (!LostNs || !WindowNs)
    return;
  V.ShareSuppressed =
      std::min(1.0, V.ShareSuppressed + 1.0 - std::exp(-double(LostNs) / double(WindowNs)));
}

/// Folds the time since V's stamp into its fraction; the scheduler calls it
/// right before V.Suppressed changes.
inline void noteShareTransition(LevelView &V, uint64_t NowNs, uint64_t WindowNs) {
  V.ShareSuppressed = shareSuppressed(V, NowNs, WindowNs);
  V.ShareStampNs = NowNs;
}

/// What an arriving launch says about itself (deadline policies).
struct ArrivalHints {
  uint64_t DeadlineNs = 0; ///< 0: none
};

class SchedPolicy {
public:
  virtual ~SchedPolicy() = default;
  virtual int id() const = 0; ///< GMEM_SCHED_POLICY_*
  /// A launch at level P is being issued at NowNs: the levels to suppress
  /// now (lower levels to preempt, and P itself if it must wait).
  virtual uint32_t suppressOnArrival(const PolicyView &V, int P, const ArrivalHints &H,
                                     uint64_t NowNs) = 0;
  /// Whether suppressed level L may run again at NowNs.
  virtual bool mayResume(const PolicyView &V, int L, uint64_t NowNs) = 0;
  /// The earliest time at which suppressed level L may run again whatever
  /// the levels above it do (UINT64_MAX: only once they are idle). The
  /// monitor sleeps until then while urgent launches keep coming.
  virtual uint64_t resumeDueNs(const PolicyView &, int, uint64_t) const { return UINT64_MAX; }
};

/// Strict priority: an arrival suppresses every lower level in use, and
/// waits itself while a higher level has incomplete work; a level resumes
/// when no higher level has had incomplete work for ResumeLingerNs.
class StrictPriorityPolicy : public SchedPolicy {
public:
  int id() const override { return GMEM_SCHED_POLICY_STRICT; }
  uint32_t suppressOnArrival(const PolicyView &V, int P, const ArrivalHints &, uint64_t) override {
    return strictArrival(V, P);
  }
  bool mayResume(const PolicyView &V, int L, uint64_t NowNs) override {
    return strictResume(V, L, NowNs);
  }
  static uint32_t strictArrival(const PolicyView &V, int P) {
    if (V.Inversion)
      return 0;
    uint32_t Mask = V.UsedLevels & levelsBelow(P);
    for (int L = P + 1; L < NumLevels; ++L)
      if (V.Level[L].Busy) {
        Mask |= levelBit(P);
        break;
      }
    return Mask;
  }
  static bool strictResume(const PolicyView &V, int L, uint64_t NowNs) {
    for (int H = L + 1; H < NumLevels; ++H) {
      if (V.Level[H].Busy)
        return false;
      if (V.Level[H].LastBusyNs && NowNs - V.Level[H].LastBusyNs < V.ResumeLingerNs)
        return false;
    }
    return true;
  }
};

/// Fair share (GMEM_SCHED_POLICY_FAIR_SHARE): strict priority, but every
/// level keeps MinShare of its time unsuppressed over the window. A level
/// whose suppressed fraction has reached 1 - MinShare gets a slice (the
/// monitor resumes it and sets LevelView::SliceEndNs): it runs beside the
/// busy levels above it, whose kernels then wait for its thread blocks (a
/// persistent clone holds its SMs to its end), and arrivals leave it alone
/// until the slice ends.
class FairSharePolicy final : public SchedPolicy {
public:
  explicit FairSharePolicy(double MinShare) : Bound(1.0 - std::clamp(MinShare, 0.01, 0.99)) {}
  int id() const override { return GMEM_SCHED_POLICY_FAIR_SHARE; }
  uint32_t suppressOnArrival(const PolicyView &V, int P, const ArrivalHints &,
                             uint64_t NowNs) override {
    uint32_t Mask = StrictPriorityPolicy::strictArrival(V, P);
    for (int L = 0; L < NumLevels; ++L)
      if ((Mask & levelBit(L)) && inSlice(V, L, NowNs))
        Mask &= ~levelBit(L);
    return Mask;
  }
  bool mayResume(const PolicyView &V, int L, uint64_t NowNs) override {
    return StrictPriorityPolicy::strictResume(V, L, NowNs) || starved(V, L, NowNs);
  }
  uint64_t resumeDueNs(const PolicyView &V, int L, uint64_t NowNs) const override {
    // Suppressed all along from now, the fraction f reaches Bound after
    // W ln((1 - f) / (1 - Bound)); no slice before NextSliceNs either.
    const double F = shareSuppressed(V.Level[L], NowNs, V.ShareWindowNs);
    uint64_t Due = NowNs;
    if (F < Bound)
      Due += uint64_t(std::max(0.0, double(V.ShareWindowNs) *
                                        std::log((1.0 - F) / (1.0 - Bound)))) + 1;
    return std::max(Due, V.Level[L].NextSliceNs);
  }
  /// Suppressed for too long: may run again whatever the levels above do
  /// (once the gap after its last slice is over).
  bool starved(const PolicyView &V, int L, uint64_t NowNs) const {
    return NowNs >= V.Level[L].NextSliceNs &&
           shareSuppressed(V.Level[L], NowNs, V.ShareWindowNs) >= Bound;
  }
  /// The gap after a slice of SliceNs: the levels above get (1 - share) /
  /// share of it to themselves.
  uint64_t gapAfter(uint64_t SliceNs) const {
    return uint64_t(double(SliceNs) * Bound / std::max(1e-3, 1.0 - Bound));
  }
  static bool inSlice(const PolicyView &V, int L, uint64_t NowNs) {
    return V.Level[L].SliceEndNs && NowNs < V.Level[L].SliceEndNs;
  }

private:
  double Bound; ///< the suppressed fraction at which a level gets a slice
};

} // namespace sched
} // namespace rt
} // namespace gmem

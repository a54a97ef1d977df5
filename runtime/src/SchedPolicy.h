// Scheduling policy: which levels an arriving launch suppresses, and when a
// suppressed level may run again. The scheduler owns the mechanism (gates,
// stop requests, relaunches); a policy only decides.
//
// Strict priority is implemented. The interface is shaped for the next two:
//  * fair share: weights per level; suppressOnArrival suppresses a lower level
//    only while it has used more than its share of the recent window (the
//    per-level busy/suppressed times in PolicyView are that accounting), and
//    mayResume lets a level back once the urgent level exceeded its share;
//  * deadline: an arrival carries a deadline (ArrivalHints) and suppresses
//    the levels whose running work would make it miss, earliest deadline
//    first among equal levels.
#pragma once

#include "gmem/gmem_sched.h"

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
  uint64_t SuppressedTotalNs = 0; ///< accounting for fair share
};

struct PolicyView {
  LevelView Level[NumLevels];
  uint32_t UsedLevels = 0;  ///< levels that launched in this context
  bool Inversion = false;   ///< a forced resume happened: do not suppress until idle
  uint64_t ResumeLingerNs = 0;
};

/// What an arriving launch says about itself (deadline policies).
struct ArrivalHints {
  uint64_t DeadlineNs = 0; ///< 0: none
};

class SchedPolicy {
public:
  virtual ~SchedPolicy() = default;
  virtual int id() const = 0; ///< GMEM_SCHED_POLICY_*
  /// A launch at level P is being issued: the levels to suppress now
  /// (lower levels to preempt, and P itself if it must wait).
  virtual uint32_t suppressOnArrival(const PolicyView &V, int P, const ArrivalHints &H) = 0;
  /// Whether suppressed level L may run again at NowNs.
  virtual bool mayResume(const PolicyView &V, int L, uint64_t NowNs) = 0;
};

/// Strict priority: an arrival suppresses every lower level in use, and
/// waits itself while a higher level has incomplete work; a level resumes
/// when no higher level has had incomplete work for ResumeLingerNs.
class StrictPriorityPolicy final : public SchedPolicy {
public:
  int id() const override { return GMEM_SCHED_POLICY_STRICT; }
  uint32_t suppressOnArrival(const PolicyView &V, int P, const ArrivalHints &) override {
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
  bool mayResume(const PolicyView &V, int L, uint64_t NowNs) override {
    for (int H = L + 1; H < NumLevels; ++H) {
      if (V.Level[H].Busy)
        return false;
      if (V.Level[H].LastBusyNs && NowNs - V.Level[H].LastBusyNs < V.ResumeLingerNs)
        return false;
    }
    return true;
  }
};

} // namespace sched
} // namespace rt
} // namespace gmem

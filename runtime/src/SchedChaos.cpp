// Chaos testing (GMEM_SCHED_CHAOS=<us>, docs/PREEMPTION_DESIGN.md): with no
// urgent work in the program, the scheduler itself preempts every level
// below real time at random moments and resumes it after a random hold,
// through the same gates, stop requests and relaunches as urgent work. A
// program's results must not change, so any program built with gmem can
// be checked under preemption without writing urgent work for it.
//
// Two sources of stops: the monitor, on average every interval while
// preemptible launches are in flight (stops at random points of a running
// kernel), and one clone launch in four, right after it is enqueued (stops
// kernels too short for the monitor to catch, often before they start).
#include "Scheduler.h"

#include <algorithm>

namespace gmem {
namespace rt {
namespace sched {

namespace {
/// A launch is stopped at most this many times by chaos: a relaunch stopped
/// again may redo its current virtual CTA, so stops closer together than one
/// virtual CTA would never let it finish.
constexpr unsigned ChaosStopsPerLaunch = 4;
} // namespace

uint64_t Scheduler::chaosDraw(Context &C, uint64_t Max) {
  // xorshift64*: repeatable for a seed and a context, guarded by C.Mu.
  uint64_t &X = C.ChaosRandom;
  if (!X)
    X = (Opts.ChaosSeed ^ (uint64_t(C.Id) * 0x9e3779b97f4a7c15ull)) | 1;
  X ^= X >> 12;
  X ^= X << 25;
  X ^= X >> 27;
  return (X * 0x2545f4914f6cdd1dull) % (Max + 1);
}

bool Scheduler::chaosStop(Context &C, uint64_t Now) {
  if (!mayStop(C)) // a first launch waits for quiet (SchedFirstLaunch.cpp)
    return false;
  uint32_t Mask = C.View.UsedLevels & levelsBelow(TopLevel);
  for (int L = 0; L < NumLevels; ++L)
    if (C.View.Level[L].Suppressed)
      Mask &= ~levelBit(L);
  bool Stoppable = false;
  for (auto &KV : C.Streams) {
    // Per stream, the oldest unfinished launch is the one a stop would hit.
    const std::vector<Slot *> &Slots = KV.second->Slots;
    Stoppable |= !Slots.empty() && Slots.front()->PreemptGen < ChaosStopsPerLaunch;
  }
  if (!Mask || !Stoppable || C.View.Inversion)
    return false;
  suppress(C, Mask, Now);
  N.Chaos.fetch_add(1, std::memory_order_relaxed);
  C.ChaosUntilNs = Now + chaosDraw(C, Opts.ChaosIntervalNs / 2);
  log("chaos: levels 0x%x suppressed for %.1f us", Mask, double(C.ChaosUntilNs - Now) / 1e3);
  return true;
}

bool Scheduler::chaosTick(Context &C, uint64_t Now, bool &More, uint64_t &WakeBy) {
  if (!Opts.ChaosIntervalNs || !active()) // flush and shutdown resume everything
    return false;
  const uint64_t Interval = Opts.ChaosIntervalNs;
  // Only while preemptible launches may be in flight: an idle program is
  // left alone (its next clone launch wakes the monitor again).
  recycleAll(C);
  bool InFlight = false;
  for (auto &KV : C.Streams)
    InFlight |= !KV.second->Slots.empty();
  bool Held = Now < C.ChaosUntilNs;
  if (!InFlight && !Held) {
    C.ChaosNextNs = 0;
    return false;
  }
  More = true;
  if (!C.ChaosNextNs)
    C.ChaosNextNs = Now + chaosDraw(C, 2 * Interval);
  if (Now >= C.ChaosNextNs) {
    Held |= chaosStop(C, Now);
    C.ChaosNextNs = std::max(Now, C.ChaosUntilNs) + chaosDraw(C, 2 * Interval);
  }
  WakeBy = std::min(WakeBy, Held ? C.ChaosUntilNs : C.ChaosNextNs);
  return Held;
}

void Scheduler::chaosAtLaunch(Context &C, uint64_t Now) {
  if (active() && chaosDraw(C, 3) == 0)
    chaosStop(C, Now);
}

} // namespace sched
} // namespace rt
} // namespace gmem

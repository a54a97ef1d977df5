// See GridStrideTuner.h.
#include "GridStrideTuner.h"

namespace gmem {
namespace rt {
namespace sched {

constexpr unsigned GridStrideTuner::Candidates[];

GridStrideTuner::Entry &GridStrideTuner::entry(uint64_t Key) {
  for (Entry &E : Entries)
    if (E.Key == Key)
      return E;
  Entry Fresh;
  Fresh.Key = Key;
  if (Entries.size() < MaxShapes) {
    Entries.push_back(Fresh);
    return Entries.back();
  }
  Entry &Old = Entries[Next];
  Next = (Next + 1) % MaxShapes;
  Old = Fresh;
  return Old;
}

const GridStrideTuner::Entry *GridStrideTuner::find(uint64_t Key) const {
  for (const Entry &E : Entries)
    if (E.Key == Key)
      return &E;
  return nullptr;
}

unsigned GridStrideTuner::stageTrips(const Entry &E) {
  if (E.Stage == 0)
    return 0;
  if (E.Stage <= NumCandidates)
    return Candidates[E.Stage - 1];
  return E.Best;
}

void GridStrideTuner::advance(Entry &E) {
  // Without a time for the own grid there is nothing to beat: stay there.
  E.Stage = E.Stage == 0 && !(E.BestUs > 0) ? uint8_t(NumCandidates + 1) : uint8_t(E.Stage + 1);
  E.Waited = E.Settled = 0;
}

unsigned GridStrideTuner::tripsFor(uint64_t UserKey) { return stageTrips(entry(UserKey)); }

int GridStrideTuner::decided(uint64_t UserKey) const {
  const Entry *E = find(UserKey);
  return E && E->Stage > NumCandidates ? int(E->Best) : -1;
}

void GridStrideTuner::skip(uint64_t UserKey, unsigned Trips) {
  Entry &E = entry(UserKey);
  if (E.Stage >= 1 && E.Stage <= NumCandidates && stageTrips(E) == Trips)
    advance(E);
}

void GridStrideTuner::observe(uint64_t UserKey, unsigned Trips, double SettledUs) {
  Entry &E = entry(UserKey);
  if (E.Stage > NumCandidates || stageTrips(E) != Trips)
    return; // decided, or a launch planned before the stage changed
  ++E.Waited;
  if (!(SettledUs > 0)) {
    E.Settled = 0; // consecutive settled launches only (a trial may start)
  } else if (++E.Settled >= SettleLaunches) {
    if (E.Stage == 0) {
      E.Best = 0;
      E.BestUs = SettledUs;
    } else if (SettledUs < E.BestUs * (1 - Margin)) {
      E.Best = Trips;
      E.BestUs = SettledUs;
    }
    advance(E);
    return;
  }
  if (E.Waited >= WaitLaunches)
    advance(E);
}

} // namespace sched
} // namespace rt
} // namespace gmem

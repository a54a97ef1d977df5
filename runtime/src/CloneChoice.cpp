#include "CloneChoice.h"

namespace gmem {
namespace rt {
namespace sched {

CloneChooser::Entry *CloneChooser::find(uint64_t Key) {
  if (Last < Entries.size() && Entries[Last].Key == Key)
    return &Entries[Last];
  for (size_t I = 0; I < Entries.size(); ++I)
    if (Entries[I].Key == Key) {
      Last = I;
      return &Entries[I];
    }
  return nullptr;
}

void CloneChooser::enter(Entry &E, State S) {
  E.St = S;
  E.Launches = 0;
}

CloneChoice CloneChooser::choose(uint64_t Key) {
  Entry *E = find(Key);
  if (!E) {
    if (Entries.size() < MaxShapes) {
      Entries.push_back(Entry());
      Last = Entries.size() - 1;
    } else {
      Last = Next;
      Next = (Next + 1) % MaxShapes;
      Entries[Last] = Entry();
    }
    E = &Entries[Last];
    E->Key = Key;
  }
  CloneChoice C;
  switch (E->St) {
  case State::Unknown:
    // Every launch until a timing arrives: the first may be preempted (its
    // timing is dropped), and counting pending timings could wedge on one
    // that never reports.
    C.Timed = true;
    break;
  case State::Full:
    // The launch just measured decided Full: the next look is 64 launches on.
    C.Timed = Opts.FullTimingEvery && (E->Launches + 1) % Opts.FullTimingEvery == 0;
    break;
  case State::Light:
    // The first light launch confirms the full clone's verdict on the
    // light clone itself.
    C.Kind = CloneKind::Light;
    C.Timed = Opts.LightTimingEvery && E->Launches % Opts.LightTimingEvery == 0;
    break;
  }
  ++E->Launches;
  return C;
}

CloneChooser::Outcome CloneChooser::record(uint64_t Key, CloneKind Kind, double ElapsedUs,
                                           uint64_t Total, uint64_t P) {
  Outcome O;
  O.TauUs = tauUs(ElapsedUs, Total, P);
  Entry *E = find(Key);
  if (!E)
    return O; // forgotten since: the sample has no shape to decide
  O.Used = true;
  O.From = O.To = E->St;
  if (Kind == CloneKind::Full) {
    // The full clone's time decides both ways.
    O.To = O.TauUs <= Opts.LightMaxUs ? State::Light : State::Full;
  } else if (O.TauUs > 2 * Opts.LightMaxUs) {
    // A light launch only ever sends a shape back: a margin of 2x keeps a
    // shape near the limit from flipping on noise (its latency stays within
    // the goal's slack above the signalling floor).
    O.To = State::Full;
  }
  if (O.To != O.From)
    enter(*E, O.To);
  return O;
}

CloneChooser::State CloneChooser::state(uint64_t Key) const {
  for (const Entry &E : Entries)
    if (E.Key == Key)
      return E.St;
  return State::Unknown;
}

double CloneChooser::tauUs(double ElapsedUs, uint64_t Total, uint64_t P) {
  if (Total == 0 || P == 0)
    return ElapsedUs;
  const uint64_t Rounds = (Total + P - 1) / P;
  return ElapsedUs / double(Rounds);
}

const char *CloneChooser::name(State S) {
  switch (S) {
  case State::Unknown:
    return "unknown";
  case State::Full:
    return "full";
  case State::Light:
    return "light";
  }
  return "?";
}

} // namespace sched
} // namespace rt
} // namespace gmem

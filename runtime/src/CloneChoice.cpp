#include "CloneChoice.h"

#include <algorithm>

namespace gmem {
namespace rt {
namespace sched {

const char *cloneKindName(CloneKind K) {
  switch (K) {
  case CloneKind::Full:
    return "full";
  case CloneKind::Light:
    return "light";
  case CloneKind::Alt:
    return "alt";
  }
  return "?";
}

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
  E.Pr = Probe::None;
  E.First = false;
}

void CloneChooser::enterFullForms(Entry &E) {
  enter(E, State::Full);
  if (altFor(E)) {
    E.Pr = Probe::Alt;
    E.First = true;
  }
}

void CloneChooser::decide(Entry &E, double FullRefUs) {
  const bool Alt = E.AltUs > 0 && FullRefUs > 0 && E.AltUs < (1 - Opts.AltMargin) * FullRefUs;
  // Entered even when it stays: the next comparison is FormRetimeEvery
  // launches after this one.
  enter(E, Alt ? State::Alt : State::Full);
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
  case State::Alt: {
    if (E->Pr != Probe::None) {
      // A comparison waits for this form's time: every launch, as above.
      C.Kind = E->Pr == Probe::Alt ? CloneKind::Alt : CloneKind::Full;
      C.Timed = true;
      break;
    }
    C.Kind = kindOf(E->St);
    const uint32_t N = E->Launches + 1;
    if (altFor(*E) && Opts.FormRetimeEvery && N % Opts.FormRetimeEvery == 0) {
      // Time the other form once against this one's latest time.
      E->Pr = E->St == State::Alt ? Probe::Full : Probe::Alt;
      C.Kind = E->St == State::Alt ? CloneKind::Full : CloneKind::Alt;
      C.Timed = true;
    } else {
      // The launch just measured decided: the next look is 64 launches on.
      C.Timed = Opts.FullTimingEvery && N % Opts.FullTimingEvery == 0;
    }
    break;
  }
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
  O.From = E->St;
  if (Kind == CloneKind::Light) {
    // A light launch only ever sends a shape back: a margin of 2x keeps a
    // shape near the limit from flipping on noise (its latency stays within
    // the goal's slack above the signalling floor).
    if (O.TauUs > 2 * Opts.LightMaxUs && (E->St == State::Light || E->St == State::Unknown)) {
      E->FullUs = E->AltUs = 0; // from before it ran light: another regime
      enterFullForms(*E);
    }
  } else {
    double &Latest = Kind == CloneKind::Alt ? E->AltUs : E->FullUs;
    const double Prev = Latest;
    Latest = ElapsedUs;
    if (Opts.HasLight && O.TauUs <= Opts.LightMaxUs) {
      // Either full form's time decides both ways: its stops are no earlier
      // than the light clone's on such a shape.
      if (E->St != State::Light)
        enter(*E, State::Light);
    } else if (E->St == State::Unknown || E->St == State::Light) {
      enterFullForms(*E);
    } else if (E->Pr == Probe::Alt && Kind == CloneKind::Alt) {
      if (E->First)
        E->Pr = Probe::Full; // one more full launch: the first was cold
      else
        decide(*E, E->FullUs);
    } else if (E->Pr == Probe::Full && Kind == CloneKind::Full) {
      // The first comparison holds the better of the cold and the warm full
      // times; a later one the fresh time only (the last may be old).
      decide(*E, E->First && Prev > 0 ? std::min(Prev, ElapsedUs) : ElapsedUs);
    }
  }
  O.To = E->St;
  return O;
}

void CloneChooser::altUnfit(uint64_t Key) {
  Entry *E = find(Key);
  if (!E || E->NoAlt)
    return;
  E->NoAlt = true;
  if (E->St == State::Alt)
    enter(*E, State::Full);
  E->Pr = Probe::None;
  E->First = false;
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

CloneKind CloneChooser::kindOf(State S) {
  return S == State::Light ? CloneKind::Light : S == State::Alt ? CloneKind::Alt : CloneKind::Full;
}

const char *CloneChooser::name(State S) {
  return S == State::Unknown ? "unknown" : cloneKindName(kindOf(S));
}

} // namespace sched
} // namespace rt
} // namespace gmem

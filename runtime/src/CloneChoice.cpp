#include "CloneChoice.h"

#include <algorithm>
#include <cmath>

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
  case CloneKind::Free:
    return "free";
  }
  return "?";
}

namespace {
constexpr uint8_t bit(CloneKind K) { return uint8_t(1u << unsigned(K)); }
constexpr size_t idx(CloneKind K) { return size_t(K); }
/// The forms a full-form shape may run besides the full clone, in the
/// order a comparison times them.
constexpr CloneKind OtherForms[] = {CloneKind::Alt, CloneKind::Free};

/// Counts one more and says whether the count is now 1, 2, 4, 8, ...
bool countIsPowerOfTwo(uint32_t &N) {
  ++N;
  return (N & (N - 1)) == 0;
}

CloneChooser::State stateOf(CloneKind K) {
  switch (K) {
  case CloneKind::Light:
    return CloneChooser::State::Light;
  case CloneKind::Alt:
    return CloneChooser::State::Alt;
  case CloneKind::Free:
    return CloneChooser::State::Free;
  case CloneKind::Full:
    break;
  }
  return CloneChooser::State::Full;
}
} // namespace

bool CloneChooser::available(const Entry &E, CloneKind K) const {
  switch (K) {
  case CloneKind::Full:
    return true;
  case CloneKind::Alt:
    return Opts.HasAlt && !(E.Unfit & bit(K));
  case CloneKind::Free:
    return Opts.HasFree && !(E.Unfit & bit(K));
  case CloneKind::Light:
    break;
  }
  return false;
}

void CloneChooser::enter(Entry &E, State S) {
  E.St = S;
  E.Launches = 0;
  E.NProbes = 0;
  E.First = false;
  E.SpreadPending = S != State::Unknown && Opts.SpreadMax > 1;
  E.SpreadProbe = 0;
  E.CheckLight = false;
  E.LightRefUs = 0;
  E.TrialDue = false;
  E.SpreadCompared = false;
}

void CloneChooser::probeSpread(Entry &E, CloneChoice &C) {
  C.Spread = E.Spread;
  if (!E.SpreadPending || E.NProbes || C.Kind != kindOf(E.St) || !(E.Us[idx(C.Kind)] > 0))
    return;
  // Once per decision: a probe whose timing never comes (the launch was
  // preempted) is not asked again until the next decision.
  E.SpreadPending = false;
  startSpreadProbe(E, C);
}

void CloneChooser::startSpreadProbe(Entry &E, CloneChoice &C) {
  E.SpreadProbe = uint8_t(E.Spread == 1 ? std::min(Opts.SpreadMax, 255u) : 1);
  E.SpreadProbeKind = C.Kind;
  C.Spread = E.SpreadProbe;
  C.Timed = true;
}

void CloneChooser::enterFullForms(Entry &E) {
  enter(E, State::Full);
  startComparison(E, /*First=*/true);
  if (!E.NProbes)
    E.TrialDue = true; // nothing to compare: decided (decide's light trial)
}

void CloneChooser::startComparison(Entry &E, bool First) {
  E.NProbes = 0;
  E.First = false;
  // Every form the comparison times gets a fresh time or none: a time from
  // an earlier comparison may be far older than the others.
  auto Add = [&](CloneKind K) {
    if (K != CloneKind::Full)
      E.Us[idx(K)] = 0;
    E.Probes[E.NProbes++] = K;
  };
  if (First) {
    // The full clone ran (cold) already; it runs once more at the end.
    for (CloneKind K : OtherForms)
      if (available(E, K))
        Add(K);
    if (E.NProbes) {
      E.Probes[E.NProbes++] = CloneKind::Full;
      E.First = true;
    }
    return;
  }
  const CloneKind Own = kindOf(E.St);
  for (CloneKind K : {CloneKind::Full, CloneKind::Alt, CloneKind::Free})
    if (K != Own && available(E, K))
      Add(K);
}

void CloneChooser::dropProbe(Entry &E, CloneKind K) {
  uint8_t N = 0;
  for (uint8_t I = 0; I < E.NProbes; ++I)
    if (E.Probes[I] != K)
      E.Probes[N++] = E.Probes[I];
  E.NProbes = N;
  if (K != CloneKind::Full)
    E.Us[idx(K)] = 0;
  // Something other than the full clone must still be in the comparison:
  // the shape's own form, one still to time, or one timed in it.
  bool Left = kindOf(E.St) != CloneKind::Full;
  for (uint8_t I = 0; I < E.NProbes; ++I)
    Left |= E.Probes[I] != CloneKind::Full;
  for (CloneKind O : OtherForms)
    Left |= available(E, O) && E.Us[idx(O)] > 0;
  if (!Left) {
    E.NProbes = 0;
    E.First = false;
    E.TrialDue = true; // decided as decide() would
    E.SpreadCompared = false;
  } else if (!E.NProbes) {
    // K was the last one, whose timing would have decided: a full launch's
    // does instead (the launch that could not run K runs the full clone).
    E.Probes[E.NProbes++] = CloneKind::Full;
  }
}

void CloneChooser::decide(Entry &E, double FullRefUs) {
  CloneKind Best = CloneKind::Full;
  double BestUs = 0;
  if (FullRefUs > 0)
    for (CloneKind K : OtherForms) {
      const double Us = E.Us[idx(K)];
      if (available(E, K) && Us > 0 && Us < (1 - Opts.AltMargin) * FullRefUs &&
          (Best == CloneKind::Full || Us < BestUs)) {
        Best = K;
        BestUs = Us;
      }
    }
  // Entered even when it stays: the next comparison is FormRetimeEvery
  // launches after this one.
  const bool AfterSwitch = E.SpreadCompared;
  enter(E, stateOf(Best));
  E.TrialDue = true;
  if (AfterSwitch)
    E.SpreadPending = false; // compared at the spread it switched to
}

unsigned CloneChooser::batchFor(uint64_t Key) const {
  // Asked right after choose() for the same key: the remembered entry.
  const Entry *E = lookup(Key);
  if (!E || !(E->TauUs > 0) || !(Opts.BatchUs > 0))
    return 1;
  return unsigned(std::clamp(std::floor(Opts.BatchUs / E->TauUs), 1.0, 65535.0));
}

double CloneChooser::tauOf(uint64_t Key) const {
  const Entry *E = lookup(Key);
  return E ? E->TauUs : 0;
}

CloneChoice CloneChooser::choose(uint64_t Key, bool FreeOk, bool LightOk, bool Varying,
                                 bool StopOk) {
  bool Added = false;
  Entry *E = &Entries.findOrAdd(Key, Added);
  if (Added) {
    E->Varying = Varying;
    E->ScaleCeil = uint8_t(std::min(Opts.ScaleMax, 3u));
  }
  CloneChoice C = chooseForm(*E, FreeOk, LightOk);
  if (Opts.ShortUs > 0 && applyShort(*E, C))
    return C;
  if (Opts.MaxOverhead > 0)
    applyCap(*E, C);
  if (Opts.ScaleMax > 0)
    applyScale(*E, C, StopOk);
  return C;
}

bool CloneChooser::applyShort(Entry &E, CloneChoice &C) {
  // The fastest clone form's latest time bounds the original's from above
  // (roughly: a few-us kernel's clone ran 1.3-2x its time on the H200):
  // only shapes within ShortCloneFactor x ShortUs of it time the original.
  double CloneUs = 0;
  for (double Us : E.Us)
    if (Us > 0 && (!(CloneUs > 0) || Us < CloneUs))
      CloneUs = Us;
  const bool Plausible = CloneUs > 0 && CloneUs <= Opts.ShortCloneFactor * Opts.ShortUs;
  const double OrigUs = shortBoundUs(E.Key);
  const uint32_t N = ++E.ShortSeen;
  // Until the shape has VaryingTaus times, every eighth of the interval: a
  // kernel near the limit whose first time read over it (H200:
  // softmax_rows, 5.9 us queued, ~9 us on an idle stream) otherwise ran 39
  // launches as clones before its second time.
  const bool Few = std::count_if(E.RecentOrig, E.RecentOrig + VaryingTaus,
                                 [](double Us) { return Us > 0; }) < int(VaryingTaus);
  const uint32_t Every = std::max(Opts.FullTimingEvery / (Few ? 8 : 1), 1u);
  // A timing due (every Every-th launch: the shape's launches may change)
  // stays due until the scheduler takes one (originalTimed): it takes none
  // while all its timing slots are busy (Scheduler::timedOriginal).
  if (N % Every == 0)
    E.OrigDue = true;
  if (!(OrigUs > 0) || OrigUs > Opts.ShortUs) {
    // Not known short: a plausible shape times the original (at once while
    // it has no time, then when due); the scheduler gates it, as its time
    // is not known to be short.
    if (!Plausible || (OrigUs > 0 && !E.OrigDue))
      return false;
    C = CloneChoice();
    C.Original = C.Timed = C.Short = true;
    return true;
  }
  C = CloneChoice();
  C.Original = C.Short = true;
  C.Timed = E.OrigDue;
  return true;
}

CloneChoice CloneChooser::chooseForm(Entry &Ent, bool FreeOk, bool LightOk) {
  Entry *E = &Ent;
  CloneChoice C;
  if (LightOk && E->TauUs > 0 && E->TauUs < Opts.LightOkMinTauUs)
    LightOk = false; // the twin would stop it no sooner (LightOkMinTauUs)
  if (LightOk && Opts.HasLight && !(E->Unfit & bit(CloneKind::Light)) && E->St != State::Light) {
    // The light twin stops this launch as early as any form and is usually
    // the fastest: it runs unless its latest time is slower than the
    // shape's own form's by more than the margin. Such launches do not wait
    // for a comparison in progress, and the own form's time, while missing,
    // is asked for by the 1st, 2nd, 4th, 8th, ... of them: a long launch
    // that is preempted every time (its timing dropped) then runs light
    // nearly always, as a shape that never gets a time should.
    const CloneKind Own = kindOf(E->St) == CloneKind::Free && !FreeOk ? CloneKind::Full
                                                                      : kindOf(E->St);
    const double LightUs = E->Us[idx(CloneKind::Light)], OwnUs = E->Us[idx(Own)];
    const bool OwnKnown = E->St != State::Unknown && OwnUs > 0;
    bool RunLight = true;
    if (!(LightUs > 0)) {
      C.Kind = CloneKind::Light;
      C.Timed = true;
    } else if (!OwnKnown && countIsPowerOfTwo(E->OwnAsks)) {
      C.Kind = Own; // Unknown: the full clone, timed as that state's launches
      C.Timed = true;
    } else if (!OwnKnown || LightUs <= (1 + Opts.AltMargin) * OwnUs) {
      C.Kind = CloneKind::Light;
      C.Timed = Opts.LightTimingEvery && ++E->LightOkRuns % Opts.LightTimingEvery == 0;
    } else {
      RunLight = false; // the own form, as any launch
    }
    if (RunLight) {
      ++E->Launches;
      C.Spread = E->Spread;
      // The twin at the other spread, once after its first time at this
      // one (as probeSpread does for a shape's own form; H200:
      // gemm_polybench's twin +10% at 1x, about +0% at 4x its resident CTAs).
      if (C.Kind == CloneKind::Light && !C.Timed && E->LightSpreadPending && Opts.SpreadMax > 1 &&
          E->Us[idx(CloneKind::Light)] > 0) {
        E->LightSpreadPending = false;
        startSpreadProbe(*E, C);
      }
      return C;
    }
  }
  switch (E->St) {
  case State::Unknown:
    // Every launch until a timing arrives: the first may be preempted (its
    // timing is dropped), and counting pending timings could wedge on one
    // that never reports.
    C.Timed = true;
    break;
  case State::Full:
  case State::Alt:
  case State::Free: {
    const uint32_t N = E->Launches + 1;
    if (!E->NProbes && Opts.FormRetimeEvery && N % Opts.FormRetimeEvery == 0)
      startComparison(*E, /*First=*/false); // the other forms, once each
    // A launch not proved idempotent cannot time the free form; waiting for
    // one that can could stall the comparison for good.
    if (!FreeOk && E->NProbes && E->Probes[0] == CloneKind::Free)
      dropProbe(*E, CloneKind::Free);
    if (E->NProbes) {
      // A comparison waits for this form's time: every launch, as above.
      C.Kind = E->Probes[0];
      C.Timed = true;
      break;
    }
    C.Kind = kindOf(E->St);
    // The launch just measured decided: the next look is 64 launches on.
    C.Timed = Opts.FullTimingEvery && N % Opts.FullTimingEvery == 0;
    if (C.Kind == CloneKind::Free && !FreeOk) {
      // What it would run without the free form; its time would say nothing
      // about the free form's.
      C.Kind = CloneKind::Full;
      C.Timed = false;
    }
    if (E->TrialDue && C.Kind == kindOf(E->St) &&
        (!E->SpreadPending || !(E->Us[idx(C.Kind)] > 0))) {
      // The decided form's launches (after its spread probe) are timed,
      // until one's timing arrives, where that timing may start the light
      // trial (record): a shape a little over LightMaxUs otherwise waited
      // FullTimingEvery launches for it, and whatever compares the shape's
      // settled time (the grid-stride tuner) judged it on its full forms
      // (H200, session 49: im2col's one-trip grid).
      if (Opts.HasLight && !(E->Unfit & bit(CloneKind::Light)) && E->TauUs > Opts.LightMaxUs &&
          E->TauUs <= Opts.LightTimedMaxUs)
        C.Timed = true;
      else
        E->TrialDue = false;
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
  probeSpread(*E, C);
  return C;
}

void CloneChooser::applyCap(Entry &E, CloneChoice &C) {
  // The time as compiled: the shape's 1st, 2nd, 4th, ... launch up to the
  // FullTimingEvery-th, then every FullTimingEvery-th, runs the original,
  // timed (warm times replace the cold first one; such launches cost
  // nothing, the original is the fastest anyway, and a launch is never
  // stopped inside, so its time comes).
  const uint32_t N = ++E.CapSeen;
  const uint32_t Every = std::max(Opts.FullTimingEvery, 1u);
  if (((N & (N - 1)) == 0 && N <= Every) || N % Every == 0) {
    C = CloneChoice();
    C.Original = C.Timed = true;
    return;
  }
  // Held against the cap: a form's run plus what its launch path adds to
  // the program's stream (the original's time has its own path in it).
  const double OrigUs = E.latestOriginal();
  const double Limit = (1 + Opts.MaxOverhead) * OrigUs;
  auto Cost = [&](CloneKind K) {
    return E.Us[idx(K)] > 0 ? E.Us[idx(K)] + E.StreamExtraUs[idx(K)] : 0;
  };
  const double Us = Cost(C.Kind);
  // A form without a time runs (chooseForm times it); one within the cap too.
  if (!(OrigUs > 0) || !(Us > 0) || Us <= Limit)
    return;
  // Over the cap. The first such launch and every FormRetimeEvery-th runs
  // the form once more, timed: the verdict may rest on a cold first time,
  // and the shape's launches may change.
  const uint32_t R = ++E.CapRuns;
  if (R == 1 || (Opts.FormRetimeEvery && R % Opts.FormRetimeEvery == 0)) {
    C.Timed = true;
    return;
  }
  if (C.Kind != CloneKind::Light && Opts.HasLight && !(E.Unfit & bit(CloneKind::Light))) {
    const double LightUs = Cost(CloneKind::Light);
    const bool Ask = !(LightUs > 0) && countIsPowerOfTwo(E.LightAsks);
    if (Ask || (LightUs > 0 && LightUs <= Limit)) {
      C.Kind = CloneKind::Light;
      C.Spread = E.Spread; // a light time is at the shape's spread
      C.Timed = Ask || (Opts.LightTimingEvery && R % Opts.LightTimingEvery == 0);
      return;
    }
  }
  C = CloneChoice();
  C.Original = true;
}

bool CloneChooser::recordOriginal(uint64_t Key, double ElapsedUs, bool Provisional) {
  Entry *E = find(Key);
  if (!E)
    return false;
  if (ElapsedUs > 0) {
    // A provisional time read over the short limit would otherwise keep the
    // shape on its clones until the next due time (H200: a 4 us kernel
    // whose first time held the host's call ran 39 clone launches first).
    E->OrigDue = Provisional;
    E->RecentOrig[E->NextOrig] = ElapsedUs;
    E->NextOrig = uint8_t((E->NextOrig + 1) % VaryingTaus);
  }
  return true;
}

void CloneChooser::originalTimed(uint64_t Key) {
  if (Entry *E = find(Key))
    E->OrigDue = false;
}

double CloneChooser::originalUs(uint64_t Key) const {
  const Entry *E = lookup(Key);
  return E ? E->latestOriginal() : 0;
}

double CloneChooser::shortBoundUs(uint64_t Key) const {
  const Entry *E = lookup(Key);
  if (!E)
    return 0;
  if (E->Varying)
    return *std::max_element(E->RecentOrig, E->RecentOrig + VaryingTaus);
  // One shape's kernel takes about the same time every launch; what a
  // timing may add is the host's launch call where the stream was idle at
  // the start mark and the launch went unlatched (Scheduler::latch): the
  // least of the latest times is the kernel's own.
  double Least = 0;
  for (double Us : E->RecentOrig)
    if (Us > 0 && (!(Least > 0) || Us < Least))
      Least = Us;
  return Least;
}

CloneChooser::Outcome CloneChooser::record(uint64_t Key, CloneKind Kind, double ElapsedUs,
                                           uint64_t Total, uint64_t Resident, unsigned Spread,
                                           double StreamUs, unsigned Scale) {
  Outcome O;
  O.TauUs = tauUs(ElapsedUs, Total, Resident);
  Entry *E = find(Key);
  if (!E)
    return O; // forgotten since: the sample has no shape to decide
  O.Used = true;
  O.From = O.To = E->St;
  if (StreamUs >= ElapsedUs)
    E->StreamExtraUs[idx(Kind)] = StreamUs - ElapsedUs;
  // The tau that decides: this timing's, or for a shape of varying
  // launches the largest recent one (its check interval and light verdict
  // then hold for the slowest of them).
  double Tau = O.TauUs;
  if (E->Varying) {
    E->RecentTau[E->NextTau] = O.TauUs;
    E->NextTau = uint8_t((E->NextTau + 1) % VaryingTaus);
    Tau = *std::max_element(E->RecentTau, E->RecentTau + VaryingTaus);
  }
  E->TauUs = Tau;
  if (Scale != E->Scale && Kind != CloneKind::Light) {
    // A candidate scale's timing, or a late one of a scale left since: not
    // comparable with the shape's times; only the candidate's own counts.
    if (Scale == E->ScaleTry && Kind == E->ScaleKind && Spread == E->Spread)
      candidateTimed(*E, ElapsedUs);
    O.Spread = E->Spread;
    return O;
  }
  if (E->ScaleTry && Kind == E->ScaleKind && Spread == E->Spread)
    ownScaleTimed(*E, ElapsedUs); // the candidate's other side
  if (Spread != E->Spread) {
    // Not comparable with the shape's times: only the probe's own timing
    // counts, against the same form's latest time at the shape's spread.
    if (E->SpreadProbe == Spread && Kind == E->SpreadProbeKind) {
      E->SpreadProbe = 0;
      const double Ref = E->Us[idx(Kind)];
      if (Ref > 0 && ElapsedUs < (1 - Opts.AltMargin) * Ref) {
        E->Spread = uint8_t(Spread);
        for (double &Us : E->Us)
          Us = 0; // at the old spread
        E->Us[idx(Kind)] = ElapsedUs;
        O.SpreadSwitched = true;
        // The forms rank differently at another spread (H200, session 50:
        // im2col's four-trip grid chose its full clone at 1x, 77.7 against
        // the alternate form's 77.5 us, then ran it at 4x in 73 us where
        // the alternate form ran 67 us, found only by the comparison 1024
        // launches on): compare them again now. That decision probes no
        // spread again (no back and forth on noise).
        if (E->St == State::Full || E->St == State::Alt || E->St == State::Free) {
          startComparison(*E, /*First=*/false);
          E->SpreadCompared = E->NProbes != 0;
        }
      }
    }
    O.Spread = E->Spread;
    return O;
  }
  if (Kind == CloneKind::Light) {
    // A light launch only ever sends a shape back: a margin of 2x keeps a
    // shape near the limit from flipping on noise (its latency stays within
    // the goal's slack above the signalling floor).
    if (Tau > std::max(2 * Opts.LightMaxUs, Opts.LightTimedMaxUs) &&
        (E->St == State::Light || E->St == State::Unknown)) {
      for (double &Us : E->Us)
        Us = 0; // from before it ran light: another regime
      enterFullForms(*E);
    }
    if (!(E->Us[idx(CloneKind::Light)] > 0))
      E->LightSpreadPending = true; // its first time at this spread
    E->Us[idx(CloneKind::Light)] = ElapsedUs; // what LightOk launches compare
    // A shape just sent light by its tau: the twin must not be slower than
    // the full forms it replaces. Twins move with ptxas's choices as any
    // form does (H200: gemm_naive's twin -3% -> +38% over its kernel when a
    // few latch instructions were added): one slower by more than the
    // margin in its first timing, next to the full timing that sent the
    // shape light, is never this shape's again (unfit: back to the full
    // forms, whose loop checks stop it no later). Later light timings
    // follow tau alone (the launches' work may change).
    if (E->CheckLight && E->St == State::Light) {
      E->CheckLight = false;
      double FullUs = E->Us[idx(CloneKind::Full)];
      const double AltUs = E->Us[idx(CloneKind::Alt)];
      if (AltUs > 0 && (!(FullUs > 0) || AltUs < FullUs))
        FullUs = AltUs;
      if (E->LightRefUs > 0) {
        // A trial (LightTimedMaxUs): the twin stops such a shape later than
        // its loop checks would, so it must be the faster form outright.
        if (ElapsedUs >= E->LightRefUs)
          unfit(Key, CloneKind::Light);
        E->LightRefUs = 0;
      } else if (FullUs > 0 && ElapsedUs > (1 + Opts.AltMargin) * FullUs) {
        unfit(Key, CloneKind::Light);
      }
    }
  } else {
    double &Latest = E->Us[idx(Kind)];
    const double Prev = Latest;
    Latest = ElapsedUs;
    if (Opts.HasLight && !(E->Unfit & bit(CloneKind::Light)) && Tau <= Opts.LightMaxUs) {
      // Any full form's time decides both ways: its stops are no earlier
      // than the light clone's on such a shape.
      if (E->St != State::Light) {
        enter(*E, State::Light);
        E->CheckLight = true;
      }
    } else if (E->St == State::Unknown || E->St == State::Light) {
      enterFullForms(*E);
    } else if (E->NProbes && Kind == E->Probes[0]) {
      // A late timing of another form (a launch made before) only updates
      // its latest time: it does not stand for the probe.
      std::copy(E->Probes + 1, E->Probes + E->NProbes, E->Probes);
      if (--E->NProbes == 0)
        // The first comparison holds the better of the cold and the warm
        // full times; a later one the latest only (a periodic timing, or
        // the fresh one when it probed the full clone).
        decide(*E, E->First && Kind == CloneKind::Full && Prev > 0 ? std::min(Prev, ElapsedUs)
                                                                   : E->Us[idx(CloneKind::Full)]);
    } else if (!E->NProbes && Kind == kindOf(E->St) &&
               (E->St == State::Full || E->St == State::Alt || E->St == State::Free)) {
      // The decided form's own timing (the one TrialDue asked for, or a
      // periodic one).
      E->TrialDue = false;
      if (Opts.HasLight && !(E->Unfit & bit(CloneKind::Light)) && Tau <= Opts.LightTimedMaxUs) {
        // Virtual CTAs a little over LightMaxUs: the twin stops the shape
        // within the goal too, and may run faster than the decided form
        // (H200: embedding_lookup +10.1% -> +6.7%), or slower
        // (spmv_csr_scalar +3.9% -> +5.1%; bench/preempt/results/session39).
        // One trial, timed against the form's own warm time.
        enter(*E, State::Light);
        E->CheckLight = true;
        E->LightRefUs = ElapsedUs;
      }
    }
  }
  O.To = E->St;
  O.Spread = E->Spread;
  return O;
}

void CloneChooser::unfit(uint64_t Key, CloneKind Kind) {
  if (Kind == CloneKind::Full)
    return;
  Entry *E = find(Key);
  if (!E || (E->Unfit & bit(Kind)))
    return;
  E->Unfit |= bit(Kind);
  // A light shape (never light again, by tau or for LightOk launches)
  // compares the full forms; light is never among a comparison's probes.
  if (kindOf(E->St) == Kind)
    Kind == CloneKind::Light ? enterFullForms(*E) : enter(*E, State::Full);
  else if (E->NProbes && Kind != CloneKind::Light)
    dropProbe(*E, Kind);
  E->Us[idx(Kind)] = 0;
}

double CloneChooser::settledUs(uint64_t Key) const {
  const Entry *E = lookup(Key);
  if (!E || E->St == State::Unknown || E->NProbes || E->SpreadPending || E->SpreadProbe ||
      E->TrialDue || E->CheckLight || E->ScaleTry)
    return 0;
  return E->Us[idx(kindOf(E->St))];
}

CloneChooser::State CloneChooser::state(uint64_t Key) const {
  const Entry *E = lookup(Key);
  return E ? E->St : State::Unknown;
}

double CloneChooser::tauUs(double ElapsedUs, uint64_t Total, uint64_t P) {
  if (Total == 0 || P == 0)
    return ElapsedUs;
  const uint64_t Rounds = (Total + P - 1) / P;
  return ElapsedUs / double(Rounds);
}

CloneKind CloneChooser::kindOf(State S) {
  switch (S) {
  case State::Light:
    return CloneKind::Light;
  case State::Alt:
    return CloneKind::Alt;
  case State::Free:
    return CloneKind::Free;
  case State::Unknown:
  case State::Full:
    break;
  }
  return CloneKind::Full;
}

const char *CloneChooser::name(State S) {
  return S == State::Unknown ? "unknown" : cloneKindName(kindOf(S));
}

} // namespace sched
} // namespace rt
} // namespace gmem

// Segment scale: how many loop checks a launch shape's clone runs.
//
// The pass sizes a strip-mined loop's segment from a static cost model (K
// iterations of about the check budget's work) or paces it on %clock; it
// cannot know how long an iteration takes at a launch. Where the checks
// cost more than a stop needs (H200: gemm_naive's alternate form +13%
// with 20 k-iterations a segment, -0.2% with 76; bench/preempt/results/
// session36) a longer segment is faster, where stops are already near the
// 10 us goal (spmv_ell, layernorm) it is not affordable. So for clones
// with flag PreSegmentScale (grid_z's bits 24..25: segments of K << s
// iterations, paced ones at 2^s their target) each shape tries s + 1 once
// its form and spread are decided:
//
//  1. its launches are timed, alternately at s + 1 and at s, until
//     ScalePairs (3) timings of each have come; the candidate goes on only
//     where their median at s + 1 beats their median at s by more than
//     ScaleMargin (1%; else the shape never tries above s). Side by side,
//     so the machine's drift is in both, and medians, so one slow launch
//     decides nothing: one more step is worth 1-2% to store-bound paced
//     loops, within a single launch's spread;
//  2. the next ScaleStops (5) launches whose loop checkpoints are armed
//     (proved idempotent) run at s + 1 as stop probes: the scheduler stops
//     each in the middle of its run (only its stream's launch: nothing else
//     is held) and reports the time from the request to the clone's drain;
//     s + 1 is never tried again where one took over ScaleStopMaxUs (the
//     goal's 10 us), their median over ScaleStopUs (7.0 us: at the overhead
//     table's sizes a stop's P99 after the write ran 1.4-2.6 us above its
//     P50 where loop checks decide it, and wmma_gemm's three probes at s = 1
//     drained in 6.4-8.7 us where random stops of it had a P99 of 12.9 us;
//     bench/preempt/results/session37), or ScaleMisses probes found the
//     launch finished;
//  3. else s + 1 is the shape's scale, and s + 2 is tried the same way (up
//     to ScaleMax).
//
// Launches not proved idempotent are never probes: their loop checks are
// not armed, so their stops do not depend on s; they run at the shape's
// scale (or the candidate's while it is being timed). A scale belongs to
// one form at one spread: a shape that changes either starts again at 0.
#include "CloneChoice.h"

#include <algorithm>

namespace gmem {
namespace rt {
namespace sched {

namespace {
/// Launches that may wait for a candidate's timing (a launch stopped every
/// time never reports one): then the candidate is given up.
constexpr uint8_t ScaleWaitMax = 64;

/// The median of N timings (the upper one of an even count).
double medianOf(const double *Us, unsigned N) {
  double Sorted[ChooserOptions::ScalePairsMax];
  std::copy(Us, Us + N, Sorted);
  std::sort(Sorted, Sorted + N);
  return Sorted[N / 2];
}

} // namespace

void CloneChooser::clearCandidate(Entry &E) {
  E.ScaleTry = 0;
  E.ScaleStopsOk = E.ScaleMissed = E.ScaleWait = 0;
  E.ScaleTryUs = 0;
  E.ScaleNCand = E.ScaleNOwn = 0;
  E.ScaleOwnNext = false;
}

void CloneChooser::resetScale(Entry &E) {
  E.Scale = 0;
  E.ScaleCeil = uint8_t(std::min(Opts.ScaleMax, 3u));
  clearCandidate(E);
}

void CloneChooser::settleScale(Entry &E, bool Keep) {
  if (Keep) {
    E.Scale = E.ScaleTry;
    // The full forms' times were at the old scale (the light twin's have
    // no loop checks: still valid).
    for (CloneKind K : {CloneKind::Full, CloneKind::Alt, CloneKind::Free})
      E.Us[size_t(K)] = 0;
    E.Us[size_t(E.ScaleKind)] = E.ScaleTryUs;
  } else {
    E.ScaleCeil = E.Scale; // not faster, or its stops too late: never above
  }
  clearCandidate(E);
}

void CloneChooser::applyScale(Entry &E, CloneChoice &C, bool StopOk) {
  if (C.Original || C.Kind == CloneKind::Light)
    return; // no loop checks to scale
  const CloneKind Own = kindOf(E.St);
  if ((E.Scale || E.ScaleTry) && (Own != E.ScaleKind || E.Spread != E.ScaleSpread))
    resetScale(E);
  C.Scale = E.Scale;
  // Only once the shape has settled: a decided full form, no comparison or
  // spread timing awaited, and this launch one of the shape's own form.
  const bool Decided = E.St == State::Full || E.St == State::Alt || E.St == State::Free;
  if (!Decided || E.NProbes || E.SpreadProbe || E.SpreadPending || C.Kind != Own ||
      C.Spread != E.Spread)
    return;
  if (!E.ScaleTry) {
    if (E.Scale >= E.ScaleCeil || !(E.Us[size_t(Own)] > 0))
      return;
    E.ScaleTry = uint8_t(E.Scale + 1);
    E.ScaleKind = Own;
    E.ScaleSpread = E.Spread;
  }
  if (!E.scaleTimed()) {
    // Every launch until the timings arrive (as an unknown shape's), within
    // a bound; alternately the candidate's and the own scale's while both
    // still want timings.
    if (++E.ScaleWait > ScaleWaitMax) {
      settleScale(E, false);
      return;
    }
    const unsigned Pairs = pairs();
    bool Own = E.ScaleOwnNext && Pairs > 1;
    if (Own && E.ScaleNOwn >= Pairs)
      Own = false;
    else if (!Own && E.ScaleNCand >= Pairs && Pairs > 1)
      Own = true;
    E.ScaleOwnNext = !Own;
    C.Scale = Own ? E.Scale : E.ScaleTry;
    C.Timed = true;
    return;
  }
  if (StopOk) {
    C.Scale = E.ScaleTry;
    C.StopProbe = true;
    C.Timed = false; // a stopped launch's time says nothing
  }
}

void CloneChooser::candidateTimed(Entry &E, double ElapsedUs) {
  if (E.scaleTimed() || !(ElapsedUs > 0))
    return; // a later timing of the candidate: the first ones decided
  if (pairs() == 1) {
    // The single timing against the own form's latest time.
    const double Ref = E.Us[size_t(E.ScaleKind)];
    if (Ref > 0 && ElapsedUs < (1 - Opts.ScaleMargin) * Ref)
      E.ScaleTryUs = ElapsedUs;
    else
      settleScale(E, false);
    return;
  }
  if (E.ScaleNCand < pairs())
    E.ScaleCandUs[E.ScaleNCand++] = ElapsedUs;
  compareScale(E);
}

void CloneChooser::ownScaleTimed(Entry &E, double ElapsedUs) {
  if (!E.ScaleTry || E.scaleTimed() || pairs() == 1 || !(ElapsedUs > 0))
    return;
  if (E.ScaleNOwn < pairs())
    E.ScaleOwnUs[E.ScaleNOwn++] = ElapsedUs;
  compareScale(E);
}

void CloneChooser::compareScale(Entry &E) {
  const unsigned N = pairs();
  if (E.ScaleNCand < N || E.ScaleNOwn < N)
    return;
  const double Cand = medianOf(E.ScaleCandUs, N), Own = medianOf(E.ScaleOwnUs, N);
  if (Cand < (1 - Opts.ScaleMargin) * Own)
    E.ScaleTryUs = Cand;
  else
    settleScale(E, false);
}

bool CloneChooser::recordScaleStop(uint64_t Key, unsigned Scale, double DrainUs) {
  Entry *E = find(Key);
  if (!E || !E->scaleTimed() || Scale != E->ScaleTry)
    return false;
  if (DrainUs < 0) {
    if (++E->ScaleMissed >= Opts.ScaleMisses)
      settleScale(*E, false);
  } else if (DrainUs > Opts.ScaleStopMaxUs) {
    settleScale(*E, false); // over the goal: no median makes up for it
  } else {
    E->ScaleDrainUs[E->ScaleStopsOk] = DrainUs;
    if (++E->ScaleStopsOk >= ChooserOptions::ScaleStops) {
      double *D = E->ScaleDrainUs;
      std::sort(D, D + ChooserOptions::ScaleStops);
      settleScale(*E, D[ChooserOptions::ScaleStops / 2] <= Opts.ScaleStopUs);
    }
  }
  return true;
}

bool CloneChooser::scaleStopWanted(uint64_t Key, unsigned Scale) const {
  const Entry *E = lookup(Key);
  return E && E->scaleTimed() && E->ScaleTry == Scale;
}

double CloneChooser::scaleTryUs(uint64_t Key) const {
  const Entry *E = lookup(Key);
  return E ? E->ScaleTryUs : 0;
}

unsigned CloneChooser::scaleOf(uint64_t Key) const {
  const Entry *E = lookup(Key);
  return E ? E->Scale : 0;
}

} // namespace sched
} // namespace rt
} // namespace gmem

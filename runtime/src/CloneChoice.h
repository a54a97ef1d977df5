// Which of a persistent kernel's preemptible clones a launch uses.
//
// For kernel K the gmem pass may emit, next to the full persistent clone
// __gmem_pre_<K>, a light twin __gmem_prl_<K> (info flag PreHasLight): same
// parameters and control block protocol, but no checks inside loops, so it
// stops only between virtual CTAs (at the end of a long one it reads the
// request again; for a kernel without loop checkpoints that is all that
// differs from the full clone). The loop checks can double the
// steady-state time of kernels whose CTAs are short anyway; for those the light clone's preemption latency (about one virtual
// CTA's run time, tau) is as good, and it runs at full speed. The goal is a
// P99 preemption latency of 10 us with about 6 us of signalling floor: the
// light clone is used where tau <= LightMaxUs (3 us by default).
//
// It may also emit an alternate full form __gmem_pra_<K> (flag PreHasAlt):
// the same loop checkpoints and stop semantics as the full clone, but its
// persistent loop's state lives in shared memory instead of registers, so
// its occupancy (and P) differ. Neither form is faster on every kernel
// (measured on the H200: stencil3d +26% vs +4%, gemm_tiled16 +19% vs
// +43%), so shapes that stay on a full form compare them by timing.
//
// And, for kernels without barriers, warp collectives or shared memory of
// their own (elementwise ones too, which have no loop checkpoints and so no
// other twin), a barrier-free form __gmem_prf_<K> (flag PreHasFree): every
// thread loops over the virtual CTAs on its own, faster than the original
// on some kernels (relu, floyd_warshall) and far slower on others
// (transpose_naive: warps drift apart and lose L2 locality). A stop makes
// the CTA's threads restart from the slowest one's position, so virtual
// CTAs run again: only launches proved idempotent may use it. The chooser
// is told per launch (choose's FreeOk) and never picks it otherwise; the
// scheduler checks again.
//
// A launch not proved idempotent (or of a clone without loop checkpoints)
// stops only between virtual CTAs in every form, so the light twin stops it
// as early as any (choose's LightOk). The twin is usually the fastest form
// then, but not always: a balanced tail (PreLightTail) costs some loops
// their registers (H200: nbody's twin +5% -> +62%). Such launches time it:
// the first runs it, timed; they run light unless its latest time is slower
// than the shape's own form's by more than AltMargin, and re-time it every
// LightTimingEvery of them. While the own form has no time, the 1st, 2nd,
// 4th, 8th, ... of them run it, timed (a launch preempted every time never
// reports one); they never wait for a comparison in progress.
//
// tau depends on the launch (grid, block, shared memory, arguments), so the
// choice is made per launch shape: the first launch of a shape runs the
// full clone and is timed; its tau decides light or not. The shape's first
// light launch is timed too and must not be slower than that full timing
// by more than AltMargin, else the twin is unfit for the shape for good (a
// twin is compiled apart, and ptxas may make it the slower form). A shape
// that stays on the full forms (with another one available) then times one
// launch of each other form (alternate, then free) and one more full launch
// (the first was cold: it may include first-touch costs), and keeps the
// faster of the other forms only when it beats the full clone by more than
// AltMargin. Light launches are re-timed now and then (a shape turned slow
// goes back to a full form), full-form ones too (a shape turned fast gets
// the light clone), and a decided full-form shape times the other forms
// once every FormRetimeEvery launches. Only timings of launches that ran
// undisturbed count: a preempted launch's time says nothing about tau.
//
// Between LightMaxUs and LightTimedMaxUs the twin still stops a shape within
// the goal, but is not presumed faster: a decided full-form shape whose
// next own-form timing has such a tau runs light once, timed, and stays
// light only if that launch beat the own form's time outright (no margin);
// else the twin is unfit for the shape.
//
// Spread. A persistent clone hands out its virtual CTAs in a static order
// (CTA p runs p, p + P, ...), so CTAs that run slower than others (a busier
// L2 slice, an SM with more resident work) leave their SM short of warps at
// the end, where the hardware would have given the waiting CTAs of the
// original grid to whichever SM freed first. Launching SpreadMax times the
// resident CTAs gives that back (the hardware dispatches the extra CTAs as
// resident ones finish; any P is correct): on the H200 kmeans_assign +22% ->
// +13%, gemm_polybench's twin +10% -> +0%, gemm_naive +21% -> +14%, but
// short virtual CTAs lose (vec_add +1% -> +7%), and a stop waits for the
// extra CTAs to start and leave (loop victims' P99 after the write 8.4 ->
// 8.8 us). So every decision of a shape's form is followed by one timed
// launch of that form at the other spread (1 <-> SpreadMax), kept only when
// faster by more than AltMargin; a shape's times are all at its current
// spread (a switch forgets the others, and the full forms are compared
// again at the new spread at once, a decision that probes no spread
// again: the forms rank differently there). LightOk launches, which run the
// light twin by timing rather than by the shape's decision, time the twin
// once at the other spread after its first time (H200, through libgmemrt:
// gemm_polybench's twin +9.6% at 1x, +0.1% at 4x).
//
// Overhead cap (ChooserOptions::MaxOverhead, GMEM_PREEMPT_MAX_OVERHEAD; off
// by default). Everything above puts the earliest stop first and speed
// second. Some kernels pay for their loop checks more than a best-effort
// job may want to pay (H200: gemm_naive +14%, tile_sum_async +26% as
// launched; bench/preempt/RESULTS.md). With a cap, a shape also times the
// kernel as compiled, and where the form chosen above is slower than that
// by more than the cap, its launches run the light twin if the twin is
// within the cap (stops between virtual CTAs only), else the kernel as
// compiled (no stop once started: the launch is held back while not
// started, as any launch without a clone). The trade is the user's: a
// shape's stop latency grows from the loop checks' to a virtual CTA's or
// the whole kernel's. The original is timed early (launches 1, 2, 4, ...)
// and then every FullTimingEvery-th launch; the first capped launch and
// every FormRetimeEvery-th one run the chosen form again, timed, so a
// verdict never rests on a cold first time alone and a shape whose
// launches change comes back.
//
// Short launches (ChooserOptions::ShortUs, GMEM_PREEMPT_SHORT_US; 8 us by
// default). A kernel that takes a few microseconds as compiled ends about
// as soon as its clone would stop (the signalling alone takes ~3-6 us on
// the H200), while the clone and its stream operations cost such a kernel
// +30..+80% (bench/preempt/results/session30, tiny_manifest.txt). So a
// shape whose fastest clone form ran within ShortCloneFactor x ShortUs
// times the kernel as compiled once, and while that time is at most
// ShortUs its launches run the original (Short), re-timed every
// FullTimingEvery-th launch (every eighth of that while the shape has fewer
// than four times: one time near the limit decides little). The time held
// against the limit is the least
// of the latest four (a timing not latched by the scheduler, a function's
// first launch or one behind work that ended just then, may hold the
// host's launch call), a varying shape's the largest (its launches' work
// differs). The scheduler may leave the gate wait out in
// front of such launches as long as the work of them behind the stream's
// latest gate stays within a budget (Scheduler::shortLaunch): a suppression
// then lets at most that much more of the stream's short work start.
//
// Pure logic, no driver: the scheduler feeds it shape keys and timings
// (under the context's lock).
#pragma once

#include "KeyedCache.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace gmem {
namespace rt {
namespace sched {

enum class CloneKind : uint8_t { Full, Light, Alt, Free };
constexpr size_t CloneKindCount = 4;

/// "full", "light", "alt" or "free" (messages).
const char *cloneKindName(CloneKind K);

/// How one launch of a shape is made.
struct CloneChoice {
  CloneKind Kind = CloneKind::Full;
  bool Timed = false; ///< record its run time (EvStart .. EvDrain) for record()
  /// P is this many times the resident CTAs (persistent clones; "Spread" above).
  uint8_t Spread = 1;
  /// Run the kernel as compiled, not a clone ("Overhead cap" above); Timed
  /// then asks for its time through recordOriginal.
  bool Original = false;
  /// Original because the kernel as compiled ends about as soon as a clone
  /// would stop, or to time it for that ("Short launches" above): the
  /// scheduler may leave the gate wait in front of one whose shape's time
  /// as compiled is within the limit out.
  bool Short = false;
  /// Segment scale s (flag PreSegmentScale; "Segment scale" in
  /// CloneScale.cpp): the launch's static loop segments run K << s
  /// iterations.
  uint8_t Scale = 0;
  /// Stop this launch once it runs and report its drain (recordScaleStop):
  /// Scale is a candidate whose stops are not yet measured.
  bool StopProbe = false;
};

/// The shortest virtual CTA that takes the light twin's late read: the
/// pass's default GMEM_CHECKPOINT_LATE (8192 SM cycles) at 1980 MHz, about
/// 4 us. SchedClone.cpp's LightOkMinTauUs for clones without loop checkpoints.
inline constexpr double LateReadMinTauUs = 4.0;

struct ChooserOptions {
  double LightMaxUs = 3.0;        ///< tau up to which a shape runs light
  /// tau up to which a decided full-form shape tries the light twin once,
  /// timed: it stays light only where that timing beats its own form's
  /// (0: never). The twin's stops then wait for up to one virtual CTA, so
  /// this stays within the goal's slack (2 x LightMaxUs).
  double LightTimedMaxUs = 0;
  /// choose's LightOk holds only for shapes whose latest tau is at least
  /// this (0: always). For a clone without loop checkpoints the twin is the
  /// full clone plus the late read, which only virtual CTAs of
  /// LateReadMinTauUs or more take: on shorter ones it stops nothing sooner.
  double LightOkMinTauUs = 0;
  unsigned LightTimingEvery = 16; ///< light launches: the first and every 16th timed
  unsigned FullTimingEvery = 64;  ///< full-form launches of a decided shape: every 64th timed
  bool HasLight = true;           ///< the light twin may be chosen
  bool HasAlt = false;            ///< the alternate full form may be chosen
  bool HasFree = false;           ///< the barrier-free form may be chosen (idempotent launches)
  /// A decided full-form shape times the other forms once every 1024
  /// launches: a comparison made once may not hold for the rest of a run.
  unsigned FormRetimeEvery = 1024;
  /// The alternate or free form must be faster than the full clone by more
  /// than this fraction (timing noise must not make a shape flip between
  /// forms). Between the two of them the faster wins.
  double AltMargin = 0.02;
  /// Batched clones: the time a check interval of virtual CTAs may take
  /// (batchFor; GMEM_PREEMPT_BATCH_US, 0: every virtual CTA).
  double BatchUs = 4.0;
  /// The spread a shape may try besides 1 (1: never; the scheduler passes
  /// GMEM_PREEMPT_SPREAD's, 4 by default).
  unsigned SpreadMax = 1;
  /// "Overhead cap": the largest fraction a launch may run slower than the
  /// kernel as compiled (GMEM_PREEMPT_MAX_OVERHEAD in percent; 0: no cap).
  double MaxOverhead = 0;
  /// "Short launches": a shape whose kernel as compiled takes at most this
  /// runs as compiled (GMEM_PREEMPT_SHORT_US; 0: never).
  double ShortUs = 0;
  /// Only shapes whose fastest clone form took at most this many times
  /// ShortUs have their original timed for it.
  double ShortCloneFactor = 3.0;
  /// "Segment scale": the largest s a shape may try (0: never; the
  /// scheduler passes GMEM_PREEMPT_SEG_SCALE's for clones with the flag).
  unsigned ScaleMax = 0;
  /// A candidate s is kept only where the median of ScaleStops stops of it
  /// drained within ScaleStopUs of their request (GMEM_PREEMPT_SEG_STOP_US)
  /// and none took over ScaleStopMaxUs (the goal's P99).
  double ScaleStopUs = 7.0;
  double ScaleStopMaxUs = 10.0;
  /// A candidate s goes on to its stop probes only where the median of
  /// ScalePairs timings of it beats the median of as many timings of the
  /// shape's own scale, taken alternately with them, by more than
  /// ScaleMargin (GMEM_PREEMPT_SEG_PAIRS, GMEM_PREEMPT_SEG_MARGIN). One
  /// launch's time varies by ~1% (H200), so a single timing against the
  /// latest own time needed a 2% margin, and refused the 1.4-1.8% that one
  /// more scale step gives store-bound paced loops (iota_i32, saxpy_gs;
  /// bench/preempt/results/session41). ScalePairs 1 is the single timing
  /// against the own form's latest time.
  unsigned ScalePairs = 3;
  double ScaleMargin = 0.01;
  static constexpr unsigned ScalePairsMax = 7;
  static constexpr unsigned ScaleStops = 5;
  /// Stop probes that found the launch finished before the request landed
  /// before a candidate is given up (a launch too short to stop says
  /// nothing of its segments).
  unsigned ScaleMisses = 4;
};

class CloneChooser {
public:
  enum class State : uint8_t { Unknown, Full, Alt, Light, Free };
  /// Shapes remembered per clone; beyond, the oldest slot is reused (round
  /// robin): programs launch few shapes, and a forgotten one only costs a
  /// timed full launch.
  static constexpr size_t MaxShapes = 64;
  /// A varying shape's tau: the largest of this many latest timings.
  static constexpr size_t VaryingTaus = 4;

  /// What a timing did to its shape.
  struct Outcome {
    bool Used = false; ///< the shape is still known (else the sample is dropped)
    double TauUs = 0;
    State From = State::Unknown, To = State::Unknown;
    /// Whether the shape's launches now use another clone (a shape not yet
    /// decided runs full: deciding Full changes nothing).
    bool switched() const { return Used && kindOf(From) != kindOf(To); }
    /// The shape's launches now run at another spread (Spread).
    bool SpreadSwitched = false;
    unsigned Spread = 1; ///< the shape's spread after this timing
  };

  explicit CloneChooser(ChooserOptions O = ChooserOptions()) : Opts(O) {}

  /// The clone for the next launch of shape Key (counts the launch).
  /// FreeOk: the launch was proved idempotent, so it may run the free form
  /// (never otherwise: where the shape's state says free it gets the full
  /// clone, untimed, and a comparison waiting for a free timing goes on
  /// without one).
  /// LightOk: the launch stops only between virtual CTAs in every form (not
  /// proved idempotent, or no loop checkpoints to arm): light by timing
  /// (above) even where the shape's tau does not send it light, unless the
  /// shape's latest tau is below LightOkMinTauUs.
  /// Varying: Key stands for launches of differing scalar arguments
  /// (VaryingShapes.h), taken into account when the shape is first seen:
  /// its tau is then the largest of its latest VaryingTaus timings.
  /// StopOk: the launch's loop checkpoints are armed (proved idempotent),
  /// so it may be a segment scale's stop probe.
  CloneChoice choose(uint64_t Key, bool FreeOk = false, bool LightOk = false,
                     bool Varying = false, bool StopOk = false);
  /// A timed launch of shape Key, made with Kind at Spread, ran ElapsedUs
  /// without being preempted, over Total virtual CTAs of which Resident ran
  /// at once (P, or for a spread launch the CTAs the GPU keeps resident).
  /// StreamUs (0: not timed): the same launch's time in the program's
  /// stream, from the clone's start to the stream passing it (its trailing
  /// hold wait and events): what the overhead cap holds against the
  /// original, beside ElapsedUs.
  /// Scale: the launch's segment scale (a candidate's timing is compared
  /// with the shape's current one and decides nothing else).
  Outcome record(uint64_t Key, CloneKind Kind, double ElapsedUs, uint64_t Total,
                 uint64_t Resident, unsigned Spread = 1, double StreamUs = 0,
                 unsigned Scale = 0);
  /// A stop probe of shape Key at segment scale Scale drained DrainUs after
  /// its request (negative: the launch had finished before the request
  /// landed). Returns whether the shape still waited for it.
  bool recordScaleStop(uint64_t Key, unsigned Scale, double DrainUs);
  /// Whether shape Key still wants a stop probe at Scale (a launch made a
  /// probe may find the verdict given by the time it runs).
  bool scaleStopWanted(uint64_t Key, unsigned Scale) const;
  /// Shape Key's current segment scale (0: none or not remembered).
  unsigned scaleOf(uint64_t Key) const;
  /// The time of shape Key's candidate scale's timed launch (0: none).
  double scaleTryUs(uint64_t Key) const;
  /// A timed launch of shape Key run as compiled (CloneChoice::Original)
  /// took ElapsedUs. Provisional: it may hold the host's launch call (an
  /// idle stream the latch could not hold: the function's first launch),
  /// so another time stays due at once. Returns whether the shape is still
  /// remembered.
  bool recordOriginal(uint64_t Key, double ElapsedUs, bool Provisional = false);
  /// A launch of shape Key as compiled went onto its stream timed: the
  /// short launches' due timing is taken (a stream with many launches in
  /// flight would otherwise time each until the first time came back: up
  /// to eight timed launches, two timing events each, for one due time).
  void originalTimed(uint64_t Key);
  /// Shape Key's latest time as compiled (0: none).
  double originalUs(uint64_t Key) const;
  /// The time as compiled "Short launches" holds against the limit for
  /// shape Key: the least of its latest VaryingTaus times (an unlatched
  /// timing may hold the host's launch call), a varying shape's largest
  /// (0: none).
  double shortBoundUs(uint64_t Key) const;
  /// Shape Key's launches cannot use form Kind, light, alternate or free (no
  /// resident grid for it: occupancy depends on the shape's block and shared
  /// memory only): never chosen again for it; a shape on that form goes
  /// back to the full clone (from light: to the full forms' comparison), a
  /// comparison goes on without it.
  void unfit(uint64_t Key, CloneKind Kind);
  void altUnfit(uint64_t Key) { unfit(Key, CloneKind::Alt); }
  void freeUnfit(uint64_t Key) { unfit(Key, CloneKind::Free); }

  /// Shape Key's state (Unknown when not remembered).
  State state(uint64_t Key) const;
  /// The latest time of the form shape Key runs, once its choice has
  /// settled: decided, no comparison, spread probe, light trial or segment
  /// scale candidate waiting for a timing. 0 otherwise (or not remembered).
  /// What a caller comparing whole launches of related shapes (the grid a
  /// grid-stride launch runs on, GridStrideTuner.h) holds against another.
  double settledUs(uint64_t Key) const;
  /// The check interval for shape Key's next batched launch: as many
  /// virtual CTAs as fit in BatchUs at the latest undisturbed timing's tau
  /// (1 .. 65535), 1 while the shape has none. A stop then waits for at most
  /// about BatchUs more than one virtual CTA.
  unsigned batchFor(uint64_t Key) const;
  /// Shape Key's latest undisturbed virtual CTA time (0: none known).
  double tauOf(uint64_t Key) const;
  size_t shapes() const { return Entries.size(); }
  const ChooserOptions &options() const { return Opts; }

  /// One virtual CTA's run time: the launch's time over its rounds
  /// (ceil(Total / P): the virtual CTAs one persistent CTA runs in turn).
  static double tauUs(double ElapsedUs, uint64_t Total, uint64_t P);
  static const char *name(State S);
  /// The clone a state's launches use (Unknown: full).
  static CloneKind kindOf(State S);

private:
  struct Entry {
    uint64_t Key = 0;
    State St = State::Unknown;
    /// A comparison of the full forms in progress: the forms whose timings
    /// it still waits for, in order (launches run Probes[0], timed, until
    /// its timing arrives; the last one's decides).
    CloneKind Probes[3] = {};
    uint8_t NProbes = 0;
    bool First = false;    ///< the shape's first comparison (Full timed once more, last)
    uint8_t Unfit = 0;     ///< bit per CloneKind: unfit()
    uint32_t Launches = 0; ///< since the shape entered St or was last compared
    /// Latest undisturbed run time of each form, by CloneKind (0: none).
    /// Whole launches, not tau: the forms' P differ.
    double Us[CloneKindCount] = {};
    uint32_t LightOkRuns = 0; ///< light launches chosen for LightOk (timing cadence)
    /// Sent light by a full-form timing: the first light timing is compared
    /// with the full forms' times (record).
    bool CheckLight = false;
    /// Sent light for a trial (LightTimedMaxUs): the own form's time the
    /// first light timing must beat, with no margin (0: none).
    double LightRefUs = 0;
    /// A form was just decided: the next launch of it (after the spread
    /// probe) is timed, so that a shape with tau between LightMaxUs and
    /// LightTimedMaxUs has its light trial now, not 64 launches on.
    bool TrialDue = false;
    uint32_t OwnAsks = 0;     ///< LightOk launches while the own form had no time
    double TauUs = 0; ///< latest undisturbed timing's virtual CTA time (0: none)
    /// Launches of differing scalar arguments share the shape (choose's
    /// Varying): TauUs is the largest of RecentTau, the latest timings'.
    bool Varying = false;
    uint8_t NextTau = 0;
    double RecentTau[VaryingTaus] = {};
    uint8_t Spread = 1;         ///< the spread of the shape's launches
    bool SpreadPending = false; ///< a form was decided: time it at the other spread
    uint8_t SpreadProbe = 0;    ///< the spread of the timing awaited (0: none)
    /// The comparison in progress was started by a spread switch: its
    /// decision asks for no spread probe.
    bool SpreadCompared = false;
    CloneKind SpreadProbeKind = CloneKind::Full;
    /// LightOk launches: the twin has its first time at the shape's spread,
    /// so the next one runs it at the other spread, timed (chooseForm).
    bool LightSpreadPending = false;
    /// The latest times as compiled, oldest first from NextOrig (0: none);
    /// latestOriginal() is the overhead cap's, shortBoundUs() the short
    /// launches'.
    double RecentOrig[VaryingTaus] = {};
    uint8_t NextOrig = 0;
    double latestOriginal() const {
      return RecentOrig[(NextOrig + VaryingTaus - 1) % VaryingTaus];
    }
    uint32_t ShortSeen = 0;  ///< launches "Short launches" has seen
    bool OrigDue = false;    ///< "Short launches": a time as compiled is due
    uint32_t CapSeen = 0;    ///< launches the cap has seen
    uint32_t CapRuns = 0;    ///< launches whose form was over the cap
    uint32_t LightAsks = 0;  ///< capped launches while the light twin had no time
    /// By CloneKind: what a launch of the form costs the program's stream
    /// beyond its own run (record's StreamUs - ElapsedUs, latest; a property
    /// of the launch path, kept across comparisons).
    double StreamExtraUs[CloneKindCount] = {};
    // "Segment scale" (CloneScale.cpp).
    uint8_t Scale = 0;          ///< of the shape's launches (full forms)
    uint8_t ScaleCeil = 3;      ///< the largest s still to try
    uint8_t ScaleTry = 0;       ///< candidate s (0: none)
    uint8_t ScaleStopsOk = 0, ScaleMissed = 0, ScaleWait = 0;
    double ScaleDrainUs[ChooserOptions::ScaleStops] = {}; ///< the probes' so far
    /// The candidate's time, once its timings came and were faster (0: not yet).
    double ScaleTryUs = 0;
    /// The candidate's timings so far and the own scale's taken between
    /// them (ScalePairs), and which of the two the next timed launch is.
    double ScaleCandUs[ChooserOptions::ScalePairsMax] = {};
    double ScaleOwnUs[ChooserOptions::ScalePairsMax] = {};
    uint8_t ScaleNCand = 0, ScaleNOwn = 0;
    bool ScaleOwnNext = false;
    bool scaleTimed() const { return ScaleTryUs > 0; }
    CloneKind ScaleKind = CloneKind::Full; ///< the form whose scale this is
    uint8_t ScaleSpread = 1;               ///< ... at this spread
  };
  ChooserOptions Opts;
  KeyedCache<Entry, MaxShapes> Entries;

  /// The entry of Key, null when not remembered.
  const Entry *lookup(uint64_t Key) const { return Entries.lookup(Key); }
  Entry *find(uint64_t Key) { return Entries.find(Key); }
  /// Whether E's launches may use full form K (the full clone always).
  bool available(const Entry &E, CloneKind K) const;
  void enter(Entry &E, State S);
  /// E enters the full forms from Unknown or Light: Full, and with another
  /// full form the first comparison.
  void enterFullForms(Entry &E);
  /// Queues the forms a comparison times: the first one every other form,
  /// then Full; a later one every form but E's own. Nothing when there is
  /// nothing to compare.
  void startComparison(Entry &E, bool First);
  /// The comparison goes on without form K (unfit, or a launch that may not
  /// run it); abandoned when nothing is left to compare with the full clone.
  void dropProbe(Entry &E, CloneKind K);
  /// After a decision: the launch that times the decided form at the other
  /// spread (C already made for the shape's own form).
  void probeSpread(Entry &E, CloneChoice &C);
  /// C (of E's shape) becomes the timed launch of its form at the spread
  /// other than E's, and E waits for that timing (record).
  void startSpreadProbe(Entry &E, CloneChoice &C);
  /// The comparison's verdict: the faster of the alternate and free forms,
  /// only when faster than FullRefUs by more than the margin; else Full.
  void decide(Entry &E, double FullRefUs);
  /// choose() before the cap: the form by the rules above.
  CloneChoice chooseForm(Entry &E, bool FreeOk, bool LightOk);
  /// "Overhead cap": C, or the light twin or the original where C's form is
  /// over the cap.
  void applyCap(Entry &E, CloneChoice &C);
  /// "Short launches": whether C became the kernel as compiled (a short
  /// shape's launch, or one that times the original for that).
  bool applyShort(Entry &E, CloneChoice &C);
  /// "Segment scale": C's scale, a candidate's timed launch or stop probe.
  void applyScale(Entry &E, CloneChoice &C, bool StopOk);
  /// E's scale back to 0, every candidate from 1 to try again.
  void resetScale(Entry &E);
  /// The candidate's timed launch took ElapsedUs.
  void candidateTimed(Entry &E, double ElapsedUs);
  /// A timed launch of the shape's own scale, taken between the
  /// candidate's, took ElapsedUs.
  void ownScaleTimed(Entry &E, double ElapsedUs);
  /// Both sides of the candidate's timings are in: on to its stop probes,
  /// or given up.
  void compareScale(Entry &E);
  /// E has no candidate scale (its timings and probes forgotten).
  static void clearCandidate(Entry &E);
  /// Timings of each side a candidate scale is compared on.
  unsigned pairs() const {
    return std::clamp(Opts.ScalePairs, 1u, ChooserOptions::ScalePairsMax);
  }
  /// A candidate's verdict: E's launches run at it (Keep) or never try it.
  void settleScale(Entry &E, bool Keep);
};

} // namespace sched
} // namespace rt
} // namespace gmem

// The scheduler's options (SchedOptions::fromEnvironment, in SchedApi.cpp,
// reads them from the environment) and the priority names they accept.
// Kept apart from Scheduler.h (the scheduler class) so that file stays
// under the ~600-line limit; Scheduler.h includes it.
#pragma once

#include "gmem/gmem_sched.h"

#include <cstdint>

namespace gmem {
namespace rt {
namespace sched {

struct SchedOptions {
  bool Forbidden = false;     ///< GMEM_SCHED=0 or GMEM_DISABLE=1
  bool ActiveAtStart = false; ///< GMEM_SCHED=1 or GMEM_PRIORITY set
  int ProcessPriority = GMEM_PRIORITY_BEST_EFFORT;
  uint64_t MaxHoldNs = 50'000'000;
  uint64_t ResumeLingerNs = 100'000; ///< chains of urgent kernels leave short idle gaps
  /// GMEM_SCHED_POLICY=strict|fair: the policy at start (gmemSchedSetPolicy
  /// switches it later).
  int Policy = GMEM_SCHED_POLICY_STRICT;
  /// Fair share (SchedPolicy.h): the share of time every level below the
  /// top keeps unsuppressed (GMEM_SCHED_SHARE, percent), over an
  /// exponentially weighted window (GMEM_SCHED_SHARE_WINDOW_MS), and the
  /// slice a starved level then runs for (GMEM_SCHED_SHARE_SLICE_US): the
  /// urgent work queued during a slice waits up to that long.
  double MinShare = 0.25;
  uint64_t ShareWindowNs = 20'000'000;
  uint64_t ShareSliceNs = 2'000'000;
  unsigned MaxSlots = 1024;
  bool Log = false;          ///< GMEM_LOG contains "sched"
  bool LogErrors = true;     ///< GMEM_LOG is not "none"
  bool MonitorThread = true; ///< tests drive poll() themselves
  uint64_t PollIntervalNs = 20'000;
  /// Poll interval while only relaunches are watched (nothing suppressed;
  /// GMEM_SCHED_WATCH_US): each poll's driver queries share the driver with
  /// the program's launches.
  uint64_t WatchIntervalNs = 80'000;
  /// Time the drain of the preemptions of one launch in DrainSampleEvery
  /// (GMEM_SCHED_DRAIN_SAMPLE), chosen when it is made: such a launch's
  /// drain event has a timestamp (~1.2 us of its stream on the H200), and
  /// the event that starts the timing costs the urgent launch a driver call
  /// (~3 us on the H200's host), so not every launch pays them.
  unsigned DrainSampleEvery = 8;
  /// Whether every clone launch waits on its level's gate
  /// (GMEM_SCHED_GATE=always); else only those a stop request could miss
  /// (Scheduler::gatedLaunch).
  bool GateAlways = false;
  /// Light twins of persistent clones (CloneChoice.h): GMEM_PREEMPT_LIGHT=0
  /// keeps every launch on the full clone; a shape whose virtual CTAs take
  /// at most LightMaxUs (GMEM_PREEMPT_LIGHT_US) runs light.
  bool Light = true;
  double LightMaxUs = 3.0;
  /// A decided shape whose virtual CTAs take at most LightTimedMaxUs
  /// (GMEM_PREEMPT_LIGHT_TIMED_US; 0: never) tries the light twin once and
  /// keeps it where it is faster (ChooserOptions::LightTimedMaxUs).
  double LightTimedMaxUs = 6.0;
  /// Alternate full forms of persistent clones (CloneChoice.h):
  /// GMEM_PREEMPT_ALT=0 never launches them; else each shape that stays on
  /// a full form runs the faster of the two by timing.
  bool Alt = true;
  /// Barrier-free forms of persistent clones (CloneChoice.h), for launches
  /// proved idempotent only: GMEM_PREEMPT_FREE=0 never launches them; else
  /// they take part in the same timing as the alternate forms.
  bool Free = true;
  /// Kernels that are one grid-stride loop (PreGridStride): a launch proved
  /// idempotent may run its persistent forms on a grid of ceil(n / (T x
  /// blockDim.x)) virtual CTAs, T loop trips each (GridStride.h). By
  /// default (GMEM_PREEMPT_GRID_STRIDE=auto) T is chosen per launch shape
  /// by timing, the launch's own grid included (GridStrideTuner.h); a
  /// number T fixes it (GridStrideTrips, GridStrideAuto off); 0 keeps every
  /// launch's grid.
  unsigned GridStrideTrips = 0;
  bool GridStrideAuto = true;
  /// Batched persistent clones (PreBatched): a check interval of about
  /// BatchUs (GMEM_PREEMPT_BATCH_US; 0: look after every virtual CTA) from
  /// the shape's measured virtual CTA time (CloneChooser::batchFor).
  double BatchUs = 4.0;
  /// Spread of persistent clones (CloneChoice.h): a shape may run
  /// SpreadMax times the resident CTAs where timing finds that faster
  /// (GMEM_PREEMPT_SPREAD, 1..64; 1: never).
  unsigned SpreadMax = 4;
  /// Segment scale of clones with PreSegmentScale (CloneScale.cpp): the
  /// largest s a shape may try, 0..3 (GMEM_PREEMPT_SEG_SCALE; 0: never),
  /// kept where faster and the median of its five stop probes drained
  /// within SegStopUs (GMEM_PREEMPT_SEG_STOP_US), none over 10 us. Checked
  /// against random stops of the same kernels in the same call (H200,
  /// bench/preempt/results/session38: probe medians within ~1 us of their
  /// P50, every shape raised under 9 us at P99); session 37's probes read
  /// 1-4 us low only beside stops of another call.
  unsigned SegScaleMax = 3;
  double SegStopUs = 7.0;
  /// A candidate scale's timings and the own scale's taken between them
  /// (CloneChoice.h ScalePairs; GMEM_PREEMPT_SEG_PAIRS, 1..7) and the margin
  /// their medians must show (GMEM_PREEMPT_SEG_MARGIN, percent).
  unsigned SegPairs = 3;
  double SegMargin = 0.01;
  /// A stop probe stops its launch at a random moment 30-60% of its
  /// measured time after the monitor first sees it run (SchedScale.cpp);
  /// false: at once (tests).
  bool ScaleProbeMidRun = true;
  /// Launches of a kernel whose scalar arguments change on every launch
  /// share one chooser shape per grid, block and shared memory
  /// (VaryingShapes.h; GMEM_PREEMPT_VARYING=0: every argument set is a
  /// shape of its own).
  bool Varying = true;
  /// Short launches (CloneChoice.h): a shape whose kernel as compiled takes
  /// at most this runs as compiled, and up to ShortGateFactor times this of
  /// such launches' work may go onto a stream behind its latest gate
  /// (GMEM_PREEMPT_SHORT_US; 0: never). 8 us: a clone of a kernel with
  /// short virtual CTAs stops at a P99 of 4-8 us after the request is
  /// written (H200), so a kernel of 8 us ends about as soon.
  double ShortUs = 8.0;
  static constexpr double ShortGateFactor = 1.0;
  /// A timed launch (a clone form or the kernel as compiled) on an idle
  /// stream waits for the context's latch counter until its start mark,
  /// launch and end mark are all on the stream (the host then
  /// raises it): otherwise the start mark passes at once and the time holds
  /// the rest of the host's launch call (~3 us on the H200's host: more
  /// than a short kernel's own time, and enough to flip a 2% comparison of
  /// forms). (GMEM_PREEMPT_LATCH=0: no latch; Scheduler::latch.)
  bool LatchIdleTimings = true;
  /// A latch still shut this long after it was put on a stream is opened
  /// by the latch watchdog (a thread of its own), and that timing dropped:
  /// the launching thread is then blocked in the driver (or descheduled),
  /// and a driver that waits for the context's streams while it holds that
  /// thread would otherwise wait forever (Scheduler::latch).
  uint64_t LatchWatchdogNs = 2000000;
  /// Diagnostics only (GMEM_PREEMPT_LATCH_FIRST=1): latch a function's first
  /// launch in a context too; those the driver holds (a printf kernel's
  /// first) become the watchdog's work and show in latch_watchdog_opens.
  bool LatchFirstLaunches = false;
  /// A function's first launch in a context, and a code load, go onto the
  /// GPU only while nothing of the context waits at a closed gate or a
  /// preempted launch's hold; an urgent first launch stops nothing
  /// (GMEM_SCHED_FIRST_QUIET=0: off, for diagnostics). The driver may make such a launch wait for
  /// every stream's queued work and every stream's later work wait for it:
  /// the write that would open the gate or hold then never lands
  /// (SchedFirstLaunch.cpp).
  bool QuietFirstLaunches = true;
  /// A first launch or code load waits at most this long for the context
  /// to become quiet; then it goes on anyway, with an error.
  uint64_t FirstQuietMaxNs = 2000000000;
  /// Overhead cap (CloneChoice.h): a launch runs a form at most this
  /// fraction slower than the kernel as compiled, else the light twin or the
  /// kernel itself (GMEM_PREEMPT_MAX_OVERHEAD, in percent; 0: no cap).
  double MaxOverhead = 0;
  /// GMEM_SCHED_L2=persist: what top-priority launches read stays in L2
  /// (see Scheduler::keepUrgentReadsInL2). Off by default: it sets aside
  /// part of L2 for the whole context.
  bool L2Persist = false;
  /// Chaos testing (GMEM_SCHED_CHAOS=<us>): the monitor preempts every
  /// level below real time at random moments, on average every
  /// ChaosIntervalNs while preemptible launches are in flight, and resumes
  /// them after a random hold of up to ChaosIntervalNs / 2, exactly as if
  /// urgent work had come and gone. A program's results must not change:
  /// a way to check any program built with gmem under preemption without
  /// writing urgent work for it. 0: off. ChaosSeed (GMEM_SCHED_CHAOS_SEED)
  /// makes the moments repeatable for a given program run.
  uint64_t ChaosIntervalNs = 0;
  uint64_t ChaosSeed = 0x9e3779b97f4a7c15ull;
  /// Launches of one stream that may wait on the GPU behind a closed gate
  /// or a preempted launch (GMEM_SCHED_MAX_QUEUED); more wait on the host
  /// (Scheduler::holdOnHost): a stream that does not move fills up, and the
  /// driver blocks the call that enqueues on it.
  unsigned HostHoldAfter = 16;
  static SchedOptions fromEnvironment();
};

/// Parses "realtime"/"rt", "best-effort"/"be" or 0..15; -1 when invalid.
int parsePriority(const char *Text);

} // namespace sched
} // namespace rt
} // namespace gmem

//===- CheckpointOptions.cpp - The pass's environment knobs ---------------===//
//
// Compile-time switches and numbers read from the environment (all
// GMEM_CHECKPOINT_*), each with the measurement that chose its default.
//
//===----------------------------------------------------------------------===//

#include "CheckpointLoopPace.h"
#include "gmem/passes/CheckpointInserter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <string>

using namespace llvm;

namespace gmem::ckpt {

/// GMEM_CHECKPOINT_LOOPS=0: entry (between-CTA) checkpoints only. Loops
/// keep their original code; a preemption then waits for running CTAs.
bool loopCheckpointsEnabled() { return !envSaysOff("GMEM_CHECKPOINT_LOOPS"); }

/// GMEM_CHECKPOINT_DEFER=0: a loop followed by a barrier or a warp
/// collective gets no checkpoint (as before deferred stops,
/// CheckpointDeferredStop.cpp): its launches stop between CTAs only.
/// Default (`static`): its checks count the static K (grid-stride loops
/// excepted, CheckpointLoops.cpp); `paced`: they are paced like any other
/// min/max loop. Same call on the H200 (bench/preempt/
/// results/parts/defer): paced, P99 after the write gemv_warp 3.2 us,
/// softmax_rows 7.3, warp_reduce_sum 4.0 at +29.8 / +21.7 / +10.0%; static
/// 6.6 / 11.5 / 28.8 us at +8.7 / +10.2 / +1.9%; off 25.1 / 20.1 us at
/// +2.8 / +5.1 / +0.2% (the short rows of these kernels end a paced loop's
/// first segments before its pace has grown).
bool deferredStopsEnabled() { return !envSaysOff("GMEM_CHECKPOINT_DEFER"); }
bool deferredStopsPaced() {
  const char *V = std::getenv("GMEM_CHECKPOINT_DEFER");
  return V && StringRef(V).trim().lower() == "paced";
}
/// GMEM_CHECKPOINT_MEET_READ=0: a meeting point decides on the jumps alone,
/// without reading the request itself.
bool meetingPointsRead() { return !envSaysOff("GMEM_CHECKPOINT_MEET_READ"); }
/// GMEM_CHECKPOINT_JUMP_VALUE (experiments; CheckpointDeferredStop.cpp): by
/// default a value a deferred stop's jump skips is computed again at the
/// meeting point where it can be (pure instructions from values available
/// there), else it gets a phi with poison from the jump (a pointer: the
/// constant cast its address comes from, where there is one). `poison`: every
/// such value gets a phi with poison, as before session 45 (a shared pointer's
/// loads and stores then became generic); `cast`: phis only, with the casts.
bool jumpsCarryPoison() {
  const char *V = std::getenv("GMEM_CHECKPOINT_JUMP_VALUE");
  return V && StringRef(V).trim().lower() == "poison";
}
/// GMEM_CHECKPOINT_JUMP_VALUE=cast (experiments): no value is computed again
/// at the meeting point; pointers carry their cast through a phi.
bool jumpsCarryCast() {
  const char *V = std::getenv("GMEM_CHECKPOINT_JUMP_VALUE");
  return V && StringRef(V).trim().lower() == "cast";
}
/// GMEM_CHECKPOINT_CHAIN_REFRESH=sync (default `landed`): how an every-trip
/// check of a loop with chained loads refreshes the request cache. Such a
/// trip waits on dependent misses, and a warp whose check refreshes waits
/// for the control word's L2 round trip behind them: spmv_ell's clone ran
/// +7.7% over its kernel with the synchronous refresh, +2.2% with a refresh
/// every 16384 cycles (H200, bench/preempt/results/session39). Landed, the
/// check reads the cp.async landing area as paced loops do (sm_80+).
bool chainedChecksLanded() {
  const char *V = std::getenv("GMEM_CHECKPOINT_CHAIN_REFRESH");
  return !(V && StringRef(V).trim().lower() == "sync");
}
/// GMEM_CHECKPOINT_LIGHT=0: no light twins (smaller modules; every
/// preemptible launch then pays for its loop checkpoints). =loops: twins
/// only for kernels with loop checkpoints (as before the late read: launches
/// of the others then stop within up to two virtual CTAs).
bool lightTwinsEnabled() { return !envSaysOff("GMEM_CHECKPOINT_LIGHT"); }
bool lightTwinsForEveryKernel() {
  const char *V = std::getenv("GMEM_CHECKPOINT_LIGHT");
  return lightTwinsEnabled() && !(V && StringRef(V).trim().lower() == "loops");
}

/// GMEM_CHECKPOINT_ALT=0: no alternate full clones (smaller modules; the
/// runtime then has only the register form to launch).
bool altClonesEnabled() { return !envSaysOff("GMEM_CHECKPOINT_ALT"); }

/// GMEM_CHECKPOINT_FREE=0: no free clones (the runtime then keeps a
/// barrier per virtual CTA everywhere).
bool freeClonesEnabled() { return !envSaysOff("GMEM_CHECKPOINT_FREE"); }

/// GMEM_CHECKPOINT_GRID_STRIDE=0: no GridStride flag (the runtime then
/// keeps every launch's own grid).
bool gridStrideEnabled() { return !envSaysOff("GMEM_CHECKPOINT_GRID_STRIDE"); }

/// GMEM_CHECKPOINT_BATCH=0: no check intervals (flag Batched); every
/// persistent form then looks at the request after every virtual CTA.
bool batchingEnabled() { return !envSaysOff("GMEM_CHECKPOINT_BATCH"); }

/// GMEM_CHECKPOINT_SEG_SCALE=0 turns it off: persistent forms with
/// strip-mined or paced loop segments read a segment scale from grid_z (flag
/// SegmentScale), which libgmemrt raises per launch shape under
/// GMEM_PREEMPT_SEG_SCALE. On by default since the runtime's stop probes
/// were checked against random stops in the same call (H200,
/// bench/preempt/results/session38: every shape raised stopped within 9 us at
/// P99 in the form it runs; geomean as launched -0.45 points), at the price
/// of the scale's few instructions in kernels that never use it
/// (kmeans_assign +13.3% -> +15.5%).
bool segScaleEnabled() { return !envSaysOff("GMEM_CHECKPOINT_SEG_SCALE"); }

namespace {

/// Env variable Name as a whole decimal number 0..Max; Default when unset,
/// malformed or out of range.
unsigned unsignedFromEnv(const char *Name, unsigned long Max, unsigned Default) {
  if (const char *V = std::getenv(Name)) {
    char *End = nullptr;
    unsigned long N = std::strtoul(V, &End, 10);
    if (End != V && *End == '\0' && N <= Max)
      return unsigned(N);
  }
  return Default;
}

/// A pace target from env variable Name (SM cycles, at most 2^24): Unset
/// when it is unset or not a number, Same for 1 (the other loops' target).
unsigned paceFromEnv(const char *Name, unsigned Same, unsigned Unset) {
  unsigned N = unsignedFromEnv(Name, 1u << 24, Unset);
  return N == 1 ? Same : N;
}

} // namespace

/// GMEM_CHECKPOINT_REFRESH_ORDER (experiments): `after`: a request cache
/// refresh moves the deadline after its load, not before it; `sparse`: only
/// at checks that come round once per long iteration (cachedRequest in
/// CheckpointIR.cpp says what each changed on the H200). Unset: before.
RefreshOrder refreshOrder() {
  const char *V = std::getenv("GMEM_CHECKPOINT_REFRESH_ORDER");
  const std::string S = V ? StringRef(V).trim().lower() : std::string();
  return S == "after" ? RefreshOrder::After : S == "sparse" ? RefreshOrder::Sparse : RefreshOrder::Before;
}

/// GMEM_CHECKPOINT_PACE_COMPUTE: the segment target (SM cycles) of loops
/// that count with `!=` (LLVM's unrolled loops) and touch no memory; 0 keeps
/// them on the static K; unset or 1: the pace of the other loops.
unsigned computePaceCycles(unsigned PaceCycles) {
  return paceFromEnv("GMEM_CHECKPOINT_PACE_COMPUTE", PaceCycles, PaceCycles);
}

/// GMEM_CHECKPOINT_PACE_GRID: the segment target (SM cycles) of grid-stride
/// loops; unset: GridPaceFactor times the other loops'; 1: the same as
/// theirs; 0 keeps them on the static K.
unsigned gridPaceCycles(unsigned PaceCycles) {
  if (!PaceCycles)
    return 0;
  return paceFromEnv("GMEM_CHECKPOINT_PACE_GRID", PaceCycles,
                     std::min(GridPaceFactor * PaceCycles, 1u << 24));
}


/// GMEM_CHECKPOINT_TAIL=percent of the virtual CTAs the twins (alternate
/// form, light twin) of a barrier kernel that cannot batch hand out on
/// demand at the end (default 25, at most 100, 0: none). Every CTA-protocol
/// form with it, on the H200 (bench/preempt/results/parts/tail-25): scan
/// +31% -> +11%, gemm_tiled16 +19% -> +8%, bitonic sort's twin +36% ->
/// +19%, softmax +6% -> +2%, but one atomic per short virtual CTA
/// serialised reduce (+12% -> +32%) and transpose_tiled (+4% -> +25%), and
/// the carried state cost nbody's loop its registers (+1% -> +64%). So only
/// the forms the runtime chooses by timing have it, never the main clone.
unsigned tailPercentFromEnv() { return unsignedFromEnv("GMEM_CHECKPOINT_TAIL", 100, 25); }

/// Which persistent forms end a virtual CTA with a plain barrier and a
/// shared stop word instead of `bar.red.or` (GMEM_CHECKPOINT_VSTOP=auto,
/// the default; light; all; reduce: none). Same-call A/Bs on the H200
/// (bench/preempt/results/parts/vstop): with bar.red.or replaced in a
/// hand-edited PTX, bitonic sort's light twin went from +19% to +6% over
/// its kernel; built into every form, the light twins gained (im2col +19%
/// -> -1%, stencil3d +53% -> +25%) and so did the forms of kernels without
/// shared memory (relu, saxpy, floyd_warshall, odd_even_step 2-3 points,
/// gemm_naive's full clone +68% -> +48%), but ptxas compiled some forms of
/// shared-memory kernels worse (nbody +1% -> +64%, reduce +12% -> +19%,
/// transpose_tiled +3% -> +18%, gemm_tiled16's alternate +8% -> +21%).
/// Auto: the light twins, and every form of a kernel without shared memory,
/// whose end-of-virtual-CTA barrier is only there for the decision.
StampedForms stampedFormsFromEnv() {
  const char *V = std::getenv("GMEM_CHECKPOINT_VSTOP");
  if (!V)
    return StampedForms::Auto;
  const std::string S = StringRef(V).trim().lower();
  if (S == "reduce")
    return StampedForms::None;
  if (S == "light")
    return StampedForms::Light;
  return S == "all" ? StampedForms::All : StampedForms::Auto;
}

/// GMEM_CHECKPOINT_STATE=shared: the main clone keeps its loop state in
/// shared memory too (the alternate form's; for experiments).
bool mainStateInShared() {
  const char *V = std::getenv("GMEM_CHECKPOINT_STATE");
  return V && StringRef(V).trim().lower() == "shared";
}

unsigned budgetFromEnv() {
  if (const char *V = std::getenv("GMEM_CHECKPOINT_BUDGET")) {
    unsigned long N = std::strtoul(V, nullptr, 10);
    if (N >= 1 && N <= (1u << 20))
      return unsigned(N);
  }
  return DefaultCheckpointBudget;
}

/// GMEM_CHECKPOINT_REFRESH: SM cycles a request value read from the control
/// word may be reused by per-thread loop checks (through the CTA's shared
/// cache); 0: no cache, every check reads the word.
unsigned refreshCyclesFromEnv() {
  return unsignedFromEnv("GMEM_CHECKPOINT_REFRESH", 1u << 24, DefaultRefreshCycles);
}

/// GMEM_CHECKPOINT_PACE: target SM cycles of a strip-mined loop segment,
/// timed on %clock (DefaultPaceCycles; 0: segments of the static K, as the
/// cost model gives it). Why: CheckpointLoopPace.cpp.
unsigned paceCyclesFromEnv() {
  return unsignedFromEnv("GMEM_CHECKPOINT_PACE", 1u << 24, DefaultPaceCycles);
}

/// GMEM_CHECKPOINT_PACE_FORM: where a paced loop checks. `auto` (default):
/// inside its body (a segment counter in a header phi) where the loop
/// touches memory, strip-mined segments where it does not; `segment`: always
/// strip-mined (as before session 43); `body`: always inside the body. Why:
/// CheckpointLatchCheck.cpp, checkPacedInBody.
PacedForm pacedForm() {
  static const PacedForm Form = [] {
    const char *V = std::getenv("GMEM_CHECKPOINT_PACE_FORM");
    StringRef S = V ? StringRef(V).trim() : StringRef();
    if (S.equals_insensitive("segment"))
      return PacedForm::Segment;
    if (S.equals_insensitive("body"))
      return PacedForm::Body;
    if (!S.empty() && !S.equals_insensitive("auto"))
      errs() << "gmem: warning: GMEM_CHECKPOINT_PACE_FORM=" << S
             << " is not auto, segment or body; using auto\n";
    return PacedForm::Auto;
  }();
  return Form;
}

/// GMEM_CHECKPOINT_PREFETCH=load: paced loops read the request with a
/// volatile load issued at a segment's start instead of cp.async (which
/// needs sm_80+: older targets always load). Why: CheckpointLoopPace.cpp.
bool asyncPrefetchFor(const Function &Clone) {
  const char *V = std::getenv("GMEM_CHECKPOINT_PREFETCH");
  if (V && StringRef(V).trim().lower() == "load")
    return false;
  return nvptxSmVersion(Clone) >= 80;
}

/// GMEM_CHECKPOINT_SCOPE=volatile: the request word is read with a volatile
/// load, as before session 41, instead of `ld.relaxed.gpu` (which needs
/// sm_70+: older targets and AMDGPU always load volatile). Why:
/// CheckpointIR.cpp, loadRequest.
bool gpuScopeRequestReads(const Function &F) {
  const char *V = std::getenv("GMEM_CHECKPOINT_SCOPE");
  if (V && StringRef(V).trim().lower() == "volatile")
    return false;
  return nvptxSmVersion(F) >= 70;
}

unsigned nvptxSmVersion(const Function &F) {
  StringRef Cpu = F.getFnAttribute("target-cpu").getValueAsString();
  unsigned Sm = 0;
  if (!Cpu.consume_front("sm_") ||
      Cpu.take_while([](char Ch) { return isDigit(Ch); }).getAsInteger(10, Sm))
    return 0;
  return Sm;
}

/// GMEM_CHECKPOINT_LATE: SM cycles after which the end of a light twin's
/// virtual CTA reads the request again (DefaultLateReadCycles; 0: never).
/// The read at the start of a virtual CTA hides its latency behind the body
/// but misses a request that lands during it, so a stop between virtual
/// CTAs waited for the rest of the current one and the whole next one
/// (H200: P99 38.4 us with ~27 us virtual CTAs, 346.5 us with ~195 us ones;
/// 22.9 and 169.3 us with the late read, bench/preempt/results/parts/
/// late-read). The second read's round trip is exposed where warp 0 reaches
/// the barrier last, so only virtual CTAs long enough to amortise it take it.
unsigned lateReadCyclesFromEnv() {
  return unsignedFromEnv("GMEM_CHECKPOINT_LATE", 1u << 30, DefaultLateReadCycles);
}

/// GMEM_CHECKPOINT_LATE_FORMS=light (default) | alt | all: which CTA-protocol
/// forms take the late read. The full clone went without it because the
/// same latch code made ptxas schedule unrelated loops worse (nbody +1% ->
/// +25%); the alternate form is timed by the runtime against the full
/// clone, so a late read that costs it only loses it the choice.
LateReadForms lateReadFormsFromEnv() {
  const char *V = std::getenv("GMEM_CHECKPOINT_LATE_FORMS");
  const std::string S = V ? StringRef(V).trim().lower() : std::string();
  if (S == "alt")
    return LateReadForms::LightAndAlt;
  if (S == "all")
    return LateReadForms::All;
  return LateReadForms::Light;
}

} // namespace gmem::ckpt

// The scheduler's view of preemptible clones: their resolution per kernel
// and context, and for one launch the clone it runs (full clone, alternate
// or free form, or light twin: CloneChoice.h) with its plan. The launch path itself
// is in Scheduler.cpp.
#include "Scheduler.h"

#include "Runtime.h"

namespace gmem {
namespace rt {
namespace sched {

const CloneInfo *Scheduler::cloneOf(Context &C, const KernelEntry &E,
                                    std::unique_lock<std::mutex> &Lock) {
  auto It = C.Clones.find(&E);
  if (It != C.Clones.end())
    return It->second.get();
  // Resolving the clone loads its forms' code: in quiet
  // (SchedFirstLaunch.cpp). (Another thread may resolve it meanwhile.)
  quietForFirst(C, Lock, E.Symbol.c_str());
  It = C.Clones.find(&E);
  if (It != C.Clones.end())
    return It->second.get();
  std::unique_ptr<CloneInfo> CI(new CloneInfo(resolveClone(D, E)));
  // Each form's local memory, for its first launch (SchedFirstLaunch.cpp).
  for (CloneInfo::Form &F : CI->Forms)
    if (F.Fn && (D.funcGetAttribute(&F.LocalBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, F.Fn) !=
                     CUDA_SUCCESS ||
                 F.LocalBytes < 0))
      F.LocalBytes = -1;
  ChooserOptions CO;
  // Without loop checkpoints the light twin is the main clone plus the late
  // read: not faster by design, so short virtual CTAs are no reason to run
  // it. Every launch of such a kernel stops only between virtual CTAs
  // (planLaunch's LightOk), and the twin runs by timing, where it is within
  // the margin of the shape's own form and its virtual CTAs are long enough
  // to take the late read (H200: on shorter ones the margin let the twin
  // cost vec_add 1.4%, adam_step 1.1% for nothing; bench/preempt/results/
  // parts/late-read).
  CO.LightMaxUs = CI->loopStops() ? Opts.LightMaxUs : 0;
  CO.LightTimedMaxUs = CI->loopStops() ? Opts.LightTimedMaxUs : 0;
  CO.LightOkMinTauUs = CI->loopStops() ? 0 : LateReadMinTauUs;
  CO.BatchUs = Opts.BatchUs;
  CO.SpreadMax = Opts.SpreadMax;
  CO.ScaleMax = CI->persistent() && (CI->Flags & PreSegmentScale) ? Opts.SegScaleMax : 0;
  CO.ScaleStopUs = Opts.SegStopUs;
  CO.ScalePairs = Opts.SegPairs;
  CO.ScaleMargin = Opts.SegMargin;
  CO.MaxOverhead = Opts.MaxOverhead;
  CO.ShortUs = Opts.ShortUs;
  CO.HasLight = Opts.Light && CI->hasLight();
  CO.HasAlt = Opts.Alt && CI->hasAlt();
  CO.HasFree = Opts.Free && CI->hasFree();
  CI->Chooser = CloneChooser(CO);
  if (CI->Ok) {
    // Once per kernel and context: a twin the flags promised but that
    // cannot be used is no error, only a missed speed-up.
    auto Twin = [](bool Has, bool On, const char *What, const std::string &Why) {
      return Has           ? std::string(", ") + What + (On ? "" : " (off)")
             : Why.empty() ? std::string()
                           : std::string(", without its ") + What + ": " + Why;
    };
    const std::string Twins = Twin(CI->hasLight(), Opts.Light, "light twin", CI->form(CloneKind::Light).Why) +
                              Twin(CI->hasAlt(), Opts.Alt, "alternate form", CI->form(CloneKind::Alt).Why) +
                              Twin(CI->hasFree(), Opts.Free, "free form", CI->form(CloneKind::Free).Why);
    log("kernel %s: preemptible clone, flags 0x%x, %u loop checkpoints, interval %u%s",
        E.Symbol.c_str(), CI->Flags, CI->LoopCheckpoints, CI->IntervalK, Twins.c_str());
  } else {
    log("kernel %s: not preemptible: %s", E.Symbol.c_str(), CI->Why.c_str());
  }
  const CloneInfo *P = CI.get();
  C.Clones.emplace(&E, std::move(CI));
  return P;
}

void Scheduler::mirrorSmem(CloneInfo &CI, CloneKind K, unsigned Shmem, CUfunction Original) {
  // A kernel's raised dynamic shared memory limit belongs to the original
  // function; each clone needs the same, before its occupancy is asked.
  int &Mirrored = CI.form(K).MirroredSmem;
  if (Shmem <= 48 * 1024 || Mirrored >= int(Shmem) || !Original)
    return;
  int V = 0;
  if (D.funcGetAttribute(&V, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, Original) ==
          CUDA_SUCCESS &&
      D.funcSetAttribute(CI.function(K), CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, V) ==
          CUDA_SUCCESS)
    Mirrored = V;
}

int Scheduler::smCount(Context &C) {
  if (C.Sms < 0 && (D.deviceSmCount(&C.Sms) != CUDA_SUCCESS || C.Sms < 0))
    C.Sms = 0; // asked once: persistent clones are not preemptible here
  return C.Sms;
}

bool Scheduler::planLaunch(Context &C, CloneInfo &CI, const SchedLaunch &L, const LaunchRecord &Rec,
                           ClonePlan &Plan, CloneChoice &Choice, uint64_t &Key,
                           const uint64_t *ArgsHash) {
  const int Sms = CI.persistent() ? smCount(C) : 0;
  const bool Light = Opts.Light && CI.hasLight(), Alt = Opts.Alt && CI.hasAlt();
  // The free form's stops make threads run virtual CTAs again: sound only
  // for a launch the instance check proved idempotent. The shape key leaves
  // pointers out, so launches of one shape may differ here: this is asked
  // per launch, never taken from the shape's state.
  const bool FreeOk = Opts.Free && CI.hasFree() && Rec.Idempotent;
  // A batched clone's interval comes from its shape's timings, so batched
  // shapes are timed even with no other form to choose from.
  const bool Batched = CI.persistent() && (CI.Flags & PreBatched) && Opts.BatchUs > 0;
  // So are all persistent shapes that may spread (CloneChoice.h).
  const bool Spread = CI.persistent() && Opts.SpreadMax > 1;
  // Scaled shapes are timed for their segment scale (CloneScale.cpp; the
  // chooser has a scale to try only for clones with the flag).
  const bool Scaled = CI.Chooser.options().ScaleMax > 0;
  // A launch whose loop checkpoints are armed may be a scale's stop probe.
  const bool StopOk = Rec.Idempotent && CI.loopStops();
  Choice = CloneChoice(); // full, untimed unless the clone has a twin in use
  Key = 0;
  // A launch not found idempotent is stopped with request 1, which arms no
  // loop checkpoint: the light clone stops it as early, and is usually
  // faster; the chooser times it against the shape's own form (a balanced
  // tail may cost the twin its registers). Without a shape key it runs light.
  const bool LightOk = Light && !(Rec.Idempotent && CI.loopStops());
  const bool Cap = Opts.MaxOverhead > 0 || Opts.ShortUs > 0;
  uint64_t Coarse = 0, Family = 0;
  uint64_t Args = ArgsHash ? *ArgsHash : 0;
  if ((Light || Alt || FreeOk || Batched || Spread || Cap || Scaled) &&
      (ArgsHash || launchArgsHash(CI, L.Params, L.Extra, Args))) {
    Key = launchShapeKeyOf(L.Grid, L.Block, L.Shmem, Args, Opts.Varying ? &Coarse : nullptr,
                           Opts.Varying ? &Family : nullptr);
    // Scalar arguments or grids that change on every launch would make
    // every launch a new shape, timed and never decided (VaryingShapes.h).
    bool Varying = false;
    if (Opts.Varying) {
      Key = CI.Shapes.keyFor(Family, Coarse, Key, Varying);
      if (Varying && CI.Chooser.state(Key) == CloneChooser::State::Unknown)
        log("kernel %s: %s change from launch to launch; launches of block %ux%ux%u%s share "
            "one shape from now on",
            Rec.Entry->Symbol.c_str(),
            CI.Shapes.familyVaries(Family) ? "grids" : "scalar arguments", L.Block[0],
            L.Block[1], L.Block[2],
            CI.Shapes.familyVaries(Family) ? "" : " and this grid");
    }
    Choice = CI.Chooser.choose(Key, FreeOk, LightOk, Varying, StopOk);
  } else if (LightOk)
    Choice.Kind = CloneKind::Light;
  if (Choice.Original)
    return false; // the overhead cap: the kernel as compiled (cappedLaunch)
  if (Choice.Kind == CloneKind::Free && !FreeOk)
    Choice = CloneChoice(); // (the chooser was told; whatever it says, never free here)
  auto Make = [&] {
    mirrorSmem(CI, Choice.Kind, L.Shmem, Rec.Entry->Func);
    return planClone(D, CI, Sms, L.Grid, L.Block, L.Shmem, Plan, Choice.Kind, Choice.Spread);
  };
  bool Planned = Make();
  if (!Planned && Choice.Kind != CloneKind::Full) {
    // No resident grid for the light, alternate or free clone (its
    // registers, its shared memory): the full one may still have one.
    if (Choice.Kind == CloneKind::Alt || Choice.Kind == CloneKind::Free) {
      // The same for every launch of the shape (occupancy depends on its
      // block and shared memory only): never that form again. A timed
      // launch gives a full time.
      CI.Chooser.unfit(Key, Choice.Kind);
      Choice.Kind = CloneKind::Full;
    } else {
      if (Key)
        CI.Chooser.unfit(Key, CloneKind::Light);
      Choice = CloneChoice();
    }
    Planned = Make();
  }
  // On the plan finally made (a fallback above plans afresh).
  if (Planned && Batched && Key && Choice.Kind != CloneKind::Light)
    Plan.BatchK = CI.Chooser.batchFor(Key);
  // (A fallback to the full clone keeps the scale: the same loops.)
  if (Planned && Choice.Kind != CloneKind::Light) {
    Plan.Scale = Choice.Scale;
  } else {
    Choice.Scale = 0;
    Choice.StopProbe = false;
  }
  if (!Planned && CI.persistent() && !blockFitsClone(CI, L.Block[0]))
    log("launch of %s not preemptible: blockDim.x %u is not a multiple of 32, which its clone "
        "needs (a warp-uniform early return before a warp collective)",
        Rec.Entry->Symbol.c_str(), L.Block[0]);
  else if (!Planned && CI.persistent())
    log("launch of %s (%llu CTAs) not preemptible: no persistent grid (%d SMs)",
        Rec.Entry->Symbol.c_str(), (unsigned long long)ctaCount(L.Grid), Sms);
  return Planned;
}

CUresult Scheduler::cappedLaunch(Context &C, CloneInfo &CI, uint64_t Key, bool Timed, bool Latch,
                                 CUstream S, const OriginalLaunch &Original) {
  N.Capped.fetch_add(1, std::memory_order_relaxed);
  return timedOriginal(C, CI, Key, Timed, Latch, S, Original);
}

CUresult Scheduler::shortLaunch(Context &C, StreamState &St, CloneInfo &CI, uint64_t Key,
                                bool Timed, bool Latch, CUstream S, int P,
                                const OriginalLaunch &Original) {
  N.Short.fetch_add(1, std::memory_order_relaxed);
  // What a suppression cannot hold back any more: the work of the short
  // launches behind the stream's latest gate (or clone, whose stop holds
  // what follows). Each is charged its shape's time as compiled (the
  // largest recent one of a varying shape). Past the
  // budget, or while the level is suppressed (a launch made now must wait
  // for the resume), this one waits at the gate, and the count starts
  // again behind it. (A gate the driver refuses only holds nothing back.)
  // A launch that times a shape not yet known to be short waits at the
  // gate too.
  const double Us = CI.Chooser.shortBoundUs(Key);
  const bool Gate = Opts.GateAlways || C.View.Level[P].Suppressed || !(Us > 0) ||
                    Us > Opts.ShortUs ||
                    St.UngatedUs + Us > SchedOptions::ShortGateFactor * Opts.ShortUs;
  if (Gate) {
    D.streamWaitEq(S, C.Gates + sizeof(uint32_t) * unsigned(P), 0);
    St.UngatedUs = 0;
    St.HeldBack += C.View.Level[P].Suppressed;
  } else {
    St.UngatedUs += Us;
    N.ShortUngated.fetch_add(1, std::memory_order_relaxed);
  }
  return timedOriginal(C, CI, Key, Timed, Latch, S, Original);
}

CUresult Scheduler::timedOriginal(Context &C, CloneInfo &CI, uint64_t Key, bool Timed, bool Latch,
                                  CUstream S, const OriginalLaunch &Original) {
  Context::OriginalTiming *T = nullptr;
  if (Timed)
    for (Context::OriginalTiming &O : C.Originals)
      if (!O.Busy && (O.Start || D.eventCreate(&O.Start, CU_EVENT_DEFAULT) == CUDA_SUCCESS) &&
          (O.End || D.eventCreate(&O.End, CU_EVENT_DEFAULT) == CUDA_SUCCESS)) {
        T = &O;
        break;
      }
  // (All busy: this time is not taken; a later launch asks again.)
  if (!T)
    return Original();
  // Behind a latch where the stream was idle (Scheduler::latch); where the
  // latch may not hold this launch (the function's first), the time is
  // provisional.
  const bool Provisional = Latch && firstUnlatched(C, CI.OriginalLaunched);
  const uint32_t Open = Latch ? latch(C, S, CI.OriginalLaunched, CI.Symbol.c_str()) : 0;
  const bool Marked = D.eventRecord(T->Start, S) == CUDA_SUCCESS;
  const CUresult R = Original();
  if (R == CUDA_SUCCESS)
    CI.OriginalLaunched = true;
  const bool Ended = Marked && R == CUDA_SUCCESS && D.eventRecord(T->End, S) == CUDA_SUCCESS;
  // (Opened by the watchdog first: the time holds the host's stall; the
  // due timing stays due.)
  if (openLatch(C, Open) && Ended) {
    CI.Chooser.originalTimed(Key);
    T->CI = &CI;
    T->Key = Key;
    T->Busy = true;
    T->Provisional = Provisional;
    N.TimedLaunches.fetch_add(1, std::memory_order_relaxed);
  }
  return R;
}

void Scheduler::sampleOriginals(Context &C) {
  for (Context::OriginalTiming &T : C.Originals) {
    if (!T.Busy)
      continue;
    const CUresult Q = D.eventQuery(T.End);
    if (Q == CUDA_ERROR_NOT_READY)
      continue;
    T.Busy = false;
    float Ms = 0;
    if (Q != CUDA_SUCCESS || D.eventElapsed(&Ms, T.Start, T.End) != CUDA_SUCCESS || !(Ms >= 0))
      continue;
    const bool Known = T.CI->Chooser.recordOriginal(T.Key, double(Ms) * 1e3, T.Provisional);
    log("kernel %s shape %016llx: as compiled took %.1f us%s", T.CI->Symbol.c_str(),
        (unsigned long long)T.Key, double(Ms) * 1e3, Known ? "" : " (shape forgotten)");
  }
}

} // namespace sched
} // namespace rt
} // namespace gmem

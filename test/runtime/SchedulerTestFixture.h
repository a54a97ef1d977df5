// The scheduler test fixture (SchedulerTest.cpp, SchedulerPreemptionTest.cpp,
// SchedulerPersistentTest.cpp, and the light, alternate and free form tests):
// a scheduler over a simulated GPU (FakeSchedDriver.h) with a few kernels and
// their clones (ordinary and persistent), a best-effort and a real-time
// stream, launch helpers, and the check that every job ran every (virtual)
// CTA exactly once without breaking the clone ABI.
#pragma once

#include "FakeSchedDriver.h"
#include "Runtime.h"
#include "Scheduler.h"

#include "gmem/gmem_sched.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gmem {
namespace rt {
namespace sched {
namespace test {

inline constexpr uintptr_t Mod = 0x1000;
// Kernels and their clones (CUfunction handles in the fake).
inline constexpr uintptr_t FTrain = 0x11, FTrainPre = 0x12, FAccum = 0x13, FAccumPre = 0x14,
                           FInfer = 0x15, FPlain = 0x16, FPers = 0x17, FPersPre = 0x18;
inline constexpr const char *Train = "_Z5trainPfi", *Accum = "_Z5accumPfi", *Infer = "_Z5inferPf",
                                 *Plain = "_Z5plainPf", *Pers = "_Z4persPfi";
// The clone's parameters after the kernel's (ABI version 2).
inline const std::vector<size_t> CtlAndGrid = {8, 4, 4, 4};
inline constexpr uint32_t PersistentFlag = 0x10;
// The persistent kernels' twin forms (light, alternate, free) and their
// info flag bits (SchedulerLightTest.cpp, SchedulerAltTest.cpp,
// SchedulerFreeTest.cpp).
inline constexpr uintptr_t FPersLight = 0x19, FTrainLight = 0x1A, FPersAlt = 0x1B, FTrainAlt = 0x1C,
                           FPersFree = 0x1D, FTrainFree = 0x1E;
inline constexpr uint32_t LightFlag = 0x20, AltFlag = 0x40, FreeFlag = 0x80;

inline std::string pre(const char *Sym) { return std::string("__gmem_pre_") + Sym; }

struct SchedTest : ::testing::Test {
  FakeSchedDriver D;
  SchedOptions O;
  std::unique_ptr<Scheduler> S;
  KernelEntry ETrain, EAccum, EInfer, EPlain, EPers;
  CUstream BE = nullptr, RT = nullptr;
  int OriginalCalls = 0;
  bool FailOriginals = false; ///< launchShape's originals fail (the driver refuses them)
  std::vector<size_t> OriginalAt; ///< D.Calls.size() at each of launchShape's originals
  /// Runs inside each of launchShape's originals (the launch call in
  /// progress: a stall in the driver, say).
  std::function<void()> DuringOriginal;
  /// The timing latch as the host had it at each of launchShape's
  /// originals (the first host-mapped word; 0 before any).
  std::vector<uint32_t> LatchAtOriginal;
  uint64_t BufP = 0xABC000;
  int N = 7;

  void SetUp() override {
    FakeSchedDriver::Kernel K;
    K.ParamSizes = {8, 4};
    K.Iters = 4;
    D.addKernel(FTrain, Mod, Train, K);
    D.addKernel(FAccum, Mod, Accum, K);
    D.addKernel(FPers, Mod, Pers, K);
    FakeSchedDriver::Kernel C = K;
    C.IsClone = true;
    C.ParamSizes = {8, 4};
    C.ParamSizes.insert(C.ParamSizes.end(), CtlAndGrid.begin(), CtlAndGrid.end());
    D.addKernel(FTrainPre, Mod, std::string("__gmem_pre_") + Train, C);
    D.addKernel(FAccumPre, Mod, std::string("__gmem_pre_") + Accum, C);
    C.Persistent = true;
    D.addKernel(FPersPre, Mod, std::string("__gmem_pre_") + Pers, C);
    D.addInfo(Mod, Train, 1 | 4);
    D.addInfo(Mod, Accum, 1);
    D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag);
    FakeSchedDriver::Kernel I;
    I.ParamSizes = {8};
    I.Iters = 10;
    D.addKernel(FInfer, Mod, Infer, I);
    D.addKernel(FPlain, Mod, Plain, I);
    entry(ETrain, Train, {8, 4});
    entry(EAccum, Accum, {8, 4});
    entry(EInfer, Infer, {8});
    entry(EPlain, Plain, {8});
    entry(EPers, Pers, {8, 4});
    BE = D.userStream();
    RT = D.userStream();
    D.Names[BE] = "BE";
    D.Names[RT] = "RT";
    O.MonitorThread = false;
    // Steps of the fake GPU take no wall-clock time: tests that want the
    // linger (real time) set it themselves.
    O.ResumeLingerNs = 0;
    O.ActiveAtStart = true;
    O.LogErrors = false;
    // The form tests count timed launches exactly; a spread probe after each
    // decision would add one (SchedulerSpreadTest.cpp turns it on).
    O.SpreadMax = 1;
    // The fake GPU's timings are a few microseconds: short launches would
    // run most shapes as compiled (SchedulerShortTest.cpp turns it on).
    O.ShortUs = 0;
    // Its streams are idle at most launches: timings as compiled would wait
    // at a latch, an extra wait and write the call lists would have to
    // name (SchedulerTimingTest.cpp tests it).
    O.LatchIdleTimings = false;
    // Most tests stop work with a kernel's first urgent launch; first
    // launches wait for quiet in SchedulerFirstLaunchTest.cpp.
    O.QuietFirstLaunches = false;
    make();
  }
  void TearDown() override { Scheduler::setGlobalForTesting(nullptr); }
  /// Best effort busy with a training clone (10 iterations, half run) when
  /// an urgent launch on RT suppresses it; the calls so far are cleared.
  void suppressBusyBestEffort() {
    D.Kernels[FTrainPre].Iters = 10;
    ASSERT_EQ(train(BE), CUDA_SUCCESS);
    D.run(5);
    ASSERT_EQ(infer(RT, 6), CUDA_SUCCESS);
    D.Calls.clear();
  }
  /// Gives Pers a light twin: the persistent clone's parameters and
  /// protocol, no loop checkpoints, fewer registers (3 resident CTAs per
  /// SM: P = 12). The info word is the caller's (addInfo).
  void addPersLightTwin() {
    FakeSchedDriver::Kernel L = D.Kernels[FPersPre];
    L.LoopCheckpoints = false;
    L.Occupancy = 3;
    D.addKernel(FPersLight, Mod, std::string("__gmem_prl_") + Pers, L); // light(Pers)
  }
  void make() {
    Scheduler::setGlobalForTesting(nullptr);
    S.reset(new Scheduler(D, O));
    Scheduler::setGlobalForTesting(S.get());
    S->setStreamPriority(RT, GMEM_PRIORITY_REALTIME);
  }
  static void entry(KernelEntry &E, const char *Sym, std::vector<uint32_t> Sizes) {
    E.Symbol = Sym;
    E.Module = reinterpret_cast<CUmodule>(Mod);
    E.St = KernelEntry::State::Instrumented;
    E.ParamSize = std::move(Sizes);
  }
  static LaunchRecord record(const KernelEntry &E, bool Idempotent) {
    LaunchRecord R;
    R.Entry = &E;
    R.Instrumented = E.St == KernelEntry::State::Instrumented;
    R.Idempotent = Idempotent;
    return R;
  }
  CUresult launch(uintptr_t F, unsigned Grid, CUstream Str, const LaunchRecord *Rec,
                  const CUlaunchAttribute *Attrs = nullptr, unsigned NumAttrs = 0,
                  bool Coop = false) {
    return launchShape(F, {Grid, 1, 1}, {128, 1, 1}, 0, Str, Rec, Attrs, NumAttrs, Coop);
  }
  CUresult launchShape(uintptr_t F, std::array<unsigned, 3> Grid, std::array<unsigned, 3> Block,
                       unsigned Shmem, CUstream Str, const LaunchRecord *Rec,
                       const CUlaunchAttribute *Attrs = nullptr, unsigned NumAttrs = 0,
                       bool Coop = false) {
    void *Params[2] = {&BufP, &N};
    SchedLaunch L;
    L.F = reinterpret_cast<CUfunction>(F);
    for (int I = 0; I < 3; ++I) {
      L.Grid[I] = Grid[I];
      L.Block[I] = Block[I];
    }
    L.Shmem = Shmem;
    L.Stream = Str;
    L.Params = Params;
    L.Attrs = Attrs;
    L.NumAttrs = NumAttrs;
    L.Cooperative = Coop;
    auto Original = [&] {
      ++OriginalCalls;
      OriginalAt.push_back(D.Calls.size());
      LatchAtOriginal.push_back(D.HostMapped.empty() ? 0 : D.word(D.HostMapped.begin()->first));
      if (DuringOriginal)
        DuringOriginal();
      if (FailOriginals)
        return CUDA_ERROR_INVALID_VALUE;
      return D.userLaunch(reinterpret_cast<CUfunction>(F), Grid[0] * Grid[1] * Grid[2],
                          Str ? Str : CU_STREAM_LEGACY);
    };
    return scheduleOr(L, Rec, Original);
  }
  CUresult train(CUstream Str, unsigned Grid = 8, bool Idempotent = true) {
    LaunchRecord R = record(ETrain, Idempotent);
    return launch(FTrain, Grid, Str, &R);
  }
  CUresult accum(CUstream Str, unsigned Grid = 8) {
    LaunchRecord R = record(EAccum, false);
    return launch(FAccum, Grid, Str, &R);
  }
  CUresult pers(CUstream Str, std::array<unsigned, 3> Grid, bool Idempotent = true,
                std::array<unsigned, 3> Block = {128, 1, 1}, unsigned Shmem = 0) {
    LaunchRecord R = record(EPers, Idempotent);
    return launchShape(FPers, Grid, Block, Shmem, Str, &R);
  }
  CUresult infer(CUstream Str, unsigned Grid = 2) {
    LaunchRecord R = record(EInfer, false);
    return launch(FInfer, Grid, Str, &R);
  }
  /// Best-effort work of every kind on two streams (BE: an idempotent
  /// training clone, then a non-idempotent one, then a marker; Other: an
  /// idempotent and a non-idempotent persistent clone, then a marker), for
  /// tests that stop and resume it in many ways (chaos, fair share).
  void launchMixedBestEffort() {
    CUstream Other = D.userStream();
    D.Names[Other] = "Other";
    ASSERT_EQ(train(BE, 12, /*Idempotent=*/true), CUDA_SUCCESS);
    ASSERT_EQ(accum(BE, 10), CUDA_SUCCESS); // not idempotent: stops at CTA entry
    D.marker(BE, "after-accum");
    ASSERT_EQ(pers(Other, {40, 1, 1}, /*Idempotent=*/true), CUDA_SUCCESS);
    ASSERT_EQ(pers(Other, {40, 1, 1}, /*Idempotent=*/false), CUDA_SUCCESS);
    D.marker(Other, "after-pers");
  }
  /// launchMixedBestEffort's work ran in each stream's order.
  void expectMixedInStreamOrder() {
    EXPECT_GT(D.Markers["after-accum"], job(pre(Accum)).LastCompleteStep);
    EXPECT_GT(job(pre(Accum)).FirstStartStep, job(pre(Train)).LastCompleteStep);
    EXPECT_GT(D.Markers["after-pers"], job(pre(Pers), 1).LastCompleteStep);
    EXPECT_GT(job(pre(Pers), 1).FirstStartStep, job(pre(Pers), 0).LastCompleteStep);
  }
  /// The GPU and the monitor until everything is done.
  void finish(unsigned MaxRounds = 20000) {
    for (unsigned I = 0; I < MaxRounds; ++I) {
      bool Moved = D.step();
      bool More = S->poll();
      if (!Moved && !More && D.idle())
        return;
    }
    ADD_FAILURE() << "did not finish";
  }
  const FakeSchedDriver::Job &job(const std::string &Kernel, unsigned Nth = 0) {
    for (auto &J : D.Jobs)
      if (J.Kernel == Kernel && Nth-- == 0)
        return J;
    static FakeSchedDriver::Job None;
    ADD_FAILURE() << "no job " << Kernel;
    return None;
  }
  gmemSchedStats stats() {
    gmemSchedStats St;
    EXPECT_EQ(gmemSchedGetStats(&St), GMEM_SUCCESS);
    return St;
  }
  /// Every job ran every (virtual) CTA, exactly once but for the reruns a
  /// persistent clone chooses under request 2 (idempotent launches only),
  /// and nothing broke the clone ABI.
  void expectExactlyOnce() {
    for (auto &J : D.Jobs) {
      EXPECT_TRUE(J.complete()) << J.Kernel;
      EXPECT_EQ(J.maxCompletions(), 1u) << J.Kernel;
    }
    EXPECT_EQ(D.Overlaps, 0u);
    EXPECT_EQ(D.GridArgMismatches, 0u);
    EXPECT_EQ(D.PChanges, 0u);
    EXPECT_EQ(D.FunctionChanges, 0u);
    EXPECT_EQ(D.CtlTooSmall, 0u);
    EXPECT_EQ(D.DoubleRuns, 0u);
    EXPECT_EQ(D.LostVirtualCtas, 0u);
    EXPECT_EQ(D.FreeRequest1, 0u);
  }
  /// A persistent clone's words for its CTA P in control block Ctl.
  uint32_t redo(uint64_t Ctl, unsigned P) const {
    return D.word(FakePersistentClone::redoWord(Ctl, P));
  }
  uint32_t resume(uint64_t Ctl, unsigned P) const {
    return D.word(FakePersistentClone::resumeWord(Ctl, P));
  }
  /// Counts of clone forms launched and of shape switches (all fields).
  gmemSchedCloneStats cloneStats() {
    gmemSchedCloneStats St;
    St.size = sizeof St;
    EXPECT_EQ(gmemSchedGetCloneStats(&St), GMEM_SUCCESS);
    return St;
  }
  /// The latest clone launch.
  const FakeSchedDriver::CloneLaunch &last() { return D.CloneLaunches.back(); }
  /// A launch of pers(BE, {40, 1, 1}) followed by a marker "after", run 30
  /// steps, then stopped by an urgent launch (settled, not finished): its
  /// clone launch's index and control block, and the clone it ran.
  std::string preemptedPers(size_t &First, uint64_t &Ctl, bool Idempotent = true) {
    EXPECT_EQ(pers(BE, {40, 1, 1}, Idempotent), CUDA_SUCCESS);
    D.marker(BE, "after");
    Ctl = last().Ctl;
    First = D.CloneLaunches.size() - 1;
    D.run(30);
    EXPECT_EQ(infer(RT), CUDA_SUCCESS);
    D.settle();
    return D.CloneLaunches[First].Name;
  }
  /// Every clone launch from index First on (a launch and its relaunches)
  /// ran Name on P CTAs with control block Ctl and First's arguments.
  /// The last clone launch ran a twin form on its own grid: P persistent
  /// CTAs from the form's own occupancy query (function Fn, the Queries-th),
  /// the user's grid of 40 CTAs, the clone's parameters, and a control block
  /// sized for its P.
  void expectOnOwnGrid(unsigned P, uintptr_t Fn, size_t Queries) {
    EXPECT_EQ(last().Grid[0], P);
    EXPECT_EQ(last().UserGrid[0], 40u);
    EXPECT_EQ(last().Args.size(), D.CloneLaunches[0].Args.size());
    EXPECT_GE(D.MemsetWords[last().Ctl], 2u + 2 * P + 1);
    ASSERT_EQ(D.OccupancyQueries.size(), Queries);
    EXPECT_EQ(D.OccupancyQueries.back().F, Fn);
  }

  void expectRelaunchedAs(size_t First, const std::string &Name, unsigned P, uint64_t Ctl) {
    ASSERT_LT(First, D.CloneLaunches.size());
    for (size_t I = First; I < D.CloneLaunches.size(); ++I) {
      const auto &CL = D.CloneLaunches[I];
      EXPECT_EQ(CL.Name, Name) << I;
      EXPECT_EQ(CL.Grid[0], P) << I;
      EXPECT_EQ(CL.Ctl, Ctl) << I;
      EXPECT_EQ(CL.Args, D.CloneLaunches[First].Args) << I;
    }
  }
};

/// An on-by-default switch of SchedOptions read from environment variable
/// Name (SchedApi.cpp's envSwitch): on when unset, off for 0 and off, on
/// for 1, the default for anything else; Name is unset afterwards.
inline void expectSwitchFromEnvironment(const char *Name, bool SchedOptions::*Field,
                                        bool Default = true) {
  unsetenv(Name);
  EXPECT_EQ(SchedOptions::fromEnvironment().*Field, Default) << Name << " unset";
  setenv(Name, "0", 1);
  EXPECT_FALSE(SchedOptions::fromEnvironment().*Field) << Name << "=0";
  setenv(Name, "off", 1);
  EXPECT_FALSE(SchedOptions::fromEnvironment().*Field) << Name << "=off";
  setenv(Name, "1", 1);
  EXPECT_TRUE(SchedOptions::fromEnvironment().*Field) << Name << "=1";
  setenv(Name, "maybe", 1); // refused: the default
  EXPECT_EQ(SchedOptions::fromEnvironment().*Field, Default) << Name << "=maybe";
  unsetenv(Name);
}
inline std::string light(const char *Sym) { return std::string("__gmem_prl_") + Sym; }
inline std::string alt(const char *Sym) { return std::string("__gmem_pra_") + Sym; }
inline std::string freeForm(const char *Sym) { return std::string("__gmem_prf_") + Sym; }

/// Pers's form K (function Fn, named Symbol, called Name in the reasons,
/// info flags Flags) is left out, with why, when its parameters differ from
/// the clone's and when its function is missing. \p Others checks the
/// other forms of the clone resolved with the mismatched parameters.
inline void expectFormLeftOut(FakeSchedDriver &D, const KernelEntry &E, CloneKind K, uintptr_t Fn,
                              const std::string &Symbol, uint32_t Flags, const std::string &Name,
                              const std::function<void(const CloneInfo &)> &Others) {
  D.addInfo(Mod, Pers, Flags);
  D.Kernels[Fn].ParamSizes = {8, 4, 8, 4, 4};
  CloneInfo C = resolveClone(D, E);
  ASSERT_TRUE(C.Ok);
  EXPECT_EQ(C.form(K).Fn, nullptr);
  Others(C);
  EXPECT_NE(C.form(K).Why.find(Name + " clone's parameters"), std::string::npos) << C.form(K).Why;
  D.Functions.erase({Mod, Symbol});
  C = resolveClone(D, E);
  ASSERT_TRUE(C.Ok) << C.Why;
  EXPECT_EQ(C.form(K).Fn, nullptr);
  EXPECT_NE(C.form(K).Why.find("no " + Name + " clone " + Symbol), std::string::npos) << C.form(K).Why;
}

} // namespace test
} // namespace sched
} // namespace rt
} // namespace gmem

// Light twins of persistent clones (info flag PreHasLight, __gmem_prl_<K>)
// against a simulated GPU (FakeSchedDriver.h): resolved only with the flag,
// chosen per launch shape from the timing of an undisturbed full launch,
// launched on the light function's own resident grid, kept (function and P)
// across relaunches, sent back to full when slow, off under
// GMEM_PREEMPT_LIGHT=0, left for good when slower than the full clone; for
// kernels without loop checkpoints by timing only; and
// gmemSchedGetCloneStats.
#include "SchedulerTestFixture.h"

#include <cstdlib>
#include <cstring>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {


// Elapsed times for 40 virtual CTAs: on the full clone's P = 8 (5 rounds)
// and the light clone's P = 12 (4 rounds).
constexpr float FastMs = 0.004f; // tau 0.8 / 1 us
constexpr float SlowMs = 0.1f;   // tau 20 / 25 us

struct LightTest : SchedTest {
  void SetUp() override {
    SchedTest::SetUp();
    addPersLightTwin();
    D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag | LightFlag);
  }
  /// Three fast launches of one shape that all stay full and untimed (no
  /// light clone to switch to, or light off).
  void expectThreeFullUntimed() {
    D.ElapsedMs = FastMs;
    for (int I = 0; I < 3; ++I) {
      ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
      EXPECT_EQ(last().Name, pre(Pers));
      finish();
    }
    EXPECT_EQ(D.count("record BE"), 6u); // drain and done: no timing
    gmemSchedCloneStats St = cloneStats();
    EXPECT_EQ(St.full_launches, 3u);
    EXPECT_EQ(St.light_launches, 0u);
    EXPECT_EQ(St.timed_launches, 0u);
    expectExactlyOnce();
  }
  /// One launch of pers(BE, Grid) that runs ElapsedMs (when timed), made
  /// with the clone named Name, finished.
  void launchAs(std::array<unsigned, 3> Grid, float ElapsedMs, const std::string &Name, int I = -1) {
    D.ElapsedMs = ElapsedMs;
    ASSERT_EQ(pers(BE, Grid), CUDA_SUCCESS);
    EXPECT_EQ(last().Name, Name) << I;
    finish();
  }
  /// A fast timing of a full launch of pers(BE, Grid): the shape runs light.
  void decideLight(std::array<unsigned, 3> Grid = {40, 1, 1}) {
    D.ElapsedMs = FastMs;
    ASSERT_EQ(pers(BE, Grid), CUDA_SUCCESS);
    ASSERT_EQ(last().Name, pre(Pers));
    finish();
    D.ElapsedMs.reset();
  }
  /// Two launches of pers(BE, Grid) not proved idempotent, each finished
  /// and timed: the light twin's (LightMs), then the full clone's (FullMs),
  /// the time the chooser asks for next.
  void timeLightThenFull(float LightMs, float FullMs, std::array<unsigned, 3> Grid = {40, 1, 1}) {
    D.ElapsedMs = LightMs;
    ASSERT_EQ(pers(BE, Grid, false), CUDA_SUCCESS);
    EXPECT_EQ(last().Name, light(Pers));
    finish();
    D.ElapsedMs = FullMs;
    ASSERT_EQ(pers(BE, Grid, false), CUDA_SUCCESS);
    EXPECT_EQ(last().Name, pre(Pers)); // the shape's own form gets its time
    finish();
  }
};

} // namespace

TEST_F(LightTest, LightTwinIsResolvedOnlyWithItsFlag) {
  CloneInfo C = resolveClone(D, EPers);
  ASSERT_TRUE(C.Ok) << C.Why;
  EXPECT_EQ(uintptr_t(C.form(CloneKind::Light).Fn), FPersLight);
  EXPECT_TRUE(C.form(CloneKind::Light).Why.empty());
  KernelEntry Lib; // the library path finds it too
  entry(Lib, Pers, {8, 4});
  Lib.ViaLibrary = true;
  Lib.Library = reinterpret_cast<CUlibrary>(Mod);
  EXPECT_EQ(uintptr_t(resolveClone(D, Lib).form(CloneKind::Light).Fn), FPersLight);
  // Without the flag the function is not looked at.
  D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag);
  C = resolveClone(D, EPers);
  ASSERT_TRUE(C.Ok);
  EXPECT_FALSE(C.hasLight());
  EXPECT_TRUE(C.form(CloneKind::Light).Why.empty());
  // Only persistent clones have light twins.
  FakeSchedDriver::Kernel T = D.Kernels[FTrainPre];
  D.addKernel(FTrainLight, Mod, light(Train), T);
  D.addInfo(Mod, Train, 1 | 4 | LightFlag);
  C = resolveClone(D, ETrain);
  ASSERT_TRUE(C.Ok);
  EXPECT_FALSE(C.hasLight());
  // A twin whose parameters differ from the clone's is left out.
  D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag | LightFlag);
  D.Kernels[FPersLight].ParamSizes = {8, 4, 8, 4, 4, 4, 4};
  C = resolveClone(D, EPers);
  ASSERT_TRUE(C.Ok);
  EXPECT_FALSE(C.hasLight());
  EXPECT_NE(C.form(CloneKind::Light).Why.find("parameters"), std::string::npos) << C.form(CloneKind::Light).Why;
}

TEST_F(LightTest, MissingLightTwinMeansFullOnly) {
  D.Functions.erase({Mod, light(Pers)});
  CloneInfo C = resolveClone(D, EPers);
  ASSERT_TRUE(C.Ok) << C.Why;
  EXPECT_FALSE(C.hasLight());
  EXPECT_NE(C.form(CloneKind::Light).Why.find("no light clone " + light(Pers)), std::string::npos) << C.form(CloneKind::Light).Why;
  expectThreeFullUntimed();
}

TEST_F(LightTest, FirstLaunchOfAShapeIsFullAndTimed) {
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  ASSERT_EQ(D.CloneLaunches.size(), 1u);
  EXPECT_EQ(last().Name, pre(Pers));
  EXPECT_EQ(last().Grid[0], 8u);
  // memset, gate, start mark, clone, drain, hold, done, end mark: the start
  // mark after the gate, right before the clone; the end mark (the stream's
  // time, for the overhead cap) after the done event.
  ASSERT_GE(D.Calls.size(), 8u);
  const std::vector<std::string> Tail(D.Calls.end() - 8, D.Calls.end());
  EXPECT_EQ(Tail[0].rfind("memset BE", 0), 0u) << Tail[0];
  EXPECT_EQ(Tail[1].rfind("wait BE", 0), 0u) << Tail[1];
  EXPECT_EQ(Tail[2], "record BE");
  EXPECT_EQ(Tail[3], "launch BE " + pre(Pers));
  EXPECT_EQ(Tail[4], "record BE");
  EXPECT_EQ(Tail[5].rfind("wait BE", 0), 0u) << Tail[5];
  EXPECT_EQ(Tail[6], "record BE");
  EXPECT_EQ(Tail[7], "record BE");
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.full_launches, 1u);
  EXPECT_EQ(St.timed_launches, 1u);
  finish();
  expectExactlyOnce();
}

TEST_F(LightTest, NonIdempotentLaunchIsLightAtOnceAndTimed) {
  // Request 1 arms no loop checkpoint, so the full clone could stop it no
  // earlier than the light one: light at once, timed (CloneChoice.h: it is
  // compared with the shape's own form once that has a time).
  ASSERT_EQ(pers(BE, {40, 1, 1}, /*Idempotent=*/false), CUDA_SUCCESS);
  ASSERT_EQ(D.CloneLaunches.size(), 1u);
  EXPECT_EQ(last().Name, light(Pers));
  EXPECT_EQ(last().Grid[0], 12u);
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.light_launches, 1u);
  EXPECT_EQ(St.timed_launches, 1u);
  finish();
  expectExactlyOnce();
}

TEST_F(LightTest, NonIdempotentLaunchesTimeTheFullCloneOnceThenStayLight) {
  // 100 us a launch for the light twin, 200 for the full clone: tau far
  // above the light limit, so only the comparison sends these launches light.
  timeLightThenFull(0.1f, 0.2f);
  EXPECT_EQ(cloneStats().timed_launches, 2u);
  for (int I = 0; I < 5; ++I) {
    ASSERT_EQ(pers(BE, {40, 1, 1}, false), CUDA_SUCCESS);
    EXPECT_EQ(last().Name, light(Pers)) << I;
  }
  EXPECT_EQ(cloneStats().timed_launches, 2u);
  // Every 16th light launch is timed again.
  for (int I = 0; I < 11; ++I)
    ASSERT_EQ(pers(BE, {40, 1, 1}, false), CUDA_SUCCESS);
  EXPECT_EQ(cloneStats().timed_launches, 3u);
  finish();
  expectExactlyOnce();
}

TEST_F(LightTest, NonIdempotentLaunchesLeaveASlowerLightTwin) {
  // The light twin 3% slower than the full clone (a balanced tail that cost
  // its loop registers): beyond the 2% margin, the full clone it is.
  timeLightThenFull(0.103f, 0.1f);
  for (int I = 0; I < 5; ++I) {
    ASSERT_EQ(pers(BE, {40, 1, 1}, false), CUDA_SUCCESS);
    EXPECT_EQ(last().Name, pre(Pers)) << I;
  }
  // Within the margin it would have stayed light.
  timeLightThenFull(0.1019f, 0.1f, {40, 2, 1}); // another shape
  ASSERT_EQ(pers(BE, {40, 2, 1}, false), CUDA_SUCCESS);
  EXPECT_EQ(last().Name, light(Pers));
  finish();
  D.ElapsedMs.reset();
  expectExactlyOnce();
}

TEST_F(LightTest, WithoutLoopCheckpointsEveryLaunchRunsTheTwinByTiming) {
  // Without loop checkpoints (info flag bit 0 clear) the twin is the main
  // clone plus the late read: an idempotent launch also stops only between
  // virtual CTAs, so it runs the twin by timing like a launch not proved
  // idempotent, where the twin is within the margin and its virtual CTAs
  // are long enough (>= 4 us) to take the late read.
  D.addInfo(Mod, Pers, 4 | PersistentFlag | LightFlag);
  D.Kernels[FPersPre].LoopCheckpoints = false;
  make();
  // tau 20 / 25 us, the twin 1% slower: within the margin, light (at once
  // and timed, then the own form timed).
  launchAs({40, 1, 1}, 0.101f, light(Pers));
  launchAs({40, 1, 1}, SlowMs, pre(Pers));
  for (int I = 0; I < 3; ++I)
    launchAs({40, 1, 1}, SlowMs, light(Pers), I);
  // The twin 5% slower: the full clone.
  launchAs({40, 2, 1}, 0.105f, light(Pers));
  launchAs({40, 2, 1}, SlowMs, pre(Pers));
  for (int I = 0; I < 3; ++I)
    launchAs({40, 2, 1}, SlowMs, pre(Pers), I);
  // tau ~1 us, the twin as fast: it would stop nothing sooner, and a short
  // tau alone never sends such a shape light (no loop checks to shed).
  launchAs({40, 3, 1}, FastMs, light(Pers)); // the first, before any tau is known
  for (int I = 0; I < 5; ++I)
    launchAs({40, 3, 1}, FastMs, pre(Pers), I);
  EXPECT_EQ(cloneStats().switched_to_light, 0u);
  D.ElapsedMs.reset();
  expectExactlyOnce();
}

TEST_F(LightTest, FastFullTimingSwitchesTheShapeToLight) {
  decideLight();
  const size_t Queries = D.OccupancyQueries.size();
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(last().Name, light(Pers));
  expectOnOwnGrid(12, FPersLight, Queries + 1); // 4 SMs x the light clone's 3
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.switched_to_light, 1u);
  EXPECT_EQ(St.full_launches, 1u);
  EXPECT_EQ(St.light_launches, 1u);
  EXPECT_EQ(St.timed_launches, 2u); // the first light launch is timed
  // Then every 16th light launch.
  D.ElapsedMs = FastMs;
  for (int I = 0; I < 15; ++I)
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(cloneStats().timed_launches, 2u);
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(cloneStats().timed_launches, 3u);
  EXPECT_EQ(cloneStats().light_launches, 17u);
  finish();
  expectExactlyOnce();
  for (auto &J : D.Jobs) {
    if (J.Kernel == light(Pers)) {
      EXPECT_EQ(J.LaunchGrid, 12u);
    }
  }
}

TEST_F(LightTest, ShortShapeLeavesASlowerLightTwinForGood) {
  // Sent light by a short tau, the shape times its first light launch: 5%
  // slower than the full clone (ptxas compiled the twin worse), so back to
  // the full forms, and a later short full timing does not send it light
  // again (the full clone's loop checks stop it no later).
  decideLight();
  launchAs({40, 1, 1}, 0.0042f, light(Pers));
  for (int I = 0; I < 70; ++I)
    launchAs({40, 1, 1}, FastMs, pre(Pers), I);
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.light_launches, 1u);
  EXPECT_GE(St.timed_launches, 3u); // the full re-timing came and changed nothing
  // Within the margin (1% slower) another shape stays light.
  decideLight({40, 2, 1});
  for (int I = 0; I < 3; ++I)
    launchAs({40, 2, 1}, 0.00404f, light(Pers), I);
  D.ElapsedMs.reset();
  expectExactlyOnce();
}

TEST_F(LightTest, SlowFullTimingKeepsFull) {
  // The simulated time: 40 virtual CTAs of 4 steps on 8 CTAs run one step
  // each in turn, about 32 us a round.
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  finish();
  for (int I = 0; I < 63; ++I)
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(last().Name, pre(Pers));
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.switched_to_light, 0u);
  EXPECT_EQ(St.light_launches, 0u);
  EXPECT_EQ(St.timed_launches, 1u);
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS); // the 64th since: re-timed
  EXPECT_EQ(cloneStats().timed_launches, 2u);
  finish();
  expectExactlyOnce();
  // A higher limit (GMEM_PREEMPT_LIGHT_US) takes the same timing as fast.
  O.LightMaxUs = 50;
  make();
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  finish();
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(last().Name, light(Pers));
  finish();
  expectExactlyOnce();
}

TEST_F(LightTest, PointerArgumentsAreNotPartOfTheShape) {
  // With the descriptor's parameter kinds, another buffer is the same shape
  // (a program may allocate per step); another scalar is not.
  EPers.Desc.Params.resize(2);
  EPers.Desc.Params[0].IsPointer = true;
  make();
  decideLight();
  BufP += 0x10000; // another buffer
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(last().Name, light(Pers));
  finish();
  N = 8; // another scalar
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(last().Name, pre(Pers));
  finish();
  expectExactlyOnce();
  CloneInfo C = resolveClone(D, EPers);
  EXPECT_EQ(C.ShapeParam, (std::vector<uint8_t>{0, 1}));
  EPers.Desc.Params.resize(3); // does not match the layout: every byte counts
  EXPECT_TRUE(resolveClone(D, EPers).ShapeParam.empty());
}

TEST_F(LightTest, OtherArgumentsOrBlocksAreOtherShapes) {
  decideLight();
  N = 8; // another argument value
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(last().Name, pre(Pers));
  EXPECT_EQ(cloneStats().timed_launches, 2u);
  ASSERT_EQ(pers(BE, {40, 1, 1}, true, {64, 1, 1}), CUDA_SUCCESS); // another block
  EXPECT_EQ(last().Name, pre(Pers));
  N = 7;
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(last().Name, light(Pers));
  finish();
  expectExactlyOnce();
  // The key covers the kernel's argument bytes however they are passed,
  // and never the control block.
  CloneInfo C = resolveClone(D, EPers);
  const unsigned G[3] = {40, 1, 1}, B[3] = {128, 1, 1};
  void *Params[2] = {&BufP, &N};
  uint64_t KP = 0, KE = 0, KOther = 0;
  ASSERT_TRUE(launchShapeKey(C, G, B, 0, Params, nullptr, KP));
  std::vector<char> Buf(16, 0);
  std::memcpy(Buf.data(), &BufP, 8);
  std::memcpy(Buf.data() + 8, &N, 4);
  size_t Size = 12;
  void *Extra[5] = {CU_LAUNCH_PARAM_BUFFER_POINTER, Buf.data(), CU_LAUNCH_PARAM_BUFFER_SIZE, &Size,
                    CU_LAUNCH_PARAM_END};
  ASSERT_TRUE(launchShapeKey(C, G, B, 0, nullptr, Extra, KE));
  EXPECT_EQ(KP, KE);
  ASSERT_TRUE(launchShapeKey(C, G, B, 256, Params, nullptr, KOther)); // shared memory
  EXPECT_NE(KOther, KP);
  Size = 8; // too short for the kernel's arguments
  EXPECT_FALSE(launchShapeKey(C, G, B, 0, nullptr, Extra, KE));
}

TEST_F(LightTest, PreemptedLaunchTimingIsIgnored) {
  D.ElapsedMs = FastMs;
  D.Kernels[FPersPre].Iters = 10;
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  D.run(30);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  finish();
  EXPECT_EQ(stats().preemptions, 1u);
  // Still unknown: full and timed again.
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(last().Name, pre(Pers));
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.switched_to_light, 0u);
  EXPECT_EQ(St.timed_launches, 2u);
  finish();
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(last().Name, light(Pers));
  finish();
  expectExactlyOnce();
}

TEST_F(LightTest, LightLaunchPreemptedTwiceKeepsItsFunctionAndP) {
  decideLight({5, 2, 4});
  // 40 virtual CTAs on the light clone's P = 12. Idempotent, yet stopped
  // with request 1: the light clone has no loop checkpoints.
  ASSERT_EQ(pers(BE, {5, 2, 4}, /*Idempotent=*/true), CUDA_SUCCESS);
  D.marker(BE, "after");
  ASSERT_EQ(last().Name, light(Pers));
  const uint64_t Ctl = last().Ctl;
  const size_t First = D.CloneLaunches.size() - 1;
  D.ElapsedMs = SlowMs; // its timing would send the shape back: it must be dropped
  auto Completed = [&] {
    unsigned C = 0;
    for (auto &J : D.Jobs)
      if (J.Kernel == light(Pers))
        for (unsigned X : J.Completed)
          C += X;
    return C;
  };
  auto StepUntil = [&](unsigned N) {
    for (unsigned I = 0; I < 2000 && Completed() < N; ++I) {
      D.step();
      S->poll();
    }
    return Completed() >= N;
  };
  // Occupancy changes are not asked again for a relaunch.
  D.Kernels[FPersLight].Occupancy = 1;
  ASSERT_TRUE(StepUntil(12));
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  EXPECT_EQ(D.word(Ctl), 1u);
  for (unsigned P = 0; P < 12; ++P)
    EXPECT_EQ(redo(Ctl, P), 0u) << P;
  EXPECT_EQ(Completed(), 24u); // each CTA finished the virtual CTA it was in
  for (unsigned I = 0; I < 2000 && stats().relaunches < 1; ++I) {
    D.step();
    S->poll();
  }
  ASSERT_TRUE(StepUntil(25)); // the first completion of the relaunch (24 before)
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  EXPECT_EQ(D.word(Ctl), 1u);
  EXPECT_LT(Completed(), 40u);
  EXPECT_EQ(D.Markers.count("after"), 0u);
  finish();
  expectExactlyOnce();
  const auto &J = job(light(Pers));
  EXPECT_EQ(J.cuts(), 0u);
  EXPECT_EQ(J.reruns(), 0u);
  for (unsigned V = 0; V < 40; ++V)
    EXPECT_EQ(J.RunBy[V], int(V % 12)) << V;
  ASSERT_EQ(D.CloneLaunches.size(), First + 3);
  expectRelaunchedAs(First, light(Pers), 12, Ctl);
  gmemSchedStats St = stats();
  EXPECT_EQ(St.preemptions, 2u);
  EXPECT_EQ(St.preemptions_loop, 0u);
  EXPECT_EQ(St.relaunches, 2u);
  EXPECT_EQ(cloneStats().switched_to_full, 0u);
  ASSERT_EQ(pers(BE, {5, 2, 4}), CUDA_SUCCESS);
  EXPECT_EQ(last().Name, light(Pers));
  finish();
}

TEST_F(LightTest, LightOffKeepsEveryLaunchFull) {
  O.Light = false;
  make();
  expectThreeFullUntimed();
}

TEST_F(LightTest, LightOptionsFromTheEnvironment) {
  unsetenv("GMEM_PREEMPT_LIGHT");
  unsetenv("GMEM_PREEMPT_LIGHT_US");
  SchedOptions Def = SchedOptions::fromEnvironment();
  EXPECT_TRUE(Def.Light);
  EXPECT_DOUBLE_EQ(Def.LightMaxUs, 3.0);
  setenv("GMEM_PREEMPT_LIGHT", "0", 1);
  setenv("GMEM_PREEMPT_LIGHT_US", "7.5", 1);
  SchedOptions E = SchedOptions::fromEnvironment();
  EXPECT_FALSE(E.Light);
  EXPECT_DOUBLE_EQ(E.LightMaxUs, 7.5);
  setenv("GMEM_PREEMPT_LIGHT", "1", 1);
  setenv("GMEM_PREEMPT_LIGHT_US", "-2", 1); // refused: the default
  E = SchedOptions::fromEnvironment();
  EXPECT_TRUE(E.Light);
  EXPECT_DOUBLE_EQ(E.LightMaxUs, 3.0);
  setenv("GMEM_PREEMPT_LIGHT_US", "fast", 1);
  EXPECT_DOUBLE_EQ(SchedOptions::fromEnvironment().LightMaxUs, 3.0);
  unsetenv("GMEM_PREEMPT_LIGHT");
  unsetenv("GMEM_PREEMPT_LIGHT_US");
  // The timed trial's limit: 6 us by default, 0 turns it off.
  EXPECT_DOUBLE_EQ(SchedOptions::fromEnvironment().LightTimedMaxUs, 6.0);
  setenv("GMEM_PREEMPT_LIGHT_TIMED_US", "0", 1);
  EXPECT_DOUBLE_EQ(SchedOptions::fromEnvironment().LightTimedMaxUs, 0.0);
  setenv("GMEM_PREEMPT_LIGHT_TIMED_US", "4.5", 1);
  EXPECT_DOUBLE_EQ(SchedOptions::fromEnvironment().LightTimedMaxUs, 4.5);
  unsetenv("GMEM_PREEMPT_LIGHT_TIMED_US");
}

TEST_F(LightTest, SlowLightTimingSwitchesBackToFull) {
  decideLight();
  // The first light launch, timed as fast as the full clone: stays light.
  D.ElapsedMs = FastMs;
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  finish();
  // The next timed one (the 17th): 16 us over 4 rounds is above the limit
  // but within twice it: stays light.
  D.ElapsedMs = 0.016f;
  for (int I = 0; I < 16; ++I)
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  finish();
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(last().Name, light(Pers));
  // The next timed light launch (the 33rd) is slow: back to full.
  D.ElapsedMs = SlowMs;
  for (int I = 0; I < 15; ++I)
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(last().Name, light(Pers));
  finish();
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(last().Name, pre(Pers));
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.switched_to_light, 1u);
  EXPECT_EQ(St.switched_to_full, 1u);
  EXPECT_EQ(St.light_launches, 33u);
  EXPECT_EQ(St.full_launches, 2u);
  EXPECT_EQ(St.timed_launches, 4u);
  finish();
  expectExactlyOnce();
}

TEST_F(LightTest, CloneStatsWriteOnlyWhatFits) {
  decideLight();
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(gmemSchedGetCloneStats(nullptr), GMEM_ERROR_INVALID_VALUE);
  struct {
    gmemSchedCloneStats St;
    uint64_t After;
  } Buf;
  auto Reset = [&](uint32_t Size) {
    std::memset(&Buf, 0xAB, sizeof Buf);
    Buf.St.size = Size;
  };
  const uint64_t Untouched = 0xABABABABABABABABull;
  for (uint32_t Small : {0u, 4u, 7u}) {
    Reset(Small);
    EXPECT_EQ(gmemSchedGetCloneStats(&Buf.St), GMEM_ERROR_INVALID_VALUE);
    EXPECT_EQ(Buf.St.full_launches, Untouched);
  }
  Reset(8); // the header only
  ASSERT_EQ(gmemSchedGetCloneStats(&Buf.St), GMEM_SUCCESS);
  EXPECT_EQ(Buf.St.size, 8u);
  EXPECT_EQ(Buf.St.reserved, 0u);
  EXPECT_EQ(Buf.St.full_launches, Untouched);
  Reset(20); // one field and half of the next: the whole one only
  ASSERT_EQ(gmemSchedGetCloneStats(&Buf.St), GMEM_SUCCESS);
  EXPECT_EQ(Buf.St.size, 20u);
  EXPECT_EQ(Buf.St.full_launches, 1u);
  EXPECT_EQ(Buf.St.light_launches, Untouched);
  Reset(sizeof(gmemSchedCloneStats));
  ASSERT_EQ(gmemSchedGetCloneStats(&Buf.St), GMEM_SUCCESS);
  EXPECT_EQ(Buf.St.full_launches, 1u);
  EXPECT_EQ(Buf.St.light_launches, 1u);
  EXPECT_EQ(Buf.St.timed_launches, 2u);
  EXPECT_EQ(Buf.St.switched_to_light, 1u);
  EXPECT_EQ(Buf.St.switched_to_full, 0u);
  EXPECT_EQ(Buf.After, Untouched);
  Reset(sizeof Buf); // a newer caller's larger struct: ours only
  ASSERT_EQ(gmemSchedGetCloneStats(&Buf.St), GMEM_SUCCESS);
  EXPECT_EQ(Buf.St.size, uint32_t(sizeof Buf));
  EXPECT_EQ(Buf.St.switched_to_full, 0u);
  EXPECT_EQ(Buf.After, Untouched);
  finish();
}

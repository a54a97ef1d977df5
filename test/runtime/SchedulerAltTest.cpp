// Alternate full forms of persistent clones (info flag PreHasAlt,
// __gmem_pra_<K>) against a simulated GPU (FakeSchedDriver.h): resolved only
// with the flag, compared with the full clone per launch shape by timing
// (full, alternate, full again), launched on their own resident grid,
// stopped at loop checkpoints like the full clone and relaunched as
// themselves, never for launches not found idempotent while a light twin is
// in use, off under GMEM_PREEMPT_ALT=0; and their gmemSchedGetCloneStats
// fields.
#include "SchedulerTestFixture.h"

#include <cstddef>
#include <cstdlib>
#include <cstring>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {


// The fake GPU's clock is the timer (ElapsedMs unset): one step, 1 us. A
// persistent clone takes about one step per iteration of a virtual CTA, so
// 40 virtual CTAs of 4 iterations on the full clone (P = 8, 5 rounds) take
// ~160 us, tau ~32 us: never light. The alternate form (1 resident CTA per
// SM: P = 4) with 2 iterations takes ~80 us, with 8 ~320 us.
struct AltTest : SchedTest {
  void SetUp() override {
    SchedTest::SetUp();
    addPersLightTwin(); // P = 12
    // Same parameters, protocol and loop checkpoints as the full clone; its
    // loop state in shared memory: another occupancy.
    FakeSchedDriver::Kernel A = D.Kernels[FPersPre];
    A.Occupancy = 1; // P = 4
    A.Iters = 2;     // faster
    D.addKernel(FPersAlt, Mod, alt(Pers), A);
    D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag | LightFlag | AltFlag);
  }
  /// One launch of pers(BE, {40, 1, 1}) run to its end; the clone it ran.
  std::string once(bool Idempotent = true) {
    EXPECT_EQ(pers(BE, {40, 1, 1}, Idempotent), CUDA_SUCCESS);
    const std::string Name = last().Name;
    finish();
    return Name;
  }
  /// The first comparison: full (cold), alternate, full again.
  void expectComparison() {
    EXPECT_EQ(once(), pre(Pers));
    EXPECT_EQ(once(), alt(Pers));
    EXPECT_EQ(last().Grid[0], 4u);
    EXPECT_EQ(once(), pre(Pers));
    EXPECT_EQ(last().Grid[0], 8u);
  }
};

} // namespace

TEST_F(AltTest, AltFormIsResolvedOnlyWithItsFlag) {
  CloneInfo C = resolveClone(D, EPers);
  ASSERT_TRUE(C.Ok) << C.Why;
  EXPECT_EQ(uintptr_t(C.form(CloneKind::Alt).Fn), FPersAlt);
  EXPECT_EQ(uintptr_t(C.form(CloneKind::Light).Fn), FPersLight);
  EXPECT_TRUE(C.form(CloneKind::Alt).Why.empty());
  EXPECT_EQ(uintptr_t(C.function(CloneKind::Alt)), FPersAlt);
  EXPECT_EQ(C.kindOf(C.form(CloneKind::Alt).Fn), CloneKind::Alt);
  EXPECT_EQ(C.kindOf(C.function(CloneKind::Full)), CloneKind::Full);
  EXPECT_EQ(C.residentPerSm(D, 128, 0, CloneKind::Alt), 1);
  EXPECT_EQ(C.residentPerSm(D, 128, 0, CloneKind::Full), 2);
  KernelEntry Lib; // the library path finds it too
  entry(Lib, Pers, {8, 4});
  Lib.ViaLibrary = true;
  Lib.Library = reinterpret_cast<CUlibrary>(Mod);
  EXPECT_EQ(uintptr_t(resolveClone(D, Lib).form(CloneKind::Alt).Fn), FPersAlt);
  // Without the flag the function is not looked at.
  D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag | LightFlag);
  C = resolveClone(D, EPers);
  ASSERT_TRUE(C.Ok);
  EXPECT_FALSE(C.hasAlt());
  EXPECT_TRUE(C.hasLight());
  EXPECT_TRUE(C.form(CloneKind::Alt).Why.empty());
  // Only persistent clones have alternate forms.
  D.addKernel(FTrainAlt, Mod, alt(Train), D.Kernels[FTrainPre]);
  D.addInfo(Mod, Train, 1 | 4 | AltFlag);
  C = resolveClone(D, ETrain);
  ASSERT_TRUE(C.Ok);
  EXPECT_FALSE(C.hasAlt());
  ClonePlan Plan;
  const unsigned G[3] = {40, 1, 1}, B[3] = {128, 1, 1};
  C = resolveClone(D, EPers);
  EXPECT_FALSE(planClone(D, C, 4, G, B, 0, Plan, CloneKind::Alt)); // no such form
  // A form whose parameters differ from the clone's is left out, with why;
  // a missing one too.
  expectFormLeftOut(D, EPers, CloneKind::Alt, FPersAlt, alt(Pers),
                    1 | 4 | PersistentFlag | LightFlag | AltFlag, "alternate",
                    [](const CloneInfo &C) { EXPECT_TRUE(C.hasLight()); });
}

TEST_F(AltTest, FasterAltFormIsChosenAndLaunchedOnItsOwnGrid) {
  const size_t Queries = D.OccupancyQueries.size();
  EXPECT_EQ(once(), pre(Pers));
  EXPECT_EQ(last().Grid[0], 8u);
  // The alternate form: P = 4 SMs x its 1 resident CTA, from its own
  // occupancy query, and a control block for its P.
  EXPECT_EQ(once(), alt(Pers));
  expectOnOwnGrid(4, FPersAlt, Queries + 2);
  EXPECT_EQ(once(), pre(Pers)); // full once more: the first was cold
  // Decided: alternate from now on, untimed.
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.switched_to_alt, 1u);
  EXPECT_EQ(St.timed_launches, 3u);
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(once(), alt(Pers));
  St = cloneStats();
  EXPECT_EQ(St.full_launches, 2u);
  EXPECT_EQ(St.alt_launches, 4u);
  EXPECT_EQ(St.light_launches, 0u);
  EXPECT_EQ(St.timed_launches, 3u);
  EXPECT_EQ(St.switched_to_light, 0u);
  EXPECT_EQ(St.switched_to_full, 0u);
  EXPECT_EQ(D.OccupancyQueries.size(), Queries + 2); // cached per shape
  expectExactlyOnce();
}

TEST_F(AltTest, SlowerAltFormKeepsTheFullClone) {
  D.Kernels[FPersAlt].Iters = 8;
  expectComparison();
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(once(), pre(Pers));
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.switched_to_alt, 0u);
  EXPECT_EQ(St.alt_launches, 1u);
  EXPECT_EQ(St.full_launches, 5u);
  expectExactlyOnce();
}

TEST_F(AltTest, AltLaunchStopsAtLoopCheckpointsAndIsRelaunchedAsItself) {
  expectComparison();
  ASSERT_EQ(cloneStats().switched_to_alt, 1u);
  D.Kernels[FPersAlt].Iters = 10;
  size_t First = 0;
  uint64_t Ctl = 0;
  ASSERT_EQ(preemptedPers(First, Ctl), alt(Pers));
  // Request 2, as for the full clone: its CTAs leave mid-loop.
  EXPECT_EQ(D.word(Ctl), 2u);
  EXPECT_EQ(D.Markers.count("after"), 0u);
  finish();
  expectExactlyOnce();
  EXPECT_GT(job(alt(Pers), 1).cuts(), 0u);
  ASSERT_GE(D.CloneLaunches.size(), First + 2);
  expectRelaunchedAs(First, alt(Pers), 4, Ctl);
  gmemSchedStats St = stats();
  EXPECT_EQ(St.preemptions, 1u);
  EXPECT_EQ(St.preemptions_loop, 1u);
  EXPECT_GE(St.relaunches, 1u);
  // Its timing was not taken (untimed, and preempted anyway): still alternate.
  EXPECT_EQ(once(), alt(Pers));
  EXPECT_EQ(cloneStats().switched_to_full, 0u);
}

TEST_F(AltTest, NonIdempotentLaunchStillTakesTheLightTwin) {
  expectComparison();
  ASSERT_EQ(once(), alt(Pers)); // the idempotent shape runs the alternate form
  // Request 1 arms no loop checkpoint: the light twin, timed the first
  // time (to compare with the shape's own form), then untimed while faster.
  const uint64_t Timed = cloneStats().timed_launches;
  D.ElapsedMs = 1e-4f; // faster than the alternate form's time
  EXPECT_EQ(once(/*Idempotent=*/false), light(Pers));
  D.ElapsedMs.reset();
  EXPECT_EQ(last().Grid[0], 12u);
  EXPECT_EQ(cloneStats().timed_launches, Timed + 1);
  EXPECT_EQ(once(/*Idempotent=*/false), light(Pers));
  EXPECT_EQ(cloneStats().timed_launches, Timed + 1);
  EXPECT_EQ(cloneStats().light_launches, 2u);
  expectExactlyOnce();
}

TEST_F(AltTest, WithoutLightTwinsEveryLaunchComparesTheFullForms) {
  // GMEM_PREEMPT_LIGHT=0: launches not found idempotent are timed too (their
  // stops take request 1 on either form).
  O.Light = false;
  make();
  EXPECT_EQ(once(false), pre(Pers));
  EXPECT_EQ(once(false), alt(Pers));
  EXPECT_EQ(once(false), pre(Pers));
  EXPECT_EQ(once(false), alt(Pers));
  D.Kernels[FPersAlt].Iters = 10;
  ASSERT_EQ(pers(BE, {40, 1, 1}, false), CUDA_SUCCESS);
  ASSERT_EQ(last().Name, alt(Pers));
  const uint64_t Ctl = last().Ctl;
  D.run(30);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  EXPECT_EQ(D.word(Ctl), 1u);
  finish();
  EXPECT_EQ(stats().preemptions_loop, 0u);
  EXPECT_EQ(cloneStats().light_launches, 0u);
  expectExactlyOnce();
}

TEST_F(AltTest, AltOffNeverLaunchesIt) {
  O.Alt = false;
  make();
  for (int I = 0; I < 6; ++I)
    EXPECT_EQ(once(), pre(Pers)) << I;
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.alt_launches, 0u);
  EXPECT_EQ(St.switched_to_alt, 0u);
  EXPECT_EQ(St.full_launches, 6u);
  EXPECT_EQ(St.timed_launches, 1u); // the first only: the full / light choice
  for (const auto &Q : D.OccupancyQueries)
    EXPECT_NE(Q.F, FPersAlt);
  expectExactlyOnce();
}

TEST_F(AltTest, AltFormWithoutAResidentGridStaysFull) {
  D.Kernels[FPersAlt].Occupancy = 0;
  EXPECT_EQ(once(), pre(Pers));
  EXPECT_EQ(once(), pre(Pers)); // the comparison's launch: full instead
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(once(), pre(Pers));
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.alt_launches, 0u);
  EXPECT_EQ(St.timed_launches, 2u); // not timed on and on waiting for it
  expectExactlyOnce();
}

TEST_F(AltTest, AltOptionFromTheEnvironment) {
  expectSwitchFromEnvironment("GMEM_PREEMPT_ALT", &SchedOptions::Alt);
}

TEST_F(AltTest, CloneStatsAltFieldsComeLast) {
  static_assert(offsetof(gmemSchedCloneStats, alt_launches) ==
                    offsetof(gmemSchedCloneStats, switched_to_full) + 8,
                "appended after the version-1 fields");
  static_assert(offsetof(gmemSchedCloneStats, switched_to_alt) + 8 ==
                    offsetof(gmemSchedCloneStats, free_launches),
                "the free form's fields come after it (SchedulerFreeTest.cpp)");
  expectComparison();
  ASSERT_EQ(once(), alt(Pers));
  // An older caller's struct ends at switched_to_full: nothing after it is
  // written.
  struct {
    gmemSchedCloneStats St;
    uint64_t After;
  } Buf;
  std::memset(&Buf, 0xAB, sizeof Buf);
  Buf.St.size = uint32_t(offsetof(gmemSchedCloneStats, alt_launches));
  ASSERT_EQ(gmemSchedGetCloneStats(&Buf.St), GMEM_SUCCESS);
  EXPECT_EQ(Buf.St.full_launches, 2u);
  EXPECT_EQ(Buf.St.alt_launches, 0xABABABABABABABABull);
  EXPECT_EQ(Buf.St.switched_to_alt, 0xABABABABABABABABull);
  Buf.St.size = sizeof(gmemSchedCloneStats);
  ASSERT_EQ(gmemSchedGetCloneStats(&Buf.St), GMEM_SUCCESS);
  EXPECT_EQ(Buf.St.alt_launches, 2u);
  EXPECT_EQ(Buf.St.switched_to_alt, 1u);
  EXPECT_EQ(Buf.After, 0xABABABABABABABABull);
}

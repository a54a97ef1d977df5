// Barrier-free forms of persistent clones (info flag PreHasFree,
// __gmem_prf_<K>) against a simulated GPU (FakeSchedDriver.h): resolved only
// with the flag, timed against the full clone per launch shape (with the
// alternate form when there is one, or as the only twin of a kernel without
// loop checkpoints), launched on their own resident grid, stopped with
// request 2 and relaunched as themselves; and above all never launched for a
// launch not proved idempotent, whatever its shape decided (a stop of the
// free form makes threads run virtual CTAs again). Off under
// GMEM_PREEMPT_FREE=0; its gmemSchedGetCloneStats fields.
#include "SchedulerTestFixture.h"
#include "VaryingShapes.h"

#include <cstddef>
#include <cstdlib>
#include <cstring>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {


// The fake GPU's clock is the timer (one step, 1 us) and runs one iteration
// of one virtual CTA per step whatever P: a launch of 40 virtual CTAs of I
// iterations takes ~40 I us. Full clone: 4 iterations (~160 us, P = 8, tau
// ~32 us: never light). The free form: 4 resident CTAs per SM (P = 16), 3
// iterations (~120 us).
struct FreeTestBase : SchedTest {
  void addFree(unsigned Iters = 3) {
    FakeSchedDriver::Kernel F = D.Kernels[FPersPre];
    F.Free = true;
    F.Occupancy = 4; // P = 16
    F.Iters = Iters;
    D.addKernel(FPersFree, Mod, freeForm(Pers), F);
  }
  /// One launch of pers(BE, {40, 1, 1}) run to its end; the clone it ran.
  std::string once(bool Idempotent = true) {
    EXPECT_EQ(pers(BE, {40, 1, 1}, Idempotent), CUDA_SUCCESS);
    const std::string Name = last().Name;
    finish();
    return Name;
  }
};

/// A kernel with loop checkpoints: light twin (P = 12), alternate form
/// (P = 4, 8 iterations: slower than the full clone) and free form.
struct FreeTest : FreeTestBase {
  void SetUp() override {
    SchedTest::SetUp();
    addPersLightTwin();
    FakeSchedDriver::Kernel A = D.Kernels[FPersPre];
    A.Occupancy = 1;
    A.Iters = 8;
    D.addKernel(FPersAlt, Mod, alt(Pers), A);
    addFree();
    D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag | LightFlag | AltFlag | FreeFlag);
  }
  /// The first comparison: full (cold), alternate, free, full again.
  void expectComparison() {
    EXPECT_EQ(once(), pre(Pers));
    EXPECT_EQ(once(), alt(Pers));
    EXPECT_EQ(once(), freeForm(Pers));
    EXPECT_EQ(last().Grid[0], 16u);
    EXPECT_EQ(once(), pre(Pers));
  }
};

/// An elementwise kernel: no loop checkpoints, no barriers; the free form
/// is its only twin.
struct FreeOnlyTest : FreeTestBase {
  void SetUp() override {
    SchedTest::SetUp();
    D.Kernels[FPersPre].LoopCheckpoints = false;
    addFree();
    D.Kernels[FPersFree].LoopCheckpoints = false;
    D.addInfo(Mod, Pers, PersistentFlag | FreeFlag);
  }
  void expectComparison() {
    EXPECT_EQ(once(), pre(Pers));
    EXPECT_EQ(once(), freeForm(Pers));
    EXPECT_EQ(once(), pre(Pers));
  }
};

} // namespace

TEST_F(FreeTest, FreeFormIsResolvedOnlyWithItsFlag) {
  CloneInfo C = resolveClone(D, EPers);
  ASSERT_TRUE(C.Ok) << C.Why;
  EXPECT_EQ(uintptr_t(C.form(CloneKind::Free).Fn), FPersFree);
  EXPECT_TRUE(C.form(CloneKind::Free).Why.empty());
  EXPECT_EQ(uintptr_t(C.function(CloneKind::Free)), FPersFree);
  EXPECT_EQ(C.kindOf(C.form(CloneKind::Free).Fn), CloneKind::Free);
  EXPECT_EQ(C.kindOf(C.form(CloneKind::Alt).Fn), CloneKind::Alt);
  EXPECT_EQ(C.residentPerSm(D, 128, 0, CloneKind::Free), 4);
  ClonePlan Plan;
  const unsigned G[3] = {40, 1, 1}, B[3] = {128, 1, 1};
  ASSERT_TRUE(planClone(D, C, 4, G, B, 0, Plan, CloneKind::Free));
  EXPECT_EQ(Plan.Grid[0], 16u);
  EXPECT_EQ(Plan.Words, 32u);
  // Without the flag the function is not looked at.
  D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag | LightFlag | AltFlag);
  C = resolveClone(D, EPers);
  ASSERT_TRUE(C.Ok);
  EXPECT_FALSE(C.hasFree());
  EXPECT_TRUE(C.hasAlt());
  EXPECT_TRUE(C.form(CloneKind::Free).Why.empty());
  EXPECT_FALSE(planClone(D, C, 4, G, B, 0, Plan, CloneKind::Free)); // no such form
  // Only persistent clones have free forms.
  D.addKernel(FTrainFree, Mod, freeForm(Train), D.Kernels[FTrainPre]);
  D.addInfo(Mod, Train, 1 | 4 | FreeFlag);
  C = resolveClone(D, ETrain);
  ASSERT_TRUE(C.Ok);
  EXPECT_FALSE(C.hasFree());
  // A form whose parameters differ from the clone's is left out, with why;
  // a missing one too.
  expectFormLeftOut(D, EPers, CloneKind::Free, FPersFree, freeForm(Pers),
                    1 | 4 | PersistentFlag | LightFlag | AltFlag | FreeFlag, "free",
                    [](const CloneInfo &C) { EXPECT_TRUE(C.hasAlt()); });
}

TEST_F(FreeTest, FasterFreeFormIsChosenAndLaunchedOnItsOwnGrid) {
  const size_t Queries = D.OccupancyQueries.size();
  EXPECT_EQ(once(), pre(Pers));
  EXPECT_EQ(last().Grid[0], 8u);
  EXPECT_EQ(once(), alt(Pers));
  EXPECT_EQ(last().Grid[0], 4u);
  // The free form: P = 4 SMs x its 4 resident CTAs, from its own occupancy
  // query, and a control block for its P.
  EXPECT_EQ(once(), freeForm(Pers));
  expectOnOwnGrid(16, FPersFree, Queries + 3);
  EXPECT_EQ(once(), pre(Pers)); // full once more: the first was cold
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.switched_to_free, 1u);
  EXPECT_EQ(St.switched_to_alt, 0u);
  EXPECT_EQ(St.timed_launches, 4u);
  // Decided: free from now on, untimed.
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(once(), freeForm(Pers));
  St = cloneStats();
  EXPECT_EQ(St.full_launches, 2u);
  EXPECT_EQ(St.alt_launches, 1u);
  EXPECT_EQ(St.free_launches, 4u);
  EXPECT_EQ(St.light_launches, 0u);
  EXPECT_EQ(St.timed_launches, 4u);
  EXPECT_EQ(D.OccupancyQueries.size(), Queries + 3); // cached per shape
  expectExactlyOnce();
}

TEST_F(FreeTest, FasterOfAltAndFreeWins) {
  D.Kernels[FPersAlt].Iters = 2; // ~80 us, the free form ~120 us
  expectComparison();
  EXPECT_EQ(once(), alt(Pers));
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.switched_to_alt, 1u);
  EXPECT_EQ(St.switched_to_free, 0u);
  expectExactlyOnce();
}

TEST_F(FreeTest, NonIdempotentLaunchTakesTheLightTwinAfterTheShapeDecidedFree) {
  expectComparison();
  ASSERT_EQ(cloneStats().switched_to_free, 1u);
  ASSERT_EQ(once(), freeForm(Pers)); // the idempotent shape runs the free form
  // Same shape (the key leaves pointers out), not proved idempotent: the
  // light twin, as without a free form, timed once (against the full
  // clone's time: the free form is not this launch's to run).
  const uint64_t Timed = cloneStats().timed_launches;
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(once(/*Idempotent=*/false), light(Pers)) << I;
  EXPECT_EQ(last().Grid[0], 12u);
  EXPECT_EQ(cloneStats().timed_launches, Timed + 1);
  EXPECT_EQ(once(), freeForm(Pers)); // the idempotent ones still run free
  expectExactlyOnce();
}

TEST_F(FreeTest, WithoutLightTwinsNonIdempotentLaunchesNeverRunFree) {
  // GMEM_PREEMPT_LIGHT=0: launches not found idempotent are stopped (request
  // 1) and consult the chooser for the alternate form; never the free form.
  O.Light = false;
  make();
  EXPECT_EQ(once(false), pre(Pers)); // cold, timed
  EXPECT_EQ(once(false), alt(Pers));
  // The comparison waits for the free form: this launch may not run it; it
  // goes on without (the warm full time decides between full and alternate).
  EXPECT_EQ(once(false), pre(Pers));
  EXPECT_EQ(cloneStats().timed_launches, 3u);
  EXPECT_EQ(cloneStats().free_launches, 0u);
  // The alternate form was slower: full. 1024 launches on, the other forms
  // are compared again, this time by idempotent launches.
  for (int I = 0; I < 1020; ++I) {
    ASSERT_EQ(pers(BE, {40, 1, 1}, false), CUDA_SUCCESS);
    ASSERT_EQ(last().Name, pre(Pers)) << I;
    if (I % 64 == 0)
      finish();
  }
  finish();
  EXPECT_EQ(once(), pre(Pers));
  EXPECT_EQ(once(), pre(Pers));
  EXPECT_EQ(once(), pre(Pers)); // the 1023rd
  EXPECT_EQ(once(), alt(Pers));
  EXPECT_EQ(once(), freeForm(Pers));
  ASSERT_EQ(cloneStats().switched_to_free, 1u);
  // Decided free: a launch not proved idempotent runs the full clone,
  // untimed, and is stopped with request 1.
  const uint64_t Timed = cloneStats().timed_launches;
  D.Kernels[FPersPre].Iters = 10;
  ASSERT_EQ(pers(BE, {40, 1, 1}, false), CUDA_SUCCESS);
  ASSERT_EQ(last().Name, pre(Pers));
  const uint64_t Ctl = last().Ctl;
  D.run(30);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  EXPECT_EQ(D.word(Ctl), 1u);
  finish();
  EXPECT_EQ(cloneStats().timed_launches, Timed);
  EXPECT_EQ(once(), freeForm(Pers));
  EXPECT_EQ(cloneStats().light_launches, 0u);
  expectExactlyOnce();
}

TEST_F(FreeTest, FreeOffNeverLaunchesIt) {
  O.Free = false;
  make();
  EXPECT_EQ(once(), pre(Pers));
  EXPECT_EQ(once(), alt(Pers));
  EXPECT_EQ(once(), pre(Pers));
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(once(), pre(Pers)) << I;
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.free_launches, 0u);
  EXPECT_EQ(St.switched_to_free, 0u);
  EXPECT_EQ(St.timed_launches, 3u);
  for (const auto &Q : D.OccupancyQueries)
    EXPECT_NE(Q.F, FPersFree);
  expectExactlyOnce();
}

TEST_F(FreeOnlyTest, OnlyTwinIsTimedAndChosen) {
  CloneInfo C = resolveClone(D, EPers);
  ASSERT_TRUE(C.Ok);
  EXPECT_TRUE(C.hasFree());
  EXPECT_FALSE(C.hasLight());
  EXPECT_FALSE(C.hasAlt());
  EXPECT_FALSE(C.loopStops());
  // Full (cold), free, full again: all three timed.
  expectComparison();
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.timed_launches, 3u);
  EXPECT_EQ(St.switched_to_free, 1u);
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(once(), freeForm(Pers));
  St = cloneStats();
  EXPECT_EQ(St.free_launches, 4u);
  EXPECT_EQ(St.full_launches, 2u);
  EXPECT_EQ(St.timed_launches, 3u);
  expectExactlyOnce();
}

TEST_F(FreeOnlyTest, FreeFormWithinTheMarginKeepsTheFullClone) {
  // 100 iterations against 99: 1% faster, not more than 2%.
  D.Kernels[FPersPre].Iters = 100;
  D.Kernels[FPersFree].Iters = 99;
  expectComparison();
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(once(), pre(Pers));
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.switched_to_free, 0u);
  EXPECT_EQ(St.free_launches, 1u);
  // 97 against 100: 3% faster, chosen (a fresh shape: another grid).
  D.Kernels[FPersFree].Iters = 97;
  for (int I = 0; I < 3; ++I) {
    ASSERT_EQ(pers(BE, {41, 1, 1}), CUDA_SUCCESS);
    finish();
  }
  ASSERT_EQ(pers(BE, {41, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(last().Name, freeForm(Pers));
  finish();
  EXPECT_EQ(cloneStats().switched_to_free, 1u);
  expectExactlyOnce();
}

TEST_F(FreeOnlyTest, NonIdempotentLaunchesNeverRunFree) {
  // Not proved idempotent, no twin it may use: the full clone, untimed (the
  // chooser is not asked).
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(once(false), pre(Pers));
  EXPECT_EQ(cloneStats().timed_launches, 0u);
  // Idempotent launches of the same shape decide free; one that is not,
  // arriving while the comparison waits for the free form's time, runs full
  // and leaves the comparison waiting.
  EXPECT_EQ(once(), pre(Pers));
  EXPECT_EQ(once(false), pre(Pers));
  EXPECT_EQ(once(), freeForm(Pers));
  EXPECT_EQ(once(false), pre(Pers));
  EXPECT_EQ(once(), pre(Pers));
  ASSERT_EQ(cloneStats().switched_to_free, 1u);
  EXPECT_EQ(once(), freeForm(Pers));
  // Decided free: still never for them, untimed.
  const uint64_t Timed = cloneStats().timed_launches;
  for (int I = 0; I < 70; ++I) {
    ASSERT_EQ(pers(BE, {40, 1, 1}, false), CUDA_SUCCESS);
    ASSERT_EQ(last().Name, pre(Pers)) << I;
    if (I % 16 == 0)
      finish();
  }
  finish();
  EXPECT_EQ(cloneStats().timed_launches, Timed);
  EXPECT_EQ(cloneStats().free_launches, 2u);
  expectExactlyOnce();
}

TEST_F(FreeOnlyTest, FreeLaunchIsStoppedWithRequest2AndRelaunchedAsItself) {
  expectComparison();
  ASSERT_EQ(cloneStats().switched_to_free, 1u);
  size_t First = 0;
  uint64_t Ctl = 0;
  D.Kernels[FPersFree].Iters = 10;
  ASSERT_EQ(preemptedPers(First, Ctl), freeForm(Pers));
  // Request 2, although the kernel has no loop checkpoints: the free form
  // is never stopped with request 1.
  EXPECT_EQ(D.word(Ctl), 2u);
  EXPECT_EQ(D.Markers.count("after"), 0u);
  finish();
  expectExactlyOnce();
  // The relaunch restarted each stopped CTA from its current virtual CTA:
  // finished ones ran again (the launch is idempotent).
  EXPECT_GT(job(freeForm(Pers), 1).reruns(), 0u);
  ASSERT_GE(D.CloneLaunches.size(), First + 2);
  expectRelaunchedAs(First, freeForm(Pers), 16, Ctl);
  gmemSchedStats St = stats();
  EXPECT_EQ(St.preemptions, 1u);
  EXPECT_GE(St.relaunches, 1u);
  // Its timing was not taken: still free.
  EXPECT_EQ(once(), freeForm(Pers));
  EXPECT_EQ(cloneStats().switched_to_full, 0u);
}

TEST_F(FreeOnlyTest, FreeFormWithoutAResidentGridStaysFull) {
  D.Kernels[FPersFree].Occupancy = 0;
  EXPECT_EQ(once(), pre(Pers));
  EXPECT_EQ(once(), pre(Pers)); // the comparison's launch: full instead
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(once(), pre(Pers));
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.free_launches, 0u);
  EXPECT_EQ(St.timed_launches, 2u); // not timed on and on waiting for it
  expectExactlyOnce();
}

TEST_F(FreeOnlyTest, FreeOffNeverTimesTheShape) {
  O.Free = false;
  make();
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(once(), pre(Pers));
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.free_launches, 0u);
  EXPECT_EQ(St.timed_launches, 0u); // no twin in use: the chooser is not asked
  expectExactlyOnce();
}

TEST_F(FreeOnlyTest, FreeOptionFromTheEnvironment) {
  expectSwitchFromEnvironment("GMEM_PREEMPT_FREE", &SchedOptions::Free);
}

TEST_F(FreeOnlyTest, CloneStatsFreeFieldsComeLast) {
  static_assert(offsetof(gmemSchedCloneStats, free_launches) ==
                    offsetof(gmemSchedCloneStats, switched_to_alt) + 8,
                "appended after the alternate form's fields");
  static_assert(offsetof(gmemSchedCloneStats, capped_launches) ==
                    offsetof(gmemSchedCloneStats, switched_to_free) + 8,
                "the overhead cap's field is appended after them");
  expectComparison();
  ASSERT_EQ(once(), freeForm(Pers));
  // A caller built before the free form's fields: nothing after
  // switched_to_alt is written.
  struct {
    gmemSchedCloneStats St;
    uint64_t After;
  } Buf;
  std::memset(&Buf, 0xAB, sizeof Buf);
  Buf.St.size = uint32_t(offsetof(gmemSchedCloneStats, free_launches));
  ASSERT_EQ(gmemSchedGetCloneStats(&Buf.St), GMEM_SUCCESS);
  EXPECT_EQ(Buf.St.full_launches, 2u);
  EXPECT_EQ(Buf.St.switched_to_alt, 0u);
  EXPECT_EQ(Buf.St.free_launches, 0xABABABABABABABABull);
  EXPECT_EQ(Buf.St.switched_to_free, 0xABABABABABABABABull);
  Buf.St.size = sizeof(gmemSchedCloneStats);
  ASSERT_EQ(gmemSchedGetCloneStats(&Buf.St), GMEM_SUCCESS);
  EXPECT_EQ(Buf.St.free_launches, 2u);
  EXPECT_EQ(Buf.St.switched_to_free, 1u);
  EXPECT_EQ(Buf.After, 0xABABABABABABABABull);
}

// Soundness under shared shapes (VaryingShapes.h): launches of ever-changing
// arguments share one chooser shape, which may decide the free form; a
// launch of that shape not proved idempotent must still never run it (the
// chooser is asked per launch with FreeOk, and the scheduler checks again).
TEST_F(FreeTest, ALaunchNotProvedIdempotentNeverRunsFreeUnderASharedShape) {
  int Arg = 1000;
  auto Next = [&](bool Idempotent) {
    N = Arg++; // a new scalar every launch
    return once(Idempotent);
  };
  for (int I = 0; I <= int(VaryingShapes::Recent); ++I)
    EXPECT_EQ(Next(true), pre(Pers)) << I; // each a new shape's first launch
  // One shared shape from here: its first comparison, then the free form.
  EXPECT_EQ(Next(true), pre(Pers));
  EXPECT_EQ(Next(true), alt(Pers));
  EXPECT_EQ(Next(true), freeForm(Pers));
  EXPECT_EQ(Next(true), pre(Pers));
  ASSERT_EQ(Next(true), freeForm(Pers));
  for (int I = 0; I < 5; ++I)
    EXPECT_NE(Next(/*Idempotent=*/false), freeForm(Pers)) << I;
  EXPECT_EQ(Next(true), freeForm(Pers));
  EXPECT_EQ(cloneStats().free_launches, 3u);
  expectExactlyOnce();
}

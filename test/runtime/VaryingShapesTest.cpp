// Launch shapes of kernels whose scalar arguments or grids change on every
// launch (VaryingShapes.h): a coarse shape (grid, block, shared memory)
// turns varying only when its launches keep bringing exact shapes not among
// the last 64 (more than 64 of them, and more than half of its recent
// launches: the counts halve every 256),
// a family (block, shared memory) likewise with coarse shapes; their
// launches then share one chooser shape, whose tau is the largest of its
// latest timings; against the simulated GPU, such launches stop being
// timed first launches and get the chooser's verdict (the light twin), and
// GMEM_PREEMPT_VARYING=0 keeps every argument set apart.
#include "SchedulerTestFixture.h"
#include "VaryingShapes.h"

#include <gtest/gtest.h>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {

constexpr uint64_t Family = 0xfa, Coarse = 0xc0a25e, Other = 0x07e2;

/// Feeds VS Launches launches of family Family, coarse shape C, exact shape
/// Key(I) for the I-th; the index of the first launch given the coarse
/// shape's shared key (-1: none).
template <typename KeyFn> int firstShared(VaryingShapes &VS, uint64_t C, int Launches, KeyFn Key) {
  for (int I = 0; I < Launches; ++I) {
    bool Varying = false;
    const uint64_t K = VS.keyFor(Family, C, Key(I), Varying);
    if (Varying) {
      EXPECT_EQ(K, VaryingShapes::coarseKey(C));
      return I;
    }
    EXPECT_EQ(K, Key(I)) << I;
  }
  return -1;
}

} // namespace

constexpr int R = int(VaryingShapes::Recent); // 64

TEST(VaryingShapes, ACoarseShapeWhoseEveryLaunchIsNewTurnsVaryingAfterSixtyFive) {
  VaryingShapes VS;
  // Launches 0..64 are 65 exact shapes, none among the last 64 before it:
  // the 65th arrival marks the coarse shape; launch 65 gets the shared key.
  EXPECT_EQ(firstShared(VS, Coarse, 200, [](int I) { return uint64_t(1000 + I); }), R + 1);
  EXPECT_TRUE(VS.coarseVaries(Coarse));
  EXPECT_FALSE(VS.familyVaries(Family)); // two coarse shapes: the family is not varying
  bool Varying = false;
  EXPECT_EQ(VS.keyFor(Family, Coarse, 5, Varying), VaryingShapes::coarseKey(Coarse)); // for good
  EXPECT_TRUE(Varying);
  EXPECT_FALSE(VS.coarseVaries(Other)); // per coarse shape
  EXPECT_EQ(VS.keyFor(Family, Other, 5, Varying), 5u);
  EXPECT_FALSE(Varying);
}

TEST(VaryingShapes, ACycleOfSixtyFourShapesOrMostlyRepeatedOnesStaysApart) {
  VaryingShapes VS;
  EXPECT_EQ(firstShared(VS, Coarse, 5000, [](int I) { return uint64_t(I % R); }), -1);
  // One new shape in every third launch, the others one repeated shape:
  // new ones are a third of the launches, never more than half.
  EXPECT_EQ(firstShared(VS, Other, 3000, [](int I) { return I % 3 ? 7u : uint64_t(100 + I); }),
            -1);
  EXPECT_FALSE(VS.coarseVaries(Coarse));
  EXPECT_FALSE(VS.coarseVaries(Other));
  // A cycle one longer than the memory looks new on every launch.
  VaryingShapes Longer;
  EXPECT_EQ(firstShared(Longer, Coarse, 500, [](int I) { return uint64_t(I % (R + 1)); }), R + 1);
}

TEST(VaryingShapes, ArgumentsThatStartVaryingAfterALongFixedRunTurnVaryingSoon) {
  VaryingShapes VS;
  // 20,000 launches of one argument set (gpu_bench's warm-up and fixed
  // runs), then a new set every launch: the arrivals are counted against
  // the group's recent launches, not all 20,000, so the coarse shape turns
  // varying within about two windows' halves of new launches.
  const int Fixed = 20000;
  const int First = firstShared(VS, Coarse, Fixed + 2000,
                                [&](int I) { return I < Fixed ? 7u : uint64_t(1000 + I); });
  ASSERT_GT(First, Fixed);
  EXPECT_LE(First - Fixed, int(VaryingShapes::Window)) << First - Fixed;
  // And the ratio still holds over a long run: one new set in every third
  // launch after the same fixed run never marks it.
  VaryingShapes Third;
  EXPECT_EQ(firstShared(Third, Coarse, Fixed + 6000,
                        [&](int I) { return I < Fixed || I % 3 ? 7u : uint64_t(1000 + I); }),
            -1);
}

TEST(VaryingShapes, GroupsBeyondTheMemoryAreForgottenRoundRobin) {
  VaryingShapes VS;
  firstShared(VS, Coarse, 2 * R, [](int I) { return uint64_t(I); });
  ASSERT_TRUE(VS.coarseVaries(Coarse));
  for (uint64_t C = 1; C <= VaryingShapes::MaxGroups; ++C) {
    bool Varying = false;
    VS.keyFor(C, C, 1, Varying); // a family of its own each: no family turns varying
  }
  EXPECT_FALSE(VS.coarseVaries(Coarse)); // its entry was reused: seen afresh
}

TEST(VaryingShapes, AFamilyWhoseGridsKeepChangingSharesOneShape) {
  VaryingShapes VS;
  // Grid I, exact shape per grid: after 65 new grids the family varies,
  // whatever the arguments.
  int First = -1;
  for (int I = 0; I < 2 * R && First < 0; ++I) {
    bool Varying = false;
    const uint64_t K = VS.keyFor(Family, 100 + I, 1000 + I, Varying);
    if (Varying) {
      EXPECT_EQ(K, VaryingShapes::familyKey(Family));
      First = I;
    } else {
      EXPECT_EQ(K, uint64_t(1000 + I));
    }
  }
  EXPECT_EQ(First, R + 1);
  EXPECT_TRUE(VS.familyVaries(Family));
  bool Varying = false;
  EXPECT_EQ(VS.keyFor(Family, 100, 5, Varying), VaryingShapes::familyKey(Family));
  EXPECT_NE(VaryingShapes::familyKey(Family), VaryingShapes::coarseKey(Family));
  // 64 grids in turn, each with its fixed arguments (a model's layers):
  // all kept apart.
  VaryingShapes Cycle;
  for (int I = 0; I < 5000; ++I) {
    EXPECT_EQ(Cycle.keyFor(Family, 100 + I % R, 1000 + I % R, Varying), uint64_t(1000 + I % R));
    EXPECT_FALSE(Varying);
  }
}

// A varying chooser shape sizes its check interval from the largest of its
// latest four timings; an exact shape from its latest.
TEST(CloneChooserVarying, TauIsTheLargestOfTheLatestFourTimings) {
  ChooserOptions O;
  O.HasLight = false;
  O.BatchUs = 4.0;
  CloneChooser C(O);
  constexpr uint64_t Shared = 0x5a, Exact = 0xe7;
  C.choose(Shared, false, false, /*Varying=*/true);
  C.choose(Exact);
  auto Both = [&](double TauUs) {
    C.record(Shared, CloneKind::Full, TauUs, 1, 1);
    C.record(Exact, CloneKind::Full, TauUs, 1, 1);
  };
  Both(0.5);
  EXPECT_EQ(C.batchFor(Shared), 8u);
  Both(2.0); // a launch of more work
  EXPECT_EQ(C.batchFor(Shared), 2u);
  for (int I = 0; I < 3; ++I) {
    Both(0.5);
    EXPECT_EQ(C.batchFor(Shared), 2u) << I; // 2 us is among the latest four
    EXPECT_EQ(C.batchFor(Exact), 8u) << I;
  }
  Both(0.5);
  EXPECT_EQ(C.batchFor(Shared), 8u);
}

TEST(CloneChooserVarying, OneSlowTimingAmongTheLatestKeepsAVaryingShapeOffTheLightTwin) {
  CloneChooser C; // light twin available, LightMaxUs 3
  constexpr uint64_t Shared = 0x5a;
  C.choose(Shared, false, false, true);
  C.record(Shared, CloneKind::Full, 10.0, 1, 1);
  EXPECT_EQ(C.state(Shared), CloneChooser::State::Full);
  C.record(Shared, CloneKind::Full, 1.0, 1, 1); // would send an exact shape light
  EXPECT_EQ(C.state(Shared), CloneChooser::State::Full);
}

namespace {

constexpr float FastMs = 0.004f; // tau under 1 us on the fake clone's P

struct VaryingTest : SchedTest {
  void SetUp() override {
    SchedTest::SetUp();
    addPersLightTwin();
    D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag | LightFlag);
    make();
  }
  /// Launches of pers(BE) with scalar argument First, First + 1, ...: how
  /// many ran the light twin.
  unsigned launchWithArguments(int First, int Count) {
    D.ElapsedMs = FastMs;
    unsigned Light = 0;
    for (int I = 0; I < Count; ++I) {
      N = First + I;
      EXPECT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
      Light += last().Name == light(Pers);
      finish();
    }
    return Light;
  }
};

} // namespace

TEST_F(VaryingTest, LaunchesOfEverChangingArgumentsGetTheChoosersVerdict) {
  // 65 new argument sets: each a shape's first launch, full and timed.
  EXPECT_EQ(launchWithArguments(100, R + 1), 0u);
  EXPECT_EQ(cloneStats().timed_launches, unsigned(R + 1));
  // Then one shape: its first launch full and timed (fast: light), then
  // light, the first light launch timed, and later ones every 16th.
  EXPECT_EQ(launchWithArguments(1000, 40), 39u);
  const gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.timed_launches, unsigned(R + 1) + 1 + 1 + 2);
  EXPECT_EQ(St.light_launches, 39u);
  expectExactlyOnce();
}

TEST_F(VaryingTest, LaunchesOfEverChangingGridsGetTheChoosersVerdict) {
  D.ElapsedMs = FastMs;
  unsigned Light = 0;
  for (unsigned I = 0; I < unsigned(R) + 41; ++I) {
    EXPECT_EQ(pers(BE, {40 + I, 1, 1}), CUDA_SUCCESS);
    Light += last().Name == light(Pers);
    finish();
  }
  // As with changing arguments: 65 timed first launches, then one shape.
  EXPECT_EQ(Light, 39u);
  EXPECT_EQ(cloneStats().timed_launches, unsigned(R + 1) + 1 + 1 + 2);
  expectExactlyOnce();
}

TEST_F(VaryingTest, VaryingOffKeepsEveryArgumentSetAShapeOfItsOwn) {
  O.Varying = false;
  make();
  EXPECT_EQ(launchWithArguments(100, R + 41), 0u);
  EXPECT_EQ(cloneStats().timed_launches, unsigned(R + 41));
  expectExactlyOnce();
}

TEST_F(VaryingTest, VaryingFromTheEnvironment) {
  ::setenv("GMEM_PREEMPT_VARYING", "0", 1);
  EXPECT_FALSE(SchedOptions::fromEnvironment().Varying);
  ::setenv("GMEM_PREEMPT_VARYING", "1", 1);
  EXPECT_TRUE(SchedOptions::fromEnvironment().Varying);
  ::unsetenv("GMEM_PREEMPT_VARYING");
  EXPECT_TRUE(SchedOptions::fromEnvironment().Varying);
}

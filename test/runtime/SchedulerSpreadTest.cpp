// Spread launches of persistent clones (CloneChoice.h, "Spread") against a
// simulated GPU (FakeSchedDriver.h): after a shape's form is decided one
// launch runs SpreadMax times the resident CTAs, timed, and the shape keeps
// that grid only where it ran faster; a spread launch is stopped and
// relaunched on its own grid with every virtual CTA run exactly once; a
// clone without twins takes part too; GMEM_PREEMPT_SPREAD sets the factor.
#include "SchedulerTestFixture.h"

#include <cstdlib>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {

// Pers's full clone: 4 SMs x 2 resident CTAs, P = 8; spread 4: P = 32.
struct SpreadTest : SchedTest {
  void SetUp() override {
    SchedTest::SetUp();
    O.SpreadMax = 4;
    make();
  }
  /// One launch of pers(BE, {40, 1, 1}) that the fake GPU times at Ms, run
  /// to its end; its grid.
  unsigned once(float Ms) {
    D.ElapsedMs = Ms;
    EXPECT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
    const unsigned P = last().Grid[0];
    finish();
    D.ElapsedMs.reset();
    return P;
  }
};

} // namespace

TEST_F(SpreadTest, FasterSpreadLaunchIsKeptForTheShape) {
  const uint64_t Timed0 = cloneStats().timed_launches;
  EXPECT_EQ(once(2.0f), 8u); // the first launch: full at spread 1, timed, decides
  EXPECT_EQ(once(1.0f), 32u); // the probe at 4 x the resident CTAs, faster
  EXPECT_EQ(cloneStats().timed_launches, Timed0 + 2);
  EXPECT_EQ(last().Name, pre(Pers));
  EXPECT_EQ(last().UserGrid[0], 40u);
  EXPECT_GE(D.MemsetWords[last().Ctl], 2u + 2 * 32 + 1); // redo and resume words for 32
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(once(1.0f), 32u);
  EXPECT_EQ(cloneStats().timed_launches, Timed0 + 2); // decided: untimed
  expectExactlyOnce();
}

TEST_F(SpreadTest, SlowerSpreadLaunchLeavesTheShapeOnItsResidentGrid) {
  EXPECT_EQ(once(2.0f), 8u);
  EXPECT_EQ(once(2.5f), 32u);
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(once(2.0f), 8u);
  expectExactlyOnce();
}

TEST_F(SpreadTest, SpreadLaunchIsStoppedAndRelaunchedOnItsOwnGrid) {
  ASSERT_EQ(once(2.0f), 8u);
  ASSERT_EQ(once(1.0f), 32u);
  D.Kernels[FPersPre].Iters = 10;
  size_t First = 0;
  uint64_t Ctl = 0;
  ASSERT_EQ(preemptedPers(First, Ctl), pre(Pers));
  ASSERT_EQ(D.CloneLaunches[First].Grid[0], 32u);
  EXPECT_EQ(D.word(Ctl), 2u); // stopped at its loop checkpoints
  EXPECT_EQ(D.Markers.count("after"), 0u);
  finish();
  expectExactlyOnce();
  EXPECT_GT(job(pre(Pers), 2).cuts(), 0u);
  ASSERT_GE(D.CloneLaunches.size(), First + 2);
  expectRelaunchedAs(First, pre(Pers), 32, Ctl);
  EXPECT_GE(stats().relaunches, 1u);
}

TEST_F(SpreadTest, SpreadComesFromTheEnvironment) {
  EXPECT_EQ(SchedOptions::fromEnvironment().SpreadMax, 4u);
  setenv("GMEM_PREEMPT_SPREAD", "1", 1);
  EXPECT_EQ(SchedOptions::fromEnvironment().SpreadMax, 1u);
  setenv("GMEM_PREEMPT_SPREAD", "1000", 1);
  EXPECT_EQ(SchedOptions::fromEnvironment().SpreadMax, 64u);
  setenv("GMEM_PREEMPT_SPREAD", "0", 1);
  EXPECT_EQ(SchedOptions::fromEnvironment().SpreadMax, 1u);
  unsetenv("GMEM_PREEMPT_SPREAD");
  // Off: never a probe.
  O.SpreadMax = 1;
  make();
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(once(I ? 1.0f : 2.0f), 8u);
}

// Timed launches on idle streams (SchedOptions::IdleTimingSkips,
// CloneChooser::timeOnIdleStream): a launch the chooser wants timed that
// would start on an idle stream is left untimed (its time would hold the
// host's launch call), up to three times in a row per shape, then timed
// anyway; on a busy stream it is timed at once.
#include "SchedulerTestFixture.h"

#include <gtest/gtest.h>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {

struct TimingTest : SchedTest {
  void SetUp() override {
    SchedTest::SetUp();
    // A light twin gives the chooser something to time for (as LightTest).
    FakeSchedDriver::Kernel L = D.Kernels[FPersPre];
    L.LoopCheckpoints = false;
    L.Occupancy = 3;
    D.addKernel(FPersLight, Mod, light(Pers), L);
    D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag | LightFlag);
    O.IdleTimingSkips = 3;
    make();
  }
};

} // namespace

TEST_F(TimingTest, AnUnknownShapeOnAnIdleStreamIsTimedOnlyAtItsFourthLaunch) {
  D.ElapsedMs = 0.1f;
  for (int I = 0; I < 4; ++I) {
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
    finish(); // the stream is idle at the next launch
    EXPECT_EQ(cloneStats().timed_launches, I < 3 ? 0u : 1u) << I;
  }
  const gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.idle_timing_skips, 3u);
  // The shape is decided now: no more timings asked for a while.
  for (int I = 0; I < 5; ++I) {
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
    finish();
  }
  EXPECT_EQ(cloneStats().timed_launches, 1u);
  expectExactlyOnce();
}

TEST_F(TimingTest, ALaunchBehindWorkOnItsStreamIsTimedAtOnce) {
  D.ElapsedMs = 0.1f;
  D.Kernels[FTrainPre].Iters = 10;
  ASSERT_EQ(train(BE), CUDA_SUCCESS); // still running at the next launch
  const uint64_t Before = cloneStats().timed_launches;
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(cloneStats().timed_launches, Before + 1);
  EXPECT_EQ(cloneStats().idle_timing_skips, 0u);
  finish();
  expectExactlyOnce();
}

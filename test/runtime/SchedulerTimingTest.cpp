// Timed launches as compiled on idle streams (SchedOptions::IdleTimingSkips,
// CloneChooser::timeOnIdleStream): a short-launch shape's original that the
// chooser wants timed and that would start on an idle stream is left
// untimed (its time would hold the host's launch call), up to three times
// in a row per shape, then timed anyway; on a busy stream it is timed at
// once; clone timings (which may be one-off probes) are never left out.
#include "SchedulerTestFixture.h"

#include <gtest/gtest.h>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {

struct TimingTest : SchedTest {
  void SetUp() override {
    SchedTest::SetUp();
    O.ShortUs = 10;
    O.IdleTimingSkips = 3;
    make();
  }
  /// One launch of the short-shaped kernel (4 us on the fake GPU), finished.
  void launch() {
    D.ElapsedMs = 0.004f;
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
    finish(); // the stream is idle at the next launch
  }
};

} // namespace

TEST_F(TimingTest, TheOriginalOnAnIdleStreamIsTimedOnlyAtTheFourthAsking) {
  launch(); // the clone, timed at once (an idle stream does not matter)
  EXPECT_EQ(cloneStats().timed_launches, 1u);
  EXPECT_EQ(cloneStats().idle_timing_skips, 0u);
  for (int I = 0; I < 4; ++I) {
    launch(); // the original, to be timed
    EXPECT_EQ(cloneStats().timed_launches, I < 3 ? 1u : 2u) << I;
  }
  EXPECT_EQ(cloneStats().idle_timing_skips, 3u);
  EXPECT_EQ(OriginalCalls, 4);
  launch(); // short now: ungated, untimed
  const gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.timed_launches, 2u);
  EXPECT_EQ(St.short_ungated_launches, 1u);
  expectExactlyOnce();
}

TEST_F(TimingTest, TheOriginalBehindWorkOnItsStreamIsTimedAtOnce) {
  launch();
  D.Kernels[FTrainPre].Iters = 10;
  ASSERT_EQ(train(BE), CUDA_SUCCESS); // still running at the next launch
  const uint64_t Before = cloneStats().timed_launches;
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(cloneStats().timed_launches, Before + 1);
  EXPECT_EQ(cloneStats().idle_timing_skips, 0u);
  finish();
  expectExactlyOnce();
}

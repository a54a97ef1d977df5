// Timed launches as compiled on idle streams (SchedOptions::LatchIdleTimings,
// Scheduler::timedOriginal): a launch as compiled that the chooser wants
// timed and that finds its stream idle waits at a latch word in front of
// its start mark, which the control stream opens only once the launch and
// its end mark are on the stream (else the time would hold the rest of the
// host's launch call). Behind other work there is no latch; a launch the
// driver refuses still opens its latch; GMEM_PREEMPT_LATCH=0 turns it off.
#include "SchedulerTestFixture.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {

struct TimingTest : SchedTest {
  void SetUp() override {
    SchedTest::SetUp();
    O.ShortUs = 10;
    O.LatchIdleTimings = true;
    make();
  }
  /// One launch of the short-shaped kernel (4 us on the fake GPU), finished.
  void launch() {
    D.ElapsedMs = 0.004f;
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
    finish(); // the stream is idle at the next launch
  }
  /// The index in D.Calls of the first call starting with Prefix at or
  /// after From (Calls.size() if none).
  size_t find(const std::string &Prefix, size_t From = 0) const {
    for (size_t I = From; I < D.Calls.size(); ++I)
      if (D.Calls[I].rfind(Prefix, 0) == 0)
        return I;
    return D.Calls.size();
  }
  /// The latch waits on BE among the calls (the gate waits test == 0).
  size_t latchWaits() const {
    return size_t(std::count_if(D.Calls.begin(), D.Calls.end(), [&](const std::string &C) {
      return C.rfind("wait " + D.name(BE), 0) == 0 && C.find("==0") == std::string::npos;
    }));
  }
};

} // namespace

TEST_F(TimingTest, TheOriginalOnAnIdleStreamStartsBehindALatchOpenedOnceItIsOnTheStream) {
  launch(); // the clone, timed at once
  EXPECT_EQ(cloneStats().timed_launches, 1u);
  D.Calls.clear();
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS); // the original, to be timed
  EXPECT_EQ(OriginalCalls, 1);
  // Order on the host: the latch wait, the start mark, (the kernel, which
  // the fake's call list leaves out,) the end mark, and only then the
  // control stream's write that opens the latch.
  size_t Wait = find("wait " + D.name(BE)); // the gate's (== 0), then the latch's
  while (Wait < D.Calls.size() && D.Calls[Wait].find("==0") != std::string::npos)
    Wait = find("wait " + D.name(BE), Wait + 1);
  ASSERT_LT(Wait, D.Calls.size());
  const std::string Value = D.Calls[Wait].substr(D.Calls[Wait].find("==") + 2);
  EXPECT_NE(Value, "0");
  const size_t Start = find("record " + D.name(BE), Wait);
  const size_t End = find("record " + D.name(BE), Start + 1);
  const size_t Open = find("write ", End);
  ASSERT_LT(Open, D.Calls.size()) << "the latch was never opened";
  EXPECT_NE(D.Calls[Open].find("=" + Value), std::string::npos) << D.Calls[Open];
  // The stream does not pass the latch before the write lands, and it does.
  finish();
  const gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.timed_launches, 2u);
  EXPECT_EQ(St.latched_timings, 1u);
  EXPECT_EQ(St.idle_timing_skips, 0u);
  launch(); // 4 us: short now, ungated, untimed, no latch
  EXPECT_EQ(cloneStats().short_ungated_launches, 1u);
  EXPECT_EQ(cloneStats().latched_timings, 1u);
  expectExactlyOnce();
}

TEST_F(TimingTest, EveryLatchOpensWithANewValue) {
  // Re-timings reuse a timing slot, and so its latch word: each time opens
  // it with a value the word does not hold yet, or the wait would pass at
  // once. Here the shape is never short (12 us), so every 64th launch is
  // timed as compiled again, on an idle stream.
  D.ElapsedMs = 0.012f;
  std::vector<std::string> Values;
  for (int I = 0; I < 200; ++I) {
    D.Calls.clear();
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
    size_t Wait = find("wait " + D.name(BE));
    while (Wait < D.Calls.size() && D.Calls[Wait].find("==0") != std::string::npos)
      Wait = find("wait " + D.name(BE), Wait + 1);
    if (Wait < D.Calls.size())
      Values.push_back(D.Calls[Wait].substr(D.Calls[Wait].find("==") + 2));
    finish();
  }
  ASSERT_GE(Values.size(), 2u);
  for (size_t I = 1; I < Values.size(); ++I)
    EXPECT_NE(Values[I], Values[I - 1]);
  EXPECT_EQ(cloneStats().latched_timings, Values.size());
  expectExactlyOnce();
}

TEST_F(TimingTest, TheOriginalBehindWorkOnItsStreamIsTimedWithoutALatch) {
  launch();
  D.Kernels[FTrainPre].Iters = 10;
  ASSERT_EQ(train(BE), CUDA_SUCCESS); // still running at the next launch
  const uint64_t Before = cloneStats().timed_launches;
  D.Calls.clear();
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(cloneStats().timed_launches, Before + 1);
  EXPECT_EQ(cloneStats().latched_timings, 0u);
  EXPECT_EQ(latchWaits(), 0u);
  finish();
  expectExactlyOnce();
}

TEST_F(TimingTest, AnOriginalTheDriverRefusesStillOpensItsLatch) {
  launch();
  FailOriginals = true;
  EXPECT_EQ(pers(BE, {40, 1, 1}), CUDA_ERROR_INVALID_VALUE); // its error, as asked
  EXPECT_EQ(latchWaits(), 1u);
  FailOriginals = false;
  // The stream goes on: a later launch on it runs and finishes.
  D.ElapsedMs = 0.004f;
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  finish();
  EXPECT_TRUE(D.idle());
  EXPECT_EQ(cloneStats().latched_timings, 0u); // no time was taken
}

TEST_F(TimingTest, NoLatchWhenTurnedOff) {
  O.LatchIdleTimings = false;
  make();
  launch();
  for (int I = 0; I < 4; ++I)
    launch();
  EXPECT_EQ(latchWaits(), 0u);
  EXPECT_EQ(cloneStats().latched_timings, 0u);
  EXPECT_GE(cloneStats().timed_launches, 2u);
  expectExactlyOnce();
}

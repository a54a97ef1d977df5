// When a clone launch waits on its level's gate (Scheduler::gatedLaunch):
// only where a stop request could miss it. A clone launched while its level
// runs, into a stream whose tracked launches are all of its level, with a
// control block already zero, goes without the wait (~1.3-1.9 us of the
// program's stream on the H200); a later suppression then stops it, or a
// launch in front of it whose hold keeps it back. Stream order, the urgent
// work's priority and every CTA running exactly once are checked on the
// fake GPU.

#include "SchedulerTestFixture.h"

#include <algorithm>
#include <cstddef>

namespace gmem {
namespace rt {
namespace sched {
namespace test {
namespace {

struct GateTest : SchedTest {
  /// The calls on stream BE since the last clear, by kind ("wait",
  /// "launch", ...), from the last clone launch's set-up on.
  std::vector<std::string> onBE() {
    std::vector<std::string> Out;
    for (auto &C : D.Calls)
      if (C.find(" BE") != std::string::npos)
        Out.push_back(C.substr(0, C.find(' ')));
    return Out;
  }
  /// Two clone launches in a row, run to their end and recycled: their
  /// control blocks are zeroed on the side stream, ready for the next.
  void warmUp() {
    ASSERT_EQ(train(BE), CUDA_SUCCESS);
    ASSERT_EQ(train(BE), CUDA_SUCCESS);
    finish();
    ASSERT_EQ(train(BE), CUDA_SUCCESS); // recycles the two above
    finish();
    D.Calls.clear();
  }
  uint64_t ungated() { return cloneStats().ungated_launches; }
};

static_assert(offsetof(gmemSchedCloneStats, ungated_launches) ==
                  offsetof(gmemSchedCloneStats, capped_launches) + 8,
              "appended after the overhead cap's field");

TEST_F(GateTest, ACloneWithAZeroedBlockOnARunningLevelSkipsTheGate) {
  warmUp();
  const uint64_t Before = ungated();
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  // No wait in front of the clone: launch, drain event, hold wait, done.
  EXPECT_EQ(onBE(), (std::vector<std::string>{"launch", "record", "wait", "record"}));
  EXPECT_EQ(ungated(), Before + 1);
  finish();
  expectExactlyOnce();
}

TEST_F(GateTest, GateAlwaysKeepsTheWait) {
  O.GateAlways = true;
  make();
  warmUp();
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  EXPECT_EQ(onBE(), (std::vector<std::string>{"wait", "launch", "record", "wait", "record"}));
  EXPECT_EQ(ungated(), 0u);
  finish();
  expectExactlyOnce();
}

TEST_F(GateTest, ACloneLaunchedWhileItsLevelIsSuppressedWaitsAtTheGate) {
  warmUp();
  suppressBusyBestEffort();
  ASSERT_EQ(accum(BE), CUDA_SUCCESS);
  const std::vector<std::string> Calls = onBE();
  ASSERT_FALSE(Calls.empty());
  EXPECT_EQ(Calls.front(), "wait");
  finish();
  expectExactlyOnce();
  EXPECT_GT(job(pre(Accum)).FirstStartStep, job(Infer).LastCompleteStep);
}

TEST_F(GateTest, ACloneQueuedBehindOneOfItsLevelWaitsBehindItsHold) {
  warmUp();
  D.Kernels[FTrainPre].Iters = 10;
  ASSERT_EQ(train(BE, 8, /*Idempotent=*/true), CUDA_SUCCESS); // A: runs first
  ASSERT_EQ(accum(BE), CUDA_SUCCESS);                        // B: queued, no gate
  D.marker(BE, "after");
  const std::vector<std::string> Calls = onBE();
  EXPECT_EQ(std::count(Calls.begin(), Calls.end(), "wait"), 2); // the two holds only
  D.run(15);
  ASSERT_EQ(infer(RT, 6), CUDA_SUCCESS);
  finish();
  expectExactlyOnce();
  const uint64_t UrgentDone = job(Infer).LastCompleteStep;
  EXPECT_GT(job(pre(Accum), 0).FirstStartStep, UrgentDone);
  EXPECT_GT(D.Markers["after"], job(pre(Accum)).LastCompleteStep);
  EXPECT_EQ(stats().preemptions, 1u); // A only: B never started
}

TEST_F(GateTest, AnUngatedCloneThatIsFirstInItsStreamIsStoppedItself) {
  warmUp();
  // A kernel without a clone in front (held at the gate, then runs as it
  // is): the clone behind it is the stream's first tracked launch that has
  // not drained, so the suppression stops it before it starts any CTA.
  LaunchRecord NoClone = record(EPlain, true);
  ASSERT_EQ(launch(FPlain, 6, BE, &NoClone), CUDA_SUCCESS);
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.marker(BE, "after");
  EXPECT_EQ(ungated(), 1u);
  D.run(3); // the kernel without a clone runs
  ASSERT_EQ(infer(RT, 6), CUDA_SUCCESS);
  finish();
  expectExactlyOnce();
  const uint64_t UrgentDone = job(Infer).LastCompleteStep;
  EXPECT_GT(job(pre(Train), 3).FirstStartStep, UrgentDone);
  EXPECT_GT(D.Markers["after"], job(pre(Train), 3).LastCompleteStep);
  EXPECT_EQ(stats().preemptions, 1u);
  EXPECT_EQ(stats().relaunches, 1u);
}

TEST_F(GateTest, ATrackedLaunchOfAnotherLevelInFrontKeepsTheGate) {
  // A stream that changes level with work in flight waits for itself (its
  // level-3 launch suppresses its own level-2 clone in front of it): only
  // the forced resume ends that, at once here.
  O.MaxHoldNs = 1;
  make();
  warmUp();
  ASSERT_EQ(gmemSchedSetStreamPriority(BE, 2), GMEM_SUCCESS);
  D.Kernels[FTrainPre].Iters = 10;
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  ASSERT_EQ(gmemSchedSetStreamPriority(BE, 3), GMEM_SUCCESS);
  D.Calls.clear();
  const uint64_t Before = ungated();
  ASSERT_EQ(accum(BE), CUDA_SUCCESS);
  // Level 3 runs, but the stream's level-2 clone in front is no victim of a
  // suppression of level 3 alone: the new launch keeps its gate.
  const std::vector<std::string> Calls = onBE();
  ASSERT_FALSE(Calls.empty());
  EXPECT_EQ(Calls.front(), "wait");
  EXPECT_EQ(ungated(), Before);
  finish();
  expectExactlyOnce();
}

} // namespace
} // namespace test
} // namespace sched
} // namespace rt
} // namespace gmem

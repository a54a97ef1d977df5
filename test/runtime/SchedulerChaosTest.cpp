// Chaos testing (GMEM_SCHED_CHAOS): with nothing urgent in the program, the
// monitor itself preempts every level below real time at random moments
// and resumes it after a random hold. Every launch must still run every
// (virtual) CTA exactly once, in stream order, and an idle program must
// not keep the monitor busy. Also the hang chaos testing found on the GPU
// (a stream filled behind a closed gate while the scheduler's lock was
// held), now avoided by holding such launches on the host.
#include "SchedulerTestFixture.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {

struct SchedChaosTest : SchedTest {
  void SetUp() override {
    SchedTest::SetUp();
    // 1 ns: a synthetic preemption at nearly every poll, held for none, so
    // each launch is stopped and relaunched many times.
    O.ChaosIntervalNs = 1;
    make();
  }
};

} // namespace

TEST_F(SchedChaosTest, RandomPreemptionsKeepEveryCtaExactlyOnceAndStreamOrder) {
  D.Kernels[FTrainPre].Iters = 6;
  D.Kernels[FAccumPre].Iters = 6;
  D.Kernels[FPersPre].Iters = 3;
  launchMixedBestEffort();
  ASSERT_FALSE(HasFatalFailure());
  finish();
  expectExactlyOnce();
  expectMixedInStreamOrder();
  const gmemSchedStats St = stats();
  EXPECT_GE(St.suppressions, 4u);
  EXPECT_GE(St.preemptions, 4u);
  EXPECT_GE(St.relaunches, 4u);
  EXPECT_EQ(St.forced_resumes, 0u);
  // Nothing left in flight: the monitor has nothing more to do.
  EXPECT_FALSE(S->poll());
}

TEST_F(SchedChaosTest, RealTimeLaunchesAreNeverStopped) {
  ASSERT_EQ(infer(RT, 6), CUDA_SUCCESS);
  ASSERT_EQ(train(BE, 8), CUDA_SUCCESS);
  finish();
  expectExactlyOnce();
  ASSERT_FALSE(D.CloneLaunches.empty());
  for (const auto &CL : D.CloneLaunches)
    EXPECT_EQ(CL.Name, pre(Train)); // the real-time kernel ran as it is
  EXPECT_EQ(OriginalCalls, 1);
}

TEST_F(SchedChaosTest, OffUnlessAskedAndNeverWhenTheSchedulerIsForbidden) {
  unsetenv("GMEM_SCHED");
  unsetenv("GMEM_PRIORITY");
  unsetenv("GMEM_SCHED_CHAOS");
  SchedOptions Off = SchedOptions::fromEnvironment();
  EXPECT_EQ(Off.ChaosIntervalNs, 0u);
  EXPECT_FALSE(Off.ActiveAtStart);
  setenv("GMEM_SCHED_CHAOS", "50", 1);
  SchedOptions On = SchedOptions::fromEnvironment();
  EXPECT_EQ(On.ChaosIntervalNs, 50000u);
  EXPECT_TRUE(On.ActiveAtStart); // chaos alone turns the scheduler on
  setenv("GMEM_SCHED", "0", 1);
  EXPECT_TRUE(SchedOptions::fromEnvironment().Forbidden);
  unsetenv("GMEM_SCHED");
  setenv("GMEM_SCHED_CHAOS", "x", 1); // not a number: off, with a message
  EXPECT_EQ(SchedOptions::fromEnvironment().ChaosIntervalNs, 0u);
  unsetenv("GMEM_SCHED_CHAOS");
}

TEST_F(SchedChaosTest, SomeLaunchesAreStoppedRightAfterTheyAreEnqueued) {
  // No poll between the launches: only the launch-time stops can happen
  // (one launch in four, seeded); the monitor then finishes everything.
  for (int I = 0; I < 16; ++I) {
    CUstream Str = D.userStream();
    ASSERT_EQ(train(Str, 4), CUDA_SUCCESS);
    const bool Stopped = stats().suppressions > 0;
    if (Stopped)
      break;
    EXPECT_LT(I, 15) << "no launch-time stop in 16 launches";
  }
  EXPECT_EQ(stats().suppressions, 1u);
  finish();
  expectExactlyOnce();
}

/// Waits until Count reaches N (5 s at most), then 50 ms more, in which a
/// launch past the N-th that was not held would be back: Count then.
static int settledAt(const std::atomic<int> &Count, int N) {
  const auto End = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (Count < N && std::chrono::steady_clock::now() < End)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return Count;
}

// Found by chaos testing (PolyBench's 3DCONV, 254 launches in a row under
// GMEM_SCHED_CHAOS, hung on the H200): behind a closed gate a stream fills
// up and the driver blocks the enqueuing call, with the scheduler's lock
// held, so the monitor could never reopen the gate. Past HostHoldAfter
// unfinished launches on a stream that cannot move, a launch waits on the
// host without the lock, until the monitor resumes the level.
TEST_F(SchedTest, LaunchesPastTheQueueBoundWaitOnTheHostUntilTheResume) {
  O.HostHoldAfter = 3;
  make();
  ASSERT_EQ(train(BE, 4), CUDA_SUCCESS);
  finish(); // level 0 in use, nothing of it running
  ASSERT_EQ(infer(RT), CUDA_SUCCESS); // level 0 suppressed, no victim
  CUstream Q = D.userStream();
  D.Names[Q] = "Q";
  const size_t Before = D.CloneLaunches.size();
  std::atomic<int> Returned{0};
  std::thread Program([&] {
    for (int I = 0; I < 5; ++I) {
      EXPECT_EQ(train(Q, 4), CUDA_SUCCESS);
      ++Returned;
    }
  });
  // The fourth launch waits (and touches nothing of the simulated GPU).
  EXPECT_EQ(settledAt(Returned, 3), 3);
  EXPECT_EQ(D.CloneLaunches.size(), Before + 3); // three behind the gate, on the GPU
  // The urgent work finishes; the monitor's next poll resumes level 0.
  D.run(40);
  S->poll();
  Program.join();
  EXPECT_EQ(Returned, 5);
  finish();
  expectExactlyOnce();
  EXPECT_EQ(D.CloneLaunches.size(), Before + 5);
  EXPECT_GT(job(pre(Train), 1).FirstStartStep, job(Infer).LastCompleteStep);
}

// The same for launches without a control block (a kernel without a clone,
// one the overhead cap or the short-launch rule runs as compiled): behind
// the closed gate they fill the stream as well, so they count towards the
// bound while their level stays suppressed.
TEST_F(SchedTest, LaunchesAsCompiledPastTheQueueBoundWaitOnTheHostToo) {
  O.HostHoldAfter = 3;
  make();
  ASSERT_EQ(train(BE, 4), CUDA_SUCCESS);
  finish();
  ASSERT_EQ(infer(RT), CUDA_SUCCESS); // level 0 suppressed, no victim
  CUstream Q = D.userStream();
  D.Names[Q] = "Q";
  const int Before = OriginalCalls; // (the urgent launch ran as compiled too)
  std::atomic<int> Returned{0};
  std::thread Program([&] {
    for (int I = 0; I < 5; ++I) {
      EXPECT_EQ(launch(FTrain, 4, Q, nullptr), CUDA_SUCCESS); // no record: as compiled
      ++Returned;
    }
  });
  EXPECT_EQ(settledAt(Returned, 3), 3);
  EXPECT_EQ(OriginalCalls, Before + 3); // three behind the gate
  D.run(40);
  S->poll(); // resumes level 0
  Program.join();
  EXPECT_EQ(Returned, 5);
  EXPECT_EQ(OriginalCalls, Before + 5);
  finish();
}

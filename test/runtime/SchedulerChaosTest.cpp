// Chaos testing (GMEM_SCHED_CHAOS): with nothing urgent in the program, the
// monitor itself preempts every level below real time at random moments
// and resumes it after a random hold. Every launch must still run every
// (virtual) CTA exactly once, in stream order, and an idle program must
// not keep the monitor busy. Also the two bugs chaos testing found on the
// GPU: the scheduler's lock held while enqueuing on a program's stream
// (a hang), and, once released there, a launch being enqueued that an
// urgent launch must still stop.
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
  CUstream Other = D.userStream();
  D.Names[Other] = "Other";
  D.Kernels[FTrainPre].Iters = 6;
  D.Kernels[FAccumPre].Iters = 6;
  D.Kernels[FPersPre].Iters = 3;
  ASSERT_EQ(train(BE, 12, /*Idempotent=*/true), CUDA_SUCCESS);
  ASSERT_EQ(accum(BE, 10), CUDA_SUCCESS); // not idempotent: stops at CTA entry
  D.marker(BE, "after-accum");
  ASSERT_EQ(pers(Other, {40, 1, 1}, /*Idempotent=*/true), CUDA_SUCCESS);
  ASSERT_EQ(pers(Other, {40, 1, 1}, /*Idempotent=*/false), CUDA_SUCCESS);
  D.marker(Other, "after-pers");
  finish();
  expectExactlyOnce();
  EXPECT_GT(D.Markers["after-accum"], job(pre(Accum)).LastCompleteStep);
  EXPECT_GT(job(pre(Accum)).FirstStartStep, job(pre(Train)).LastCompleteStep);
  EXPECT_GT(D.Markers["after-pers"], job(pre(Pers), 1).LastCompleteStep);
  EXPECT_GT(job(pre(Pers), 1).FirstStartStep, job(pre(Pers), 0).LastCompleteStep);
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

// Found by chaos testing (PolyBench's 3DCONV: 254 launches in a row under
// GMEM_SCHED_CHAOS hung on the H200): a launch behind a closed gate fills
// its stream, and the driver then blocks the next enqueuing call. If the
// scheduler held its context lock there, the monitor could never reopen the
// gate. So no call that enqueues on a program's stream may hold it: while
// the best-effort launches below enqueue, the monitor must get through a
// poll.
TEST_F(SchedTest, EnqueuingOnAProgramStreamDoesNotHoldTheSchedulerLock) {
  ASSERT_EQ(train(BE, 8), CUDA_SUCCESS);
  D.run(3);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS); // level 0 suppressed: BE's gate closed
  int Checked = 0, Blocked = 0;
  D.OnEnqueue = [&](CUstream Str) {
    if (Str != BE && Str != RT)
      return;
    ++Checked;
    std::atomic<bool> Done{false};
    std::thread Monitor([&] {
      S->poll();
      Done = true;
    });
    const auto End = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (!Done && std::chrono::steady_clock::now() < End)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (!Done) {
      ++Blocked; // the poll waits for the lock this thread holds: a hang on a real GPU
      Monitor.detach();
      std::abort();
    }
    Monitor.join();
  };
  for (int I = 0; I < 3; ++I) {
    ASSERT_EQ(train(BE, 4), CUDA_SUCCESS); // gated clones
    ASSERT_EQ(launch(FPlain, 2, BE, nullptr), CUDA_SUCCESS); // not preemptible: gate wait + original
  }
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.OnEnqueue = nullptr;
  EXPECT_GE(Checked, 3 * (4 + 1)); // per clone 2 waits, an event wait, the launch; per plain its gate wait
  EXPECT_EQ(Blocked, 0);
  finish();
  expectExactlyOnce();
}

// The other side of the lock's release: an urgent launch from another
// thread while a best-effort launch is being enqueued must stop that launch
// (it is about to run) and close the gate; the launch is relaunched later
// and every CTA runs exactly once.
TEST_F(SchedTest, UrgentWorkStopsALaunchThatIsBeingEnqueued) {
  D.Kernels[FTrainPre].Iters = 8;
  bool Armed = true;
  D.OnEnqueue = [&](CUstream Str) {
    if (!Armed || Str != BE)
      return;
    Armed = false; // at the launch's first enqueuing call, from another thread:
    std::thread Urgent([&] { ASSERT_EQ(infer(RT), CUDA_SUCCESS); });
    Urgent.join();
  };
  ASSERT_EQ(train(BE, 8), CUDA_SUCCESS);
  D.OnEnqueue = nullptr;
  EXPECT_EQ(stats().preemptions, 1u); // the launch being enqueued
  finish();
  expectExactlyOnce();
  EXPECT_EQ(stats().relaunches, 1u);
  EXPECT_LT(job(Infer).LastCompleteStep, job(pre(Train)).LastCompleteStep);
}

// A function's first launch in a context (runtime/src/SchedFirstLaunch.cpp).
// The fake GPU treats such a launch as the H200's driver was measured to
// (FirstLaunchBarriers): it waits for everything queued before it on other
// streams, and everything queued after it on other streams waits for it. A
// stream waiting at a preempted launch's hold then deadlocks the GPU, since
// the relaunch and the release come later. The scheduler must therefore
// never stop work around a first launch, and must finish stopped work
// before one goes onto the GPU.

#include "SchedulerTestFixture.h"

#include <algorithm>
#include <cstddef>

namespace gmem {
namespace rt {
namespace sched {
namespace test {
namespace {

static_assert(offsetof(gmemSchedCloneStats, first_launch_drains) ==
                  offsetof(gmemSchedCloneStats, latch_watchdog_opens) + 8,
              "appended after the latch watchdog's field");

struct FirstLaunchTest : SchedTest {
  void SetUp() override {
    SchedTest::SetUp();
    O.QuietFirstLaunches = true;
    make();
    D.FirstLaunchBarriers = true;
    D.Kernels[FTrainPre].Iters = 10;
  }
  /// The GPU and the monitor for Rounds rounds; whether all is done.
  bool runToEnd(unsigned Rounds = 20000) {
    for (unsigned I = 0; I < Rounds; ++I) {
      const bool Moved = D.step();
      const bool More = S->poll();
      if (!Moved && !More && D.idle())
        return true;
    }
    return false;
  }
  /// Kernels launched once each, so that their next launches are not first:
  /// the training clone and the inference kernel.
  void warmUp() {
    ASSERT_EQ(train(BE), CUDA_SUCCESS);
    ASSERT_EQ(infer(RT), CUDA_SUCCESS);
    finish();
  }
  /// A training launch on BE stopped by an urgent inference on RT and not
  /// relaunched yet (its stream waits at its hold).
  void stopTraining() {
    warmUp();
    ASSERT_EQ(train(BE), CUDA_SUCCESS);
    D.run(5);
    ASSERT_EQ(infer(RT), CUDA_SUCCESS);
    ASSERT_EQ(stats().preemptions, 1u);
    D.settle();
    D.Calls.clear();
  }
  /// Index of the first call in D.Calls that starts with Prefix (npos: none).
  size_t callAt(const std::string &Prefix) const {
    for (size_t I = 0; I < D.Calls.size(); ++I)
      if (D.Calls[I].compare(0, Prefix.size(), Prefix) == 0)
        return I;
    return std::string::npos;
  }
};

TEST_F(FirstLaunchTest, WithoutTheGuardAFirstUrgentLaunchBesideAStopDeadlocks) {
  // The hazard itself, on the fake GPU: the urgent kernel's first launch
  // waits for the training's stream, which waits at its hold.
  O.QuietFirstLaunches = false;
  O.MaxHoldNs = 0; // forced resumes at once: they relaunch, but too late
  make();
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.run(5);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  EXPECT_EQ(stats().preemptions, 1u);
  EXPECT_FALSE(runToEnd(3000));
  EXPECT_GE(stats().relaunches, 1u);
  D.FirstLaunchBarriers = false; // the barrier was all that held it
  EXPECT_TRUE(runToEnd());
  expectExactlyOnce();
}

TEST_F(FirstLaunchTest, AnUrgentFirstLaunchStopsNothing) {
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  finish();
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.run(5);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS); // infer's first launch
  EXPECT_EQ(stats().suppressions, 0u);
  EXPECT_EQ(stats().preemptions, 0u);
  EXPECT_EQ(cloneStats().first_launch_stops_skipped, 1u);
  EXPECT_TRUE(runToEnd());
  // Its next launch stops the training as usual.
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.run(5);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  EXPECT_EQ(stats().preemptions, 1u);
  EXPECT_TRUE(runToEnd());
  expectExactlyOnce();
}

TEST_F(FirstLaunchTest, AStopAfterAFirstLaunchLandsBehindIt) {
  // The stop's writes go onto the control stream after the first launch:
  // the driver holds them until the first launch no longer waits for the
  // training, which then finishes on its own; its relaunch finds nothing.
  warmUp();
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.run(5);
  CUstream Other = D.userStream();
  LaunchRecord R = record(EPlain, false);
  ASSERT_EQ(launch(FPlain, 2, Other, &R), CUDA_SUCCESS); // first: waits for the training
  const unsigned Barriers = D.Barriers;
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  EXPECT_EQ(stats().preemptions, 1u);
  EXPECT_EQ(D.Barriers, Barriers);
  EXPECT_TRUE(runToEnd());
  expectExactlyOnce();
  const std::vector<unsigned> &Cut = job(pre(Train), 1).Cut; // not stopped on the GPU after all
  EXPECT_EQ(std::count(Cut.begin(), Cut.end(), 0u), std::ptrdiff_t(Cut.size()));
}

TEST_F(FirstLaunchTest, ResolvingAKernelsCloneWaitsForQuiet) {
  // Accum first runs as compiled at real time; its clone forms are looked
  // up (and their code loaded) at its first best-effort launch, which
  // comes while the training is stopped.
  warmUp();
  LaunchRecord A = record(EAccum, false);
  ASSERT_EQ(launch(FAccum, 2, RT, &A), CUDA_SUCCESS);
  finish();
  const uint64_t Drains = cloneStats().first_launch_drains;
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.run(5);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  ASSERT_EQ(stats().preemptions, 1u);
  D.settle();
  D.StepOnQuery = true;
  ASSERT_EQ(accum(BE), CUDA_SUCCESS);
  EXPECT_EQ(cloneStats().first_launch_drains, Drains + 1);
  EXPECT_TRUE(job(pre(Train), 1).complete());
  D.StepOnQuery = false;
  EXPECT_TRUE(runToEnd());
  expectExactlyOnce();
}

TEST_F(FirstLaunchTest, AFirstLaunchFinishesStoppedWorkBeforeItGoesOn) {
  stopTraining();
  D.StepOnQuery = true; // the GPU runs while the launching thread waits
  ASSERT_EQ(accum(BE), CUDA_SUCCESS); // Accum's (and its clone's) first
  EXPECT_EQ(cloneStats().first_launch_drains, 1u);
  // The training was relaunched and released before the new kernel went on.
  const size_t Relaunch = callAt("launch 0x"), New = callAt("launch BE " + pre(Accum));
  ASSERT_NE(Relaunch, std::string::npos);
  ASSERT_NE(New, std::string::npos);
  EXPECT_LT(Relaunch, New);
  EXPECT_EQ(job(pre(Train), 1).complete(), true);
  D.StepOnQuery = false;
  EXPECT_TRUE(runToEnd());
  expectExactlyOnce();
}

TEST_F(FirstLaunchTest, AFirstUrgentLaunchWhileWorkIsStoppedFinishesItFirst) {
  stopTraining();
  D.StepOnQuery = true;
  LaunchRecord R = record(EPlain, false);
  ASSERT_EQ(launch(FPlain, 2, RT, &R), CUDA_SUCCESS);
  EXPECT_EQ(cloneStats().first_launch_drains, 1u);
  EXPECT_EQ(job(pre(Train), 1).complete(), true);
  D.StepOnQuery = false;
  EXPECT_TRUE(runToEnd());
  expectExactlyOnce();
}

TEST_F(FirstLaunchTest, AFirstLaunchOnTheLegacyStreamFinishesStoppedWorkFirst) {
  stopTraining();
  D.StepOnQuery = true;
  LaunchRecord R = record(EPlain, false);
  ASSERT_EQ(launch(FPlain, 2, nullptr, &R), CUDA_SUCCESS); // the legacy stream
  EXPECT_EQ(cloneStats().first_launch_drains, 1u);
  EXPECT_EQ(job(pre(Train), 1).complete(), true);
  // Its next launch there passes untouched.
  ASSERT_EQ(launch(FPlain, 2, nullptr, &R), CUDA_SUCCESS);
  EXPECT_EQ(cloneStats().first_launch_drains, 1u);
  D.StepOnQuery = false;
  EXPECT_TRUE(runToEnd());
  expectExactlyOnce();
}

TEST_F(FirstLaunchTest, AKernelThatOnlyEverRunsItsCloneWaitsForNothing) {
  // The training has run its clone, never itself as compiled: its next
  // launch behind a stopped one neither resumes nor finishes anything.
  stopTraining();
  const uint64_t Drains = cloneStats().first_launch_drains;
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  EXPECT_EQ(cloneStats().first_launch_drains, Drains);
  EXPECT_EQ(stats().relaunches, 0u);
  EXPECT_EQ(D.count("write"), 0u); // no resume (its gate stays closed)
  EXPECT_TRUE(runToEnd());
  expectExactlyOnce();
}

TEST_F(FirstLaunchTest, AMiddleLevelKernelThatRunsItsCloneStillStops) {
  // Accum at level 7 runs its clone, never itself: being "new" as compiled
  // must not keep its launches from stopping best-effort work.
  warmUp();
  CUstream Mid = D.userStream();
  S->setStreamPriority(Mid, 7);
  ASSERT_EQ(accum(Mid), CUDA_SUCCESS); // resolves its clone (in quiet)
  finish();
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.run(5);
  const uint64_t Before = stats().preemptions;
  ASSERT_EQ(accum(Mid), CUDA_SUCCESS);
  EXPECT_EQ(stats().preemptions, Before + 1);
  EXPECT_TRUE(runToEnd());
  expectExactlyOnce();
}

TEST_F(FirstLaunchTest, CodeLoadedWhileWorkIsStoppedWaitsForQuietAndHoldsStopsOff) {
  // The program's own module load (or a kernel handle's first look-up):
  // stopped work is finished first, and no stop is made until it returns.
  stopTraining();
  D.StepOnQuery = true;
  void *Token = S->beginCodeLoad();
  ASSERT_NE(Token, nullptr);
  EXPECT_TRUE(job(pre(Train), 1).complete());
  D.StepOnQuery = false;
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.run(5);
  const uint64_t Before = stats().preemptions;
  ASSERT_EQ(infer(RT), CUDA_SUCCESS); // during the load: stops nothing
  EXPECT_EQ(stats().preemptions, Before);
  S->endCodeLoad(Token);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS); // after it: stops as usual
  EXPECT_EQ(stats().preemptions, Before + 1);
  EXPECT_TRUE(runToEnd());
  expectExactlyOnce();
}

TEST_F(FirstLaunchTest, CodeLoadQuietUsesTheActiveScheduler) {
  warmUp(); // (neither launch below is a first)
  {
    CodeLoadQuiet Quiet; // the fixture's scheduler, on a context it knows
    ASSERT_EQ(train(BE), CUDA_SUCCESS);
    D.run(5);
    ASSERT_EQ(infer(RT), CUDA_SUCCESS);
    EXPECT_EQ(stats().preemptions, 0u);
  }
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  EXPECT_EQ(stats().preemptions, 1u);
  EXPECT_TRUE(runToEnd());
  expectExactlyOnce();
}

TEST_F(FirstLaunchTest, ACodeLoadInsideALaunchDoesNotWaitForQuiet) {
  // A load the driver makes inside the launch call (the scheduler's lock
  // is held there) must neither wait nor take that lock again.
  stopTraining();
  bool Ran = false;
  DuringOriginal = [&] {
    EXPECT_TRUE(Scheduler::launchingHere());
    CodeLoadQuiet Quiet;
    Ran = true;
  };
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  EXPECT_TRUE(Ran);
  EXPECT_FALSE(Scheduler::launchingHere());
  DuringOriginal = nullptr;
  EXPECT_TRUE(runToEnd());
  expectExactlyOnce();
}

TEST_F(FirstLaunchTest, AfterAnUnloadEveryFunctionIsNewAgain) {
  // A new module's function may get an unloaded one's handle.
  warmUp();
  S->forgetFunctions();
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.run(5);
  const uint64_t Skipped = cloneStats().first_launch_stops_skipped;
  ASSERT_EQ(infer(RT), CUDA_SUCCESS); // as if first: stops nothing
  EXPECT_EQ(stats().preemptions, 0u);
  EXPECT_EQ(cloneStats().first_launch_stops_skipped, Skipped + 1);
  EXPECT_TRUE(runToEnd());
  expectExactlyOnce();
}

TEST_F(FirstLaunchTest, ALookUpThatLoadedBeforeNeitherWaitsNorHoldsStopsOff) {
  // A runtime may look a kernel's function up at every launch: only the
  // first successful one per context loads, and only that one waits.
  warmUp();
  const uint64_t Key = 0x1234;
  void *Failed = S->beginCodeLoad(Key);
  ASSERT_NE(Failed, nullptr);
  S->endCodeLoad(Failed, Key, /*Loaded=*/false); // not remembered
  void *First = S->beginCodeLoad(Key);
  ASSERT_NE(First, nullptr);
  S->endCodeLoad(First, Key, /*Loaded=*/true);
  ASSERT_EQ(train(BE), CUDA_SUCCESS); // stopped by the inference
  D.run(5);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  ASSERT_EQ(stats().preemptions, 1u);
  D.settle();
  const uint64_t Drains = cloneStats().first_launch_drains;
  EXPECT_EQ(S->beginCodeLoad(Key), nullptr); // seen: no wait, no token
  EXPECT_EQ(cloneStats().first_launch_drains, Drains);
  EXPECT_EQ(job(pre(Train), 1).complete(), false); // still stopped
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  EXPECT_TRUE(runToEnd());
  expectExactlyOnce();
  S->forgetFunctions(); // an unload: the key loads again
  void *Again = S->beginCodeLoad(Key);
  EXPECT_NE(Again, nullptr);
  S->endCodeLoad(Again, Key, true);
}

TEST_F(FirstLaunchTest, QuietFirstLaunchesFromTheEnvironment) {
  expectSwitchFromEnvironment("GMEM_SCHED_FIRST_QUIET", &SchedOptions::QuietFirstLaunches);
}

} // namespace
} // namespace test
} // namespace sched
} // namespace rt
} // namespace gmem

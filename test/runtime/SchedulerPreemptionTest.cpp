// The preemptive scheduler against a simulated GPU (FakeSchedDriver.h): the
// preemption protocol (stop request by idempotence, relaunch, release),
// gating of work that has not started, stream order for operations the
// scheduler never sees, re-preemption, forced resume on priority inversion
// and drain-time accounting. Activation, priorities, the C API and the
// launch path are in SchedulerTest.cpp.
#include "SchedulerTestFixture.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

TEST_F(SchedTest, IdempotentVictimStopsInLoopsAndIsRelaunched) {
  D.Kernels[FTrainPre].Iters = 10;
  ASSERT_EQ(train(BE, 8, /*Idempotent=*/true), CUDA_SUCCESS);
  D.marker(BE, "after");
  D.run(15); // CTA 0 done, CTA 1 in its loop
  const uint64_t Ctl = D.Jobs.at(0).Ctl;
  D.Calls.clear();
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  // Gate, then hold, then the stop request, on the control stream.
  ASSERT_GE(D.Calls.size(), 4u);
  EXPECT_EQ(D.Calls[0].substr(0, 6), "write ");
  EXPECT_NE(D.Calls[0].find("=1"), std::string::npos);
  EXPECT_NE(D.Calls[1].find("=1"), std::string::npos);
  EXPECT_NE(D.Calls[2].find(FakeSchedDriver::hex(Ctl) + "=2"), std::string::npos);
  EXPECT_EQ(D.Calls[3].substr(0, 6), "record");
  D.settle(); // the victim drains, the urgent kernel runs, then everything waits
  EXPECT_EQ(D.word(Ctl), 2u);
  EXPECT_FALSE(job(pre(Train)).complete());
  EXPECT_GE(job(pre(Train)).cuts(), 1u); // a CTA left its loop
  EXPECT_TRUE(job(Infer).complete());
  EXPECT_EQ(D.Markers.count("after"), 0u); // the stream is held
  finish();
  expectExactlyOnce();
  EXPECT_LT(job(Infer).LastCompleteStep, job(pre(Train)).LastCompleteStep);
  EXPECT_GT(D.Markers["after"], job(pre(Train)).LastCompleteStep);
  EXPECT_EQ(D.count("launch " + FakeSchedDriver::hex(0)), 0u);
  gmemSchedStats St = stats();
  EXPECT_EQ(St.suppressions, 1u);
  EXPECT_EQ(St.preemptions, 1u);
  EXPECT_EQ(St.preemptions_loop, 1u);
  EXPECT_EQ(St.relaunches, 1u);
  EXPECT_EQ(St.urgent, 1u);
  EXPECT_EQ(St.drain_samples, 1u);
  EXPECT_LE(St.drain_ns_max, 20000u); // a few simulated microseconds
}

// Timing a drain costs the urgent launch an event record on the control
// stream; only one preemption in DrainSampleEvery pays it, and the others
// are stopped, relaunched and finished all the same.
TEST_F(SchedTest, OnlySampledPreemptionsTimeTheirDrain) {
  O.DrainSampleEvery = 3;
  make();
  D.Kernels[FTrainPre].Iters = 10;
  size_t Records = 0;
  for (int Round = 0; Round < 6; ++Round) {
    ASSERT_EQ(train(BE, 8, /*Idempotent=*/true), CUDA_SUCCESS);
    D.run(15);
    D.Calls.clear();
    ASSERT_EQ(infer(RT), CUDA_SUCCESS);
    for (const std::string &Call : D.Calls)
      Records += Call.rfind("record", 0) == 0;
    finish();
  }
  expectExactlyOnce();
  gmemSchedStats St = stats();
  EXPECT_EQ(St.preemptions, 6u);
  EXPECT_EQ(St.relaunches, 6u);
  EXPECT_EQ(St.drain_samples, 2u); // the 1st and the 4th
  EXPECT_EQ(Records, 2u);          // no event recorded on the urgent path otherwise
}

TEST_F(SchedTest, NonIdempotentVictimOnlyStopsAtEntry) {
  ASSERT_EQ(accum(BE), CUDA_SUCCESS);
  D.run(6);
  const uint64_t Ctl = D.Jobs.at(0).Ctl;
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  EXPECT_EQ(D.word(Ctl), 1u);
  EXPECT_EQ(job(pre(Accum)).cuts(), 0u); // the running CTA finished its loop
  EXPECT_FALSE(job(pre(Accum)).complete());
  finish();
  expectExactlyOnce();
  gmemSchedStats St = stats();
  EXPECT_EQ(St.preemptions, 1u);
  EXPECT_EQ(St.preemptions_loop, 0u);
}

TEST_F(SchedTest, RelaunchWaitsForTheVictimToDrain) {
  // A non-idempotent victim's running CTA goes on long after the urgent
  // work is done; the relaunch must not start that CTA a second time.
  O.ResumeLingerNs = 0;
  make();
  D.Kernels[FAccumPre].Iters = 60;
  ASSERT_EQ(accum(BE, 4), CUDA_SUCCESS);
  D.run(5);
  ASSERT_EQ(infer(RT, 1), CUDA_SUCCESS);
  for (int I = 0; I < 30; ++I) {
    D.step();
    S->poll();
  }
  EXPECT_TRUE(job(Infer).complete());
  EXPECT_EQ(stats().relaunches, 1u); // issued while the victim still runs
  finish();
  expectExactlyOnce();
}

TEST_F(SchedTest, IdempotentLaunchOfEntryOnlyCloneGetsRequestOne) {
  D.addInfo(Mod, Train, 2); // entry checkpoints only (e.g. grid-wide sync)
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.run(6);
  const uint64_t Ctl = D.Jobs.at(0).Ctl;
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  EXPECT_EQ(D.word(Ctl), 1u);
  finish();
  expectExactlyOnce();
}

TEST_F(SchedTest, WorkNotYetStartedIsHeldBehindTheGate) {
  CUstream BE2 = D.userStream();
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.run(3);
  ASSERT_EQ(infer(RT, 6), CUDA_SUCCESS);
  ASSERT_EQ(train(BE2), CUDA_SUCCESS); // arrives while urgent work runs
  ASSERT_EQ(accum(BE), CUDA_SUCCESS);  // queued behind the victim in its stream
  finish();
  expectExactlyOnce();
  const uint64_t UrgentDone = job(Infer).LastCompleteStep;
  EXPECT_GT(job(pre(Train), 1).FirstStartStep, UrgentDone);
  EXPECT_GT(job(pre(Accum)).FirstStartStep, UrgentDone);
  EXPECT_EQ(stats().preemptions, 1u); // only the running one had to stop
}

// A CUDA graph (cuGraphLaunch) has no clone: on a real-time stream it
// suppresses the levels below like an urgent kernel; below real time it is
// held behind its level's gate and then runs as it is. The fake GPU runs
// the graph as one kernel.
TEST_F(SchedTest, GraphLaunchesTakePartWithoutClones) {
  auto Graph = [&](uintptr_t F, unsigned Grid, CUstream Str) {
    SchedLaunch L;
    L.Stream = Str;
    L.Graph = true;
    auto Original = [&] {
      ++OriginalCalls;
      return D.userLaunch(reinterpret_cast<CUfunction>(F), Grid, Str);
    };
    return scheduleOr(L, nullptr, Original);
  };
  // Urgent graph: the running best-effort clone stops and is relaunched.
  D.Kernels[FTrainPre].Iters = 10;
  ASSERT_EQ(train(BE, 8, /*Idempotent=*/true), CUDA_SUCCESS);
  D.run(15);
  ASSERT_EQ(Graph(FInfer, 6, RT), CUDA_SUCCESS);
  CUstream BE2 = D.userStream();
  D.Names[BE2] = "BE2";
  // A best-effort graph arriving meanwhile waits behind the closed gate.
  ASSERT_EQ(Graph(FPlain, 4, BE2), CUDA_SUCCESS);
  EXPECT_EQ(D.count("wait BE2"), 1u);
  EXPECT_EQ(D.count("launch BE2"), 0u); // no clone of a graph
  finish();
  expectExactlyOnce();
  EXPECT_EQ(OriginalCalls, 2);
  const uint64_t UrgentDone = job(Infer).LastCompleteStep;
  EXPECT_LT(UrgentDone, job(pre(Train)).LastCompleteStep);
  EXPECT_GT(job(Plain).FirstStartStep, UrgentDone);
  gmemSchedStats St = stats();
  EXPECT_EQ(St.suppressions, 1u);
  EXPECT_EQ(St.preemptions, 1u);
  EXPECT_EQ(St.relaunches, 1u);
  EXPECT_EQ(St.gated, 2u); // the clone and the best-effort graph
}

TEST_F(SchedTest, StreamOrderHoldsForOperationsTheSchedulerNeverSees) {
  // Program: BE kernel, then its own event record and a copy (markers), and
  // a second stream waiting on that event.
  CUevent E;
  ASSERT_EQ(D.eventCreate(&E, CU_EVENT_DISABLE_TIMING), CUDA_SUCCESS);
  CUstream Other = D.userStream();
  ASSERT_EQ(train(BE, 16), CUDA_SUCCESS);
  D.userRecord(E, BE);
  D.marker(BE, "copy");
  D.userWaitEvent(Other, E);
  D.marker(Other, "consumer");
  for (int I = 0; I < 3; ++I) { // urgent requests arrive repeatedly
    D.run(7);
    ASSERT_EQ(infer(RT), CUDA_SUCCESS);
    for (int K = 0; K < 30; ++K) {
      D.step();
      S->poll();
    }
  }
  finish();
  expectExactlyOnce();
  const uint64_t Done = job(pre(Train)).LastCompleteStep;
  EXPECT_GT(D.Markers["copy"], Done);
  EXPECT_GT(D.Markers["consumer"], Done);
  EXPECT_GE(stats().preemptions, 2u);
}

namespace {

/// Training (a marker "after" behind it in its stream) stopped by an urgent
/// launch, then relaunched once the urgent work is done.
void relaunchTraining(SchedTest &T) {
  T.D.Kernels[FTrainPre].Iters = 6;
  ASSERT_EQ(T.train(T.BE, 12), CUDA_SUCCESS);
  T.D.marker(T.BE, "after");
  T.D.run(8);
  ASSERT_EQ(T.infer(T.RT), CUDA_SUCCESS);
  for (int I = 0; I < 40 && T.stats().relaunches == 0; ++I) {
    T.D.step();
    T.S->poll();
  }
  ASSERT_EQ(T.stats().relaunches, 1u);
}

/// After a second stop: every CTA ran once, two relaunches, and the stream
/// went on only after the last.
void expectSecondRelaunchReleases(SchedTest &T) {
  T.finish();
  T.expectExactlyOnce();
  EXPECT_EQ(T.stats().relaunches, 2u);
  EXPECT_GT(T.D.Markers["after"], T.job(pre(Train)).LastCompleteStep);
}

} // namespace

TEST_F(SchedTest, RelaunchItselfCanBePreempted) {
  ASSERT_NO_FATAL_FAILURE(relaunchTraining(*this));
  D.run(10);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  EXPECT_EQ(stats().preemptions, 2u);
  expectSecondRelaunchReleases(*this);
}

// Urgent launches that find the levels below already suppressed make no
// driver call of the scheduler's own (the capture status is asked only by
// a launch that would suppress); a capturing urgent stream suppresses
// nothing.
TEST_F(SchedTest, UrgentLaunchesAskTheCaptureStatusOnlyToSuppress) {
  D.Kernels[FTrainPre].Iters = 10;
  ASSERT_EQ(train(BE, 8), CUDA_SUCCESS);
  D.run(15);
  D.stream(RT).Capturing = true;
  const unsigned Asked = D.CaptureQueries;
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  EXPECT_EQ(D.CaptureQueries, Asked + 1);
  EXPECT_EQ(stats().preemptions, 0u);
  EXPECT_EQ(stats().suppressions, 0u);
  D.stream(RT).Capturing = false;
  ASSERT_EQ(infer(RT), CUDA_SUCCESS); // suppresses: asked once more
  EXPECT_EQ(stats().preemptions, 1u);
  EXPECT_EQ(D.CaptureQueries, Asked + 2);
  const size_t Calls = D.Calls.size();
  for (int I = 0; I < 5; ++I)
    ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  EXPECT_EQ(D.CaptureQueries, Asked + 2);
  EXPECT_EQ(D.Calls.size(), Calls); // no driver call of the scheduler's own
  EXPECT_EQ(OriginalCalls, 7);
  finish();
  expectExactlyOnce();
}

TEST_F(SchedTest, MonitorNeverQueriesAStreamThatBeganCapturing) {
  // The urgent stream was marked busy by a launch, then the program began
  // a capture on it: the monitor must not ask it whether it is idle.
  D.Kernels[FTrainPre].Iters = 6;
  ASSERT_EQ(train(BE, 12), CUDA_SUCCESS);
  D.run(8);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  ASSERT_EQ(stats().preemptions, 1u);
  D.stream(RT).Capturing = true;
  for (int I = 0; I < 40; ++I) {
    D.step();
    S->poll();
  }
  EXPECT_FALSE(D.CaptureBroken);
  D.stream(RT).Capturing = false;
  finish();
  expectExactlyOnce();
}

TEST_F(SchedTest, StoppingAFinishedRelaunchCostsOneMoreRelaunch) {
  // The urgent path does not ask whether a relaunch has finished: a
  // finished one is stopped again, relaunched once more (nothing left to
  // run) and only then releases its stream.
  ASSERT_NO_FATAL_FAILURE(relaunchTraining(*this));
  D.run(400); // the relaunch finishes; the monitor has not looked yet
  ASSERT_TRUE(job(pre(Train)).complete());
  EXPECT_EQ(D.Markers.count("after"), 0u); // its hold still stands
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  EXPECT_EQ(stats().preemptions, 2u);
  expectSecondRelaunchReleases(*this);
}

TEST_F(SchedTest, LingerHoldsTheResumeAfterUrgentLaunches) {
  // Chains of urgent kernels leave short idle gaps: the stopped launch
  // stays stopped for ResumeLingerNs after the last urgent launch, and the
  // monitor asks the driver nothing meanwhile (its queries would contend
  // with the urgent thread's launches).
  O.ResumeLingerNs = 30'000'000; // 30 ms of wall-clock time
  make();
  D.Kernels[FTrainPre].Iters = 6;
  ASSERT_EQ(train(BE, 12), CUDA_SUCCESS);
  D.run(8);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  const uint64_t Launched = sched::nowNs();
  ASSERT_EQ(stats().preemptions, 1u);
  const unsigned Before = D.Queries;
  for (int I = 0; I < 200; ++I) {
    D.step();
    S->poll();
  }
  EXPECT_TRUE(job(Infer).complete());
  if (sched::nowNs() - Launched < 25'000'000) { // (a very slow machine: skip)
    EXPECT_EQ(stats().relaunches, 0u);
    EXPECT_EQ(D.Queries, Before);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(31));
  for (int I = 0; I < 40 && stats().relaunches == 0; ++I) {
    D.step();
    S->poll();
  }
  EXPECT_EQ(stats().relaunches, 1u);
  finish();
  expectExactlyOnce();
}

TEST_F(SchedTest, NumericLevelsAreStrictlyOrdered) {
  CUstream Mid = D.userStream();
  ASSERT_EQ(S->setStreamPriority(Mid, 5), GMEM_SUCCESS);
  D.Kernels[FTrainPre].Iters = 8;
  ASSERT_EQ(train(BE, 8), CUDA_SUCCESS);
  D.run(4);
  ASSERT_EQ(accum(Mid, 8), CUDA_SUCCESS); // level 5 stops level 0
  EXPECT_EQ(stats().preemptions, 1u);
  D.run(6);
  ASSERT_EQ(infer(RT, 4), CUDA_SUCCESS); // real-time stops level 5
  EXPECT_EQ(stats().preemptions, 2u);
  finish();
  expectExactlyOnce();
  EXPECT_LT(job(Infer).LastCompleteStep, job(pre(Accum)).LastCompleteStep);
  EXPECT_LT(job(pre(Accum)).LastCompleteStep, job(pre(Train)).LastCompleteStep);
}

TEST_F(SchedTest, PriorityInversionIsResolvedByForcedResume) {
  O.MaxHoldNs = 1000000; // 1 ms
  make();
  CUevent E;
  ASSERT_EQ(D.eventCreate(&E, CU_EVENT_DISABLE_TIMING), CUDA_SUCCESS);
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.userRecord(E, BE);
  D.run(5);
  D.userWaitEvent(RT, E); // urgent work depends on the best-effort kernel
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  S->poll();
  EXPECT_FALSE(job(pre(Train)).complete()); // stuck: each waits for the other
  std::this_thread::sleep_for(std::chrono::milliseconds(3));
  finish();
  expectExactlyOnce();
  EXPECT_EQ(stats().forced_resumes, 1u);
}

TEST_F(SchedTest, FlushResumesEverything) {
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.run(5);
  ASSERT_EQ(infer(RT, 1), CUDA_SUCCESS);
  D.settle();
  // The urgent work is done, but nobody polled: a flush resumes.
  EXPECT_FALSE(job(pre(Train)).complete());
  EXPECT_EQ(gmemSchedFlush(0), GMEM_ERROR_NO_LAUNCH); // relaunch queued, not run
  finish();
  expectExactlyOnce();
  EXPECT_EQ(gmemSchedFlush(0), GMEM_SUCCESS);
}

// Fair share (SchedPolicy.h, GMEM_SCHED_POLICY=fair): the accounting of
// each level's suppressed fraction (work a stop throws away included), the
// policy's decisions, and, over the
// simulated GPU, a best-effort launch that strict priority keeps stopped
// while urgent work stays busy but fair share lets run again once it has
// been suppressed for too long, without losing or repeating any work.
#include "SchedulerTestFixture.h"

#include <chrono>
#include <cmath>
#include <thread>

namespace gmem {
namespace rt {
namespace sched {
namespace test {
namespace {

constexpr uint64_t Ms = 1'000'000;

TEST(FairShareAccounting, SuppressedFractionFollowsTheWindow) {
  LevelView V;
  const uint64_t W = 10 * Ms, T0 = 1000 * Ms;
  EXPECT_DOUBLE_EQ(shareSuppressed(V, T0, W), 0.0); // never stamped
  noteShareTransition(V, T0, W);
  V.Suppressed = true;
  // Suppressed for one window: 1 - 1/e of it.
  EXPECT_NEAR(shareSuppressed(V, T0 + W, W), 1.0 - std::exp(-1.0), 1e-9);
  noteShareTransition(V, T0 + W, W);
  V.Suppressed = false;
  // Then running for one window: that fraction decays by 1/e.
  EXPECT_NEAR(shareSuppressed(V, T0 + 2 * W, W), (1.0 - std::exp(-1.0)) * std::exp(-1.0), 1e-9);
  // A clock that went backwards changes nothing.
  EXPECT_DOUBLE_EQ(shareSuppressed(V, T0, W), V.ShareSuppressed);
}

TEST(FairShareAccounting, WorkAStopThrowsAwayCountsAsSuppressed) {
  LevelView V;
  const uint64_t W = 10 * Ms, T0 = 1000 * Ms;
  noteShareTransition(V, T0, W);
  V.Suppressed = false;
  // Running for one window, then stopped with 2 ms of a cut virtual CTA
  // lost: as if suppressed for those 2 ms.
  noteShareTransition(V, T0 + W, W);
  V.Suppressed = true;
  chargeShareLoss(V, 2 * Ms, W);
  EXPECT_NEAR(V.ShareSuppressed, 1.0 - std::exp(-0.2), 1e-9);
  chargeShareLoss(V, 0, W); // nothing lost (a stop between virtual CTAs)
  EXPECT_NEAR(V.ShareSuppressed, 1.0 - std::exp(-0.2), 1e-9);
  // Running time turned into suppressed time: a run entirely lost leaves
  // the fraction where suppression all along would have (never over 1).
  LevelView R;
  noteShareTransition(R, T0, W);
  R.Suppressed = true;
  noteShareTransition(R, T0 + W, W); // suppressed for one window
  R.Suppressed = false;
  noteShareTransition(R, T0 + W + 3 * Ms, W); // ran 3 ms, all of it lost
  R.Suppressed = true;
  chargeShareLoss(R, 3 * Ms, W);
  LevelView All;
  noteShareTransition(All, T0, W);
  All.Suppressed = true;
  EXPECT_NEAR(R.ShareSuppressed, shareSuppressed(All, T0 + W + 3 * Ms, W), 1e-3);
  chargeShareLoss(R, 100 * W, W);
  EXPECT_LE(R.ShareSuppressed, 1.0);
  // Suppression from there on adds to it as usual.
  EXPECT_NEAR(shareSuppressed(V, T0 + 2 * W, W), 1.0 - std::exp(-0.2) * std::exp(-1.0), 1e-9);
}

/// Level 0 suppressed since Since (from a fraction of 0), level 15 busy.
PolicyView suppressedBelowBusyUrgent(uint64_t Since, uint64_t Window) {
  PolicyView V;
  V.UsedLevels = levelBit(0) | levelBit(TopLevel);
  V.ShareWindowNs = Window;
  V.Level[TopLevel].Busy = true;
  V.Level[TopLevel].LastBusyNs = Since;
  noteShareTransition(V.Level[0], Since, Window);
  V.Level[0].Suppressed = true;
  V.Level[0].SuppressedSinceNs = Since;
  return V;
}

TEST(FairShareDecisions, StarvedLevelRunsAgainBesideBusyUrgentWork) {
  const uint64_t W = 20 * Ms, T0 = 1000 * Ms;
  PolicyView V = suppressedBelowBusyUrgent(T0, W);
  FairSharePolicy Fair(/*MinShare=*/0.25);
  StrictPriorityPolicy Strict;
  // Suppressed from a fraction of 0, it reaches 0.75 after W ln 4.
  const uint64_t Due = Fair.resumeDueNs(V, 0, T0);
  EXPECT_NEAR(double(Due - T0), double(W) * std::log(4.0), 1e3);
  EXPECT_FALSE(Fair.mayResume(V, 0, Due - Ms));
  EXPECT_TRUE(Fair.mayResume(V, 0, Due + 1));
  EXPECT_EQ(Fair.resumeDueNs(V, 0, Due + 1), Due + 1); // due now
  EXPECT_FALSE(Strict.mayResume(V, 0, Due + 1));       // urgent work is busy
  EXPECT_EQ(Strict.resumeDueNs(V, 0, Due + 1), UINT64_MAX);
}

TEST(FairShareDecisions, NoNewSliceBeforeTheGapAfterTheLast) {
  const uint64_t W = 20 * Ms, T0 = 1000 * Ms;
  PolicyView V = suppressedBelowBusyUrgent(T0, W);
  FairSharePolicy Fair(0.25);
  // After a slice of 2 ms the levels above get 6 ms to themselves.
  EXPECT_EQ(Fair.gapAfter(2 * Ms), 6 * Ms);
  const uint64_t Starved = Fair.resumeDueNs(V, 0, T0);
  V.Level[0].NextSliceNs = Starved + 3 * Ms;
  EXPECT_FALSE(Fair.mayResume(V, 0, Starved + Ms)); // starved, but in the gap
  EXPECT_EQ(Fair.resumeDueNs(V, 0, Starved + Ms), Starved + 3 * Ms);
  EXPECT_TRUE(Fair.mayResume(V, 0, Starved + 3 * Ms));
}

TEST(FairShareDecisions, ArrivalsSpareALevelDuringItsSlice) {
  const uint64_t W = 20 * Ms, T0 = 1000 * Ms;
  PolicyView V = suppressedBelowBusyUrgent(T0, W);
  FairSharePolicy Fair(0.25);
  StrictPriorityPolicy Strict;
  const uint64_t Resumed = Fair.resumeDueNs(V, 0, T0);
  noteShareTransition(V.Level[0], Resumed, W); // the monitor resumes it
  V.Level[0].Suppressed = false;
  V.Level[0].SliceEndNs = Resumed + 2 * Ms;    // for a slice of 2 ms
  // An urgent arrival during the slice: strict stops level 0 again, fair
  // share leaves it running; once the slice is over it stops it too.
  EXPECT_EQ(Strict.suppressOnArrival(V, TopLevel, {}, Resumed + 1), levelBit(0));
  EXPECT_EQ(Fair.suppressOnArrival(V, TopLevel, {}, Resumed + 1), 0u);
  EXPECT_EQ(Fair.suppressOnArrival(V, TopLevel, {}, Resumed + 2 * Ms - 1), 0u);
  EXPECT_EQ(Fair.suppressOnArrival(V, TopLevel, {}, Resumed + 2 * Ms), levelBit(0));
  // A level never suppressed before is suppressed at once, as strictly.
  PolicyView Fresh;
  Fresh.UsedLevels = levelBit(0) | levelBit(TopLevel);
  EXPECT_EQ(Fair.suppressOnArrival(Fresh, TopLevel, {}, T0), levelBit(0));
}

TEST(FairShareDecisions, ShareIsClampedToAUsefulRange) {
  PolicyView V = suppressedBelowBusyUrgent(1000 * Ms, 10 * Ms);
  // A share of 0 still lets a level run after long enough (99% bound); a
  // share of 1 would never suppress: clamped to 99%.
  FairSharePolicy None(0.0), All(1.0);
  EXPECT_FALSE(None.mayResume(V, 0, 1000 * Ms + 40 * Ms));
  EXPECT_TRUE(None.mayResume(V, 0, 1000 * Ms + 47 * Ms));
  EXPECT_TRUE(All.mayResume(V, 0, 1000 * Ms + Ms / 5));
}

/// The scheduler over the simulated GPU: a training clone on best effort,
/// stopped by a long urgent kernel that stays incomplete (the GPU is not
/// stepped while the test waits in real time).
struct FairShareSched : SchedTest {
  void start(int Policy) {
    O.Policy = Policy;
    O.MinShare = 0.25;
    O.ShareWindowNs = 4 * Ms; // starved after 4 ln 4 = 5.5 ms suppressed
    O.ShareSliceNs = 5 * Ms;  // then runs for a slice of 5 ms
    make();
    D.Kernels[FTrainPre].Iters = 10;
    D.Kernels[FInfer].Iters = 1000;
    ASSERT_EQ(train(BE, 8), CUDA_SUCCESS);
    D.run(5);
    ASSERT_EQ(infer(RT, 2), CUDA_SUCCESS);
    D.run(40); // the training drains; the urgent kernel runs on
    ASSERT_EQ(stats().preemptions, 1u);
    ASSERT_FALSE(job(Infer).complete());
  }
  /// Polls (without stepping the GPU's kernels) for Wait of real time.
  void pollFor(std::chrono::microseconds Wait) {
    const auto End = std::chrono::steady_clock::now() + Wait;
    while (std::chrono::steady_clock::now() < End) {
      S->poll();
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }
  /// Polls in steps of 200 us until Done() holds, at most Steps of them.
  template <typename Pred> void pollUntil(Pred Done, int Steps) {
    for (int I = 0; I < Steps && !Done(); ++I)
      pollFor(std::chrono::microseconds(200));
  }
};

TEST_F(FairShareSched, StrictKeepsTheVictimStoppedWhileUrgentWorkRuns) {
  start(GMEM_SCHED_POLICY_STRICT);
  pollFor(std::chrono::milliseconds(8));
  EXPECT_EQ(stats().relaunches, 0u);
  EXPECT_EQ(cloneStats().share_resumes, 0u);
  EXPECT_FALSE(job(Infer).complete());
  finish();
  expectExactlyOnce();
}

TEST_F(FairShareSched, StarvedVictimIsRelaunchedBesideUrgentWorkAndSpared) {
  start(GMEM_SCHED_POLICY_FAIR_SHARE);
  const auto T0 = std::chrono::steady_clock::now();
  pollFor(std::chrono::milliseconds(3));
  if (std::chrono::steady_clock::now() - T0 < std::chrono::milliseconds(5)) {
    EXPECT_EQ(stats().relaunches, 0u); // not starved yet (a slow machine: skip)
  }
  // Starved after 5.5 ms: polled until relaunched (within 10 ms in all).
  pollUntil([&] { return stats().relaunches != 0; }, 50);
  EXPECT_EQ(stats().relaunches, 1u);
  EXPECT_GE(std::chrono::steady_clock::now() - T0, std::chrono::microseconds(5500));
  EXPECT_EQ(cloneStats().share_resumes, 1u);
  EXPECT_FALSE(job(Infer).complete()); // the urgent kernel still runs
  // A second urgent launch right after, within the slice, leaves the
  // relaunched training running.
  ASSERT_EQ(infer(RT, 2), CUDA_SUCCESS);
  EXPECT_EQ(stats().preemptions, 1u);
  EXPECT_EQ(cloneStats().share_arrivals_spared, 1u);
  finish();
  expectExactlyOnce();
}

TEST_F(FairShareSched, SparedVictimIsStoppedAgainOnceItHadItsShare) {
  // Relaunched for a slice of its share, the training holds the GPU beside
  // the urgent kernel; with no urgent arrival to stop it, the monitor does
  // at the slice's end (5 ms), and relaunches it again later.
  start(GMEM_SCHED_POLICY_FAIR_SHARE);
  pollUntil([&] { return stats().relaunches != 0; }, 60);
  ASSERT_EQ(stats().relaunches, 1u);
  D.run(3); // the relaunch starts
  pollUntil([&] { return cloneStats().share_ends != 0; }, 60);
  EXPECT_EQ(cloneStats().share_ends, 1u);
  EXPECT_EQ(stats().preemptions, 2u);
  EXPECT_FALSE(job(Infer).complete());
  finish();
  expectExactlyOnce();
  EXPECT_GE(stats().relaunches, 2u);
}

TEST_F(FairShareSched, SlicesAmidUrgentTrafficKeepEveryCtaExactlyOnce) {
  // Best-effort launches of every kind on two streams, urgent launches
  // arriving throughout, and windows, slices and gaps of a few hundred
  // microseconds of real time: share resumes, spared arrivals, slice ends
  // and the stops of relaunches they bring must lose or repeat no work and
  // keep each stream's order.
  O.Policy = GMEM_SCHED_POLICY_FAIR_SHARE;
  O.MinShare = 0.5;
  O.ShareWindowNs = Ms / 2;
  O.ShareSliceNs = Ms / 5;
  make();
  D.Kernels[FTrainPre].Iters = 40;
  D.Kernels[FAccumPre].Iters = 30;
  D.Kernels[FPersPre].Iters = 20;
  D.Kernels[FInfer].Iters = 30;
  launchMixedBestEffort();
  ASSERT_FALSE(HasFatalFailure());
  unsigned Urgent = 0;
  for (int Round = 0; Round < 400; ++Round) {
    D.run(1 + Round % 3);
    S->poll();
    if (Round % 25 == 0 && Urgent < 12) {
      ASSERT_EQ(infer(RT, 2), CUDA_SUCCESS);
      ++Urgent;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(30));
  }
  finish();
  expectExactlyOnce();
  expectMixedInStreamOrder();
  EXPECT_GE(stats().preemptions, 2u);
  EXPECT_EQ(stats().forced_resumes, 0u);
  // The paths under test were taken (~90 slices a run on a desktop CPU).
  EXPECT_GE(cloneStats().share_resumes, 1u);
  EXPECT_GE(cloneStats().share_ends, 1u);
}

TEST_F(FairShareSched, SwitchingThePolicyLetsAStarvedVictimGo) {
  start(GMEM_SCHED_POLICY_STRICT);
  pollFor(std::chrono::milliseconds(7));
  EXPECT_EQ(stats().relaunches, 0u);
  ASSERT_EQ(gmemSchedSetPolicy(GMEM_SCHED_POLICY_FAIR_SHARE), GMEM_SUCCESS);
  pollFor(std::chrono::milliseconds(1));
  EXPECT_EQ(stats().relaunches, 1u);
  finish();
  expectExactlyOnce();
}

} // namespace
} // namespace test
} // namespace sched
} // namespace rt
} // namespace gmem

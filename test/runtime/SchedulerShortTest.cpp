// Short launches (CloneChoice.h, "Short launches"; GMEM_PREEMPT_SHORT_US):
// a shape whose clone ran within a few times the limit has its kernel as
// compiled timed, and while that time is within the limit its launches run
// the original, re-timed every 64th; a varying shape holds its largest
// recent original time against the limit. Through the scheduler against the
// simulated GPU: short launches run the original function, a gate wait only
// where the stream's ungated short work would exceed the limit or the level
// is suppressed, and gmemSchedCloneStats counts them.
#include "CloneChoice.h"
#include "SchedulerTestFixture.h"

#include <cstdlib>

#include <gtest/gtest.h>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {

constexpr uint64_t Shape = 0x5407;

CloneChooser shortChooser() {
  ChooserOptions O;
  O.HasLight = false;
  O.ShortUs = 5;
  return CloneChooser(O);
}

/// choose() for Shape (idempotent), expecting the kernel as compiled;
/// whether it was timed, and whether short.
std::pair<bool, bool> original(CloneChooser &C, bool Varying = false) {
  const CloneChoice Ch = C.choose(Shape, true, false, Varying);
  EXPECT_TRUE(Ch.Original);
  return {Ch.Timed, Ch.Short};
}

/// A shape's first launch (the full clone, 9 us: plausibly short), then a
/// launch as compiled timed at OrigUs.
void timeOriginalOnce(CloneChooser &C, double OrigUs, bool Varying = false) {
  C.choose(Shape, true, false, Varying);
  C.record(Shape, CloneKind::Full, 9.0, 40, 8);
  original(C, Varying);
  C.recordOriginal(Shape, OrigUs);
}

/// timeOriginalOnce, then three more times at OrigUs (not launched): the
/// shape has its four times and is re-timed every 64th launch.
void timeOriginalFourTimes(CloneChooser &C, double OrigUs) {
  timeOriginalOnce(C, OrigUs);
  for (int I = 0; I < 3; ++I)
    C.recordOriginal(Shape, OrigUs);
}

} // namespace

TEST(ShortChooser, AShapeWhoseOriginalIsShortRunsAsCompiled) {
  CloneChooser C = shortChooser();
  CloneChoice Ch = C.choose(Shape, true);
  EXPECT_FALSE(Ch.Original); // the first launch: the full clone, timed
  EXPECT_TRUE(Ch.Timed);
  C.record(Shape, CloneKind::Full, 9.0, 40, 8); // within 3 x 5 us: plausibly short
  EXPECT_EQ(original(C), std::make_pair(true, true)); // the original timed (gated: no time yet)
  EXPECT_EQ(original(C), std::make_pair(true, true)); // (no time yet: again)
  C.recordOriginal(Shape, 4.0);
  std::vector<unsigned> TimedAt;
  for (unsigned I = 0; I < 128; ++I) {
    const auto [T, S] = original(C);
    EXPECT_TRUE(S);
    if (T) {
      TimedAt.push_back(I + 4); // the shape's launch number (3 before the loop)
      C.recordOriginal(Shape, 4.0); // its time arrives
    }
  }
  // Every 8th launch until it has four times, then every 64th.
  EXPECT_EQ(TimedAt, (std::vector<unsigned>{8, 16, 24, 64, 128}));
}

TEST(ShortChooser, AShapeNearTheLimitIsReTimedSoonerWhileItHasFewTimes) {
  // One time over the limit (an idle stream's, say) keeps the clones only
  // until the 8th launch, not the 64th.
  CloneChooser C = shortChooser();
  timeOriginalOnce(C, 6.0);
  unsigned N = 2;
  while (++N % 8 != 0)
    EXPECT_FALSE(C.choose(Shape, true).Original) << N;
  EXPECT_EQ(original(C), std::make_pair(true, true)); // the 8th: timed
  C.recordOriginal(Shape, 4.5);
  EXPECT_TRUE(original(C).second); // short from here
}

TEST(ShortChooser, ADueTimingIsAskedForUntilOneArrives) {
  CloneChooser C = shortChooser();
  timeOriginalFourTimes(C, 4.0);
  unsigned N = 2; // launches "Short launches" has seen
  while (++N % 64 != 0)
    EXPECT_FALSE(original(C).first) << N;
  EXPECT_TRUE(original(C).first);  // due: the scheduler leaves it out (idle stream)
  EXPECT_TRUE(original(C).first);  // still due
  EXPECT_TRUE(original(C).first);
  C.recordOriginal(Shape, 4.0);    // one arrived
  EXPECT_FALSE(original(C).first);
}

TEST(ShortChooser, AProvisionalTimeOverTheLimitIsTakenAgainAtOnce) {
  // The first time as compiled may hold the host's launch call (an idle
  // stream the latch could not hold): read over the limit, the very next
  // launch times it again, and once the second time is short so is the
  // shape, instead of waiting for the 64th launch on its clones.
  CloneChooser C = shortChooser();
  C.choose(Shape, true);
  C.record(Shape, CloneKind::Full, 9.0, 40, 8);
  EXPECT_TRUE(original(C).first);
  C.recordOriginal(Shape, 7.0, /*Provisional=*/true); // over 5 us
  CloneChoice Ch = C.choose(Shape, true);
  EXPECT_TRUE(Ch.Original && Ch.Timed) << "a second time, at once";
  C.originalTimed(Shape);
  EXPECT_FALSE(C.choose(Shape, true).Original) << "taken: the clone until it arrives";
  C.recordOriginal(Shape, 4.0); // latched: the kernel's own
  EXPECT_EQ(original(C), std::make_pair(false, true));
  // Not provisional: the same 7 us waits for the due launch.
  CloneChooser D = shortChooser();
  D.choose(Shape, true);
  D.record(Shape, CloneKind::Full, 9.0, 40, 8);
  EXPECT_TRUE(original(D).first);
  D.recordOriginal(Shape, 7.0);
  EXPECT_FALSE(D.choose(Shape, true).Original);
}

TEST(ShortChooser, ALongerOriginalKeepsTheCloneAndIsTimedNowAndThen) {
  CloneChooser C = shortChooser();
  C.choose(Shape, true);
  C.record(Shape, CloneKind::Full, 9.0, 40, 8);
  EXPECT_TRUE(original(C).first);
  for (int I = 0; I < 4; ++I)
    C.recordOriginal(Shape, 6.0); // over 5 us, four times
  unsigned Originals = 0;
  for (int I = 0; I < 128; ++I) {
    const CloneChoice Ch = C.choose(Shape, true);
    if (Ch.Original) {
      ++Originals;
      EXPECT_TRUE(Ch.Timed); // (the scheduler gates it: 6 us is over the limit)
      C.recordOriginal(Shape, 6.0);
    }
  }
  EXPECT_EQ(Originals, 2u);
  C.recordOriginal(Shape, 4.5); // got shorter
  EXPECT_TRUE(original(C).second);
  EXPECT_DOUBLE_EQ(C.shortBoundUs(Shape), 4.5);
}

TEST(ShortChooser, ALongCloneNeverTimesTheOriginal) {
  CloneChooser C = shortChooser();
  C.choose(Shape, true);
  C.record(Shape, CloneKind::Full, 16.0, 40, 8); // over 3 x 5 us
  for (int I = 0; I < 200; ++I)
    EXPECT_FALSE(C.choose(Shape, true).Original) << I;
  ChooserOptions Off;
  Off.HasLight = false; // ShortUs 0: never
  CloneChooser N(Off);
  N.choose(Shape, true);
  N.record(Shape, CloneKind::Full, 2.0, 40, 8);
  N.recordOriginal(Shape, 1.0);
  for (int I = 0; I < 200; ++I)
    EXPECT_FALSE(N.choose(Shape, true).Original) << I;
}

TEST(ShortChooser, AShapeHoldsItsLeastRecentOriginalTimeAgainstTheLimit) {
  // A timing begun on an idle stream holds the host's launch call too.
  CloneChooser C = shortChooser();
  timeOriginalOnce(C, 8.0);
  EXPECT_FALSE(C.choose(Shape, true).Short);
  C.recordOriginal(Shape, 4.0);
  EXPECT_DOUBLE_EQ(C.shortBoundUs(Shape), 4.0);
  EXPECT_TRUE(original(C).second);
  for (int I = 0; I < 3; ++I)
    C.recordOriginal(Shape, 9.0);
  EXPECT_DOUBLE_EQ(C.shortBoundUs(Shape), 4.0); // still among the latest four
  C.recordOriginal(Shape, 9.0);
  EXPECT_DOUBLE_EQ(C.shortBoundUs(Shape), 9.0);
}

TEST(ShortChooser, AVaryingShapeHoldsItsLargestRecentOriginalTime) {
  CloneChooser C = shortChooser();
  timeOriginalOnce(C, 4.0, /*Varying=*/true);
  EXPECT_TRUE(original(C, true).second);
  C.recordOriginal(Shape, 7.0); // a launch of more work
  C.recordOriginal(Shape, 4.0);
  C.recordOriginal(Shape, 4.0); // four times: re-timed every 64th
  EXPECT_DOUBLE_EQ(C.shortBoundUs(Shape), 7.0); // over the limit: clones again
  unsigned Originals = 0;
  for (int I = 0; I < 60; ++I) // the shape's launches 4 .. 63
    Originals += C.choose(Shape, true, false, true).Original;
  EXPECT_EQ(Originals, 0u); // (its 64th would time it)
  C.recordOriginal(Shape, 4.0);
  C.recordOriginal(Shape, 4.0);
  C.recordOriginal(Shape, 4.0); // 7 us is out of the latest four
  EXPECT_DOUBLE_EQ(C.shortBoundUs(Shape), 4.0);
}

// ---------------------------------------------------------------------------
// Through the scheduler.

namespace {

struct ShortTest : SchedTest {
  void SetUp() override {
    SchedTest::SetUp();
    O.ShortUs = 10;
    make();
  }
  /// Launches until the shape runs short: a timed clone, then a timed
  /// original (each 4 us on the fake GPU).
  void becomeShort() {
    D.ElapsedMs = 0.004f;
    for (int I = 0; I < 2; ++I) {
      ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
      finish();
    }
    ASSERT_EQ(D.CloneLaunches.size(), 1u);
    ASSERT_EQ(OriginalCalls, 1);
    D.Calls.clear();
  }
  unsigned waitsOnBE() const {
    unsigned N = 0;
    for (auto &C : D.Calls)
      N += C.rfind("wait BE", 0) == 0;
    return N;
  }
};

} // namespace

TEST_F(ShortTest, ShortLaunchesRunAsCompiledWithAGateOnceTheirWorkExceedsTheBudget) {
  becomeShort();
  // Each 4 us: two fit in the 10 us (the limit) behind the latest gate, the
  // third waits.
  std::vector<unsigned> Waits;
  for (int I = 0; I < 6; ++I) {
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
    Waits.push_back(waitsOnBE());
  }
  EXPECT_EQ(Waits, (std::vector<unsigned>{0, 0, 1, 1, 1, 2}));
  finish();
  EXPECT_EQ(OriginalCalls, 1 + 6);
  EXPECT_EQ(D.CloneLaunches.size(), 1u);
  const gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.short_launches, 1u + 6); // the original's timing launch too
  EXPECT_EQ(St.short_ungated_launches, 4u);
  EXPECT_EQ(St.capped_launches, 0u);
  expectExactlyOnce();
}

TEST_F(ShortTest, ADueTimingIsTakenOnceWhileLaunchesQueueUp) {
  becomeShort();
  for (int I = 0; I < 24; ++I) { // its three early re-timings (every 8th)
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
    finish();
  }
  // 256 launches with none finished in between (a program that never
  // waits): every 64th is due a time as compiled. Each due time is taken by
  // one launch, not by every launch until the first time comes back (up to
  // the eight timing slots: two timing events each, on the GPU too).
  const uint64_t Before = cloneStats().timed_launches;
  for (int I = 0; I < 256; ++I)
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(cloneStats().timed_launches - Before, 4u);
  finish(100000); // 256 x 40 CTAs of 4 steps, one CTA at a time
  EXPECT_EQ(cloneStats().short_launches, 1u + 24 + 256);
  expectExactlyOnce();
}

TEST_F(ShortTest, AClonedLaunchRestartsTheBudget) {
  becomeShort();
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS); // 8 us behind the gate
  ASSERT_EQ(train(BE), CUDA_SUCCESS);            // a clone: its stop holds what follows
  const unsigned Before = waitsOnBE();
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(waitsOnBE(), Before); // no gate: 4 us behind the clone
  finish();
  expectExactlyOnce();
}

TEST_F(ShortTest, AShortLaunchWhileItsLevelIsSuppressedWaitsAtTheGate) {
  becomeShort();
  suppressBusyBestEffort();
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  ASSERT_FALSE(D.Calls.empty());
  EXPECT_EQ(waitsOnBE(), 1u);
  finish();
  expectExactlyOnce();
  EXPECT_EQ(cloneStats().short_ungated_launches, 0u);
}

TEST_F(ShortTest, GateAlwaysGatesShortLaunchesToo) {
  O.GateAlways = true;
  make();
  becomeShort();
  for (int I = 0; I < 3; ++I)
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(waitsOnBE(), 3u);
  finish();
  expectExactlyOnce();
}

TEST_F(ShortTest, TheLimitComesFromTheEnvironment) {
  unsetenv("GMEM_PREEMPT_SHORT_US");
  EXPECT_DOUBLE_EQ(SchedOptions::fromEnvironment().ShortUs, 8.0);
  setenv("GMEM_PREEMPT_SHORT_US", "0", 1);
  EXPECT_DOUBLE_EQ(SchedOptions::fromEnvironment().ShortUs, 0.0);
  setenv("GMEM_PREEMPT_SHORT_US", "12.5", 1);
  EXPECT_DOUBLE_EQ(SchedOptions::fromEnvironment().ShortUs, 12.5);
  setenv("GMEM_PREEMPT_SHORT_US", "short", 1); // refused: the default
  EXPECT_DOUBLE_EQ(SchedOptions::fromEnvironment().ShortUs, 8.0);
  unsetenv("GMEM_PREEMPT_SHORT_US");
}

TEST_F(ShortTest, TimingsOnIdleStreamsReadTheKernelsOwnTime) {
  // Part aslaunched's pattern on the H200: 24 warm-up launches that find
  // the stream idle (S), then launches queued behind other work (Q) and S
  // ones in the order S Q S Q Q S Q S, so that every 64th launch is an S
  // one. An S timing without its latch holds the host's launch call (11 us
  // here, over the limit); behind the latch it reads the kernel's own 4 us,
  // as a Q one does. Every S timing but the kernel's very first (never
  // latched: the driver may hold that launch) is latched, and that first
  // one is provisional: the next launch times it again, latched, so the
  // shape runs short from its fourth launch on (before the latch,
  // idle-stream timings were left out three times in a row, and a run
  // could stay unshort; before the provisional time, short from the first
  // due re-timing on).
  O.LatchIdleTimings = true;
  make();
  const bool Idle[8] = {true, false, true, false, false, true, false, true};
  D.Kernels[FTrainPre].Iters = 200;
  unsigned Short = 0, IdleTimed = 0;
  const unsigned Warm = 24, Launches = 400;
  for (unsigned I = 0; I < Launches; ++I) {
    const bool S = I < Warm || Idle[(I - Warm) % 8];
    if (!S) {
      ASSERT_EQ(train(BE), CUDA_SUCCESS); // work in front: the stream is busy
    }
    const gmemSchedCloneStats Before = cloneStats();
    const int OriginalsBefore = OriginalCalls;
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
    const gmemSchedCloneStats After = cloneStats();
    Short += I >= 3 && After.short_launches > Before.short_launches;
    const bool Latched = After.latched_timings > Before.latched_timings;
    const bool OriginalTimed =
        After.timed_launches > Before.timed_launches && After.short_launches > Before.short_launches;
    // (The kernel's first launch is never latched.)
    EXPECT_FALSE(S && OriginalTimed && !Latched && OriginalsBefore > 0)
        << "launch " << I << ": timed unlatched on an idle stream";
    IdleTimed += S && Latched;
    D.ElapsedMs = S && !Latched ? 0.011f : 0.004f; // what this launch's timing reads
    finish();
  }
  EXPECT_EQ(Short, Launches - 3);
  EXPECT_GT(IdleTimed, 0u);
  expectExactlyOnce();
}

TEST_F(ShortTest, ShortKernelsOfEverChangingArgumentsRunAsCompiledOnceTheyShareAShape) {
  // A small kernel given a new scalar on every launch (an optimizer's step):
  // 65 new shapes, then one shared shape (VaryingShapes.h) whose largest
  // recent time as compiled (4 us here) is within the limit.
  D.ElapsedMs = 0.004f;
  unsigned Short = 0;
  for (int I = 0; I < 200; ++I) {
    N = 1000 + I;
    const uint64_t Before = cloneStats().short_launches;
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
    Short += I >= 100 && cloneStats().short_launches > Before;
    finish();
  }
  EXPECT_EQ(Short, 100u);
  expectExactlyOnce();
}

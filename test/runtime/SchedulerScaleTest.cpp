// Segment scale (CloneScale.cpp, SchedScale.cpp) against a simulated GPU
// (FakeSchedDriver.h): once a shape's form is decided, its launches try
// s + 1 (passed in grid_z's bits 24..25), timed; a faster candidate's next
// idempotent launches are stopped once they run, alone, and the shape keeps
// s + 1 only where every such stop drained within the limit; every stopped
// probe is relaunched and every virtual CTA runs once; launches not proved
// idempotent are never probes; clones without the flag never get a scale.
#include "CloneArgsProbe.h"
#include "SchedulerTestFixture.h"

#include <cstdlib>
#include <cstring>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {

constexpr uint32_t SegScaleFlag = 1u << 12;

struct ScaleTest : SchedTest {
  void SetUp() override {
    SchedTest::SetUp();
    D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag | SegScaleFlag);
    O.SpreadMax = 1; // no spread timings in between
    O.SegScaleMax = 3;
    O.ScaleProbeMidRun = false;
    make();
  }
  /// One launch of pers(BE, {40, 1, 1}) whose timings the fake GPU reads as
  /// Ms (a stop probe's drain too), run to its end; its scale.
  unsigned once(float Ms, bool Idempotent = true) {
    D.ElapsedMs = Ms;
    EXPECT_EQ(pers(BE, {40, 1, 1}, Idempotent), CUDA_SUCCESS);
    const unsigned Scale = last().Scale;
    finish();
    D.ElapsedMs.reset();
    return Scale;
  }
  /// Decided full (the first launch, timed at 2 ms) and the candidate s = 1
  /// timed at CandidateMs, alternately with the own scale at 2 ms (three
  /// timings each, ScalePairs).
  void decideAndTime(float CandidateMs) {
    ASSERT_EQ(once(2.0f), 0u);
    for (int I = 0; I < 3; ++I) {
      ASSERT_EQ(once(CandidateMs), 1u) << I;
      ASSERT_EQ(once(2.0f), 0u) << I;
    }
  }
};

} // namespace

TEST_F(ScaleTest, FasterScaleIsKeptOnceItsStopsDrainInTime) {
  D.Kernels[FPersPre].Iters = 10; // long enough to be caught running
  decideAndTime(1.5f);
  const uint64_t Pre0 = stats().preemptions;
  for (int I = 0; I < 5; ++I)
    EXPECT_EQ(once(0.003f), 1u) << I; // probes: stopped, drained in 3 us
  EXPECT_EQ(cloneStats().scale_probes, 5u);
  EXPECT_EQ(stats().preemptions, Pre0 + 5);
  EXPECT_EQ(stats().relaunches, 5u);
  EXPECT_EQ(cloneStats().scale_raised, 1u);
  // Scale 1 is the shape's; 2 is tried next, timed beside it.
  const uint64_t Timed0 = cloneStats().timed_launches;
  EXPECT_EQ(once(1.4f), 2u);
  EXPECT_EQ(once(1.5f), 1u);
  EXPECT_EQ(cloneStats().timed_launches, Timed0 + 2);
  expectExactlyOnce();
}

TEST_F(ScaleTest, SlowStopKeepsTheScaleForGood) {
  D.Kernels[FPersPre].Iters = 10;
  decideAndTime(1.5f);
  EXPECT_EQ(once(0.02f), 1u); // a probe that drained in 20 us
  EXPECT_EQ(cloneStats().scale_probes, 1u);
  for (int I = 0; I < 8; ++I)
    EXPECT_EQ(once(1.0f), 0u); // never tried again, never stopped
  EXPECT_EQ(cloneStats().scale_probes, 1u);
  EXPECT_EQ(cloneStats().scale_raised, 0u);
  expectExactlyOnce();
}

TEST_F(ScaleTest, SlowerCandidateIsNeverStopped) {
  decideAndTime(1.99f); // within the 1% margin: not faster
  const uint64_t Timed0 = cloneStats().timed_launches;
  for (int I = 0; I < 8; ++I)
    EXPECT_EQ(once(1.0f), 0u);
  EXPECT_EQ(cloneStats().scale_probes, 0u);
  EXPECT_EQ(cloneStats().timed_launches, Timed0); // decided: untimed
  EXPECT_EQ(stats().preemptions, 0u);
  expectExactlyOnce();
}

TEST_F(ScaleTest, LaunchesNotProvedIdempotentAreNeverProbes) {
  D.Kernels[FPersPre].Iters = 10;
  decideAndTime(1.5f);
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(once(1.0f, /*Idempotent=*/false), 0u); // the shape's scale, not stopped
  EXPECT_EQ(cloneStats().scale_probes, 0u);
  EXPECT_EQ(stats().preemptions, 0u);
  EXPECT_EQ(once(0.003f), 1u); // the next idempotent one is
  EXPECT_EQ(cloneStats().scale_probes, 1u);
  expectExactlyOnce();
}

TEST_F(ScaleTest, ProbesThatMissTheirLaunchGiveTheCandidateUp) {
  decideAndTime(1.5f);
  // Launches that end before the monitor looks (the GPU runs them through
  // with no poll in between).
  for (int I = 0; I < 4; ++I) {
    D.ElapsedMs = 0.003f;
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
    EXPECT_EQ(last().Scale, 1u);
    D.run(1000);
    finish();
  }
  D.ElapsedMs.reset();
  EXPECT_EQ(cloneStats().scale_probes, 4u);
  EXPECT_EQ(stats().preemptions, 0u);
  EXPECT_EQ(cloneStats().scale_raised, 0u);
  EXPECT_EQ(once(1.0f), 0u);
  expectExactlyOnce();
}

TEST_F(ScaleTest, ClonesWithoutTheFlagNeverGetAScale) {
  D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag);
  make();
  for (int I = 0; I < 6; ++I)
    EXPECT_EQ(once(I ? 1.0f : 2.0f), 0u);
  EXPECT_EQ(cloneStats().scale_probes, 0u);
}

TEST_F(ScaleTest, ScaleFromTheEnvironment) {
  EXPECT_EQ(SchedOptions::fromEnvironment().SegScaleMax, 3u); // on by default (session 38)
  setenv("GMEM_PREEMPT_SEG_SCALE", "0", 1);
  EXPECT_EQ(SchedOptions::fromEnvironment().SegScaleMax, 0u);
  setenv("GMEM_PREEMPT_SEG_SCALE", "1", 1);
  EXPECT_EQ(SchedOptions::fromEnvironment().SegScaleMax, 1u);
  setenv("GMEM_PREEMPT_SEG_SCALE", "9", 1);
  EXPECT_EQ(SchedOptions::fromEnvironment().SegScaleMax, 3u);
  unsetenv("GMEM_PREEMPT_SEG_SCALE");
  setenv("GMEM_PREEMPT_SEG_STOP_US", "4.5", 1);
  EXPECT_DOUBLE_EQ(SchedOptions::fromEnvironment().SegStopUs, 4.5);
  unsetenv("GMEM_PREEMPT_SEG_STOP_US");
  EXPECT_EQ(SchedOptions::fromEnvironment().SegPairs, 3u);
  EXPECT_DOUBLE_EQ(SchedOptions::fromEnvironment().SegMargin, 0.01);
  setenv("GMEM_PREEMPT_SEG_PAIRS", "1", 1);
  setenv("GMEM_PREEMPT_SEG_MARGIN", "2", 1);
  EXPECT_EQ(SchedOptions::fromEnvironment().SegPairs, 1u);
  EXPECT_DOUBLE_EQ(SchedOptions::fromEnvironment().SegMargin, 0.02);
  setenv("GMEM_PREEMPT_SEG_PAIRS", "99", 1);
  EXPECT_EQ(SchedOptions::fromEnvironment().SegPairs, ChooserOptions::ScalePairsMax);
  setenv("GMEM_PREEMPT_SEG_PAIRS", "0", 1);
  EXPECT_EQ(SchedOptions::fromEnvironment().SegPairs, 1u);
  unsetenv("GMEM_PREEMPT_SEG_PAIRS");
  unsetenv("GMEM_PREEMPT_SEG_MARGIN");
  // Off: the shape's launches never leave scale 0.
  O.SegScaleMax = 0;
  make();
  for (int I = 0; I < 6; ++I)
    EXPECT_EQ(once(I ? 1.0f : 2.0f), 0u);
}

// The scale travels in grid_z's bits 24..25, only to persistent clones with
// the flag; beside it a batched clone's interval keeps bits 16..23.
TEST(CloneArgsScale, ScaleInGridZBits24And25) {
  const unsigned Grid[3] = {40, 3, 5};
  auto GridZ = [&](uint32_t Flags, unsigned K, unsigned Scale) {
    return cloneGridZArg(Flags, K, Scale, Grid);
  };
  EXPECT_EQ(GridZ(PrePersistent | PreSegmentScale, 0, 2), 5u | (2u << 24));
  EXPECT_EQ(GridZ(PrePersistent | PreSegmentScale, 0, 7), 5u | (3u << 24)); // at most 3
  EXPECT_EQ(GridZ(PrePersistent | PreSegmentScale | PreBatched, 6, 1), 5u | (6u << 16) | (1u << 24));
  EXPECT_EQ(GridZ(PrePersistent | PreSegmentScale | PreBatched, 1000, 1),
            5u | (0xffu << 16) | (1u << 24)); // the interval keeps to its 8 bits
  EXPECT_EQ(GridZ(PrePersistent, 0, 2), 5u);   // no flag: nothing
  EXPECT_EQ(GridZ(PreSegmentScale, 0, 2), 5u); // not persistent: grid ignored
}

// The verdict on a candidate's five stop probes, as pure logic: their
// median within ScaleStopUs and none over ScaleStopMaxUs.
TEST(CloneChooserScale, MedianOfThreeProbesAndNoneOverTheGoal) {
  auto Candidate = [](CloneChooser &C, uint64_t Key) {
    C.choose(Key, false, false, false, true);
    C.record(Key, CloneKind::Full, 1000, 40, 8); // decided full, tau 200 us
    CloneChoice Ch = C.choose(Key, false, false, false, true);
    EXPECT_EQ(Ch.Scale, 1u);
    EXPECT_TRUE(Ch.Timed);
    C.record(Key, CloneKind::Full, 900, 40, 8, 1, 0, /*Scale=*/1); // faster
    Ch = C.choose(Key, false, false, false, true);
    EXPECT_TRUE(Ch.StopProbe);
    EXPECT_EQ(Ch.Scale, 1u);
  };
  ChooserOptions O;
  O.HasLight = false;
  O.ScaleMax = 3;
  O.ScalePairs = 1; // one candidate timing against the latest own one
  CloneChooser C(O);
  Candidate(C, 1); // median 4: kept
  for (double Us : {9.0, 3.0, 4.0, 9.5, 2.0})
    EXPECT_TRUE(C.recordScaleStop(1, 1, Us));
  EXPECT_EQ(C.scaleOf(1), 1u);
  EXPECT_FALSE(C.recordScaleStop(1, 1, 3.0)); // decided: not waited for
  Candidate(C, 2); // median 8: not kept, and never tried again
  for (double Us : {9.0, 3.0, 9.5, 8.0, 2.0})
    C.recordScaleStop(2, 1, Us);
  EXPECT_EQ(C.scaleOf(2), 0u);
  for (int I = 0; I < 100; ++I) {
    CloneChoice Ch = C.choose(2, false, false, false, true);
    EXPECT_EQ(Ch.Scale, 0u);
    EXPECT_FALSE(Ch.StopProbe);
  }
  Candidate(C, 3); // one over 10 us ends it at once
  C.recordScaleStop(3, 1, 10.5);
  EXPECT_FALSE(C.scaleStopWanted(3, 1));
  EXPECT_EQ(C.scaleOf(3), 0u);
  // A launch whose loop checks are not armed is never a probe.
  Candidate(C, 4);
  CloneChoice Ch = C.choose(4, false, false, false, /*StopOk=*/false);
  EXPECT_FALSE(Ch.StopProbe);
  EXPECT_EQ(Ch.Scale, 0u);
}

// A candidate scale is timed alternately with the shape's own scale, three
// timings each, and goes on to its stop probes only where the medians
// differ by more than the 1% margin: one slow candidate launch or one fast
// own launch decides nothing either way.
TEST(CloneChooserScale, CandidateAndOwnScaleTimedAlternatelyMediansDecide) {
  ChooserOptions O;
  O.HasLight = false;
  O.ScaleMax = 3;
  auto Run = [](CloneChooser &C, uint64_t Key, std::initializer_list<double> Cand,
                std::initializer_list<double> Own) {
    C.choose(Key, false, false, false, true);
    C.record(Key, CloneKind::Full, 1000, 40, 8); // decided full, tau 200 us
    auto Ca = Cand.begin(), Ow = Own.begin();
    for (int I = 0; I < 3; ++I) {
      CloneChoice Ch = C.choose(Key, false, false, false, true);
      EXPECT_EQ(Ch.Scale, 1u) << I; // the candidate first
      EXPECT_TRUE(Ch.Timed);
      EXPECT_FALSE(Ch.StopProbe);
      C.record(Key, CloneKind::Full, *Ca++, 40, 8, 1, 0, /*Scale=*/1);
      Ch = C.choose(Key, false, false, false, true);
      EXPECT_EQ(Ch.Scale, 0u) << I; // then the own scale, timed too
      EXPECT_TRUE(Ch.Timed);
      C.record(Key, CloneKind::Full, *Ow++, 40, 8, 1, 0, /*Scale=*/0);
    }
    return C.choose(Key, false, false, false, true);
  };
  CloneChooser C(O);
  // Medians 984 against 1000: 1.6% faster, despite a 1200 and a 900.
  CloneChoice Ch = Run(C, 1, {980, 1200, 984}, {1000, 900, 1001});
  EXPECT_TRUE(Ch.StopProbe);
  EXPECT_EQ(Ch.Scale, 1u);
  EXPECT_DOUBLE_EQ(C.scaleTryUs(1), 984);
  // Medians 995 against 1000: within the margin, never tried again.
  Ch = Run(C, 2, {995, 996, 994}, {1000, 1000, 1000});
  EXPECT_FALSE(Ch.StopProbe);
  EXPECT_EQ(Ch.Scale, 0u);
  EXPECT_EQ(C.scaleTryUs(2), 0);
  for (int I = 0; I < 20; ++I)
    EXPECT_EQ(C.choose(2, false, false, false, true).Scale, 0u);
  // One fast candidate launch among slow ones: not faster.
  Ch = Run(C, 3, {900, 1005, 1010}, {1000, 1000, 1000});
  EXPECT_FALSE(Ch.StopProbe);
  EXPECT_EQ(C.scaleOf(3), 0u);
}

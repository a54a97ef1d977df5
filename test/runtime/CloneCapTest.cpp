// The overhead cap (CloneChoice.h, "Overhead cap"; GMEM_PREEMPT_MAX_OVERHEAD):
// without it the original never runs; with it the shape's time as compiled
// is taken first and now and then, a form within the cap keeps running, one
// over it gives way to the light twin where that is within the cap, else to
// the kernel as compiled, and the form is timed again (first capped launch,
// every FormRetimeEvery-th) so a shape that got faster comes back. Then the
// same through the scheduler against the simulated GPU: the original
// function is launched, timed with events of its own, and counted in
// gmemSchedCloneStats::capped_launches.
#include "CloneChoice.h"
#include "SchedulerTestFixture.h"

#include <cstdlib>

#include <gtest/gtest.h>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {

constexpr uint64_t Shape = 0xca9;
// 400 virtual CTAs on 8 persistent CTAs (50 rounds): launches of about
// 1000 us have a tau of 20 us, far from the light rule's 3 us.
constexpr uint64_t Total = 400, P = 8;
constexpr double OrigUs = 1000;

ChooserOptions capped(double Cap, bool Light = false) {
  ChooserOptions O;
  O.MaxOverhead = Cap;
  O.HasLight = Light;
  return O;
}

/// Counts of what N launches of Shape ran.
struct Tally {
  unsigned Original = 0, OriginalTimed = 0, Full = 0, FullTimed = 0, Light = 0, LightTimed = 0;
};

Tally run(CloneChooser &C, unsigned N, bool Idempotent = true, bool LightOk = false) {
  Tally T;
  for (unsigned I = 0; I < N; ++I) {
    const CloneChoice Ch = C.choose(Shape, Idempotent, LightOk);
    if (Ch.Original) {
      ++T.Original;
      T.OriginalTimed += Ch.Timed;
    } else if (Ch.Kind == CloneKind::Light) {
      ++T.Light;
      T.LightTimed += Ch.Timed;
    } else {
      EXPECT_EQ(Ch.Kind, CloneKind::Full);
      ++T.Full;
      T.FullTimed += Ch.Timed;
    }
  }
  return T;
}

/// The shape's original at OrigUs and its full clone at FullUs, both known.
void timeBoth(CloneChooser &C, double FullUs) {
  CloneChoice Ch = C.choose(Shape, true);
  ASSERT_TRUE(Ch.Original); // the first launch: as compiled, timed
  ASSERT_TRUE(Ch.Timed);
  ASSERT_TRUE(C.recordOriginal(Shape, OrigUs));
  Ch = C.choose(Shape, true); // the 2nd is an original timing too
  ASSERT_TRUE(Ch.Original);
  Ch = C.choose(Shape, true);
  ASSERT_FALSE(Ch.Original);
  ASSERT_EQ(Ch.Kind, CloneKind::Full);
  ASSERT_TRUE(Ch.Timed); // unknown shape: timed
  C.record(Shape, CloneKind::Full, FullUs, Total, P);
  ASSERT_TRUE(C.choose(Shape, true).Original); // the 4th: as compiled, timed
}

} // namespace

TEST(CloneCap, WithoutACapTheOriginalNeverRuns) {
  CloneChooser C(capped(0));
  C.choose(Shape, true);
  C.record(Shape, CloneKind::Full, 2 * OrigUs, Total, P);
  const Tally T = run(C, 3000);
  EXPECT_EQ(T.Original, 0u);
  EXPECT_EQ(T.Full, 3000u);
  EXPECT_EQ(C.originalUs(Shape), 0);
}

TEST(CloneCap, TheOriginalIsTimedFirstThenNowAndThen) {
  CloneChooser C(capped(0.03));
  // Several launches before the first timing comes: 1st and 2nd as
  // compiled, the 3rd the form (timed: the shape is unknown), the 4th as
  // compiled again.
  CloneChoice A = C.choose(Shape, true), B = C.choose(Shape, true), F = C.choose(Shape, true),
              G = C.choose(Shape, true);
  EXPECT_TRUE(A.Original && A.Timed);
  EXPECT_TRUE(B.Original && B.Timed);
  EXPECT_FALSE(F.Original);
  EXPECT_TRUE(F.Timed);
  EXPECT_TRUE(G.Original && G.Timed);
  EXPECT_TRUE(C.recordOriginal(Shape, OrigUs));
  EXPECT_DOUBLE_EQ(C.originalUs(Shape), OrigUs);
  C.record(Shape, CloneKind::Full, 1.01 * OrigUs, Total, P); // within 3%
  // Launches 5..1024: originals at 8, 16, 32, 64 and every 64th after, all
  // timed; everything else the full clone.
  const Tally T = run(C, 1020);
  EXPECT_EQ(T.Original, 4u + (1024 - 64) / 64);
  EXPECT_EQ(T.OriginalTimed, T.Original);
  EXPECT_EQ(T.Full, 1020 - T.Original);
  EXPECT_FALSE(C.recordOriginal(0xdead, 5)); // an unknown shape
}

TEST(CloneCap, AFormOverTheCapGivesWayToTheOriginal) {
  CloneChooser C(capped(0.03));
  timeBoth(C, 1.10 * OrigUs); // +10%
  // The first capped launch runs the form once more, timed (the verdict
  // must not rest on a cold first time); it is still over.
  CloneChoice Ch = C.choose(Shape, true);
  EXPECT_FALSE(Ch.Original);
  EXPECT_TRUE(Ch.Timed);
  C.record(Shape, CloneKind::Full, 1.08 * OrigUs, Total, P);
  // Then as compiled, but every 1024th capped launch re-times the form.
  const Tally T = run(C, 2500);
  EXPECT_EQ(T.Full, 2u);
  EXPECT_EQ(T.FullTimed, 2u);
  EXPECT_EQ(T.Original, 2498u);
  // A form that has become fast keeps running.
  C.record(Shape, CloneKind::Full, 1.02 * OrigUs, Total, P);
  const Tally U = run(C, 200);
  EXPECT_GT(U.Full, 190u);
}

TEST(CloneCap, TheCapIsAFractionOfTheOriginal) {
  CloneChooser Loose(capped(0.15));
  timeBoth(Loose, 1.10 * OrigUs); // within 15%
  EXPECT_GT(run(Loose, 300).Full, 290u);
  CloneChooser Tight(capped(0.05));
  timeBoth(Tight, 1.10 * OrigUs);
  Tight.choose(Shape, true); // the re-time
  Tight.record(Shape, CloneKind::Full, 1.10 * OrigUs, Total, P);
  EXPECT_LT(run(Tight, 300).Full, 2u);
}

TEST(CloneCap, WhatTheLaunchPathAddsToTheStreamCounts) {
  // +2% in the clone's own run, but +4% in the program's stream (hold
  // wait and events after it): over a 3% cap.
  CloneChooser C(capped(0.03));
  ASSERT_TRUE(C.choose(Shape, true).Original);
  C.recordOriginal(Shape, OrigUs);
  ASSERT_TRUE(C.choose(Shape, true).Original);
  ASSERT_FALSE(C.choose(Shape, true).Original);
  C.record(Shape, CloneKind::Full, 1.02 * OrigUs, Total, P, 1, 1.04 * OrigUs);
  ASSERT_TRUE(C.choose(Shape, true).Original); // the 4th: an original timing
  C.choose(Shape, true);                       // the first capped launch: re-time
  C.record(Shape, CloneKind::Full, 1.02 * OrigUs, Total, P); // (no stream time: kept)
  EXPECT_GT(run(C, 200).Original, 195u);
  // Without the stream's share it would have stayed.
  CloneChooser D(capped(0.03));
  timeBoth(D, 1.02 * OrigUs);
  EXPECT_GT(run(D, 200).Full, 190u);
}

TEST(CloneCap, TheLightTwinRunsWhereItIsWithinTheCap) {
  CloneChooser C(capped(0.03, /*Light=*/true));
  timeBoth(C, 1.20 * OrigUs); // tau 25 us: the shape stays on the full clone
  CloneChoice Ch = C.choose(Shape, true);
  ASSERT_FALSE(Ch.Original);
  C.record(Shape, CloneKind::Full, 1.20 * OrigUs, Total, P);
  // The light twin has no time yet: the next capped launch asks for one.
  Ch = C.choose(Shape, true);
  EXPECT_EQ(Ch.Kind, CloneKind::Light);
  EXPECT_TRUE(Ch.Timed);
  C.record(Shape, CloneKind::Light, 1.01 * OrigUs, Total, P);
  const Tally T = run(C, 500);
  EXPECT_GT(T.Light, 480u); // the rest: original timings, re-times
  EXPECT_EQ(T.Full, 0u);
  // A twin over the cap too: as compiled.
  C.record(Shape, CloneKind::Light, 1.05 * OrigUs, Total, P);
  const Tally U = run(C, 500);
  EXPECT_EQ(U.Light, 0u);
  EXPECT_GT(U.Original, 495u);
}

TEST(CloneCap, NotIdempotentLaunchesAreCappedToo) {
  // LightOk launches run the twin by timing; a twin over the cap gives way
  // to the original as well.
  CloneChooser C(capped(0.03, /*Light=*/true));
  ASSERT_TRUE(C.choose(Shape, false, true).Original);
  C.recordOriginal(Shape, OrigUs);
  ASSERT_TRUE(C.choose(Shape, false, true).Original);
  CloneChoice Ch = C.choose(Shape, false, true);
  ASSERT_EQ(Ch.Kind, CloneKind::Light);
  C.record(Shape, CloneKind::Light, 1.30 * OrigUs, Total, P);
  Ch = C.choose(Shape, false, true); // the own form's time, asked for
  ASSERT_EQ(Ch.Kind, CloneKind::Full);
  C.record(Shape, CloneKind::Full, 1.40 * OrigUs, Total, P);
  C.choose(Shape, false, true); // the first capped launch: a re-time
  const Tally T = run(C, 500, false, true);
  EXPECT_GT(T.Original, 495u);
}

// ---------------------------------------------------------------------------
// Through the scheduler.

namespace {

struct CapTest : SchedTest {
  void SetUp() override {
    SchedTest::SetUp();
    O.MaxOverhead = 0.03;
    make();
  }
};

} // namespace

TEST_F(CapTest, CappedLaunchesRunTheKernelAsCompiledTimed) {
  // Each launch runs Ms (what the fake GPU reports for its events).
  size_t Clones = 0;
  auto Launch = [&](float Ms) {
    D.ElapsedMs = Ms;
    EXPECT_EQ(pers(BE, {400, 1, 1}), CUDA_SUCCESS);
    const bool Clone = D.CloneLaunches.size() > Clones;
    Clones = D.CloneLaunches.size();
    if (Clone) {
      EXPECT_EQ(last().Name, pre(Pers));
    }
    finish(); // (polls: the timings are read)
    return Clone;
  };
  EXPECT_FALSE(Launch(1.0f)); // 1: as compiled, timed
  EXPECT_EQ(OriginalCalls, 1);
  EXPECT_FALSE(Launch(1.0f)); // 2: as compiled, timed
  EXPECT_TRUE(Launch(1.2f));  // 3: the clone, timed: +20%
  EXPECT_FALSE(Launch(1.0f)); // 4: as compiled, timed
  EXPECT_TRUE(Launch(1.2f));  // 5: over the cap; the first such launch re-times
  int Originals = 0;
  for (int I = 0; I < 20; ++I)
    Originals += !Launch(1.0f);
  EXPECT_EQ(Originals, 20);
  EXPECT_EQ(OriginalCalls, 3 + 20);
  gmemSchedCloneStats St = cloneStats();
  EXPECT_EQ(St.capped_launches, 23u);
  EXPECT_EQ(St.full_launches, 2u);
  expectExactlyOnce();
}

TEST_F(CapTest, TheCapComesFromTheEnvironmentInPercent) {
  unsetenv("GMEM_PREEMPT_MAX_OVERHEAD");
  EXPECT_EQ(SchedOptions::fromEnvironment().MaxOverhead, 0);
  setenv("GMEM_PREEMPT_MAX_OVERHEAD", "3", 1);
  EXPECT_DOUBLE_EQ(SchedOptions::fromEnvironment().MaxOverhead, 0.03);
  setenv("GMEM_PREEMPT_MAX_OVERHEAD", "2.5", 1);
  EXPECT_DOUBLE_EQ(SchedOptions::fromEnvironment().MaxOverhead, 0.025);
  setenv("GMEM_PREEMPT_MAX_OVERHEAD", "3%", 1); // refused: no cap
  EXPECT_EQ(SchedOptions::fromEnvironment().MaxOverhead, 0);
  setenv("GMEM_PREEMPT_MAX_OVERHEAD", "-1", 1);
  EXPECT_EQ(SchedOptions::fromEnvironment().MaxOverhead, 0);
  unsetenv("GMEM_PREEMPT_MAX_OVERHEAD");
}

// The full / alternate / light choice per launch shape (CloneChoice.h), as
// pure logic: unknown shapes run full and timed, a full timing decides,
// light launches are re-timed every 16th and sent back when they turn slow,
// full ones every 64th, and the shape cache stays bounded. Launches that
// stop only between virtual CTAs anyway (LightOk): the light twin timed
// against the shape's own form. Shapes a little over the light limit: one
// timed trial of the twin. The check interval of batched clones. The
// alternate full form is in CloneChoiceAltTest.cpp, the barrier-free form
// in CloneChoiceFreeTest.cpp (shared helpers: CloneChoiceHelpers.h).
#include "CloneArgsProbe.h"
#include "CloneChoice.h"
#include "CloneChoiceHelpers.h"
#include "PreemptControl.h"

#include <cstring>
#include <vector>

#include <gtest/gtest.h>

using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;
using State = CloneChooser::State;

TEST(CloneChooser, TauIsTheTimeOfOneRound) {
  EXPECT_DOUBLE_EQ(CloneChooser::tauUs(100, 40, 8), 20); // 5 rounds
  EXPECT_DOUBLE_EQ(CloneChooser::tauUs(120, 41, 8), 20); // 6 rounds: the last one short
  EXPECT_DOUBLE_EQ(CloneChooser::tauUs(7, 3, 8), 7);     // fewer virtual CTAs than CTAs
  EXPECT_DOUBLE_EQ(CloneChooser::tauUs(9, 0, 8), 9);     // degenerate: the whole time
  EXPECT_DOUBLE_EQ(CloneChooser::tauUs(9, 10, 0), 9);
}

TEST(CloneChooser, UnknownShapeRunsFullAndTimedUntilATimingArrives) {
  CloneChooser C;
  for (int I = 0; I < 3; ++I) { // several in flight before the first timing
    CloneChoice Ch = C.choose(Shape);
    EXPECT_EQ(Ch.Kind, CloneKind::Full);
    EXPECT_TRUE(Ch.Timed);
  }
  EXPECT_EQ(C.state(Shape), State::Unknown);
  EXPECT_EQ(C.shapes(), 1u);
}

TEST(CloneChooser, FastFullTimingMovesTheShapeToLight) {
  CloneChooser C;
  C.choose(Shape);
  // 5 rounds of 3 us: exactly at the limit.
  CloneChooser::Outcome O = C.record(Shape, CloneKind::Full, 15, Total, P);
  EXPECT_TRUE(O.Used);
  EXPECT_TRUE(O.switched());
  EXPECT_DOUBLE_EQ(O.TauUs, 3);
  EXPECT_EQ(O.From, State::Unknown);
  EXPECT_EQ(O.To, State::Light);
  EXPECT_EQ(C.state(Shape), State::Light);
  // The first light launch is timed, then every 16th.
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Light), 0u);
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Light), 15u);
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Light), 15u);
  // A late timing of an earlier full launch that agrees changes nothing.
  EXPECT_FALSE(C.record(Shape, CloneKind::Full, 10, Total, P).switched());
}

TEST(CloneChooser, SlowFullTimingKeepsFullAndRetimesEvery64th) {
  CloneChooser C;
  C.choose(Shape);
  CloneChooser::Outcome O = C.record(Shape, CloneKind::Full, 16, Total, P); // tau 3.2 us
  EXPECT_EQ(O.From, State::Unknown);
  EXPECT_EQ(O.To, State::Full);
  EXPECT_FALSE(O.switched()); // it ran full already
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Full), 63u);
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Full), 63u);
  // Still slow: stays, the count goes on.
  EXPECT_FALSE(C.record(Shape, CloneKind::Full, 500, Total, P).switched());
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Full), 63u);
  // Turned fast: light.
  O = C.record(Shape, CloneKind::Full, 5, Total, P);
  EXPECT_EQ(O.From, State::Full);
  EXPECT_EQ(O.To, State::Light);
  EXPECT_EQ(C.choose(Shape).Kind, CloneKind::Light);
}

TEST(CloneChooser, SlowLightTimingSendsTheShapeBackToFull) {
  ChooserOptions Opt;
  Opt.LightMaxUs = 2;
  CloneChooser C(Opt);
  C.choose(Shape);
  C.record(Shape, CloneKind::Full, 10, Total, P); // tau 2: light
  ASSERT_EQ(C.state(Shape), State::Light);
  // The first light timing, as fast as the full clone's: light it stays.
  EXPECT_FALSE(C.record(Shape, CloneKind::Light, 10, Total, P).switched());
  // Above the limit but within twice it: a later light launch keeps light.
  EXPECT_FALSE(C.record(Shape, CloneKind::Light, 20, Total, P).switched()); // tau 4
  EXPECT_EQ(C.state(Shape), State::Light);
  CloneChooser::Outcome O = C.record(Shape, CloneKind::Light, 21, Total, P); // tau 4.2
  EXPECT_TRUE(O.switched());
  EXPECT_EQ(O.To, State::Full);
  // Full again: re-timed at the 64th launch so that it may return.
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Full), 63u);
  C.record(Shape, CloneKind::Full, 1, Total, P);
  EXPECT_EQ(C.state(Shape), State::Light);
  // A light launch never moves a shape to light by itself.
  CloneChooser U;
  U.choose(7);
  EXPECT_FALSE(U.record(7, CloneKind::Light, 0.1, Total, P).switched());
  EXPECT_EQ(U.state(7), State::Unknown);
}

TEST(CloneChooser, FirstLightTimingSlowerThanTheFullCloneEndsLightForTheShape) {
  // Sent light by tau, the shape's first light timing is 5% slower than the
  // full timing that sent it: back to full, and never light again.
  CloneChooser C;
  C.choose(Shape);
  C.record(Shape, CloneKind::Full, 10, Total, P);
  ASSERT_EQ(C.state(Shape), State::Light);
  CloneChooser::Outcome O = C.record(Shape, CloneKind::Light, 10.5, Total, P);
  EXPECT_TRUE(O.switched());
  EXPECT_EQ(C.state(Shape), State::Full);
  C.record(Shape, CloneKind::Full, 1, Total, P);
  EXPECT_NE(C.state(Shape), State::Light);
  EXPECT_NE(C.choose(Shape).Kind, CloneKind::Light);
  // 1% slower: within the margin, light it stays.
  C.choose(2);
  C.record(2, CloneKind::Full, 10, Total, P);
  EXPECT_FALSE(C.record(2, CloneKind::Light, 10.1, Total, P).switched());
  EXPECT_EQ(C.state(2), State::Light);
}

// Virtual CTAs between LightMaxUs and LightTimedMaxUs: a decided shape's
// next timing of its own form sends it light once, and the twin stays only
// where its first timing beats that time outright (no margin).
TEST(CloneChooser, LightTrialKeepsTheTwinOnlyWhereItBeatsTheDecidedForm) {
  ChooserOptions Opt;
  Opt.LightTimedMaxUs = 6;
  for (double LightUs : {24.0, 25.0}) {
    CloneChooser C(Opt);
    C.choose(Shape);
    C.record(Shape, CloneKind::Full, 26, Total, P); // tau 5.2 us: decided full
    ASSERT_EQ(C.state(Shape), State::Full);
    EXPECT_EQ(C.settledUs(Shape), 0); // its trial is due
    // The trial's timing is the decided form's very next launch.
    EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Full), 0u);
    CloneChooser::Outcome O = C.record(Shape, CloneKind::Full, 25, Total, P); // tau 5
    EXPECT_TRUE(O.switched());
    EXPECT_EQ(O.To, State::Light);
    EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Light), 0u); // the trial, timed
    EXPECT_EQ(C.settledUs(Shape), 0); // until the trial's timing returns
    O = C.record(Shape, CloneKind::Light, LightUs, Total, P);
    if (LightUs < 25) {
      EXPECT_FALSE(O.switched()) << LightUs;
      EXPECT_EQ(C.state(Shape), State::Light);
      EXPECT_DOUBLE_EQ(C.settledUs(Shape), LightUs);
      continue;
    }
    // As slow as the full clone (within the margin that tau <= LightMaxUs
    // would allow): unfit, and never tried again.
    EXPECT_TRUE(O.switched());
    EXPECT_EQ(C.state(Shape), State::Full);
    // Decided again: its next launch is not timed (no trial for an unfit
    // twin), and the shape has settled on the full clone's time.
    EXPECT_FALSE(C.choose(Shape).Timed);
    EXPECT_DOUBLE_EQ(C.settledUs(Shape), 25);
    for (int I = 0; I < 3; ++I) {
      untimedBeforeNextTimed(C, Shape, CloneKind::Full);
      C.record(Shape, CloneKind::Full, 25, Total, P);
      EXPECT_EQ(C.state(Shape), State::Full);
    }
  }
  // Off (the default of ChooserOptions), or above the limit: full it stays.
  for (double Us : {25.0, 31.0}) {
    ChooserOptions O2 = Opt;
    if (Us == 25.0)
      O2.LightTimedMaxUs = 0;
    CloneChooser C(O2);
    C.choose(Shape);
    C.record(Shape, CloneKind::Full, Us, Total, P);
    untimedBeforeNextTimed(C, Shape, CloneKind::Full);
    EXPECT_FALSE(C.record(Shape, CloneKind::Full, Us, Total, P).switched()) << Us;
    EXPECT_EQ(C.state(Shape), State::Full);
  }
}

TEST(CloneChooser, ShapesAreKeptApart) {
  CloneChooser C;
  C.choose(1);
  C.choose(2);
  C.record(1, CloneKind::Full, 1, Total, P);
  C.record(2, CloneKind::Full, 1000, Total, P);
  EXPECT_EQ(C.choose(1).Kind, CloneKind::Light);
  EXPECT_EQ(C.choose(2).Kind, CloneKind::Full);
  EXPECT_EQ(C.choose(3).Kind, CloneKind::Full);
  EXPECT_TRUE(C.choose(3).Timed);
}

TEST(CloneChooser, ShapeCacheIsBoundedAndReplacedRoundRobin) {
  CloneChooser C;
  for (uint64_t K = 0; K < CloneChooser::MaxShapes; ++K) {
    C.choose(K);
    C.record(K, CloneKind::Full, 1, Total, P);
  }
  EXPECT_EQ(C.shapes(), CloneChooser::MaxShapes);
  C.choose(1000); // replaces shape 0, the oldest
  EXPECT_EQ(C.shapes(), CloneChooser::MaxShapes);
  EXPECT_EQ(C.state(0), State::Unknown);
  EXPECT_EQ(C.state(1), State::Light);
  // A timing of a forgotten shape is dropped.
  EXPECT_FALSE(C.record(0, CloneKind::Full, 1, Total, P).Used);
  C.choose(1001); // then shape 1
  EXPECT_EQ(C.state(1), State::Unknown);
  EXPECT_EQ(C.state(2), State::Light);
  EXPECT_EQ(C.state(1000), State::Unknown);
  CloneChoice Ch = C.choose(0); // back as new: full and timed
  EXPECT_EQ(Ch.Kind, CloneKind::Full);
  EXPECT_TRUE(Ch.Timed);
}

// Batched clones (PreBatched): the check interval is as many virtual CTAs as
// fit in BatchUs at the latest undisturbed timing's tau, 1 without one.
TEST(CloneChooserBatch, IntervalFromTheLatestTiming) {
  ChooserOptions O;
  O.HasLight = false;
  O.BatchUs = 4.0;
  CloneChooser C(O);
  EXPECT_EQ(C.batchFor(Shape), 1u); // not known
  C.choose(Shape);
  EXPECT_EQ(C.batchFor(Shape), 1u); // known, not timed yet
  C.record(Shape, CloneKind::Full, 2.5, Total, P); // tau 0.5 us
  EXPECT_EQ(C.batchFor(Shape), 8u);
  C.record(Shape, CloneKind::Full, 15.0, Total, P); // tau 3 us: one fits
  EXPECT_EQ(C.batchFor(Shape), 1u);
  C.record(Shape, CloneKind::Full, 100.0, Total, P); // tau 20 us: never 0
  EXPECT_EQ(C.batchFor(Shape), 1u);
  C.record(Shape, CloneKind::Full, 1e-6, Total, P); // capped at 16 bits
  EXPECT_EQ(C.batchFor(Shape), 65535u);
  EXPECT_EQ(C.batchFor(Shape + 1), 1u); // other shapes keep their own
  O.BatchUs = 0; // GMEM_PREEMPT_BATCH_US=0: every virtual CTA
  CloneChooser Off(O);
  Off.choose(Shape);
  Off.record(Shape, CloneKind::Full, 2.5, Total, P);
  EXPECT_EQ(Off.batchFor(Shape), 1u);
}

// The interval travels in grid_z's high 16 bits, only to batched persistent
// clones and only where grid_z leaves them free.
TEST(CloneArgs, IntervalInGridZHighBitsOnlyForBatchedClones) {
  using gmem::rt::sched::test::cloneGridZArg;
  const unsigned Grid[3] = {40, 3, 5};
  auto GridZ = [&](uint32_t Flags, unsigned K, const unsigned *G) {
    return cloneGridZArg(Flags, K, 0, G);
  };
  EXPECT_EQ(GridZ(PrePersistent | PreBatched, 6, Grid), 5u | (6u << 16));
  EXPECT_EQ(GridZ(PrePersistent | PreBatched, 1u << 20, Grid), 5u | (0xffffu << 16));
  EXPECT_EQ(GridZ(PrePersistent, 6, Grid), 5u);  // a clone that would not mask it
  EXPECT_EQ(GridZ(PreBatched, 6, Grid), 5u);     // not persistent: grid ignored
  const unsigned Big[3] = {1, 1, 70000};          // no persistent launch has it
  EXPECT_EQ(GridZ(PrePersistent | PreBatched, 6, Big), 70000u);
}

// Launches that stop only between virtual CTAs in every form (LightOk): the
// light twin by timing against the shape's own form.
TEST(CloneChooserLightOk, LightFirstThenTheOwnFormThenTheFaster) {
  CloneChooser C;
  // Light at once, timed until a timing arrives.
  for (int I = 0; I < 2; ++I) {
    CloneChoice Ch = C.choose(Shape, false, /*LightOk=*/true);
    EXPECT_EQ(Ch.Kind, CloneKind::Light);
    EXPECT_TRUE(Ch.Timed);
  }
  // 5 rounds of 40 us: far above the light limit; the shape compares.
  C.record(Shape, CloneKind::Light, 200, Total, P);
  EXPECT_EQ(C.state(Shape), State::Full);
  // The own form (full) gets a time next.
  CloneChoice Ch = C.choose(Shape, false, true);
  EXPECT_EQ(Ch.Kind, CloneKind::Full);
  EXPECT_TRUE(Ch.Timed);
  C.record(Shape, CloneKind::Full, 300, Total, P);
  // Light within the margin of full (here faster): light, every 16th timed.
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Light, false, true), 15u);
  // An idempotent launch of the shape (LightOk false) runs the shape's form.
  EXPECT_EQ(C.choose(Shape, true, false).Kind, CloneKind::Full);
  // Light turned slower than full by more than the margin: full.
  C.record(Shape, CloneKind::Light, 307, Total, P);
  EXPECT_EQ(C.choose(Shape, false, true).Kind, CloneKind::Full);
  C.record(Shape, CloneKind::Light, 305, Total, P); // within 2% of 300
  EXPECT_EQ(C.choose(Shape, false, true).Kind, CloneKind::Light);
}

TEST(CloneChooserLightOk, ComparesWithTheFullCloneWhereTheShapeRunsFree) {
  ChooserOptions O;
  O.HasFree = true;
  CloneChooser C(O);
  C.choose(Shape, true);
  C.record(Shape, CloneKind::Full, 300, Total, P);          // full forms: free, full
  EXPECT_EQ(C.choose(Shape, true).Kind, CloneKind::Free);
  C.record(Shape, CloneKind::Free, 100, Total, P);
  EXPECT_EQ(C.choose(Shape, true).Kind, CloneKind::Full);
  C.record(Shape, CloneKind::Full, 300, Total, P);
  ASSERT_EQ(C.state(Shape), State::Free);
  // Not idempotent: light first, then compared with full (not free).
  EXPECT_EQ(C.choose(Shape, false, true).Kind, CloneKind::Light);
  C.record(Shape, CloneKind::Light, 250, Total, P);
  EXPECT_EQ(C.choose(Shape, false, true).Kind, CloneKind::Light);
  C.record(Shape, CloneKind::Light, 350, Total, P);
  CloneChoice Ch = C.choose(Shape, false, true);
  EXPECT_EQ(Ch.Kind, CloneKind::Full);
  EXPECT_FALSE(Ch.Timed);
  EXPECT_EQ(C.choose(Shape, true, true).Kind, CloneKind::Free); // idempotent: free
}

TEST(CloneChooserLightOk, DoNotWaitForAComparisonInProgress) {
  ChooserOptions O;
  O.HasAlt = true;
  CloneChooser C(O);
  C.choose(Shape);
  C.record(Shape, CloneKind::Full, 300, Total, P); // comparison: alt, full
  CloneChoice Ch = C.choose(Shape, false, true);
  EXPECT_EQ(Ch.Kind, CloneKind::Light);
  EXPECT_TRUE(Ch.Timed);
  C.record(Shape, CloneKind::Light, 200, Total, P);
  EXPECT_EQ(C.choose(Shape, false, true).Kind, CloneKind::Light); // full has a time
  // An idempotent launch serves the comparison.
  Ch = C.choose(Shape, true, false);
  EXPECT_EQ(Ch.Kind, CloneKind::Alt);
  EXPECT_TRUE(Ch.Timed);
}

TEST(CloneChooserLightOk, OwnFormWithoutATimeIsAskedForAtPowersOfTwo) {
  CloneChooser C;
  EXPECT_EQ(C.choose(Shape, false, true).Kind, CloneKind::Light);
  C.record(Shape, CloneKind::Light, 200, Total, P); // tau 40 us: full forms
  ASSERT_EQ(C.state(Shape), State::Full);
  // Every timing of the full clone is lost (preempted launches): it is
  // asked for by the 1st, 2nd, 4th, 8th and 16th launch, light otherwise.
  std::vector<unsigned> FullAt;
  for (unsigned I = 1; I <= 20; ++I) {
    CloneChoice Ch = C.choose(Shape, false, true);
    if (Ch.Kind == CloneKind::Full) {
      EXPECT_TRUE(Ch.Timed);
      FullAt.push_back(I);
    } else {
      EXPECT_EQ(Ch.Kind, CloneKind::Light);
    }
  }
  EXPECT_EQ(FullAt, (std::vector<unsigned>{1, 2, 4, 8, 16}));
}

TEST(CloneChooserLightOk, UnfitLightTwinIsNeverChosenAgain) {
  CloneChooser C;
  C.choose(Shape);
  C.record(Shape, CloneKind::Full, 10, Total, P); // tau 2 us: light
  ASSERT_EQ(C.state(Shape), State::Light);
  C.unfit(Shape, CloneKind::Light);
  EXPECT_EQ(C.state(Shape), State::Full);
  EXPECT_EQ(C.choose(Shape, false, true).Kind, CloneKind::Full);
  C.record(Shape, CloneKind::Full, 10, Total, P); // fast again: stays full
  EXPECT_EQ(C.state(Shape), State::Full);
  EXPECT_EQ(C.choose(Shape, false, true).Kind, CloneKind::Full);
}

TEST(CloneChooserLightOk, WithoutTheLightTwinNothingChanges) {
  ChooserOptions O;
  O.HasLight = false;
  CloneChooser C(O);
  CloneChoice Ch = C.choose(Shape, false, true);
  EXPECT_EQ(Ch.Kind, CloneKind::Full);
  EXPECT_TRUE(Ch.Timed);
}

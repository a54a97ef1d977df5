// The full / alternate / light choice per launch shape (CloneChoice.h), as
// pure logic: unknown shapes run full and timed, a full timing decides,
// light launches are re-timed every 16th and sent back when they turn slow,
// full ones every 64th, and the shape cache stays bounded. With an
// alternate full form: the first comparison (full, alternate, full again),
// its margin, the other form timed every 1024th launch, and the light rule
// for the alternate form's timings. With a barrier-free form: the comparison
// with it (alone or beside the alternate form), and never for a launch not
// proved idempotent. Launches that stop only between virtual CTAs anyway
// (LightOk): the light twin timed against the shape's own form. Shapes a
// little over the light limit: one timed trial of the twin.
#include "CloneArgsProbe.h"
#include "CloneChoice.h"
#include "PreemptControl.h"

#include <cstring>
#include <vector>

#include <gtest/gtest.h>

using namespace gmem::rt::sched;
using State = CloneChooser::State;

namespace {

constexpr uint64_t Shape = 0x5eed;
// 40 virtual CTAs on 8 persistent CTAs: 5 rounds.
constexpr uint64_t Total = 40, P = 8;

/// Launches of Key (proved idempotent if \p Idempotent) until the next timed
/// one; how many were untimed. Every one, the timed one too, is Expect.
unsigned untimedBeforeNextTimed(CloneChooser &C, uint64_t Key, CloneKind Expect,
                                bool Idempotent = false, bool LightOk = false) {
  for (unsigned N = 0; N < 2000; ++N) {
    CloneChoice Ch = C.choose(Key, Idempotent, LightOk);
    EXPECT_EQ(Ch.Kind, Expect);
    if (Ch.Timed)
      return N;
  }
  ADD_FAILURE() << "never timed";
  return 0;
}

} // namespace

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
    EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Full), 63u);
    CloneChooser::Outcome O = C.record(Shape, CloneKind::Full, 25, Total, P); // tau 5
    EXPECT_TRUE(O.switched());
    EXPECT_EQ(O.To, State::Light);
    EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Light), 0u); // the trial, timed
    O = C.record(Shape, CloneKind::Light, LightUs, Total, P);
    if (LightUs < 25) {
      EXPECT_FALSE(O.switched()) << LightUs;
      EXPECT_EQ(C.state(Shape), State::Light);
      continue;
    }
    // As slow as the full clone (within the margin that tau <= LightMaxUs
    // would allow): unfit, and never tried again.
    EXPECT_TRUE(O.switched());
    EXPECT_EQ(C.state(Shape), State::Full);
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

// --- Alternate full forms (ChooserOptions::HasAlt) ----------------------------
// Elapsed times below are for 40 virtual CTAs on 8 persistent CTAs (5
// rounds): 100 us is tau 20 us, far from light.

namespace {

ChooserOptions withAlt() {
  ChooserOptions O;
  O.HasAlt = true;
  return O;
}

/// A new shape through its first comparison: a cold full time, an
/// alternate time, a warm full time; the verdict.
State firstComparison(CloneChooser &C, uint64_t Key, double ColdUs, double AltUs, double WarmUs) {
  C.choose(Key);
  C.record(Key, CloneKind::Full, ColdUs, Total, P);
  C.choose(Key);
  C.record(Key, CloneKind::Alt, AltUs, Total, P);
  C.choose(Key);
  C.record(Key, CloneKind::Full, WarmUs, Total, P);
  return C.state(Key);
}

} // namespace

TEST(CloneChooserAlt, FirstComparisonTimesFullAltThenFullAgain) {
  CloneChooser C(withAlt());
  CloneChoice Ch = C.choose(Shape);
  EXPECT_EQ(Ch.Kind, CloneKind::Full);
  EXPECT_TRUE(Ch.Timed);
  // The cold full time: stays on the full forms, undecided between them.
  CloneChooser::Outcome O = C.record(Shape, CloneKind::Full, 100, Total, P);
  EXPECT_EQ(O.To, State::Full);
  EXPECT_FALSE(O.switched());
  // The alternate form, timed, on every launch until its time arrives.
  for (int I = 0; I < 3; ++I) {
    Ch = C.choose(Shape);
    EXPECT_EQ(Ch.Kind, CloneKind::Alt);
    EXPECT_TRUE(Ch.Timed);
  }
  // A late full time (a launch made before) does not stand for it.
  EXPECT_FALSE(C.record(Shape, CloneKind::Full, 99, Total, P).switched());
  EXPECT_EQ(C.choose(Shape).Kind, CloneKind::Alt);
  O = C.record(Shape, CloneKind::Alt, 80, Total, P);
  EXPECT_EQ(O.To, State::Full);
  EXPECT_FALSE(O.switched());
  // Then the full clone once more, timed, until its time arrives.
  for (int I = 0; I < 2; ++I) {
    Ch = C.choose(Shape);
    EXPECT_EQ(Ch.Kind, CloneKind::Full);
    EXPECT_TRUE(Ch.Timed);
  }
  EXPECT_FALSE(C.record(Shape, CloneKind::Alt, 80, Total, P).switched()); // a late one
  EXPECT_EQ(C.choose(Shape).Kind, CloneKind::Full);
  O = C.record(Shape, CloneKind::Full, 90, Total, P);
  EXPECT_EQ(O.From, State::Full);
  EXPECT_EQ(O.To, State::Alt);
  EXPECT_TRUE(O.switched());
  EXPECT_EQ(C.state(Shape), State::Alt);
  // Decided: the alternate form, its every 64th launch timed.
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Alt), 63u);
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Alt), 63u);
}

TEST(CloneChooserAlt, AltOnlyWhenFasterThanTheBetterFullTimeByMoreThanTheMargin) {
  CloneChooser C(withAlt());
  // 2% faster than the better full time exactly: not more than the margin.
  EXPECT_EQ(firstComparison(C, 1, 100, 98, 100), State::Full);
  EXPECT_EQ(firstComparison(C, 2, 100, 97.9, 100), State::Alt);
  // The better full time counts, cold or warm.
  EXPECT_EQ(firstComparison(C, 3, 120, 97.9, 100), State::Alt);
  EXPECT_EQ(firstComparison(C, 4, 90, 97.9, 100), State::Full);
  EXPECT_EQ(firstComparison(C, 5, 100, 87, 90), State::Alt);
  EXPECT_EQ(firstComparison(C, 6, 100, 130, 100), State::Full);
  // Decided Full: the full clone, every 64th launch timed.
  EXPECT_EQ(untimedBeforeNextTimed(C, 6, CloneKind::Full), 63u);
  // The margin is an option.
  ChooserOptions O = withAlt();
  O.AltMargin = 0.2;
  CloneChooser W(O);
  EXPECT_EQ(firstComparison(W, 1, 100, 81, 100), State::Full);
  EXPECT_EQ(firstComparison(W, 2, 100, 79, 100), State::Alt);
}

TEST(CloneChooserAlt, DecidedShapeTimesTheOtherFormEveryFormRetimeEvery) {
  CloneChooser C(withAlt());
  ASSERT_EQ(firstComparison(C, Shape, 100, 120, 100), State::Full);
  ASSERT_EQ(C.options().FormRetimeEvery, 1024u);
  // Launches 1..1023 of the decided form: every 64th timed (15 of them);
  // the 1024th runs the other form, timed.
  unsigned TimedFull = 0;
  for (unsigned I = 1; I < 1024; ++I) {
    CloneChoice Ch = C.choose(Shape);
    ASSERT_EQ(Ch.Kind, CloneKind::Full) << I;
    TimedFull += Ch.Timed;
  }
  EXPECT_EQ(TimedFull, 15u);
  CloneChoice Ch = C.choose(Shape);
  EXPECT_EQ(Ch.Kind, CloneKind::Alt);
  EXPECT_TRUE(Ch.Timed);
  EXPECT_EQ(C.choose(Shape).Kind, CloneKind::Alt); // until its time arrives
  // Against the latest full time (a periodic one, 110): alternate at 107
  // is not 2% faster, the shape stays.
  C.record(Shape, CloneKind::Full, 110, Total, P);
  CloneChooser::Outcome O = C.record(Shape, CloneKind::Alt, 107.9, Total, P);
  EXPECT_EQ(O.To, State::Full);
  EXPECT_FALSE(O.switched());
  // Counted from the verdict: 1023 launches of the full clone, then the
  // alternate form again, now faster.
  for (unsigned I = 1; I < 1024; ++I)
    ASSERT_EQ(C.choose(Shape).Kind, CloneKind::Full) << I;
  EXPECT_EQ(C.choose(Shape).Kind, CloneKind::Alt);
  O = C.record(Shape, CloneKind::Alt, 107.7, Total, P);
  EXPECT_EQ(O.To, State::Alt);
  EXPECT_TRUE(O.switched());
  // Decided Alt: 1024 launches on, the full clone is timed once against
  // the alternate form's latest time, which now must beat the fresh full
  // time by the margin.
  for (unsigned I = 1; I < 1024; ++I)
    ASSERT_EQ(C.choose(Shape).Kind, CloneKind::Alt) << I;
  Ch = C.choose(Shape);
  EXPECT_EQ(Ch.Kind, CloneKind::Full);
  EXPECT_TRUE(Ch.Timed);
  O = C.record(Shape, CloneKind::Full, 109, Total, P); // 107.7 > 0.98 x 109
  EXPECT_EQ(O.From, State::Alt);
  EXPECT_EQ(O.To, State::Full);
  EXPECT_TRUE(O.switched());
  EXPECT_EQ(C.choose(Shape).Kind, CloneKind::Full);
}

TEST(CloneChooserAlt, FastTimingsOfEitherFullFormSendTheShapeLight) {
  CloneChooser C(withAlt());
  C.choose(Shape);
  C.record(Shape, CloneKind::Full, 100, Total, P);
  C.choose(Shape);
  // The alternate form's P is its own: 40 virtual CTAs on 20, 2 rounds.
  CloneChooser::Outcome O = C.record(Shape, CloneKind::Alt, 6, Total, 20);
  EXPECT_DOUBLE_EQ(O.TauUs, 3);
  EXPECT_EQ(O.To, State::Light);
  EXPECT_TRUE(O.switched());
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Light), 0u);
  // From a decided alternate form too (its periodic timing).
  ASSERT_EQ(firstComparison(C, 2, 100, 50, 100), State::Alt);
  EXPECT_EQ(untimedBeforeNextTimed(C, 2, CloneKind::Alt), 63u);
  O = C.record(2, CloneKind::Alt, 2, Total, P);
  EXPECT_EQ(O.From, State::Alt);
  EXPECT_EQ(O.To, State::Light);
  // Without a light twin in use, fast shapes stay on the full forms.
  ChooserOptions NL = withAlt();
  NL.HasLight = false;
  CloneChooser N(NL);
  EXPECT_EQ(firstComparison(N, Shape, 1, 0.5, 1), State::Alt);
  EXPECT_EQ(N.record(Shape, CloneKind::Alt, 0.1, Total, P).To, State::Alt);
}

TEST(CloneChooserAlt, SlowLightShapeComparesTheFullFormsAfresh) {
  CloneChooser C(withAlt());
  ASSERT_EQ(firstComparison(C, Shape, 100, 50, 100), State::Alt);
  C.record(Shape, CloneKind::Alt, 1, Total, P); // turned fast: light
  ASSERT_EQ(C.state(Shape), State::Light);
  C.choose(Shape);
  CloneChooser::Outcome O = C.record(Shape, CloneKind::Light, 100, Total, P); // slow again
  EXPECT_EQ(O.To, State::Full);
  EXPECT_TRUE(O.switched());
  // Times from before it ran light are dropped: the alternate form, then
  // the full clone, each timed once more; the fresh full time alone counts.
  CloneChoice Ch = C.choose(Shape);
  EXPECT_EQ(Ch.Kind, CloneKind::Alt);
  EXPECT_TRUE(Ch.Timed);
  C.record(Shape, CloneKind::Alt, 200, Total, P);
  Ch = C.choose(Shape);
  EXPECT_EQ(Ch.Kind, CloneKind::Full);
  EXPECT_TRUE(Ch.Timed);
  O = C.record(Shape, CloneKind::Full, 300, Total, P); // 200 < 0.98 x 300
  EXPECT_EQ(O.To, State::Alt);
  EXPECT_TRUE(O.switched());
}

TEST(CloneChooserAlt, UnfitAlternateFormKeepsTheShapeFull) {
  CloneChooser C(withAlt());
  C.choose(Shape);
  C.record(Shape, CloneKind::Full, 100, Total, P);
  ASSERT_EQ(C.choose(Shape).Kind, CloneKind::Alt);
  C.altUnfit(Shape); // no resident grid for it: the scheduler ran full
  EXPECT_EQ(C.state(Shape), State::Full);
  // That launch counts as the first of the decided shape.
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Full), 62u);
  for (unsigned I = 0; I < 2048; ++I)
    ASSERT_EQ(C.choose(Shape).Kind, CloneKind::Full) << I; // never compared again
  // A shape decided Alt falls back to Full.
  ASSERT_EQ(firstComparison(C, 2, 100, 50, 100), State::Alt);
  C.altUnfit(2);
  EXPECT_EQ(C.state(2), State::Full);
  EXPECT_EQ(C.choose(2).Kind, CloneKind::Full);
  C.altUnfit(99); // an unknown shape: nothing
  EXPECT_EQ(C.state(99), State::Unknown);
}

TEST(CloneChooserAlt, NoAltWithoutHasAlt) {
  CloneChooser C; // HasAlt off by default: the full / light choice only
  EXPECT_FALSE(C.options().HasAlt);
  C.choose(Shape);
  EXPECT_EQ(C.record(Shape, CloneKind::Full, 100, Total, P).To, State::Full);
  // No comparison: the next timed launch is the 64th, full, and so on past
  // FormRetimeEvery.
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Full), 63u);
  for (unsigned I = 0; I < 4096; ++I)
    ASSERT_EQ(C.choose(Shape).Kind, CloneKind::Full) << I;
  // Back from light, too.
  C.record(Shape, CloneKind::Full, 1, Total, P);
  C.choose(Shape);
  C.record(Shape, CloneKind::Light, 100, Total, P);
  EXPECT_EQ(C.state(Shape), State::Full);
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Full), 63u);
}

TEST(CloneChooserAlt, NamesOfStatesAndKinds) {
  EXPECT_STREQ(CloneChooser::name(State::Alt), "alt");
  EXPECT_STREQ(CloneChooser::name(State::Light), "light");
  EXPECT_STREQ(cloneKindName(CloneKind::Alt), "alt");
  EXPECT_STREQ(cloneKindName(CloneKind::Full), "full");
  EXPECT_EQ(CloneChooser::kindOf(State::Unknown), CloneKind::Full);
  EXPECT_EQ(CloneChooser::kindOf(State::Alt), CloneKind::Alt);
}

// --- Barrier-free forms (ChooserOptions::HasFree) -----------------------------
// Only launches proved idempotent may run them (choose's FreeOk); the
// comparison takes them in after the alternate form, before the warm full
// launch.

namespace {

ChooserOptions withFree(bool Alt = false) {
  ChooserOptions O;
  O.HasAlt = Alt;
  O.HasFree = true;
  return O;
}

/// The next launch of Key, proved idempotent, must be Kind and timed; its
/// time is ElapsedUs. The outcome.
CloneChooser::Outcome timed(CloneChooser &C, uint64_t Key, CloneKind Kind, double ElapsedUs) {
  CloneChoice Ch = C.choose(Key, /*FreeOk=*/true);
  EXPECT_EQ(Ch.Kind, Kind);
  EXPECT_TRUE(Ch.Timed);
  return C.record(Key, Ch.Kind, ElapsedUs, Total, P);
}

} // namespace

TEST(CloneChooserFree, OnlyFreeFormIsComparedFullFreeFullAgain) {
  CloneChooser C(withFree());
  EXPECT_FALSE(C.options().HasAlt);
  EXPECT_EQ(timed(C, Shape, CloneKind::Full, 100).To, State::Full);
  EXPECT_EQ(timed(C, Shape, CloneKind::Free, 90).To, State::Full);
  CloneChooser::Outcome O = timed(C, Shape, CloneKind::Full, 100);
  EXPECT_EQ(O.To, State::Free);
  EXPECT_TRUE(O.switched());
  EXPECT_STREQ(CloneChooser::name(O.To), "free");
  // Decided: the free form, its every 64th launch timed.
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Free, true), 63u);
}

TEST(CloneChooserFree, FreeOnlyWhenFasterThanTheFullCloneByMoreThanTheMargin) {
  CloneChooser C(withFree());
  auto Compare = [&](uint64_t Key, double Cold, double Free, double Warm) {
    timed(C, Key, CloneKind::Full, Cold);
    timed(C, Key, CloneKind::Free, Free);
    timed(C, Key, CloneKind::Full, Warm);
    return C.state(Key);
  };
  EXPECT_EQ(Compare(1, 100, 98, 100), State::Full); // exactly 2%: not more
  EXPECT_EQ(Compare(2, 100, 99, 100), State::Full);
  EXPECT_EQ(Compare(3, 100, 97.9, 100), State::Free);
  EXPECT_EQ(Compare(4, 90, 97.9, 100), State::Full); // the better full time counts
}

TEST(CloneChooserFree, FirstComparisonTimesAltThenFreeAndKeepsTheFaster) {
  CloneChooser C(withFree(/*Alt=*/true));
  timed(C, 1, CloneKind::Full, 100);
  timed(C, 1, CloneKind::Alt, 90);
  timed(C, 1, CloneKind::Free, 80);
  EXPECT_EQ(timed(C, 1, CloneKind::Full, 100).To, State::Free);
  timed(C, 2, CloneKind::Full, 100);
  timed(C, 2, CloneKind::Alt, 80);
  timed(C, 2, CloneKind::Free, 90);
  EXPECT_EQ(timed(C, 2, CloneKind::Full, 100).To, State::Alt);
  // Both within the margin: full.
  timed(C, 3, CloneKind::Full, 100);
  timed(C, 3, CloneKind::Alt, 99);
  timed(C, 3, CloneKind::Free, 98.5);
  EXPECT_EQ(timed(C, 3, CloneKind::Full, 100).To, State::Full);
  // Late timings of other forms do not stand for the probe.
  timed(C, 4, CloneKind::Full, 100);
  ASSERT_EQ(C.choose(4, true).Kind, CloneKind::Alt);
  EXPECT_EQ(C.record(4, CloneKind::Free, 50, Total, P).To, State::Full);
  EXPECT_EQ(C.choose(4, true).Kind, CloneKind::Alt);
}

TEST(CloneChooserFree, LaunchNotProvedIdempotentNeverGetsTheFreeForm) {
  CloneChooser C(withFree());
  // Whatever the shape's state: unknown (full, timed)...
  CloneChoice Ch = C.choose(Shape, /*FreeOk=*/false);
  EXPECT_EQ(Ch.Kind, CloneKind::Full);
  EXPECT_TRUE(Ch.Timed);
  C.record(Shape, CloneKind::Full, 100, Total, P);
  // ... waiting for the free form's time: without it, there is nothing left
  // to compare (no alternate form): the comparison is abandoned, full...
  Ch = C.choose(Shape, false);
  EXPECT_EQ(Ch.Kind, CloneKind::Full);
  EXPECT_FALSE(Ch.Timed);
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Full, true), 62u);
  // ... decided free: full, untimed, also where the free form would be timed.
  CloneChooser F(withFree());
  timed(F, Shape, CloneKind::Full, 100);
  timed(F, Shape, CloneKind::Free, 50);
  ASSERT_EQ(timed(F, Shape, CloneKind::Full, 100).To, State::Free);
  for (unsigned I = 1; I < 200; ++I) {
    Ch = F.choose(Shape, false);
    ASSERT_EQ(Ch.Kind, CloneKind::Full) << I;
    ASSERT_FALSE(Ch.Timed) << I;
  }
  EXPECT_EQ(F.state(Shape), State::Free);
  // By default a launch is not proved idempotent.
  EXPECT_EQ(F.choose(Shape).Kind, CloneKind::Full);
  EXPECT_EQ(F.choose(Shape, true).Kind, CloneKind::Free);
}

TEST(CloneChooserFree, ComparisonGoesOnWithoutFreeForALaunchThatMayNotRunIt) {
  CloneChooser C(withFree(/*Alt=*/true));
  timed(C, Shape, CloneKind::Full, 100);
  timed(C, Shape, CloneKind::Alt, 90);
  // The free form is next; this launch may not run it: the warm full launch.
  CloneChoice Ch = C.choose(Shape, false);
  EXPECT_EQ(Ch.Kind, CloneKind::Full);
  EXPECT_TRUE(Ch.Timed);
  EXPECT_EQ(C.record(Shape, CloneKind::Full, 100, Total, P).To, State::Alt);
  // A periodic comparison from the alternate form: full, then free; free
  // skipped as the last probe: one more full launch decides.
  for (unsigned I = 1; I < 1024; ++I)
    ASSERT_EQ(C.choose(Shape, true).Kind, CloneKind::Alt) << I;
  EXPECT_EQ(timed(C, Shape, CloneKind::Full, 100).To, State::Alt);
  Ch = C.choose(Shape, false);
  EXPECT_EQ(Ch.Kind, CloneKind::Full);
  EXPECT_TRUE(Ch.Timed);
  EXPECT_EQ(C.record(Shape, CloneKind::Full, 91, Total, P).To, State::Full); // 90 > 0.98 x 91
}

TEST(CloneChooserFree, DecidedShapesRetimeTheOtherForms) {
  CloneChooser C(withFree(/*Alt=*/true));
  timed(C, Shape, CloneKind::Full, 100);
  timed(C, Shape, CloneKind::Alt, 120);
  timed(C, Shape, CloneKind::Free, 80);
  ASSERT_EQ(timed(C, Shape, CloneKind::Full, 100).To, State::Free);
  // 1024 launches on: the full clone, then the alternate form, each once.
  unsigned TimedFree = 0;
  for (unsigned I = 1; I < 1024; ++I) {
    CloneChoice Ch = C.choose(Shape, true);
    ASSERT_EQ(Ch.Kind, CloneKind::Free) << I;
    TimedFree += Ch.Timed;
  }
  EXPECT_EQ(TimedFree, 15u);
  C.record(Shape, CloneKind::Free, 85, Total, P); // a periodic one
  EXPECT_EQ(timed(C, Shape, CloneKind::Full, 100).To, State::Free);
  // Against the fresh full time and the free form's latest: the alternate
  // form, now faster than both.
  CloneChooser::Outcome O = timed(C, Shape, CloneKind::Alt, 84);
  EXPECT_EQ(O.From, State::Free);
  EXPECT_EQ(O.To, State::Alt);
  // From the alternate form: the full clone, then the free form.
  for (unsigned I = 1; I < 1024; ++I)
    ASSERT_EQ(C.choose(Shape, true).Kind, CloneKind::Alt) << I;
  timed(C, Shape, CloneKind::Full, 100);
  EXPECT_EQ(timed(C, Shape, CloneKind::Free, 70).To, State::Free);
  // From the full clone: the alternate form, then the free form.
  CloneChooser F(withFree(/*Alt=*/true));
  timed(F, 2, CloneKind::Full, 100);
  timed(F, 2, CloneKind::Alt, 120);
  timed(F, 2, CloneKind::Free, 110);
  ASSERT_EQ(timed(F, 2, CloneKind::Full, 100).To, State::Full);
  for (unsigned I = 1; I < 1024; ++I)
    ASSERT_EQ(F.choose(2, true).Kind, CloneKind::Full) << I;
  timed(F, 2, CloneKind::Alt, 120);
  EXPECT_EQ(timed(F, 2, CloneKind::Free, 90).To, State::Free);
}

TEST(CloneChooserFree, UnfitFreeForm) {
  // The only other form: the comparison is abandoned, full for good.
  CloneChooser C(withFree());
  timed(C, Shape, CloneKind::Full, 100);
  ASSERT_EQ(C.choose(Shape, true).Kind, CloneKind::Free);
  C.freeUnfit(Shape);
  EXPECT_EQ(C.state(Shape), State::Full);
  EXPECT_EQ(untimedBeforeNextTimed(C, Shape, CloneKind::Full, true), 62u);
  for (unsigned I = 0; I < 2048; ++I)
    ASSERT_EQ(C.choose(Shape, true).Kind, CloneKind::Full) << I;
  // Next to an alternate form: the comparison goes on without it (the
  // launch that could not run it runs the full clone, which decides).
  CloneChooser A(withFree(/*Alt=*/true));
  timed(A, 2, CloneKind::Full, 100);
  timed(A, 2, CloneKind::Alt, 90);
  ASSERT_EQ(A.choose(2, true).Kind, CloneKind::Free);
  A.unfit(2, CloneKind::Free);
  EXPECT_EQ(A.record(2, CloneKind::Full, 100, Total, P).To, State::Alt);
  // A shape decided free falls back to full.
  CloneChooser F(withFree());
  timed(F, 3, CloneKind::Full, 100);
  timed(F, 3, CloneKind::Free, 50);
  ASSERT_EQ(timed(F, 3, CloneKind::Full, 100).To, State::Free);
  F.freeUnfit(3);
  EXPECT_EQ(F.state(3), State::Full);
  EXPECT_EQ(F.choose(3, true).Kind, CloneKind::Full);
}

TEST(CloneChooserFree, FastFreeTimingSendsTheShapeLight) {
  ChooserOptions O = withFree();
  O.HasLight = true;
  CloneChooser C(O);
  timed(C, Shape, CloneKind::Full, 100);
  // The free form's own P: 40 virtual CTAs on 20, 2 rounds.
  ASSERT_EQ(C.choose(Shape, true).Kind, CloneKind::Free);
  CloneChooser::Outcome O2 = C.record(Shape, CloneKind::Free, 6, Total, 20);
  EXPECT_DOUBLE_EQ(O2.TauUs, 3);
  EXPECT_EQ(O2.To, State::Light);
  EXPECT_EQ(C.choose(Shape, true).Kind, CloneKind::Light);
  EXPECT_EQ(cloneKindName(CloneKind::Free), std::string("free"));
  EXPECT_EQ(CloneChooser::kindOf(State::Free), CloneKind::Free);
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

// The clone choice per launch shape (CloneChoice.h) with an alternate full
// form: the first comparison (full, alternate, full again), its margin, the
// other form timed every 1024th launch, and the light rule for the
// alternate form's timings.
#include "CloneChoice.h"
#include "CloneChoiceHelpers.h"

#include <gtest/gtest.h>

using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;
using State = CloneChooser::State;

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

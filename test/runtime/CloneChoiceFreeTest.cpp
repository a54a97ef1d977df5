// The clone choice per launch shape (CloneChoice.h) with a barrier-free
// form: the comparison with it (alone or beside the alternate form), and
// never for a launch not proved idempotent.
#include "CloneChoice.h"
#include "CloneChoiceHelpers.h"

#include <string>

#include <gtest/gtest.h>

using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;
using State = CloneChooser::State;

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

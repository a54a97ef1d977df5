// The spread of a persistent clone's launches (CloneChoice.h, "Spread"), as
// pure logic: after every decision of a shape's form one launch of that form
// runs at the other spread, timed; it is kept only when faster by more than
// the margin; a switch forgets the times taken at the old spread; timings of
// launches made at another spread than the shape's do not move it; tau is
// taken over the resident CTAs, not over P; and with SpreadMax 1 (the
// default of a chooser made without options) nothing changes.
#include "CloneChoice.h"

#include <gtest/gtest.h>

using namespace gmem::rt::sched;
using State = CloneChooser::State;

namespace {

constexpr uint64_t Shape = 0x5eed;
// 400 virtual CTAs, 8 resident: 50 rounds; ~40 us virtual CTAs below.
constexpr uint64_t Total = 400, Resident = 8;

ChooserOptions spreading(bool Light = false) {
  ChooserOptions O;
  O.HasLight = Light;
  O.LightMaxUs = 3;
  O.SpreadMax = 4;
  return O;
}

/// A shape decided on the full clone at spread 1 (its first launch timed at
/// 2000 us), the next launch not yet chosen.
CloneChooser decidedFull(ChooserOptions O = spreading()) {
  CloneChooser C(O);
  CloneChoice Ch = C.choose(Shape);
  EXPECT_EQ(Ch.Spread, 1u);
  EXPECT_TRUE(Ch.Timed);
  C.record(Shape, CloneKind::Full, 2000, Total, Resident, 1);
  EXPECT_EQ(C.state(Shape), State::Full);
  return C;
}

} // namespace

TEST(CloneSpread, DecisionIsFollowedByOneTimedLaunchAtTheOtherSpread) {
  CloneChooser C = decidedFull();
  CloneChoice Probe = C.choose(Shape);
  EXPECT_EQ(Probe.Kind, CloneKind::Full);
  EXPECT_EQ(Probe.Spread, 4u);
  EXPECT_TRUE(Probe.Timed);
  // Launches made before its timing arrives stay at the shape's spread,
  // and no second probe is asked for.
  for (int I = 0; I < 5; ++I) {
    CloneChoice Ch = C.choose(Shape);
    EXPECT_EQ(Ch.Spread, 1u);
    EXPECT_FALSE(Ch.Timed);
  }
  CloneChooser::Outcome O = C.record(Shape, CloneKind::Full, 1500, Total, Resident, 4);
  EXPECT_TRUE(O.SpreadSwitched);
  EXPECT_EQ(O.Spread, 4u);
  EXPECT_FALSE(O.switched()); // the form stays
  for (int I = 0; I < 5; ++I) {
    CloneChoice Ch = C.choose(Shape);
    EXPECT_EQ(Ch.Kind, CloneKind::Full);
    EXPECT_EQ(Ch.Spread, 4u);
  }
}

TEST(CloneSpread, ProbeNotFasterByTheMarginKeepsSpreadOne) {
  CloneChooser C = decidedFull();
  ASSERT_EQ(C.choose(Shape).Spread, 4u);
  // 1970 us is 1.5% faster than 2000: within the 2% margin.
  CloneChooser::Outcome O = C.record(Shape, CloneKind::Full, 1970, Total, Resident, 4);
  EXPECT_FALSE(O.SpreadSwitched);
  EXPECT_EQ(O.Spread, 1u);
  for (int I = 0; I < 70; ++I)
    EXPECT_EQ(C.choose(Shape).Spread, 1u);
}

TEST(CloneSpread, TimingsAtAnotherSpreadThanTheShapesDoNotMoveIt) {
  CloneChooser C = decidedFull();
  // A late timing at spread 4 that no probe asked for: dropped, even fast.
  CloneChooser::Outcome O = C.record(Shape, CloneKind::Full, 10, Total, Resident, 4);
  EXPECT_TRUE(O.Used);
  EXPECT_FALSE(O.SpreadSwitched);
  EXPECT_EQ(C.state(Shape), State::Full); // a 10 us full time would have sent it light
  // The probe still comes, and only its own form's timing counts.
  ASSERT_EQ(C.choose(Shape).Spread, 4u);
  EXPECT_FALSE(C.record(Shape, CloneKind::Alt, 100, Total, Resident, 4).SpreadSwitched);
  EXPECT_TRUE(C.record(Shape, CloneKind::Full, 1000, Total, Resident, 4).SpreadSwitched);
}

TEST(CloneSpread, TauIsTakenOverTheResidentCtas) {
  CloneChooser C(spreading(/*Light=*/true));
  C.choose(Shape);
  // 400 virtual CTAs over 8 resident CTAs: 50 rounds of 2 us, light.
  CloneChooser::Outcome Out = C.record(Shape, CloneKind::Full, 100, Total, Resident, 1);
  EXPECT_DOUBLE_EQ(Out.TauUs, 2.0);
  EXPECT_EQ(C.state(Shape), State::Light);
  EXPECT_EQ(C.batchFor(Shape), 2u); // 4 us of 2 us virtual CTAs
}

// A switch compares the full forms again at the new spread right away (the
// forms rank differently there), and that decision probes no spread.
TEST(CloneSpread, SwitchComparesTheFormsAgainAtTheNewSpread) {
  ChooserOptions O = spreading();
  O.HasAlt = true;
  CloneChooser C(O);
  C.choose(Shape);
  C.record(Shape, CloneKind::Full, 2000, Total, Resident, 1);
  ASSERT_EQ(C.choose(Shape).Kind, CloneKind::Alt);
  C.record(Shape, CloneKind::Alt, 2010, Total, Resident, 1); // no faster at 1x
  ASSERT_EQ(C.choose(Shape).Kind, CloneKind::Full);
  C.record(Shape, CloneKind::Full, 2000, Total, Resident, 1);
  ASSERT_EQ(C.state(Shape), State::Full);
  CloneChoice Ch = C.choose(Shape); // the spread probe
  ASSERT_EQ(Ch.Spread, 4u);
  ASSERT_TRUE(C.record(Shape, CloneKind::Full, 1800, Total, Resident, 4).SpreadSwitched);
  Ch = C.choose(Shape);
  EXPECT_EQ(Ch.Kind, CloneKind::Alt); // at once, not FormRetimeEvery launches on
  EXPECT_EQ(Ch.Spread, 4u);
  EXPECT_TRUE(Ch.Timed);
  EXPECT_EQ(C.record(Shape, CloneKind::Alt, 1600, Total, Resident, 4).To, State::Alt);
  for (int I = 0; I < 40; ++I) {
    Ch = C.choose(Shape);
    EXPECT_EQ(Ch.Kind, CloneKind::Alt) << I;
    EXPECT_EQ(Ch.Spread, 4u) << I; // no probe back to 1
  }
  // Without other forms there is nothing to compare: the shape goes on.
  CloneChooser F = decidedFull();
  ASSERT_EQ(F.choose(Shape).Spread, 4u);
  ASSERT_TRUE(F.record(Shape, CloneKind::Full, 1500, Total, Resident, 4).SpreadSwitched);
  EXPECT_FALSE(F.choose(Shape).Timed);
}

TEST(CloneSpread, SwitchForgetsTheOtherFormsTimesAndTheNextDecisionProbesBack) {
  ChooserOptions O = spreading();
  O.HasAlt = true;
  O.FormRetimeEvery = 32;
  CloneChooser C(O);
  C.choose(Shape);
  C.record(Shape, CloneKind::Full, 2000, Total, Resident, 1);
  // The first comparison: alternate, then full again; full stays.
  CloneChoice Ch = C.choose(Shape);
  ASSERT_EQ(Ch.Kind, CloneKind::Alt);
  EXPECT_EQ(Ch.Spread, 1u);
  C.record(Shape, CloneKind::Alt, 2100, Total, Resident, 1);
  ASSERT_EQ(C.choose(Shape).Kind, CloneKind::Full);
  C.record(Shape, CloneKind::Full, 2000, Total, Resident, 1);
  ASSERT_EQ(C.state(Shape), State::Full);
  // Decided: the probe at 4, faster, kept.
  Ch = C.choose(Shape);
  ASSERT_EQ(Ch.Spread, 4u);
  ASSERT_TRUE(C.record(Shape, CloneKind::Full, 1600, Total, Resident, 4).SpreadSwitched);
  // The periodic comparison times the alternate form at spread 4 (its
  // spread-1 time is forgotten), decides, and the probe goes back to 1.
  bool SawAlt = false, SawProbe = false;
  for (int I = 0; I < 80 && !SawProbe; ++I) {
    Ch = C.choose(Shape);
    if (Ch.Kind == CloneKind::Alt) {
      EXPECT_EQ(Ch.Spread, 4u);
      EXPECT_TRUE(Ch.Timed);
      SawAlt = true;
      C.record(Shape, CloneKind::Alt, 1700, Total, Resident, 4); // slower: full stays
    } else if (Ch.Spread == 1) {
      EXPECT_TRUE(SawAlt);
      EXPECT_TRUE(Ch.Timed);
      SawProbe = true;
      // Spread 1 is slower now: the shape stays at 4.
      EXPECT_FALSE(C.record(Shape, CloneKind::Full, 2000, Total, Resident, 1).SpreadSwitched);
    }
  }
  EXPECT_TRUE(SawProbe);
  EXPECT_EQ(C.choose(Shape).Spread, 4u);
}

TEST(CloneSpread, LightShapesProbeOnceTheirOwnTimeArrives) {
  CloneChooser C(spreading(/*Light=*/true));
  C.choose(Shape);
  C.record(Shape, CloneKind::Full, 80, Total, Resident, 1); // tau 1.6: light
  ASSERT_EQ(C.state(Shape), State::Light);
  CloneChoice Ch = C.choose(Shape); // the first light launch, timed, at 1
  EXPECT_EQ(Ch.Kind, CloneKind::Light);
  EXPECT_EQ(Ch.Spread, 1u);
  EXPECT_TRUE(Ch.Timed);
  C.record(Shape, CloneKind::Light, 70, Total, Resident, 1);
  Ch = C.choose(Shape);
  EXPECT_EQ(Ch.Kind, CloneKind::Light);
  EXPECT_EQ(Ch.Spread, 4u);
  EXPECT_TRUE(Ch.Timed);
  // Slower (the common case for short virtual CTAs): light at 1 stays.
  EXPECT_FALSE(C.record(Shape, CloneKind::Light, 90, Total, Resident, 4).SpreadSwitched);
  EXPECT_EQ(C.choose(Shape).Spread, 1u);
}

TEST(CloneSpread, OffWithSpreadMaxOne) {
  ChooserOptions O = spreading();
  O.SpreadMax = 1;
  CloneChooser C = decidedFull(O);
  for (int I = 0; I < 200; ++I)
    EXPECT_EQ(C.choose(Shape).Spread, 1u);
  CloneChooser Default; // a chooser made without options never spreads
  Default.choose(Shape);
  Default.record(Shape, CloneKind::Full, 2000, Total, Resident);
  for (int I = 0; I < 200; ++I)
    EXPECT_EQ(Default.choose(Shape).Spread, 1u);
}

// Launches that stop between virtual CTAs only (LightOk) run the light twin
// by timing against the shape's own form; the twin too is timed once at the
// other spread after its first time, and the shape moves there when that is
// faster by the margin (H200: gemm_polybench's twin, not idempotent, +10%
// at 1x against about +0% at 4x its resident CTAs).
TEST(CloneSpread, LightOkLaunchesProbeTheTwinAtTheOtherSpread) {
  for (const bool Faster : {true, false}) {
    CloneChooser C(spreading(/*Light=*/true));
    CloneChoice Ch = C.choose(Shape, false, true);
    ASSERT_EQ(Ch.Kind, CloneKind::Light); // the twin first, timed
    ASSERT_TRUE(Ch.Timed);
    ASSERT_EQ(Ch.Spread, 1u);
    C.record(Shape, CloneKind::Light, 2000, Total, Resident, 1);
    Ch = C.choose(Shape, false, true); // the own form's time, asked for
    ASSERT_EQ(Ch.Kind, CloneKind::Full);
    C.record(Shape, CloneKind::Full, 2100, Total, Resident, 1);
    // The decision of the own form is followed by its own spread probe.
    Ch = C.choose(Shape, false, true);
    if (Ch.Kind == CloneKind::Full) {
      EXPECT_EQ(Ch.Spread, 4u);
      C.record(Shape, CloneKind::Full, 2200, Total, Resident, 4); // slower: stays
      Ch = C.choose(Shape, false, true);
    }
    // The twin at 4x, once.
    ASSERT_EQ(Ch.Kind, CloneKind::Light);
    EXPECT_EQ(Ch.Spread, 4u) << Faster;
    EXPECT_TRUE(Ch.Timed);
    CloneChoice Next = C.choose(Shape, false, true); // before its timing: 1x, no second probe
    EXPECT_EQ(Next.Kind, CloneKind::Light);
    EXPECT_EQ(Next.Spread, 1u);
    EXPECT_FALSE(Next.Timed);
    CloneChooser::Outcome O =
        C.record(Shape, CloneKind::Light, Faster ? 1800 : 1990, Total, Resident, 4);
    EXPECT_EQ(O.SpreadSwitched, Faster);
    for (int I = 0; I < 5; ++I) {
      Ch = C.choose(Shape, false, true);
      if (Ch.Timed)
        continue; // (the own form's time at the new spread, asked for)
      EXPECT_EQ(Ch.Kind, CloneKind::Light);
      EXPECT_EQ(Ch.Spread, Faster ? 4u : 1u);
    }
  }
}

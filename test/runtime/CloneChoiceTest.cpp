// The full / light choice per launch shape (CloneChoice.h), as pure logic:
// unknown shapes run full and timed, a full timing decides, light launches
// are re-timed every 16th and sent back when they turn slow, full ones
// every 64th, and the shape cache stays bounded.
#include "CloneChoice.h"

#include <gtest/gtest.h>

using namespace gmem::rt::sched;
using State = CloneChooser::State;

namespace {

constexpr uint64_t Shape = 0x5eed;
// 40 virtual CTAs on 8 persistent CTAs: 5 rounds.
constexpr uint64_t Total = 40, P = 8;

/// Launches of Key until the next timed one; how many were untimed.
unsigned untimedBeforeNextTimed(CloneChooser &C, uint64_t Key, CloneKind Expect) {
  for (unsigned N = 0; N < 1000; ++N) {
    CloneChoice Ch = C.choose(Key);
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
  // Above the limit but within twice it: a light launch keeps light.
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

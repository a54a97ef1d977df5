// Shared by the clone choice tests (CloneChoiceTest.cpp,
// CloneChoiceAltTest.cpp, CloneChoiceFreeTest.cpp): the launch shape and
// its rounds, and how many launches of a shape run untimed.
#pragma once

#include "CloneChoice.h"

#include <cstdint>

#include <gtest/gtest.h>

namespace gmem {
namespace rt {
namespace sched {
namespace test {

inline constexpr uint64_t Shape = 0x5eed;
// 40 virtual CTAs on 8 persistent CTAs: 5 rounds.
inline constexpr uint64_t Total = 40, P = 8;

/// Launches of Key (proved idempotent if \p Idempotent) until the next timed
/// one; how many were untimed. Every one, the timed one too, is Expect.
inline unsigned untimedBeforeNextTimed(CloneChooser &C, uint64_t Key, CloneKind Expect,
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

} // namespace test
} // namespace sched
} // namespace rt
} // namespace gmem

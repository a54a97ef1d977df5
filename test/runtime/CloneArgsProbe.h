// The grid_z argument buildArgs gives a clone of a (ptr, i32) kernel: what
// the interval (PreBatched) and segment scale (PreSegmentScale) tests read.
#pragma once

#include "PreemptControl.h"

#include <cstdint>
#include <cstring>

#include <gtest/gtest.h>

namespace gmem {
namespace rt {
namespace sched {
namespace test {

/// grid_z as passed to a clone with info flags Flags for the user's Grid,
/// check interval K and segment scale Scale.
inline uint32_t cloneGridZArg(uint32_t Flags, unsigned K, unsigned Scale, const unsigned Grid[3]) {
  CloneInfo C;
  C.Offset = {0, 8, 16, 24, 28, 32}; // (ptr, i32) + ctl + grid x, y, z
  C.Size = {8, 4, 8, 4, 4, 4};
  C.ArgBytes = 36;
  C.Flags = Flags;
  uint64_t Ptr = 0x1234;
  int32_t N = 7;
  void *Params[2] = {&Ptr, &N};
  Slot S;
  EXPECT_TRUE(buildArgs(S, C, Grid, Params, nullptr, K, Scale));
  uint32_t Z = 0;
  std::memcpy(&Z, S.Args.data() + 32, 4);
  return Z;
}

} // namespace test
} // namespace sched
} // namespace rt
} // namespace gmem

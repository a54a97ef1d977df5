// Grid-stride kernels (PreGridStride, runtime/src/GridStride.h): with
// GMEM_PREEMPT_GRID_STRIDE=T an idempotent launch of such a kernel's
// persistent clone runs on a grid of T trips per virtual CTA, never on one
// where the index could wrap; other launches, clones without the bound
// word, and T = 0 keep the launch's grid. By default (auto) the tuner
// picks T per launch shape by timing (GridStrideTuner.h).
#include "SchedulerTestFixture.h"

#include "GridStride.h"
#include "GridStrideTuner.h"

#include <climits>
#include <set>
#include <vector>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {

/// Pers as a grid-stride kernel whose bound is its int parameter #1 (N).
constexpr uint32_t GridStrideFlag = 0x2000;
constexpr uint32_t BoundIsN = 1 | 1u << 19 | GridStrideWritesApart; // parameter 1, read sign-extended

uint32_t gridFor(const GridStrideBound &B, uint64_t N, size_t Bytes, unsigned Grid, unsigned Block,
                 uint32_t MaxX = 0x7fffffff, unsigned Trips = 1) {
  const unsigned G[3] = {Grid, 1, 1}, Bl[3] = {Block, 1, 1};
  return gridStrideX(B, &N, Bytes, G, Bl, MaxX, Trips);
}

} // namespace

TEST(GridStrideX, OneTripPerVirtualCtaWhereTheIndexCannotWrap) {
  GridStrideBound S32; // i < n, int
  S32.ParamSigned = true;
  EXPECT_EQ(gridFor(S32, 10000, 4, 4, 128), 79u); // ceil(10000 / 128)
  EXPECT_EQ(gridFor(S32, 10000, 4, 4, 128, 0x7fffffff, 4), 20u); // 4 trips: ceil(10000 / 512)
  EXPECT_EQ(gridFor(S32, 10000, 4, 20, 128, 0x7fffffff, 4), 0u);
  EXPECT_EQ(gridFor(S32, 10000, 4, 79, 128), 0u); // the launch's own grid is as large
  EXPECT_EQ(gridFor(S32, 10000, 4, 100, 128), 0u); // never smaller
  EXPECT_EQ(gridFor(S32, 0, 4, 4, 128), 0u);       // no index runs
  EXPECT_EQ(gridFor(S32, uint32_t(-5), 4, 4, 128), 0u);
  // The last index plus the stride must stay <= INT_MAX: 2^30 + 2^29 items
  // of 128 would need 12582912 CTAs; 4194304 keep the sum in range.
  EXPECT_EQ(gridFor(S32, (1u << 30) + (1u << 29), 4, 4, 128), 4194304u);
  EXPECT_EQ(gridFor(S32, INT_MAX - 100, 4, 4, 128), 0u); // even the launch's own grid wraps
  // And the stride itself (a 32-bit product in the source) below 2^31.
  GridStrideBound W64 = S32;
  W64.Wide = true;
  W64.Unsigned = true;
  W64.ParamSigned = false;
  EXPECT_EQ(gridFor(W64, 1ull << 40, 8, 4, 1024), (0x7fffffffu) / 1024);
  EXPECT_EQ(gridFor(W64, 1ull << 40, 8, 4, 1024, 1000), 1000u); // the caller's cap
  EXPECT_EQ(gridFor(W64, 5000, 8, 4, 1024), 5u);
  EXPECT_EQ(gridFor(S32, 1ull << 40, 8, 4, 1024), 0u); // a 64-bit n for a 32-bit index
  EXPECT_EQ(gridFor(S32, 5000, 2, 4, 1024), 0u);       // an n it cannot read
  // i <= n, unsigned: n + 1 indices; n = UINT_MAX leaves no room.
  GridStrideBound U32;
  U32.Unsigned = U32.Inclusive = true;
  EXPECT_EQ(gridFor(U32, 1023, 4, 1, 256), 4u);
  EXPECT_EQ(gridFor(U32, 1024, 4, 1, 256), 5u);
  EXPECT_EQ(gridFor(U32, UINT_MAX, 4, 1, 256), 0u);
  // A signed 32-bit index compared with a sign-extended 64-bit bound... is
  // a 64-bit index: n read from 4 bytes sign-extended, 64-bit limits.
  GridStrideBound SW = S32;
  SW.Wide = true;
  EXPECT_EQ(gridFor(SW, uint32_t(-1), 4, 1, 256), 0u);
  EXPECT_EQ(gridFor(SW, 512, 4, 1, 256), 2u);
}

/// Pers flagged as a grid-stride kernel bounded by N = 10000 (or without
/// the bound word), under the given trips option.
class GridStrideTest : public SchedTest {
protected:
  void flagged(unsigned Trips, bool Auto = false, bool Bound = true) {
    D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag | GridStrideFlag, 0x31504d47, 2,
              Bound ? std::optional<uint32_t>(BoundIsN) : std::nullopt);
    O.GridStrideTrips = Trips;
    O.GridStrideAuto = Auto;
    make();
    N = 10000;
  }
  /// One launch of 4 CTAs: the x extent of the virtual grid it ran.
  unsigned virtualGridX(bool Idempotent = true) {
    const size_t Before = D.CloneLaunches.size();
    EXPECT_EQ(pers(BE, {4, 1, 1}, Idempotent), CUDA_SUCCESS);
    EXPECT_EQ(D.CloneLaunches.size(), Before + 1);
    return D.CloneLaunches.size() > Before ? D.CloneLaunches.back().UserGrid[0] : 0;
  }
};

TEST_F(GridStrideTest, LaunchRunsOnTheLoopsGrid) {
  flagged(1);
  EXPECT_EQ(virtualGridX(), 79u);              // ceil(10000 / 128) virtual CTAs
  EXPECT_EQ(D.CloneLaunches[0].Grid[0], 8u); // on the resident grid (4 SMs x 2)
  finish();
  expectExactlyOnce();
  EXPECT_EQ(job(pre(Pers)).Completed.size(), 79u);
  EXPECT_EQ(OriginalCalls, 0);
}

TEST_F(GridStrideTest, RelaunchKeepsTheLoopsGrid) {
  flagged(1);
  size_t First = 0;
  uint64_t Ctl = 0;
  EXPECT_EQ(preemptedPers(First, Ctl), pre(Pers));
  EXPECT_EQ(D.CloneLaunches[First].UserGrid[0], 79u);
  finish();
  expectExactlyOnce();
  size_t Relaunches = 0;
  for (size_t I = First + 1; I < D.CloneLaunches.size(); ++I)
    if (D.CloneLaunches[I].Ctl == Ctl) {
      ++Relaunches;
      EXPECT_EQ(D.CloneLaunches[I].UserGrid[0], 79u) << I;
    }
  EXPECT_GE(Relaunches, 1u);
  EXPECT_EQ(job(pre(Pers)).Completed.size(), 79u);
}

TEST_F(GridStrideTest, KeepsTheGridOfLaunchesNotProvedIdempotent) {
  flagged(1);
  EXPECT_EQ(virtualGridX(/*Idempotent=*/false), 4u);
  finish();
  expectExactlyOnce();
}

TEST_F(GridStrideTest, FlagWithoutItsBoundIsIgnored) {
  flagged(1, false, /*Bound=*/false); // five words
  EXPECT_EQ(virtualGridX(), 4u);
  finish();
}

// A sixth word without WritesApart comes from the session 49 pass, which
// flagged kernels whose items write the same bytes: ignored.
TEST_F(GridStrideTest, WordWithoutWritesApartIsIgnored) {
  D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag | GridStrideFlag, 0x31504d47, 2,
            BoundIsN & ~GridStrideWritesApart);
  O.GridStrideTrips = 1;
  make();
  N = 10000;
  EXPECT_EQ(virtualGridX(), 4u);
  finish();
  expectExactlyOnce();
}

TEST_F(GridStrideTest, ZeroKeepsTheGrid) {
  flagged(0);
  for (int I = 0; I < 40; ++I)
    EXPECT_EQ(virtualGridX(), 4u);
  finish();
  unsetenv("GMEM_PREEMPT_GRID_STRIDE");
  EXPECT_TRUE(SchedOptions::fromEnvironment().GridStrideAuto); // the default
  setenv("GMEM_PREEMPT_GRID_STRIDE", "0", 1);
  EXPECT_FALSE(SchedOptions::fromEnvironment().GridStrideAuto);
  EXPECT_EQ(SchedOptions::fromEnvironment().GridStrideTrips, 0u);
  setenv("GMEM_PREEMPT_GRID_STRIDE", "4", 1);
  EXPECT_FALSE(SchedOptions::fromEnvironment().GridStrideAuto);
  EXPECT_EQ(SchedOptions::fromEnvironment().GridStrideTrips, 4u);
  setenv("GMEM_PREEMPT_GRID_STRIDE", "auto", 1);
  EXPECT_TRUE(SchedOptions::fromEnvironment().GridStrideAuto);
  setenv("GMEM_PREEMPT_GRID_STRIDE", "maybe", 1); // refused: the default
  EXPECT_TRUE(SchedOptions::fromEnvironment().GridStrideAuto);
  unsetenv("GMEM_PREEMPT_GRID_STRIDE");
}

TEST_F(GridStrideTest, TripsPerVirtualCta) {
  flagged(4);
  EXPECT_EQ(virtualGridX(), 20u); // ceil(10000 / (4 x 128))
  finish();
  expectExactlyOnce();
}

TEST_F(GridStrideTest, KeepsAGridWhereTheIndexWouldWrap) {
  flagged(1);
  N = INT_MAX - 100; // the launch's own grid already wraps: left as it is
  EXPECT_EQ(virtualGridX(), 4u);
}

TEST_F(GridStrideTest, AutoStartsOnTheOwnGrid) {
  flagged(0, /*Auto=*/true);
  EXPECT_EQ(virtualGridX(), 4u); // measured on its own grid first
  finish();
  expectExactlyOnce();
}

// Through the scheduler: each grid's shape settles (its comparison, the
// light trial, their timings), then the next candidate runs. The one-trip
// grid's virtual CTAs take 5.2 us on the full clone (slower than the own
// grid), 4 us on the light twin: its light trial (between LightMaxUs and
// LightTimedMaxUs) comes right after the decision, before the tuner
// judges the grid, which it then keeps (H200, session 49: im2col's
// one-trip grid was judged on its full clone).
TEST_F(GridStrideTest, AutoSettlesEachGridAndKeepsTheFastest) {
  addPersLightTwin(); // a form to choose: the chooser times the shapes
  D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag | GridStrideFlag | LightFlag, 0x31504d47, 2,
            BoundIsN);
  O.GridStrideAuto = true;
  O.LightTimedMaxUs = 6;
  make();
  N = 10000;
  std::set<unsigned> Seen;
  std::vector<unsigned> Grids;
  for (int I = 0; I < 240; ++I) {
    const unsigned X = virtualGridX();
    Seen.insert(X);
    Grids.push_back(X);
    // 79 virtual CTAs on 8 resident CTAs: 10 rounds.
    const bool Light = last().Name == light(Pers);
    D.ElapsedMs = X == 79 ? (Light ? 0.040f : 0.052f) : 0.050f; // when timed
    finish();
  }
  EXPECT_EQ(Seen, (std::set<unsigned>{4, 5, 20, 79})); // own, 16, 4 and 1 trips
  for (size_t I = Grids.size() - 20; I < Grids.size(); ++I)
    EXPECT_EQ(Grids[I], 79u) << I;
  EXPECT_EQ(last().Name, light(Pers));
  expectExactlyOnce();
}

// The tuner (GridStrideTuner.h): own grid first, then each candidate, each
// once the chooser has settled its shape (CloneChooser::settledUs); the
// fastest wins where it beats the own grid by 2%.
TEST(GridStrideTuner, KeepsTheFastestGridOnceEachIsDecided) {
  GridStrideTuner T;
  const uint64_t K = 42;
  auto Settle = [&](unsigned Trips, double Us) {
    for (unsigned I = 0; I < GridStrideTuner::SettleLaunches; ++I) {
      ASSERT_EQ(T.tripsFor(K), Trips);
      T.observe(K, Trips, Us);
    }
  };
  EXPECT_EQ(T.tripsFor(K), 0u); // the own grid first
  T.observe(K, 0, 0); // not settled yet: stays
  EXPECT_EQ(T.tripsFor(K), 0u);
  Settle(0, 600.0);
  EXPECT_EQ(T.decided(K), -1);
  Settle(1, 993.0); // slower
  Settle(4, 497.0); // faster
  EXPECT_EQ(T.tripsFor(K), 16u);
  T.observe(K, 4, 10.0); // a late launch of the old stage: ignored
  Settle(16, 490.0); // not faster than 497 by the margin
  EXPECT_EQ(T.decided(K), 4);
  EXPECT_EQ(T.tripsFor(K), 4u);
  // Another shape is measured on its own.
  EXPECT_EQ(T.tripsFor(7), 0u);
}

TEST(GridStrideTuner, OwnGridWhereNoCandidateWinsByTheMargin) {
  GridStrideTuner T;
  for (unsigned Trips : {0u, 1u, 4u, 16u})
    for (unsigned I = 0; I < GridStrideTuner::SettleLaunches; ++I)
      T.observe(1, Trips, Trips ? 99.5 : 100.0); // 0.5% faster only
  EXPECT_EQ(T.decided(1), 0);
  EXPECT_EQ(T.tripsFor(1), 0u);
}

TEST(GridStrideTuner, SkipsCandidatesThatCannotRegridOrNeverSettle) {
  GridStrideTuner T;
  for (unsigned I = 0; I < GridStrideTuner::SettleLaunches; ++I)
    T.observe(5, 0, 100.0);
  EXPECT_EQ(T.tripsFor(5), 1u);
  T.skip(5, 1); // no larger grid is safe
  EXPECT_EQ(T.tripsFor(5), 4u);
  for (unsigned I = 0; I < GridStrideTuner::WaitLaunches; ++I)
    T.observe(5, 4, 0); // never settles
  EXPECT_EQ(T.tripsFor(5), 16u);
  for (unsigned I = 0; I < GridStrideTuner::SettleLaunches; ++I)
    T.observe(5, 16, 160.0); // slower than 100
  EXPECT_EQ(T.decided(5), 0);
  // A shape whose own grid never gets a time stays on it.
  for (unsigned I = 0; I < GridStrideTuner::WaitLaunches; ++I)
    T.observe(6, 0, 0);
  EXPECT_EQ(T.decided(6), 0);
}

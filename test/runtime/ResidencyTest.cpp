// Range merging, residency bookkeeping and the eviction choice (CPU only).
#include "Residency.h"

#include <gtest/gtest.h>

using namespace gmem::rt;

namespace {
constexpr uint64_t MiB = 1ull << 20;
constexpr uint64_t G = ResidencyTracker::Granule;

std::vector<Range> rs(std::initializer_list<std::pair<uint64_t, uint64_t>> L) {
  std::vector<Range> Out;
  for (auto [Lo, Hi] : L)
    Out.push_back({Lo, Hi});
  return Out;
}
} // namespace

TEST(RangeSet, MergesOverlappingAndAdjacent) {
  RangeSet S;
  S.add(100, 200);
  S.add(300, 400);
  EXPECT_EQ(S.ranges(), rs({{100, 200}, {300, 400}}));
  S.add(200, 300); // adjacent on both sides: one interval
  EXPECT_EQ(S.ranges(), rs({{100, 400}}));
  S.add(50, 120);
  S.add(390, 500);
  EXPECT_EQ(S.ranges(), rs({{50, 500}}));
  EXPECT_EQ(S.bytes(), 450u);
  S.add(10, 10); // empty: ignored
  EXPECT_EQ(S.ranges().size(), 1u);
}

TEST(RangeSet, RemoveSplits) {
  RangeSet S;
  S.add(0, 1000);
  EXPECT_EQ(S.remove(100, 200), 100u);
  EXPECT_EQ(S.ranges(), rs({{0, 100}, {200, 1000}}));
  EXPECT_EQ(S.remove(50, 300), 150u);
  EXPECT_EQ(S.ranges(), rs({{0, 50}, {300, 1000}}));
  EXPECT_EQ(S.remove(2000, 3000), 0u);
  EXPECT_EQ(S.bytes(), 750u);
}

TEST(RangeSet, ContainsMissingOverlap) {
  RangeSet S;
  S.add(100, 200);
  S.add(300, 400);
  EXPECT_TRUE(S.contains(120, 180));
  EXPECT_FALSE(S.contains(150, 350));
  EXPECT_TRUE(S.intersects(150, 350));
  EXPECT_FALSE(S.intersects(200, 300)); // half-open
  std::vector<Range> M;
  S.missing(50, 450, M);
  EXPECT_EQ(M, rs({{50, 100}, {200, 300}, {400, 450}}));
  std::vector<Range> O;
  S.overlap(150, 350, O);
  EXPECT_EQ(O, rs({{150, 200}, {300, 350}}));
  M.clear();
  S.missing(120, 180, M);
  EXPECT_TRUE(M.empty());
}

TEST(ResidencyTracker, WidensToGranulesInsideTheAllocation) {
  ResidencyTracker T;
  uint64_t Base = 0x10000000, Size = 10 * G + 100;
  T.addAllocation(Base, Size);
  Range W = T.widen({Base + G + 10, Base + 2 * G + 1});
  EXPECT_EQ(W, (Range{Base + G, Base + 3 * G}));
  // The tail is clipped to the allocation's end.
  W = T.widen({Base + 10 * G + 1, Base + 10 * G + 50});
  EXPECT_EQ(W, (Range{Base + 10 * G, Base + Size}));
}

TEST(ResidencyTracker, SyncMakesResidentStaleButStillCounted) {
  ResidencyTracker T;
  T.addAllocation(0, 100 * MiB);
  T.markResident({0, 4 * MiB});
  EXPECT_TRUE(T.isResident({MiB, 2 * MiB}));
  T.markAllStale();
  EXPECT_FALSE(T.isResident({MiB, 2 * MiB}));
  EXPECT_EQ(T.accountedBytes(), 4 * MiB); // still counted against a budget
  std::vector<Range> Need;
  T.toPrefetch({0, 2 * MiB}, Need);
  EXPECT_EQ(Need, rs({{0, 2 * MiB}}));
  T.markResident({0, 2 * MiB});
  EXPECT_EQ(T.accountedBytes(), 4 * MiB); // moved from stale, not double counted
  T.markEvicted({0, 4 * MiB});
  EXPECT_EQ(T.accountedBytes(), 0u);
}

TEST(ResidencyTracker, FreeForgetsEverythingInTheAllocation) {
  ResidencyTracker T;
  T.addAllocation(0, 8 * MiB);
  T.addAllocation(8 * MiB, 8 * MiB);
  T.markResident({0, 16 * MiB});
  T.pin({0, MiB});
  T.removeAllocation(2 * MiB); // any address inside
  EXPECT_EQ(T.resident().ranges(), rs({{8 * MiB, 16 * MiB}}));
  EXPECT_TRUE(T.pinned().empty());
  EXPECT_TRUE(T.allocationOf(MiB).empty());
}

TEST(ResidencyTracker, VictimsAreLeastRecentlyUsedAndNotInFlightFirst) {
  ResidencyTracker T;
  T.addAllocation(0, 64 * MiB);
  Range A{0, 4 * MiB}, B{4 * MiB, 8 * MiB}, C{8 * MiB, 12 * MiB}, D{12 * MiB, 16 * MiB};
  for (Range R : {A, B, C, D})
    T.markResident(R);
  RangeSet SA, SB, SC, SD;
  SA.add(A), SB.add(B), SC.add(C), SD.add(D);
  T.recordUse(1, SB); // B oldest
  T.recordUse(2, SA);
  T.recordUse(3, SC); // C in flight
  T.addInFlight({3, SC});
  T.recordUse(4, SD); // D is what the next launch keeps
  auto V = T.chooseVictims(4 * MiB, SD);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].R, B);
  EXPECT_TRUE(V[0].WaitFor.empty());
  // More than the idle ranges: the in-flight one comes last, with its waits.
  V = T.chooseVictims(12 * MiB, SD);
  ASSERT_EQ(V.size(), 3u);
  EXPECT_EQ(V[0].R, B);
  EXPECT_EQ(V[1].R, A);
  EXPECT_EQ(V[2].R, C);
  EXPECT_EQ(V[2].WaitFor, std::vector<uint64_t>{3});
  // Retired: C is idle again and, used last, goes after A and B.
  T.retire(3);
  V = T.chooseVictims(12 * MiB, SD);
  ASSERT_EQ(V.size(), 3u);
  EXPECT_TRUE(V[2].WaitFor.empty());
}

TEST(ResidencyTracker, VictimsNeverPinnedOrKeptAndRoundedToGranules) {
  ResidencyTracker T;
  T.addAllocation(0, 64 * MiB);
  T.markResident({0, 8 * MiB});
  T.pin({0, 2 * MiB});
  RangeSet Keep;
  Keep.add(6 * MiB, 8 * MiB);
  auto V = T.chooseVictims(100, Keep); // a few bytes: one granule
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].R, (Range{2 * MiB, 2 * MiB + G}));
  V = T.chooseVictims(64 * MiB, Keep); // everything evictable, no more
  uint64_t Total = 0;
  for (auto &X : V) {
    Total += X.R.size();
    EXPECT_GE(X.R.Lo, 2 * MiB);
    EXPECT_LE(X.R.Hi, 6 * MiB);
  }
  EXPECT_EQ(Total, 4 * MiB);
}

TEST(ResidencyTracker, CyclicSweepsEvictWhatRecursLast) {
  // Four panels swept in order, again and again, with room for three: LRU
  // would evict exactly the panel needed next. Predicted from the history
  // (each panel recurs every four launches), the victim is the panel used
  // most recently, whose next use is farthest away.
  ResidencyTracker T;
  T.addAllocation(0, 64 * MiB);
  RangeSet P[4];
  for (int I = 0; I < 4; ++I) {
    P[I].add(I * 4 * MiB, (I + 1) * 4 * MiB);
    T.markResident({I * 4 * MiB, (I + 1) * 4 * MiB});
  }
  uint64_t Seq = 0;
  for (int Round = 0; Round < 2; ++Round)
    for (int I = 0; I < 4; ++I)
      T.recordUse(++Seq, P[I]);
  // Next is panel 0 (seq 9); panels 1..3 were used at 6, 7, 8 and recur at
  // 10, 11, 12: panel 3 goes first, then 2, then 1.
  auto V = T.chooseVictims(8 * MiB, P[0]);
  ASSERT_EQ(V.size(), 2u);
  EXPECT_EQ(V[0].R, (Range{12 * MiB, 16 * MiB}));
  EXPECT_EQ(V[1].R, (Range{8 * MiB, 12 * MiB}));
  // Data used once (a stream) goes before data that recurs.
  RangeSet Once;
  Once.add(32 * MiB, 36 * MiB);
  T.markResident({32 * MiB, 36 * MiB});
  T.recordUse(++Seq, Once);
  V = T.chooseVictims(4 * MiB, P[0]);
  ASSERT_EQ(V.size(), 1u);
  EXPECT_EQ(V[0].R, (Range{32 * MiB, 36 * MiB}));
}

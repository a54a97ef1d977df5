// Allocation interval map: lookups, caching levels, invalidation.
#include "AllocMap.h"
#include "FakeDriver.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

using namespace gmem;
using namespace gmem::rt;
using namespace gmem::rt::test;

TEST(AllocMap, LookupInsideAndOutside) {
  FakeDriver D;
  D.Allocs[0x1000] = 0x100;
  D.Allocs[0x2000] = 0x1000;
  AllocMap M(D);
  Allocation A;
  ASSERT_TRUE(M.lookup(0x1000, A));
  EXPECT_EQ(A.Base, 0x1000u);
  EXPECT_EQ(A.Size, 0x100u);
  ASSERT_TRUE(M.lookup(0x10ff, A)); // last byte
  EXPECT_EQ(A.Base, 0x1000u);
  EXPECT_FALSE(M.lookup(0x1100, A)); // one past the end
  ASSERT_TRUE(M.lookup(0x2abc, A));
  EXPECT_EQ(A.Base, 0x2000u);
  EXPECT_EQ(A.Size, 0x1000u);
  EXPECT_FALSE(M.lookup(0, A)); // null never asks the driver
  EXPECT_FALSE(M.lookup(0x500, A));
}

TEST(AllocMap, CachesPerThreadAndProcessWide) {
  FakeDriver D;
  D.Allocs[0x10000] = 0x10000;
  AllocMap M(D);
  Allocation A;
  ASSERT_TRUE(M.lookup(0x10000, A));
  EXPECT_EQ(D.AddrRangeCalls, 1);
  for (int I = 0; I < 100; ++I)
    ASSERT_TRUE(M.lookup(0x10000, A)); // per-thread cache
  EXPECT_EQ(D.AddrRangeCalls, 1);
  EXPECT_EQ(M.Lookups.load(), 1u);
  ASSERT_TRUE(M.lookup(0x10040, A)); // another pointer into the same allocation: level 2
  EXPECT_EQ(D.AddrRangeCalls, 1);
  EXPECT_EQ(M.Level2Hits.load(), 1u);
  std::thread T([&] {
    Allocation B;
    EXPECT_TRUE(M.lookup(0x10000, B)); // other thread: its level 1 is cold, level 2 is not
  });
  T.join();
  EXPECT_EQ(D.AddrRangeCalls, 1);
  // Misses are cached too (per thread, per generation).
  EXPECT_FALSE(M.lookup(0x999999, A));
  EXPECT_FALSE(M.lookup(0x999999, A));
  EXPECT_EQ(D.AddrRangeCalls, 2);
  EXPECT_EQ(M.size(), 1u);
}

TEST(AllocMap, FreeInvalidates) {
  FakeDriver D;
  D.Allocs[0x10000] = 0x1000;
  AllocMap M(D);
  Allocation A;
  ASSERT_TRUE(M.lookup(0x10010, A));
  EXPECT_EQ(A.Size, 0x1000u);
  // The program frees it and gets a bigger allocation at the same base.
  D.Allocs[0x10000] = 0x8000;
  M.invalidateAddress(0x10000);
  EXPECT_EQ(M.size(), 0u);
  ASSERT_TRUE(M.lookup(0x10010, A));
  EXPECT_EQ(A.Size, 0x8000u);
  EXPECT_EQ(D.AddrRangeCalls, 2);
  EXPECT_EQ(M.Invalidations.load(), 1u);
}

TEST(AllocMap, AllocationInvalidatesOverlaps) {
  FakeDriver D;
  D.Allocs[0x10000] = 0x1000;
  D.Allocs[0x20000] = 0x1000;
  AllocMap M(D);
  Allocation A;
  ASSERT_TRUE(M.lookup(0x10000, A));
  ASSERT_TRUE(M.lookup(0x20000, A));
  EXPECT_EQ(M.size(), 2u);
  // A free went unseen; a new allocation covers the first one's bytes.
  D.Allocs.erase(0x10000);
  D.Allocs[0x0f000] = 0x4000;
  M.invalidateRange(0x0f000, 0x13000);
  EXPECT_EQ(M.size(), 1u); // only the overlapped entry dropped
  ASSERT_TRUE(M.lookup(0x10000, A));
  EXPECT_EQ(A.Base, 0x0f000u);
  ASSERT_TRUE(M.lookup(0x20000, A));
  EXPECT_EQ(A.Base, 0x20000u);
  int Calls = D.AddrRangeCalls;
  M.invalidateAll();
  EXPECT_EQ(M.size(), 0u);
  ASSERT_TRUE(M.lookup(0x20000, A));
  EXPECT_EQ(D.AddrRangeCalls, Calls + 1);
}

TEST(AllocMap, ManagedAndHostRangesResolveTheSameWay) {
  FakeDriver D;
  D.Allocs[0x7f0000001000ull] = 1 << 20; // e.g. cuMemAllocManaged
  AllocMap M(D);
  Allocation A;
  ASSERT_TRUE(M.lookup(0x7f0000001000ull + 12345, A));
  EXPECT_EQ(A.Base, 0x7f0000001000ull);
}

TEST(AllocMap, ConcurrentLookupsAndInvalidations) {
  FakeDriver D;
  for (uint64_t I = 1; I <= 64; ++I)
    D.Allocs[I << 20] = 1 << 16;
  AllocMap M(D);
  std::atomic<bool> Stop{false};
  std::atomic<int> Wrong{0};
  std::vector<std::thread> Ts;
  for (int T = 0; T < 4; ++T)
    Ts.emplace_back([&, T] {
      Allocation A;
      for (int I = 0; I < 20000; ++I) {
        uint64_t B = uint64_t(1 + (I * 7 + T) % 64) << 20;
        if (!M.lookup(B + 8 * uint64_t(I % 100), A) || A.Base != B || A.Size != (1u << 16))
          ++Wrong;
      }
    });
  std::thread Inv([&] {
    while (!Stop.load()) {
      M.invalidateAddress(uint64_t(1 + rand() % 64) << 20);
      std::this_thread::yield();
    }
  });
  for (auto &T : Ts)
    T.join();
  Stop = true;
  Inv.join();
  EXPECT_EQ(Wrong.load(), 0);
}

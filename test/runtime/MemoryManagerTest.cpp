// The memory side of libgmemrt against a recording fake driver: which
// prefetches, evictions, advice and waits each launch produces.
#include "FakeMemoryDriver.h"
#include "MemoryManager.h"

#include <gtest/gtest.h>

#include <set>

using namespace gmem::rt;
using gmem::rt::test::FakeMemoryDriver;

namespace {
constexpr uint64_t MiB = 1ull << 20;
const CUstream UserStream = reinterpret_cast<CUstream>(uintptr_t(0x5000));

gmemArgAccess arg(uint64_t Base, uint64_t Size, uint64_t RLo, uint64_t RHi, uint64_t WLo = 0,
                  uint64_t WHi = 0) {
  gmemArgAccess A = {};
  A.flags = GMEM_ARG_HAS_ALLOC;
  A.pointer = Base;
  A.alloc_base = Base;
  A.alloc_size = Size;
  if (RHi > RLo) {
    A.flags |= GMEM_ARG_READS | GMEM_ARG_READ_EXACT;
    A.read_lo = RLo, A.read_hi = RHi;
  }
  if (WHi > WLo) {
    A.flags |= GMEM_ARG_WRITES | GMEM_ARG_WRITE_EXACT;
    A.write_lo = WLo, A.write_hi = WHi;
  }
  return A;
}

struct MemorySide : ::testing::Test {
  FakeMemoryDriver D;
  MemoryOptions O;
  uint64_t Seq = 0;
  void launch(MemoryManager &M, std::vector<gmemArgAccess> Args) {
    M.onManagedAlloc(); // as cuMemAllocManaged's hook does
    ++Seq;
    M.beforeLaunch(Seq, Args.data(), int(Args.size()), UserStream);
    M.afterLaunch(Seq, UserStream, CUDA_SUCCESS);
  }
  uint64_t bytes(const std::string &Kind, CUdevice Dev) {
    uint64_t N = 0;
    for (auto &Op : D.ops(Kind))
      if (Op.Device == Dev)
        N += Op.Bytes;
    return N;
  }
};
} // namespace

TEST_F(MemorySide, PrefetchesExactRangesOnceAndTheLaunchWaits) {
  uint64_t A = D.addManaged(0x100000000, 64 * MiB), B = D.addManaged(0x200000000, 64 * MiB);
  MemoryManager M(D, O);
  launch(M, {arg(A, 64 * MiB, A, A + 10 * MiB), arg(B, 64 * MiB, 0, 0, B + MiB, B + 3 * MiB)});
  auto P = D.ops("prefetch");
  ASSERT_EQ(P.size(), 2u);
  EXPECT_EQ(P[0].Lo, A);
  EXPECT_EQ(P[0].Bytes, 10 * MiB);
  EXPECT_EQ(P[1].Lo, B + MiB);
  EXPECT_EQ(P[1].Bytes, 2 * MiB);
  EXPECT_NE(P[0].Stream, uintptr_t(UserStream)); // the copy stream
  auto W = D.ops("wait");
  ASSERT_EQ(W.size(), 1u);
  EXPECT_EQ(W[0].Stream, uintptr_t(UserStream));
  // The same launch again: nothing moves, nothing waits.
  D.Ops.clear();
  launch(M, {arg(A, 64 * MiB, A, A + 10 * MiB)});
  EXPECT_TRUE(D.Ops.empty());
  gmemMemoryStats S;
  M.stats(&S);
  EXPECT_EQ(S.prefetched_bytes, 12 * MiB);
  EXPECT_EQ(S.skipped_resident_bytes, 10 * MiB);
  EXPECT_EQ(S.launches_prefetched, 1u);
}

TEST_F(MemorySide, MergesArgumentsThatShareBytes) {
  uint64_t A = D.addManaged(0x100000000, 64 * MiB);
  MemoryManager M(D, O);
  // in-place: read [0, 8M), write [4M, 12M) of the same allocation
  launch(M, {arg(A, 64 * MiB, A, A + 8 * MiB, A + 4 * MiB, A + 12 * MiB)});
  auto P = D.ops("prefetch");
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Bytes, 12 * MiB);
}

TEST_F(MemorySide, AdjacentAllocationsArePrefetchedSeparately) {
  // Two allocations back to back: their ranges merge, but the driver only
  // prefetches within one allocation (seen on the H200: CUDA 13 refuses the
  // merged range and nothing moved).
  uint64_t A = D.addManaged(0x100000000, 64 * MiB), B = D.addManaged(0x100000000 + 64 * MiB, 64 * MiB);
  MemoryManager M(D, O);
  launch(M, {arg(A, 64 * MiB, A, A + 64 * MiB), arg(B, 64 * MiB, 0, 0, B, B + 64 * MiB)});
  auto P = D.ops("prefetch");
  ASSERT_EQ(P.size(), 2u);
  EXPECT_EQ(P[0].Lo, A);
  EXPECT_EQ(P[1].Lo, B);
  EXPECT_EQ(bytes("prefetch", 0), 128 * MiB);
}

TEST_F(MemorySide, HostSyncMakesItPrefetchAgain) {
  uint64_t A = D.addManaged(0x100000000, 64 * MiB);
  MemoryManager M(D, O);
  launch(M, {arg(A, 64 * MiB, A, A + 4 * MiB)});
  M.onHostSync();
  D.Ops.clear();
  launch(M, {arg(A, 64 * MiB, A, A + 4 * MiB)});
  EXPECT_EQ(D.ops("prefetch").size(), 1u);
}

TEST_F(MemorySide, LeavesDeviceMemoryAndUnboundedRegionsAlone) {
  uint64_t A = D.addManaged(0x100000000, 64 * MiB);
  MemoryManager M(D, O);
  gmemArgAccess Dev = arg(0x900000000, 64 * MiB, 0x900000000, 0x900100000); // not managed
  gmemArgAccess Unb = arg(A, 64 * MiB, 0, 0);
  Unb.flags |= GMEM_ARG_READS; // read, but not exact: widened at this launch
  launch(M, {Dev, Unb});
  EXPECT_TRUE(D.ops("prefetch").empty());
  gmemMemoryStats S;
  M.stats(&S);
  EXPECT_EQ(S.unbounded_fallbacks, 1u);
  // With GMEM_PREFETCH_UNBOUNDED=whole the whole allocation moves.
  O.UnboundedWhole = true;
  MemoryManager W(D, O);
  launch(W, {Unb});
  auto P = D.ops("prefetch");
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Bytes, 64 * MiB);
}

TEST_F(MemorySide, HintsSteerPrefetching) {
  uint64_t A = D.addManaged(0x100000000, 64 * MiB), B = D.addManaged(0x200000000, 64 * MiB);
  MemoryManager M(D, O);
  EXPECT_EQ(M.advise(A, 64 * MiB, GMEM_HINT_RANDOM), GMEM_SUCCESS);
  launch(M, {arg(A, 64 * MiB, A, A + 8 * MiB)});
  EXPECT_TRUE(D.ops("prefetch").empty());
  // PREFETCH moves now, and unbounded accesses to it prefetch it whole.
  EXPECT_EQ(M.advise(B, 16 * MiB, GMEM_HINT_PREFETCH), GMEM_SUCCESS);
  EXPECT_EQ(bytes("prefetch", 0), 16 * MiB);
  EXPECT_EQ(M.advise(0x900000000, 10, GMEM_HINT_PIN), GMEM_ERROR_INVALID_VALUE); // not managed
  EXPECT_EQ(M.advise(A, 10, 99), GMEM_ERROR_INVALID_VALUE);
  EXPECT_EQ(M.advise(0, 10, GMEM_HINT_PIN), GMEM_ERROR_INVALID_VALUE);
  // DROP discards whole granules; without discard support it writes back.
  D.Ops.clear();
  EXPECT_EQ(M.advise(B, 16 * MiB, GMEM_HINT_DROP), GMEM_SUCCESS);
  EXPECT_EQ(D.ops("discard").size(), 1u);
  D.DiscardSupported = false;
  EXPECT_EQ(M.advise(B, 16 * MiB, GMEM_HINT_DROP), GMEM_SUCCESS);
  EXPECT_EQ(bytes("prefetch", CU_DEVICE_CPU), 16 * MiB);
}

TEST_F(MemorySide, NothingMovesWhileAStreamIsCaptured) {
  uint64_t A = D.addManaged(0x100000000, 64 * MiB);
  MemoryManager M(D, O);
  D.Capturing = true;
  launch(M, {arg(A, 64 * MiB, A, A + 4 * MiB)});
  EXPECT_TRUE(D.Ops.empty());
  gmemMemoryStats S;
  M.stats(&S);
  EXPECT_EQ(S.capture_skips, 1u);
}

TEST_F(MemorySide, BudgetEvictsWhatNoQueuedLaunchTouchesFirst) {
  uint64_t A = D.addManaged(0x100000000, 4 * MiB), B = D.addManaged(0x200000000, 4 * MiB),
           C = D.addManaged(0x300000000, 4 * MiB);
  O.Budget = 8 * MiB;
  MemoryManager M(D, O);
  launch(M, {arg(A, 4 * MiB, A, A + 4 * MiB)}); // A: in flight
  launch(M, {arg(B, 4 * MiB, B, B + 4 * MiB)}); // B: in flight
  // B's kernel completed, A's has not: B goes although A is older.
  auto Recs = D.ops("record");
  ASSERT_GE(Recs.size(), 2u);
  uintptr_t EventA = 0, EventB = 0;
  for (auto &R : Recs)
    if (R.Stream == uintptr_t(UserStream))
      (EventA ? EventB : EventA) = R.Event;
  D.EventDone[EventB] = true;
  D.Ops.clear();
  launch(M, {arg(C, 4 * MiB, C, C + 4 * MiB)});
  auto Ev = D.ops("prefetch");
  ASSERT_EQ(Ev.size(), 2u);
  EXPECT_EQ(Ev[0].Device, CU_DEVICE_CPU);
  EXPECT_EQ(Ev[0].Lo, B);
  EXPECT_EQ(Ev[1].Lo, C); // then C comes in
  gmemMemoryStats S;
  M.stats(&S);
  EXPECT_LE(S.peak_resident_bytes, 8 * MiB);
  EXPECT_EQ(S.resident_bytes, 8 * MiB);
  // Now everything resident is in flight: the eviction waits for its kernel.
  D.Ops.clear();
  uint64_t E = D.addManaged(0x400000000, 4 * MiB);
  launch(M, {arg(E, 4 * MiB, E, E + 4 * MiB)});
  ASSERT_FALSE(D.Ops.empty());
  EXPECT_EQ(D.Ops[0].Kind, "wait"); // copy stream waits for A's kernel
  EXPECT_EQ(D.Ops[0].Event, EventA);
  EXPECT_EQ(D.Ops[1].Kind, "prefetch");
  EXPECT_EQ(D.Ops[1].Lo, A);
  EXPECT_EQ(D.Ops[1].Device, CU_DEVICE_CPU);
  M.stats(&S);
  EXPECT_LE(S.peak_resident_bytes, 8 * MiB);
}

TEST_F(MemorySide, BudgetWithoutPrefetchStillEvicts) {
  uint64_t A = D.addManaged(0x100000000, 4 * MiB), B = D.addManaged(0x200000000, 4 * MiB);
  O.Budget = 4 * MiB;
  O.Prefetch = false;
  MemoryManager M(D, O);
  launch(M, {arg(A, 4 * MiB, A, A + 4 * MiB)});
  D.completeAllEvents();
  launch(M, {arg(B, 4 * MiB, B, B + 4 * MiB)});
  EXPECT_EQ(bytes("prefetch", 0), 0u);                  // demand paging brings data in
  EXPECT_EQ(bytes("prefetch", CU_DEVICE_CPU), 4 * MiB); // but A is evicted for B
}

TEST_F(MemorySide, ALaunchLargerThanTheBudgetMapsReadOnlyDataRemotely) {
  uint64_t In = D.addManaged(0x100000000, 8 * MiB), Out = D.addManaged(0x200000000, 4 * MiB);
  O.Budget = 8 * MiB;
  MemoryManager M(D, O);
  launch(M, {arg(In, 8 * MiB, In, In + 8 * MiB), arg(Out, 4 * MiB, 0, 0, Out, Out + 4 * MiB)});
  // 12 MiB needed, 8 allowed: 4 MiB of the read-only input is mapped
  // remotely (host-preferred, accessed by the device), the output moves.
  bool PreferredHost = false, AccessedBy = false;
  for (auto &Op : D.ops("advise")) {
    EXPECT_GE(Op.Lo, In);
    EXPECT_LE(Op.Lo + Op.Bytes, In + 8 * MiB);
    PreferredHost |= Op.Advice == CU_MEM_ADVISE_SET_PREFERRED_LOCATION && Op.Device == CU_DEVICE_CPU;
    AccessedBy |= Op.Advice == CU_MEM_ADVISE_SET_ACCESSED_BY && Op.Device == 0;
  }
  EXPECT_TRUE(PreferredHost && AccessedBy);
  gmemMemoryStats S;
  M.stats(&S);
  EXPECT_EQ(S.remote_bytes, 4 * MiB);
  EXPECT_LE(S.peak_resident_bytes, 8 * MiB);
  EXPECT_EQ(bytes("prefetch", 0), 8 * MiB);
}

TEST_F(MemorySide, FreedAllocationsAreForgotten) {
  uint64_t A = D.addManaged(0x100000000, 8 * MiB);
  MemoryManager M(D, O);
  launch(M, {arg(A, 8 * MiB, A, A + 8 * MiB)});
  M.onFree(A);
  gmemMemoryStats S;
  M.stats(&S);
  EXPECT_EQ(S.resident_bytes, 0u);
  D.Ops.clear();
  launch(M, {arg(A, 8 * MiB, A, A + 8 * MiB)}); // a new allocation at the same place
  EXPECT_EQ(D.ops("prefetch").size(), 1u);
}

TEST_F(MemorySide, PoolBlocksAreAlignedSeparateAndReused) {
  MemoryManager M(D, O);
  std::vector<std::tuple<uint64_t, uint64_t, bool>> Seen;
  M.setPoolObserver([&](uint64_t B, uint64_t S, bool L) { Seen.emplace_back(B, S, L); });
  uint64_t P1 = 0, P2 = 0, P3 = 0;
  ASSERT_EQ(M.mallocManaged(&P1, 100), GMEM_SUCCESS);
  ASSERT_EQ(M.mallocManaged(&P2, 3 * MiB), GMEM_SUCCESS);
  EXPECT_EQ(P1 % (2 * MiB), 0u);
  EXPECT_EQ(P2 % (2 * MiB), 0u);
  EXPECT_GE(P2 >= P1 ? P2 - P1 : P1 - P2, 2 * MiB); // never the same migration block
  EXPECT_EQ(D.AllocCalls, 1);                        // one slab
  ASSERT_EQ(M.freeManaged(P1), GMEM_SUCCESS);
  ASSERT_EQ(M.mallocManaged(&P3, 2 * MiB), GMEM_SUCCESS);
  EXPECT_EQ(P3, P1); // reused, no driver call
  EXPECT_EQ(D.AllocCalls, 1);
  EXPECT_EQ(M.freeManaged(P1 + 8), GMEM_ERROR_INVALID_VALUE);
  EXPECT_EQ(M.freeManaged(0), GMEM_SUCCESS);
  ASSERT_EQ(Seen.size(), 4u);
  EXPECT_EQ(Seen[0], std::make_tuple(P1, 2 * MiB, true));
  EXPECT_EQ(Seen[2], std::make_tuple(P1, 2 * MiB, false));
  gmemMemoryStats S;
  M.stats(&S);
  EXPECT_EQ(S.pool_used_bytes, 6 * MiB);
  EXPECT_GE(S.pool_bytes, 32 * MiB);
}

TEST_F(MemorySide, NothingHappensBeforeAnyManagedAllocation) {
  uint64_t A = D.addManaged(0x100000000, 64 * MiB);
  MemoryManager M(D, O);
  gmemArgAccess X = arg(A, 64 * MiB, A, A + MiB);
  M.beforeLaunch(1, &X, 1, UserStream); // no managed allocation seen yet
  M.afterLaunch(1, UserStream, CUDA_SUCCESS);
  EXPECT_TRUE(D.Ops.empty());
  launch(M, {X});
  EXPECT_EQ(D.ops("prefetch").size(), 1u);
}

TEST(MemoryOptions, ParsesSizes) {
  uint64_t B = 0;
  EXPECT_TRUE(MemoryOptions::parseBytes("12G", B));
  EXPECT_EQ(B, 12ull << 30);
  EXPECT_TRUE(MemoryOptions::parseBytes("512MiB", B));
  EXPECT_EQ(B, 512ull << 20);
  EXPECT_TRUE(MemoryOptions::parseBytes("1.5g", B));
  EXPECT_EQ(B, 3ull << 29);
  EXPECT_TRUE(MemoryOptions::parseBytes("4096", B));
  EXPECT_EQ(B, 4096u);
  EXPECT_FALSE(MemoryOptions::parseBytes("lots", B));
  EXPECT_FALSE(MemoryOptions::parseBytes("12X", B));
  EXPECT_FALSE(MemoryOptions::parseBytes("-1G", B));
  EXPECT_FALSE(MemoryOptions::parseBytes("", B));
}

TEST_F(MemorySide, LargePrefetchesSpreadOverLanesAfterTheCopyStream) {
  uint64_t A = D.addManaged(0x100000000, 512 * MiB);
  O.PrefetchStreams = 4;
  MemoryManager M(D, O);
  launch(M, {arg(A, 512 * MiB, A, A + 512 * MiB)});
  auto P = D.ops("prefetch");
  ASSERT_EQ(P.size(), 4u); // four lanes of 128 MiB
  uint64_t Next = A;
  std::set<uintptr_t> Streams;
  for (auto &Op : P) {
    EXPECT_EQ(Op.Lo, Next);
    EXPECT_EQ(Op.Bytes, 128 * MiB);
    Next += Op.Bytes;
    Streams.insert(Op.Stream);
  }
  EXPECT_EQ(Streams.size(), 4u);
  // Each extra lane waits for the copy stream first; the launch waits for all four.
  int LaunchWaits = 0, LaneWaits = 0;
  for (auto &Op : D.ops("wait"))
    (Op.Stream == uintptr_t(UserStream) ? LaunchWaits : LaneWaits)++;
  EXPECT_EQ(LaunchWaits, 4);
  EXPECT_GE(LaneWaits, 3);
  // Small moves stay on one stream.
  D.Ops.clear();
  uint64_t B = D.addManaged(0x200000000, 64 * MiB);
  launch(M, {arg(B, 64 * MiB, B, B + 64 * MiB)});
  EXPECT_EQ(D.ops("prefetch").size(), 1u);
}

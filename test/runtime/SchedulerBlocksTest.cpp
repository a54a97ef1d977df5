// Control blocks against the simulated GPU (FakeSchedDriver.h): one per
// launch, so that concurrent launches of one kernel stop independently;
// reused, zeroed off the program's stream after the next clone is on it;
// at most two given back per launch; a full pool reuses a block whose
// zeroing is still queued, behind a wait.
#include "SchedulerTestFixture.h"

#include <algorithm>
#include <set>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

TEST_F(SchedTest, ConcurrentLaunchesOfOneKernelEachHaveTheirOwnControlBlock) {
  std::vector<CUstream> Ss;
  for (int I = 0; I < 4; ++I) {
    Ss.push_back(D.userStream());
    ASSERT_EQ(train(Ss.back()), CUDA_SUCCESS);
  }
  D.run(5);
  std::set<uint64_t> Ctls;
  for (auto &J : D.Jobs)
    Ctls.insert(J.Ctl);
  EXPECT_EQ(Ctls.size(), 4u);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  EXPECT_EQ(stats().preemptions, 4u); // one victim per stream
  finish();
  expectExactlyOnce();
  EXPECT_EQ(D.Jobs.size(), 5u);
}

TEST_F(SchedTest, ControlBlocksAreReusedAndZeroedOffTheProgramsStream) {
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  finish();
  const uint64_t First = D.Jobs.at(0).Ctl;
  const unsigned Allocs = D.Allocs;
  EXPECT_EQ(D.count("memset BE"), 1u); // a new block: zeroed in the launch's stream
  // The first block is released at the next launch, its zeroing queued on
  // the side stream: that launch takes a new block instead of waiting.
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  finish();
  const uint64_t Second = D.Jobs.at(1).Ctl;
  EXPECT_NE(Second, First);
  EXPECT_EQ(D.Allocs, Allocs + 1);
  // From then on the two take turns, zeroed off the program's stream: no
  // memset, no wait in it, no allocation.
  for (int I = 0; I < 4; ++I) {
    ASSERT_EQ(train(BE), CUDA_SUCCESS);
    finish();
    EXPECT_EQ(D.Jobs.at(2 + I).Ctl, I % 2 ? Second : First) << I;
  }
  EXPECT_EQ(D.Allocs, Allocs + 1);
  EXPECT_EQ(D.count("memset BE"), 2u);
  EXPECT_EQ(D.count("waitEvent BE"), 0u);
  expectExactlyOnce(); // the side memsets cleared the done bits of earlier launches
  // A bigger grid needs a bigger block.
  ASSERT_EQ(train(BE, 1000), CUDA_SUCCESS);
  finish();
  EXPECT_NE(D.Jobs.back().Ctl, First);
  EXPECT_NE(D.Jobs.back().Ctl, Second);
  expectExactlyOnce();
}

TEST_F(SchedTest, AFinishedLaunchsBlockIsZeroedOnlyAfterTheNextCloneIsLaunched) {
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  finish();
  D.Calls.clear();
  // The next launch finds the first finished: its block's side memset and
  // event come after this launch's clone, not on the way to it.
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  size_t Launch = D.Calls.size(), Side = D.Calls.size();
  for (size_t I = D.Calls.size(); I-- > 0;) {
    const std::string &C = D.Calls[I];
    if (C.rfind("launch BE", 0) == 0)
      Launch = I;
    else if (C.rfind("memset ", 0) == 0 && C.find(" BE ") == std::string::npos)
      Side = I;
  }
  ASSERT_LT(Launch, D.Calls.size());
  ASSERT_LT(Side, D.Calls.size()) << "the first block was not zeroed off the program's stream";
  EXPECT_GT(Side, Launch);
  finish();
  expectExactlyOnce();
}

TEST_F(SchedTest, ALaunchAfterABurstReleasesAtMostTwoFinishedBlocks) {
  // Eight clones queued, then all finished: the next launch finds eight
  // blocks to give back, but zeroes only two on the side stream (each a
  // memset and an event on the host's path); the next launches take the
  // rest, and nothing is lost or run twice.
  for (int I = 0; I < 8; ++I)
    ASSERT_EQ(train(BE), CUDA_SUCCESS);
  finish();
  auto SideMemsets = [&] {
    unsigned N = 0;
    for (const std::string &C : D.Calls)
      N += C.rfind("memset ", 0) == 0 && C.find(" BE ") == std::string::npos;
    return N;
  };
  std::vector<unsigned> PerLaunch;
  for (int I = 0; I < 5; ++I) {
    D.Calls.clear();
    ASSERT_EQ(train(BE), CUDA_SUCCESS);
    PerLaunch.push_back(SideMemsets());
    finish();
  }
  // 8, then one more per launch: 2, 2, 2, 2 (the eight), then 2 again
  // (the later launches' own blocks).
  EXPECT_EQ(PerLaunch, (std::vector<unsigned>{2, 2, 2, 2, 2}));
  expectExactlyOnce();
}

TEST_F(SchedTest, AFullPoolReusesABlockWhoseZeroingIsStillQueuedAfterIt) {
  O.MaxSlots = 1;
  make();
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  finish();
  // The one block's side memset is queued, not run: with the zeroing told
  // by a host counter the host waits for the side stream before reusing
  // it (else that memset could land on the clone's words); the launch's
  // stream neither waits nor zeroes.
  const size_t Memsets = D.count("memset ");
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  EXPECT_EQ(D.count("memset ") - Memsets, 1u); // the side memset of the first launch's block
  finish();
  EXPECT_EQ(D.Jobs.at(1).Ctl, D.Jobs.at(0).Ctl);
  EXPECT_EQ(D.count("waitEvent BE"), 0u);
  EXPECT_EQ(D.count("memset BE"), 1u);
  expectExactlyOnce();
}

TEST_F(SchedTest, WithoutHostCountersAFullPoolsReuseWaitsForTheZeroingEvent) {
  D.RefuseHostAlloc = true; // no host counters: events, as before them
  O.MaxSlots = 1;
  make();
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  finish();
  // The launch's stream waits for the queued side memset's event.
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  EXPECT_EQ(D.Jobs.size(), 1u); // not started yet: behind the wait
  finish();
  EXPECT_EQ(D.Jobs.at(1).Ctl, D.Jobs.at(0).Ctl);
  EXPECT_EQ(D.count("waitEvent BE"), 1u);
  EXPECT_EQ(D.count("memset BE"), 1u);
  EXPECT_EQ(D.count("hostwrite"), 0u);
  expectExactlyOnce();
}

// What a launch learns about earlier ones before its clone costs few
// driver calls (an event query costs ~1.4 us of the H200 VM's host, on the
// way to the kernel of a program that waits for each one): slots finish in
// their stream's order, so recycle() asks the oldest and newest done
// events of a finished burst, not each; and whether a block's zeroing is
// over is the pool's host counter (HostCounters.h), raised on the side
// stream, not an event query.
struct BurstTest : SchedTest {
  /// Eight launches run to their end, then one more: the event queries
  /// that one made (before its clone: nothing else asks during the call).
  unsigned queriesOfALaunchAfterABurst() {
    for (int I = 0; I < 8; ++I)
      EXPECT_EQ(train(BE), CUDA_SUCCESS);
    finish();
    const unsigned Before = D.Queries;
    EXPECT_EQ(train(BE), CUDA_SUCCESS);
    return D.Queries - Before;
  }
  /// The burst's blocks all went back to the pool (two per launch, zeroed
  /// on the side stream): later launches reuse them, every CTA ran once.
  void expectTheBurstsBlocksReused() {
    finish();
    const unsigned Allocs = D.Allocs;
    for (int I = 0; I < 8; ++I) {
      ASSERT_EQ(train(BE), CUDA_SUCCESS);
      finish();
    }
    EXPECT_EQ(D.Allocs, Allocs);
    expectExactlyOnce();
  }
};

TEST_F(BurstTest, ALaunchAfterAFinishedBurstAsksTwoEvents) {
  EXPECT_EQ(queriesOfALaunchAfterABurst(), 2u);
  EXPECT_EQ(D.count("hostwrite BE"), 0u); // the program's stream pays no counter write
  EXPECT_GT(D.count("hostwrite "), 0u);   // (the side stream raises the zeroing counter)
  expectTheBurstsBlocksReused();
}

// The same without the host counter: the oldest and newest done events
// and the zeroing event of the block taken.
TEST_F(BurstTest, RecycleAsksTheOldestAndNewestOfAFinishedBurst) {
  D.RefuseHostAlloc = true;
  make();
  EXPECT_LE(queriesOfALaunchAfterABurst(), 3u);
  EXPECT_EQ(D.count("hostwrite"), 0u);
  expectTheBurstsBlocksReused();
}

// Bisection: with part of a burst finished, the next launch finds the
// finished prefix in a logarithmic number of queries and leaves the rest
// tracked, so that a stop still finds them and every CTA runs once.
TEST_F(SchedTest, RecycleFindsAPartlyFinishedBurstByBisection) {
  D.RefuseHostAlloc = true;
  make();
  for (int I = 0; I < 8; ++I)
    ASSERT_EQ(train(BE), CUDA_SUCCESS);
  auto Complete = [&] {
    return std::count_if(D.Jobs.begin(), D.Jobs.end(), [](const FakeJob &J) { return J.complete(); });
  };
  unsigned Rounds = 0;
  while (D.Jobs.size() < 8 || Complete() < 3) {
    D.run(1);
    ASSERT_LT(++Rounds, 100000u);
  }
  ASSERT_LT(Complete(), 8);
  const unsigned Before = D.Queries;
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  EXPECT_LE(D.Queries - Before, 6u); // first, last, at most 3 bisection steps, the pool's
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  finish();
  expectExactlyOnce();
}

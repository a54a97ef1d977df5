// The scheduler and the clone ABI version 2 against a simulated GPU
// (FakeSchedDriver.h, FakePersistentClone.h): version-1 clones refused,
// grid arguments, and persistent clones: launched on a resident grid of P
// CTAs (occupancy asked once per launch shape), each CTA running its own
// virtual CTAs p, p + P, ... and leaving its redo and resume words when
// stopped; relaunched with the same P, arguments and control block, so
// that every virtual CTA runs exactly once (request 1), or at least once
// (request 2, idempotent launches).
#include "SchedulerTestFixture.h"

#include <array>
#include <vector>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {

/// A persistent clone (job J, control block Ctl, P CTAs) stopped under
/// request 1: nothing to redo, and each CTA finished exactly the virtual
/// CTAs of its own below its resume word (at least its first). Returns the
/// resume words.
std::vector<uint32_t> stoppedBetween(const FakeSchedDriver &D, const FakeSchedDriver::Job &J,
                                     uint64_t Ctl, unsigned P) {
  const size_t Total = J.Completed.size();
  std::vector<uint32_t> Resume(P);
  for (unsigned C = 0; C < P; ++C) {
    EXPECT_EQ(D.word(FakePersistentClone::redoWord(Ctl, C)), 0u) << C;
    Resume[C] = D.word(FakePersistentClone::resumeWord(Ctl, C));
    EXPECT_GT(Resume[C], C + 1) << C;
    if (Resume[C] != Total + 1) { // else it ran out
      EXPECT_EQ((Resume[C] - 1) % P, C) << C;
    }
  }
  for (unsigned V = 0; V < Total; ++V)
    EXPECT_EQ(J.Completed[V], V + 1 < Resume[V % P] ? 1u : 0u) << V;
  return Resume;
}

/// Steps the GPU and the monitor until Done() (at most Max rounds).
template <class F> bool stepUntil(SchedTest &T, F Done, unsigned Max = 2000) {
  for (unsigned I = 0; I < Max && !Done(); ++I) {
    T.D.step();
    T.S->poll();
  }
  return Done();
}

} // namespace

TEST_F(SchedTest, Version1CloneIsRefusedAndTheOriginalRuns) {
  D.addInfo(Mod, Train, 1 | 4, 0x31504d47, /*Version=*/1); // replaces the good one
  CloneInfo C = resolveClone(D, ETrain);
  EXPECT_FALSE(C.Ok);
  EXPECT_NE(C.Why.find("version 1"), std::string::npos) << C.Why;
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 1);
  EXPECT_EQ(D.count("wait BE"), 1u); // gated as any launch that is not preemptible
  EXPECT_TRUE(D.CloneLaunches.empty());
  EXPECT_EQ(stats().preemptible, 0u);
}

TEST_F(SchedTest, CloneWithoutGridParametersIsRefused) {
  D.Kernels[FTrainPre].ParamSizes = {8, 4, 8}; // version-1 layout under a version-2 info
  CloneInfo C = resolveClone(D, ETrain);
  EXPECT_FALSE(C.Ok);
  D.Kernels[FTrainPre].ParamSizes = {8, 4, 8, 4, 4, 8};
  EXPECT_FALSE(resolveClone(D, ETrain).Ok);
  D.Kernels[FTrainPre].ParamSizes = {8, 4, 8, 4, 4, 4};
  C = resolveClone(D, ETrain);
  ASSERT_TRUE(C.Ok) << C.Why;
  EXPECT_EQ(C.kernelParams(), 2u);
  EXPECT_EQ(C.ArgBytes, 36u);
  EXPECT_FALSE(C.persistent());
  EXPECT_TRUE(resolveClone(D, EPers).persistent());
}

TEST_F(SchedTest, OrdinaryCloneRunsOnTheUserGridWithTheGridArguments) {
  LaunchRecord R = record(ETrain, true);
  ASSERT_EQ(launchShape(FTrain, {4, 2, 3}, {64, 2, 1}, 256, BE, &R), CUDA_SUCCESS);
  ASSERT_EQ(D.CloneLaunches.size(), 1u);
  const auto &CL = D.CloneLaunches[0];
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(CL.Grid[I], (std::array<unsigned, 3>{4, 2, 3}[I]));
  EXPECT_EQ(CL.UserGrid[0], 4u);
  EXPECT_EQ(CL.UserGrid[1], 2u);
  EXPECT_EQ(CL.UserGrid[2], 3u);
  EXPECT_EQ(CL.Block[1], 2u);
  EXPECT_EQ(CL.Shmem, 256u);
  EXPECT_TRUE(D.OccupancyQueries.empty()); // occupancy is for persistent clones only
  EXPECT_EQ(D.SmCountQueries, 0u);
  finish();
  expectExactlyOnce();
  EXPECT_EQ(job(pre(Train)).Completed.size(), 24u);
}

TEST_F(SchedTest, PersistentCloneRunsOnAResidentGrid) {
  // 4 SMs x 2 resident CTAs: P = 8 for a grid of 60 virtual CTAs.
  ASSERT_EQ(pers(BE, {10, 3, 2}, true, {32, 4, 1}, 512), CUDA_SUCCESS);
  D.marker(BE, "after");
  EXPECT_EQ(OriginalCalls, 0);
  ASSERT_EQ(D.CloneLaunches.size(), 1u);
  const auto &CL = D.CloneLaunches[0];
  EXPECT_EQ(CL.Grid[0], 8u);
  EXPECT_EQ(CL.Grid[1], 1u);
  EXPECT_EQ(CL.Grid[2], 1u);
  EXPECT_EQ(CL.Block[0], 32u); // the user's block and shared memory
  EXPECT_EQ(CL.Block[1], 4u);
  EXPECT_EQ(CL.Shmem, 512u);
  EXPECT_EQ(CL.UserGrid[0], 10u); // the virtual CTAs
  EXPECT_EQ(CL.UserGrid[1], 3u);
  EXPECT_EQ(CL.UserGrid[2], 2u);
  ASSERT_EQ(D.OccupancyQueries.size(), 1u);
  EXPECT_EQ(D.OccupancyQueries[0].F, FPersPre); // the clone's, per CTA of 128 threads
  EXPECT_EQ(D.OccupancyQueries[0].Threads, 128);
  EXPECT_EQ(D.OccupancyQueries[0].Smem, 512u);
  const uint64_t Ctl = CL.Ctl;
  finish();
  expectExactlyOnce();
  const auto &J = job(pre(Pers));
  ASSERT_EQ(J.Completed.size(), 60u);
  EXPECT_EQ(J.reruns(), 0u);
  for (unsigned V = 0; V < 60; ++V) // statically: CTA p runs p, p + 8, p + 16, ...
    EXPECT_EQ(J.RunBy[V], int(V % 8)) << V;
  EXPECT_GT(D.Markers["after"], J.LastCompleteStep);
  // Each CTA ran out: nothing to redo, resume past the total; no shared word.
  EXPECT_EQ(D.word(Ctl + 4), 0u);
  for (unsigned P = 0; P < 8; ++P) {
    EXPECT_EQ(redo(Ctl, P), 0u) << P;
    EXPECT_EQ(resume(Ctl, P), 61u) << P;
  }
  // Fewer virtual CTAs than resident slots: one CTA each.
  ASSERT_EQ(pers(BE, {3, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(D.CloneLaunches.back().Grid[0], 3u);
  D.SmCount = 1; // SMs are asked once per context
  ASSERT_EQ(pers(BE, {100, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(D.CloneLaunches.back().Grid[0], 8u);
  EXPECT_EQ(D.SmCountQueries, 1u);
  finish();
  expectExactlyOnce();
  EXPECT_EQ(stats().preemptible, 3u);
}

TEST_F(SchedTest, OccupancyIsAskedOncePerLaunchShape) {
  for (int I = 0; I < 3; ++I)
    ASSERT_EQ(pers(BE, {20, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(D.OccupancyQueries.size(), 1u);
  ASSERT_EQ(pers(BE, {20, 1, 1}, true, {256, 1, 1}), CUDA_SUCCESS); // another block size
  ASSERT_EQ(pers(BE, {20, 1, 1}, true, {128, 1, 1}, 1024), CUDA_SUCCESS); // other smem
  EXPECT_EQ(D.OccupancyQueries.size(), 3u);
  D.Kernels[FPersPre].Occupancy = 1; // cached: not seen again
  for (int I = 0; I < 2; ++I) {
    ASSERT_EQ(pers(BE, {20, 1, 1}), CUDA_SUCCESS);
    ASSERT_EQ(pers(BE, {20, 1, 1}, true, {128, 1, 1}, 1024), CUDA_SUCCESS);
  }
  EXPECT_EQ(D.OccupancyQueries.size(), 3u);
  EXPECT_EQ(D.CloneLaunches.back().Grid[0], 8u);
  EXPECT_EQ(D.CloneLaunches.size(), 9u);
  finish();
  expectExactlyOnce();
}

TEST_F(SchedTest, PersistentCloneWithoutAResidentGridRunsTheOriginal) {
  D.Kernels[FPersPre].Occupancy = 0; // e.g. too much shared memory for the clone
  ASSERT_EQ(pers(BE, {16, 1, 1}), CUDA_SUCCESS);
  ASSERT_EQ(pers(BE, {16, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 2);
  EXPECT_EQ(D.OccupancyQueries.size(), 1u); // the failure is remembered too
  D.OccupancyResult = CUDA_ERROR_INVALID_VALUE;
  ASSERT_EQ(pers(BE, {16, 1, 1}, true, {64, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 3);
  D.OccupancyResult = CUDA_SUCCESS;
  D.Kernels[FPersPre].Occupancy = 2;
  // 2^31 virtual CTAs are too many for the clone's 32-bit words; 2^31 - 1 are not.
  ASSERT_EQ(pers(BE, {65536, 32768, 1}, true, {32, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 4);
  EXPECT_EQ(D.count("wait BE"), 4u); // all gated
  EXPECT_TRUE(D.CloneLaunches.empty());
  EXPECT_EQ(stats().preemptible, 0u);
  // Beyond the hardware's y/z limit (2^16 - 1) the clone's coordinate
  // ranges would not hold: the original goes to the driver, which refuses.
  ASSERT_EQ(pers(BE, {2, 65536, 1}, true, {32, 1, 1}), CUDA_SUCCESS);
  ASSERT_EQ(pers(BE, {2, 1, 65536}, true, {32, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 6);
  EXPECT_TRUE(D.CloneLaunches.empty());
  ASSERT_EQ(pers(BE, {0x7fffffffu, 1, 1}, true, {32, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 6);
  ASSERT_EQ(D.CloneLaunches.size(), 1u);
  EXPECT_EQ(D.CloneLaunches[0].Grid[0], 8u);
  EXPECT_EQ(D.CloneLaunches[0].UserGrid[0], 0x7fffffffu);
}

TEST_F(SchedTest, WarpAlignedCloneRunsOnlyForWholeWarpRows) {
  // Flag WarpAlignedBlock (0x800): the clone is persistent only because its
  // early returns are taken by whole warps, which holds where blockDim.x is
  // a multiple of 32. Any other block runs the kernel itself, gated.
  D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag | 0x800);
  ASSERT_EQ(pers(BE, {16, 1, 1}, true, {32, 4, 1}), CUDA_SUCCESS);
  ASSERT_EQ(pers(BE, {16, 1, 1}, true, {256, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 0);
  EXPECT_EQ(D.CloneLaunches.size(), 2u);
  ASSERT_EQ(pers(BE, {16, 1, 1}, true, {48, 2, 1}), CUDA_SUCCESS);
  ASSERT_EQ(pers(BE, {16, 1, 1}, true, {16, 16, 1}), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 2);
  EXPECT_EQ(D.CloneLaunches.size(), 2u);
  EXPECT_EQ(stats().preemptible, 2u);
  ClonePlan Plan;
  CloneInfo C = resolveClone(D, EPers);
  ASSERT_TRUE(C.Ok) << C.Why;
  const unsigned G[3] = {40, 1, 1}, Odd[3] = {33, 1, 1}, Whole[3] = {96, 1, 1};
  EXPECT_FALSE(planClone(D, C, 4, G, Odd, 0, Plan, CloneKind::Full));
  EXPECT_TRUE(planClone(D, C, 4, G, Whole, 0, Plan, CloneKind::Full));
  // Without the flag any block goes.
  D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag);
  C = resolveClone(D, EPers);
  EXPECT_TRUE(planClone(D, C, 4, G, Odd, 0, Plan, CloneKind::Full));
  finish();
  expectExactlyOnce();
}

TEST_F(SchedTest, PersistentCloneWithoutSmCountRunsTheOriginal) {
  D.SmCountResult = CUDA_ERROR_NOT_SUPPORTED;
  ASSERT_EQ(pers(BE, {16, 1, 1}), CUDA_SUCCESS);
  ASSERT_EQ(train(BE), CUDA_SUCCESS); // ordinary clones do not need it
  EXPECT_EQ(OriginalCalls, 1);
  EXPECT_EQ(stats().preemptible, 1u);
  finish();
  expectExactlyOnce();
}

TEST_F(SchedTest, PreemptedPersistentCloneIsRelaunchedWithTheSameGridAndArguments) {
  D.Kernels[FPersPre].Iters = 10;
  ASSERT_EQ(pers(BE, {40, 1, 1}, /*Idempotent=*/true), CUDA_SUCCESS);
  D.marker(BE, "after");
  D.run(30); // every one of the 8 CTAs is inside its first virtual CTA
  const uint64_t Ctl = D.CloneLaunches.at(0).Ctl;
  // The relaunch must not ask again: with a smaller P, the virtual CTAs of
  // the CTAs above it (their redo and resume words) would never run.
  D.Kernels[FPersPre].Occupancy = 1;
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  EXPECT_EQ(D.word(Ctl), 2u);
  EXPECT_FALSE(job(pre(Pers)).complete());
  // Each CTA was cut in a loop of its first virtual CTA (its own number):
  // run that one again, then go on P further.
  EXPECT_EQ(job(pre(Pers)).cuts(), 8u);
  for (unsigned P = 0; P < 8; ++P) {
    EXPECT_EQ(redo(Ctl, P), P + 1) << P;
    EXPECT_EQ(resume(Ctl, P), P + 8 + 1) << P;
  }
  EXPECT_EQ(D.word(Ctl + 4), 0u); // reserved
  EXPECT_EQ(D.Markers.count("after"), 0u);
  finish();
  expectExactlyOnce();
  EXPECT_EQ(job(pre(Pers)).reruns(), 0u); // the cut ones had not finished
  for (unsigned P = 0; P < 8; ++P) {
    EXPECT_EQ(redo(Ctl, P), 0u) << P;
    EXPECT_EQ(resume(Ctl, P), 41u) << P;
  }
  ASSERT_EQ(D.CloneLaunches.size(), 2u);
  const auto &First = D.CloneLaunches[0], &Again = D.CloneLaunches[1];
  EXPECT_EQ(Again.Ctl, Ctl);
  for (int I = 0; I < 3; ++I) {
    EXPECT_EQ(Again.Grid[I], First.Grid[I]);
    EXPECT_EQ(Again.Block[I], First.Block[I]);
  }
  EXPECT_EQ(Again.Grid[0], 8u);
  EXPECT_EQ(Again.Args, First.Args); // the user's grid (40, 1, 1) again
  EXPECT_EQ(Again.UserGrid[0], 40u);
  EXPECT_EQ(D.count("memset BE"), 1u); // the redo and resume words survive the relaunch
  EXPECT_GT(D.Markers["after"], job(pre(Pers)).LastCompleteStep);
  gmemSchedStats St = stats();
  EXPECT_EQ(St.preemptions_loop, 1u);
  EXPECT_EQ(St.relaunches, 1u);
}

TEST_F(SchedTest, NonIdempotentPersistentCloneStopsBetweenVirtualCtas) {
  D.Kernels[FPersPre].Iters = 6;
  ASSERT_EQ(pers(BE, {64, 1, 1}, /*Idempotent=*/false), CUDA_SUCCESS);
  D.run(20);
  const uint64_t Ctl = D.CloneLaunches.at(0).Ctl;
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  EXPECT_EQ(D.word(Ctl), 1u);
  EXPECT_EQ(job(pre(Pers)).cuts(), 0u); // running virtual CTAs finished
  EXPECT_FALSE(job(pre(Pers)).complete());
  // Each CTA finished its virtual CTAs up to its resume word, and no other:
  // nothing to redo under request 1.
  const std::vector<uint32_t> First = stoppedBetween(D, job(pre(Pers)), Ctl, 8);
  ASSERT_TRUE(stepUntil(*this, [&] { return stats().relaunches == 1; }, 40));
  D.run(10);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS); // the relaunch is stopped in turn
  D.settle();
  // It went on from where the first instance stopped.
  const std::vector<uint32_t> Second = stoppedBetween(D, job(pre(Pers)), Ctl, 8);
  unsigned Ahead = 0;
  for (unsigned P = 0; P < 8; ++P) {
    EXPECT_GE(Second[P], First[P]) << P;
    EXPECT_LT(Second[P], 65u) << P;
    Ahead += Second[P] > First[P];
  }
  EXPECT_GT(Ahead, 0u);
  EXPECT_FALSE(job(pre(Pers)).complete());
  finish();
  expectExactlyOnce();
  for (auto &CL : D.CloneLaunches)
    EXPECT_EQ(CL.Grid[0], 8u);
  EXPECT_EQ(D.CloneLaunches.size(), 3u);
  EXPECT_EQ(stats().preemptions, 2u);
  EXPECT_EQ(stats().preemptions_loop, 0u);
}

TEST_F(SchedTest, PersistentClonePreemptedTwiceRunsEveryVirtualCtaOnce) {
  // 40 virtual CTAs of a 3-D grid on P = 8, five each; not idempotent, so
  // both stops are request 1, between virtual CTAs.
  D.Kernels[FPersPre].Iters = 4;
  ASSERT_EQ(pers(BE, {5, 2, 4}, /*Idempotent=*/false), CUDA_SUCCESS);
  D.marker(BE, "after");
  const uint64_t Ctl = D.CloneLaunches.at(0).Ctl;
  auto Done = [&](unsigned N) {
    return [this, N] {
      unsigned C = 0;
      for (auto &J : D.Jobs)
        for (unsigned X : J.Completed)
          C += X;
      return C >= N;
    };
  };
  // Stop, once the first round is done.
  ASSERT_TRUE(stepUntil(*this, Done(8)));
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  EXPECT_EQ(D.word(Ctl), 1u);
  const std::vector<uint32_t> First = stoppedBetween(D, job(pre(Pers)), Ctl, 8);
  // Relaunch, and stop again after the third round.
  ASSERT_TRUE(stepUntil(*this, [&] { return stats().relaunches == 1; }));
  ASSERT_TRUE(stepUntil(*this, Done(24)));
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  EXPECT_EQ(D.word(Ctl), 1u);
  const std::vector<uint32_t> Second = stoppedBetween(D, job(pre(Pers)), Ctl, 8);
  for (unsigned P = 0; P < 8; ++P) {
    EXPECT_GT(Second[P], First[P]) << P; // every CTA went on from its resume word
    EXPECT_LE(Second[P], 40u) << P;      // and has some left
  }
  EXPECT_FALSE(job(pre(Pers)).complete());
  EXPECT_EQ(D.Markers.count("after"), 0u);
  // Relaunch: the rest, each exactly once, by the CTA it belongs to.
  finish();
  expectExactlyOnce();
  const auto &J = job(pre(Pers));
  EXPECT_EQ(J.cuts(), 0u);
  EXPECT_EQ(J.reruns(), 0u);
  for (unsigned V = 0; V < 40; ++V)
    EXPECT_EQ(J.RunBy[V], int(V % 8)) << V;
  for (unsigned P = 0; P < 8; ++P) {
    EXPECT_EQ(redo(Ctl, P), 0u) << P;
    EXPECT_EQ(resume(Ctl, P), 41u) << P;
  }
  EXPECT_GT(D.Markers["after"], J.LastCompleteStep);
  ASSERT_EQ(D.CloneLaunches.size(), 3u);
  for (auto &CL : D.CloneLaunches) {
    EXPECT_EQ(CL.Grid[0], 8u);
    EXPECT_EQ(CL.Ctl, Ctl);
    EXPECT_EQ(CL.Args, D.CloneLaunches[0].Args);
  }
  EXPECT_EQ(D.count("memset BE"), 1u);
  gmemSchedStats St = stats();
  EXPECT_EQ(St.preemptions, 2u);
  EXPECT_EQ(St.preemptions_loop, 0u);
  EXPECT_EQ(St.relaunches, 2u);
}

TEST_F(SchedTest, PersistentCtaThatRanOutRunsNothingOnARelaunch) {
  // 12 virtual CTAs on P = 8: CTAs 0-3 run two, CTAs 4-7 one.
  D.Kernels[FPersPre].Iters = 20;
  ASSERT_EQ(pers(BE, {12, 1, 1}, /*Idempotent=*/true), CUDA_SUCCESS);
  const uint64_t Ctl = D.CloneLaunches.at(0).Ctl;
  ASSERT_TRUE(stepUntil(*this, [&] { return resume(Ctl, 7) != 0; }));
  for (unsigned P = 4; P < 8; ++P) { // ran out: resume past the total
    EXPECT_EQ(redo(Ctl, P), 0u) << P;
    EXPECT_EQ(resume(Ctl, P), 13u) << P;
  }
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  EXPECT_EQ(D.word(Ctl), 2u);
  // CTAs 0-3 were cut in their second virtual CTA; 4-7 changed nothing.
  EXPECT_EQ(job(pre(Pers)).cuts(), 4u);
  for (unsigned P = 0; P < 8; ++P) {
    EXPECT_EQ(redo(Ctl, P), P < 4 ? P + 8 + 1 : 0u) << P;
    EXPECT_EQ(resume(Ctl, P), P < 4 ? P + 16 + 1 : 13u) << P;
  }
  finish();
  expectExactlyOnce();
  const auto &J = job(pre(Pers));
  EXPECT_EQ(J.reruns(), 0u);
  for (unsigned V = 0; V < 12; ++V)
    EXPECT_EQ(J.RunBy[V], int(V % 8)) << V;
  for (unsigned P = 0; P < 8; ++P) { // all ran out now
    EXPECT_EQ(redo(Ctl, P), 0u) << P;
    EXPECT_EQ(resume(Ctl, P), 13u) << P;
  }
  EXPECT_EQ(stats().relaunches, 1u);
}

TEST_F(SchedTest, IdempotentPersistentCloneStoppedAfterAVirtualCtaRunsItOnce) {
  // Request 2 with no loop to cut: each CTA finishes its virtual CTA, then
  // stops; nothing was cut, so nothing is run again (the redo word follows
  // the threads' abort flags, not the request word, which a relaunch may
  // already have reset to 0 when a cut CTA saves).
  D.Kernels[FPersPre].LoopCheckpoints = false;
  D.Kernels[FPersPre].Iters = 6;
  ASSERT_EQ(pers(BE, {32, 1, 1}, /*Idempotent=*/true), CUDA_SUCCESS);
  D.run(20);
  const uint64_t Ctl = D.CloneLaunches.at(0).Ctl;
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  EXPECT_EQ(D.word(Ctl), 2u);
  EXPECT_EQ(job(pre(Pers)).cuts(), 0u);
  for (unsigned P = 0; P < 8; ++P) {
    EXPECT_EQ(redo(Ctl, P), 0u) << P;
    ASSERT_GT(resume(Ctl, P), 0u) << P;
    EXPECT_EQ((resume(Ctl, P) - 1) % 8, P) << P; // its next one of its own
    EXPECT_EQ(job(pre(Pers)).Completed[resume(Ctl, P) - 1 - 8], 1u) << P; // the one it finished
  }
  finish();
  expectExactlyOnce();
  EXPECT_EQ(job(pre(Pers)).reruns(), 0u);
}

TEST_F(SchedTest, FakeGpuFlagsVirtualCtasRunTwiceOrLost) {
  // The checks expectExactlyOnce relies on: a relaunch that resumes a CTA
  // too early runs a virtual CTA twice, one that resumes too late loses one.
  D.Kernels[FPersPre].Iters = 6;
  ASSERT_EQ(pers(BE, {32, 1, 1}, /*Idempotent=*/false), CUDA_SUCCESS);
  D.run(20);
  const uint64_t Ctl = D.CloneLaunches.at(0).Ctl;
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  ASSERT_EQ(resume(Ctl, 0), 9u);
  ASSERT_EQ(resume(Ctl, 1), 10u);
  D.Words[FakePersistentClone::resumeWord(Ctl, 0)] = 1;      // virtual CTA 0 again
  D.Words[FakePersistentClone::resumeWord(Ctl, 1)] = 9 + 9; // past virtual CTA 9
  finish();
  EXPECT_EQ(D.DoubleRuns, 1u);
  EXPECT_EQ(D.LostVirtualCtas, 1u);
  EXPECT_EQ(job(pre(Pers)).maxCompletions(), 2u);
  EXPECT_FALSE(job(pre(Pers)).complete());
}

TEST_F(SchedTest, KernelTheCompilerDidNotCloneSaysSo) {
  // The pass emitted an info global with NoClone and no __gmem_pre_ function
  // (a loop waiting for another CTA, a limit, grid or cluster sync).
  D.addInfo(Mod, Plain, 2 | 8);
  CloneInfo C = resolveClone(D, EPlain);
  EXPECT_FALSE(C.Ok);
  EXPECT_NE(C.Why.find("the compiler gave it no clone"), std::string::npos) << C.Why;
  // A kernel of a module built without gmem: no info global either.
  CloneInfo N = resolveClone(D, EInfer);
  EXPECT_FALSE(N.Ok);
  EXPECT_EQ(N.Why.find("the compiler gave it no clone"), std::string::npos) << N.Why;
}

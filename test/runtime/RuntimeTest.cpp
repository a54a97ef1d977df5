// The launch path with a fake driver: descriptor cache (module and library
// handles, uninstrumented and bad descriptors), argument reading, decisions,
// recording (per thread, ring), logging, and the C API.
#include "FakeDriver.h"
#include "Runtime.h"
#include "TestDescriptors.h"

#include "gmem/gmem.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>

using namespace gmem;
using namespace gmem::rt;
using namespace gmem::rt::test;

namespace {

constexpr uintptr_t Mod = 0x1000, Lib = 0x2000;
constexpr uintptr_t FVecAdd = 0x11, FInc = 0x12, FPlain = 0x13, FBad = 0x14, FPack = 0x15,
                    FWrongCount = 0x16, FAccum = 0x17, KVecAdd = 0x21, FLibVecAdd = 0x31;
constexpr uint64_t BufA = 0x100000000ull, BufB = 0x200000000ull, BufC = 0x300000000ull;

struct Fixture : ::testing::Test {
  FakeDriver D;
  std::unique_ptr<Runtime> RT;
  Options O;

  void SetUp() override {
    D.addFunction(FVecAdd, Mod, "_Z7vec_addPKfS0_Pfi", {8, 8, 8, 4});
    D.addDescriptor(Mod, vecAdd());
    D.addFunction(FInc, Mod, "_Z9incrementPfi", {8, 4});
    D.addDescriptor(Mod, increment());
    D.addFunction(FPlain, Mod, "_Z5plainPf", {8}); // no descriptor
    D.addFunction(FBad, Mod, "_Z3badPf", {8});
    std::vector<uint8_t> Bad = encodeDescriptor(vecAdd("_Z3badPf"));
    Bad[4] = 99; // another ABI version
    D.addGlobal(Mod, "__gmem_desc__Z3badPf", Bad);
    D.addFunction(FAccum, Mod, "_Z5accumPKfPfii", {8, 8, 4, 4});
    D.addDescriptor(Mod, accumFlag());
    D.addFunction(FPack, Mod, "_Z5apply4Pack", {24});
    D.addDescriptor(Mod, packKernel());
    D.addFunction(FWrongCount, Mod, "_Z5wrongPfS_", {8, 8});
    D.addDescriptor(Mod, increment("_Z5wrongPfS_")); // says 2 params, but ptr+i32
    // A library kernel: CUkernel handle, its function in the current context.
    D.addFunction(FLibVecAdd, Lib, "_Z7vec_addPKfS0_Pfi", {8, 8, 8, 4});
    D.Kernels[KVecAdd] = {FLibVecAdd, Lib};
    D.addDescriptor(Lib, vecAdd());
    D.Allocs[BufA] = 4000;
    D.Allocs[BufB] = 4000;
    D.Allocs[BufC] = 4000;
    O.LogMask = 0;
    make();
  }
  void TearDown() override { Runtime::setGlobalForTesting(nullptr); }
  void make() {
    Runtime::setGlobalForTesting(nullptr);
    RT.reset(new Runtime(D, O));
    Runtime::setGlobalForTesting(RT.get());
  }

  /// A launch through the runtime (no real driver underneath).
  gmemLaunchInfo launch(uintptr_t F, std::vector<void *> Params, unsigned Grid = 4,
                        unsigned Block = 256, int Result = 0, bool Unpreempted = false) {
    LaunchRequest L;
    L.Unpreempted = Unpreempted;
    L.Handle = F;
    L.Grid[0] = Grid;
    L.Block[0] = Block;
    L.Params = Params.empty() ? nullptr : Params.data();
    LaunchRecord *R = RT->before(L);
    RT->after(R, Result);
    gmemLaunchInfo I;
    EXPECT_EQ(gmemGetLastLaunchInfo(&I), GMEM_SUCCESS);
    return I;
  }
  gmemLaunchInfo vecAddLaunch(uintptr_t F, uint64_t A, uint64_t B, uint64_t C, int N = 1000) {
    return launch(F, {&A, &B, &C, &N});
  }
};

} // namespace

TEST_F(Fixture, DisjointVecAddIsIdempotent) {
  gmemLaunchInfo I = vecAddLaunch(FVecAdd, BufA, BufB, BufC);
  EXPECT_EQ(I.instrumented, 1);
  EXPECT_EQ(I.kernel_class, GMEM_CLASS_CONDITIONAL);
  EXPECT_EQ(I.idempotent, 1);
  EXPECT_EQ(I.has_conflict, 0);
  EXPECT_STREQ(I.kernel_symbol, "_Z7vec_addPKfS0_Pfi");
  EXPECT_STREQ(I.kernel_name, "vec_add");
  EXPECT_STREQ(I.reason, IdempotentLaunchReason);
  EXPECT_EQ(I.grid[0], 4u);
  EXPECT_EQ(I.block[0], 256u);
  ASSERT_EQ(I.num_ptr_args, 3);
  ASSERT_EQ(I.num_ptr_args_recorded, 3);
  const gmemArgAccess &A = I.ptr_args[0];
  EXPECT_EQ(A.param_index, 0);
  EXPECT_EQ(A.field_offset, -1);
  EXPECT_EQ(A.pointer, BufA);
  EXPECT_EQ(A.alloc_base, BufA);
  EXPECT_EQ(A.alloc_size, 4000u);
  EXPECT_TRUE(A.flags & GMEM_ARG_READS);
  EXPECT_FALSE(A.flags & GMEM_ARG_WRITES);
  EXPECT_TRUE(A.flags & GMEM_ARG_READ_EXACT);
  EXPECT_EQ(A.read_lo, BufA);
  EXPECT_EQ(A.read_hi, BufA + 4000); // 4*min(1024, 1000)
  EXPECT_EQ(A.read_count, 1u);
  const gmemArgAccess &Cw = I.ptr_args[2];
  EXPECT_TRUE(Cw.flags & GMEM_ARG_WRITES);
  EXPECT_EQ(Cw.write_lo, BufC);
  EXPECT_EQ(Cw.write_hi, BufC + 4000);
}

TEST_F(Fixture, AliasingVecAddConflicts) {
  gmemLaunchInfo I = vecAddLaunch(FVecAdd, BufA, BufB, BufA + 16);
  EXPECT_EQ(I.instrumented, 1);
  EXPECT_EQ(I.idempotent, 0);
  ASSERT_EQ(I.has_conflict, 1);
  EXPECT_EQ(I.conflict_read, 0);
  EXPECT_EQ(I.conflict_write, 2);
  EXPECT_EQ(I.conflict_lo, BufA + 16);
  EXPECT_EQ(I.conflict_hi, BufA + 4000); // write clipped to the allocation
  EXPECT_STREQ(I.reason, "write of C overlaps read of A");
  // A small launch that stays clear of the overlap is idempotent.
  I = vecAddLaunch(FVecAdd, BufA, BufB, BufA + 400, 100);
  EXPECT_EQ(I.idempotent, 1);
}

TEST_F(Fixture, ReadModifyWriteIsNotIdempotent) {
  uint64_t P = BufA;
  int N = 10;
  gmemLaunchInfo I = launch(FInc, {&P, &N});
  EXPECT_EQ(I.kernel_class, GMEM_CLASS_NON_IDEMPOTENT);
  EXPECT_EQ(I.idempotent, 0);
  EXPECT_EQ(I.conflict_read, 0);
  EXPECT_EQ(I.conflict_write, 0);
  EXPECT_EQ(I.conflict_lo, BufA);
  EXPECT_EQ(I.conflict_hi, BufA + 40);
}

// A launch whose arguments meet a variant's guard is decided with the
// variant (y only written when accumulate == 0); the memo keys on the
// arguments, so alternating flags never reuse the other's decision.
TEST_F(Fixture, LaunchVariantChosenByTheArguments) {
  for (int Round = 0; Round < 2; ++Round) {
    uint64_t X = BufA, Y = BufB;
    int Acc = 0, N = 1000;
    gmemLaunchInfo I = launch(FAccum, {&X, &Y, &Acc, &N});
    EXPECT_EQ(I.kernel_class, GMEM_CLASS_NON_IDEMPOTENT); // the kernel's own class
    EXPECT_EQ(I.idempotent, 1);
    ASSERT_EQ(I.num_ptr_args_recorded, 2);
    EXPECT_FALSE(I.ptr_args[1].flags & GMEM_ARG_READS);
    EXPECT_TRUE(I.ptr_args[1].flags & GMEM_ARG_WRITES);
    Acc = 1;
    I = launch(FAccum, {&X, &Y, &Acc, &N});
    EXPECT_EQ(I.idempotent, 0);
    EXPECT_TRUE(I.ptr_args[1].flags & GMEM_ARG_READS);
    EXPECT_STREQ(I.reason, "write of y overlaps read of y");
    // In place, the variant is conditional and this launch is not idempotent.
    Acc = 0;
    Y = BufA;
    I = launch(FAccum, {&X, &Y, &Acc, &N});
    EXPECT_EQ(I.idempotent, 0);
    EXPECT_STREQ(I.reason, "write of y overlaps read of x");
  }
}

TEST_F(Fixture, UninstrumentedPassesThrough) {
  uint64_t P = BufA;
  gmemLaunchInfo I = launch(FPlain, {&P}, 1, 1, 7);
  EXPECT_EQ(I.instrumented, 0);
  EXPECT_EQ(I.kernel_class, GMEM_CLASS_NONE);
  EXPECT_EQ(I.idempotent, 0);
  EXPECT_EQ(I.launch_result, 7); // the launch's own result is kept
  EXPECT_STREQ(I.kernel_symbol, "_Z5plainPf");
  EXPECT_NE(std::string(I.reason).find("no gmem descriptor"), std::string::npos) << I.reason;
  // Resolved once: the second launch finds the cached "uninstrumented".
  int Q = D.GlobalQueries;
  launch(FPlain, {&P});
  EXPECT_EQ(D.GlobalQueries, Q);
  EXPECT_EQ(D.AddrRangeCalls, 0); // uninstrumented launches look nothing up
}

TEST_F(Fixture, BadDescriptorReportedOnceAndUninstrumented) {
  O.LogMask = GMEM_LOG_ERRORS;
  make();
  uint64_t P = BufA;
  testing::internal::CaptureStderr();
  gmemLaunchInfo I = launch(FBad, {&P});
  launch(FBad, {&P});
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(I.instrumented, 0);
  EXPECT_NE(std::string(I.reason).find("bad gmem descriptor"), std::string::npos) << I.reason;
  EXPECT_NE(std::string(I.reason).find("version"), std::string::npos) << I.reason;
  size_t First = Err.find("_Z3badPf");
  ASSERT_NE(First, std::string::npos) << Err;
  EXPECT_EQ(Err.find("_Z3badPf", First + 1), std::string::npos) << "reported twice:\n" << Err;
  gmemStats S;
  ASSERT_EQ(gmemGetStats(&S), GMEM_SUCCESS);
  EXPECT_EQ(S.bad_descriptors, 1u);
}

TEST_F(Fixture, ParameterCountMismatchIsBad) {
  uint64_t P = BufA, Q = BufB;
  gmemLaunchInfo I = launch(FWrongCount, {&P, &Q});
  EXPECT_EQ(I.instrumented, 0);
  EXPECT_NE(std::string(I.reason).find("bytes, the descriptor says"), std::string::npos) << I.reason;
}

TEST_F(Fixture, CUkernelHandleResolvesThroughItsLibrary) {
  gmemLaunchInfo I = vecAddLaunch(KVecAdd, BufA, BufB, BufC);
  EXPECT_EQ(I.instrumented, 1) << I.reason;
  EXPECT_EQ(I.idempotent, 1);
  I = vecAddLaunch(KVecAdd, BufA, BufB, BufB);
  EXPECT_EQ(I.idempotent, 0);
  EXPECT_EQ(I.conflict_read, 1);
}

TEST_F(Fixture, DescriptorReadOnceAndForgottenOnUnload) {
  vecAddLaunch(FVecAdd, BufA, BufB, BufC);
  vecAddLaunch(FVecAdd, BufA, BufB, BufC);
  EXPECT_EQ(D.ReadDeviceCalls, 1);
  RT->onModuleUnload(reinterpret_cast<CUmodule>(Mod));
  vecAddLaunch(FVecAdd, BufA, BufB, BufC);
  EXPECT_EQ(D.ReadDeviceCalls, 2);
}

TEST_F(Fixture, AllocationLookupsAreCachedAndFreesInvalidate) {
  vecAddLaunch(FVecAdd, BufA, BufB, BufC);
  EXPECT_EQ(D.AddrRangeCalls, 3);
  for (int I = 0; I < 10; ++I)
    vecAddLaunch(FVecAdd, BufA, BufB, BufC);
  EXPECT_EQ(D.AddrRangeCalls, 3);
  // cudaFree(C) + cudaMalloc returning the same base with another size.
  RT->onFree(BufC);
  D.Allocs[BufC] = 40;
  gmemLaunchInfo I = vecAddLaunch(FVecAdd, BufA, BufB, BufC);
  EXPECT_EQ(D.AddrRangeCalls, 4);
  EXPECT_EQ(I.ptr_args[2].alloc_size, 40u);
  EXPECT_EQ(I.ptr_args[2].write_hi, BufC + 40); // clipped to the new allocation
}

TEST_F(Fixture, RepeatedLaunchesReuseTheDecision) {
  gmemLaunchInfo A = vecAddLaunch(FVecAdd, BufA, BufB, BufA + 8);
  int Calls = D.AddrRangeCalls;
  gmemLaunchInfo B = vecAddLaunch(FVecAdd, BufA, BufB, BufA + 8);
  EXPECT_EQ(B.sequence, A.sequence + 1);
  EXPECT_EQ(B.idempotent, A.idempotent);
  EXPECT_EQ(B.conflict_lo, A.conflict_lo);
  EXPECT_STREQ(B.reason, A.reason);
  EXPECT_EQ(std::memcmp(A.ptr_args, B.ptr_args, sizeof(gmemArgAccess) * 3), 0);
  EXPECT_EQ(D.AddrRangeCalls, Calls);
  // Another kernel in between, then the first again: still remembered.
  uint64_t P = BufC;
  int N = 3;
  launch(FInc, {&P, &N});
  gmemLaunchInfo C = vecAddLaunch(FVecAdd, BufA, BufB, BufA + 8);
  EXPECT_EQ(C.conflict_lo, A.conflict_lo);
  // Any allocation event forgets it (the allocation may have changed).
  RT->onAlloc(BufA, 4000);
  D.Allocs[BufA] = 4;
  C = vecAddLaunch(FVecAdd, BufA, BufB, BufA + 8);
  EXPECT_EQ(C.idempotent, 1); // A is 4 bytes now: C no longer overlaps it
  // And with the memo off every launch is evaluated, with the same results.
  O.Memo = false;
  make();
  gmemLaunchInfo X = vecAddLaunch(FVecAdd, BufA, BufB, BufA);
  gmemLaunchInfo Y = vecAddLaunch(FVecAdd, BufA, BufB, BufA);
  EXPECT_EQ(X.idempotent, 0);
  EXPECT_EQ(std::memcmp(X.ptr_args, Y.ptr_args, sizeof(gmemArgAccess) * 3), 0);
}

// A model runs each kernel with one argument set per layer, in turn: every
// set is evaluated once, then remembered (the memo is keyed by the
// arguments, not by the kernel alone).
TEST_F(Fixture, CyclingArgumentSetsAreEachEvaluatedOnce) {
  const uint64_t Outs[] = {BufA + 8, BufC, BufB + 16, BufC + 4};
  gmemLaunchInfo First[4];
  const uint64_t Before = RT->evaluations();
  for (int I = 0; I < 4; ++I)
    First[I] = vecAddLaunch(FVecAdd, BufA, BufB, Outs[I]);
  EXPECT_EQ(RT->evaluations() - Before, 4u);
  for (int Round = 0; Round < 3; ++Round)
    for (int I = 0; I < 4; ++I) {
      gmemLaunchInfo Again = vecAddLaunch(FVecAdd, BufA, BufB, Outs[I]);
      EXPECT_EQ(Again.idempotent, First[I].idempotent) << I;
      EXPECT_EQ(Again.has_conflict, First[I].has_conflict) << I;
      EXPECT_EQ(std::memcmp(Again.ptr_args, First[I].ptr_args, sizeof(gmemArgAccess) * 3), 0) << I;
    }
  EXPECT_EQ(RT->evaluations() - Before, 4u);
  EXPECT_EQ(First[0].idempotent, 0); // out overlaps in (A)
  EXPECT_EQ(First[1].idempotent, 1);
  // An allocation event still forgets every remembered decision.
  RT->onAlloc(BufA, 4000);
  vecAddLaunch(FVecAdd, BufA, BufB, Outs[0]);
  EXPECT_EQ(RT->evaluations() - Before, 5u);
}

// A launch the scheduler runs unpreempted (top priority) is not evaluated
// when nothing would use its decision, and says so; it is never called
// idempotent. GMEM_EVAL=all and launch logging evaluate it.
TEST_F(Fixture, UnpreemptedLaunchesAreEvaluatedOnlyWhenSomethingWantsIt) {
  uint64_t A = BufA, B = BufB, C = BufC;
  int N = 1000;
  const uint64_t Before = RT->evaluations();
  gmemLaunchInfo I = launch(FVecAdd, {&A, &B, &C, &N}, 4, 256, 0, /*Unpreempted=*/true);
  EXPECT_EQ(RT->evaluations(), Before);
  EXPECT_EQ(I.instrumented, 0);
  EXPECT_EQ(I.idempotent, 0);
  EXPECT_EQ(I.num_ptr_args_recorded, 0);
  EXPECT_STREQ(I.kernel_name, "vec_add");
  EXPECT_NE(std::string(I.reason).find("not evaluated"), std::string::npos) << I.reason;
  I = launch(FVecAdd, {&A, &B, &C, &N}); // the same launch, preemptible: evaluated
  EXPECT_EQ(RT->evaluations(), Before + 1);
  EXPECT_EQ(I.idempotent, 1);
  RT->setLogging(GMEM_LOG_LAUNCHES);
  testing::internal::CaptureStderr();
  I = launch(FVecAdd, {&A, &B, &C, &N}, 8, 256, 0, true);
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(I.instrumented, 1);
  EXPECT_EQ(RT->evaluations(), Before + 2);
  O.EvalAll = true;
  make();
  I = launch(FVecAdd, {&A, &B, &C, &N}, 16, 256, 0, true);
  EXPECT_EQ(I.instrumented, 1);
  EXPECT_EQ(I.idempotent, 1);
  EXPECT_EQ(RT->evaluations(), Before + 3);
}

TEST_F(Fixture, ArgumentsFromTheExtraBuffer) {
  struct {
    uint64_t A, B, C;
    int32_t N;
  } Buf = {BufA, BufB, BufA + 8, 1000};
  size_t Size = sizeof Buf;
  void *Extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &Buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &Size,
                   CU_LAUNCH_PARAM_END};
  LaunchRequest L;
  L.Handle = FVecAdd;
  L.Grid[0] = 4;
  L.Block[0] = 256;
  L.Extra = Extra;
  RT->after(RT->before(L), 0);
  gmemLaunchInfo I;
  ASSERT_EQ(gmemGetLastLaunchInfo(&I), GMEM_SUCCESS);
  EXPECT_EQ(I.instrumented, 1) << I.reason;
  EXPECT_EQ(I.idempotent, 0);
  EXPECT_EQ(I.conflict_lo, BufA + 8);
}

TEST_F(Fixture, ParamInfoUnavailableUsesDescriptorLayout) {
  D.ParamInfoSupported = false;
  make();
  gmemLaunchInfo I = vecAddLaunch(FVecAdd, BufA, BufB, BufC);
  EXPECT_EQ(I.instrumented, 1) << I.reason;
  EXPECT_EQ(I.idempotent, 1);
}

TEST_F(Fixture, PointerFieldsOfByValueStructs) {
  struct Pack {
    uint64_t In, Out;
    int32_t N, Pad;
  } P = {BufA, BufB, 100, 0};
  gmemLaunchInfo I = launch(FPack, {&P});
  EXPECT_EQ(I.instrumented, 1) << I.reason;
  EXPECT_EQ(I.idempotent, 1);
  ASSERT_EQ(I.num_ptr_args, 2);
  EXPECT_EQ(I.ptr_args[0].param_index, 0);
  EXPECT_EQ(I.ptr_args[0].field_offset, 0);
  EXPECT_EQ(I.ptr_args[0].owner, GMEM_OWNER_FIELD(0));
  EXPECT_EQ(I.ptr_args[0].pointer, BufA);
  EXPECT_EQ(I.ptr_args[0].read_hi, BufA + 400);
  EXPECT_EQ(I.ptr_args[1].field_offset, 8);
  EXPECT_EQ(I.ptr_args[1].write_lo, BufB);
  P.Out = BufA + 100;
  I = launch(FPack, {&P});
  EXPECT_EQ(I.idempotent, 0);
  EXPECT_EQ(I.conflict_read, GMEM_OWNER_FIELD(0));
  EXPECT_EQ(I.conflict_write, GMEM_OWNER_FIELD(1));
  EXPECT_STREQ(I.reason, "write of p.out overlaps read of p.in");
}

TEST_F(Fixture, RecentLaunchesRingOldestFirst) {
  for (int K = 0; K < 5; ++K)
    vecAddLaunch(FVecAdd, BufA, BufB, K % 2 ? BufA : BufC);
  gmemLaunchInfo Out[8];
  int N = gmemGetRecentLaunches(Out, 8);
  ASSERT_EQ(N, 5);
  for (int K = 0; K < 5; ++K) {
    EXPECT_EQ(Out[K].sequence, uint64_t(K + 1));
    EXPECT_EQ(Out[K].idempotent, K % 2 ? 0 : 1);
  }
  N = gmemGetRecentLaunches(Out, 2);
  ASSERT_EQ(N, 2);
  EXPECT_EQ(Out[0].sequence, 4u);
  EXPECT_EQ(Out[1].sequence, 5u);
  // Wrap around the ring.
  for (int K = 0; K < 1000; ++K)
    vecAddLaunch(FVecAdd, BufA, BufB, BufC);
  std::vector<gmemLaunchInfo> All(600);
  N = gmemGetRecentLaunches(All.data(), 600);
  EXPECT_EQ(N, 512);
  EXPECT_EQ(All[size_t(N) - 1].sequence, 1005u);
  EXPECT_EQ(All[0].sequence, 1005u - 511);
  EXPECT_EQ(gmemGetRecentLaunches(nullptr, 1), -GMEM_ERROR_INVALID_VALUE);
  EXPECT_EQ(gmemGetRecentLaunches(Out, 0), 0);
}

TEST_F(Fixture, LastLaunchIsPerThread) {
  vecAddLaunch(FVecAdd, BufA, BufB, BufC);
  std::thread T([&] {
    gmemLaunchInfo I;
    EXPECT_EQ(gmemGetLastLaunchInfo(&I), GMEM_ERROR_NO_LAUNCH);
    I = vecAddLaunch(FVecAdd, BufA, BufB, BufA);
    EXPECT_EQ(I.idempotent, 0);
  });
  T.join();
  gmemLaunchInfo I;
  ASSERT_EQ(gmemGetLastLaunchInfo(&I), GMEM_SUCCESS);
  EXPECT_EQ(I.idempotent, 1);
  EXPECT_EQ(I.sequence, 1u);
  EXPECT_EQ(gmemGetLastLaunchInfo(nullptr), GMEM_ERROR_INVALID_VALUE);
}

TEST_F(Fixture, LaunchLogLines) {
  O.LogMask = GMEM_LOG_LAUNCHES | GMEM_LOG_ERRORS;
  make();
  uint64_t P = BufA;
  testing::internal::CaptureStderr();
  vecAddLaunch(FVecAdd, BufA, BufB, BufC);
  vecAddLaunch(FVecAdd, BufA, BufB, BufA);
  launch(FPlain, {&P});
  std::string Err = testing::internal::GetCapturedStderr();
  EXPECT_NE(Err.find("gmem: launch #1 vec_add grid=(4,1,1) block=(256,1,1) class=conditional idempotent=yes\n"),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("gmem: launch #2 vec_add grid=(4,1,1) block=(256,1,1) class=conditional "
                     "idempotent=no conflict: write of C overlaps read of A [0x100000000,0x100000fa0)\n"),
            std::string::npos)
      << Err;
  EXPECT_NE(Err.find("gmem: launch #3 _Z5plainPf grid=(4,1,1) block=(256,1,1) class=none "
                     "idempotent=no (uninstrumented: no gmem descriptor"),
            std::string::npos)
      << Err;
  EXPECT_EQ(gmemSetLogging(0), GMEM_LOG_LAUNCHES | GMEM_LOG_ERRORS);
  testing::internal::CaptureStderr();
  vecAddLaunch(FVecAdd, BufA, BufB, BufC);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST_F(Fixture, DisabledRecordsNothing) {
  O.Disabled = true;
  make();
  LaunchRequest L;
  L.Handle = FVecAdd;
  EXPECT_EQ(RT->before(L), nullptr);
  RT->after(nullptr, 0);
  gmemLaunchInfo I;
  EXPECT_EQ(gmemGetLastLaunchInfo(&I), GMEM_ERROR_DISABLED);
  EXPECT_EQ(gmemIsEnabled(), 0);
  EXPECT_EQ(D.GlobalQueries, 0);
}

TEST_F(Fixture, VerifyAndReferenceModesAgree) {
  O.Verify = true;
  make();
  vecAddLaunch(FVecAdd, BufA, BufB, BufC);
  vecAddLaunch(FVecAdd, BufA, BufB, BufA + 4);
  uint64_t P = BufA;
  int N = 5;
  launch(FInc, {&P, &N});
  gmemStats S;
  gmemGetStats(&S);
  EXPECT_EQ(S.verify_mismatches, 0u);
  EXPECT_EQ(S.launches, 3u);
  EXPECT_EQ(S.instrumented, 3u);
  EXPECT_EQ(S.idempotent, 1u);
  // Reference mode gives the same record as the compiled path.
  O.Verify = false;
  O.Reference = true;
  make();
  gmemLaunchInfo R = vecAddLaunch(FVecAdd, BufA, BufB, BufA + 4);
  O.Reference = false;
  make();
  gmemLaunchInfo F = vecAddLaunch(FVecAdd, BufA, BufB, BufA + 4);
  EXPECT_EQ(R.idempotent, F.idempotent);
  EXPECT_EQ(R.conflict_lo, F.conflict_lo);
  EXPECT_EQ(R.conflict_hi, F.conflict_hi);
  EXPECT_STREQ(R.reason, F.reason);
  EXPECT_EQ(std::memcmp(R.ptr_args, F.ptr_args, sizeof(gmemArgAccess) * 3), 0);
}

TEST(CApi, VersionAndClassNames) {
  EXPECT_NE(std::string(gmemVersion()).find("libgmemrt"), std::string::npos);
  EXPECT_STREQ(gmemClassName(GMEM_CLASS_IDEMPOTENT), "idempotent");
  EXPECT_STREQ(gmemClassName(GMEM_CLASS_CONDITIONAL), "conditional");
  EXPECT_STREQ(gmemClassName(GMEM_CLASS_NON_IDEMPOTENT), "non-idempotent");
  EXPECT_STREQ(gmemClassName(GMEM_CLASS_UNKNOWN), "unknown");
  EXPECT_STREQ(gmemClassName(GMEM_CLASS_NONE), "none");
  EXPECT_EQ(gmemGetStats(nullptr), GMEM_ERROR_INVALID_VALUE);
}

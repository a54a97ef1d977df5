// The preemptive scheduler against a simulated GPU (FakeSchedDriver.h):
// activation, priorities and the C API, the operations each kind of launch
// becomes, pass-through cases and fallbacks to the original, stream roles
// and L2 windows for urgent reads. The preemption protocol (stop, relaunch,
// release) is in SchedulerPreemptionTest.cpp, the clone ABI version 2 (grid
// arguments, persistent clones) in SchedulerPersistentTest.cpp, control
// blocks (one per launch, reused, zeroed) in SchedulerBlocksTest.cpp.
#include "SchedulerTestFixture.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

TEST(SchedOptionsTest, Priorities) {
  EXPECT_EQ(parsePriority("realtime"), GMEM_PRIORITY_REALTIME);
  EXPECT_EQ(parsePriority("RT"), GMEM_PRIORITY_REALTIME);
  EXPECT_EQ(parsePriority("best-effort"), GMEM_PRIORITY_BEST_EFFORT);
  EXPECT_EQ(parsePriority("be"), GMEM_PRIORITY_BEST_EFFORT);
  EXPECT_EQ(parsePriority("7"), 7);
  EXPECT_EQ(parsePriority("15"), 15);
  EXPECT_EQ(parsePriority("16"), -1);
  EXPECT_EQ(parsePriority("-1"), -1);
  EXPECT_EQ(parsePriority("high"), -1);
  EXPECT_EQ(parsePriority(""), -1);
  int L = -5;
  EXPECT_EQ(gmemSchedParsePriority("3", &L), GMEM_SUCCESS);
  EXPECT_EQ(L, 3);
  EXPECT_EQ(gmemSchedParsePriority("x", &L), GMEM_ERROR_INVALID_VALUE);
}

TEST(SchedOptionsTest, Environment) {
  unsetenv("GMEM_SCHED");
  unsetenv("GMEM_PRIORITY");
  unsetenv("GMEM_DISABLE");
  SchedOptions O = SchedOptions::fromEnvironment();
  EXPECT_FALSE(O.ActiveAtStart); // off unless asked for
  EXPECT_FALSE(O.Forbidden);
  setenv("GMEM_PRIORITY", "realtime", 1);
  O = SchedOptions::fromEnvironment();
  EXPECT_TRUE(O.ActiveAtStart);
  EXPECT_EQ(O.ProcessPriority, GMEM_PRIORITY_REALTIME);
  setenv("GMEM_PRIORITY", "bogus", 1);
  O = SchedOptions::fromEnvironment();
  EXPECT_FALSE(O.ActiveAtStart);
  unsetenv("GMEM_PRIORITY");
  setenv("GMEM_SCHED", "1", 1);
  setenv("GMEM_SCHED_MAX_HOLD_MS", "7", 1);
  O = SchedOptions::fromEnvironment();
  EXPECT_TRUE(O.ActiveAtStart);
  EXPECT_EQ(O.MaxHoldNs, 7000000u);
  setenv("GMEM_SCHED", "0", 1);
  O = SchedOptions::fromEnvironment();
  EXPECT_TRUE(O.Forbidden);
  unsetenv("GMEM_SCHED");
  unsetenv("GMEM_SCHED_MAX_HOLD_MS");
}

// The monitor's poll intervals: while a level is suppressed, and while only
// relaunches are watched (its own knob since the co-location diagnostics;
// never shorter than the poll interval unless set).
TEST(SchedOptionsTest, WatchIntervalFromTheEnvironment) {
  unsetenv("GMEM_SCHED_POLL_US");
  unsetenv("GMEM_SCHED_WATCH_US");
  SchedOptions Def = SchedOptions::fromEnvironment();
  EXPECT_EQ(Def.PollIntervalNs, 20'000u);
  EXPECT_EQ(Def.WatchIntervalNs, 80'000u);
  setenv("GMEM_SCHED_POLL_US", "200", 1);
  EXPECT_EQ(SchedOptions::fromEnvironment().WatchIntervalNs, 200'000u);
  setenv("GMEM_SCHED_WATCH_US", "2000", 1);
  SchedOptions E = SchedOptions::fromEnvironment();
  EXPECT_EQ(E.PollIntervalNs, 200'000u);
  EXPECT_EQ(E.WatchIntervalNs, 2'000'000u);
  unsetenv("GMEM_SCHED_POLL_US");
  unsetenv("GMEM_SCHED_WATCH_US");
}

TEST_F(SchedTest, InactiveByDefaultPassesLaunchesUntouched) {
  O.ActiveAtStart = false;
  Scheduler::setGlobalForTesting(nullptr);
  S.reset(new Scheduler(D, O));
  Scheduler::setGlobalForTesting(S.get());
  EXPECT_EQ(gmemSchedIsActive(), 0);
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 1);
  EXPECT_TRUE(D.Calls.empty());
  // Any priority set through the API activates it.
  EXPECT_EQ(gmemSchedSetStreamPriority(RT, GMEM_PRIORITY_REALTIME), GMEM_SUCCESS);
  EXPECT_EQ(gmemSchedIsActive(), 1);
  EXPECT_EQ(gmemSchedGetStreamPriority(RT), GMEM_PRIORITY_REALTIME);
  EXPECT_EQ(gmemSchedGetStreamPriority(BE), GMEM_PRIORITY_BEST_EFFORT);
  EXPECT_EQ(gmemSchedSetStreamPriority(RT, GMEM_PRIORITY_DEFAULT), GMEM_SUCCESS);
  EXPECT_EQ(gmemSchedGetStreamPriority(RT), GMEM_PRIORITY_BEST_EFFORT);
  EXPECT_EQ(gmemSchedSetProcessPriority(9), GMEM_SUCCESS);
  EXPECT_EQ(gmemSchedGetProcessPriority(), 9);
  EXPECT_EQ(gmemSchedGetStreamPriority(RT), 9);
  EXPECT_EQ(gmemSchedSetProcessPriority(16), GMEM_ERROR_INVALID_VALUE);
  EXPECT_EQ(gmemSchedSetStreamPriority(RT, -2), GMEM_ERROR_INVALID_VALUE);
  EXPECT_EQ(gmemSchedSetPolicy(GMEM_SCHED_POLICY_STRICT), GMEM_SUCCESS);
  EXPECT_EQ(gmemSchedSetPolicy(GMEM_SCHED_POLICY_FAIR_SHARE), GMEM_SUCCESS);
  gmemSchedStats St;
  EXPECT_EQ(gmemSchedGetStats(&St), GMEM_SUCCESS);
  EXPECT_EQ(St.policy, GMEM_SCHED_POLICY_FAIR_SHARE);
  EXPECT_EQ(gmemSchedSetPolicy(GMEM_SCHED_POLICY_DEADLINE), GMEM_ERROR_SCHED_NOT_SUPPORTED);
  EXPECT_EQ(gmemSchedSetPolicy(42), GMEM_ERROR_INVALID_VALUE);
  EXPECT_EQ(gmemSchedGetStats(&St), GMEM_SUCCESS);
  EXPECT_EQ(St.policy, GMEM_SCHED_POLICY_FAIR_SHARE); // refused calls change nothing
  EXPECT_EQ(gmemSchedSetPolicy(GMEM_SCHED_POLICY_STRICT), GMEM_SUCCESS);
  EXPECT_EQ(gmemSchedEnable(0), GMEM_SUCCESS);
  EXPECT_EQ(gmemSchedIsActive(), 0);
}

TEST_F(SchedTest, ForbiddenStaysOff) {
  O.Forbidden = true;
  make();
  EXPECT_EQ(gmemSchedIsActive(), 0);
  EXPECT_EQ(gmemSchedSetStreamPriority(BE, 3), GMEM_ERROR_DISABLED);
  EXPECT_EQ(gmemSchedSetProcessPriority(3), GMEM_ERROR_DISABLED);
  EXPECT_EQ(gmemSchedEnable(1), GMEM_ERROR_DISABLED);
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 1);
  EXPECT_TRUE(D.Calls.empty());
}

TEST_F(SchedTest, BestEffortLaunchIsGatedCloneWithItsOwnControlBlock) {
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.marker(BE, "after");
  EXPECT_EQ(OriginalCalls, 0);
  // Context set-up, then exactly the gated sequence on the program's stream.
  std::vector<std::string> OnBE;
  for (auto &C : D.Calls)
    if (C.find(" BE") != std::string::npos)
      OnBE.push_back(C.substr(0, C.find(' ')));
  EXPECT_EQ(OnBE, (std::vector<std::string>{"memset", "wait", "launch", "record", "wait", "record"}));
  EXPECT_EQ(D.count("launch BE " + pre(Train)), 1u);
  // The clone gets the kernel's arguments, the control block and the
  // user's grid, with the user's grid and block.
  ASSERT_EQ(D.LastCloneArgs.size(), 36u);
  uint64_t P, Ctl;
  int32_t NV;
  uint32_t G[3];
  std::memcpy(&P, D.LastCloneArgs.data(), 8);
  std::memcpy(&NV, D.LastCloneArgs.data() + 8, 4);
  std::memcpy(&Ctl, D.LastCloneArgs.data() + 16, 8);
  std::memcpy(G, D.LastCloneArgs.data() + 24, 12);
  EXPECT_EQ(P, BufP);
  EXPECT_EQ(NV, N);
  EXPECT_NE(Ctl, 0u);
  EXPECT_EQ(G[0], 8u);
  EXPECT_EQ(G[1], 1u);
  EXPECT_EQ(G[2], 1u);
  ASSERT_EQ(D.CloneLaunches.size(), 1u);
  EXPECT_EQ(D.CloneLaunches[0].Grid[0], 8u);
  EXPECT_EQ(D.CloneLaunches[0].Block[0], 128u);
  finish();
  expectExactlyOnce();
  EXPECT_GT(D.Markers["after"], job(pre(Train)).LastCompleteStep);
  gmemSchedStats St = stats();
  EXPECT_EQ(St.gated, 1u);
  EXPECT_EQ(St.preemptible, 1u);
  EXPECT_EQ(St.preemptions, 0u);
}

TEST_F(SchedTest, PassThroughCases) {
  // Stream capture: untouched.
  D.stream(BE).Capturing = true;
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.stream(BE).Capturing = false;
  // The legacy default stream: untouched.
  ASSERT_EQ(train(nullptr), CUDA_SUCCESS);
  // Cooperative (either entry point or attribute): not gated.
  LaunchRecord R = record(ETrain, true);
  ASSERT_EQ(launch(FTrain, 8, BE, &R, nullptr, 0, /*Coop=*/true), CUDA_SUCCESS);
  CUlaunchAttribute Coop = {};
  Coop.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
  Coop.value.cooperative = 1;
  ASSERT_EQ(launch(FTrain, 8, BE, &R, &Coop, 1), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 4);
  EXPECT_EQ(D.count("wait BE"), 0u);
  EXPECT_EQ(D.count("launch"), 0u);
  // Real-time: the original, not gated.
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 5);
  EXPECT_EQ(D.count("wait RT"), 0u);
  EXPECT_EQ(stats().passed_through, 4u);
}

TEST_F(SchedTest, NotPreemptibleLaunchesAreGatedButRunAsIs) {
  LaunchRecord NoClone = record(EPlain, true); // descriptor, but no clone in the module
  ASSERT_EQ(launch(FPlain, 4, BE, &NoClone), CUDA_SUCCESS);
  KernelEntry Unin;
  entry(Unin, Train, {8, 4});
  Unin.St = KernelEntry::State::Uninstrumented; // no descriptor
  LaunchRecord NoDesc = record(Unin, false);
  ASSERT_EQ(launch(FTrain, 4, BE, &NoDesc), CUDA_SUCCESS);
  ASSERT_EQ(launch(FTrain, 4, BE, nullptr), CUDA_SUCCESS); // handle never resolved
  CUlaunchAttribute Cluster = {};
  Cluster.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  Cluster.value.clusterDim.x = 2;
  LaunchRecord R = record(ETrain, true);
  ASSERT_EQ(launch(FTrain, 4, BE, &R, &Cluster, 1), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 4);
  EXPECT_EQ(D.count("wait BE"), 4u); // each behind the gate
  EXPECT_EQ(D.count("launch"), 0u);  // no clone launched
  EXPECT_EQ(stats().preemptible, 0u);
  finish();
  expectExactlyOnce();
}

TEST_F(SchedTest, BadCheckpointInfoMeansNotPreemptible) {
  D.addInfo(Mod, Accum, 1, /*Magic=*/0x12345678); // replaces the good one
  ASSERT_EQ(accum(BE), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 1);
  EXPECT_EQ(stats().preemptible, 0u);
}

TEST_F(SchedTest, TooManyInFlightFallsBackToGatedOriginals) {
  O.MaxSlots = 2;
  make();
  for (int I = 0; I < 3; ++I)
    ASSERT_EQ(train(BE), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 1);
  EXPECT_EQ(stats().preemptible, 2u);
  finish();
  expectExactlyOnce();
}

// GMEM_SCHED_L2=persist: the largest allocation a top-priority launch only
// reads becomes its stream's L2 persisting window (the context's set-aside
// made once); smaller or written ones change nothing and take no driver
// call; best-effort streams and the option off get no window.
// The hooks ask the scheduler once per launch what it will do; the level
// they get is the one launch() would look up.
TEST_F(SchedTest, StreamRolesTellUnpreemptedLaunchesAndWhoWantsTheirRegions) {
  StreamRole Rt = S->roleOf(RT, false), Be = S->roleOf(BE, false);
  StreamRole Legacy = S->roleOf(nullptr, false), PerThread = S->roleOf(nullptr, true);
  EXPECT_EQ(Rt.Level, GMEM_PRIORITY_REALTIME);
  EXPECT_TRUE(Rt.Unpreempted);
  EXPECT_FALSE(Rt.WantsRegions);
  EXPECT_EQ(Be.Level, GMEM_PRIORITY_BEST_EFFORT);
  EXPECT_FALSE(Be.Unpreempted);
  EXPECT_EQ(Legacy.Level, -1); // takes no part in scheduling
  EXPECT_FALSE(Legacy.Unpreempted);
  EXPECT_EQ(PerThread.Level, GMEM_PRIORITY_BEST_EFFORT);
  O.L2Persist = true;
  make();
  EXPECT_TRUE(S->roleOf(RT, false).WantsRegions);
  EXPECT_FALSE(S->roleOf(BE, false).WantsRegions);
  EXPECT_FALSE(S->roleOf(nullptr, true).WantsRegions); // windows only on explicit streams
}

TEST_F(SchedTest, UrgentReadsPersistInL2) {
  auto Access = [](uint64_t Base, uint64_t Size, uint32_t Flags) {
    gmemArgAccess A = {};
    A.flags = GMEM_ARG_HAS_ALLOC | Flags;
    A.alloc_base = Base;
    A.alloc_size = Size;
    return A;
  };
  LaunchRecord R = record(EInfer, false);
  R.Instrumented = true;
  R.NumPtrRec = 3;
  R.Ptr[0] = Access(0x100000, 40u << 20, GMEM_ARG_READS);               // weights
  R.Ptr[1] = Access(0x9000000, 64u << 20, GMEM_ARG_READS | GMEM_ARG_WRITES); // in place
  R.Ptr[2] = Access(0xA000000, 4096, GMEM_ARG_READS);
  S->keepUrgentReadsInL2(RT, &R); // option off
  EXPECT_EQ(D.count("l2"), 0u);
  O.L2Persist = true;
  make();
  S->keepUrgentReadsInL2(BE, &R); // not a top-priority stream
  EXPECT_EQ(D.count("l2"), 0u);
  S->keepUrgentReadsInL2(RT, &R);
  EXPECT_EQ(D.count("l2 set aside " + std::to_string(30 << 20)), 1u);
  EXPECT_EQ(D.count("l2 window RT " + FakeSchedDriver::hex(0x100000) + " " +
                    std::to_string(40u << 20) + " 0.75"),
            1u);
  const size_t Calls = D.Calls.size();
  for (int I = 0; I < 3; ++I)
    S->keepUrgentReadsInL2(RT, &R); // covered already: no driver call
  R.Ptr[0] = Access(0x200000, 4u << 20, GMEM_ARG_READS); // a smaller one
  S->keepUrgentReadsInL2(RT, &R);
  EXPECT_EQ(D.Calls.size(), Calls);
  R.Ptr[0] = Access(0x4000000, 200u << 20, GMEM_ARG_READS); // larger than a window
  S->keepUrgentReadsInL2(RT, &R);
  EXPECT_EQ(D.count("l2 window RT " + FakeSchedDriver::hex(0x4000000) + " " +
                    std::to_string(128u << 20) + " 0.23"),
            1u);
  EXPECT_EQ(D.count("l2 set aside"), 1u);
  // A driver that refuses windows is asked once, not at every launch.
  make();
  D.L2WindowResult = CUDA_ERROR_NOT_SUPPORTED;
  const size_t Windows = D.count("l2 window");
  for (int I = 0; I < 3; ++I) {
    R.Ptr[0] = Access(0x100000 + (uint64_t(I) << 30), (41u + I) << 20, GMEM_ARG_READS);
    S->keepUrgentReadsInL2(RT, &R);
  }
  EXPECT_EQ(D.count("l2 window"), Windows + 1);
}

TEST_F(SchedTest, CloneLaunchFailureFallsBackToTheOriginal) {
  D.FailCloneLaunches = true;
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 1);
  EXPECT_EQ(stats().clone_failures, 1u);
  finish();
  expectExactlyOnce();
}

TEST_F(SchedTest, ArgumentsFromAnExtraBuffer) {
  struct {
    uint64_t P;
    int32_t N;
    int32_t Pad;
  } Buf = {0x5150, 33, 0};
  size_t Size = 16;
  void *Extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &Buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &Size,
                   CU_LAUNCH_PARAM_END};
  LaunchRecord R = record(ETrain, true);
  SchedLaunch L;
  L.F = reinterpret_cast<CUfunction>(FTrain);
  L.Grid[0] = 4;
  L.Stream = BE;
  L.Extra = Extra;
  auto Original = [&] { return CUDA_ERROR_UNKNOWN; };
  ASSERT_EQ(scheduleOr(L, &R, Original), CUDA_SUCCESS);
  ASSERT_EQ(D.LastCloneArgs.size(), 36u);
  uint64_t P;
  int32_t NV;
  uint32_t GX;
  std::memcpy(&P, D.LastCloneArgs.data(), 8);
  std::memcpy(&NV, D.LastCloneArgs.data() + 8, 4);
  std::memcpy(&GX, D.LastCloneArgs.data() + 24, 4);
  EXPECT_EQ(P, 0x5150u);
  EXPECT_EQ(NV, 33);
  EXPECT_EQ(GX, 4u);
  // A buffer too short for the kernel's parameters: not preemptible.
  Size = 8;
  ASSERT_EQ(scheduleOr(L, &R, Original), CUDA_ERROR_UNKNOWN);
}

TEST_F(SchedTest, RuntimeApiLaunchLendsItsRecordToTheDriverLaunch) {
  LaunchRecord R = record(ETrain, true);
  EXPECT_EQ(recordFor(nullptr), nullptr);
  {
    RuntimeLaunchScope Scope(&R);
    EXPECT_EQ(recordFor(nullptr), &R);
    ASSERT_EQ(launch(FTrain, 4, BE, recordFor(nullptr)), CUDA_SUCCESS);
  }
  EXPECT_EQ(recordFor(nullptr), nullptr);
  EXPECT_EQ(stats().preemptible, 1u);
}

TEST_F(SchedTest, PerThreadDefaultStreamIsScheduled) {
  LaunchRecord R = record(ETrain, true);
  SchedLaunch L;
  L.F = reinterpret_cast<CUfunction>(FTrain);
  L.Grid[0] = 4;
  L.PerThreadStream = true; // a _ptsz entry point with the null stream
  void *Params[2] = {&BufP, &N};
  L.Params = Params;
  auto Original = [&] { return CUDA_ERROR_UNKNOWN; };
  ASSERT_EQ(scheduleOr(L, &R, Original), CUDA_SUCCESS);
  EXPECT_EQ(D.count("launch ptds " + pre(Train)), 1u);
  finish();
  expectExactlyOnce();
}

TEST_F(SchedTest, NewContextGetsItsOwnState) {
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  const size_t Streams = D.count("streamCreate");
  D.CtxId = 2; // the context was destroyed and another one is current
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  EXPECT_EQ(D.count("streamCreate"), Streams + 1); // a new control stream
  finish();
  expectExactlyOnce();
}

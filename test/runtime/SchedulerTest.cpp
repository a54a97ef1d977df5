// The preemptive scheduler against a simulated GPU (FakeSchedDriver.h):
// activation, priorities and the C API, the operations each kind of launch
// becomes, pass-through cases, the preemption protocol (stop request by
// idempotence, relaunch, release), gating of work that has not started,
// stream order for operations the scheduler never sees, control blocks
// (one per launch, reused), re-preemption, forced resume on priority
// inversion, drain-time accounting, and the clone ABI version 2 (grid
// arguments, persistent clones on a resident grid).
#include "FakeSchedDriver.h"
#include "Runtime.h"
#include "Scheduler.h"

#include "gmem/gmem_sched.h"

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstring>
#include <set>
#include <cstdlib>
#include <thread>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {

constexpr uintptr_t Mod = 0x1000;
// Kernels and their clones (CUfunction handles in the fake).
constexpr uintptr_t FTrain = 0x11, FTrainPre = 0x12, FAccum = 0x13, FAccumPre = 0x14,
                    FInfer = 0x15, FPlain = 0x16, FPers = 0x17, FPersPre = 0x18;
const char *const Train = "_Z5trainPfi", *const Accum = "_Z5accumPfi", *const Infer = "_Z5inferPf",
                  *const Plain = "_Z5plainPf", *const Pers = "_Z4persPfi";
// The clone's parameters after the kernel's (ABI version 2).
const std::vector<size_t> CtlAndGrid = {8, 4, 4, 4};
constexpr uint32_t PersistentFlag = 0x10;

struct SchedTest : ::testing::Test {
  FakeSchedDriver D;
  SchedOptions O;
  std::unique_ptr<Scheduler> S;
  KernelEntry ETrain, EAccum, EInfer, EPlain, EPers;
  CUstream BE = nullptr, RT = nullptr;
  int OriginalCalls = 0;
  uint64_t BufP = 0xABC000;
  int N = 7;

  void SetUp() override {
    FakeSchedDriver::Kernel K;
    K.ParamSizes = {8, 4};
    K.Iters = 4;
    D.addKernel(FTrain, Mod, Train, K);
    D.addKernel(FAccum, Mod, Accum, K);
    D.addKernel(FPers, Mod, Pers, K);
    FakeSchedDriver::Kernel C = K;
    C.IsClone = true;
    C.ParamSizes = {8, 4};
    C.ParamSizes.insert(C.ParamSizes.end(), CtlAndGrid.begin(), CtlAndGrid.end());
    D.addKernel(FTrainPre, Mod, std::string("__gmem_pre_") + Train, C);
    D.addKernel(FAccumPre, Mod, std::string("__gmem_pre_") + Accum, C);
    C.Persistent = true;
    D.addKernel(FPersPre, Mod, std::string("__gmem_pre_") + Pers, C);
    D.addInfo(Mod, Train, 1 | 4);
    D.addInfo(Mod, Accum, 1);
    D.addInfo(Mod, Pers, 1 | 4 | PersistentFlag);
    FakeSchedDriver::Kernel I;
    I.ParamSizes = {8};
    I.Iters = 10;
    D.addKernel(FInfer, Mod, Infer, I);
    D.addKernel(FPlain, Mod, Plain, I);
    entry(ETrain, Train, {8, 4});
    entry(EAccum, Accum, {8, 4});
    entry(EInfer, Infer, {8});
    entry(EPlain, Plain, {8});
    entry(EPers, Pers, {8, 4});
    BE = D.userStream();
    RT = D.userStream();
    D.Names[BE] = "BE";
    D.Names[RT] = "RT";
    O.MonitorThread = false;
    O.ActiveAtStart = true;
    O.LogErrors = false;
    make();
  }
  void TearDown() override { Scheduler::setGlobalForTesting(nullptr); }
  void make() {
    Scheduler::setGlobalForTesting(nullptr);
    S.reset(new Scheduler(D, O));
    Scheduler::setGlobalForTesting(S.get());
    S->setStreamPriority(RT, GMEM_PRIORITY_REALTIME);
  }
  static void entry(KernelEntry &E, const char *Sym, std::vector<uint32_t> Sizes) {
    E.Symbol = Sym;
    E.Module = reinterpret_cast<CUmodule>(Mod);
    E.St = KernelEntry::State::Instrumented;
    E.ParamSize = std::move(Sizes);
  }
  static LaunchRecord record(const KernelEntry &E, bool Idempotent) {
    LaunchRecord R;
    R.Entry = &E;
    R.Instrumented = E.St == KernelEntry::State::Instrumented;
    R.Idempotent = Idempotent;
    return R;
  }
  CUresult launch(uintptr_t F, unsigned Grid, CUstream Str, const LaunchRecord *Rec,
                  const CUlaunchAttribute *Attrs = nullptr, unsigned NumAttrs = 0,
                  bool Coop = false) {
    return launchShape(F, {Grid, 1, 1}, {128, 1, 1}, 0, Str, Rec, Attrs, NumAttrs, Coop);
  }
  CUresult launchShape(uintptr_t F, std::array<unsigned, 3> Grid, std::array<unsigned, 3> Block,
                       unsigned Shmem, CUstream Str, const LaunchRecord *Rec,
                       const CUlaunchAttribute *Attrs = nullptr, unsigned NumAttrs = 0,
                       bool Coop = false) {
    void *Params[2] = {&BufP, &N};
    SchedLaunch L;
    L.F = reinterpret_cast<CUfunction>(F);
    for (int I = 0; I < 3; ++I) {
      L.Grid[I] = Grid[I];
      L.Block[I] = Block[I];
    }
    L.Shmem = Shmem;
    L.Stream = Str;
    L.Params = Params;
    L.Attrs = Attrs;
    L.NumAttrs = NumAttrs;
    L.Cooperative = Coop;
    auto Original = [&] {
      ++OriginalCalls;
      return D.userLaunch(reinterpret_cast<CUfunction>(F), Grid[0] * Grid[1] * Grid[2],
                          Str ? Str : CU_STREAM_LEGACY);
    };
    return scheduleOr(L, Rec, Original);
  }
  CUresult train(CUstream Str, unsigned Grid = 8, bool Idempotent = true) {
    LaunchRecord R = record(ETrain, Idempotent);
    return launch(FTrain, Grid, Str, &R);
  }
  CUresult accum(CUstream Str, unsigned Grid = 8) {
    LaunchRecord R = record(EAccum, false);
    return launch(FAccum, Grid, Str, &R);
  }
  CUresult pers(CUstream Str, std::array<unsigned, 3> Grid, bool Idempotent = true,
                std::array<unsigned, 3> Block = {128, 1, 1}, unsigned Shmem = 0) {
    LaunchRecord R = record(EPers, Idempotent);
    return launchShape(FPers, Grid, Block, Shmem, Str, &R);
  }
  CUresult infer(CUstream Str, unsigned Grid = 2) {
    LaunchRecord R = record(EInfer, false);
    return launch(FInfer, Grid, Str, &R);
  }
  /// The GPU and the monitor until everything is done.
  void finish(unsigned MaxRounds = 20000) {
    for (unsigned I = 0; I < MaxRounds; ++I) {
      bool Moved = D.step();
      bool More = S->poll();
      if (!Moved && !More && D.idle())
        return;
    }
    ADD_FAILURE() << "did not finish";
  }
  const FakeSchedDriver::Job &job(const std::string &Kernel, unsigned Nth = 0) {
    for (auto &J : D.Jobs)
      if (J.Kernel == Kernel && Nth-- == 0)
        return J;
    static FakeSchedDriver::Job None;
    ADD_FAILURE() << "no job " << Kernel;
    return None;
  }
  gmemSchedStats stats() {
    gmemSchedStats St;
    EXPECT_EQ(gmemSchedGetStats(&St), GMEM_SUCCESS);
    return St;
  }
  void expectExactlyOnce() {
    for (auto &J : D.Jobs) {
      EXPECT_TRUE(J.complete()) << J.Kernel;
      EXPECT_EQ(J.maxCompletions(), 1u) << J.Kernel;
    }
    EXPECT_EQ(D.Overlaps, 0u);
    EXPECT_EQ(D.GridArgMismatches, 0u);
    EXPECT_EQ(D.PChanges, 0u);
    EXPECT_EQ(D.CtlTooSmall, 0u);
    EXPECT_EQ(D.RedoOverflows, 0u);
  }
};

std::string pre(const char *Sym) { return std::string("__gmem_pre_") + Sym; }

} // namespace

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
  EXPECT_EQ(gmemSchedSetPolicy(GMEM_SCHED_POLICY_FAIR_SHARE), GMEM_ERROR_SCHED_NOT_SUPPORTED);
  EXPECT_EQ(gmemSchedSetPolicy(GMEM_SCHED_POLICY_DEADLINE), GMEM_ERROR_SCHED_NOT_SUPPORTED);
  EXPECT_EQ(gmemSchedSetPolicy(42), GMEM_ERROR_INVALID_VALUE);
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

TEST_F(SchedTest, IdempotentVictimStopsInLoopsAndIsRelaunched) {
  D.Kernels[FTrainPre].Iters = 10;
  ASSERT_EQ(train(BE, 8, /*Idempotent=*/true), CUDA_SUCCESS);
  D.marker(BE, "after");
  D.run(15); // CTA 0 done, CTA 1 in its loop
  const uint64_t Ctl = D.Jobs.at(0).Ctl;
  D.Calls.clear();
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  // Gate, then hold, then the stop request, on the control stream.
  ASSERT_GE(D.Calls.size(), 4u);
  EXPECT_EQ(D.Calls[0].substr(0, 6), "write ");
  EXPECT_NE(D.Calls[0].find("=1"), std::string::npos);
  EXPECT_NE(D.Calls[1].find("=1"), std::string::npos);
  EXPECT_NE(D.Calls[2].find(FakeSchedDriver::hex(Ctl) + "=2"), std::string::npos);
  EXPECT_EQ(D.Calls[3].substr(0, 6), "record");
  D.settle(); // the victim drains, the urgent kernel runs, then everything waits
  EXPECT_EQ(D.word(Ctl), 2u);
  EXPECT_FALSE(job(pre(Train)).complete());
  EXPECT_GE(job(pre(Train)).cuts(), 1u); // a CTA left its loop
  EXPECT_TRUE(job(Infer).complete());
  EXPECT_EQ(D.Markers.count("after"), 0u); // the stream is held
  finish();
  expectExactlyOnce();
  EXPECT_LT(job(Infer).LastCompleteStep, job(pre(Train)).LastCompleteStep);
  EXPECT_GT(D.Markers["after"], job(pre(Train)).LastCompleteStep);
  EXPECT_EQ(D.count("launch " + FakeSchedDriver::hex(0)), 0u);
  gmemSchedStats St = stats();
  EXPECT_EQ(St.suppressions, 1u);
  EXPECT_EQ(St.preemptions, 1u);
  EXPECT_EQ(St.preemptions_loop, 1u);
  EXPECT_EQ(St.relaunches, 1u);
  EXPECT_EQ(St.urgent, 1u);
  EXPECT_EQ(St.drain_samples, 1u);
  EXPECT_LE(St.drain_ns_max, 20000u); // a few simulated microseconds
}

TEST_F(SchedTest, NonIdempotentVictimOnlyStopsAtEntry) {
  ASSERT_EQ(accum(BE), CUDA_SUCCESS);
  D.run(6);
  const uint64_t Ctl = D.Jobs.at(0).Ctl;
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  EXPECT_EQ(D.word(Ctl), 1u);
  EXPECT_EQ(job(pre(Accum)).cuts(), 0u); // the running CTA finished its loop
  EXPECT_FALSE(job(pre(Accum)).complete());
  finish();
  expectExactlyOnce();
  gmemSchedStats St = stats();
  EXPECT_EQ(St.preemptions, 1u);
  EXPECT_EQ(St.preemptions_loop, 0u);
}

TEST_F(SchedTest, RelaunchWaitsForTheVictimToDrain) {
  // A non-idempotent victim's running CTA goes on long after the urgent
  // work is done; the relaunch must not start that CTA a second time.
  O.ResumeLingerNs = 0;
  make();
  D.Kernels[FAccumPre].Iters = 60;
  ASSERT_EQ(accum(BE, 4), CUDA_SUCCESS);
  D.run(5);
  ASSERT_EQ(infer(RT, 1), CUDA_SUCCESS);
  for (int I = 0; I < 30; ++I) {
    D.step();
    S->poll();
  }
  EXPECT_TRUE(job(Infer).complete());
  EXPECT_EQ(stats().relaunches, 1u); // issued while the victim still runs
  finish();
  expectExactlyOnce();
}

TEST_F(SchedTest, IdempotentLaunchOfEntryOnlyCloneGetsRequestOne) {
  D.addInfo(Mod, Train, 2); // entry checkpoints only (e.g. grid-wide sync)
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.run(6);
  const uint64_t Ctl = D.Jobs.at(0).Ctl;
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  EXPECT_EQ(D.word(Ctl), 1u);
  finish();
  expectExactlyOnce();
}

TEST_F(SchedTest, WorkNotYetStartedIsHeldBehindTheGate) {
  CUstream BE2 = D.userStream();
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.run(3);
  ASSERT_EQ(infer(RT, 6), CUDA_SUCCESS);
  ASSERT_EQ(train(BE2), CUDA_SUCCESS); // arrives while urgent work runs
  ASSERT_EQ(accum(BE), CUDA_SUCCESS);  // queued behind the victim in its stream
  finish();
  expectExactlyOnce();
  const uint64_t UrgentDone = job(Infer).LastCompleteStep;
  EXPECT_GT(job(pre(Train), 1).FirstStartStep, UrgentDone);
  EXPECT_GT(job(pre(Accum)).FirstStartStep, UrgentDone);
  EXPECT_EQ(stats().preemptions, 1u); // only the running one had to stop
}

TEST_F(SchedTest, StreamOrderHoldsForOperationsTheSchedulerNeverSees) {
  // Program: BE kernel, then its own event record and a copy (markers), and
  // a second stream waiting on that event.
  CUevent E;
  ASSERT_EQ(D.eventCreate(&E, CU_EVENT_DISABLE_TIMING), CUDA_SUCCESS);
  CUstream Other = D.userStream();
  ASSERT_EQ(train(BE, 16), CUDA_SUCCESS);
  D.userRecord(E, BE);
  D.marker(BE, "copy");
  D.userWaitEvent(Other, E);
  D.marker(Other, "consumer");
  for (int I = 0; I < 3; ++I) { // urgent requests arrive repeatedly
    D.run(7);
    ASSERT_EQ(infer(RT), CUDA_SUCCESS);
    for (int K = 0; K < 30; ++K) {
      D.step();
      S->poll();
    }
  }
  finish();
  expectExactlyOnce();
  const uint64_t Done = job(pre(Train)).LastCompleteStep;
  EXPECT_GT(D.Markers["copy"], Done);
  EXPECT_GT(D.Markers["consumer"], Done);
  EXPECT_GE(stats().preemptions, 2u);
}

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

TEST_F(SchedTest, ControlBlocksAreReusedAndZeroedPerLaunch) {
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  finish();
  const uint64_t First = D.Jobs.at(0).Ctl;
  const unsigned Allocs = D.Allocs;
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  finish();
  EXPECT_EQ(D.Jobs.at(1).Ctl, First); // same block, no new allocation
  EXPECT_EQ(D.Allocs, Allocs);
  expectExactlyOnce(); // the memset cleared the done bits of the first launch
  // A bigger grid needs a bigger block.
  ASSERT_EQ(train(BE, 1000), CUDA_SUCCESS);
  finish();
  EXPECT_NE(D.Jobs.at(2).Ctl, First);
  expectExactlyOnce();
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

TEST_F(SchedTest, RelaunchItselfCanBePreempted) {
  D.Kernels[FTrainPre].Iters = 6;
  ASSERT_EQ(train(BE, 12), CUDA_SUCCESS);
  D.marker(BE, "after");
  D.run(8);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  // Let the urgent work finish and the relaunch start.
  for (int I = 0; I < 40 && stats().relaunches == 0; ++I) {
    D.step();
    S->poll();
  }
  ASSERT_EQ(stats().relaunches, 1u);
  D.run(10);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  EXPECT_EQ(stats().preemptions, 2u);
  finish();
  expectExactlyOnce();
  EXPECT_EQ(stats().relaunches, 2u);
  EXPECT_GT(D.Markers["after"], job(pre(Train)).LastCompleteStep);
}

TEST_F(SchedTest, NumericLevelsAreStrictlyOrdered) {
  CUstream Mid = D.userStream();
  ASSERT_EQ(S->setStreamPriority(Mid, 5), GMEM_SUCCESS);
  D.Kernels[FTrainPre].Iters = 8;
  ASSERT_EQ(train(BE, 8), CUDA_SUCCESS);
  D.run(4);
  ASSERT_EQ(accum(Mid, 8), CUDA_SUCCESS); // level 5 stops level 0
  EXPECT_EQ(stats().preemptions, 1u);
  D.run(6);
  ASSERT_EQ(infer(RT, 4), CUDA_SUCCESS); // real-time stops level 5
  EXPECT_EQ(stats().preemptions, 2u);
  finish();
  expectExactlyOnce();
  EXPECT_LT(job(Infer).LastCompleteStep, job(pre(Accum)).LastCompleteStep);
  EXPECT_LT(job(pre(Accum)).LastCompleteStep, job(pre(Train)).LastCompleteStep);
}

TEST_F(SchedTest, PriorityInversionIsResolvedByForcedResume) {
  O.MaxHoldNs = 1000000; // 1 ms
  make();
  CUevent E;
  ASSERT_EQ(D.eventCreate(&E, CU_EVENT_DISABLE_TIMING), CUDA_SUCCESS);
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.userRecord(E, BE);
  D.run(5);
  D.userWaitEvent(RT, E); // urgent work depends on the best-effort kernel
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  S->poll();
  EXPECT_FALSE(job(pre(Train)).complete()); // stuck: each waits for the other
  std::this_thread::sleep_for(std::chrono::milliseconds(3));
  finish();
  expectExactlyOnce();
  EXPECT_EQ(stats().forced_resumes, 1u);
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

TEST_F(SchedTest, FlushResumesEverything) {
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.run(5);
  ASSERT_EQ(infer(RT, 1), CUDA_SUCCESS);
  D.settle();
  // The urgent work is done, but nobody polled: a flush resumes.
  EXPECT_FALSE(job(pre(Train)).complete());
  EXPECT_EQ(gmemSchedFlush(0), GMEM_ERROR_NO_LAUNCH); // relaunch queued, not run
  finish();
  expectExactlyOnce();
  EXPECT_EQ(gmemSchedFlush(0), GMEM_SUCCESS);
}

// --- ABI version 2 -------------------------------------------------------------

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
  finish();
  expectExactlyOnce();
  EXPECT_EQ(job(pre(Pers)).Completed.size(), 60u);
  EXPECT_GT(D.Markers["after"], job(pre(Pers)).LastCompleteStep);
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
  // 2^31 virtual CTAs do not fit the 32-bit tickets; 2^31 - 1 do.
  ASSERT_EQ(pers(BE, {65536, 32768, 1}, true, {32, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 4);
  EXPECT_EQ(D.count("wait BE"), 4u); // all gated
  EXPECT_TRUE(D.CloneLaunches.empty());
  EXPECT_EQ(stats().preemptible, 0u);
  ASSERT_EQ(pers(BE, {0x7fffffffu, 1, 1}, true, {32, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(OriginalCalls, 4);
  ASSERT_EQ(D.CloneLaunches.size(), 1u);
  EXPECT_EQ(D.CloneLaunches[0].Grid[0], 8u);
  EXPECT_EQ(D.CloneLaunches[0].UserGrid[0], 0x7fffffffu);
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
  // The relaunch must not ask again: a smaller P would strand redo words.
  D.Kernels[FPersPre].Occupancy = 1;
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  D.settle();
  EXPECT_EQ(D.word(Ctl), 2u);
  EXPECT_FALSE(job(pre(Pers)).complete());
  unsigned Redo = 0;
  for (unsigned W = 0; W < 16; ++W)
    Redo += D.word(Ctl + 8 + 4 * W) != 0;
  EXPECT_EQ(Redo, 8u); // each CTA was cut in a loop and left its ticket
  EXPECT_EQ(D.word(Ctl + 4), 8u); // next: 8 tickets taken
  EXPECT_EQ(D.Markers.count("after"), 0u);
  finish();
  expectExactlyOnce();
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
  EXPECT_EQ(D.count("memset BE"), 1u); // next and redo survive the relaunch
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
  const uint32_t Next = D.word(Ctl + 4);
  EXPECT_LT(Next, 64u);
  for (int I = 0; I < 40 && stats().relaunches == 0; ++I) {
    D.step();
    S->poll();
  }
  ASSERT_EQ(stats().relaunches, 1u);
  D.run(10);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS); // the relaunch is stopped in turn
  D.settle();
  EXPECT_GT(D.word(Ctl + 4), Next); // it went on from where the first instance stopped
  EXPECT_LT(D.word(Ctl + 4), 64u);
  EXPECT_FALSE(job(pre(Pers)).complete());
  finish();
  expectExactlyOnce();
  for (auto &CL : D.CloneLaunches)
    EXPECT_EQ(CL.Grid[0], 8u);
  EXPECT_EQ(D.CloneLaunches.size(), 3u);
  EXPECT_EQ(stats().preemptions, 2u);
  EXPECT_EQ(stats().preemptions_loop, 0u);
}

// Timed launches on idle streams (SchedOptions::LatchIdleTimings,
// Scheduler::latch, SchedLatch.cpp): a launch the chooser wants timed (a
// clone form or the kernel as compiled) that finds its stream idle waits for
// the context's latch counter in front of its start mark; the counter lives
// in pinned host memory, and the host raises it only once the launch and
// its end mark are on the stream (else the time would hold the rest of the
// host's launch call). Behind other work there is no latch; a launch the
// driver refuses still opens its latch; a latch left shut too long (the
// launching thread stalled in the driver) is opened by the watchdog and
// that time dropped; GMEM_PREEMPT_LATCH=0 turns it off.
#include "SchedulerTestFixture.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {

struct TimingTest : SchedTest {
  void SetUp() override {
    SchedTest::SetUp();
    O.ShortUs = 10;
    O.LatchIdleTimings = true;
    make();
  }
  /// One launch of the short-shaped kernel (4 us on the fake GPU), finished.
  void launch() {
    D.ElapsedMs = 0.004f;
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
    finish(); // the stream is idle at the next launch
  }
  /// The index in D.Calls of the first call starting with Prefix at or
  /// after From (Calls.size() if none).
  size_t find(const std::string &Prefix, size_t From = 0) const {
    for (size_t I = From; I < D.Calls.size(); ++I)
      if (D.Calls[I].rfind(Prefix, 0) == 0)
        return I;
    return D.Calls.size();
  }
  static bool isLatchWait(const std::string &Call, const std::string &Stream) {
    return Call.rfind("wait " + Stream, 0) == 0 && Call.find(">=") != std::string::npos;
  }
  /// The latch waits on BE among the calls (the gates' test is == 0).
  size_t latchWaits() const {
    return size_t(std::count_if(D.Calls.begin(), D.Calls.end(),
                                [&](const std::string &C) { return isLatchWait(C, D.name(BE)); }));
  }
  /// The index of the first latch wait on BE at or after From.
  size_t latchWait(size_t From = 0) const {
    for (size_t I = From; I < D.Calls.size(); ++I)
      if (isLatchWait(D.Calls[I], D.name(BE)))
        return I;
    return D.Calls.size();
  }
  /// A shape of D.ElapsedMs: its clone (untimed: the form's first launch,
  /// then timed), up to and including its first time as compiled (the
  /// kernel's first launch: not latched), each launch finished.
  void untilTheFirstOriginal() {
    for (int I = 0; I < 10 && OriginalCalls == 0; ++I) {
      EXPECT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
      finish();
    }
    EXPECT_EQ(OriginalCalls, 1);
  }
  /// A shape of 12 us (over the limit of 10): untilTheFirstOriginal, then
  /// launches up to its next time as compiled (at once: the first was
  /// provisional), which is left on the stream unfinished, its calls in
  /// D.Calls; returns that launch's result.
  CUresult untilTheSecondOriginal() {
    D.ElapsedMs = 0.012f;
    untilTheFirstOriginal();
    for (int I = 0; I < 200; ++I) {
      D.Calls.clear();
      const CUresult R = pers(BE, {40, 1, 1});
      if (OriginalCalls > 1)
        return R;
      finish();
    }
    ADD_FAILURE() << "no time as compiled again in 200 launches";
    return CUDA_ERROR_UNKNOWN;
  }
  /// The value a latch wait names (after its last '=').
  static std::string valueOf(const std::string &Call) { return Call.substr(Call.rfind('=') + 1); }
  static uint32_t numberOf(const std::string &Call) { return uint32_t(std::stoul(valueOf(Call))); }
  /// The latch counter as the host has it now.
  uint32_t latchNow() const {
    return D.HostMapped.empty() ? 0 : D.word(D.HostMapped.begin()->first);
  }
  /// The counter was below V at calls [From, To] (the latch still shut).
  void expectShutThrough(uint32_t V, size_t From, size_t To) const {
    for (size_t I = From; I <= To && I < D.HostWordAtCall.size(); ++I)
      EXPECT_LT(int32_t(D.HostWordAtCall[I] - V), 0) << "open at call " << I << ": " << D.Calls[I];
  }
};

} // namespace

TEST_F(TimingTest, AFunctionsFirstLaunchIsNeverLatched) {
  // The driver may wait for the context's streams at a function's first
  // launch in the context (a printf kernel's does), the latched one among
  // them. A clone form's first launch on an idle stream is therefore not
  // timed (its time would hold the host's launch call) and the next one is,
  // behind the latch; the kernel's first time as compiled goes unlatched
  // (and is provisional: ShortChooser tests).
  launch(); // the clone's first launch
  EXPECT_EQ(cloneStats().timed_launches, 0u);
  EXPECT_EQ(latchWaits(), 0u);
  launch(); // the clone again, timed
  EXPECT_EQ(cloneStats().timed_launches, 1u);
  EXPECT_EQ(cloneStats().latched_timings, 1u);
  launch(); // the original, timed
  EXPECT_EQ(OriginalCalls, 1);
  EXPECT_EQ(cloneStats().timed_launches, 2u);
  EXPECT_EQ(cloneStats().latched_timings, 1u);
  expectExactlyOnce();
}

TEST_F(TimingTest, FirstLaunchesAreLatchedOnlyForDiagnostics) {
  // GMEM_PREEMPT_LATCH_FIRST=1: the clone's first launch is latched too
  // (a first launch the driver holds then leaves the latch to the watchdog:
  // a way to see such launches).
  O.LatchFirstLaunches = true;
  make();
  launch();
  EXPECT_EQ(latchWaits(), 1u);
  EXPECT_EQ(cloneStats().latched_timings, 1u);
  expectExactlyOnce();
}

TEST_F(TimingTest, TheWatchdogThreadOpensALatchWhoseLauncherStalls) {
  // With the background threads on: the launching thread sleeps inside
  // the original's launch call for ten watchdog limits; the watchdog
  // thread opens the latch meanwhile (the fake GPU is not stepped then).
  O.MonitorThread = true;
  O.LatchWatchdogNs = 1000000;
  make();
  D.ElapsedMs = 0.012f;
  untilTheFirstOriginal();
  uint32_t Seen = 0;
  DuringOriginal = [&] {
    const uint64_t End = nowNs() + 10 * O.LatchWatchdogNs;
    while (nowNs() < End && cloneStats().latch_watchdog_opens == 0)
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    Seen = latchNow();
  };
  for (int I = 0; I < 200 && OriginalCalls == 1; ++I) {
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
    finish();
  }
  DuringOriginal = nullptr;
  ASSERT_EQ(OriginalCalls, 2);
  EXPECT_EQ(cloneStats().latch_watchdog_opens, 1u);
  EXPECT_NE(Seen, 0u) << "still shut during the stall";
  EXPECT_TRUE(D.idle());
  S->shutdown();
}

TEST_F(TimingTest, ACloneTimedOnAnIdleStreamStartsBehindTheLatch) {
  launch(); // the clone's first launch: neither latched nor timed
  D.Calls.clear();
  ASSERT_EQ(pers(BE, {41, 1, 1}), CUDA_SUCCESS); // a new shape: the clone, timed at once
  // Order on the host: the latch wait, the start mark, the clone, its
  // drain mark, hold wait, done and end marks, all while the counter is
  // below the wait's value; the host raises it to that value only then.
  const size_t Wait = latchWait();
  ASSERT_LT(Wait, D.Calls.size());
  const uint32_t V = numberOf(D.Calls[Wait]);
  EXPECT_NE(V, 0u);
  EXPECT_EQ(find("record " + D.name(BE), Wait), Wait + 1) << "the start mark follows the latch";
  const size_t Clone = find("launch " + D.name(BE), Wait);
  ASSERT_LT(Clone, D.Calls.size());
  size_t Last = Clone;
  for (size_t I = Clone; I < D.Calls.size(); ++I)
    if (D.Calls[I].find(" " + D.name(BE)) != std::string::npos)
      Last = I;
  expectShutThrough(V, Wait, Last);
  EXPECT_EQ(latchNow(), V) << "the latch was never opened";
  EXPECT_EQ(D.count("write "), 0u) << "no driver call opens it";
  finish(); // the stream passes the latch
  EXPECT_EQ(cloneStats().timed_launches, 1u);
  EXPECT_EQ(cloneStats().latched_timings, 1u);
  expectExactlyOnce();
}

TEST_F(TimingTest, TheOriginalOnAnIdleStreamStartsBehindTheLatch) {
  ASSERT_EQ(untilTheSecondOriginal(), CUDA_SUCCESS);
  // Order on the host: the latch wait (after the gate's), the start mark,
  // the kernel, the end mark, all while the counter is below the wait's
  // value; the host raises it only then.
  const size_t Wait = latchWait();
  ASSERT_LT(Wait, D.Calls.size());
  const uint32_t V = numberOf(D.Calls[Wait]);
  const size_t Start = find("record " + D.name(BE), Wait);
  const size_t End = find("record " + D.name(BE), Start + 1);
  ASSERT_LT(End, D.Calls.size());
  expectShutThrough(V, Wait, End);
  ASSERT_FALSE(LatchAtOriginal.empty());
  EXPECT_LT(int32_t(LatchAtOriginal.back() - V), 0) << "opened before the kernel was launched";
  EXPECT_EQ(latchNow(), V) << "the latch was never opened";
  const uint64_t Latched = cloneStats().latched_timings;
  EXPECT_GE(Latched, 1u);
  D.ElapsedMs = 0.004f; // what this timing reads: the kernel is short after all
  finish();
  EXPECT_EQ(cloneStats().idle_timing_skips, 0u);
  launch(); // 4 us: short now, ungated, untimed, no latch
  EXPECT_EQ(cloneStats().short_ungated_launches, 1u);
  EXPECT_EQ(cloneStats().latched_timings, Latched);
  expectExactlyOnce();
}

TEST_F(TimingTest, EveryLatchWaitsForAValueNoEarlierOneDid) {
  // The counter only rises: each latched launch waits for a higher value,
  // or the wait would pass at once. Here the shape is never short (12 us),
  // so the clone and, every 64th launch, the kernel as compiled are timed
  // again, on an idle stream.
  D.ElapsedMs = 0.012f;
  std::vector<long long> Values;
  for (int I = 0; I < 200; ++I) {
    D.Calls.clear();
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
    const size_t Wait = latchWait();
    if (Wait < D.Calls.size())
      Values.push_back(std::stoll(valueOf(D.Calls[Wait])));
    finish();
  }
  ASSERT_GE(Values.size(), 3u);
  for (size_t I = 1; I < Values.size(); ++I)
    EXPECT_GT(Values[I], Values[I - 1]);
  EXPECT_EQ(cloneStats().latched_timings, Values.size());
  expectExactlyOnce();
}

TEST_F(TimingTest, TwoStreamsLatchedInTurnBothPass) {
  // A later value opens an earlier wait too (the wait is for "at least"):
  // two idle streams, each with a timed launch, go on whichever write lands
  // first.
  launch(); // the clone's first launch: not latched
  const uint64_t Before = cloneStats().latched_timings;
  D.ElapsedMs = 0.004f;
  CUstream Other = D.userStream(); // best effort, as BE (the process's level)
  D.Names[Other] = "OT";
  ASSERT_EQ(pers(BE, {41, 1, 1}), CUDA_SUCCESS);
  ASSERT_EQ(pers(Other, {42, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(cloneStats().latched_timings, Before + 2);
  finish();
  EXPECT_TRUE(D.idle());
  expectExactlyOnce();
}

TEST_F(TimingTest, TheOriginalBehindWorkOnItsStreamIsTimedWithoutALatch) {
  launch();
  D.Kernels[FTrainPre].Iters = 10;
  ASSERT_EQ(train(BE), CUDA_SUCCESS); // still running at the next launch
  const uint64_t Latched = cloneStats().latched_timings; // the clones' (idle streams)
  const uint64_t Before = cloneStats().timed_launches;
  D.Calls.clear();
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
  EXPECT_EQ(cloneStats().timed_launches, Before + 1);
  EXPECT_EQ(cloneStats().latched_timings, Latched);
  EXPECT_EQ(latchWaits(), 0u);
  finish();
  expectExactlyOnce();
}

TEST_F(TimingTest, AnOriginalTheDriverRefusesStillOpensItsLatch) {
  // Only the kernel as compiled fails (the clones' launches call no
  // original): the second time as compiled, latched, gets the error.
  D.ElapsedMs = 0.012f;
  untilTheFirstOriginal();
  FailOriginals = true;
  CUresult R = CUDA_SUCCESS;
  for (int I = 0; I < 200 && R == CUDA_SUCCESS; ++I) {
    D.Calls.clear();
    R = pers(BE, {40, 1, 1});
    if (R == CUDA_SUCCESS)
      finish();
  }
  EXPECT_EQ(R, CUDA_ERROR_INVALID_VALUE); // its error, as asked
  const size_t Wait = latchWait();
  ASSERT_LT(Wait, D.Calls.size());
  EXPECT_EQ(latchNow(), numberOf(D.Calls[Wait])) << "the latch was never opened";
  FailOriginals = false;
  // The stream goes on: a later launch on it runs and finishes.
  D.ElapsedMs = 0.004f;
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  finish();
  EXPECT_TRUE(D.idle());
}

TEST_F(TimingTest, ALatchShutTooLongIsOpenedByTheWatchdogAndItsTimeDropped) {
  // The launching thread stalls inside the original's launch call (the
  // driver waiting for the context's streams, a descheduled thread): the
  // watchdog's round, the watchdog limit later, opens the latch; that
  // launch's time holds the stall and is dropped, so the due timing stays
  // due and the next launch is timed as compiled again.
  D.ElapsedMs = 0.012f;
  untilTheFirstOriginal(); // (its time is provisional: the next is due)
  unsigned Early = 1, Opened = 0;
  bool Pending = false;
  DuringOriginal = [&] {
    Early = S->watchLatches(nowNs(), &Pending); // a fresh latch: left alone
    Opened += S->watchLatches(nowNs() + O.LatchWatchdogNs + 1);
  };
  for (int I = 0; I < 200 && OriginalCalls == 1; ++I) {
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
    finish();
  }
  DuringOriginal = nullptr;
  ASSERT_EQ(OriginalCalls, 2);
  EXPECT_EQ(Early, 0u);
  EXPECT_TRUE(Pending);
  EXPECT_EQ(Opened, 1u);
  EXPECT_EQ(cloneStats().latch_watchdog_opens, 1u);
  EXPECT_TRUE(D.idle());
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS); // still due: as compiled, timed
  EXPECT_EQ(OriginalCalls, 3);
  finish();
  ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS); // that time came: the clone
  EXPECT_EQ(OriginalCalls, 3);
  finish();
  bool After = true;
  EXPECT_EQ(S->watchLatches(nowNs() + O.LatchWatchdogNs + 1, &After), 0u);
  EXPECT_FALSE(After) << "nothing shut";
  expectExactlyOnce();
}

TEST_F(TimingTest, ACloneTimeWhoseLatchTheWatchdogOpenedIsDropped) {
  // The launching thread stalls inside the clone's launch call: the
  // watchdog opens its latch, and the time (which holds the stall) never
  // reaches the chooser, which asks for the clone's time again instead of
  // moving on to the kernel as compiled (a clone time within 3x the short
  // limit is what makes the shape time its original).
  launch(); // the clone's first launch: neither latched nor timed
  unsigned Opened = 0;
  D.OnCloneLaunch = [&] { Opened += S->watchLatches(nowNs() + O.LatchWatchdogNs + 1); };
  launch(); // the clone, timed behind the latch: dropped
  D.OnCloneLaunch = nullptr;
  EXPECT_EQ(Opened, 1u);
  EXPECT_EQ(cloneStats().latch_watchdog_opens, 1u);
  const uint64_t Timed = cloneStats().timed_launches;
  launch(); // still no clone time: the clone again, timed
  EXPECT_EQ(OriginalCalls, 0);
  EXPECT_EQ(cloneStats().timed_launches, Timed + 1);
  launch(); // its time came: the kernel as compiled, timed
  EXPECT_EQ(OriginalCalls, 1);
  expectExactlyOnce();
}

TEST_F(TimingTest, AFailedCloneOpensItsLatchBeforeTheOriginalRuns) {
  // The original then runs in its place: that launch may be its function's
  // first (where the driver may wait for the streams), so it must not sit
  // behind the latch.
  launch(); // the clone's first launch: neither latched nor timed
  D.FailCloneLaunches = true;
  D.Calls.clear();
  const int Before = OriginalCalls;
  ASSERT_EQ(pers(BE, {41, 1, 1}), CUDA_SUCCESS); // a new shape: timed, latched, refused
  ASSERT_EQ(OriginalCalls, Before + 1);
  const size_t Wait = latchWait();
  ASSERT_LT(Wait, D.Calls.size());
  EXPECT_EQ(LatchAtOriginal.back(), numberOf(D.Calls[Wait]))
      << "the original was put behind the shut latch";
  D.FailCloneLaunches = false;
  finish();
  EXPECT_TRUE(D.idle());
}

TEST_F(TimingTest, NoLatchWithoutPinnedHostMemory) {
  D.RefuseHostAlloc = true;
  make();
  for (int I = 0; I < 5; ++I)
    launch();
  D.ElapsedMs = 0.012f;
  for (int I = 0; I < 100; ++I) {
    ASSERT_EQ(pers(BE, {40, 1, 1}), CUDA_SUCCESS);
    finish();
  }
  EXPECT_EQ(latchWaits(), 0u);
  EXPECT_EQ(cloneStats().latched_timings, 0u);
  EXPECT_GE(cloneStats().timed_launches, 3u);
  expectExactlyOnce();
}

TEST_F(TimingTest, NoLatchWhenTurnedOff) {
  O.LatchIdleTimings = false;
  make();
  for (int I = 0; I < 5; ++I)
    launch();
  EXPECT_EQ(latchWaits(), 0u);
  EXPECT_EQ(cloneStats().latched_timings, 0u);
  EXPECT_GE(cloneStats().timed_launches, 2u);
  expectExactlyOnce();
}

TEST(TimingOptions, LatchFromTheEnvironment) {
  expectSwitchFromEnvironment("GMEM_PREEMPT_LATCH", &SchedOptions::LatchIdleTimings);
  expectSwitchFromEnvironment("GMEM_PREEMPT_LATCH_FIRST", &SchedOptions::LatchFirstLaunches,
                              false);
}

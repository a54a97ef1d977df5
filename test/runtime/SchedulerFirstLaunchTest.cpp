// An urgent launch the driver may hold until the context's streams are idle
// (a function's first launch in the context: a printf kernel's sets up the
// printf buffer there) while a lower level waits at its closed gate: the
// monitor must be able to open that gate meanwhile, so the launch call is
// made without the scheduler's lock (Scheduler::firstHere). Later launches
// of the same function keep the lock (the usual path). Checked by polling
// from another thread during the call: poll() takes the lock.
#include "SchedulerTestFixture.h"

#include <atomic>
#include <chrono>
#include <thread>

using namespace gmem::rt;
using namespace gmem::rt::sched;
using namespace gmem::rt::sched::test;

namespace {

struct FirstLaunchTest : SchedTest {
  /// Polls from another thread during the next original; whether that poll
  /// finished within Ms while the call was in progress. The thread is
  /// joined once the launch has returned.
  void pollDuringOriginal(bool &Finished, std::thread &T, int Ms = 200) {
    DuringOriginal = [&, Ms] {
      auto Done = std::make_shared<std::atomic<bool>>(false);
      T = std::thread([this, Done] {
        S->poll();
        *Done = true;
      });
      const auto End = std::chrono::steady_clock::now() + std::chrono::milliseconds(Ms);
      while (!*Done && std::chrono::steady_clock::now() < End)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      Finished = *Done;
    };
  }
};

} // namespace

TEST_F(FirstLaunchTest, AnUrgentFirstLaunchWhileAGateIsClosedLeavesTheLockToTheMonitor) {
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.run(3);
  ASSERT_EQ(train(BE), CUDA_SUCCESS); // queued behind it, behind the gate
  bool Finished = false;
  std::thread T;
  pollDuringOriginal(Finished, T);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS); // suppresses BE, then its first launch
  if (T.joinable())
    T.join();
  DuringOriginal = nullptr;
  EXPECT_TRUE(Finished) << "the monitor could not take the lock during the call";
  finish();
  expectExactlyOnce();
}

TEST_F(FirstLaunchTest, LaterUrgentLaunchesKeepTheLock) {
  ASSERT_EQ(infer(RT), CUDA_SUCCESS); // its first launch (nothing to suppress)
  finish();
  ASSERT_EQ(train(BE), CUDA_SUCCESS);
  D.run(3);
  bool Finished = true;
  std::thread T;
  pollDuringOriginal(Finished, T, 50);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS); // suppresses BE; not a first launch
  if (T.joinable())
    T.join(); // (its poll ran once the call returned)
  DuringOriginal = nullptr;
  EXPECT_FALSE(Finished) << "the usual path held no lock";
  finish();
  expectExactlyOnce();
}

TEST_F(FirstLaunchTest, AFirstLaunchWithNothingHeldKeepsTheLock) {
  // No level below has run: nothing to suppress, no gate closed. (After any
  // lower-level launch an urgent one suppresses that level on arrival, busy
  // or not, and then a first launch does leave the lock.)
  bool Finished = true;
  std::thread T;
  pollDuringOriginal(Finished, T, 50);
  ASSERT_EQ(infer(RT), CUDA_SUCCESS);
  if (T.joinable())
    T.join();
  DuringOriginal = nullptr;
  EXPECT_FALSE(Finished);
  finish();
  expectExactlyOnce();
}

// The timing latch and its watchdog.
//
// A timed launch on an idle stream first waits for a counter to reach a new
// value, raised once the launch and its end mark are on the stream (else the
// start mark passes at once and the time holds the rest of the host's launch
// call: Scheduler::latch). The counter lives in pinned host memory and the
// host raises it with a plain store: no driver call, so nothing the driver
// holds can keep it shut.
//
// But the thread that opens it is the one inside the launch call, and a
// driver that waits for the context's streams inside that call waits for the
// latched stream: nothing would ever open it. The first launch of a kernel
// that calls printf does so (the driver sets up the printf buffer; H200,
// driver 580, lazy and eager loading alike: 1 of 348 first launches latched
// with GMEM_PREEMPT_LATCH_FIRST=1 stalled, bench/preempt/results/session32),
// and it hung the runtime GPU suite in session 31. So a function's first
// launch in a context is never latched, and the watchdog thread opens any
// latch that stays shut for SchedOptions::LatchWatchdogNs, for the cases
// nobody listed: that launch then starts late and its time is dropped, no
// more.
#include "Scheduler.h"

#include <cstdio>

namespace gmem {
namespace rt {
namespace sched {
namespace {

/// Raises the counter at W to V across its wrap; false when it was at V or
/// beyond already (another opener was first).
bool raiseCounter(uint32_t *W, uint32_t V) {
  uint32_t Cur = __atomic_load_n(W, __ATOMIC_ACQUIRE);
  while (int32_t(V - Cur) > 0)
    if (__atomic_compare_exchange_n(W, &Cur, V, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      return true;
  return false;
}

/// Watchdog rounds without a latch before its thread idles.
constexpr unsigned QuietRounds = 64;

} // namespace

uint32_t Scheduler::latch(Context &C, CUstream S, bool FunctionLaunched, const char *Kernel) {
  // On an idle stream a start mark passes at once and the kernel starts
  // only when the driver has taken the launch, partway through the host's
  // call: a program that waits for each kernel would have every time hold
  // ~3 us of host work (H200: softmax_rows, 5.9 us as compiled, then never
  // ran short; gemv_warp's clone, 67 us, was timed 5% slow at random and
  // its forms' 2% comparison went either way). So the stream first waits
  // for the context's latch counter to reach a new value, which the host
  // stores once the launch and its end mark are on the stream.
  // Never before a function's first launch in the context: the driver may
  // set things up for it there (a printf kernel's buffer) and wait for the
  // context's streams, the latched one among them, whose latch opens only
  // after the launch returns (the watchdog would open it, 2 ms late).
  if (!C.LatchHost || firstUnlatched(C, FunctionLaunched))
    return 0;
  uint32_t V = C.LatchSeq + 1;
  if (V == 0)
    V = 1; // (the counter's wrap: 0 is where it starts)
  if (D.streamWaitGeq(S, C.LatchDev, V) != CUDA_SUCCESS)
    return 0;
  C.LatchSeq = V;
  C.LatchKernel.store(Kernel, std::memory_order_relaxed);
  C.LatchSinceNs.store(nowNs(), std::memory_order_relaxed);
  C.LatchPending.store(V, std::memory_order_seq_cst);
  N.LatchedTimings.fetch_add(1, std::memory_order_relaxed);
  armLatchWatch();
  return V;
}

bool Scheduler::openLatch(Context &C, uint32_t Value) {
  if (!Value)
    return true;
  C.LatchPending.store(0, std::memory_order_release);
  return raiseCounter(C.LatchHost, Value);
}

unsigned Scheduler::watchLatches(uint64_t Now, bool *Pending) {
  std::vector<Context *> Cs;
  {
    std::lock_guard<std::mutex> Lock(ContextsMu);
    for (auto &P : Contexts)
      if (P->Ready && !P->Dead && P->LatchHost)
        Cs.push_back(P.get());
  }
  unsigned Opened = 0;
  bool Shut = false;
  for (Context *C : Cs) {
    // Since is stored before Pending: the time read is this latch's or a
    // later one's (never makes a fresh latch look old).
    const uint32_t V = C->LatchPending.load(std::memory_order_seq_cst);
    if (!V)
      continue;
    const uint64_t Since = C->LatchSinceNs.load(std::memory_order_relaxed);
    if (Now < Since || Now - Since < Opts.LatchWatchdogNs) {
      Shut = true;
      continue;
    }
    if (!raiseCounter(C->LatchHost, V))
      continue;
    ++Opened;
    // The first few are reported, with the kernel (a pointer to its
    // symbol, kept for the process's life; possibly a later latch's name
    // where that one raced this round).
    if (N.LatchWatchdogOpens.fetch_add(1, std::memory_order_relaxed) < 8) {
      const char *K = C->LatchKernel.load(std::memory_order_relaxed);
      error("a timing latch of a launch of %s stayed shut %.1f ms (its launch call blocked or "
            "descheduled); the watchdog opened it and that time is dropped",
            K ? K : "?", double(Now - Since) * 1e-6);
    }
  }
  if (Pending)
    *Pending = Shut;
  return Opened;
}

void Scheduler::armLatchWatch() {
  if (!Opts.MonitorThread || WatchArmed.exchange(true, std::memory_order_seq_cst))
    return; // (armed already: the thread polls)
  std::lock_guard<std::mutex> Lock(WatchMu);
  if (!WatchStarted && !WatchStop) {
    WatchStarted = true;
    Watch = std::thread([this] { latchWatchMain(); });
    shutdownAtExit();
  }
  WatchCv.notify_one();
}

void Scheduler::latchWatchMain() {
  const auto Round = std::chrono::nanoseconds(std::max<uint64_t>(Opts.LatchWatchdogNs / 2, 1000));
  std::unique_lock<std::mutex> Lock(WatchMu);
  unsigned Quiet = 0;
  uint64_t Seen = N.LatchedTimings.load(std::memory_order_relaxed);
  while (!WatchStop) {
    if (!WatchArmed.load(std::memory_order_seq_cst)) {
      WatchCv.wait(Lock, [&] { return WatchStop || WatchArmed.load(std::memory_order_seq_cst); });
      continue;
    }
    if (WatchCv.wait_for(Lock, Round, [&] { return WatchStop; }))
      break;
    Lock.unlock();
    bool Shut = false;
    watchLatches(nowNs(), &Shut);
    Lock.lock();
    const uint64_t Taken = N.LatchedTimings.load(std::memory_order_relaxed);
    if (Shut || Taken != Seen) {
      Quiet = 0;
      Seen = Taken;
      continue;
    }
    if (++Quiet < QuietRounds)
      continue;
    // Idle. A latch taken while this thread decided so found it armed and
    // did not wake it: look once more after disarming, and stay armed if
    // one is shut (its taker's exchange came before ours, so its pending
    // value is visible here, unless it is open already).
    Quiet = 0;
    WatchArmed.store(false, std::memory_order_seq_cst);
    Lock.unlock();
    watchLatches(nowNs(), &Shut);
    Lock.lock();
    if (Shut)
      WatchArmed.store(true, std::memory_order_seq_cst);
  }
}

} // namespace sched
} // namespace rt
} // namespace gmem

// libgmemrt's preemptive priority scheduler (docs/PREEMPTION_DESIGN.md,
// "Scheduler").
//
// Launches are never held on the host. A launch below real-time priority
// is enqueued at once, but gated on the GPU:
//
//   [memset ctl] [wait gate[level] == 0] [clone(args, ctl)] [event drain]
//   [wait ctl.hold == 0] [event done]
//
// An urgent launch closes the gates of the lower levels (everything of
// theirs not yet started stays where it is) and asks the one launch per
// stream that may be running to stop (hold = 1, then request = 1 or 2, on a
// high-priority control stream). When no urgent work is left, each stopped
// launch is relaunched on a companion stream (finished CTAs are skipped) and
// its hold is cleared once a relaunch has run to the end: the program's
// stream continues only after the launch really finished, so stream order,
// events, host functions and copies the program enqueued afterwards stay
// correct without intercepting them.
//
// The launch as the hooks hand it over is in SchedLaunch.h, the options in
// SchedOptions.h.
#pragma once

#include "HostCounters.h"
#include "PreemptControl.h"
#include "SchedDriver.h"
#include "SchedLaunch.h"
#include "SchedOptions.h"
#include "SchedPolicy.h"

#include "gmem/gmem_sched.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace gmem {
namespace rt {

struct LaunchRecord;

namespace sched {

/// Monotonic time in ns (the scheduler's clock for waits and statistics).
inline uint64_t nowNs() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

class Scheduler {
public:
  Scheduler(SchedDriver &D, const SchedOptions &O);
  ~Scheduler();
  Scheduler(const Scheduler &) = delete;
  Scheduler &operator=(const Scheduler &) = delete;

  /// The process's scheduler (options from the environment).
  static Scheduler &global();
  /// The scheduler the launch hooks use when it is active, else null (one
  /// atomic load once constructed).
  static Scheduler *activeInstance();
  /// Tests: make S the target of the hooks and the C API (null: back).
  static void setGlobalForTesting(Scheduler *S);
  /// Whether S is the process's scheduler (constructed by global()).
  static bool isProcessScheduler(const Scheduler *S);

  bool active() const { return Active.load(std::memory_order_acquire); }
  /// What this scheduler will do with a launch on a stream (asked once per
  /// launch by the hooks, before the runtime's decision).
  StreamRole roleOf(CUstream Raw, bool PerThreadStream) const;
  /// With GMEM_SCHED_L2=persist, after a top-priority launch on an explicit
  /// stream was evaluated: the largest allocation it only reads becomes the
  /// stream's L2 persisting window unless the window already covers a
  /// larger one. (Training-like kernels beside a latency-critical chain
  /// evict its weights from L2: measured 10 us of a 145 us chain on the
  /// H200, bench/colocation/results/diag.) A performance hint only.
  void keepUrgentReadsInL2(CUstream Raw, const LaunchRecord *Rec);

  /// A launch: passes it through, gates it, or launches its clone.
  CUresult launch(const SchedLaunch &L, const LaunchRecord *Rec, OriginalLaunch Original);

  /// One round of the monitor's work over every context: drain times,
  /// releases of finished relaunches, resumes. True while anything is
  /// suppressed or preempted (the thread keeps polling).
  bool poll();
  /// The latch watchdog's round (Opts.LatchWatchdogNs): opens every latch
  /// shut for that long, counts them; *Pending: a latch is still shut.
  /// Takes no context's lock. The number it opened.
  unsigned watchLatches(uint64_t Now, bool *Pending = nullptr);

  // C API.
  int enable(bool On);
  int setProcessPriority(int P);
  int processPriority() const { return ProcessPrio.load(std::memory_order_relaxed); }
  int setStreamPriority(CUstream S, int P);
  int streamPriority(CUstream S) const;
  int setPolicy(int Policy);
  void stats(gmemSchedStats *Out) const;
  void cloneStats(gmemSchedCloneStats *Out) const; ///< every field (Out->size is the caller's)
  int flush(int TimeoutMs);

  /// Resumes everything and stops the monitor (process exit).
  void shutdown();

  /// Around a call that may load code into the calling thread's current
  /// context (a kernel handle's first look-up, the program's own module,
  /// library and function loads): waits for quiet there and keeps stops
  /// off until endCodeLoad with what it returned (SchedFirstLaunch.cpp).
  /// Key (non-zero) names a look-up that loads only the first time (the
  /// same function of the same module or kernel): once one succeeded in
  /// the context, the same key neither waits nor holds stops off again (a
  /// runtime may repeat it at every launch). Loaded: whether the call
  /// succeeded.
  void *beginCodeLoad(uint64_t Key = 0);
  void endCodeLoad(void *Token, uint64_t Key = 0, bool Loaded = false);
  /// Whether the calling thread is inside launch() (a context's lock may
  /// be its own): a code load from there must not wait for quiet.
  static bool launchingHere();
  /// A module or library was unloaded: a new function may get an old one's
  /// handle, and local memory may shrink, so every function's next launch
  /// counts as its first again (SchedFirstLaunch.cpp).
  void forgetFunctions();

private:
  struct StreamKey {
    uint64_t Handle = 0, Thread = 0;
    bool operator==(const StreamKey &O) const { return Handle == O.Handle && Thread == O.Thread; }
  };
  struct StreamKeyHash {
    size_t operator()(const StreamKey &K) const {
      return std::hash<uint64_t>()(K.Handle * 0x9e3779b97f4a7c15ull ^ K.Thread);
    }
  };
  struct StreamState {
    CUstream Handle = nullptr;
    std::vector<Slot *> Slots; ///< tracked preemptible launches, oldest first
    CUstream Companion = nullptr; ///< relaunches (lowest priority)
    /// Levels above best effort launched here since the stream was last
    /// seen idle (cuStreamQuery; the per-thread default stream, which only
    /// its own thread can name, records Tail after each launch instead).
    uint32_t BusyLevels = 0;
    CUevent Tail = nullptr;
    uint64_t L2AllocBytes = 0; ///< size of the allocation the L2 window covers
    /// Work of short launches put on the stream without a gate wait since
    /// its latest gate or clone (Scheduler::shortLaunch), in us.
    double UngatedUs = 0;
    /// Launches without a control block put behind its level's closed gate
    /// since the level last ran (holdOnHost).
    unsigned HeldBack = 0;
  };
  struct Context {
    unsigned long long Id = 0;
    CUcontext Ctx = nullptr;
    bool Ready = false, Dead = false;
    CUstream Ctrl = nullptr;
    /// Zeroes released control blocks off the programs' streams (created at
    /// the first release; SlotPool::release).
    CUstream Zero = nullptr;
    CUdeviceptr Gates = 0; ///< one word per level: 0 open, 1 closed
    /// The timing latch (Scheduler::latch): a counter in pinned host memory
    /// (LatchDev on the device) that a latched stream waits on until it
    /// reaches its value; the host raises it with a plain store. Null: this
    /// context takes no latches (the memory, or a wait on it, was refused).
    uint32_t *LatchHost = nullptr;
    CUdeviceptr LatchDev = 0;
    uint32_t LatchSeq = 0; ///< the latest value handed out (with Mu)
    /// The value latched and not opened yet (0: none), and since when: the
    /// latch watchdog reads them without Mu, which the launching thread
    /// holds (perhaps blocked in the driver). Since is stored first.
    std::atomic<uint32_t> LatchPending{0};
    std::atomic<uint64_t> LatchSinceNs{0};
    std::atomic<const char *> LatchKernel{nullptr}; ///< the pending latch's (for the report)
    /// Functions launched in this context as compiled (a clone form's own
    /// flag: Form::Launched). A launch of one not in here is its first
    /// (SchedFirstLaunch.cpp).
    std::unordered_set<CUfunction> Launched;
    /// The most local memory per thread of the functions launched here
    /// (-1: one was not known); a first launch needing more grows it.
    int MaxLocalBytes = 0;
    /// Threads in quietForFirst or inside a code load: nothing is stopped
    /// meanwhile.
    unsigned Quieting = 0;
    /// Keys of look-ups that loaded their code here already (beginCodeLoad).
    std::unordered_set<uint64_t> LoadsSeen;
    int PrioLeast = 0, PrioGreatest = 0;
    std::unique_ptr<SlotPool> Pool;
    /// The pool's zeroing counter (HostCounters.h; none where the driver
    /// refused it: events then).
    HostCounters Counters;
    /// Finished launches found by recycle(), whose blocks go back to Pool
    /// (zeroed on Zero) only once the launch in progress is on its stream
    /// (releaseFinished): the side memset and its event are two driver
    /// calls a program that waits for each kernel would otherwise see
    /// before its kernel starts.
    std::vector<Slot *> Finished;
    std::unordered_map<const KernelEntry *, std::unique_ptr<CloneInfo>> Clones;
    int Sms = -1; ///< the device's multiprocessors (persistent clones); -1 not asked yet
    std::unordered_map<StreamKey, std::unique_ptr<StreamState>, StreamKeyHash> Streams;
    /// L2 persisting (GMEM_SCHED_L2=persist): set aside once; 0: not yet.
    size_t L2SetAside = 0, L2MaxWindow = 0;
    bool L2Failed = false;
    PolicyView View;
    uint64_t NextSeq = 1;
    /// Launches held on the host (holdOnHost) wait here for a resume or a
    /// release (with Mu).
    std::condition_variable HostHeld;
    /// Chaos testing: the next synthetic preemption, the end of the current
    /// one's hold, and the context's random state.
    uint64_t ChaosNextNs = 0, ChaosUntilNs = 0, ChaosRandom = 0;
    /// Segment scale stop probes may be in flight (the monitor stops each
    /// once it runs: probeScales); the launching thread wakes the monitor.
    bool ScaleProbes = false, ScaleProbeWake = false;
    /// Launches the overhead cap ran as compiled and timed
    /// (CloneChoice::Original), until their end event has passed.
    struct OriginalTiming {
      CloneInfo *CI = nullptr;
      uint64_t Key = 0;
      CUevent Start = nullptr, End = nullptr; // created once, kept
      bool Busy = false;
      /// On an idle stream without the latch (the function's first launch):
      /// the time may hold the host's launch call (recordOriginal).
      bool Provisional = false;
    };
    static constexpr unsigned NumOriginalTimings = 8;
    OriginalTiming Originals[NumOriginalTimings];
    std::mutex Mu;
  };

  /// The calling thread's current context's state (created and set up on
  /// its first use unless !Create); null when it cannot be scheduled.
  Context *context(bool Create = true);
  bool initContext(Context &C);
  /// First launches (SchedFirstLaunch.cpp). quiet: nothing of C is
  /// suppressed or preempted, so no stream waits for a word only a later
  /// write would open. mayStop: no thread waits for quiet.
  bool quiet(const Context &C) const;
  bool mayStop(const Context &C) const { return !C.Quieting; }
  /// Before a function's first launch or a code load in C (Kernel names it
  /// in the log): resumes every level and finishes the preempted launches
  /// (relaunch, release) until quiet, waiting without the lock.
  void quietForFirst(Context &C, std::unique_lock<std::mutex> &Lock, const char *Kernel);
  /// After F's first launch in C: its local memory joins C's maximum.
  void noteFirst(Context &C, CUfunction F);
  /// A launched function's local memory a thread (-1: unknown) joins C's
  /// maximum (which an unknown makes unknown).
  static void joinLocal(Context &C, int Local);
  /// Whether the first launch of CI's form K must wait for quiet: the
  /// kernel's first in any form (a printf kernel's first sets the context's
  /// printf buffer up), or one needing more local memory than C has had.
  /// (Its code was loaded when CI was resolved, in quiet.)
  bool formFirstNeedsQuiet(const Context &C, const CloneInfo &CI, CloneKind K,
                           CUfunction Original) const;
  /// Marks the calling thread as inside launch() for its lifetime.
  struct LaunchScope {
    LaunchScope();
    ~LaunchScope();
    LaunchScope(const LaunchScope &) = delete;
    LaunchScope &operator=(const LaunchScope &) = delete;
  };
  /// A launch on the legacy default stream, which takes no part in
  /// scheduling: passed through, but a first launch waits for quiet.
  CUresult legacyLaunch(const SchedLaunch &L, const OriginalLaunch &Original);
  /// The monitor's work on C's tracked launches: timings, drains,
  /// releases of finished relaunches, relaunches of stopped launches whose
  /// level runs (not in Suppressed). Whether any is still preempted.
  bool settleSlots(Context &C, uint32_t Suppressed);
  /// E's clone in C, resolved at its first use there, in quiet (Lock: C's,
  /// released while it waits for that).
  const CloneInfo *cloneOf(Context &C, const KernelEntry &E, std::unique_lock<std::mutex> &Lock);
  void mirrorSmem(CloneInfo &CI, CloneKind K, unsigned Shmem, CUfunction Original);
  int smCount(Context &C);
  /// Which of CI's clones launch L runs (Choice; Key: its shape, when the
  /// chooser was asked) and its plan; false when the launch cannot be
  /// preemptible (SchedClone.cpp).
  /// ArgsHash: L's launchArgsHash where the caller has it already.
  bool planLaunch(Context &C, CloneInfo &CI, const SchedLaunch &L, const LaunchRecord &Rec,
                  ClonePlan &Plan, CloneChoice &Choice, uint64_t &Key,
                  const uint64_t *ArgsHash = nullptr);
  StreamState &streamOf(Context &C, CUstream S);
  /// Host-side holding: while level P is suppressed or St waits for a
  /// preempted launch, a launch at P waits here (Lock released) instead of
  /// going onto St behind a closed gate or hold.
  void holdOnHost(Context &C, StreamState &St, int P, std::unique_lock<std::mutex> &Lock);
  int levelOf(CUstream Raw, CUstream Normalized) const;
  /// (Lock: C's, which a clone form's first launch releases while it waits
  /// for quiet. First: launch() found this the function's first launch in
  /// C, so launching the kernel as compiled waits for quiet.)
  CUresult gatedLaunch(Context &C, StreamState &St, const SchedLaunch &L, CUstream S, int P,
                       const LaunchRecord *Rec, OriginalLaunch Original,
                       std::unique_lock<std::mutex> &Lock, bool First);
  void refreshBusy(Context &C, uint32_t Levels, uint64_t Now);
  /// Moves St's finished launches (oldest first, up to the first that is
  /// not) to C.Finished.
  void recycle(Context &C, StreamState &St);
  /// recycle() for every stream, then releaseFinished(): for a launch that
  /// needs a block now.
  void recycleAll(Context &C);
  /// Gives up to Max of C.Finished's blocks (oldest first) back to the
  /// pool, each zeroed on C.Zero.
  void releaseFinished(Context &C, size_t Max);
  /// How many finished blocks a launch gives back (Scheduler::launch).
  static constexpr size_t ReleasesPerLaunch = 2;
  /// Control-stream writes of one suppression, issued as one batch.
  struct StopBatch {
    static constexpr unsigned Max = 16;
    CUdeviceptr Addr[Max];
    uint32_t Value[Max];
    unsigned N = 0;
    bool room(unsigned K) const { return N + K <= Max; }
    void add(CUdeviceptr A, uint32_t V) { Addr[N] = A, Value[N++] = V; }
    /// Victim S's two words, hold before request: its stream must not pass
    /// the hold wait once the clone has stopped early (needs room(2)).
    void addStop(const Slot &S) {
      add(S.hold(), 1);
      add(S.request(), S.StopRequest);
    }
  };
  /// Closes the gates of the levels in Mask and stops their running
  /// launches; the caller wakes the monitor once its own launch is out.
  void suppress(Context &C, uint32_t Mask, uint64_t Now);
  void flushStops(Context &C, const StopBatch &B, Slot *const *Victims, unsigned NV);
  /// What a poll tells the monitor about when to poll next.
  struct PollHints {
    uint64_t NotBeforeNs = 0; ///< no work is due before (0: none known)
    bool Urgent = false;      ///< some level was suppressed
    uint64_t WakeByNs = 0;    ///< chaos testing: poll again by then (0: no such time)
  };
  bool poll(PollHints &H); ///< poll(), with what the monitor thread needs
  /// While no resume can be due in C: until when (0: one may be now).
  uint64_t quietUntil(const Context &C, uint64_t Now) const;
  /// Fair share: stops again the levels let run for their share once they
  /// have had it (SchedMonitor.cpp).
  void endShares(Context &C, uint64_t Now, bool &More, uint64_t &WakeBy);
  void pollContext(Context &C, uint64_t Now, bool &More, uint64_t &NotBefore, bool &Urgent,
                   uint64_t &WakeBy);
  void resume(Context &C, int L, bool Forced, uint64_t Now);
  /// Chaos testing: a synthetic preemption when one is due; whether C's
  /// levels must stay suppressed for now (the hold of the last one).
  bool chaosTick(Context &C, uint64_t Now, bool &More, uint64_t &WakeBy);
  /// Chaos testing, after a clone launch was enqueued: stops it at once one
  /// time in four.
  void chaosAtLaunch(Context &C, uint64_t Now);
  bool chaosStop(Context &C, uint64_t Now); ///< suppresses what chaos may stop
  uint64_t chaosDraw(Context &C, uint64_t Max); ///< uniform in [0, Max]
  bool relaunch(Context &C, StreamState &St, Slot &S);
  void sampleDrain(Context &C, Slot &S);
  /// Segment scale stop probes (SchedScale.cpp): stops each probe launch of
  /// C at a random moment of its run; More while any is left.
  void probeScales(Context &C, uint64_t Now, bool &More, uint64_t &WakeBy);
  /// A probe's stop drained DrainUs after its request (negative: the launch
  /// ended first): to the chooser.
  void scaleProbeDrained(Slot &S, double DrainUs);
  void sampleTiming(Slot &S);
  /// The overhead cap's launches as compiled (SchedClone.cpp): launch one,
  /// timed when Timed and an OriginalTiming is free (behind a latch when
  /// Latch: the stream was idle); feed the finished timings to their
  /// choosers.
  CUresult cappedLaunch(Context &C, CloneInfo &CI, uint64_t Key, bool Timed, bool Latch,
                        CUstream S, const OriginalLaunch &Original);
  /// A short shape's launch as compiled ("Short launches", CloneChoice.h):
  /// behind a gate wait only where the level is suppressed or the stream's
  /// ungated short work would exceed its budget.
  CUresult shortLaunch(Context &C, StreamState &St, CloneInfo &CI, uint64_t Key, bool Timed,
                       bool Latch, CUstream S, int P, const OriginalLaunch &Original);
  /// cappedLaunch's and shortLaunch's launch itself.
  CUresult timedOriginal(Context &C, CloneInfo &CI, uint64_t Key, bool Timed, bool Latch,
                         CUstream S, const OriginalLaunch &Original);
  void sampleOriginals(Context &C);
  /// Timings on an idle stream (SchedOptions::LatchIdleTimings,
  /// SchedLatch.cpp): latch() holds S until openLatch() with the value it
  /// returns (0: not latched: the context has no latch, the function to be
  /// launched (Kernel, for the watchdog's report) has not been launched in
  /// this context yet (FunctionLaunched false), or the driver refused the
  /// wait). Values are handed out under the context's lock, one latch at a
  /// time; the counter only rises (a compare-and-swap store), and a wait is
  /// for "at least": a later value opens an earlier wait too.
  uint32_t latch(Context &C, CUstream S, bool FunctionLaunched, const char *Kernel);
  /// Whether latch() leaves a launch unlatched for being its function's
  /// first in C (while C has a latch): its time on an idle stream then holds
  /// the host's launch call (a clone form's is not taken, the kernel's as
  /// compiled is provisional).
  bool firstUnlatched(const Context &C, bool FunctionLaunched) const {
    return C.LatchHost && !FunctionLaunched && !Opts.LatchFirstLaunches;
  }
  /// Raises the counter to Value (0: nothing latched); false when the
  /// watchdog had opened it already: that launch's time is not its own.
  bool openLatch(Context &C, uint32_t Value);
  /// Starts the watchdog thread, or wakes it from its idle wait.
  void armLatchWatch();
  void latchWatchMain();
  void resumeAllLocked(Context &C, uint64_t Now);
  void wakeMonitor();
  void monitorMain();
  /// The process's scheduler shuts down from an atexit handler, registered
  /// once by whichever background thread starts first.
  void shutdownAtExit();
  void log(const char *Fmt, ...) const __attribute__((format(printf, 2, 3)));
  void error(const char *Fmt, ...) const __attribute__((format(printf, 2, 3)));

  SchedDriver &D;
  SchedOptions Opts;
  std::atomic<bool> Active{false};
  std::atomic<int> ProcessPrio;
  /// Both policies live as long as the scheduler; Policy points at the one
  /// in force (gmemSchedSetPolicy may switch it while launches run).
  StrictPriorityPolicy StrictPolicy;
  FairSharePolicy FairPolicy;
  std::atomic<SchedPolicy *> Policy;
  SchedPolicy &policy() const { return *Policy.load(std::memory_order_acquire); }

  mutable std::shared_mutex PrioMu;
  std::unordered_map<uint64_t, int> StreamPrio;

  std::mutex ContextsMu;
  std::vector<std::unique_ptr<Context>> Contexts;
  const uint64_t Uid; ///< distinguishes this scheduler in per-thread caches

  // Monitor thread.
  std::mutex MonMu;
  std::condition_variable MonCv;
  bool MonStarted = false, MonStop = false;
  uint64_t MonWakes = 0;
  std::thread Monitor;

  // Latch watchdog thread (SchedLatch.cpp): polls while latches are taken,
  // idle (Armed false) after a quiet spell.
  std::mutex WatchMu;
  std::condition_variable WatchCv;
  bool WatchStarted = false, WatchStop = false;
  std::atomic<bool> WatchArmed{false};
  std::thread Watch;
  std::once_flag AtExitOnce;

  // Counters (gmemSchedStats).
  struct Counters {
    std::atomic<uint64_t> Launches{0}, Passed{0}, Urgent{0}, Gated{0}, Preemptible{0},
        Suppressions{0}, Preemptions{0}, PreemptionsLoop{0}, Relaunches{0}, Forced{0},
        CloneFailures{0}, Chaos{0}, HostHolds{0};
    // gmemSchedCloneStats.
    std::atomic<uint64_t> TimedLaunches{0};
    /// By CloneKind: persistent launches of each form, and shapes switched
    /// to it.
    std::atomic<uint64_t> FormLaunches[CloneKindCount] = {}, SwitchedTo[CloneKindCount] = {};
    std::atomic<uint64_t> Capped{0}; ///< launches the overhead cap ran as compiled
    std::atomic<uint64_t> Ungated{0}; ///< clone launches without a gate wait
    std::atomic<uint64_t> Short{0};   ///< short launches run as compiled
    std::atomic<uint64_t> ShortUngated{0}; ///< ... of them without a gate wait
    std::atomic<uint64_t> LatchedTimings{0}; ///< timed launches put behind the latch
    std::atomic<uint64_t> LatchWatchdogOpens{0}; ///< ... whose latch the watchdog opened
    /// First launches that resumed and finished suppressed work first, and
    /// urgent first launches that stopped nothing (SchedFirstLaunch.cpp).
    std::atomic<uint64_t> FirstLaunchDrains{0}, FirstLaunchStopsSkipped{0};
    /// Fair share: resumes of a starved level while levels above it were
    /// busy, and arrivals that left such a level running.
    std::atomic<uint64_t> ShareResumes{0}, ShareArrivalsSpared{0}, ShareEnds{0};
    /// Segment scale (CloneScale.cpp): stop probes made, and shapes raised.
    std::atomic<uint64_t> ScaleProbes{0}, ScaleRaised{0};
  } N;
  static constexpr unsigned DrainRing = 4096;
  mutable std::mutex DrainMu;
  std::vector<uint64_t> Drains;
  uint64_t DrainCount = 0;
};

/// The launch hooks' door: Original() when the scheduler is inactive.
template <typename Fn>
CUresult scheduleOr(const SchedLaunch &L, const LaunchRecord *Rec, Fn &&Original) {
  Scheduler *S = Scheduler::activeInstance();
  if (!S)
    return Original();
  OriginalLaunch O(Original);
  return S->launch(L, Rec, O);
}

/// After an unpreempted launch was evaluated (GMEM_SCHED_L2=persist).
inline void noteUrgentReads(CUstream Raw, const LaunchRecord *Rec) {
  if (Scheduler *S = Scheduler::activeInstance())
    S->keepUrgentReadsInL2(Raw, Rec);
}

/// The active scheduler's role for a launch on this stream (a default
/// StreamRole when no scheduler is active).
inline StreamRole streamRole(CUstream Raw, bool PerThreadStream) {
  const Scheduler *S = Scheduler::activeInstance();
  return S ? S->roleOf(Raw, PerThreadStream) : StreamRole{};
}

/// Under a cudaLaunchKernel, the driver launch underneath is not recorded
/// again (Runtime::before returns null there); the cudart hook leaves its
/// record here for the scheduler.
class RuntimeLaunchScope {
public:
  explicit RuntimeLaunchScope(const LaunchRecord *Rec);
  ~RuntimeLaunchScope();
};
/// Rec, or the record of the runtime-API launch in progress on this thread.
const LaunchRecord *recordFor(const LaunchRecord *Rec);

/// The active scheduler's beginCodeLoad / endCodeLoad for a scope (nothing
/// when no scheduler is active, or inside its own launch call). Key as for
/// beginCodeLoad; done() records that the call succeeded.
class CodeLoadQuiet {
public:
  explicit CodeLoadQuiet(uint64_t Key = 0)
      : S(Scheduler::launchingHere() ? nullptr : Scheduler::activeInstance()), Key(Key),
        Token(S ? S->beginCodeLoad(Key) : nullptr) {}
  ~CodeLoadQuiet() {
    if (S)
      S->endCodeLoad(Token, Key, Loaded);
  }
  void done(bool Ok) { Loaded = Ok; }
  CodeLoadQuiet(const CodeLoadQuiet &) = delete;
  CodeLoadQuiet &operator=(const CodeLoadQuiet &) = delete;

private:
  Scheduler *S;
  uint64_t Key;
  void *Token;
  bool Loaded = false;
};

} // namespace sched
} // namespace rt
} // namespace gmem

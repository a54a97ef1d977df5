// A function's first launch in a context, and the scheduler's waits.
//
// Measured on the H200 (driver 580, CUDA 13; test/runtime/gpu/
// printf_first_wait.cu, results in test/runtime/gpu/results/first_launch):
// while one stream waits (cuStreamWaitValue32) for a word that a later
// write on another stream would set, these launches, on any stream, made
// that write never land, a deadlock: the context's first kernel launch; a
// function's first launch while its code is not loaded yet (lazy loading,
// CUDA's default); the first launch of a kernel that calls printf, and of
// one that needs more local memory than the context had, loaded or not;
// and loading code itself (cuModuleLoadData + cuModuleGetFunction, lazy or
// eager), without a launch. A function already loaded (cudaGetFuncBySymbol,
// cuFuncLoad, or CUDA_MODULE_LOADING=EAGER) launched for the first time did
// not. The
// driver behaves as if such a launch waited for every stream's queued work,
// and every stream's later work waited for it. A CPU store to pinned host
// memory still opens the wait (the timing latch's way, SchedLatch.cpp).
//
// The scheduler's gates and holds are such words: a closed gate is opened,
// and a preempted launch's hold released, by writes on the control stream,
// and the release needs a relaunch first. So:
//  - a kernel's first launch as compiled goes onto the GPU only while the
//    context is quiet (no level suppressed, no launch preempted; the
//    launching thread resumes and finishes what is stopped), and an urgent
//    one stops nothing (its own stops would come before it);
//  - a kernel's clone forms are resolved (cuModuleGetFunction loads them)
//    in quiet too; a form's first launch then waits for quiet only where it
//    is the kernel's first in any form (printf) or needs more local memory;
//  - the program's own code loads (libgmemrt's wrappers of cuModuleLoad*,
//    cuModuleGetFunction, cuLibrary*, cuKernelGetFunction, cuFuncLoad) and
//    a kernel handle's first look-up (Runtime::resolve) wait for quiet and
//    hold stops off until they return (beginCodeLoad); a look-up that
//    loaded once per context does not wait again;
//  - stops made after such a launch is on the GPU need no care: they are
//    writes on the control stream, which the driver holds behind it, so
//    they land only once it no longer waits for the streams they stop.
// Each costs at most once per function (or module) and context.
#include "Scheduler.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace gmem {
namespace rt {
namespace sched {

namespace {
thread_local unsigned LaunchDepth = 0;
} // namespace

Scheduler::LaunchScope::LaunchScope() { ++LaunchDepth; }
Scheduler::LaunchScope::~LaunchScope() { --LaunchDepth; }
bool Scheduler::launchingHere() { return LaunchDepth != 0; }

bool Scheduler::quiet(const Context &C) const {
  for (const LevelView &V : C.View.Level)
    if (V.Suppressed)
      return false;
  for (const auto &KV : C.Streams)
    for (const Slot *S : KV.second->Slots)
      if (S->Preempted)
        return false;
  return true;
}

void Scheduler::quietForFirst(Context &C, std::unique_lock<std::mutex> &Lock,
                              const char *Kernel) {
  if (!Opts.QuietFirstLaunches || quiet(C))
    return;
  N.FirstLaunchDrains.fetch_add(1, std::memory_order_relaxed);
  log("before %s: resuming and finishing stopped work (a first launch or a code load)", Kernel);
  RelaxedCapture Relaxed(D); // (this thread may be capturing)
  ++C.Quieting;
  const uint64_t Start = nowNs();
  // This thread does the monitor's work itself (the monitor may be asleep,
  // and tests have none): resume, relaunch, release once relaunches drain.
  for (;;) {
    const uint64_t Now = nowNs();
    resumeAllLocked(C, Now);
    settleSlots(C, 0);
    if (quiet(C))
      break;
    if (Now - Start > Opts.FirstQuietMaxNs) {
      error("before %s (a first launch or a code load): stopped work did not finish in %llu ms; "
            "went on anyway (the driver may now wait for it forever)",
            Kernel, (unsigned long long)(Opts.FirstQuietMaxNs / 1000000));
      break;
    }
    Lock.unlock();
    std::this_thread::sleep_for(std::chrono::microseconds(20));
    Lock.lock();
  }
  --C.Quieting;
}

void Scheduler::noteFirst(Context &C, CUfunction F) {
  int Local = -1;
  if (D.funcGetAttribute(&Local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, F) != CUDA_SUCCESS)
    Local = -1;
  joinLocal(C, Local);
}

void Scheduler::joinLocal(Context &C, int Local) {
  C.MaxLocalBytes = Local < 0 || C.MaxLocalBytes < 0 ? -1 : std::max(C.MaxLocalBytes, Local);
}

bool Scheduler::formFirstNeedsQuiet(const Context &C, const CloneInfo &CI, CloneKind K,
                                    CUfunction Original) const {
  if (!Opts.QuietFirstLaunches || CI.form(K).Launched)
    return false;
  bool KernelLaunched = C.Launched.count(Original) != 0;
  for (const CloneInfo::Form &F : CI.Forms)
    KernelLaunched |= F.Launched;
  const int Local = CI.form(K).LocalBytes;
  return !KernelLaunched || Local < 0 || C.MaxLocalBytes < 0 || Local > C.MaxLocalBytes;
}

CUresult Scheduler::legacyLaunch(const SchedLaunch &L, const OriginalLaunch &Original) {
  // Only a context the scheduler knows can have anything suppressed.
  Context *C = Opts.QuietFirstLaunches && L.F && D.available() ? context(false) : nullptr;
  if (!C)
    return Original();
  std::unique_lock<std::mutex> Lock(C->Mu);
  if (C->Launched.count(L.F)) {
    // Not under the lock: the legacy stream waits for every blocking
    // stream, gated ones too, and a full queue blocks the call.
    Lock.unlock();
    return Original();
  }
  quietForFirst(*C, Lock, "a kernel on the legacy stream");
  const CUresult R = Original();
  if (R == CUDA_SUCCESS && C->Launched.insert(L.F).second)
    noteFirst(*C, L.F);
  return R;
}

void Scheduler::forgetFunctions() {
  std::lock_guard<std::mutex> Guard(ContextsMu);
  for (auto &C : Contexts) {
    std::lock_guard<std::mutex> Lock(C->Mu);
    C->Launched.clear();
    C->LoadsSeen.clear();
    C->MaxLocalBytes = 0;
  }
}

void *Scheduler::beginCodeLoad(uint64_t Key) {
  // Only a context the scheduler knows can have anything stopped.
  Context *C = Opts.QuietFirstLaunches && D.available() ? context(false) : nullptr;
  if (!C)
    return nullptr;
  std::unique_lock<std::mutex> Lock(C->Mu);
  if (Key && C->LoadsSeen.count(Key))
    return nullptr; // loaded here before: nothing to load now
  quietForFirst(*C, Lock, "code being loaded");
  ++C->Quieting;
  return C;
}

void Scheduler::endCodeLoad(void *Token, uint64_t Key, bool Loaded) {
  if (!Token)
    return;
  Context *C = static_cast<Context *>(Token);
  std::lock_guard<std::mutex> Lock(C->Mu);
  --C->Quieting;
  if (Key && Loaded)
    C->LoadsSeen.insert(Key);
}

} // namespace sched
} // namespace rt
} // namespace gmem

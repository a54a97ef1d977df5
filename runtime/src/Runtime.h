// The launch-time core of libgmemrt: resolve the kernel's descriptor, read
// the arguments, evaluate the instance decision, record it. Driver-agnostic
// (DriverApi), so unit tests drive it with a fake driver; Interpose*.cpp
// connect it to the real entry points.
#pragma once

#include "AllocMap.h"
#include "Driver.h"
#include "MemoryManager.h"
#include "gmem/compiler/FlatEval.h"

namespace gmem::rt {
using namespace gmem::flat; // the evaluator shared with gmem-analyze
}
#include "KernelCache.h"

#include "gmem/gmem.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>

namespace gmem {
namespace rt {

struct Options {
  bool Disabled = false;
  int LogMask = GMEM_LOG_ERRORS;
  bool Verify = false;    ///< GMEM_VERIFY: run checkInstance too and compare
  bool Reference = false; ///< GMEM_EVAL=reference: checkInstance only
  /// Reuse the decision of one of this thread's recent launches of the same
  /// kernel with the same grid, block, argument bytes and allocation-map
  /// generation (GMEM_MEMO=0 turns it off).
  bool Memo = true;
  /// Evaluate launches the scheduler runs unpreempted too (GMEM_EVAL=all).
  /// By default their decision is skipped when nothing would use it: no
  /// launch logging, no managed memory to prefetch (see LaunchRequest).
  bool EvalAll = false;
  /// Resolve module globals' addresses (GMEM_GLOBALS=0: treat them as
  /// unresolved, exactly as gmem-analyze's instance mode does; for tests).
  bool ResolveGlobals = true;
  /// Prefetch, budget (GMEM_PREFETCH, GMEM_DEVICE_BUDGET, ...).
  MemoryOptions Mem;
  std::string MemError; ///< malformed memory settings, reported once
  static Options fromEnvironment();
};

/// One launch, as recorded (per thread and in the ring).
struct LaunchRecord {
  uint64_t Seq = 0;
  uint64_t RuntimeId = 0;
  const KernelEntry *Entry = nullptr;
  int32_t Result = 0;
  uint32_t Api = 0;
  uint32_t Grid[3] = {0, 0, 0}, Block[3] = {0, 0, 0};
  uint32_t Shmem = 0;
  uint64_t Stream = 0;
  bool Instrumented = false, Idempotent = false, HasClash = false, ClashAnything = false;
  bool ArgsUnreadable = false;
  bool NotEvaluated = false; ///< an unpreempted launch whose decision nobody needed
  int32_t ClashRead = 0, ClashWrite = 0;
  uint64_t ClashLo = 0, ClashHi = 0;
  int32_t NumPtr = 0, NumPtrRec = 0;
  gmemArgAccess Ptr[GMEM_MAX_PTR_ARGS] = {};
};

struct LaunchRequest {
  uintptr_t Handle = 0;
  uint32_t Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  uint32_t Shmem = 0;
  uint64_t Stream = 0;
  void **Params = nullptr;
  void **Extra = nullptr;
  uint32_t Api = GMEM_API_DRIVER;
  /// The scheduler will launch it as it is, never preempted (a top-priority
  /// stream), and wants none of its regions: its decision only serves
  /// reporting and the memory side, so it is skipped when neither wants it.
  /// The decision costs ~0.6 us of this host's ~5 us launch call, on the
  /// latency-critical path.
  bool Unpreempted = false;
};

class Runtime {
public:
  /// M: the driver for the memory side (null: the real one).
  Runtime(DriverApi &D, const Options &O, MemoryDriver *M = nullptr);
  ~Runtime();
  Runtime(const Runtime &) = delete;
  Runtime &operator=(const Runtime &) = delete;

  /// The process's runtime (real driver, options from the environment).
  static Runtime &global();
  /// Tests: make R the target of the C API (null: back to the real one).
  static void setGlobalForTesting(Runtime *R);

  bool enabled() const { return !Opts.Disabled; }

  /// Before the real launch: evaluates and fills this thread's record, and
  /// prefetches what the launch will touch in managed memory.
  /// Returns null when disabled.
  LaunchRecord *before(const LaunchRequest &L);
  /// After the real launch: stores the result, publishes, logs.
  void after(LaunchRecord *R, int Result);

  // Events seen by the interposed entry points.
  void onAlloc(uint64_t Ptr, uint64_t Size) {
    Allocs.invalidateRange(Ptr, Ptr + Size);
    Mem.onAlloc(Ptr, Size);
  }
  void onFree(uint64_t Ptr) {
    Allocs.invalidateAddress(Ptr);
    Mem.onFree(Ptr);
  }
  void onManagedAlloc(uint64_t Ptr, uint64_t Size) {
    onAlloc(Ptr, Size);
    Mem.onManagedAlloc();
  }
  /// The host waited for device work (it may touch managed memory next).
  void onHostSync() { Mem.onHostSync(); }
  void onMemoryChange() { Allocs.invalidateAll(); }
  void onModuleUnload(CUmodule M);
  void onLibraryUnload(CUlibrary L);
  void onContextDestroy();

  /// Resolves (or finds) a kernel handle's entry. Never null for H != 0.
  KernelEntry *resolve(uintptr_t H);

  // C API.
  int lastLaunch(gmemLaunchInfo *Out) const;
  int recentLaunches(gmemLaunchInfo *Out, int Max) const;
  int setLogging(int Mask) { return LogMask.exchange(Mask); }
  int logMask() const { return LogMask.load(std::memory_order_relaxed); }
  void stats(gmemStats *Out) const;
  /// Decisions computed so far by all threads, all runtimes (the rest came
  /// from the per-thread memo). For tests and diagnostics.
  uint64_t evaluations() const;
  void fill(const LaunchRecord &R, gmemLaunchInfo &Out) const;

  AllocMap Allocs;
  MemoryManager Mem;

private:
  LaunchRecord *decide(const LaunchRequest &L);
  std::unique_ptr<KernelEntry> makeEntry(uintptr_t H);
  void resolveGlobals(KernelEntry &E, CUcontext Ctx);
  bool readArgs(const KernelEntry &E, void **Params, void **Extra, uint64_t *Bits,
                ByteView *Bytes) const;
  void publish(const LaunchRecord &R);
  void log(const LaunchRecord &R) const;
  void report(const KernelEntry &E);

  DriverApi &Drv;
  Options Opts;
  const uint64_t Id;
  std::atomic<int> LogMask;
  KernelTable Kernels;

  std::atomic<uint64_t> NextSeq{1};
  std::atomic<uint64_t> NResolved{0}, NBad{0}, NMismatch{0};
  uint64_t BaseInstrumented = 0, BaseIdempotent = 0; ///< counters at construction (tests)

  static constexpr unsigned RingSize = 512;
  struct RingSlot {
    std::atomic<uint64_t> Ver{0};
    LaunchRecord Rec;
  };
  std::unique_ptr<RingSlot[]> Ring;

  std::mutex ReportMu;
  std::set<std::string> Reported;
};

/// Per-thread depth of runtime-API launches in progress (the driver launch
/// underneath a cudaLaunchKernel must not be recorded twice).
int &runtimeApiDepth();

} // namespace rt
} // namespace gmem

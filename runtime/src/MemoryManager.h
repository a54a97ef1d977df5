// libgmemrt's memory side: turns each launch's evaluated read/write ranges
// into prefetches of managed memory, keeps a device-memory budget by
// evicting what no queued launch touches, applies user hints, and owns the
// managed pool. Driver-agnostic (MemoryDriver), so unit tests fake the driver.
//
// Ordering: everything it moves goes on one non-blocking copy stream per
// context. Evictions wait (events) for the in-flight launches that use the
// bytes; the launch stream waits (event) for the prefetches its launch needs.
// Prefetching never changes what a program computes, only where pages are.
#pragma once

#include "ManagedPool.h"
#include "MemoryDriver.h"
#include "Residency.h"

#include "gmem/gmem.h"

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace gmem {
namespace rt {

struct MemoryOptions {
  bool Prefetch = true;        ///< GMEM_PREFETCH (default on)
  uint64_t Budget = 0;         ///< GMEM_DEVICE_BUDGET, 0: none
  bool UnboundedWhole = false; ///< GMEM_PREFETCH_UNBOUNDED=whole
  /// A host synchronisation makes every range we made resident "possibly
  /// resident" (the host may touch managed memory afterwards, migrating
  /// pages back): later launches prefetch it again (GMEM_PREFETCH_TRUST=1
  /// keeps trusting our bookkeeping instead).
  bool StaleOnSync = true;
  /// Copy streams a large prefetch is spread over (GMEM_PREFETCH_STREAMS,
  /// 1-8): the driver migrates one stream's prefetches one after another.
  int PrefetchStreams = 2; // measured on the H200: 50.3 vs 48.6 GB/s at 2 GiB
  /// Parses the environment; Error gets a message for a malformed value
  /// (then the feature it configures stays off).
  static MemoryOptions fromEnvironment(std::string *Error);
  /// "12G", "512MiB", "1073741824" -> bytes; false when malformed.
  static bool parseBytes(const char *S, uint64_t &Out);
};

class MemoryManager {
public:
  MemoryManager(MemoryDriver &D, const MemoryOptions &O);
  ~MemoryManager();
  MemoryManager(const MemoryManager &) = delete;
  MemoryManager &operator=(const MemoryManager &) = delete;

  bool active() const { return Opts.Prefetch || Opts.Budget; }
  const MemoryOptions &options() const { return Opts; }

  /// Before launch Seq is submitted on S: Args are its evaluated pointer
  /// arguments (gmemArgAccess, as recorded). Never fails the launch.
  /// Log: one line on stderr saying what was decided (GMEM_LOG=memory).
  void beforeLaunch(uint64_t Seq, const gmemArgAccess *Args, int N, CUstream S, bool Log = false);
  /// After the launch call returned Result.
  void afterLaunch(uint64_t Seq, CUstream S, CUresult Result);

  /// An allocation [Ptr, Ptr+Size) appeared (Size 0: unknown) or Ptr was freed.
  void onAlloc(uint64_t Ptr, uint64_t Size);
  /// A managed allocation appeared (cuMemAllocManaged, the pool). Until the
  /// first one, launches skip the memory side entirely: programs that use no
  /// managed memory pay nothing for it.
  void onManagedAlloc() { ManagedSeen.store(true, std::memory_order_release); }
  /// Whether launches' evaluated regions are of use here (prefetch or budget
  /// on, and managed memory in the process).
  bool wantsDecisions() const { return active() && ManagedSeen.load(std::memory_order_acquire); }
  void onFree(uint64_t Ptr);
  /// The host synchronised with the device (it may touch managed memory next).
  void onHostSync();
  /// The current context is being destroyed: its streams and events go with it.
  void onContextDestroy();

  // C API.
  int advise(uint64_t Ptr, uint64_t Bytes, int Hint);
  int mallocManaged(uint64_t *Ptr, uint64_t Bytes);
  int freeManaged(uint64_t Ptr);
  void stats(gmemMemoryStats *Out) const;

  /// Called for each pool block that becomes live or is freed (the runtime
  /// registers blocks with its allocation map).
  void setPoolObserver(std::function<void(uint64_t, uint64_t, bool)> F) { PoolObserver = std::move(F); }

  /// For tests: the tracker (lock not taken: single-threaded tests only).
  const ResidencyTracker &trackerForTesting() const { return Tracker; }

private:
  struct ContextState {
    CUstream Copy = nullptr;
    CUdevice Device = 0;
    CUevent CopyDone = nullptr;
    std::vector<CUevent> FreeEvents;
    /// Extra lanes for large prefetches (PrefetchStreams - 1), made lazily.
    std::vector<CUstream> Lanes;
    std::vector<CUevent> LaneDone;
  };
  struct InFlightEvent {
    uint64_t Seq;
    CUcontext Ctx;
    CUevent Event;
  };

  /// 1 managed, 0 not (cached per allocation base; lock held).
  bool managedLocked(uint64_t Base, uint64_t Size);
  ContextState *contextLocked();
  CUevent takeEventLocked(ContextState &C);
  void retireLocked();
  void evictLocked(ContextState &C, uint64_t Need, const RangeSet &Keep);
  /// Issues Moves to the device on the copy stream (and its lanes) and
  /// makes S wait for them; returns the bytes moved.
  uint64_t prefetchLocked(ContextState &C, std::vector<Range> &Moves, CUstream S);
  void remoteMapLocked(ContextState &C, const Range &R);
  void unmapRemoteLocked(ContextState &C, const Range &R);
  void notePeakLocked();

  MemoryDriver &Drv;
  MemoryOptions Opts;
  mutable std::mutex Mu;
  ResidencyTracker Tracker;
  std::unordered_map<uint64_t, bool> ManagedByBase;
  std::unordered_map<CUcontext, ContextState> Contexts;
  RangeSet Random, WholeOnUnbounded, Remote;
  std::vector<InFlightEvent> InFlightEvents;
  std::unique_ptr<ManagedPool> Pool;
  std::function<void(uint64_t, uint64_t, bool)> PoolObserver;
  bool WarnedUnboundedBudget = false;

  /// Bumped whenever something libgmemrt made resident may no longer be
  /// (sync, eviction, free, hint): a thread's last all-resident launch with
  /// identical arguments and an unchanged generation needs no work at all.
  std::atomic<uint64_t> ResidencyGen{1};
  std::atomic<bool> ManagedSeen{false};
  void bumpLocked() { ResidencyGen.fetch_add(1, std::memory_order_acq_rel); }

  // Counters.
  uint64_t Peak = 0;
  std::atomic<uint64_t> PrefetchedBytes{0}, PrefetchOps{0}, EvictedBytes{0}, EvictOps{0},
      SkippedBytes{0}, Unbounded{0}, RemoteBytes{0}, LaunchesPrefetched{0}, CaptureSkips{0};
};

} // namespace rt
} // namespace gmem

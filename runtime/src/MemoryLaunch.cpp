// MemoryManager's launch path (MemoryManager.h): beforeLaunch turns a
// launch's evaluated ranges into prefetches, and under a budget into
// evictions and remote mappings; prefetchLocked spreads a large move over
// the copy lanes; afterLaunch records what the launch may have left
// resident. The per-thread pending launch lives here. Apart from
// MemoryManager.cpp (options, state helpers, events) so that each file
// stays under ~600 lines.
#include "MemoryManager.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace gmem {
namespace rt {
namespace {

/// This thread's launch between beforeLaunch and afterLaunch.
struct PendingLaunch {
  uint64_t Seq = 0;
  bool Tracked = false;
  RangeSet Touched; ///< everything it may touch (budget bookkeeping)
  RangeSet Demand;  ///< left to demand paging: possibly resident after it
};
thread_local PendingLaunch *Pending = nullptr;

/// This thread's last launch whose ranges were all resident afterwards.
struct ResidentLaunch {
  const MemoryManager *Owner = nullptr;
  uint64_t Gen = 0, Bytes = 0;
  int N = -1;
  gmemArgAccess Args[GMEM_MAX_PTR_ARGS];
};
thread_local ResidentLaunch LastResident;
PendingLaunch &pending() {
  if (!Pending)
    Pending = new PendingLaunch(); // a few hundred bytes per launching thread, kept
  return *Pending;
}

} // namespace

// --- launches --------------------------------------------------------------------

void MemoryManager::beforeLaunch(uint64_t Seq, const gmemArgAccess *Args, int N, CUstream S,
                                 bool Log) {
  // GMEM_LOG=memory: what was decided, on every path out.
  const char *Why = "";
  uint64_t LWant = 0, LDemand = 0, LMoved = 0, LSkipped = 0;
  int LManaged = 0;
  struct Logger {
    bool On;
    uint64_t Seq;
    int N;
    const char *&Why;
    uint64_t &Want, &Demand, &Moved, &Skipped;
    int &Managed;
    ~Logger() {
      if (On)
        std::fprintf(stderr,
                     "gmem: memory #%llu: %d args, %d managed; want %llu B, moved %llu B, "
                     "resident %llu B, demand %llu B%s%s\n",
                     (unsigned long long)Seq, N, Managed, (unsigned long long)Want,
                     (unsigned long long)Moved, (unsigned long long)Skipped,
                     (unsigned long long)Demand, *Why ? ": " : "", Why);
    }
  } L{Log, Seq, N, Why, LWant, LDemand, LMoved, LSkipped, LManaged};
  PendingLaunch &P = pending();
  P.Seq = Seq;
  P.Tracked = false;
  if (!ManagedSeen.load(std::memory_order_acquire)) {
    Why = "no managed allocation in this process yet";
    return;
  }
  bool Any = false;
  for (int I = 0; I < N && !Any; ++I)
    Any = Args[I].flags & GMEM_ARG_HAS_ALLOC;
  if (!Any) {
    Why = "no argument in a known allocation";
    return;
  }
  ResidentLaunch &Last = LastResident;
  const bool Fast = !Opts.Budget && N <= GMEM_MAX_PTR_ARGS;
  if (Fast && Last.Owner == this && Last.N == N &&
      Last.Gen == ResidencyGen.load(std::memory_order_acquire) &&
      std::memcmp(Last.Args, Args, sizeof(gmemArgAccess) * size_t(N)) == 0) {
    SkippedBytes.fetch_add(Last.Bytes, std::memory_order_relaxed);
    LSkipped = Last.Bytes;
    Why = "same as this thread's last launch, all resident";
    return; // the same launch as before, and nothing has left the device since
  }
  auto Remember = [&](uint64_t Bytes) {
    if (!Fast)
      return;
    Last.Owner = this;
    Last.N = N;
    Last.Gen = ResidencyGen.load(std::memory_order_acquire);
    Last.Bytes = Bytes;
    std::memcpy(Last.Args, Args, sizeof(gmemArgAccess) * size_t(N));
  };

  std::lock_guard<std::mutex> Lock(Mu);
  RangeSet Want, Demand, Written;
  for (int I = 0; I < N; ++I) {
    const gmemArgAccess &A = Args[I];
    if (!(A.flags & GMEM_ARG_HAS_ALLOC) || !(A.flags & (GMEM_ARG_READS | GMEM_ARG_WRITES)))
      continue;
    if (!managedLocked(A.alloc_base, A.alloc_size))
      continue;
    ++LManaged;
    const Range Alloc{A.alloc_base, A.alloc_base + A.alloc_size};
    auto Side = [&](uint32_t Has, uint32_t Anything, uint32_t Exact, uint64_t Lo, uint64_t Hi,
                    bool Write) {
      if (!(A.flags & Has))
        return;
      Range R;
      if ((A.flags & Anything) || !(A.flags & Exact)) {
        // Not bounded at this launch: the allocation is the best guess.
        R = Alloc;
        if (!Opts.UnboundedWhole && !WholeOnUnbounded.intersects(R.Lo, R.Hi)) {
          Demand.add(R);
          Unbounded.fetch_add(1, std::memory_order_relaxed);
          if (Write)
            Written.add(R);
          return;
        }
      } else {
        R = Tracker.widen({std::max(Lo, Alloc.Lo), std::min(Hi, Alloc.Hi)});
        if (R.empty())
          return;
      }
      Want.add(R);
      if (Write)
        Written.add(R);
    };
    Side(GMEM_ARG_READS, GMEM_ARG_READ_ANYTHING, GMEM_ARG_READ_EXACT, A.read_lo, A.read_hi, false);
    Side(GMEM_ARG_WRITES, GMEM_ARG_WRITE_ANYTHING, GMEM_ARG_WRITE_EXACT, A.write_lo, A.write_hi, true);
  }
  // Sparse ranges the user marked RANDOM are left to demand paging.
  for (const auto &[Lo, Hi] : Random.intervals()) {
    std::vector<Range> Parts;
    Want.overlap(Lo, Hi, Parts);
    for (const Range &R : Parts) {
      Want.remove(R);
      Demand.add(R);
    }
  }
  LWant = Want.bytes();
  LDemand = Demand.bytes();
  if (Want.empty() && Demand.empty()) {
    Why = "nothing in managed memory";
    return;
  }
  if (!Opts.Prefetch) {
    // Demand paging only; the budget (if any) is still kept by eviction.
    Demand.add(Want);
    Want.clear();
  }

  RangeSet Touch = Want;
  Touch.add(Demand);
  ContextState *C = nullptr;
  auto Context = [&]() -> ContextState * {
    if (!C)
      C = contextLocked();
    return C;
  };

  // What must move now.
  std::vector<Range> Moves;
  uint64_t Skipped = 0;
  for (const auto &[Lo, Hi] : Want.intervals()) {
    size_t Before = Moves.size();
    Tracker.toPrefetch({Lo, Hi}, Moves);
    uint64_t Moved = 0;
    for (size_t K = Before; K < Moves.size(); ++K)
      Moved += Moves[K].size();
    Skipped += (Hi - Lo) - Moved;
  }
  SkippedBytes.fetch_add(Skipped, std::memory_order_relaxed);
  LSkipped = Skipped;
  if (Moves.empty() && !Opts.Budget && Remote.empty()) {
    if (Demand.empty())
      Remember(Skipped);
    return; // the common steady state: everything already resident
  }

  bool Capturing = false;
  if (Drv.streamIsCapturing(S, &Capturing) == CUDA_SUCCESS && Capturing) {
    CaptureSkips.fetch_add(1, std::memory_order_relaxed);
    Why = "stream capture";
    return; // a graph is being recorded: moving data now would not help its replays
  }
  if (!Context()) {
    Why = "no usable context / copy stream";
    return;
  }

  // Ranges remote-mapped earlier that this launch will hold on the device.
  if (!Remote.empty())
    for (const auto &[Lo, Hi] : Touch.intervals())
      if (Remote.intersects(Lo, Hi))
        unmapRemoteLocked(*C, {Lo, Hi});

  if (Opts.Budget) {
    retireLocked();
    RangeSet Keep = Touch;
    if (Keep.bytes() > Opts.Budget) {
      // The launch alone does not fit: map the excess remotely. Read-only
      // data goes first (it never needs writing back), largest first.
      std::vector<Range> Ro, Rw;
      for (const Range &R : Keep.ranges()) {
        std::vector<Range> W;
        Written.overlap(R.Lo, R.Hi, W);
        uint64_t Cur = R.Lo;
        for (const Range &X : W) {
          if (X.Lo > Cur)
            Ro.push_back({Cur, X.Lo});
          Rw.push_back(X);
          Cur = X.Hi;
        }
        if (Cur < R.Hi)
          Ro.push_back({Cur, R.Hi});
      }
      auto Larger = [](const Range &A, const Range &B) { return A.size() > B.size(); };
      std::sort(Ro.begin(), Ro.end(), Larger);
      std::sort(Rw.begin(), Rw.end(), Larger);
      Ro.insert(Ro.end(), Rw.begin(), Rw.end());
      for (Range R : Ro) {
        if (Keep.bytes() <= Opts.Budget)
          break;
        uint64_t Excess = Keep.bytes() - Opts.Budget;
        if (R.size() > Excess) { // the tail of R, granule-rounded
          uint64_t Len = (Excess + ResidencyTracker::Granule - 1) / ResidencyTracker::Granule *
                         ResidencyTracker::Granule;
          if (Len < R.size())
            R.Lo = R.Hi - Len;
        }
        remoteMapLocked(*C, R);
        Keep.remove(R);
        Want.remove(R);
        Demand.remove(R);
      }
      Moves.clear();
      for (const auto &[Lo, Hi] : Want.intervals())
        Tracker.toPrefetch({Lo, Hi}, Moves);
    }
    // Bytes this launch adds to what is counted as resident.
    uint64_t Adds = 0;
    for (const auto &[Lo, Hi] : Keep.intervals()) {
      std::vector<Range> NotRes;
      Tracker.resident().missing(Lo, Hi, NotRes);
      for (const Range &R : NotRes) {
        std::vector<Range> NotStale;
        Tracker.possiblyResident().missing(R.Lo, R.Hi, NotStale);
        for (const Range &X : NotStale)
          Adds += X.size();
      }
    }
    uint64_t After = Tracker.accountedBytes() + Adds;
    if (After > Opts.Budget)
      evictLocked(*C, After - Opts.Budget, Keep);
    Tracker.recordUse(Seq, Keep);
    P.Touched = Keep;
    P.Tracked = true;
  } else {
    P.Tracked = !Demand.empty();
  }
  P.Demand = Demand;

  if (!Moves.empty()) {
    LMoved = prefetchLocked(*C, Moves, S);
    if (Demand.empty() && Remote.empty())
      Remember(Want.bytes());
  }
  notePeakLocked();
}

uint64_t MemoryManager::prefetchLocked(ContextState &C, std::vector<Range> &Moves, CUstream S) {
  std::vector<Range> Split;
  uint64_t Total = 0;
  for (const Range &R : Moves)
    Tracker.splitByAllocation(R, Split);
  for (const Range &R : Split)
    Total += R.size();
  // Lanes: only for large moves, and each lane first waits for everything
  // already on the copy stream (earlier evictions of the same bytes).
  int NLanes = 1;
  constexpr uint64_t LaneMin = 64ull << 20;
  if (Opts.PrefetchStreams > 1 && Total >= 2 * LaneMin) {
    while (int(C.Lanes.size()) < Opts.PrefetchStreams - 1) {
      CUstream L = nullptr;
      CUevent E = nullptr;
      if (Drv.streamCreate(&L) != CUDA_SUCCESS || Drv.eventCreate(&E) != CUDA_SUCCESS)
        break;
      C.Lanes.push_back(L);
      C.LaneDone.push_back(E);
    }
    NLanes = 1 + int(std::min<uint64_t>(C.Lanes.size(), Total / LaneMin - 1));
    if (NLanes > 1 && Drv.eventRecord(C.CopyDone, C.Copy) == CUDA_SUCCESS) {
      for (int I = 0; I + 1 < NLanes; ++I)
        Drv.streamWaitEvent(C.Lanes[I], C.CopyDone);
    } else {
      NLanes = 1;
    }
  }
  const uint64_t Share = (Total + NLanes - 1) / NLanes;
  uint64_t Moved = 0, LaneBytes = 0;
  int Lane = 0;
  std::vector<bool> Used(size_t(NLanes), false);
  for (Range R : Split) {
    while (!R.empty()) {
      // Cut at 2 MiB so lanes split on migration-block boundaries.
      uint64_t Room = Share > LaneBytes ? Share - LaneBytes : 0;
      uint64_t Len = R.size();
      if (Lane + 1 < NLanes && Len > Room) {
        uint64_t Cut = (R.Lo + Room + (2ull << 20) - 1) / (2ull << 20) * (2ull << 20);
        Len = Cut > R.Lo && Cut < R.Hi ? Cut - R.Lo : R.size();
      }
      Range Piece{R.Lo, R.Lo + Len};
      CUstream On = Lane == 0 ? C.Copy : C.Lanes[size_t(Lane - 1)];
      if (Drv.prefetch(Piece.Lo, Piece.size(), C.Device, On) == CUDA_SUCCESS) {
        Tracker.markResident(Piece);
        Moved += Piece.size();
        Used[size_t(Lane)] = true;
        PrefetchedBytes.fetch_add(Piece.size(), std::memory_order_relaxed);
        PrefetchOps.fetch_add(1, std::memory_order_relaxed);
      }
      LaneBytes += Piece.size();
      R.Lo += Len;
      if (LaneBytes >= Share && Lane + 1 < NLanes) {
        ++Lane;
        LaneBytes = 0;
      }
    }
  }
  bool Waited = false;
  for (int I = 0; I < NLanes; ++I) {
    if (!Used[size_t(I)])
      continue;
    CUstream On = I == 0 ? C.Copy : C.Lanes[size_t(I - 1)];
    CUevent E = I == 0 ? C.CopyDone : C.LaneDone[size_t(I - 1)];
    if (Drv.eventRecord(E, On) == CUDA_SUCCESS && Drv.streamWaitEvent(S, E) == CUDA_SUCCESS)
      Waited = true;
    // Later copy-stream work (evictions) must also follow the lanes.
    if (I > 0)
      Drv.streamWaitEvent(C.Copy, E);
  }
  if (Waited)
    LaunchesPrefetched.fetch_add(1, std::memory_order_relaxed);
  return Moved;
}

void MemoryManager::afterLaunch(uint64_t Seq, CUstream S, CUresult Result) {
  PendingLaunch &P = pending();
  if (!P.Tracked || P.Seq != Seq)
    return;
  P.Tracked = false;
  std::lock_guard<std::mutex> Lock(Mu);
  if (Result != CUDA_SUCCESS) {
    Tracker.retire(Seq);
    return;
  }
  for (const auto &[Lo, Hi] : P.Demand.intervals())
    Tracker.markPossiblyResident({Lo, Hi});
  if (Opts.Budget) {
    ContextState *C = contextLocked();
    CUevent E = C ? takeEventLocked(*C) : nullptr;
    if (E && Drv.eventRecord(E, S) == CUDA_SUCCESS) {
      CUcontext Ctx = nullptr;
      Drv.ctxGetCurrent(&Ctx);
      InFlightEvents.push_back({Seq, Ctx, E});
      Tracker.addInFlight({Seq, P.Touched});
    } else if (E) {
      C->FreeEvents.push_back(E);
    }
  }
  notePeakLocked();
}

} // namespace rt
} // namespace gmem

#include "MemoryManager.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
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

bool envFalse(const char *V) {
  return V && (!std::strcmp(V, "0") || !std::strcmp(V, "no") || !std::strcmp(V, "false") ||
               !std::strcmp(V, "off"));
}

} // namespace

// --- options ---------------------------------------------------------------------

bool MemoryOptions::parseBytes(const char *S, uint64_t &Out) {
  if (!S || !*S)
    return false;
  char *End = nullptr;
  double V = std::strtod(S, &End);
  if (End == S || V < 0)
    return false;
  std::string Unit(End);
  while (!Unit.empty() && Unit.back() == ' ')
    Unit.pop_back();
  for (char &C : Unit)
    C = char(std::toupper(static_cast<unsigned char>(C)));
  double Mul = 1;
  if (Unit.empty() || Unit == "B")
    Mul = 1;
  else if (Unit == "K" || Unit == "KB" || Unit == "KIB")
    Mul = 1024.0;
  else if (Unit == "M" || Unit == "MB" || Unit == "MIB")
    Mul = 1024.0 * 1024;
  else if (Unit == "G" || Unit == "GB" || Unit == "GIB")
    Mul = 1024.0 * 1024 * 1024;
  else if (Unit == "T" || Unit == "TB" || Unit == "TIB")
    Mul = 1024.0 * 1024 * 1024 * 1024;
  else
    return false;
  double B = V * Mul;
  if (B >= 18446744073709551615.0)
    return false;
  Out = uint64_t(B);
  return true;
}

MemoryOptions MemoryOptions::fromEnvironment(std::string *Error) {
  MemoryOptions O;
  if (envFalse(std::getenv("GMEM_PREFETCH")))
    O.Prefetch = false;
  if (const char *B = std::getenv("GMEM_DEVICE_BUDGET"); B && *B) {
    if (!parseBytes(B, O.Budget) || O.Budget == 0) {
      O.Budget = 0;
      if (Error)
        *Error += std::string("GMEM_DEVICE_BUDGET=") + B +
                  " is not a size (e.g. 12G, 512MiB, 1073741824): no budget is kept; ";
    }
  }
  if (const char *U = std::getenv("GMEM_PREFETCH_UNBOUNDED"); U && *U) {
    if (!std::strcmp(U, "whole"))
      O.UnboundedWhole = true;
    else if (std::strcmp(U, "demand") != 0 && Error)
      *Error += std::string("GMEM_PREFETCH_UNBOUNDED=") + U + " is neither 'demand' nor 'whole'; ";
  }
  if (const char *T = std::getenv("GMEM_PREFETCH_TRUST"); T && *T && !envFalse(T))
    O.StaleOnSync = false;
  if (const char *N = std::getenv("GMEM_PREFETCH_STREAMS"); N && *N) {
    char *End = nullptr;
    long V = std::strtol(N, &End, 10);
    if (End && !*End && V >= 1 && V <= 8)
      O.PrefetchStreams = int(V);
    else if (Error)
      *Error += std::string("GMEM_PREFETCH_STREAMS=") + N + " is not a number from 1 to 8; ";
  }
  return O;
}

// --- construction ----------------------------------------------------------------

MemoryManager::MemoryManager(MemoryDriver &D, const MemoryOptions &O) : Drv(D), Opts(O) {
  Pool = std::make_unique<ManagedPool>(D, [this](uint64_t Base, uint64_t Size, bool Live) {
    {
      std::lock_guard<std::mutex> Lock(Mu);
      if (Live) {
        ManagedSeen.store(true, std::memory_order_release);
        ManagedByBase[Base] = true;
        Tracker.addAllocation(Base, Size);
      } else {
        bumpLocked();
        ManagedByBase.erase(Base);
        Tracker.removeAllocation(Base);
        Random.remove(Base, Base + Size);
        WholeOnUnbounded.remove(Base, Base + Size);
        Remote.remove(Base, Base + Size);
      }
    }
    if (PoolObserver)
      PoolObserver(Base, Size, Live);
  });
}

MemoryManager::~MemoryManager() = default; // streams and events die with their contexts

// --- helpers (Mu held) -----------------------------------------------------------

bool MemoryManager::managedLocked(uint64_t Base, uint64_t Size) {
  auto It = ManagedByBase.find(Base);
  if (It != ManagedByBase.end())
    return It->second;
  int M = Drv.isManaged(Base);
  if (M < 0)
    return false; // the driver could not say: do not cache, do not touch
  ManagedByBase.emplace(Base, M == 1);
  if (M == 1)
    Tracker.addAllocation(Base, Size);
  return M == 1;
}

MemoryManager::ContextState *MemoryManager::contextLocked() {
  CUcontext Ctx = nullptr;
  if (Drv.ctxGetCurrent(&Ctx) != CUDA_SUCCESS || !Ctx)
    return nullptr;
  auto It = Contexts.find(Ctx);
  if (It != Contexts.end())
    return It->second.Copy ? &It->second : nullptr;
  ContextState C;
  if (Drv.ctxGetDevice(&C.Device) != CUDA_SUCCESS || Drv.streamCreate(&C.Copy) != CUDA_SUCCESS ||
      Drv.eventCreate(&C.CopyDone) != CUDA_SUCCESS)
    C.Copy = nullptr; // remembered as unusable: no retry per launch
  auto &Slot = Contexts[Ctx] = std::move(C);
  return Slot.Copy ? &Slot : nullptr;
}

CUevent MemoryManager::takeEventLocked(ContextState &C) {
  if (!C.FreeEvents.empty()) {
    CUevent E = C.FreeEvents.back();
    C.FreeEvents.pop_back();
    return E;
  }
  CUevent E = nullptr;
  return Drv.eventCreate(&E) == CUDA_SUCCESS ? E : nullptr;
}

void MemoryManager::retireLocked() {
  for (size_t I = 0; I < InFlightEvents.size();) {
    InFlightEvent &F = InFlightEvents[I];
    if (Drv.eventQuery(F.Event) == CUDA_ERROR_NOT_READY) {
      ++I;
      continue;
    }
    Tracker.retire(F.Seq);
    auto C = Contexts.find(F.Ctx);
    if (C != Contexts.end())
      C->second.FreeEvents.push_back(F.Event);
    InFlightEvents[I] = InFlightEvents.back();
    InFlightEvents.pop_back();
  }
}

void MemoryManager::notePeakLocked() { Peak = std::max(Peak, Tracker.accountedBytes()); }

void MemoryManager::evictLocked(ContextState &C, uint64_t Need, const RangeSet &Keep) {
  retireLocked();
  uint64_t Got = 0;
  for (const Victim &V : Tracker.chooseVictims(Need, Keep)) {
    // Bytes an in-flight kernel uses move only after it completes.
    for (uint64_t Seq : V.WaitFor)
      for (const InFlightEvent &F : InFlightEvents)
        if (F.Seq == Seq)
          Drv.streamWaitEvent(C.Copy, F.Event);
    std::vector<Range> Parts;
    Tracker.splitByAllocation(V.R, Parts);
    for (const Range &P : Parts) {
      if (Drv.prefetch(P.Lo, P.size(), CU_DEVICE_CPU, C.Copy) != CUDA_SUCCESS)
        continue;
      Tracker.markEvicted(P);
      Got += P.size();
      EvictedBytes.fetch_add(P.size(), std::memory_order_relaxed);
      EvictOps.fetch_add(1, std::memory_order_relaxed);
    }
    bumpLocked();
  }
  if (Got < Need && !WarnedUnboundedBudget) {
    WarnedUnboundedBudget = true;
    std::fprintf(stderr,
                 "gmem: device budget %llu bytes cannot be kept: %llu bytes more are pinned or "
                 "needed by the launch itself\n",
                 (unsigned long long)Opts.Budget, (unsigned long long)(Need - Got));
  }
}

void MemoryManager::remoteMapLocked(ContextState &C, const Range &R) {
  // Host-preferred, mapped for the device: the kernel reads/writes it over
  // the bus instead of faulting it in, so the budget holds.
  std::vector<Range> Parts;
  Tracker.splitByAllocation(R, Parts);
  for (const Range &P : Parts) {
    Drv.advise(P.Lo, P.size(), CU_MEM_ADVISE_SET_PREFERRED_LOCATION, CU_DEVICE_CPU);
    Drv.advise(P.Lo, P.size(), CU_MEM_ADVISE_SET_ACCESSED_BY, C.Device);
  }
  std::vector<Range> OnDevice, Pieces;
  Tracker.resident().overlap(R.Lo, R.Hi, OnDevice);
  Tracker.possiblyResident().overlap(R.Lo, R.Hi, OnDevice);
  for (const Range &P : OnDevice)
    Tracker.splitByAllocation(P, Pieces);
  for (const Range &P : Pieces)
    Drv.prefetch(P.Lo, P.size(), CU_DEVICE_CPU, C.Copy);
  Tracker.markEvicted(R);
  bumpLocked();
  std::vector<Range> New;
  Remote.missing(R.Lo, R.Hi, New);
  for (const Range &P : New)
    RemoteBytes.fetch_add(P.size(), std::memory_order_relaxed);
  Remote.add(R);
}

void MemoryManager::unmapRemoteLocked(ContextState &C, const Range &R) {
  std::vector<Range> Parts, Pieces;
  Remote.overlap(R.Lo, R.Hi, Parts);
  for (const Range &P : Parts) {
    Tracker.splitByAllocation(P, Pieces);
    Remote.remove(P);
  }
  for (const Range &P : Pieces) {
    Drv.advise(P.Lo, P.size(), CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, CU_DEVICE_CPU);
    Drv.advise(P.Lo, P.size(), CU_MEM_ADVISE_UNSET_ACCESSED_BY, C.Device);
  }
}

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

// --- events from the interposed entry points ------------------------------------

void MemoryManager::onAlloc(uint64_t Ptr, uint64_t Size) {
  std::lock_guard<std::mutex> Lock(Mu);
  uint64_t Hi = Size ? Ptr + Size : Ptr + 1;
  for (auto It = ManagedByBase.begin(); It != ManagedByBase.end();)
    It = (It->first >= Ptr && It->first < Hi) ? ManagedByBase.erase(It) : std::next(It);
  Tracker.removeAllocation(Ptr);
  bumpLocked();
}

void MemoryManager::onFree(uint64_t Ptr) {
  std::lock_guard<std::mutex> Lock(Mu);
  Range A = Tracker.allocationOf(Ptr);
  ManagedByBase.erase(Ptr);
  bumpLocked();
  if (!A.empty()) {
    Random.remove(A);
    WholeOnUnbounded.remove(A);
    Remote.remove(A);
    Tracker.removeAllocation(Ptr);
  }
}

void MemoryManager::onHostSync() {
  if (!Opts.StaleOnSync || !active())
    return;
  std::lock_guard<std::mutex> Lock(Mu);
  Tracker.markAllStale();
  bumpLocked();
}

void MemoryManager::onContextDestroy() {
  std::lock_guard<std::mutex> Lock(Mu);
  CUcontext Ctx = nullptr;
  if (Drv.ctxGetCurrent(&Ctx) != CUDA_SUCCESS)
    return;
  Contexts.erase(Ctx);
  bumpLocked();
  for (size_t I = 0; I < InFlightEvents.size();)
    if (InFlightEvents[I].Ctx == Ctx) {
      Tracker.retire(InFlightEvents[I].Seq);
      InFlightEvents[I] = InFlightEvents.back();
      InFlightEvents.pop_back();
    } else {
      ++I;
    }
}

} // namespace rt
} // namespace gmem

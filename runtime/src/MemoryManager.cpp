// MemoryManager (MemoryManager.h): its options, construction, the helpers
// that run with Mu held (contexts, events, eviction, remote mapping) and
// the events from the interposed entry points. What a launch moves is in
// MemoryLaunch.cpp; hints, the managed pool and stats in MemoryHints.cpp.
#include "MemoryManager.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gmem {
namespace rt {
namespace {

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

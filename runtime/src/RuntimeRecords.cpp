// Recorded launches read back: the GMEM_LOG=launches line, gmemLaunchInfo
// (fill, recentLaunches from the ring) and the statistics.
#include "Runtime.h"
#include "ThreadCounters.h"

#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

namespace gmem {
namespace rt {
namespace {

std::string reasonText(const KernelDescriptor &K, bool Idempotent, bool HasClash, bool Anything,
                       int Read, int Write) {
  if (Idempotent)
    return IdempotentLaunchReason;
  if (!HasClash)
    return "";
  if (Anything)
    return accessOwnerName(K, Write) + " may write, and " + accessOwnerName(K, Read) +
           " may read, memory the analysis cannot bound";
  return "write of " + accessOwnerName(K, Write) + " overlaps read of " + accessOwnerName(K, Read);
}

} // namespace

void Runtime::log(const LaunchRecord &R) const {
  gmemLaunchInfo I;
  fill(R, I);
  char Line[768];
  int N = std::snprintf(Line, sizeof Line,
                        "gmem: launch #%" PRIu64 " %s grid=(%u,%u,%u) block=(%u,%u,%u) class=%s",
                        I.sequence, I.kernel_name, I.grid[0], I.grid[1], I.grid[2], I.block[0],
                        I.block[1], I.block[2], gmemClassName(I.kernel_class));
  if (N < 0)
    return;
  size_t Len = size_t(N) < sizeof Line ? size_t(N) : sizeof Line - 1;
  if (I.instrumented) {
    if (I.has_conflict)
      N = std::snprintf(Line + Len, sizeof Line - Len,
                        " idempotent=no conflict: %s [0x%" PRIx64 ",0x%" PRIx64 ")", I.reason,
                        I.conflict_lo, I.conflict_hi);
    else
      N = std::snprintf(Line + Len, sizeof Line - Len, " idempotent=%s",
                        I.idempotent ? "yes" : "no");
  } else {
    N = std::snprintf(Line + Len, sizeof Line - Len, " idempotent=no (uninstrumented: %s)",
                      I.reason);
  }
  if (N > 0)
    Len = Len + size_t(N) < sizeof Line - 1 ? Len + size_t(N) : sizeof Line - 2;
  if (I.launch_result != 0 && Len + 24 < sizeof Line)
    Len += size_t(std::snprintf(Line + Len, sizeof Line - Len, " result=%d", I.launch_result));
  Line[Len++] = '\n';
  std::fwrite(Line, 1, Len, stderr);
}

void Runtime::fill(const LaunchRecord &R, gmemLaunchInfo &Out) const {
  std::memset(&Out, 0, sizeof Out);
  const KernelEntry *E = R.Entry;
  Out.sequence = R.Seq;
  Out.kernel_symbol = E ? E->Symbol.c_str() : "";
  Out.kernel_name = E ? E->Plain.c_str() : "";
  Out.instrumented = R.Instrumented;
  Out.kernel_class = E && E->St == KernelEntry::State::Instrumented ? E->Class : GMEM_CLASS_NONE;
  Out.idempotent = R.Idempotent;
  Out.launch_result = R.Result;
  Out.api = R.Api;
  for (int I = 0; I < 3; ++I) {
    Out.grid[I] = R.Grid[I];
    Out.block[I] = R.Block[I];
  }
  Out.shared_mem_bytes = R.Shmem;
  Out.stream = R.Stream;
  Out.has_conflict = R.HasClash;
  Out.conflict_read = R.ClashRead;
  Out.conflict_write = R.ClashWrite;
  Out.conflict_lo = R.ClashLo;
  Out.conflict_hi = R.ClashHi;
  Out.num_ptr_args = R.NumPtr;
  Out.num_ptr_args_recorded = R.NumPtrRec;
  std::memcpy(Out.ptr_args, R.Ptr, sizeof(gmemArgAccess) * size_t(R.NumPtrRec));
  std::string Why;
  if (!E)
    Why = "kernel handle could not be resolved";
  else if (E->St != KernelEntry::State::Instrumented)
    Why = E->Why;
  else if (R.ArgsUnreadable)
    Why = "launch arguments could not be read";
  else if (R.NotEvaluated)
    Why = "not evaluated: the scheduler runs this launch unpreempted (top priority) and nothing "
          "needed its regions (GMEM_EVAL=all evaluates every launch)";
  else
    Why = reasonText(E->Desc, R.Idempotent, R.HasClash, R.ClashAnything, R.ClashRead, R.ClashWrite);
  std::snprintf(Out.reason, sizeof Out.reason, "%s", Why.c_str());
}

int Runtime::recentLaunches(gmemLaunchInfo *Out, int Max) const {
  if (!Out || Max < 0)
    return -GMEM_ERROR_INVALID_VALUE;
  if (Opts.Disabled || Max == 0)
    return 0;
  uint64_t Last = NextSeq.load(std::memory_order_acquire) - 1;
  uint64_t First = Last >= RingSize ? Last - RingSize + 1 : 1;
  if (Last + 1 - First > uint64_t(Max))
    First = Last + 1 - uint64_t(Max);
  std::unique_ptr<LaunchRecord> Tmp(new LaunchRecord());
  int N = 0;
  for (uint64_t Q = First; Q <= Last && Q != 0; ++Q) {
    const RingSlot &S = Ring[Q % RingSize];
    bool Got = false;
    for (int Try = 0; Try < 64 && !Got; ++Try) {
      uint64_t V1 = S.Ver.load(std::memory_order_acquire);
      if (V1 & 1)
        continue;
      std::memcpy(static_cast<void *>(Tmp.get()), &S.Rec, offsetof(LaunchRecord, Ptr));
      int32_t NR = Tmp->NumPtrRec;
      if (NR < 0 || NR > GMEM_MAX_PTR_ARGS)
        NR = 0;
      std::memcpy(Tmp->Ptr, S.Rec.Ptr, sizeof(gmemArgAccess) * size_t(NR));
      std::atomic_thread_fence(std::memory_order_acquire);
      if (S.Ver.load(std::memory_order_relaxed) == V1) {
        Tmp->NumPtrRec = NR;
        Got = true;
      }
    }
    if (!Got || Tmp->Seq != Q)
      continue; // in flight, or already overwritten
    fill(*Tmp, Out[N++]);
  }
  return N;
}

uint64_t Runtime::evaluations() const {
  uint64_t N = 0;
  for (ThreadCounters *C = AllCounters.load(std::memory_order_acquire); C; C = C->Next)
    N += C->Evaluated.load(std::memory_order_relaxed);
  return N;
}

void Runtime::stats(gmemStats *Out) const {
  std::memset(Out, 0, sizeof *Out);
  Out->launches = NextSeq.load(std::memory_order_relaxed) - 1;
  // Per-thread counters are process-wide; count only this runtime's launches
  // (tests make several runtimes: the C API reports the current one).
  for (ThreadCounters *C = AllCounters.load(std::memory_order_acquire); C; C = C->Next) {
    Out->instrumented += C->Instrumented.load(std::memory_order_relaxed);
    Out->idempotent += C->Idempotent.load(std::memory_order_relaxed);
  }
  Out->instrumented -= BaseInstrumented;
  Out->idempotent -= BaseIdempotent;
  Out->kernels_resolved = NResolved.load(std::memory_order_relaxed);
  Out->bad_descriptors = NBad.load(std::memory_order_relaxed);
  Out->alloc_cache_misses = Allocs.Lookups.load(std::memory_order_relaxed);
  Out->alloc_driver_queries = Allocs.DriverQueries.load(std::memory_order_relaxed);
  Out->alloc_invalidations = Allocs.Invalidations.load(std::memory_order_relaxed);
  Out->verify_mismatches = NMismatch.load(std::memory_order_relaxed);
}

} // namespace rt
} // namespace gmem

// The launch path: Runtime::before evaluates the launch's decision (or
// takes it from this thread's memo) into this thread's record,
// Runtime::after publishes it. This file owns the per-thread state (one TLS
// block): lastLaunch, which reads this thread's record, is here for that.
#include "Runtime.h"
#include "ThreadCounters.h"

#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace gmem {
namespace rt {

std::atomic<ThreadCounters *> AllCounters{nullptr};

namespace {

struct Scratch;
struct Memo;

/// Everything per thread, in one TLS block reached once per launch (in a
/// shared library every TLS access is a __tls_get_addr call). Plain data,
/// constant-initialised: no TLS constructor or guard.
struct ThreadState {
  LaunchRecord Last;
  int RuntimeApiDepth = 0;
  AllocMap::L1Entry L1[1u << AllocMap::L1Bits] = {};
  Scratch *S = nullptr;
  Memo *M = nullptr;
  ThreadCounters *C = nullptr;
};
thread_local ThreadState TS;

struct Scratch {
  FastDecision D;
  std::vector<uint64_t> Bits;
  std::vector<ByteView> Bytes;
  std::vector<std::optional<Allocation>> Globals;
};
void reap();
struct Reaper {
  ~Reaper() { reap(); }
};
void ensureReaper() {
  static thread_local Reaper R;
  (void)&R;
}
Scratch &scratchOf(ThreadState &T);

// Per-thread memo of recent decisions (see Options::Memo). A decision is a
// pure function of the descriptor (the entry), grid, block, the argument
// bits and by-value bytes, the module globals' addresses (fixed per entry,
// or per context for CUkernel handles) and the allocations the pointers
// resolve to (fixed while the allocation map's generation is unchanged).
struct MemoSlot {
  uint64_t Hash = 0; ///< memoHash of what is remembered: a quick first test
  const KernelEntry *Entry = nullptr;
  uint64_t RuntimeId = 0, Gen = 0;
  CUcontext Ctx = nullptr;
  uint32_t Grid[3] = {0, 0, 0}, Block[3] = {0, 0, 0};
  std::vector<uint64_t> Bits;
  std::vector<uint8_t> Bytes;
  bool Idempotent = false, HasClash = false, ClashAnything = false;
  int32_t ClashRead = 0, ClashWrite = 0;
  uint64_t ClashLo = 0, ClashHi = 0;
  int32_t NumPtrRec = 0;
  gmemArgAccess Ptr[GMEM_MAX_PTR_ARGS] = {};
};
// The set is chosen by a hash of the kernel and its arguments, not of the
// kernel alone: a model runs each kernel with many argument sets in turn
// (one per layer), and a slot per kernel would miss on every such launch
// (measured: ~0.6 us of a ~5 us launch call on the H200's host,
// bench/colocation/results/diag). Four ways per set, replaced in turn: up
// to four argument sets that hash alike are all kept.
struct Memo {
  static constexpr unsigned Sets = 16, Assoc = 4;
  MemoSlot Slots[Sets * Assoc];
  uint8_t Next[Sets] = {}; ///< way to replace next, per set
  std::vector<uint8_t> Bytes; // this launch's by-value bytes, concatenated
};
uint64_t memoHash(const void *E, const uint32_t *Grid, const uint32_t *Block,
                  const uint64_t *Bits, size_t NP) {
  auto Mix = [](uint64_t H, uint64_t V) {
    H ^= V + 0x9E3779B97F4A7C15ull + (H << 6) + (H >> 2);
    return H * 0xFF51AFD7ED558CCDull;
  };
  uint64_t H = Mix(0, reinterpret_cast<uintptr_t>(E));
  H = Mix(H, (uint64_t(Grid[0]) << 32) ^ Grid[1] ^ (uint64_t(Grid[2]) << 16));
  H = Mix(H, (uint64_t(Block[0]) << 32) ^ Block[1] ^ (uint64_t(Block[2]) << 16));
  for (size_t I = 0; I < NP; ++I)
    H = Mix(H, Bits[I]);
  return H ^ (H >> 29);
}
Scratch &scratchOf(ThreadState &T) {
  if (!T.S) {
    ensureReaper();
    T.S = new Scratch();
  }
  return *T.S;
}
Memo &memoOf(ThreadState &T) {
  if (!T.M) {
    ensureReaper();
    T.M = new Memo();
  }
  return *T.M;
}
ThreadCounters &countersOf(ThreadState &T) {
  if (!T.C) { // registered for good: gmemGetStats sums them (a few bytes per thread ever)
    T.C = new ThreadCounters();
    ThreadCounters *Head = AllCounters.load(std::memory_order_relaxed);
    do
      T.C->Next = Head;
    while (!AllCounters.compare_exchange_weak(Head, T.C, std::memory_order_release,
                                              std::memory_order_relaxed));
  }
  return *T.C;
}
void reap() {
  delete TS.S;
  delete TS.M;
  TS.S = nullptr;
  TS.M = nullptr;
}

/// The value of pointer field F at this launch (0 when its bytes are missing).
uint64_t fieldPointer(const KernelEntry &E, uint32_t F, const ByteView *Bytes) {
  const FParam &P = E.Flat.Fields[F];
  if (P.FieldParam < 0 || size_t(P.FieldParam) >= E.Desc.Params.size())
    return 0;
  const ByteView &B = Bytes[P.FieldParam];
  if (!B.Data || size_t(P.FieldOffset) + 8 > B.Size)
    return 0;
  uint64_t V;
  std::memcpy(&V, B.Data + P.FieldOffset, 8);
  return V;
}

inline void hull(const ByteRange *R, size_t N, uint64_t &Lo, uint64_t &Hi) {
  Lo = R[0].Lo;
  Hi = R[0].Hi;
  for (size_t I = 1; I < N; ++I) {
    Lo = R[I].Lo < Lo ? R[I].Lo : Lo;
    Hi = R[I].Hi > Hi ? R[I].Hi : Hi;
  }
}

inline void setAccess(gmemArgAccess &P, int Index, int FieldOffset, int Owner, uint64_t Pointer,
                      bool HasAlloc, const Allocation &A, const ByteRange *Read, size_t NRead,
                      bool ReadAnything, const ByteRange *Write, size_t NWrite, bool WriteAnything,
                      bool ReadExact, bool WriteExact, bool Widened) {
  P.param_index = Index;
  P.field_offset = FieldOffset;
  P.owner = Owner;
  P.pointer = Pointer;
  P.alloc_base = HasAlloc ? A.Base : 0;
  P.alloc_size = HasAlloc ? A.Size : 0;
  uint32_t F = HasAlloc ? GMEM_ARG_HAS_ALLOC : 0;
  P.read_lo = P.read_hi = P.write_lo = P.write_hi = 0;
  P.read_count = P.write_count = 0;
  // One side (read or write): its hull, how many ranges, and its flags.
  auto Side = [&](const ByteRange *R, size_t N, bool Anything, uint32_t Access, uint32_t Any,
                  uint64_t &Lo, uint64_t &Hi, uint32_t &Count) {
    if (Anything) {
      F |= Access | Any;
      Hi = UINT64_MAX;
      Count = 1;
    } else if (N) {
      F |= Access;
      hull(R, N, Lo, Hi);
      Count = uint32_t(N);
    }
  };
  Side(Read, NRead, ReadAnything, GMEM_ARG_READS, GMEM_ARG_READ_ANYTHING, P.read_lo, P.read_hi,
       P.read_count);
  Side(Write, NWrite, WriteAnything, GMEM_ARG_WRITES, GMEM_ARG_WRITE_ANYTHING, P.write_lo,
       P.write_hi, P.write_count);
  F |= (ReadExact ? GMEM_ARG_READ_EXACT : 0) | (WriteExact ? GMEM_ARG_WRITE_EXACT : 0) |
       (Widened ? GMEM_ARG_WIDENED : 0);
  P.flags = F;
}

} // namespace

int &runtimeApiDepth() { return TS.RuntimeApiDepth; }

inline uint64_t loadBits(const void *P, uint32_t Size) {
  switch (Size) {
  case 8: {
    uint64_t V;
    std::memcpy(&V, P, 8);
    return V;
  }
  case 4: {
    uint32_t V;
    std::memcpy(&V, P, 4);
    return V;
  }
  case 2: {
    uint16_t V;
    std::memcpy(&V, P, 2);
    return V;
  }
  case 1: return *static_cast<const uint8_t *>(P);
  case 0: return 0;
  default: {
    uint64_t V = 0;
    std::memcpy(&V, P, Size < 8 ? Size : 8);
    return V;
  }
  }
}

bool Runtime::readArgs(const KernelEntry &E, void **Params, void **Extra, uint64_t *Bits,
                       ByteView *Bytes) const {
  const size_t NP = E.Desc.Params.size();
  if (NP == 0)
    return true;
  const uint32_t *Sizes = E.ParamSize.data();
  const uint8_t *Needs = E.Flat.NeedsBytes.data();
  if (Params) {
    for (size_t I = 0; I < NP; ++I) {
      const void *P = Params[I];
      if (!P && (Sizes[I] || Needs[I]))
        return false;
      Bits[I] = loadBits(P, Sizes[I]);
      Bytes[I] = Needs[I] ? ByteView{static_cast<const uint8_t *>(P), Sizes[I]} : ByteView{};
    }
    return true;
  }
  if (!Extra || !E.OffsetsKnown)
    return false;
  const char *Buf = nullptr;
  size_t Size = 0;
  if (!launchParamBuffer(Extra, &Buf, &Size))
    return false;
  for (size_t I = 0; I < NP; ++I) {
    size_t N = Sizes[I] < 8 ? Sizes[I] : 8;
    size_t Whole = Needs[I] ? Sizes[I] : N;
    if (size_t(E.ParamOffset[I]) + (Whole > N ? Whole : N) > Size)
      return false;
    Bits[I] = loadBits(Buf + E.ParamOffset[I], uint32_t(N));
    Bytes[I] = Needs[I] ? ByteView{reinterpret_cast<const uint8_t *>(Buf + E.ParamOffset[I]), Whole}
                        : ByteView{};
  }
  return true;
}

LaunchRecord *Runtime::before(const LaunchRequest &L) {
  LaunchRecord *R = decide(L);
  if (R && R->Instrumented && !R->ArgsUnreadable && Mem.active())
    Mem.beforeLaunch(R->Seq, R->Ptr, R->NumPtrRec, reinterpret_cast<CUstream>(R->Stream),
                     (LogMask.load(std::memory_order_relaxed) & GMEM_LOG_MEMORY) != 0);
  return R;
}

LaunchRecord *Runtime::decide(const LaunchRequest &L) {
  ThreadState &T = TS;
  if (Opts.Disabled || T.RuntimeApiDepth > 0)
    return nullptr; // disabled, or the driver launch under a runtime-API launch
  LaunchRecord &R = T.Last;
  R.Seq = NextSeq.fetch_add(1, std::memory_order_relaxed);
  R.RuntimeId = Id;
  R.Result = 0;
  R.Api = L.Api;
  for (int I = 0; I < 3; ++I) {
    R.Grid[I] = L.Grid[I];
    R.Block[I] = L.Block[I];
  }
  R.Shmem = L.Shmem;
  R.Stream = L.Stream;
  R.Instrumented = R.Idempotent = R.HasClash = R.ClashAnything = R.ArgsUnreadable = false;
  R.NotEvaluated = false;
  R.ClashRead = R.ClashWrite = 0;
  R.ClashLo = R.ClashHi = 0;
  R.NumPtr = R.NumPtrRec = 0;
  KernelEntry *E = nullptr;
  if (L.Handle) {
    E = Kernels.find(L.Handle);
    if (!E)
      E = resolve(L.Handle);
  }
  R.Entry = E;
  if (!E || E->St != KernelEntry::State::Instrumented)
    return &R;
  if (L.Unpreempted && !Opts.EvalAll && !Opts.Verify && !Opts.Reference &&
      !(LogMask.load(std::memory_order_relaxed) & GMEM_LOG_LAUNCHES) && !Mem.wantsDecisions()) {
    R.NotEvaluated = true; // not idempotent, as far as anyone asking knows
    return &R;
  }

  Scratch &S = scratchOf(T);
  const size_t NP = E->Desc.Params.size();
  if (S.Bits.size() < NP) {
    S.Bits.resize(NP);
    S.Bytes.resize(NP);
  }
  uint64_t *Bits = S.Bits.data();
  if (!readArgs(*E, L.Params, L.Extra, Bits, S.Bytes.data())) {
    R.ArgsUnreadable = true;
    return &R;
  }

  FastLaunch FL;
  for (int I = 0; I < 3; ++I) {
    FL.Grid[I] = L.Grid[I];
    FL.Block[I] = L.Block[I];
  }
  FL.ArgBits = Bits;
  FL.NumArgs = NP;
  FL.ArgBytes = S.Bytes.data();
  FL.NumArgBytes = NP;
  CUcontext Ctx = nullptr;
  if (!E->Globals.empty()) {
    std::lock_guard<std::mutex> Lock(E->GlobalsMu);
    if (E->GlobalsPerContext) {
      if (Drv.ctxGetCurrent(&Ctx) == CUDA_SUCCESS && Ctx != E->GlobalsCtx)
        resolveGlobals(*E, Ctx);
    }
    S.Globals = E->Globals;
    FL.Globals = S.Globals.data();
  }
  AllocMap::L1Entry *Cache = T.L1;
  auto Lookup = [this, Cache](uint64_t P, Allocation &A) { return Allocs.lookup(P, A, Cache); };

  R.Instrumented = true;
  // (Every variant has the kernel's pointer parameters and fields.)
  R.NumPtr = int32_t(E->Flat.PointerParams.size() + E->Flat.Fields.size());
  R.NumPtrRec = R.NumPtr < GMEM_MAX_PTR_ARGS ? R.NumPtr : GMEM_MAX_PTR_ARGS;

  // Same launch as one this thread made recently: reuse its decision.
  MemoSlot *M = nullptr;
  uint64_t Gen = 0, Hash = 0;
  if (Opts.Memo && !Opts.Verify && !Opts.Reference) {
    Memo &Mm = memoOf(T);
    Hash = memoHash(E, R.Grid, R.Block, Bits, NP);
    const unsigned Set = unsigned(Hash % Memo::Sets);
    MemoSlot *Ways = &Mm.Slots[Set * Memo::Assoc];
    Gen = Allocs.generation();
    Mm.Bytes.clear();
    if (E->AnyBytes)
      for (size_t I = 0; I < NP; ++I)
        if (S.Bytes[I].Data)
          Mm.Bytes.insert(Mm.Bytes.end(), S.Bytes[I].Data, S.Bytes[I].Data + S.Bytes[I].Size);
    for (unsigned W = 0; W < Memo::Assoc && !M; ++W) {
      MemoSlot &C = Ways[W];
      if (C.Hash == Hash && C.Entry == E && C.RuntimeId == Id && C.Gen == Gen && C.Ctx == Ctx &&
          std::memcmp(C.Grid, R.Grid, sizeof R.Grid) == 0 &&
          std::memcmp(C.Block, R.Block, sizeof R.Block) == 0 && C.Bits.size() == NP &&
          std::memcmp(C.Bits.data(), Bits, NP * sizeof(uint64_t)) == 0 && C.Bytes == Mm.Bytes)
        M = &C;
    }
    if (M) {
      R.Idempotent = M->Idempotent;
      R.HasClash = M->HasClash;
      R.ClashAnything = M->ClashAnything;
      R.ClashRead = M->ClashRead;
      R.ClashWrite = M->ClashWrite;
      R.ClashLo = M->ClashLo;
      R.ClashHi = M->ClashHi;
      std::memcpy(R.Ptr, M->Ptr, sizeof(gmemArgAccess) * size_t(R.NumPtrRec));
      return &R;
    }
    M = &Ways[Mm.Next[Set]]; // remembered below, once evaluated
    Mm.Next[Set] = uint8_t((Mm.Next[Set] + 1) % Memo::Assoc);
  }

  // The launch's variant (LaunchGuard.h), once the memo missed: its
  // arguments may meet a guard under which the kernel touches less.
  const KernelDescriptor *KD = &E->Desc;
  const FlatKernel *FK = &E->Flat;
  if (!E->Variants.empty()) {
    const KernelDescriptor &Sel = selectVariant(E->Desc, Bits, NP);
    for (const KernelEntry::Variant &V : E->Variants)
      if (V.Desc == &Sel) {
        KD = V.Desc;
        FK = &V.Flat;
      }
  }
  {
    ThreadCounters &TC = countersOf(T);
    TC.Evaluated.store(TC.Evaluated.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  if (Opts.Reference || Opts.Verify) {
    LaunchConfig LC;
    for (int I = 0; I < 3; ++I) {
      LC.Grid[I] = L.Grid[I];
      LC.Block[I] = L.Block[I];
    }
    LC.ArgBits.assign(Bits, Bits + NP);
    LC.ArgBytes.resize(NP);
    for (size_t I = 0; I < NP; ++I)
      if (S.Bytes[I].Data)
        LC.ArgBytes[I].assign(S.Bytes[I].Data, S.Bytes[I].Data + S.Bytes[I].Size);
    std::vector<std::optional<Allocation>> G(FL.Globals, FL.Globals + (FL.Globals ? KD->Globals.size() : 0));
    const KernelDescriptor &K = *KD;
    InstanceDecision Ref = checkInstance(
        K, LC,
        [&](uint64_t P) -> std::optional<Allocation> {
          Allocation A;
          if (Allocs.lookup(P, A))
            return A;
          return std::nullopt;
        },
        [&](const std::string &Sym) -> std::optional<Allocation> {
          for (size_t I = 0; I < K.Globals.size() && I < G.size(); ++I)
            if (K.Globals[I].Name == Sym)
              return G[I];
          return std::nullopt;
        });
    if (Opts.Verify) {
      fastCheck(*FK, FL, Lookup, S.D);
      std::string Diff = compareDecisions(K, S.D, Ref);
      if (!Diff.empty()) {
        NMismatch.fetch_add(1, std::memory_order_relaxed);
        if (LogMask.load(std::memory_order_relaxed) & GMEM_LOG_ERRORS)
          std::fprintf(stderr, "gmem: VERIFY MISMATCH kernel %s launch #%" PRIu64 ": %s\n",
                       E->Symbol.c_str(), R.Seq, Diff.c_str());
      }
    }
    if (Opts.Reference) {
      R.Idempotent = Ref.Idempotent;
      if (Ref.Clash) {
        R.HasClash = true;
        R.ClashAnything = Ref.Clash->Range.Lo == 0 && Ref.Clash->Range.Hi == UINT64_MAX &&
                          Ref.Reason.find("cannot bound") != std::string::npos;
        R.ClashRead = Ref.Clash->ReadIndex;
        R.ClashWrite = Ref.Clash->WriteIndex;
        R.ClashLo = Ref.Clash->Range.Lo;
        R.ClashHi = Ref.Clash->Range.Hi;
      }
      const size_t NPtr = FK->PointerParams.size();
      for (int32_t K2 = 0; K2 < R.NumPtrRec; ++K2) {
        bool IsField = size_t(K2) >= NPtr;
        uint32_t I = IsField ? uint32_t(K2 - NPtr) : FK->PointerParams[K2];
        const ConcreteAccess &A = IsField ? Ref.Fields[I] : Ref.Params[I];
        int Param = IsField ? FK->Fields[I].FieldParam : int(I);
        setAccess(R.Ptr[K2], Param, IsField ? int(FK->Fields[I].FieldOffset) : -1,
                  IsField ? FieldOwnerBase + int(I) : int(I),
                  IsField ? fieldPointer(*E, I, S.Bytes.data()) : Bits[I], A.Alloc.has_value(),
                  A.Alloc ? *A.Alloc : Allocation{}, A.Read.data(), A.Read.size(), A.ReadAnything,
                  A.Write.data(), A.Write.size(), A.WriteAnything, A.ReadExact, A.WriteExact,
                  !A.Note.empty());
      }
      return &R;
    }
  } else {
    fastCheck(*FK, FL, Lookup, S.D);
  }

  const FastDecision &D = S.D;
  R.Idempotent = D.Idempotent;
  if (D.HasClash) {
    R.HasClash = true;
    R.ClashAnything = D.ClashAnything;
    R.ClashRead = D.Clash.ReadIndex;
    R.ClashWrite = D.Clash.WriteIndex;
    R.ClashLo = D.Clash.Range.Lo;
    R.ClashHi = D.Clash.Range.Hi;
  }
  const size_t NPtr = FK->PointerParams.size();
  for (int32_t K = 0; K < R.NumPtrRec; ++K) {
    bool IsField = size_t(K) >= NPtr;
    uint32_t I = IsField ? uint32_t(K - NPtr) : FK->PointerParams[K];
    const FastAccess &A = IsField ? D.Fields[I] : D.Params[I];
    int Param = IsField ? FK->Fields[I].FieldParam : int(I);
    setAccess(R.Ptr[K], Param, IsField ? int(FK->Fields[I].FieldOffset) : -1,
              IsField ? FieldOwnerBase + int(I) : int(I),
              IsField ? fieldPointer(*E, I, S.Bytes.data()) : Bits[I], A.HasAlloc, A.Alloc,
              D.Pool.data() + A.ReadBegin, A.ReadEnd - A.ReadBegin, A.ReadAnything,
              D.Pool.data() + A.WriteBegin, A.WriteEnd - A.WriteBegin, A.WriteAnything,
              A.ReadExact, A.WriteExact, A.Widened != WidenWhy::None);
  }
  if (M) {
    M->Hash = Hash;
    M->Entry = E;
    M->RuntimeId = Id;
    M->Gen = Gen;
    M->Ctx = Ctx;
    std::memcpy(M->Grid, R.Grid, sizeof R.Grid);
    std::memcpy(M->Block, R.Block, sizeof R.Block);
    M->Bits.assign(Bits, Bits + NP);
    M->Bytes = memoOf(T).Bytes;
    M->Idempotent = R.Idempotent;
    M->HasClash = R.HasClash;
    M->ClashAnything = R.ClashAnything;
    M->ClashRead = R.ClashRead;
    M->ClashWrite = R.ClashWrite;
    M->ClashLo = R.ClashLo;
    M->ClashHi = R.ClashHi;
    M->NumPtrRec = R.NumPtrRec;
    std::memcpy(M->Ptr, R.Ptr, sizeof(gmemArgAccess) * size_t(R.NumPtrRec));
  }
  return &R;
}

void Runtime::publish(const LaunchRecord &R) {
  RingSlot &S = Ring[R.Seq % RingSize];
  uint64_t V = S.Ver.load(std::memory_order_relaxed);
  for (;;) {
    if (V & 1) {
      V = S.Ver.load(std::memory_order_relaxed);
      continue;
    }
    if (S.Ver.compare_exchange_weak(V, V + 1, std::memory_order_acquire, std::memory_order_relaxed))
      break;
  }
  // Copy the header and the pointer accesses in use.
  size_t Bytes = offsetof(LaunchRecord, Ptr) + size_t(R.NumPtrRec) * sizeof(gmemArgAccess);
  std::memcpy(static_cast<void *>(&S.Rec), &R, Bytes);
  S.Ver.store(V + 2, std::memory_order_release);
}

void Runtime::after(LaunchRecord *R, int Result) {
  if (!R)
    return;
  R->Result = Result;
  if (R->Instrumented && Mem.active())
    Mem.afterLaunch(R->Seq, reinterpret_cast<CUstream>(R->Stream), CUresult(Result));
  publish(*R);
  if (R->Instrumented) {
    ThreadCounters &C = countersOf(TS);
    C.Instrumented.store(C.Instrumented.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    if (R->Idempotent)
      C.Idempotent.store(C.Idempotent.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  if (LogMask.load(std::memory_order_relaxed) & GMEM_LOG_LAUNCHES)
    log(*R);
}

int Runtime::lastLaunch(gmemLaunchInfo *Out) const {
  if (!Out)
    return GMEM_ERROR_INVALID_VALUE;
  if (Opts.Disabled)
    return GMEM_ERROR_DISABLED;
  const LaunchRecord &R = TS.Last;
  if (R.Seq == 0 || R.RuntimeId != Id)
    return GMEM_ERROR_NO_LAUNCH;
  fill(R, *Out);
  return GMEM_SUCCESS;
}

} // namespace rt
} // namespace gmem

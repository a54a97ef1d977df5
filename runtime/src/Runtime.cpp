#include "Runtime.h"
#include "Scheduler.h"

#include "gmem/compiler/DescriptorCodec.h"
#include "gmem/descriptor_abi.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#ifndef GMEMRT_VERSION
#define GMEMRT_VERSION "0.1.0"
#endif

namespace gmem {
namespace rt {
namespace {

struct Scratch;
struct Memo;

/// Counters of one thread (single writer; summed by gmemGetStats).
struct ThreadCounters {
  std::atomic<uint64_t> Instrumented{0}, Idempotent{0};
  std::atomic<uint64_t> Evaluated{0}; ///< decisions computed (not taken from the memo)
  ThreadCounters *Next = nullptr;
};
std::atomic<ThreadCounters *> AllCounters{nullptr};

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

std::atomic<uint64_t> NextRuntimeId{1};
std::atomic<Runtime *> TestOverride{nullptr};

bool envTrue(const char *Name) {
  const char *V = std::getenv(Name);
  return V && *V && std::strcmp(V, "0") != 0 && std::strcmp(V, "no") != 0 &&
         std::strcmp(V, "false") != 0;
}

int parseLogMask(const char *S) {
  if (!S || !*S)
    return GMEM_LOG_ERRORS;
  char *End = nullptr;
  long N = std::strtol(S, &End, 0);
  if (End && *End == 0)
    return int(N);
  int Mask = 0;
  std::string Text(S);
  size_t Pos = 0;
  while (Pos <= Text.size()) {
    size_t Comma = Text.find_first_of(",:+ ", Pos);
    std::string W = Text.substr(Pos, Comma == std::string::npos ? std::string::npos : Comma - Pos);
    if (W == "launches" || W == "launch")
      Mask |= GMEM_LOG_LAUNCHES;
    else if (W == "descriptors" || W == "descriptor" || W == "kernels")
      Mask |= GMEM_LOG_DESCRIPTORS;
    else if (W == "memory" || W == "prefetch")
      Mask |= GMEM_LOG_MEMORY;
    else if (W == "driver" || W == "entrypoints")
      Mask |= GMEM_LOG_DRIVER;
    else if (W == "errors" || W == "error")
      Mask |= GMEM_LOG_ERRORS;
    else if (W == "all")
      Mask |= GMEM_LOG_ERRORS | GMEM_LOG_LAUNCHES | GMEM_LOG_DESCRIPTORS;
    else if (W == "none" || W == "off")
      Mask = 0;
    if (Comma == std::string::npos)
      break;
    Pos = Comma + 1;
  }
  // Asking for launch lines does not silence errors.
  if (Mask & (GMEM_LOG_LAUNCHES | GMEM_LOG_DESCRIPTORS))
    Mask |= GMEM_LOG_ERRORS;
  return Mask;
}

std::string reasonText(const KernelDescriptor &K, bool Idempotent, bool HasClash, bool Anything,
                       int Read, int Write) {
  if (Idempotent)
    return "no byte read at this launch is also written";
  if (!HasClash)
    return "";
  if (Anything)
    return accessOwnerName(K, Write) + " may write, and " + accessOwnerName(K, Read) +
           " may read, memory the analysis cannot bound";
  return "write of " + accessOwnerName(K, Write) + " overlaps read of " + accessOwnerName(K, Read);
}

unsigned typeBytes(ScalarType T) { return scalarTypeBits(T) / 8; }

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

Options Options::fromEnvironment() {
  Options O;
  O.Disabled = envTrue("GMEM_DISABLE");
  O.LogMask = parseLogMask(std::getenv("GMEM_LOG"));
  O.Verify = envTrue("GMEM_VERIFY");
  const char *Eval = std::getenv("GMEM_EVAL");
  O.Reference = Eval && std::strcmp(Eval, "reference") == 0;
  O.EvalAll = Eval && std::strcmp(Eval, "all") == 0;
  const char *Gl = std::getenv("GMEM_GLOBALS");
  O.ResolveGlobals = !(Gl && (std::strcmp(Gl, "0") == 0 || std::strcmp(Gl, "no") == 0));
  const char *M = std::getenv("GMEM_MEMO");
  O.Memo = !(M && (std::strcmp(M, "0") == 0 || std::strcmp(M, "no") == 0 || std::strcmp(M, "off") == 0));
  O.Mem = MemoryOptions::fromEnvironment(&O.MemError);
  return O;
}

Runtime::Runtime(DriverApi &D, const Options &O, MemoryDriver *M)
    : Allocs(D), Mem(M ? *M : realMemoryDriver(), O.Mem), Drv(D), Opts(O),
      Id(NextRuntimeId.fetch_add(1)), LogMask(O.LogMask), Ring(new RingSlot[RingSize]) {
  if (!O.MemError.empty() && (O.LogMask & GMEM_LOG_ERRORS))
    std::fprintf(stderr, "gmem: %s\n", O.MemError.c_str());
  // Pool blocks are allocations of their own for the launch check.
  Mem.setPoolObserver([this](uint64_t Base, uint64_t Size, bool Live) {
    if (Live)
      Allocs.registerBlock(Base, Size);
    else
      Allocs.unregisterBlock(Base);
  });
  for (ThreadCounters *C = AllCounters.load(std::memory_order_acquire); C; C = C->Next) {
    BaseInstrumented += C->Instrumented.load(std::memory_order_relaxed);
    BaseIdempotent += C->Idempotent.load(std::memory_order_relaxed);
  }
}

Runtime::~Runtime() = default;

Runtime &Runtime::global() {
  if (Runtime *T = TestOverride.load(std::memory_order_acquire))
    return *T;
  // Never destroyed: launches may happen from atexit handlers and other
  // libraries' destructors.
  static Runtime *R = new Runtime(realDriver(), Options::fromEnvironment());
  return *R;
}

void Runtime::setGlobalForTesting(Runtime *R) { TestOverride.store(R, std::memory_order_release); }

void Runtime::onModuleUnload(CUmodule M) {
  Kernels.invalidate([M](const KernelEntry &E) { return !E.ViaLibrary && E.Module == M; });
  Allocs.invalidateAll(); // module globals go away too
}

void Runtime::onLibraryUnload(CUlibrary L) {
  // Functions of a library's kernels (cuKernelGetFunction) have modules we
  // cannot relate to the library: forget everything.
  (void)L;
  Kernels.invalidate([](const KernelEntry &) { return true; });
  Allocs.invalidateAll();
}

void Runtime::onContextDestroy() {
  Kernels.invalidate([](const KernelEntry &) { return true; });
  Allocs.invalidateAll();
  Mem.onContextDestroy();
}

void Runtime::resolveGlobals(KernelEntry &E, CUcontext Ctx) {
  E.Globals.assign(E.Desc.Globals.size(), std::nullopt);
  for (size_t G = 0; G < E.Desc.Globals.size(); ++G) {
    CUdeviceptr P = 0;
    size_t N = 0;
    const char *Name = E.Desc.Globals[G].Name.c_str();
    CUresult R = E.ViaLibrary ? Drv.libraryGetGlobal(&P, &N, E.Library, Name)
                              : Drv.moduleGetGlobal(&P, &N, E.Module, Name);
    if (R == CUDA_SUCCESS && N > 0)
      E.Globals[G] = Allocation{uint64_t(P), uint64_t(N)};
  }
  E.GlobalsCtx = Ctx;
}

std::unique_ptr<KernelEntry> Runtime::makeEntry(uintptr_t H) {
  auto E = std::make_unique<KernelEntry>();
  E->Handle = H;
  auto Uninstrumented = [&](std::string Why) {
    E->St = KernelEntry::State::Uninstrumented;
    E->Why = std::move(Why);
    if (E->Plain.empty())
      E->Plain = E->Symbol;
    return std::move(E);
  };
  auto Bad = [&](std::string Why) {
    E->St = KernelEntry::State::Bad;
    E->Why = "bad gmem descriptor: " + Why;
    E->Plain = E->Symbol;
    E->Desc = KernelDescriptor();
    return std::move(E);
  };
  if (!Drv.available())
    return Uninstrumented("no CUDA driver");

  CUfunction F = reinterpret_cast<CUfunction>(H);
  CUmodule M = nullptr;
  const char *Name = nullptr;
  CUresult RM = Drv.funcGetModule(&M, F);
  if (RM == CUDA_SUCCESS && M) {
    E->Module = M;
    E->Func = F;
    CUresult RN = Drv.funcGetName(&Name, F);
    if (RN != CUDA_SUCCESS || !Name)
      return Uninstrumented("cuFuncGetName failed (error " + std::to_string(int(RN)) + ")");
  } else {
    // CUDA 12+ accepts a CUkernel (cuLibraryGetKernel) where a CUfunction goes.
    CUkernel K = reinterpret_cast<CUkernel>(H);
    CUlibrary L = nullptr;
    CUresult RL = Drv.kernelGetLibrary(&L, K);
    if (RL != CUDA_SUCCESS || !L)
      return Uninstrumented("cannot identify the kernel handle (cuFuncGetModule: error " +
                            std::to_string(int(RM)) + ", cuKernelGetLibrary: error " +
                            std::to_string(int(RL)) + ")");
    E->ViaLibrary = true;
    E->Library = L;
    CUresult RN = Drv.kernelGetName(&Name, K);
    if (RN != CUDA_SUCCESS || !Name)
      return Uninstrumented("cuKernelGetName failed (error " + std::to_string(int(RN)) + ")");
    CUfunction KF = nullptr;
    if (Drv.kernelGetFunction(&KF, K) == CUDA_SUCCESS)
      E->Func = KF;
  }
  E->Symbol = Name;

  std::string Global = "__gmem_desc_" + E->Symbol;
  CUdeviceptr Ptr = 0;
  size_t Bytes = 0;
  CUresult RG = E->ViaLibrary ? Drv.libraryGetGlobal(&Ptr, &Bytes, E->Library, Global.c_str())
                              : Drv.moduleGetGlobal(&Ptr, &Bytes, E->Module, Global.c_str());
  if (RG != CUDA_SUCCESS)
    return Uninstrumented("no gmem descriptor (" + Global + " not in the module)");
  if (Bytes < GMEM_DESC_HEADER_SIZE || Bytes > (64u << 20))
    return Bad(Global + " has " + std::to_string(Bytes) + " bytes");
  std::vector<uint8_t> Buf(Bytes);
  CUresult RR = Drv.readDevice(Buf.data(), Ptr, Bytes);
  if (RR != CUDA_SUCCESS)
    return Bad("cannot read " + Global + " (error " + std::to_string(int(RR)) + ")");
  std::string Err;
  if (!decodeDescriptor(Buf.data(), Buf.size(), E->Desc, &Err))
    return Bad(Err.empty() ? "malformed" : Err);
  if (E->Desc.Symbol != E->Symbol)
    return Bad("descriptor describes '" + E->Desc.Symbol + "'");

  // Parameter layout: the driver's, checked against the descriptor.
  const size_t NP = E->Desc.Params.size();
  bool HaveInfo = false;
  if (E->Func) {
    size_t Off = 0, Size = 0;
    CUresult R0 = Drv.funcGetParamInfo(E->Func, 0, &Off, &Size);
    if (R0 == CUDA_SUCCESS || R0 == CUDA_ERROR_INVALID_VALUE) {
      size_t Count = 0;
      for (CUresult R = R0; R == CUDA_SUCCESS && Count <= NP;) {
        E->ParamOffset.push_back(uint32_t(Off));
        E->ParamSize.push_back(uint32_t(Size));
        ++Count;
        R = Drv.funcGetParamInfo(E->Func, Count, &Off, &Size);
      }
      if (Count != NP)
        return Bad("descriptor has " + std::to_string(NP) + " parameters, the kernel " +
                   std::to_string(Count));
      for (size_t I = 0; I < NP; ++I) {
        ScalarType T = E->Desc.Params[I].Type;
        unsigned Want = typeBytes(T);
        uint32_t Agg = E->Desc.Params[I].ByteSize;
        bool Ok = Agg ? E->ParamSize[I] == Agg
                      : T == ScalarType::Other || Want == 0 ||
                            (Want >= 4 ? E->ParamSize[I] == Want
                                       : E->ParamSize[I] >= 1 && E->ParamSize[I] <= 4);
        if (!Ok)
          return Bad("parameter " + std::to_string(I) + " is " + std::to_string(E->ParamSize[I]) +
                     " bytes, the descriptor says " + scalarTypeName(T));
      }
      HaveInfo = true;
      E->OffsetsKnown = true;
    }
  }
  if (!HaveInfo) {
    // Natural C layout from the descriptor's types (no byval aggregates).
    E->ParamOffset.clear();
    E->ParamSize.clear();
    uint32_t Off = 0;
    E->OffsetsKnown = true;
    for (size_t I = 0; I < NP; ++I) {
      unsigned B = typeBytes(E->Desc.Params[I].Type);
      if (B == 0) {
        E->OffsetsKnown = false; // aggregate: alignment unknown
        B = E->Desc.Params[I].ByteSize;
      }
      Off = B ? (Off + B - 1) / B * B : Off;
      E->ParamOffset.push_back(Off);
      E->ParamSize.push_back(B);
      Off += B;
    }
  }

  E->Flat = compileKernel(E->Desc);
  for (uint8_t B : E->Flat.NeedsBytes)
    E->AnyBytes |= B != 0;
  E->Class = int(E->Desc.Class);
  E->Plain = E->Desc.PlainName.empty() ? E->Symbol : E->Desc.PlainName;
  if (!E->Desc.Globals.empty() && Opts.ResolveGlobals) {
    CUcontext C = nullptr;
    Drv.ctxGetCurrent(&C);
    resolveGlobals(*E, C);
    E->GlobalsPerContext = E->ViaLibrary;
  }
  E->St = KernelEntry::State::Instrumented;
  return E;
}

void Runtime::report(const KernelEntry &E) {
  if (E.St == KernelEntry::State::Bad) {
    NBad.fetch_add(1, std::memory_order_relaxed);
    bool First;
    {
      std::lock_guard<std::mutex> Lock(ReportMu);
      First = Reported.insert(E.Symbol).second;
    }
    if (First && (LogMask.load(std::memory_order_relaxed) & GMEM_LOG_ERRORS))
      std::fprintf(stderr, "gmem: kernel %s: %s; its launches run uninstrumented\n",
                   E.Symbol.c_str(), E.Why.c_str());
  }
  if (LogMask.load(std::memory_order_relaxed) & GMEM_LOG_DESCRIPTORS) {
    if (E.St == KernelEntry::State::Instrumented)
      std::fprintf(stderr, "gmem: kernel %s: descriptor via %s, class %s, %zu parameters (%zu pointers)\n",
                   E.Symbol.c_str(), E.ViaLibrary ? "library" : "module",
                   className(E.Desc.Class), E.Desc.Params.size(), E.Flat.PointerParams.size());
    else
      std::fprintf(stderr, "gmem: kernel %s: uninstrumented: %s\n",
                   E.Symbol.empty() ? "?" : E.Symbol.c_str(), E.Why.c_str());
  }
}

KernelEntry *Runtime::resolve(uintptr_t H) {
  // A kernel handle's first look-up loads its code (cuKernelGetFunction
  // under lazy loading) and reads its descriptor: not while the scheduler
  // has work stopped (runtime/src/SchedFirstLaunch.cpp).
  sched::CodeLoadQuiet Quiet;
  bool Made = false;
  KernelEntry *E = Kernels.findOrInsert(H, [&] {
    Made = true;
    return makeEntry(H);
  });
  if (Made) {
    NResolved.fetch_add(1, std::memory_order_relaxed);
    report(*E);
  }
  return E;
}

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
    std::vector<std::optional<Allocation>> G(FL.Globals, FL.Globals + (FL.Globals ? E->Desc.Globals.size() : 0));
    const KernelDescriptor &K = E->Desc;
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
      fastCheck(E->Flat, FL, Lookup, S.D);
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
      const size_t NPtr = E->Flat.PointerParams.size();
      for (int32_t K2 = 0; K2 < R.NumPtrRec; ++K2) {
        bool IsField = size_t(K2) >= NPtr;
        uint32_t I = IsField ? uint32_t(K2 - NPtr) : E->Flat.PointerParams[K2];
        const ConcreteAccess &A = IsField ? Ref.Fields[I] : Ref.Params[I];
        int Param = IsField ? E->Flat.Fields[I].FieldParam : int(I);
        setAccess(R.Ptr[K2], Param, IsField ? int(E->Flat.Fields[I].FieldOffset) : -1,
                  IsField ? FieldOwnerBase + int(I) : int(I),
                  IsField ? fieldPointer(*E, I, S.Bytes.data()) : Bits[I], A.Alloc.has_value(),
                  A.Alloc ? *A.Alloc : Allocation{}, A.Read.data(), A.Read.size(), A.ReadAnything,
                  A.Write.data(), A.Write.size(), A.WriteAnything, A.ReadExact, A.WriteExact,
                  !A.Note.empty());
      }
      return &R;
    }
  } else {
    fastCheck(E->Flat, FL, Lookup, S.D);
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
  const size_t NPtr = E->Flat.PointerParams.size();
  for (int32_t K = 0; K < R.NumPtrRec; ++K) {
    bool IsField = size_t(K) >= NPtr;
    uint32_t I = IsField ? uint32_t(K - NPtr) : E->Flat.PointerParams[K];
    const FastAccess &A = IsField ? D.Fields[I] : D.Params[I];
    int Param = IsField ? E->Flat.Fields[I].FieldParam : int(I);
    setAccess(R.Ptr[K], Param, IsField ? int(E->Flat.Fields[I].FieldOffset) : -1,
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

// ---------------------------------------------------------------------------
// C API

using gmem::rt::Runtime;

extern "C" {

GMEM_API const char *gmemVersion(void) {
  static const std::string V = std::string("libgmemrt ") + GMEMRT_VERSION + " (descriptor ABI " +
                               std::to_string(GMEM_DESC_VERSION) + ", API " +
                               std::to_string(GMEM_API_VERSION) + ")";
  return V.c_str();
}

GMEM_API int gmemGetLastLaunchInfo(gmemLaunchInfo *Out) { return Runtime::global().lastLaunch(Out); }

GMEM_API int gmemGetRecentLaunches(gmemLaunchInfo *Out, int Max) {
  return Runtime::global().recentLaunches(Out, Max);
}

GMEM_API int gmemSetLogging(int Mask) { return Runtime::global().setLogging(Mask); }

GMEM_API int gmemIsEnabled(void) { return Runtime::global().enabled() ? 1 : 0; }

GMEM_API int gmemGetStats(gmemStats *Out) {
  if (!Out)
    return GMEM_ERROR_INVALID_VALUE;
  Runtime::global().stats(Out);
  return GMEM_SUCCESS;
}

GMEM_API int gmemAdvise(const void *Ptr, uint64_t Bytes, int Hint) {
  return Runtime::global().Mem.advise(reinterpret_cast<uint64_t>(Ptr), Bytes, Hint);
}

GMEM_API int gmemMallocManaged(void **Ptr, uint64_t Bytes) {
  if (!Ptr)
    return GMEM_ERROR_INVALID_VALUE;
  uint64_t P = 0;
  int R = Runtime::global().Mem.mallocManaged(&P, Bytes);
  *Ptr = R == GMEM_SUCCESS ? reinterpret_cast<void *>(P) : nullptr;
  return R;
}

GMEM_API int gmemFreeManaged(void *Ptr) {
  return Runtime::global().Mem.freeManaged(reinterpret_cast<uint64_t>(Ptr));
}

GMEM_API int gmemGetMemoryStats(gmemMemoryStats *Out) {
  if (!Out)
    return GMEM_ERROR_INVALID_VALUE;
  Runtime::global().Mem.stats(Out);
  return GMEM_SUCCESS;
}

GMEM_API const char *gmemClassName(int C) {
  switch (C) {
  case GMEM_CLASS_IDEMPOTENT: return "idempotent";
  case GMEM_CLASS_CONDITIONAL: return "conditional";
  case GMEM_CLASS_NON_IDEMPOTENT: return "non-idempotent";
  case GMEM_CLASS_UNKNOWN: return "unknown";
  default: return "none";
  }
}

} // extern "C"

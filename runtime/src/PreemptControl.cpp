#include "PreemptControl.h"

#include "GridStride.h"

#include <algorithm>
#include <climits>
#include <cstring>

namespace gmem {
namespace rt {
namespace sched {

namespace {
std::string err(const char *What, CUresult R) {
  return std::string(What) + " (error " + std::to_string(int(R)) + ")";
}

/// Function Name (What, for messages) of E's module or library; empty, or
/// why not.
std::string getFunction(SchedDriver &D, const KernelEntry &E, const char *What,
                        const std::string &Name, CUfunction &F) {
  const std::string Missing = std::string("no ") + What + " " + Name;
  if (!E.ViaLibrary)
    return D.moduleGetFunction(&F, E.Module, Name.c_str()) == CUDA_SUCCESS ? "" : Missing;
  CUkernel K = nullptr;
  if (D.libraryGetKernel(&K, E.Library, Name.c_str()) != CUDA_SUCCESS)
    return Missing;
  const CUresult R = D.kernelGetFunction(&F, K);
  return R == CUDA_SUCCESS
             ? ""
             : err(("cuKernelGetFunction of the " + std::string(What) + " failed").c_str(), R);
}

/// A twin of C's persistent clone (light, alternate or free form, What in
/// messages) when Flag promises one: Prefix<K> into F, else why not in Why.
/// Any doubt leaves it out: the full clone alone is always correct.
void resolveTwin(SchedDriver &D, const KernelEntry &E, CloneInfo &C, CloneKind K, uint32_t Flag,
                 const char *What, const char *Prefix) {
  CUfunction &Out = C.form(K).Fn;
  std::string &Why = C.form(K).Why;
  if (!(C.Flags & Flag) || !C.persistent())
    return;
  CUfunction F = nullptr;
  Why = getFunction(D, E, What, Prefix + E.Symbol, F);
  if (!Why.empty())
    return;
  // Launched with the full clone's parameter buffer: the layout must match
  // exactly (and end there).
  const size_t N = C.Size.size();
  for (size_t I = 0; I <= N; ++I) {
    size_t Off = 0, Size = 0;
    const bool Has = D.funcGetParamInfo(F, I, &Off, &Size) == CUDA_SUCCESS;
    if (I == N ? Has : !Has || Off != C.Offset[I] || Size != C.Size[I]) {
      Why = std::string("the ") + What + "'s parameters differ from the clone's";
      return;
    }
  }
  Out = F;
}
} // namespace

CloneInfo resolveClone(SchedDriver &D, const KernelEntry &E) {
  CloneInfo C;
  if (E.Symbol.empty()) {
    C.Why = "kernel name unknown";
    return C;
  }
  C.Symbol = E.Symbol;
  if (!E.Desc.Params.empty() && E.Desc.Params.size() == E.ParamSize.size())
    for (const ParamInfo &P : E.Desc.Params)
      C.ShapeParam.push_back(P.IsPointer ? 0 : 1);
  const std::string Name = "__gmem_pre_" + E.Symbol, Info = "__gmem_pre_info_" + E.Symbol;
  CUdeviceptr InfoPtr = 0;
  size_t InfoBytes = 0;
  C.Why = getFunction(D, E, "preemptible clone", Name, C.form(CloneKind::Full).Fn);
  const CUresult R = E.ViaLibrary
                         ? D.libraryGetGlobal(&InfoPtr, &InfoBytes, E.Library, Info.c_str())
                         : D.moduleGetGlobal(&InfoPtr, &InfoBytes, E.Module, Info.c_str());
  if (!C.Why.empty()) {
    // The pass says when it chose not to clone: tell that apart from a
    // module built without gmem.
    uint32_t W[5] = {};
    if (R == CUDA_SUCCESS && InfoBytes >= PreInfoBytes &&
        D.readDevice(W, InfoPtr, PreInfoBytes) == CUDA_SUCCESS && W[0] == PreInfoMagic &&
        (W[2] & PreNoClone))
      C.Why = "the compiler gave it no clone (grid or cluster synchronisation, a loop waiting for "
              "another CTA, `exit` in asm, or parameters or shared memory at their limit; "
              "-Rpass-analysis=gmem-checkpoint names it)";
    return C;
  }
  if (R != CUDA_SUCCESS) {
    C.Why = "clone without " + Info;
    return C;
  }
  if (InfoBytes < PreInfoBytes) {
    C.Why = Info + " has " + std::to_string(InfoBytes) + " bytes";
    return C;
  }
  // (A grid-stride kernel's info has a sixth word, its loop's bound.)
  uint32_t W[6] = {};
  const size_t InfoRead = InfoBytes >= sizeof W ? sizeof W : PreInfoBytes;
  if (const CUresult RR = D.readDevice(W, InfoPtr, InfoRead); RR != CUDA_SUCCESS) {
    C.Why = err(("cannot read " + Info).c_str(), RR);
    return C;
  }
  if (W[0] != PreInfoMagic) {
    C.Why = Info + ": unknown magic";
    return C;
  }
  if (W[1] != PreInfoVersion) {
    // A version-1 clone takes no grid parameters: launched with this
    // runtime's arguments it would read garbage. Its module must be rebuilt.
    C.Why = Info + ": checkpoint ABI version " + std::to_string(W[1]) + ", this runtime needs " +
            std::to_string(PreInfoVersion) + " (rebuild with the current gmem pass)";
    return C;
  }
  C.Flags = W[2];
  C.LoopCheckpoints = W[3];
  C.IntervalK = W[4];
  // Without its sixth word, or one from a pass that did not prove a
  // thread's items write apart (GridStride.h), the grid-stride flag says
  // nothing.
  if (InfoRead == sizeof W && (W[5] & GridStrideWritesApart))
    C.GridStrideBound = W[5];
  else
    C.Flags &= ~uint32_t(PreGridStride);

  // The clone's parameters: the kernel's, then ctl and the user's grid.
  for (size_t I = 0; I < 4096; ++I) {
    size_t Off = 0, Size = 0;
    if (D.funcGetParamInfo(C.form(CloneKind::Full).Fn, I, &Off, &Size) != CUDA_SUCCESS)
      break;
    C.Offset.push_back(uint32_t(Off));
    C.Size.push_back(uint32_t(Size));
  }
  const size_t N = C.Size.size();
  if (N == 0) {
    C.Why = "parameter layout of the clone unavailable";
    return C;
  }
  if (N < CloneExtraParams || C.Size[N - 4] != 8 || C.Size[N - 3] != 4 || C.Size[N - 2] != 4 ||
      C.Size[N - 1] != 4) {
    C.Why = "the clone's last parameters are not (ctl pointer, grid_x, grid_y, grid_z)";
    return C;
  }
  const size_t K = N - CloneExtraParams;
  if (!E.ParamSize.empty()) {
    if (E.ParamSize.size() != K) {
      C.Why = "the clone has " + std::to_string(K) + " kernel parameters, the kernel " +
              std::to_string(E.ParamSize.size());
      return C;
    }
    for (size_t I = 0; I < K; ++I)
      if (E.ParamSize[I] != C.Size[I]) {
        C.Why = "parameter " + std::to_string(I) + " of the clone differs from the kernel's";
        return C;
      }
  }
  C.ArgBytes = C.Offset.back() + 4;
  C.Ok = true;
  resolveTwin(D, E, C, CloneKind::Light, PreHasLight, "light clone", "__gmem_prl_");
  resolveTwin(D, E, C, CloneKind::Alt, PreHasAlt, "alternate clone", "__gmem_pra_");
  resolveTwin(D, E, C, CloneKind::Free, PreHasFree, "free clone", "__gmem_prf_");
  return C;
}

int OccupancyCache::residentPerSm(SchedDriver &D, CUfunction F, uint32_t Threads, uint32_t Smem) {
  for (const Entry &O : Entries)
    if (O.Threads == Threads && O.Smem == Smem)
      return O.Blocks;
  Entry O;
  O.Threads = Threads;
  O.Smem = Smem;
  if (!F || Threads == 0 || Threads > INT_MAX ||
      D.occupancyMaxActiveBlocks(&O.Blocks, F, int(Threads), Smem) != CUDA_SUCCESS || O.Blocks < 0)
    O.Blocks = 0;
  if (Entries.size() < MaxEntries) {
    Entries.push_back(O);
  } else {
    Entries[Next] = O;
    Next = (Next + 1) % MaxEntries;
  }
  return O.Blocks;
}

bool planClone(SchedDriver &D, CloneInfo &C, int Sms, const unsigned Grid[3],
               const unsigned Block[3], unsigned Shmem, ClonePlan &Out, CloneKind Kind,
               unsigned Spread) {
  const uint64_t Total = ctaCount(Grid);
  if (Total == 0)
    return false;
  if (!C.persistent()) {
    if (Total > SlotPool::MaxCtas)
      return false;
    for (int I = 0; I < 3; ++I)
      Out.Grid[I] = Grid[I];
    Out.Words = (Total + 31) / 32;
    Out.Resident = Total;
    return true;
  }
  // Tickets are 32-bit and redo holds ticket + 1. The clone also takes the
  // hardware's grid limits for granted (y, z < 2^16: it gives its virtual
  // coordinates those ranges); a grid beyond them goes to the original,
  // which the driver refuses with its own error.
  if (Total >= (1ull << 31) || Grid[1] > 65535 || Grid[2] > 65535 || Sms <= 0)
    return false;
  // A lane that returned early waits at the end of its virtual CTA: with
  // rows of the block shorter than a warp, its warp-mates would wait for it
  // at a collective (the pass proved the branches warp-uniform only for
  // whole-warp rows). The kernel itself runs, not preemptible.
  if (!blockFitsClone(C, Block[0]))
    return false;
  const uint64_t Threads = ctaCount(Block);
  if (Threads > UINT32_MAX)
    return false;
  if (!C.function(Kind))
    return false; // no such twin
  const int PerSm = C.residentPerSm(D, uint32_t(Threads), Shmem, Kind);
  if (PerSm <= 0)
    return false;
  // More CTAs than fit at once queue behind the resident ones, which only a
  // spread launch wants (CloneChoice.h); any P >= 1 is correct, so the
  // pool's largest block bounds it too (far above what a GPU keeps resident).
  const uint64_t Fit = uint64_t(Sms) * uint64_t(PerSm);
  const uint64_t P = std::min({Total, Fit * std::max(Spread, 1u), SlotPool::MaxWords / 2});
  Out.Resident = std::min(P, Fit);
  Out.Grid[0] = unsigned(P);
  Out.Grid[1] = Out.Grid[2] = 1;
  Out.Words = 2 * P;
  return true;
}

Slot *SlotPool::acquire(uint64_t Words) {
  if (Words == 0 || Words > MaxWords)
    return nullptr;
  unsigned Class = 3; // at least 8 words (256 CTAs of a bitmap)
  while ((1ull << Class) < Words)
    ++Class;
  if (Free.size() <= Class)
    Free.resize(Class + 1);
  std::deque<Slot *> &F = Free[Class];
  if (!F.empty() && (zeroed(*F.front()) || All.size() >= MaxSlots)) {
    Slot *S = F.front();
    // A full pool reuses a block whose zeroing is still queued: with an
    // event the launch's stream waits for it; a counter has no such wait
    // that survives its wrap-around, so the host waits for the zeroing
    // stream here (it holds only memsets and counter writes). If it cannot,
    // no block: the memset could still land on the launch's words.
    if (S->ZeroQueued && ZeroCounter >= 0) {
      if (!ZeroStream || D.streamSynchronize(ZeroStream) != CUDA_SUCCESS)
        return nullptr;
      S->ZeroQueued = S->NeedsZero = false;
    }
    F.pop_front();
    ++InUse;
    return S;
  }
  if (All.size() >= MaxSlots)
    return nullptr;
  auto S = std::make_unique<Slot>();
  S->Words = 1u << Class;
  S->SizeClass = Class;
  size_t Bytes = (S->words() * 4 + 255) / 256 * 256;
  if (D.memAlloc(&S->Mem, Bytes) != CUDA_SUCCESS)
    return nullptr;
  // The request event and one of the two drain events carry timestamps
  // (drain latency, the choice's timings); the others only order and
  // signal (a timing event costs the stream ~1.2 us on the H200, one
  // without timing nothing measurable: bench/preempt/micro/stream_ops.cu).
  bool Ok = D.eventCreate(&S->EvDrainTimed, CU_EVENT_DEFAULT) == CUDA_SUCCESS &&
            D.eventCreate(&S->EvDrainPlain, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS &&
            D.eventCreate(&S->EvReq, CU_EVENT_DEFAULT) == CUDA_SUCCESS &&
            D.eventCreate(&S->EvDone, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS &&
            D.eventCreate(&S->EvCtl, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS;
  S->EvDrain = S->EvDrainTimed;
  if (!Ok) {
    for (CUevent E : {S->EvDrainTimed, S->EvDrainPlain, S->EvReq, S->EvDone, S->EvCtl})
      if (E)
        D.eventDestroy(E);
    D.memFree(S->Mem);
    return nullptr;
  }
  Slot *P = S.get();
  All.push_back(std::move(S));
  ++InUse;
  return P;
}

bool SlotPool::zeroed(Slot &S) {
  if (S.ZeroQueued && (ZeroCounter >= 0 ? Counters->passed(ZeroCounter, S.ZeroSeq)
                                        : D.eventQuery(S.EvZero) == CUDA_SUCCESS)) {
    S.ZeroQueued = false;
    S.NeedsZero = false;
  }
  return !S.NeedsZero;
}

void SlotPool::release(Slot *S, CUstream ZeroOn) {
  // Without ZeroOn (a launch that never got onto the GPU) the block is as
  // the acquirer found it: ZeroQueued stays as it was (a pending side
  // memset must still be waited for).
  S->NeedsZero = true;
  if (ZeroOn && ZeroCounter >= 0) {
    if (D.memsetD32Async(S->Mem, 0, S->words(), ZeroOn) == CUDA_SUCCESS) {
      ZeroStream = ZeroOn;
      const uint32_t Seq = ZeroIssued + 1;
      S->ZeroQueued = D.streamWrite(ZeroOn, Counters->dev(ZeroCounter), Seq) == CUDA_SUCCESS;
      if (S->ZeroQueued)
        S->ZeroSeq = ZeroIssued = Seq;
      else // a memset nothing tells the end of must be over before the block is used
        D.streamSynchronize(ZeroOn);
    }
  } else if (ZeroOn &&
             (S->EvZero || D.eventCreate(&S->EvZero, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS) &&
             D.memsetD32Async(S->Mem, 0, S->words(), ZeroOn) == CUDA_SUCCESS) {
    S->ZeroQueued = D.eventRecord(S->EvZero, ZeroOn) == CUDA_SUCCESS;
    // A memset nothing can wait for must be over before the block is used.
    if (!S->ZeroQueued)
      D.streamSynchronize(ZeroOn);
  }
  S->Clone = nullptr;
  S->Fn = nullptr;
  S->Timed = S->TimedEnd = false;
  S->Preempted = S->Relaunching = false;
  S->Sampled = true;
  S->PreemptGen = S->RelaunchGen = 0;
  S->RelaunchFailures = 0;
  Free[S->SizeClass].push_back(S);
  --InUse;
}

namespace {
/// Calls F(I, bytes) for each of K's arguments, taken from Params or from
/// an Extra buffer at K's offsets; false when they cannot be read.
template <typename Fn>
bool forEachKernelArg(const CloneInfo &C, void **Params, void **Extra, Fn &&F) {
  const size_t N = C.kernelParams();
  if (N == 0)
    return true;
  if (Params) {
    for (size_t I = 0; I < N; ++I) {
      if (!Params[I] && C.Size[I])
        return false;
      F(I, static_cast<const char *>(Params[I]));
    }
    return true;
  }
  const char *Buf = nullptr;
  size_t Size = 0;
  if (!launchParamBuffer(Extra, &Buf, &Size))
    return false;
  // The clone's first N parameters are the kernel's: same offsets.
  for (size_t I = 0; I < N; ++I)
    if (size_t(C.Offset[I]) + C.Size[I] > Size)
      return false;
  for (size_t I = 0; I < N; ++I)
    F(I, Buf + C.Offset[I]);
  return true;
}

/// FNV-1a, 64 bits: a few dozen bytes per launch.
struct Fnv {
  uint64_t H = 0xcbf29ce484222325ull;
  void add(const void *P, size_t N) {
    const unsigned char *B = static_cast<const unsigned char *>(P);
    for (size_t I = 0; I < N; ++I)
      H = (H ^ B[I]) * 0x100000001b3ull;
  }
};
} // namespace

bool launchArgsHash(const CloneInfo &C, void **Params, void **Extra, uint64_t &ArgsHash) {
  Fnv H;
  // Fixed sizes per parameter: the byte string parses one way only.
  if (!forEachKernelArg(C, Params, Extra, [&](size_t I, const char *P) {
        if (C.ShapeParam.empty() || (I < C.ShapeParam.size() && C.ShapeParam[I]))
          H.add(P, C.Size[I]);
      }))
    return false;
  ArgsHash = H.H;
  return true;
}

uint64_t launchShapeKeyOf(const unsigned Grid[3], const unsigned Block[3], unsigned Shmem,
                          uint64_t ArgsHash, uint64_t *Coarse, uint64_t *Family) {
  if (Family) {
    Fnv F;
    F.add(Block, 3 * sizeof(unsigned));
    F.add(&Shmem, sizeof Shmem);
    *Family = F.H;
  }
  Fnv H;
  H.add(Grid, 3 * sizeof(unsigned));
  H.add(Block, 3 * sizeof(unsigned));
  H.add(&Shmem, sizeof Shmem);
  if (Coarse)
    *Coarse = H.H;
  H.add(&ArgsHash, sizeof ArgsHash);
  return H.H;
}

bool launchShapeKey(const CloneInfo &C, const unsigned Grid[3], const unsigned Block[3],
                    unsigned Shmem, void **Params, void **Extra, uint64_t &Key,
                    uint64_t *Coarse, uint64_t *Family) {
  uint64_t Args = 0;
  if (!launchArgsHash(C, Params, Extra, Args))
    return false;
  Key = launchShapeKeyOf(Grid, Block, Shmem, Args, Coarse, Family);
  return true;
}

uint32_t launchGridStrideX(const CloneInfo &C, const unsigned Grid[3], const unsigned Block[3],
                           void **Params, void **Extra, unsigned Trips) {
  if (!(C.Flags & PreGridStride) || !C.persistent())
    return 0;
  const GridStrideBound B = GridStrideBound::decode(C.GridStrideBound);
  if (B.Param >= C.kernelParams())
    return 0;
  const char *N = nullptr;
  if (!forEachKernelArg(C, Params, Extra, [&](size_t I, const char *P) {
        if (I == B.Param)
          N = P;
      }))
    return 0;
  // Tickets are 32-bit (planClone): the whole virtual grid stays below 2^31.
  const uint64_t YZ = uint64_t(Grid[1]) * Grid[2];
  if (YZ == 0)
    return 0;
  const uint32_t MaxX = uint32_t(((1ull << 31) - 1) / YZ);
  return gridStrideX(B, N, C.Size[B.Param], Grid, Block, MaxX, Trips);
}

bool buildArgs(Slot &S, const CloneInfo &C, const unsigned UserGrid[3], void **Params,
               void **Extra, unsigned BatchK, unsigned Scale) {
  const size_t N = C.kernelParams();
  S.Args.assign(C.ArgBytes, 0);
  if (!forEachKernelArg(C, Params, Extra, [&](size_t I, const char *P) {
        std::memcpy(S.Args.data() + C.Offset[I], P, C.Size[I]);
      }))
    return false;
  const uint64_t Ctl = S.Mem;
  std::memcpy(S.Args.data() + C.Offset[N], &Ctl, sizeof Ctl);
  // Always the user's grid: a persistent clone's virtual CTAs, ignored by
  // an ordinary clone (whose launch grid is the same).
  for (size_t I = 0; I < 3; ++I) {
    uint32_t G = UserGrid[I];
    // grid_z < 2^16 for every persistent launch (planClone): its high bits
    // are free for the interval.
    const bool Scaled = C.Flags & PreSegmentScale;
    if (I == 2 && (C.Flags & PreBatched) && C.persistent() && G <= 0xffff)
      G |= std::min(BatchK, Scaled ? 0xffu : 0xffffu) << 16;
    if (I == 2 && Scaled && C.persistent() && (G & 0xffff) == UserGrid[2])
      G |= (std::min(Scale, 3u)) << 24;
    std::memcpy(S.Args.data() + C.Offset[N + 1 + I], &G, sizeof G);
  }
  S.ArgSize = C.ArgBytes;
  S.Extra[0] = CU_LAUNCH_PARAM_BUFFER_POINTER;
  S.Extra[1] = S.Args.data();
  S.Extra[2] = CU_LAUNCH_PARAM_BUFFER_SIZE;
  S.Extra[3] = &S.ArgSize;
  S.Extra[4] = CU_LAUNCH_PARAM_END;
  return true;
}

} // namespace sched
} // namespace rt
} // namespace gmem

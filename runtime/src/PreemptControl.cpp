#include "PreemptControl.h"

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
} // namespace

CloneInfo resolveClone(SchedDriver &D, const KernelEntry &E) {
  CloneInfo C;
  if (E.Symbol.empty()) {
    C.Why = "kernel name unknown";
    return C;
  }
  const std::string Name = "__gmem_pre_" + E.Symbol, Info = "__gmem_pre_info_" + E.Symbol;
  CUdeviceptr InfoPtr = 0;
  size_t InfoBytes = 0;
  CUresult R;
  if (E.ViaLibrary) {
    CUkernel K = nullptr;
    R = D.libraryGetKernel(&K, E.Library, Name.c_str());
    if (R != CUDA_SUCCESS) {
      C.Why = "no preemptible clone " + Name;
      return C;
    }
    R = D.kernelGetFunction(&C.Fn, K);
    if (R != CUDA_SUCCESS) {
      C.Why = err("cuKernelGetFunction of the clone failed", R);
      return C;
    }
    R = D.libraryGetGlobal(&InfoPtr, &InfoBytes, E.Library, Info.c_str());
  } else {
    R = D.moduleGetFunction(&C.Fn, E.Module, Name.c_str());
    if (R != CUDA_SUCCESS) {
      C.Why = "no preemptible clone " + Name;
      return C;
    }
    R = D.moduleGetGlobal(&InfoPtr, &InfoBytes, E.Module, Info.c_str());
  }
  if (R != CUDA_SUCCESS) {
    C.Why = "clone without " + Info;
    return C;
  }
  if (InfoBytes < PreInfoBytes) {
    C.Why = Info + " has " + std::to_string(InfoBytes) + " bytes";
    return C;
  }
  uint32_t W[5] = {};
  R = D.readDevice(W, InfoPtr, PreInfoBytes);
  if (R != CUDA_SUCCESS) {
    C.Why = err(("cannot read " + Info).c_str(), R);
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

  // The clone's parameters: the kernel's, then ctl and the user's grid.
  for (size_t I = 0; I < 4096; ++I) {
    size_t Off = 0, Size = 0;
    if (D.funcGetParamInfo(C.Fn, I, &Off, &Size) != CUDA_SUCCESS)
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
  return C;
}

int CloneInfo::residentPerSm(SchedDriver &D, uint32_t Threads, uint32_t Smem) {
  for (const Occupancy &O : Occupancies)
    if (O.Threads == Threads && O.Smem == Smem)
      return O.Blocks;
  Occupancy O;
  O.Threads = Threads;
  O.Smem = Smem;
  if (Threads == 0 || Threads > INT_MAX ||
      D.occupancyMaxActiveBlocks(&O.Blocks, Fn, int(Threads), Smem) != CUDA_SUCCESS ||
      O.Blocks < 0)
    O.Blocks = 0;
  if (Occupancies.size() < MaxOccupancies) {
    Occupancies.push_back(O);
  } else {
    Occupancies[NextOccupancy] = O;
    NextOccupancy = (NextOccupancy + 1) % MaxOccupancies;
  }
  return O.Blocks;
}

bool planClone(SchedDriver &D, CloneInfo &C, int Sms, const unsigned Grid[3],
               const unsigned Block[3], unsigned Shmem, ClonePlan &Out) {
  const uint64_t Total = ctaCount(Grid);
  if (Total == 0)
    return false;
  if (!C.persistent()) {
    if (Total > SlotPool::MaxCtas)
      return false;
    for (int I = 0; I < 3; ++I)
      Out.Grid[I] = Grid[I];
    Out.Words = (Total + 31) / 32;
    return true;
  }
  // Tickets are 32-bit and redo holds ticket + 1.
  if (Total >= (1ull << 31) || Sms <= 0)
    return false;
  const uint64_t Threads = ctaCount(Block);
  if (Threads > UINT32_MAX)
    return false;
  const int PerSm = C.residentPerSm(D, uint32_t(Threads), Shmem);
  if (PerSm <= 0)
    return false;
  // More CTAs than fit at once would only queue behind the resident ones;
  // any P >= 1 is correct, so the pool's largest block bounds it too (far
  // above what a GPU keeps resident).
  const uint64_t P = std::min({Total, uint64_t(Sms) * uint64_t(PerSm), SlotPool::MaxWords / 2});
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
  if (!Free[Class].empty()) {
    Slot *S = Free[Class].back();
    Free[Class].pop_back();
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
  // Drain and request events carry timestamps (drain latency); the others
  // only order and signal.
  bool Ok = D.eventCreate(&S->EvDrain, CU_EVENT_DEFAULT) == CUDA_SUCCESS &&
            D.eventCreate(&S->EvReq, CU_EVENT_DEFAULT) == CUDA_SUCCESS &&
            D.eventCreate(&S->EvDone, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS &&
            D.eventCreate(&S->EvCtl, CU_EVENT_DISABLE_TIMING) == CUDA_SUCCESS;
  if (!Ok) {
    for (CUevent E : {S->EvDrain, S->EvReq, S->EvDone, S->EvCtl})
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

void SlotPool::release(Slot *S) {
  S->Clone = nullptr;
  S->Preempted = S->Relaunching = false;
  S->Sampled = true;
  S->PreemptGen = S->RelaunchGen = 0;
  S->RelaunchFailures = 0;
  Free[S->SizeClass].push_back(S);
  --InUse;
}

bool buildArgs(Slot &S, const CloneInfo &C, const unsigned UserGrid[3], void **Params,
               void **Extra) {
  const size_t N = C.kernelParams();
  S.Args.assign(C.ArgBytes, 0);
  if (N > 0 && Params) {
    for (size_t I = 0; I < N; ++I) {
      if (!Params[I] && C.Size[I])
        return false;
      std::memcpy(S.Args.data() + C.Offset[I], Params[I], C.Size[I]);
    }
  } else if (N > 0) {
    const char *Buf = nullptr;
    size_t Size = 0;
    if (!launchParamBuffer(Extra, &Buf, &Size))
      return false;
    // The clone's first N parameters are the kernel's: same offsets.
    for (size_t I = 0; I < N; ++I) {
      if (size_t(C.Offset[I]) + C.Size[I] > Size)
        return false;
      std::memcpy(S.Args.data() + C.Offset[I], Buf + C.Offset[I], C.Size[I]);
    }
  }
  const uint64_t Ctl = S.Mem;
  std::memcpy(S.Args.data() + C.Offset[N], &Ctl, sizeof Ctl);
  // Always the user's grid: a persistent clone's virtual CTAs, ignored by
  // an ordinary clone (whose launch grid is the same).
  for (size_t I = 0; I < 3; ++I) {
    const uint32_t G = UserGrid[I];
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

#include "PreemptControl.h"

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
  if (W[0] != PreInfoMagic || W[1] != PreInfoVersion) {
    C.Why = Info + ": unknown magic/version";
    return C;
  }
  C.Flags = W[2];
  C.LoopCheckpoints = W[3];
  C.IntervalK = W[4];

  // The clone's parameters: the kernel's, then the control-block pointer.
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
  if (C.Size.back() != 8) {
    C.Why = "the clone's last parameter is not a pointer";
    return C;
  }
  if (!E.ParamSize.empty()) {
    if (E.ParamSize.size() != N - 1) {
      C.Why = "the clone has " + std::to_string(N - 1) + " kernel parameters, the kernel " +
              std::to_string(E.ParamSize.size());
      return C;
    }
    for (size_t I = 0; I + 1 < N; ++I)
      if (E.ParamSize[I] != C.Size[I]) {
        C.Why = "parameter " + std::to_string(I) + " of the clone differs from the kernel's";
        return C;
      }
  }
  C.ArgBytes = C.Offset.back() + 8;
  C.Ok = true;
  return C;
}

Slot *SlotPool::acquire(uint64_t Ctas) {
  if (Ctas == 0 || Ctas > MaxCtas)
    return nullptr;
  const uint64_t Words = (Ctas + 31) / 32;
  unsigned Class = 3; // at least 8 words (256 CTAs)
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

bool buildArgs(Slot &S, const CloneInfo &C, void **Params, void **Extra) {
  const size_t N = C.Size.size() - 1; // the kernel's own parameters
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

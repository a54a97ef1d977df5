// Kernel handle -> KernelEntry (Runtime::resolve): the handle's module or
// library and name, its gmem descriptor read from the device, the parameter
// layout checked against the driver's, and the module globals' addresses.
#include "Runtime.h"
#include "Scheduler.h"

#include "gmem/compiler/DescriptorCodec.h"
#include "gmem/descriptor_abi.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace gmem {
namespace rt {
namespace {

unsigned typeBytes(ScalarType T) { return scalarTypeBits(T) / 8; }

} // namespace

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
  E->Variants.clear();
  for (const KernelVariant &V : E->Desc.Variants) {
    KernelEntry::Variant EV;
    EV.Desc = V.D.get();
    EV.Flat = compileKernel(*V.D);
    for (size_t I = 0; I < EV.Flat.NeedsBytes.size() && I < E->Flat.NeedsBytes.size(); ++I)
      E->Flat.NeedsBytes[I] |= EV.Flat.NeedsBytes[I];
    E->Variants.push_back(std::move(EV));
  }
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

} // namespace rt
} // namespace gmem

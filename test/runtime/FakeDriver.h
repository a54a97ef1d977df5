// An in-process fake of the driver calls libgmemrt makes on its own behalf
// (gmem::rt::DriverApi), for unit tests of the descriptor cache, the
// allocation map and the launch path.
#pragma once

#include "Driver.h"

#include "gmem/compiler/DescriptorCodec.h"

#include <atomic>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace gmem {
namespace rt {
namespace test {

class FakeDriver : public DriverApi {
public:
  struct Func {
    std::string Name;
    uintptr_t Module = 0;
    std::vector<size_t> ParamSizes;
  };
  struct Kernel {
    uintptr_t Function = 0; ///< what cuKernelGetFunction returns
    uintptr_t Library = 0;
  };

  // Objects.
  std::map<uintptr_t, Func> Funcs;      ///< CUfunction handles
  std::map<uintptr_t, Kernel> Kernels;  ///< CUkernel handles
  std::map<std::pair<uintptr_t, std::string>, uint64_t> Globals; ///< (module|library, name) -> address
  std::map<uint64_t, std::vector<uint8_t>> Memory; ///< address -> bytes (globals)
  std::map<uint64_t, uint64_t> Allocs;             ///< base -> size (cuMemGetAddressRange)
  bool ParamInfoSupported = true;

  // Call counters.
  std::atomic<int> AddrRangeCalls{0}, ReadDeviceCalls{0}, GlobalQueries{0};

  uint64_t NextAddr = 0x7f0000000000ull;

  uintptr_t addFunction(uintptr_t Handle, uintptr_t Module, const std::string &Name,
                        std::vector<size_t> ParamSizes) {
    Funcs[Handle] = Func{Name, Module, std::move(ParamSizes)};
    return Handle;
  }
  /// A device global holding Bytes in Module (or library) under Name.
  uint64_t addGlobal(uintptr_t Module, const std::string &Name, const std::vector<uint8_t> &Bytes) {
    uint64_t A = NextAddr;
    NextAddr += (Bytes.size() + 4095) / 4096 * 4096 + 4096;
    Memory[A] = Bytes;
    Globals[{Module, Name}] = A;
    return A;
  }
  void addDescriptor(uintptr_t Module, const KernelDescriptor &K) {
    addGlobal(Module, "__gmem_desc_" + K.Symbol, encodeDescriptor(K));
  }

  bool available() override { return true; }
  CUresult funcGetName(const char **N, CUfunction F) override {
    auto It = Funcs.find(uintptr_t(F));
    if (It == Funcs.end())
      return CUDA_ERROR_INVALID_HANDLE;
    *N = It->second.Name.c_str();
    return CUDA_SUCCESS;
  }
  CUresult funcGetModule(CUmodule *M, CUfunction F) override {
    auto It = Funcs.find(uintptr_t(F));
    if (It == Funcs.end())
      return CUDA_ERROR_INVALID_HANDLE;
    *M = reinterpret_cast<CUmodule>(It->second.Module);
    return CUDA_SUCCESS;
  }
  CUresult funcGetParamInfo(CUfunction F, size_t I, size_t *Off, size_t *Size) override {
    if (!ParamInfoSupported)
      return CUDA_ERROR_NOT_SUPPORTED;
    auto It = Funcs.find(uintptr_t(F));
    if (It == Funcs.end())
      return CUDA_ERROR_INVALID_HANDLE;
    const auto &S = It->second.ParamSizes;
    if (I >= S.size())
      return CUDA_ERROR_INVALID_VALUE;
    size_t O = 0;
    for (size_t K = 0;; ++K) {
      size_t A = S[K] >= 8 ? 8 : S[K] ? S[K] : 1;
      O = (O + A - 1) / A * A;
      if (K == I)
        break;
      O += S[K];
    }
    *Off = O;
    *Size = S[I];
    return CUDA_SUCCESS;
  }
  CUresult moduleGetGlobal(CUdeviceptr *P, size_t *B, CUmodule M, const char *N) override {
    ++GlobalQueries;
    auto It = Globals.find({uintptr_t(M), N});
    if (It == Globals.end())
      return CUDA_ERROR_NOT_FOUND;
    *P = It->second;
    *B = Memory[It->second].size();
    return CUDA_SUCCESS;
  }
  CUresult kernelGetFunction(CUfunction *F, CUkernel K) override {
    auto It = Kernels.find(uintptr_t(K));
    if (It == Kernels.end())
      return CUDA_ERROR_INVALID_HANDLE;
    *F = reinterpret_cast<CUfunction>(It->second.Function);
    return CUDA_SUCCESS;
  }
  CUresult kernelGetLibrary(CUlibrary *L, CUkernel K) override {
    auto It = Kernels.find(uintptr_t(K));
    if (It == Kernels.end())
      return CUDA_ERROR_INVALID_HANDLE;
    *L = reinterpret_cast<CUlibrary>(It->second.Library);
    return CUDA_SUCCESS;
  }
  CUresult kernelGetName(const char **N, CUkernel K) override {
    auto It = Kernels.find(uintptr_t(K));
    if (It == Kernels.end())
      return CUDA_ERROR_INVALID_HANDLE;
    return funcGetName(N, reinterpret_cast<CUfunction>(It->second.Function));
  }
  CUresult libraryGetGlobal(CUdeviceptr *P, size_t *B, CUlibrary L, const char *N) override {
    return moduleGetGlobal(P, B, reinterpret_cast<CUmodule>(L), N);
  }
  CUresult ctxGetCurrent(CUcontext *C) override {
    *C = reinterpret_cast<CUcontext>(uintptr_t(0xC0));
    return CUDA_SUCCESS;
  }
  CUresult memGetAddressRange(CUdeviceptr *Base, size_t *Size, CUdeviceptr P) override {
    ++AddrRangeCalls;
    auto It = Allocs.upper_bound(P);
    if (It == Allocs.begin())
      return CUDA_ERROR_NOT_FOUND;
    --It;
    if (P - It->first >= It->second)
      return CUDA_ERROR_NOT_FOUND;
    *Base = It->first;
    *Size = It->second;
    return CUDA_SUCCESS;
  }
  CUresult readDevice(void *Dst, CUdeviceptr Src, size_t N) override {
    ++ReadDeviceCalls;
    auto It = Memory.find(Src);
    if (It == Memory.end() || It->second.size() < N)
      return CUDA_ERROR_INVALID_VALUE;
    std::memcpy(Dst, It->second.data(), N);
    return CUDA_SUCCESS;
  }
};

} // namespace test
} // namespace rt
} // namespace gmem

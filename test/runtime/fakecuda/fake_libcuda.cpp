// A fake libcuda.so.1 for testing libgmemrt's interposition without a GPU.
//
// "Device memory" is host memory; cuModuleLoadData / cuLibraryLoadData parse
// PTX text for .entry parameter lists and .global variables (so the gmem
// descriptors a real PTX carries are readable exactly as on a GPU); launches
// run nothing and only validate their handle. Enough of the driver API for
// test/runtime/interpose/*.cpp and test/runtime/gpu/gpu_host.cpp.
//
// cuGetProcAddress answers from a static table (never dlsym, which libgmemrt
// interposes), like the real driver.
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>
#include <vector>

#define FAKE_API extern "C" __attribute__((visibility("default")))

namespace {

constexpr uint32_t FuncMagic = 0x46554e43, KernelMagic = 0x4b45524e;

struct FModule;
struct FFunc {
  uint32_t Magic = FuncMagic;
  std::string Name;
  std::vector<size_t> ParamSizes;
  FModule *Mod = nullptr;
};
struct FKernel {
  uint32_t Magic = KernelMagic;
  FFunc *Fn = nullptr;
  CUlibrary Lib = nullptr;
};
struct FModule {
  std::map<std::string, FFunc *> Funcs;
  std::map<std::string, std::pair<char *, size_t>> Globals;
  std::map<std::string, FKernel *> Kernels; // when loaded as a library
};

std::mutex Mu;
std::map<uintptr_t, size_t> Allocs; // base -> size
int CtxDummy, StreamDummy;
uint64_t Launches = 0;

size_t scalarSize(const std::string &T) {
  if (T == ".u64" || T == ".s64" || T == ".b64" || T == ".f64")
    return 8;
  if (T == ".u32" || T == ".s32" || T == ".b32" || T == ".f32")
    return 4;
  if (T == ".u16" || T == ".s16" || T == ".b16" || T == ".f16" || T == ".bf16")
    return 2;
  if (T == ".u8" || T == ".s8" || T == ".b8" || T == ".pred")
    return 1;
  return 0;
}

char *allocate(size_t N) {
  size_t Sz = (N + 255) / 256 * 256;
  if (Sz == 0)
    Sz = 256;
  char *P = static_cast<char *>(std::aligned_alloc(256, Sz));
  std::memset(P, 0, Sz);
  std::lock_guard<std::mutex> L(Mu);
  Allocs[reinterpret_cast<uintptr_t>(P)] = N ? N : 1;
  return P;
}

std::vector<std::string> tokens(const std::string &S) {
  std::vector<std::string> T;
  std::stringstream In(S);
  std::string W;
  while (In >> W)
    T.push_back(W);
  return T;
}

// Module-level statements are split at ';' (function bodies are skipped by
// looking only at statements that start with a declaration keyword).
bool parsePtx(const char *Text, FModule &M) {
  std::string S(Text);
  size_t Pos = 0;
  while (Pos < S.size()) {
    size_t Semi = S.find(';', Pos);
    if (Semi == std::string::npos)
      Semi = S.size();
    std::string Stmt = S.substr(Pos, Semi - Pos);
    Pos = Semi + 1;
    // Drop // comments.
    std::string Clean;
    for (size_t I = 0; I < Stmt.size(); ++I) {
      if (Stmt[I] == '/' && I + 1 < Stmt.size() && Stmt[I + 1] == '/') {
        size_t NL = Stmt.find('\n', I);
        if (NL == std::string::npos)
          break;
        I = NL;
      }
      Clean += Stmt[I];
    }
    // Directives without ';' (.version, .target, ...) precede a declaration
    // in the same statement: start at the line that opens it.
    for (const char *Opener : {".visible", ".weak", ".extern", ".global"}) {
      size_t At = Clean.find(std::string("\n") + Opener);
      if (At == std::string::npos) {
        size_t First = Clean.find_first_not_of(" \t\n");
        At = First != std::string::npos && Clean.compare(First, std::strlen(Opener), Opener) == 0
                 ? First
                 : std::string::npos;
      }
      if (At != std::string::npos) {
        Clean = Clean.substr(At);
        break;
      }
    }
    size_t EntryAt = Clean.find(".entry ");
    std::vector<std::string> T = tokens(Clean.substr(0, Clean.find('{') == std::string::npos ? Clean.size() : Clean.find('{')));
    size_t K = 0;
    while (K < T.size() && (T[K] == ".visible" || T[K] == ".weak" || T[K] == ".extern"))
      ++K;
    if (K < T.size() && T[K] == ".global") {
      ++K;
      if (K + 1 < T.size() && T[K] == ".align")
        K += 2;
      if (K + 1 >= T.size())
        continue;
      size_t Elem = scalarSize(T[K]);
      std::string Name = T[K + 1];
      size_t Count = 1, Br = Name.find('[');
      if (Br != std::string::npos) {
        Count = std::stoull(Name.substr(Br + 1));
        Name = Name.substr(0, Br);
      }
      if (!Elem)
        continue;
      char *P = allocate(Elem * Count);
      size_t Open = Clean.find('{'), Close = Clean.find('}');
      if (Open != std::string::npos && Close != std::string::npos) {
        std::stringstream In(Clean.substr(Open + 1, Close - Open - 1));
        std::string Tok;
        size_t I = 0;
        while (std::getline(In, Tok, ',') && I < Count) {
          long long V = std::strtoll(Tok.c_str(), nullptr, 0);
          std::memcpy(P + I * Elem, &V, Elem);
          ++I;
        }
      }
      M.Globals[Name] = {P, Elem * Count};
    } else if (EntryAt != std::string::npos) {
      size_t NameBegin = EntryAt + 7;
      while (NameBegin < Clean.size() && std::isspace((unsigned char)Clean[NameBegin]))
        ++NameBegin;
      size_t Open = Clean.find('(', NameBegin), Close = Clean.find(')', NameBegin);
      auto *F = new FFunc();
      F->Name = Clean.substr(NameBegin, std::min(Open, Clean.find_first_of(" \t\n", NameBegin)) - NameBegin);
      F->Mod = &M;
      if (Open != std::string::npos && Close != std::string::npos) {
        std::stringstream In(Clean.substr(Open + 1, Close - Open - 1));
        std::string Decl;
        while (std::getline(In, Decl, ',')) {
          std::vector<std::string> PT = tokens(Decl);
          if (PT.empty() || PT[0] != ".param")
            continue;
          size_t Elem = 0, Count = 1;
          for (size_t J = 1; J < PT.size(); ++J) {
            if (PT[J] == ".align") {
              ++J;
              continue;
            }
            if (!Elem && scalarSize(PT[J]))
              Elem = scalarSize(PT[J]);
            size_t Br = PT[J].find('[');
            if (Br != std::string::npos)
              Count = std::stoull(PT[J].substr(Br + 1));
          }
          F->ParamSizes.push_back(Elem * Count);
        }
      }
      M.Funcs[F->Name] = F;
    }
  }
  return !M.Funcs.empty() || !M.Globals.empty();
}

FFunc *funcOf(CUfunction F) {
  auto *P = reinterpret_cast<FFunc *>(F);
  if (P && P->Magic == FuncMagic)
    return P;
  auto *K = reinterpret_cast<FKernel *>(F);
  if (K && K->Magic == KernelMagic)
    return K->Fn;
  return nullptr;
}

} // namespace

extern "C" {

FAKE_API CUresult cuInit(unsigned) { return CUDA_SUCCESS; }
FAKE_API CUresult cuDriverGetVersion(int *V) {
  *V = 13000;
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuDeviceGetCount(int *N) {
  *N = 1;
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuDeviceGet(CUdevice *D, int I) {
  if (I != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *D = 0;
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuDeviceGetName(char *Name, int Len, CUdevice) {
  std::snprintf(Name, size_t(Len), "gmem fake CUDA device");
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuDeviceGetAttribute(int *V, CUdevice_attribute A, CUdevice) {
  *V = A == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 9 : 0;
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuDeviceTotalMem_v2(size_t *B, CUdevice) {
  *B = size_t(1) << 34;
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuMemGetInfo_v2(size_t *Free, size_t *Total) {
  *Free = size_t(1) << 33;
  *Total = size_t(1) << 34;
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuDevicePrimaryCtxRetain(CUcontext *C, CUdevice) {
  *C = reinterpret_cast<CUcontext>(&CtxDummy);
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice) { return CUDA_SUCCESS; }
FAKE_API CUresult cuDevicePrimaryCtxReset_v2(CUdevice) { return CUDA_SUCCESS; }
FAKE_API CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
FAKE_API CUresult cuCtxGetCurrent(CUcontext *C) {
  *C = reinterpret_cast<CUcontext>(&CtxDummy);
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuCtxPushCurrent_v2(CUcontext) { return CUDA_SUCCESS; }
FAKE_API CUresult cuCtxPopCurrent_v2(CUcontext *C) {
  if (C)
    *C = reinterpret_cast<CUcontext>(&CtxDummy);
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuCtxDestroy_v2(CUcontext) { return CUDA_SUCCESS; }
FAKE_API CUresult cuCtxSynchronize() { return CUDA_SUCCESS; }
FAKE_API CUresult cuStreamCreate(CUstream *S, unsigned) {
  *S = reinterpret_cast<CUstream>(&StreamDummy);
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuStreamDestroy_v2(CUstream) { return CUDA_SUCCESS; }
FAKE_API CUresult cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }
FAKE_API CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *M) {
  static thread_local CUstreamCaptureMode Cur = CU_STREAM_CAPTURE_MODE_GLOBAL;
  std::swap(Cur, *M);
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuGetErrorString(CUresult E, const char **S) {
  *S = E == CUDA_SUCCESS ? "no error" : "fake error";
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuGetErrorName(CUresult E, const char **S) {
  *S = E == CUDA_SUCCESS ? "CUDA_SUCCESS" : "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}

// Memory.
FAKE_API CUresult cuMemAlloc_v2(CUdeviceptr *P, size_t N) {
  if (N == 0)
    return CUDA_ERROR_INVALID_VALUE;
  *P = reinterpret_cast<CUdeviceptr>(allocate(N));
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuMemAllocManaged(CUdeviceptr *P, size_t N, unsigned) { return cuMemAlloc_v2(P, N); }
FAKE_API CUresult cuMemFree_v2(CUdeviceptr P) {
  std::lock_guard<std::mutex> L(Mu);
  auto It = Allocs.find(uintptr_t(P));
  if (It == Allocs.end())
    return CUDA_ERROR_INVALID_VALUE;
  Allocs.erase(It);
  std::free(reinterpret_cast<void *>(P));
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuMemFreeAsync(CUdeviceptr P, CUstream) { return cuMemFree_v2(P); }
FAKE_API CUresult cuMemFreeAsync_ptsz(CUdeviceptr P, CUstream) { return cuMemFree_v2(P); }
FAKE_API CUresult cuMemGetAddressRange_v2(CUdeviceptr *Base, size_t *Size, CUdeviceptr P) {
  std::lock_guard<std::mutex> L(Mu);
  auto It = Allocs.upper_bound(uintptr_t(P));
  if (It == Allocs.begin())
    return CUDA_ERROR_NOT_FOUND;
  --It;
  if (uintptr_t(P) - It->first >= It->second)
    return CUDA_ERROR_NOT_FOUND;
  if (Base)
    *Base = It->first;
  if (Size)
    *Size = It->second;
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuMemcpyHtoD_v2(CUdeviceptr D, const void *S, size_t N) {
  std::memcpy(reinterpret_cast<void *>(D), S, N);
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuMemcpyDtoH_v2(void *D, CUdeviceptr S, size_t N) {
  std::memcpy(D, reinterpret_cast<const void *>(S), N);
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuMemcpyDtoHAsync_v2(void *D, CUdeviceptr S, size_t N, CUstream) {
  return cuMemcpyDtoH_v2(D, S, N);
}
FAKE_API CUresult cuMemcpyDtoD_v2(CUdeviceptr D, CUdeviceptr S, size_t N) {
  std::memmove(reinterpret_cast<void *>(D), reinterpret_cast<const void *>(S), N);
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuMemsetD8_v2(CUdeviceptr D, unsigned char V, size_t N) {
  std::memset(reinterpret_cast<void *>(D), V, N);
  return CUDA_SUCCESS;
}

// Modules.
FAKE_API CUresult cuModuleLoadData(CUmodule *M, const void *Image) {
  auto *Mod = new FModule();
  if (!Image || !parsePtx(static_cast<const char *>(Image), *Mod)) {
    delete Mod;
    return CUDA_ERROR_INVALID_IMAGE;
  }
  *M = reinterpret_cast<CUmodule>(Mod);
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuModuleLoadDataEx(CUmodule *M, const void *Image, unsigned, CUjit_option *, void **) {
  return cuModuleLoadData(M, Image);
}
FAKE_API CUresult cuModuleUnload(CUmodule) { return CUDA_SUCCESS; }
FAKE_API CUresult cuModuleGetFunction(CUfunction *F, CUmodule M, const char *Name) {
  auto *Mod = reinterpret_cast<FModule *>(M);
  auto It = Mod->Funcs.find(Name);
  if (It == Mod->Funcs.end())
    return CUDA_ERROR_NOT_FOUND;
  *F = reinterpret_cast<CUfunction>(It->second);
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuModuleGetGlobal_v2(CUdeviceptr *P, size_t *B, CUmodule M, const char *Name) {
  auto *Mod = reinterpret_cast<FModule *>(M);
  auto It = Mod->Globals.find(Name);
  if (It == Mod->Globals.end())
    return CUDA_ERROR_NOT_FOUND;
  if (P)
    *P = reinterpret_cast<CUdeviceptr>(It->second.first);
  if (B)
    *B = It->second.second;
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuFuncGetModule(CUmodule *M, CUfunction F) {
  auto *P = reinterpret_cast<FFunc *>(F);
  if (!P || P->Magic != FuncMagic)
    return CUDA_ERROR_INVALID_HANDLE; // a CUkernel is not a CUfunction here
  *M = reinterpret_cast<CUmodule>(P->Mod);
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuFuncGetName(const char **Name, CUfunction F) {
  auto *P = reinterpret_cast<FFunc *>(F);
  if (!P || P->Magic != FuncMagic)
    return CUDA_ERROR_INVALID_HANDLE;
  *Name = P->Name.c_str();
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuFuncGetParamInfo(CUfunction F, size_t I, size_t *Off, size_t *Size) {
  FFunc *P = funcOf(F);
  if (!P)
    return CUDA_ERROR_INVALID_HANDLE;
  if (I >= P->ParamSizes.size())
    return CUDA_ERROR_INVALID_VALUE;
  size_t O = 0;
  for (size_t K = 0; K <= I; ++K) {
    size_t S = P->ParamSizes[K], A = S >= 8 ? 8 : S ? S : 1;
    O = (O + A - 1) / A * A;
    if (K == I)
      break;
    O += S;
  }
  if (Off)
    *Off = O;
  if (Size)
    *Size = P->ParamSizes[I];
  return CUDA_SUCCESS;
}

// Libraries (CUDA 12 context-independent loading).
FAKE_API CUresult cuLibraryLoadData(CUlibrary *L, const void *Code, CUjit_option *, void **, unsigned,
                                    CUlibraryOption *, void **, unsigned) {
  CUmodule M;
  CUresult R = cuModuleLoadData(&M, Code);
  if (R != CUDA_SUCCESS)
    return R;
  auto *Mod = reinterpret_cast<FModule *>(M);
  for (auto &F : Mod->Funcs) {
    auto *K = new FKernel();
    K->Fn = F.second;
    K->Lib = reinterpret_cast<CUlibrary>(Mod);
    Mod->Kernels[F.first] = K;
  }
  *L = reinterpret_cast<CUlibrary>(Mod);
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuLibraryUnload(CUlibrary) { return CUDA_SUCCESS; }
FAKE_API CUresult cuLibraryGetKernel(CUkernel *K, CUlibrary L, const char *Name) {
  auto *Mod = reinterpret_cast<FModule *>(L);
  auto It = Mod->Kernels.find(Name);
  if (It == Mod->Kernels.end())
    return CUDA_ERROR_NOT_FOUND;
  *K = reinterpret_cast<CUkernel>(It->second);
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuLibraryGetGlobal(CUdeviceptr *P, size_t *B, CUlibrary L, const char *Name) {
  return cuModuleGetGlobal_v2(P, B, reinterpret_cast<CUmodule>(L), Name);
}
FAKE_API CUresult cuKernelGetFunction(CUfunction *F, CUkernel K) {
  auto *P = reinterpret_cast<FKernel *>(K);
  if (!P || P->Magic != KernelMagic)
    return CUDA_ERROR_INVALID_HANDLE;
  *F = reinterpret_cast<CUfunction>(P->Fn);
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuKernelGetLibrary(CUlibrary *L, CUkernel K) {
  auto *P = reinterpret_cast<FKernel *>(K);
  if (!P || P->Magic != KernelMagic)
    return CUDA_ERROR_INVALID_HANDLE;
  *L = P->Lib;
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuKernelGetName(const char **Name, CUkernel K) {
  auto *P = reinterpret_cast<FKernel *>(K);
  if (!P || P->Magic != KernelMagic)
    return CUDA_ERROR_INVALID_HANDLE;
  *Name = P->Fn->Name.c_str();
  return CUDA_SUCCESS;
}

// Launches: validate, count, run nothing.
static CUresult fakeLaunch(CUfunction F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX,
                           unsigned BY, unsigned BZ) {
  if (!funcOf(F))
    return CUDA_ERROR_INVALID_HANDLE;
  if (!GX || !GY || !GZ || !BX || !BY || !BZ)
    return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard<std::mutex> L(Mu);
  ++Launches;
  return CUDA_SUCCESS;
}
FAKE_API CUresult cuLaunchKernel(CUfunction F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX,
                                 unsigned BY, unsigned BZ, unsigned, CUstream, void **, void **) {
  return fakeLaunch(F, GX, GY, GZ, BX, BY, BZ);
}
FAKE_API CUresult cuLaunchKernel_ptsz(CUfunction F, unsigned GX, unsigned GY, unsigned GZ,
                                      unsigned BX, unsigned BY, unsigned BZ, unsigned, CUstream,
                                      void **, void **) {
  return fakeLaunch(F, GX, GY, GZ, BX, BY, BZ);
}
FAKE_API CUresult cuLaunchKernelEx(const CUlaunchConfig *C, CUfunction F, void **, void **) {
  return fakeLaunch(F, C->gridDimX, C->gridDimY, C->gridDimZ, C->blockDimX, C->blockDimY, C->blockDimZ);
}
FAKE_API CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *C, CUfunction F, void **P, void **E) {
  return cuLaunchKernelEx(C, F, P, E);
}

// Test hook: launches that reached the "driver".
FAKE_API uint64_t fakeCudaLaunchCount() {
  std::lock_guard<std::mutex> L(Mu);
  return Launches;
}

// Entry points by name, as cuGetProcAddress answers (no dlsym).
struct ProcEntry {
  const char *Name;
  void *Legacy;
  void *Ptds;
};
static const ProcEntry Procs[] = {
    {"cuLaunchKernel", reinterpret_cast<void *>(&cuLaunchKernel), reinterpret_cast<void *>(&cuLaunchKernel_ptsz)},
    {"cuLaunchKernelEx", reinterpret_cast<void *>(&cuLaunchKernelEx), reinterpret_cast<void *>(&cuLaunchKernelEx_ptsz)},
    {"cuMemAlloc", reinterpret_cast<void *>(&cuMemAlloc_v2), nullptr},
    {"cuMemAllocManaged", reinterpret_cast<void *>(&cuMemAllocManaged), nullptr},
    {"cuMemFree", reinterpret_cast<void *>(&cuMemFree_v2), nullptr},
    {"cuMemFreeAsync", reinterpret_cast<void *>(&cuMemFreeAsync), reinterpret_cast<void *>(&cuMemFreeAsync_ptsz)},
    {"cuMemGetAddressRange", reinterpret_cast<void *>(&cuMemGetAddressRange_v2), nullptr},
    {"cuMemcpyHtoD", reinterpret_cast<void *>(&cuMemcpyHtoD_v2), nullptr},
    {"cuMemcpyDtoH", reinterpret_cast<void *>(&cuMemcpyDtoH_v2), nullptr},
    {"cuModuleLoadData", reinterpret_cast<void *>(&cuModuleLoadData), nullptr},
    {"cuModuleGetFunction", reinterpret_cast<void *>(&cuModuleGetFunction), nullptr},
    {"cuModuleUnload", reinterpret_cast<void *>(&cuModuleUnload), nullptr},
    {"cuInit", reinterpret_cast<void *>(&cuInit), nullptr},
    {"cuDeviceGet", reinterpret_cast<void *>(&cuDeviceGet), nullptr},
    {"cuDevicePrimaryCtxRetain", reinterpret_cast<void *>(&cuDevicePrimaryCtxRetain), nullptr},
    {"cuCtxSetCurrent", reinterpret_cast<void *>(&cuCtxSetCurrent), nullptr},
};

FAKE_API CUresult cuGetProcAddress_v2(const char *Sym, void **Pfn, int, cuuint64_t Flags,
                                      CUdriverProcAddressQueryResult *Status);
FAKE_API CUresult cuGetProcAddress_v2(const char *Sym, void **Pfn, int, cuuint64_t Flags,
                                      CUdriverProcAddressQueryResult *Status) {
  if (!Sym || !Pfn)
    return CUDA_ERROR_INVALID_VALUE;
  if (std::strcmp(Sym, "cuGetProcAddress") == 0) {
    *Pfn = reinterpret_cast<void *>(&cuGetProcAddress_v2);
    if (Status)
      *Status = CU_GET_PROC_ADDRESS_SUCCESS;
    return CUDA_SUCCESS;
  }
  for (const ProcEntry &E : Procs)
    if (std::strcmp(Sym, E.Name) == 0) {
      *Pfn = (Flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) && E.Ptds ? E.Ptds : E.Legacy;
      if (Status)
        *Status = CU_GET_PROC_ADDRESS_SUCCESS;
      return CUDA_SUCCESS;
    }
  *Pfn = nullptr;
  if (Status)
    *Status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return CUDA_ERROR_NOT_FOUND;
}

} // extern "C"

// End-to-end check of libgmemrt's ways in, against the fake libcuda
// (test/runtime/fakecuda) or a real GPU:
//
//   interpose_check MODE DESC.ptx PLAIN.ptx
//
// MODE: "preload" (run under LD_PRELOAD=libgmemrt.so), "linked" (this binary
// is linked with libgmemrt), or "disabled" (GMEM_DISABLE=1: nothing is
// recorded, everything still works). DESC.ptx carries gmem descriptors
// (test/runtime/interpose/kernels.cu built with the plugin), PLAIN.ptx is
// the same source without them.
//
// Checked: direct cuLaunchKernel / cuLaunchKernelEx calls; launches through
// a pointer from cuGetProcAddress on a dlopen'ed libcuda.so.1 (what CUDA 12+
// runtimes do, static or shared), including the per-thread-stream variant;
// CUkernel handles from cuLibraryLoadData; uninstrumented kernels; a
// descriptor of another ABI version (reported once, launch proceeds);
// error codes passed through unchanged; frees invalidating the allocation
// cache; dlsym(RTLD_NEXT) still meaning "after the caller".
#include <cuda.h>

#include "gmem/gmem.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

static int Failures = 0;
#define CHECK(C)                                                                                   \
  do {                                                                                             \
    if (!(C)) {                                                                                    \
      std::fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #C);                            \
      ++Failures;                                                                                  \
    }                                                                                              \
  } while (0)
#define CU(X)                                                                                      \
  do {                                                                                             \
    CUresult R_ = (X);                                                                             \
    if (R_ != CUDA_SUCCESS) {                                                                      \
      std::fprintf(stderr, "FAIL %s:%d: %s = %d\n", __FILE__, __LINE__, #X, int(R_));              \
      std::exit(2);                                                                                \
    }                                                                                              \
  } while (0)

using GetLastFn = int (*)(gmemLaunchInfo *);
static GetLastFn GetLast;
static bool Disabled;

static std::string slurp(const char *Path) {
  std::ifstream F(Path);
  std::stringstream S;
  S << F.rdbuf();
  if (S.str().empty()) {
    std::fprintf(stderr, "cannot read %s\n", Path);
    std::exit(2);
  }
  return S.str();
}

// The last launch's info; instrumented/idempotent expectations (-1: any).
static gmemLaunchInfo expect(const char *What, int Instrumented, int Idempotent) {
  gmemLaunchInfo I;
  std::memset(&I, 0, sizeof I);
  int R = GetLast(&I);
  if (Disabled) {
    CHECK(R == GMEM_ERROR_DISABLED);
    return I;
  }
  if (R != GMEM_SUCCESS) {
    std::fprintf(stderr, "FAIL %s: gmemGetLastLaunchInfo = %d\n", What, R);
    ++Failures;
    return I;
  }
  bool Ok = (Instrumented < 0 || I.instrumented == Instrumented) &&
            (Idempotent < 0 || I.idempotent == Idempotent);
  std::printf("%-44s #%llu %-10s instrumented=%d idempotent=%d  %s\n", What,
              (unsigned long long)I.sequence, I.kernel_name, I.instrumented, I.idempotent, I.reason);
  if (!Ok) {
    std::fprintf(stderr, "FAIL %s: expected instrumented=%d idempotent=%d\n", What, Instrumented,
                 Idempotent);
    ++Failures;
  }
  return I;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s preload|linked|disabled DESC.ptx PLAIN.ptx\n", argv[0]);
    return 2;
  }
  std::string Mode = argv[1];
  Disabled = Mode == "disabled";
  std::string Desc = slurp(argv[2]), Plain = slurp(argv[3]);

  GetLast = reinterpret_cast<GetLastFn>(dlsym(RTLD_DEFAULT, "gmemGetLastLaunchInfo"));
  if (!GetLast) {
    std::fprintf(stderr, "FAIL: gmemGetLastLaunchInfo not found: libgmemrt is not loaded\n");
    return 1;
  }
  using VersionFn = const char *(*)();
  auto Version = reinterpret_cast<VersionFn>(dlsym(RTLD_DEFAULT, "gmemVersion"));
  std::printf("%s, mode %s\n", Version ? Version() : "?", Mode.c_str());

  CU(cuInit(0));
  CUdevice Dev;
  CU(cuDeviceGet(&Dev, 0));
  CUcontext Ctx;
  CU(cuDevicePrimaryCtxRetain(&Ctx, Dev));
  CU(cuCtxSetCurrent(Ctx));

  CUmodule M, MPlain;
  CU(cuModuleLoadData(&M, Desc.c_str()));
  CU(cuModuleLoadData(&MPlain, Plain.c_str()));
  CUfunction VecAdd, Inc, VecAddPlain, Scale2d;
  CU(cuModuleGetFunction(&VecAdd, M, "_Z7vec_addPKfS0_Pfi"));
  CU(cuModuleGetFunction(&Inc, M, "_Z9incrementPfi"));
  CU(cuModuleGetFunction(&Scale2d, M, "_Z7scale2dPKfPffii"));
  CU(cuModuleGetFunction(&VecAddPlain, MPlain, "_Z7vec_addPKfS0_Pfi"));

  const int N = 1000;
  CUdeviceptr A, B, C;
  CU(cuMemAlloc(&A, N * 4));
  CU(cuMemAlloc(&B, N * 4));
  CU(cuMemAlloc(&C, N * 4));
  int n = N;
  void *Disjoint[] = {&A, &B, &C, &n};
  void *Alias[] = {&A, &B, &A, &n};

  // 1. Direct calls (bound by symbol).
  CU(cuLaunchKernel(VecAdd, 4, 1, 1, 256, 1, 1, 0, nullptr, Disjoint, nullptr));
  expect("cuLaunchKernel vec_add disjoint", 1, 1);
  CU(cuLaunchKernel(VecAdd, 4, 1, 1, 256, 1, 1, 0, nullptr, Alias, nullptr));
  gmemLaunchInfo I = expect("cuLaunchKernel vec_add C==A", 1, 0);
  if (!Disabled) {
    CHECK(I.has_conflict && I.conflict_read == 0 && I.conflict_write == 2);
    CHECK(I.conflict_lo == A && I.conflict_hi == A + N * 4);
    CHECK(I.kernel_class == GMEM_CLASS_CONDITIONAL);
  }
  void *IncArgs[] = {&A, &n};
  CU(cuLaunchKernel(Inc, 4, 1, 1, 256, 1, 1, 0, nullptr, IncArgs, nullptr));
  expect("cuLaunchKernel increment", 1, 0);

  CUlaunchConfig Cfg;
  std::memset(&Cfg, 0, sizeof Cfg);
  Cfg.gridDimX = 4, Cfg.gridDimY = 1, Cfg.gridDimZ = 1;
  Cfg.blockDimX = 256, Cfg.blockDimY = 1, Cfg.blockDimZ = 1;
  CU(cuLaunchKernelEx(&Cfg, VecAdd, Disjoint, nullptr));
  expect("cuLaunchKernelEx vec_add disjoint", 1, 1);

  // 2D: out-of-place scale of a 25x40 matrix.
  float S = 2.0f;
  int Rows = 25, Cols = 40;
  void *ScaleArgs[] = {&A, &B, &S, &Rows, &Cols};
  CU(cuLaunchKernel(Scale2d, 3, 4, 1, 16, 8, 1, 0, nullptr, ScaleArgs, nullptr));
  expect("cuLaunchKernel scale2d 2D", 1, 1);

  // Uninstrumented kernel (no descriptor): passes through.
  CU(cuLaunchKernel(VecAddPlain, 4, 1, 1, 256, 1, 1, 0, nullptr, Alias, nullptr));
  I = expect("cuLaunchKernel vec_add without descriptor", 0, 0);
  if (!Disabled)
    CHECK(std::strstr(I.reason, "no gmem descriptor") != nullptr);

  // Errors keep their code.
  CUresult R = cuLaunchKernel(VecAdd, 0, 1, 1, 256, 1, 1, 0, nullptr, Disjoint, nullptr);
  CHECK(R == CUDA_ERROR_INVALID_VALUE);
  I = expect("cuLaunchKernel grid 0 (error kept)", 1, 1);
  if (!Disabled)
    CHECK(I.launch_result == int(CUDA_ERROR_INVALID_VALUE));

  // 2. Through cuGetProcAddress on a dlopen'ed libcuda.so.1.
  void *H = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  CHECK(H != nullptr);
  using GpaFn = CUresult (*)(const char *, void **, int, cuuint64_t, CUdriverProcAddressQueryResult *);
  auto Gpa = reinterpret_cast<GpaFn>(dlsym(H, "cuGetProcAddress_v2"));
  CHECK(Gpa != nullptr);
  if (Gpa) {
    using LaunchFn = CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                                  unsigned, unsigned, CUstream, void **, void **);
    LaunchFn L = nullptr;
    CUdriverProcAddressQueryResult St;
    CU(Gpa("cuLaunchKernel", reinterpret_cast<void **>(&L), 12000, CU_GET_PROC_ADDRESS_DEFAULT, &St));
    CU(L(VecAdd, 4, 1, 1, 256, 1, 1, 0, nullptr, Alias, nullptr));
    expect("cuGetProcAddress(cuLaunchKernel)", 1, 0);
    LaunchFn LP = nullptr;
    CU(Gpa("cuLaunchKernel", reinterpret_cast<void **>(&LP), 12000,
           CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, &St));
    CU(LP(VecAdd, 4, 1, 1, 256, 1, 1, 0, nullptr, Disjoint, nullptr));
    expect("cuGetProcAddress(cuLaunchKernel, ptds)", 1, 1);
    // cuGetProcAddress fetched through itself, as runtimes do.
    GpaFn Gpa2 = nullptr;
    CU(Gpa("cuGetProcAddress", reinterpret_cast<void **>(&Gpa2), 12000, 0, &St));
    using ExFn = CUresult (*)(const CUlaunchConfig *, CUfunction, void **, void **);
    ExFn LE = nullptr;
    CU(Gpa2("cuLaunchKernelEx", reinterpret_cast<void **>(&LE), 12000, 0, &St));
    CU(LE(&Cfg, Inc, IncArgs, nullptr));
    expect("cuGetProcAddress(cuGetProcAddress)->Ex", 1, 0);
    // cuMemFree through the table invalidates the allocation cache.
    using FreeFn = CUresult (*)(CUdeviceptr);
    FreeFn Free = nullptr;
    CU(Gpa("cuMemFree", reinterpret_cast<void **>(&Free), 12000, 0, &St));
    gmemStats Before{}, After{};
    auto Stats = reinterpret_cast<int (*)(gmemStats *)>(dlsym(RTLD_DEFAULT, "gmemGetStats"));
    if (Stats)
      Stats(&Before);
    CUdeviceptr T;
    CU(cuMemAlloc(&T, 64));
    CU(Free(T));
    if (Stats)
      Stats(&After);
    if (!Disabled)
      CHECK(After.alloc_invalidations >= Before.alloc_invalidations + 2);
  }

  // 3. CUkernel handles (cuLibraryLoadData), passed where a CUfunction goes.
  CUlibrary Lib;
  CU(cuLibraryLoadData(&Lib, Desc.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  CUkernel K;
  CU(cuLibraryGetKernel(&K, Lib, "_Z7vec_addPKfS0_Pfi"));
  CU(cuLaunchKernel(reinterpret_cast<CUfunction>(K), 4, 1, 1, 256, 1, 1, 0, nullptr, Alias, nullptr));
  expect("cuLaunchKernel(CUkernel) vec_add C==A", 1, 0);
  CU(cuLaunchKernel(reinterpret_cast<CUfunction>(K), 4, 1, 1, 256, 1, 1, 0, nullptr, Disjoint, nullptr));
  expect("cuLaunchKernel(CUkernel) vec_add disjoint", 1, 1);
  CUkernel KL;
  CU(cuLibraryGetKernel(&KL, Lib, "_Z6lookupPKiPfi"));
  void *LookupArgs[] = {&A, &B, &n};
  CU(cuLaunchKernel(reinterpret_cast<CUfunction>(KL), 4, 1, 1, 256, 1, 1, 0, nullptr, LookupArgs, nullptr));
  expect("cuLaunchKernel(CUkernel) lookup (module global)", 1, 1);

  // 4. A descriptor of another ABI version: reported once, uninstrumented.
  std::string Bad = Desc;
  size_t P = Bad.find("__gmem_desc__Z9incrementPfi[");
  P = P == std::string::npos ? P : Bad.find("{71, 77, 68, 49, ", P);
  CHECK(P != std::string::npos);
  if (P != std::string::npos) {
    size_t V = P + std::strlen("{71, 77, 68, 49, ");
    Bad.replace(V, Bad.find(',', V) - V, "77");
    CUmodule MB;
    CU(cuModuleLoadData(&MB, Bad.c_str()));
    CUfunction IncBad;
    CU(cuModuleGetFunction(&IncBad, MB, "_Z9incrementPfi"));
    for (int Rep = 0; Rep < 2; ++Rep) {
      CU(cuLaunchKernel(IncBad, 4, 1, 1, 256, 1, 1, 0, nullptr, IncArgs, nullptr));
      I = expect("increment with a version-77 descriptor", 0, 0);
      if (!Disabled)
        CHECK(std::strstr(I.reason, "bad gmem descriptor") != nullptr);
    }
  }

  // 5. dlsym(RTLD_NEXT) from here means "after this executable".
  void *Next = dlsym(RTLD_NEXT, "strlen");
  CHECK(Next != nullptr && Next == dlsym(RTLD_DEFAULT, "strlen"));
  if (Mode != "linked") {
    // Preloaded (or not at all): the next cuLaunchKernel after the
    // executable is the first in the search order.
    CHECK(dlsym(RTLD_NEXT, "cuLaunchKernel") == dlsym(RTLD_DEFAULT, "cuLaunchKernel"));
  }

  // Recent launches, oldest first.
  if (!Disabled) {
    auto Recent = reinterpret_cast<int (*)(gmemLaunchInfo *, int)>(dlsym(RTLD_DEFAULT, "gmemGetRecentLaunches"));
    CHECK(Recent != nullptr);
    if (Recent) {
      gmemLaunchInfo Out[4];
      int Got = Recent(Out, 4);
      CHECK(Got == 4);
      for (int X = 1; X < Got; ++X)
        CHECK(Out[X].sequence == Out[X - 1].sequence + 1);
    }
  }

  cuMemFree(A);
  cuMemFree(B);
  cuMemFree(C);
  std::printf("%s: %d failure(s)\n", Failures ? "FAILED" : "PASSED", Failures);
  return Failures ? 1 : 0;
}

// GPU suite for libgmemrt, part (c): a CUDA runtime program (built with
// nvcc; -cudart shared or static) run under LD_PRELOAD=libgmemrt.so.
//
//   cudart_test DESC.ptx [shared|static]
//
// 1. saxpy through <<<>>> (cudaLaunchKernel): the launch is caught, the
//    kernel (nvcc-built, no descriptor) passes through uninstrumented, and
//    its result is right.
// 2. The same kernel through cudaLaunchKernelEx (cudaLaunchKernelExC).
// 3. cuLaunchKernel fetched with cudaGetDriverEntryPointByVersion (the
//    runtime asks the driver's cuGetProcAddress, which libgmemrt serves
//    through its dlsym hook) on a PTX module with descriptors loaded with
//    cuModuleLoadData: instrumented, decision checked, result right.
// Prints PASS/FAIL lines; exit status 1 on any failure. Without libgmemrt
// it checks results only.
#include <cuda.h>
#include <cuda_runtime.h>

#include "gmem/gmem.h"

#include <dlfcn.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

__global__ void saxpy_rt(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

static int Failures = 0;
static void check(bool Ok, const char *What) {
  std::printf("%s %s\n", Ok ? "PASS" : "FAIL", What);
  if (!Ok)
    ++Failures;
}

#define RT(X)                                                                                      \
  do {                                                                                             \
    cudaError_t E_ = (X);                                                                          \
    if (E_ != cudaSuccess) {                                                                       \
      std::printf("FAIL %s: %s\n", #X, cudaGetErrorString(E_));                                    \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

int main(int argc, char **argv) {
  using GetLastFn = int (*)(gmemLaunchInfo *);
  auto GetLast = reinterpret_cast<GetLastFn>(dlsym(RTLD_DEFAULT, "gmemGetLastLaunchInfo"));
  std::printf("cudart_test: libgmemrt %s\n", GetLast ? "loaded" : "not loaded (results only)");
  int RtVersion = 0, DrvVersion = 0;
  cudaRuntimeGetVersion(&RtVersion);
  cudaDriverGetVersion(&DrvVersion);
  std::printf("runtime %d, driver %d\n", RtVersion, DrvVersion);

  const int N = 1 << 20;
  std::vector<float> X(N), Y(N), Out(N);
  for (int I = 0; I < N; ++I) {
    X[I] = float(I % 1000) * 0.5f;
    Y[I] = float(I % 7);
  }
  float *DX, *DY;
  RT(cudaMalloc(&DX, N * sizeof(float)));
  RT(cudaMalloc(&DY, N * sizeof(float)));
  RT(cudaMemcpy(DX, X.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  RT(cudaMemcpy(DY, Y.data(), N * sizeof(float), cudaMemcpyHostToDevice));

  // 1. <<<>>> -> cudaLaunchKernel.
  saxpy_rt<<<(N + 255) / 256, 256>>>(2.0f, DX, DY, N);
  RT(cudaGetLastError());
  gmemLaunchInfo I;
  if (GetLast) {
    std::memset(&I, 0, sizeof I);
    bool Got = GetLast(&I) == GMEM_SUCCESS;
    check(Got, "cudaLaunchKernel (<<<>>>) is caught");
    if (Got) {
      std::printf("  kernel=%s api=%u instrumented=%d grid=%u block=%u reason=%s\n", I.kernel_symbol,
                  I.api, I.instrumented, I.grid[0], I.block[0], I.reason);
      check(std::strstr(I.kernel_symbol, "saxpy_rt") != nullptr, "  ... as saxpy_rt");
      check(I.grid[0] == unsigned((N + 255) / 256) && I.block[0] == 256, "  ... with its grid and block");
      check(!I.instrumented, "  ... uninstrumented (nvcc-built, no descriptor)");
    }
  }
  RT(cudaDeviceSynchronize());
  RT(cudaMemcpy(Out.data(), DY, N * sizeof(float), cudaMemcpyDeviceToHost));
  bool Right = true;
  for (int K = 0; K < N && Right; ++K)
    Right = Out[K] == 2.0f * X[K] + Y[K];
  check(Right, "saxpy result unchanged");

  // 1b. cudaLaunchKernel called by name. With -cudart shared it binds to
  //     libgmemrt's export (api GMEM_API_RUNTIME); a static cudart's own copy
  //     cannot be interposed and its driver launch is caught instead.
  {
    float A = 0.0f;
    int n = N;
    void *Args[] = {&A, &DX, &DY, &n}; // y = 0*x + y: unchanged
    RT(cudaLaunchKernel((const void *)saxpy_rt, dim3((N + 511) / 512), dim3(512), Args, 0, 0));
    if (GetLast) {
      bool Got = GetLast(&I) == GMEM_SUCCESS;
      check(Got && I.block[0] == 512, "cudaLaunchKernel (by name) is caught");
      std::printf("  api=%u (%s)\n", I.api, I.api == GMEM_API_RUNTIME ? "runtime API hook" : "driver API hook");
      if (argc > 2 && std::strcmp(argv[2], "shared") == 0)
        check(I.api == GMEM_API_RUNTIME, "  ... by libgmemrt's cudaLaunchKernel (shared cudart)");
    }
  }

  // 2. cudaLaunchKernelEx.
  cudaLaunchConfig_t Cfg = {};
  Cfg.gridDim = dim3((N + 127) / 128);
  Cfg.blockDim = dim3(128);
  uint64_t Before = GetLast && GetLast(&I) == GMEM_SUCCESS ? I.sequence : 0;
  RT(cudaLaunchKernelEx(&Cfg, saxpy_rt, -1.0f, (const float *)DX, DY, N));
  RT(cudaDeviceSynchronize());
  if (GetLast) {
    bool Got = GetLast(&I) == GMEM_SUCCESS && I.sequence > Before;
    check(Got && I.block[0] == 128, "cudaLaunchKernelEx is caught");
  }
  RT(cudaMemcpy(Out.data(), DY, N * sizeof(float), cudaMemcpyDeviceToHost));
  Right = true;
  for (int K = 0; K < N && Right; ++K)
    Right = Out[K] == (2.0f * X[K] + Y[K]) - X[K];
  check(Right, "saxpy (Ex) result unchanged");

  // 3. A module with descriptors, launched through the driver entry point
  //    that the runtime hands out.
  if (argc > 1) {
    std::ifstream F(argv[1]);
    std::stringstream S;
    S << F.rdbuf();
    std::string Ptx = S.str();
    void *Fn = nullptr, *LoadFn = nullptr, *GetFnFn = nullptr;
    cudaDriverEntryPointQueryResult Q;
    RT(cudaGetDriverEntryPointByVersion("cuLaunchKernel", &Fn, 12000, cudaEnableDefault, &Q));
    RT(cudaGetDriverEntryPointByVersion("cuModuleLoadData", &LoadFn, 12000, cudaEnableDefault, &Q));
    RT(cudaGetDriverEntryPointByVersion("cuModuleGetFunction", &GetFnFn, 12000, cudaEnableDefault, &Q));
    auto Load = reinterpret_cast<CUresult (*)(CUmodule *, const void *)>(LoadFn);
    auto GetFn = reinterpret_cast<CUresult (*)(CUfunction *, CUmodule, const char *)>(GetFnFn);
    auto Launch = reinterpret_cast<CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned,
                                                unsigned, unsigned, unsigned, CUstream, void **, void **)>(Fn);
    CUmodule M;
    CUfunction K;
    bool Loaded = Load(&M, Ptx.c_str()) == CUDA_SUCCESS && GetFn(&K, M, "_Z7vec_addPKfS0_Pfi") == CUDA_SUCCESS;
    check(Loaded, "PTX with descriptors loaded (driver entry points from the runtime)");
    if (Loaded) {
      float *DZ;
      RT(cudaMalloc(&DZ, N * sizeof(float)));
      int n = N;
      void *Disjoint[] = {&DX, &DY, &DZ, &n};
      CUresult R = Launch(K, (N + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, Disjoint, nullptr);
      check(R == CUDA_SUCCESS, "vec_add launched");
      if (GetLast) {
        bool Got = GetLast(&I) == GMEM_SUCCESS;
        check(Got && I.instrumented && I.idempotent, "  ... instrumented, idempotent (C disjoint)");
        std::printf("  kernel=%s class=%d idempotent=%d reason=%s\n", I.kernel_name, I.kernel_class,
                    I.idempotent, I.reason);
      }
      void *Alias[] = {&DX, &DY, &DY, &n};
      R = Launch(K, (N + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, Alias, nullptr);
      check(R == CUDA_SUCCESS, "vec_add (C == B) launched");
      if (GetLast) {
        bool Got = GetLast(&I) == GMEM_SUCCESS;
        check(Got && I.instrumented && !I.idempotent && I.has_conflict && I.conflict_read == 1 &&
                  I.conflict_write == 2,
              "  ... instrumented, not idempotent (write of C overlaps read of B)");
        std::printf("  reason=%s\n", I.reason);
      }
      RT(cudaDeviceSynchronize());
      std::vector<float> Z(N);
      RT(cudaMemcpy(Z.data(), DZ, N * sizeof(float), cudaMemcpyDeviceToHost));
      RT(cudaMemcpy(Out.data(), DY, N * sizeof(float), cudaMemcpyDeviceToHost));
      Right = true;
      for (int K2 = 0; K2 < N && Right; ++K2) {
        float Y1 = (2.0f * X[K2] + Y[K2]) - X[K2];
        Right = Z[K2] == X[K2] + Y1 && Out[K2] == X[K2] + Y1;
      }
      check(Right, "vec_add results unchanged");
      cudaFree(DZ);
    }
  }
  cudaFree(DX);
  cudaFree(DY);
  if (GetLast) {
    gmemStats St;
    auto Stats = reinterpret_cast<int (*)(gmemStats *)>(dlsym(RTLD_DEFAULT, "gmemGetStats"));
    if (Stats && Stats(&St) == GMEM_SUCCESS)
      std::printf("stats: launches=%llu instrumented=%llu invalidations=%llu\n",
                  (unsigned long long)St.launches, (unsigned long long)St.instrumented,
                  (unsigned long long)St.alloc_invalidations);
  }
  std::printf("%s: %d failure(s)\n", Failures ? "FAILED" : "PASSED", Failures);
  return Failures ? 1 : 0;
}

// Host cost per launch on a GPU: cuLaunchKernel of tiny kernels, timed call
// by call. Run the same binary plain and under LD_PRELOAD=libgmemrt.so, back
// to back in one device command (test/runtime/gpu/run_on_device.sh); the
// difference of the medians is what libgmemrt adds to a launch.
//
//   gpu_bench DESC.ptx PLAIN.ptx [N]
//
// Configurations (each N launches, 1 block of 32 threads, synchronised every
// 128 launches outside the timed calls so the launch queue never fills):
//   fill1/instrumented/repeat  1 pointer, descriptor, same arguments each launch
//   fill1/instrumented/vary    1 pointer, descriptor, n changes every launch
//                              (the decision is evaluated at every launch)
//   sum8/instrumented/repeat   8 pointers, descriptor, same arguments
//   sum8/instrumented/vary     8 pointers, descriptor, n changes every launch
//   fill1/uninstrumented       same kernel from a module without descriptors
// Prints one line per configuration: median, p90, p99, mean (ns per call).
#include <cuda.h>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#define CU(X)                                                                                      \
  do {                                                                                             \
    CUresult R_ = (X);                                                                             \
    if (R_ != CUDA_SUCCESS) {                                                                      \
      std::fprintf(stderr, "%s = %d\n", #X, int(R_));                                              \
      std::exit(4);                                                                                \
    }                                                                                              \
  } while (0)

static std::string slurp(const char *P) {
  std::ifstream F(P);
  std::stringstream S;
  S << F.rdbuf();
  return S.str();
}

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s DESC.ptx PLAIN.ptx [N]\n", argv[0]);
    return 2;
  }
  const int N = argc > 3 ? std::atoi(argv[3]) : 20000;
  bool Preloaded = dlsym(RTLD_DEFAULT, "gmemGetLastLaunchInfo") != nullptr;
  const char *Memo = getenv("GMEM_MEMO");
  const char *Sched = getenv("GMEM_SCHED");
  const char *Label = !Preloaded                             ? "plain"
                      : getenv("GMEM_DISABLE")               ? "gmemrt-disabled"
                      : Memo && std::string(Memo) == "0"     ? "gmemrt-nomemo"
                      : Sched && std::string(Sched) == "1"   ? "gmemrt-sched"
                                                             : "gmemrt";

  CU(cuInit(0));
  CUdevice Dev;
  CU(cuDeviceGet(&Dev, 0));
  CUcontext Ctx;
  CU(cuDevicePrimaryCtxRetain(&Ctx, Dev));
  CU(cuCtxSetCurrent(Ctx));
  std::string Desc = slurp(argv[1]), Plain = slurp(argv[2]);
  CUmodule MD, MP;
  CU(cuModuleLoadData(&MD, Desc.c_str()));
  CU(cuModuleLoadData(&MP, Plain.c_str()));
  CUfunction Fill, FillPlain, Sum8;
  CU(cuModuleGetFunction(&Fill, MD, "_Z5fill1Pffi"));
  CU(cuModuleGetFunction(&FillPlain, MP, "_Z5fill1Pffi"));
  CU(cuModuleGetFunction(&Sum8, MD, "_Z4sum8PKfS0_S0_S0_S0_S0_S0_Pfi"));
  CUstream S;
  CU(cuStreamCreate(&S, CU_STREAM_NON_BLOCKING));

  const int Elems = 1 << 16;
  CUdeviceptr Buf[8];
  for (auto &B : Buf)
    CU(cuMemAlloc(&B, Elems * sizeof(float)));

  struct Config {
    const char *Name;
    CUfunction F;
    bool Eight;
    bool Vary;
  } Configs[] = {
      {"fill1/instrumented/repeat", Fill, false, false},
      {"fill1/instrumented/vary", Fill, false, true},
      {"sum8/instrumented/repeat", Sum8, true, false},
      {"sum8/instrumented/vary", Sum8, true, true},
      {"fill1/uninstrumented", FillPlain, false, false},
  };
  for (const Config &C : Configs) {
    float V = 1.0f;
    int n = 32;
    void *Fill1Args[] = {&Buf[0], &V, &n};
    void *Sum8Args[] = {&Buf[0], &Buf[1], &Buf[2], &Buf[3], &Buf[4], &Buf[5], &Buf[6], &Buf[7], &n};
    void **Args = C.Eight ? Sum8Args : Fill1Args;
    std::vector<double> T(N);
    for (int W = 0; W < 2000; ++W) { // warm up (first launch resolves the descriptor)
      CU(cuLaunchKernel(C.F, 1, 1, 1, 32, 1, 1, 0, S, Args, nullptr));
      if (W % 128 == 127)
        CU(cuStreamSynchronize(S));
    }
    CU(cuStreamSynchronize(S));
    for (int I = 0; I < N; ++I) {
      if (C.Vary)
        n = 32 + (I % 997); // a new launch signature every time
      auto T0 = std::chrono::steady_clock::now();
      CUresult R = cuLaunchKernel(C.F, 1, 1, 1, 32, 1, 1, 0, S, Args, nullptr);
      auto T1 = std::chrono::steady_clock::now();
      if (R != CUDA_SUCCESS) {
        std::fprintf(stderr, "launch failed: %d\n", int(R));
        return 4;
      }
      T[I] = std::chrono::duration<double, std::nano>(T1 - T0).count();
      if (I % 128 == 127)
        CU(cuStreamSynchronize(S));
    }
    CU(cuStreamSynchronize(S));
    double Mean = 0;
    for (double X : T)
      Mean += X;
    Mean /= N;
    std::sort(T.begin(), T.end());
    std::printf("RESULT %-16s %-28s n=%d median_ns=%.0f p90_ns=%.0f p99_ns=%.0f mean_ns=%.0f\n", Label,
                C.Name, N, T[N / 2], T[size_t(N * 0.9)], T[size_t(N * 0.99)], Mean);
    std::fflush(stdout);
  }
  return 0;
}

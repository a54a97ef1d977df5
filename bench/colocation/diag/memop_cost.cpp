// Host time of the driver calls a preemption can be made of (GPU machine):
// which is the cheapest way for an urgent launch to write its stop words?
// Each call is timed 3000 times on a high-priority stream while a one-block
// spin kernel keeps a low-priority stream busy (as a training kernel would);
// median and P99 per call, in microseconds.
//
//   g++ -O2 -std=c++17 -I/usr/local/cuda/include memop_cost.cpp \
//       -L/usr/local/cuda/lib64/stubs -lcuda -o memop_cost
#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#define CK(X)                                                                                      \
  do {                                                                                             \
    CUresult R_ = (X);                                                                             \
    if (R_ != CUDA_SUCCESS) {                                                                      \
      const char *S_ = nullptr;                                                                    \
      cuGetErrorString(R_, &S_);                                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #X, S_ ? S_ : "?");            \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

static const char *Ptx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry spin(.param .u64 ns) {
  .reg .u64 %t0, %t1, %d, %n;
  .reg .pred %p;
  ld.param.u64 %n, [ns];
  mov.u64 %t0, %globaltimer;
L:
  mov.u64 %t1, %globaltimer;
  sub.u64 %d, %t1, %t0;
  setp.lt.u64 %p, %d, %n;
  @%p bra L;
  ret;
}
.visible .entry nop() { ret; }
)";

static double nowUs() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int main() {
  CK(cuInit(0));
  CUdevice Dev;
  CK(cuDeviceGet(&Dev, 0));
  CUcontext Ctx;
  CK(cuDevicePrimaryCtxRetain(&Ctx, Dev));
  CK(cuCtxSetCurrent(Ctx));
  CUmodule M;
  CK(cuModuleLoadData(&M, Ptx));
  CUfunction Spin, Nop;
  CK(cuModuleGetFunction(&Spin, M, "spin"));
  CK(cuModuleGetFunction(&Nop, M, "nop"));
  int Least, Greatest;
  CK(cuCtxGetStreamPriorityRange(&Least, &Greatest));
  CUstream Hi, Lo;
  CK(cuStreamCreateWithPriority(&Hi, CU_STREAM_NON_BLOCKING, Greatest));
  CK(cuStreamCreateWithPriority(&Lo, CU_STREAM_NON_BLOCKING, Least));
  CUdeviceptr Words;
  CK(cuMemAlloc(&Words, 4096));
  void *Pinned;
  CK(cuMemAllocHost(&Pinned, 64));
  std::fill((uint32_t *)Pinned, (uint32_t *)Pinned + 16, 1u);
  CUevent Ev;
  CK(cuEventCreate(&Ev, CU_EVENT_DEFAULT));
  unsigned long long SpinNs = 20'000'000'000ull; // stopped by the process exit
  void *SpinArgs[] = {&SpinNs};
  CK(cuLaunchKernel(Spin, 1, 1, 1, 32, 1, 1, 0, Lo, SpinArgs, nullptr));

  auto Batch = [&](unsigned N) {
    CUstreamBatchMemOpParams Ops[16] = {};
    for (unsigned I = 0; I < N; ++I) {
      Ops[I].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
      Ops[I].writeValue.address = Words + 64 * I;
      Ops[I].writeValue.value = 1;
    }
    CK(cuStreamBatchMemOp(Hi, N, Ops, 0));
  };
  struct Case {
    const char *Name;
    std::function<void()> Call;
  };
  std::vector<Case> Cases = {
      {"cuStreamWriteValue32 x1", [&] { CK(cuStreamWriteValue32(Hi, Words, 1, 0)); }},
      {"cuStreamWriteValue32 x3",
       [&] {
         for (int I = 0; I < 3; ++I)
           CK(cuStreamWriteValue32(Hi, Words + 64 * I, 1, 0));
       }},
      {"cuStreamBatchMemOp 1 write", [&] { Batch(1); }},
      {"cuStreamBatchMemOp 3 writes", [&] { Batch(3); }},
      {"cuMemcpyHtoDAsync 12 B (pinned)", [&] { CK(cuMemcpyHtoDAsync(Words, Pinned, 12, Hi)); }},
      {"cuEventRecord", [&] { CK(cuEventRecord(Ev, Hi)); }},
      {"cuLaunchKernel (empty kernel)",
       [&] { CK(cuLaunchKernel(Nop, 1, 1, 1, 32, 1, 1, 0, Hi, nullptr, nullptr)); }},
  };
  for (int Round = 0; Round < 2; ++Round)
    for (Case &C : Cases) {
      std::vector<double> T;
      for (int I = 0; I < 3300; ++I) {
        if (I % 64 == 0)
          CK(cuStreamSynchronize(Hi));
        double T0 = nowUs();
        C.Call();
        double T1 = nowUs();
        if (I >= 300)
          T.push_back(T1 - T0);
      }
      std::sort(T.begin(), T.end());
      std::printf("round %d  %-34s median %6.2f us  p99 %6.2f us\n", Round, C.Name,
                  T[T.size() / 2], T[T.size() * 99 / 100]);
      std::fflush(stdout);
    }
  return 0;
}

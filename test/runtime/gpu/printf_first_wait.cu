// A driver probe, without libgmemrt: may a kernel's first launch wait on
// the GPU behind a stream wait that another stream's write opens?
//
// libgmemrt's gates are words a best-effort stream waits on
// (cuStreamWaitValue32 ... == 0) and the control stream writes open
// (cuStreamWriteValue32). A printf kernel's first launch behind a closed
// gate hung under the scheduler (bench/preempt/results/session32); this
// probe asks the driver alone, one process per case (a first launch is
// per context):
//
//   printf_first_wait WORD OPENER STREAM KERNEL [PRE]
//     WORD    dev (device memory) or host (pinned, mapped host memory)
//     OPENER  write (cuStreamWriteValue32 on another non-blocking,
//             high-priority stream), memset (cuMemsetD32Async there) or
//             store (a CPU store; host only)
//     STREAM  same (the kernel is launched on the waiting stream) or other
//             (on a third stream while the waiting one waits)
//     KERNEL  say (calls printf), plain, other (plain's twin) or deep
//             (much local memory)
//     PRE     a kernel launched (and finished) before the wait, or -, or
//             attr (KERNEL's local size asked before the wait) or load
//             (cuFuncLoad of KERNEL before the wait): both launch plain
//             (other for KERNEL plain) first, and look KERNEL up with
//             cudaGetFuncBySymbol, which loads it already (probe 4's
//             parkload mode measured that; `jit` below loads while waiting)
//
//   printf_first_wait cost   stream time of a launch with a wait on an open
//                            word: none, in device memory, in host memory
//   printf_first_wait jit load|launch
//       a module loaded from PTX (cuModuleLoadData, cuModuleGetFunction)
//       while the stream waits (device word, opened by a write), then
//       launched on a third stream (launch) or not (load): the program's own
//       loads, which libgmemrt does not see
//
// The launch runs on a worker thread; the main thread opens the word after
// 100 ms and reports when each call returned and each stream finished.
// Exit 0: everything finished; 3: something still waits after 3 s.
#include <cuda.h>
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <unistd.h>

namespace {

__global__ void say(int *Out) {
  printf("printf_first_wait: the printf kernel ran\n");
  atomicAdd(Out, 1);
}

__global__ void plain(int *Out) { atomicAdd(Out, 1); }

__global__ void other(int *Out) { atomicAdd(Out, 1); }

// Needs much more local memory than the others: its first launch may grow
// the context's local memory.
__global__ void deep(int *Out, int N) {
  volatile int Frame[8192];
  for (int I = 0; I < 8192; ++I)
    Frame[I] = I * N;
  atomicAdd(Out, Frame[(N * 7919) & 8191] == 0 ? 1 : 1);
}

// Stream time per launch of a 1-thread kernel followed by a wait on an open
// word (none, device memory, pinned host memory): the cost of a hold wait.
void waitCost() {
  int *Out = nullptr;
  cudaMalloc(&Out, sizeof(int));
  void *DevWord = nullptr;
  uint32_t *HostWord = nullptr;
  void *HostDev = nullptr;
  cudaMalloc(&DevWord, 4);
  cudaMemset(DevWord, 0, 4);
  cudaHostAlloc(reinterpret_cast<void **>(&HostWord), 4, cudaHostAllocMapped);
  *HostWord = 0;
  cudaHostGetDevicePointer(&HostDev, HostWord, 0);
  cudaStream_t S;
  cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking);
  cudaEvent_t A, B;
  cudaEventCreate(&A);
  cudaEventCreate(&B);
  const int N = 2000;
  for (int Rep = 0; Rep < 3; ++Rep)
    for (int Kind = 0; Kind < 3; ++Kind) {
      const CUdeviceptr W = reinterpret_cast<CUdeviceptr>(Kind == 1 ? DevWord : HostDev);
      cudaEventRecord(A, S);
      for (int I = 0; I < N; ++I) {
        plain<<<1, 1, 0, S>>>(Out);
        if (Kind)
          cuStreamWaitValue32(S, W, 0, CU_STREAM_WAIT_VALUE_EQ);
      }
      cudaEventRecord(B, S);
      cudaEventSynchronize(B);
      float Ms = 0;
      cudaEventElapsedTime(&Ms, A, B);
      std::printf("wait cost rep %d, %-6s: %.3f us per launch\n", Rep,
                  Kind == 0 ? "none" : Kind == 1 ? "device" : "host", 1000.0 * Ms / N);
    }
}

using Clock = std::chrono::steady_clock;
const Clock::time_point T0 = Clock::now();
double ms() { return std::chrono::duration<double, std::milli>(Clock::now() - T0).count(); }

#define CHECK(X)                                                                                   \
  do {                                                                                             \
    auto E_ = (X);                                                                                 \
    if (E_ != 0) {                                                                                 \
      std::fprintf(stderr, "printf_first_wait: %s: error %d\n", #X, int(E_));                      \
      std::_Exit(2);                                                                               \
    }                                                                                              \
  } while (0)

// Polls a stream until it is done or Limit ms have passed.
double waitStream(cudaStream_t S, double Limit) {
  const double Start = ms();
  while (ms() - Start < Limit) {
    cudaError_t E = cudaStreamQuery(S);
    if (E == cudaSuccess)
      return ms();
    if (E != cudaErrorNotReady) {
      std::printf("  stream query: %s\n", cudaGetErrorString(E));
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  return -1;
}

// One kernel in PTX: atomically adds 1 to *p.
const char *const JitPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry jit_add(.param .u64 p)
{
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  red.global.add.u32 [%rd2], 1;
  ret;
}
)";

// The waiting stream (lowest priority), the opening one (highest) and a
// third, all non-blocking, and a zeroed counter the kernels add to.
struct Streams {
  cudaStream_t Be, Ctrl, X;
  int *Out;
};
Streams streams() {
  setvbuf(stdout, nullptr, _IONBF, 0);
  int Least = 0, Greatest = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&Least, &Greatest));
  Streams S{};
  CHECK(cudaStreamCreateWithPriority(&S.Be, cudaStreamNonBlocking, Least));
  CHECK(cudaStreamCreateWithPriority(&S.Ctrl, cudaStreamNonBlocking, Greatest));
  CHECK(cudaStreamCreateWithPriority(&S.X, cudaStreamNonBlocking, Least));
  CHECK(cudaMalloc(&S.Out, sizeof(int)));
  CHECK(cudaMemset(S.Out, 0, sizeof(int)));
  return S;
}

int jitProbe(bool Launch) {
  const Streams St = streams();
  cudaStream_t Be = St.Be, Ctrl = St.Ctrl, X = St.X;
  int *Out = St.Out;
  plain<<<1, 1, 0, X>>>(Out); // the context's first launch out of the way
  void *D = nullptr;
  CHECK(cudaMalloc(&D, sizeof(uint32_t)));
  const CUdeviceptr Word = reinterpret_cast<CUdeviceptr>(D);
  CHECK(cuMemsetD32(Word, 1, 1));
  CHECK(cudaDeviceSynchronize());
  CUcontext Ctx = nullptr;
  CHECK(cuCtxGetCurrent(&Ctx));
  std::printf("jit %s: set up at %.1f ms\n", Launch ? "launch" : "load", ms());
  CHECK(cuStreamWaitValue32(Be, Word, 0, CU_STREAM_WAIT_VALUE_EQ));
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::atomic<double> Returned{-1};
  std::thread Loader([&] {
    cuCtxSetCurrent(Ctx);
    const double T0 = ms();
    CUmodule M = nullptr;
    CUfunction F = nullptr;
    CUresult R = cuModuleLoadData(&M, JitPtx);
    const double T1 = ms();
    if (R == CUDA_SUCCESS)
      R = cuModuleGetFunction(&F, M, "jit_add");
    const double T2 = ms();
    if (R == CUDA_SUCCESS && Launch) {
      void *Args[] = {&Out};
      R = cuLaunchKernel(F, 1, 1, 1, 1, 1, 1, 0, X, Args, nullptr);
    }
    Returned = ms();
    std::printf("  load %.1f -> %.1f ms, get function -> %.1f ms, %s -> %.1f ms (error %d)\n", T0,
                T1, T2, Launch ? "launch" : "done", Returned.load(), int(R));
  });
  Loader.detach();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const double Open = ms();
  CHECK(cuStreamWriteValue32(Ctrl, Word, 0, 0));
  std::printf("  open call %.1f -> %.1f ms (loader %s)\n", Open, ms(),
              Returned.load() < 0 ? "not returned yet" : "returned");
  const double CtrlDone = waitStream(Ctrl, 3000);
  while (Returned.load() < 0 && ms() - Open < 3000)
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  const double BeDone = waitStream(Be, 3000), XDone = waitStream(X, 3000);
  std::printf("  opening stream done %.1f, waiting stream done %.1f, launch stream done %.1f ms"
              " (-1: not after 3 s)\n",
              CtrlDone, BeDone, XDone);
  const bool Ok = CtrlDone >= 0 && BeDone >= 0 && XDone >= 0 && Returned.load() >= 0;
  std::printf("jit %s: %s\n", Launch ? "launch" : "load", Ok ? "finished" : "HUNG");
  std::fflush(stdout);
  std::_Exit(Ok ? 0 : 3);
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc == 2 && !std::strcmp(Argv[1], "cost")) {
    waitCost();
    return 0;
  }
  if (Argc == 3 && !std::strcmp(Argv[1], "jit") &&
      (!std::strcmp(Argv[2], "load") || !std::strcmp(Argv[2], "launch")))
    return jitProbe(!std::strcmp(Argv[2], "launch"));
  if (Argc < 5) {
    std::fprintf(stderr, "usage: printf_first_wait dev|host write|memset|store same|other "
                         "say|plain|other|deep [say|plain|other|deep|-]\n");
    return 2;
  }
  const bool Host = !std::strcmp(Argv[1], "host");
  const bool Store = !std::strcmp(Argv[2], "store");
  const bool Memset = !std::strcmp(Argv[2], "memset");
  const bool Other = !std::strcmp(Argv[3], "other");
  auto KernelOf = [](const char *N) {
    static const char *const Names[] = {"say", "plain", "other", "deep"};
    for (int K = 0; K < 4; ++K)
      if (!std::strcmp(N, Names[K]))
        return K;
    return -1;
  };
  const int Kernel = KernelOf(Argv[4]);
  const int Pre = Argc > 5 ? KernelOf(Argv[5]) : -1;
  const bool Warm = Pre >= 0;
  const char *Load = Argc > 5 && Pre < 0 && std::strcmp(Argv[5], "-") ? Argv[5] : "";
  const bool Attr = !std::strcmp(Load, "attr"), LoadFirst = !std::strcmp(Load, "load");
  if ((!Host && std::strcmp(Argv[1], "dev")) ||
      (!Store && !Memset && std::strcmp(Argv[2], "write")) || (Store && !Host) ||
      (!Other && std::strcmp(Argv[3], "same")) || Kernel < 0 ||
      (*Load && !Attr && !LoadFirst)) {
    std::fprintf(stderr, "printf_first_wait: bad case\n");
    return 2;
  }
  const Streams St = streams();
  cudaStream_t Be = St.Be, Ctrl = St.Ctrl, X = St.X;
  int *Out = St.Out;
  uint32_t *HostWord = nullptr;
  CUdeviceptr Word = 0;
  if (Host) {
    CHECK(cudaHostAlloc(reinterpret_cast<void **>(&HostWord), sizeof(uint32_t),
                        cudaHostAllocMapped | cudaHostAllocPortable));
    __atomic_store_n(HostWord, 1u, __ATOMIC_RELEASE);
    void *D = nullptr;
    CHECK(cudaHostGetDevicePointer(&D, HostWord, 0));
    Word = reinterpret_cast<CUdeviceptr>(D);
  } else {
    void *D = nullptr;
    CHECK(cudaMalloc(&D, sizeof(uint32_t)));
    Word = reinterpret_cast<CUdeviceptr>(D);
    CHECK(cuMemsetD32(Word, 1, 1));
  }
  cudaStream_t L = Other ? X : Be;
  auto Launch = [&](int K) {
    if (K == 0)
      say<<<1, 1, 0, L>>>(Out);
    else if (K == 1)
      plain<<<1, 1, 0, L>>>(Out);
    else if (K == 2)
      other<<<1, 1, 0, L>>>(Out);
    else
      deep<<<1, 1, 0, L>>>(Out, 3);
  };
  if (Warm) {
    Launch(Pre);
    CHECK(cudaDeviceSynchronize());
  }
  if (*Load) { // the context's own first launch out of the way (another kernel)
    Launch(Kernel == 1 ? 2 : 1);
    CHECK(cudaDeviceSynchronize());
  }
  if (*Load) {
    // (The look-up loads the function: only here, where that is the point.)
    const void *Symbols[] = {(const void *)say, (const void *)plain, (const void *)other,
                             (const void *)deep};
    cudaFunction_t Fn = nullptr;
    CHECK(cudaGetFuncBySymbol(&Fn, Symbols[Kernel]));
    const CUfunction F = reinterpret_cast<CUfunction>(Fn);
    auto LoadState = [&] {
      CUfunctionLoadingState St = CU_FUNCTION_LOADING_STATE_UNLOADED;
      return cuFuncIsLoaded(&St, F) == CUDA_SUCCESS
                 ? (St == CU_FUNCTION_LOADING_STATE_LOADED ? "loaded" : "unloaded")
                 : "unknown";
    };
    std::printf("  %s: %s after its look-up", Argv[4], LoadState());
    if (Attr) {
      int Local = -1;
      CHECK(cuFuncGetAttribute(&Local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, F));
      std::printf(", %s after asking its local size (%d bytes)", LoadState(), Local);
    }
    if (LoadFirst) {
      CHECK(cuFuncLoad(F));
      std::printf(", %s after cuFuncLoad", LoadState());
    }
    std::printf("\n");
  }
  CHECK(cudaDeviceSynchronize());
  std::printf("%s %s %s %s%s%s: set up at %.1f ms\n", Argv[1], Argv[2], Argv[3], Argv[4],
              Argc > 5 ? " after " : "", Argc > 5 ? Argv[5] : "", ms());
  CHECK(cuStreamWaitValue32(Be, Word, 0, CU_STREAM_WAIT_VALUE_EQ));
  std::this_thread::sleep_for(std::chrono::milliseconds(5)); // Be is parked at the wait
  std::atomic<double> Returned{-1};
  std::thread Launcher([&] {
    const double Call = ms();
    Launch(Kernel);
    cudaError_t E = cudaGetLastError();
    Returned = ms();
    std::printf("  launch call %.1f -> %.1f ms (%s)\n", Call, Returned.load(),
                cudaGetErrorString(E));
  });
  Launcher.detach();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const double Open = ms();
  if (Store)
    __atomic_store_n(HostWord, 0u, __ATOMIC_RELEASE);
  else if (Memset)
    CHECK(cuMemsetD32Async(Word, 0, 1, Ctrl));
  else
    CHECK(cuStreamWriteValue32(Ctrl, Word, 0, 0));
  std::printf("  open call %.1f -> %.1f ms (launch call %s)\n", Open, ms(),
              Returned.load() < 0 ? "not returned yet" : "returned");
  const double CtrlDone = Store ? 0 : waitStream(Ctrl, 3000);
  std::printf("  opening stream done: %s%.1f ms\n", CtrlDone < 0 ? "NO after 3 s, " : "", CtrlDone);
  while (Returned.load() < 0 && ms() - Open < 3000)
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  const double BeDone = waitStream(Be, 3000), XDone = waitStream(X, 3000);
  std::printf("  waiting stream done: %s%.1f ms; launch stream done: %s%.1f ms\n",
              BeDone < 0 ? "NO after 3 s, " : "", BeDone, XDone < 0 ? "NO after 3 s, " : "", XDone);
  const bool Ok = CtrlDone >= 0 && BeDone >= 0 && XDone >= 0 && Returned.load() >= 0;
  std::printf("%s %s %s %s%s%s: %s\n", Argv[1], Argv[2], Argv[3], Argv[4],
              Argc > 5 ? " after " : "", Argc > 5 ? Argv[5] : "", Ok ? "finished" : "HUNG");
  std::fflush(stdout);
  std::_Exit(Ok ? 0 : 3); // a hung stream must not hang the exit too
}

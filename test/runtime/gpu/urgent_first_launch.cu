// A printf kernel's first launch while best-effort work waits at the
// scheduler's closed gate.
//
// A function's first launch in a context may make the driver wait for every
// stream's queued work, and every stream's later work wait for it (H200,
// driver 580: test/runtime/gpu/printf_first_wait.cu): behind a closed gate,
// which only a later write on the control stream opens, that is a deadlock.
// libgmemrt lets a first launch onto the GPU only once nothing waits at a
// gate or hold (runtime/src/SchedFirstLaunch.cpp). Two shapes:
//
//   urgent_first_launch urgent [SPIN_MS]   a real-time stream's first launch
//       of the printf kernel while a best-effort stream runs a long kernel
//       with a second one queued at its (now closed) gate
//   urgent_first_launch gated [SPIN_MS]    the best-effort stream's own
//       first launch of it, queued behind its closed gate while real-time
//       work runs
//
// Under libgmemrt with GMEM_SCHED=1 the program must finish (exit 0) with
// result 102; a hang (the caller's timeout) is the deadlock (the gated shape
// hangs with GMEM_SCHED_FIRST_QUIET=0). Without libgmemrt it finishes too
// (nothing is gated). SPIN_MS: 200.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace {

__global__ void spin(long long Cycles, int *Out) {
  const long long T0 = clock64();
  while (clock64() - T0 < Cycles) {
  }
  if (threadIdx.x == 0)
    atomicAdd(Out, 1);
}

__global__ void say(int *Out) {
  printf("urgent_first_launch: the printf kernel ran\n");
  atomicAdd(Out, 100);
}

#define CHECK(X)                                                                                   \
  do {                                                                                             \
    cudaError_t E_ = (X);                                                                          \
    if (E_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "urgent_first_launch: %s: %s\n", #X, cudaGetErrorString(E_));          \
      return 2;                                                                                    \
    }                                                                                              \
  } while (0)

} // namespace

int main(int Argc, char **Argv) {
  const bool Gated = Argc > 1 && std::strcmp(Argv[1], "gated") == 0;
  const int SpinMs = Argc > 2 ? std::atoi(Argv[2]) : 200;
  int Least = 0, Greatest = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&Least, &Greatest));
  cudaStream_t Be, Rt;
  CHECK(cudaStreamCreateWithPriority(&Be, cudaStreamNonBlocking, Least));
  CHECK(cudaStreamCreateWithPriority(&Rt, cudaStreamNonBlocking, Greatest));
  // The scheduler's levels, where libgmemrt is loaded (else plain streams).
  using SetPrio = int (*)(void *, int);
  if (auto Set = reinterpret_cast<SetPrio>(dlsym(RTLD_DEFAULT, "gmemSchedSetStreamPriority"))) {
    Set(Be, 0);  // GMEM_PRIORITY_BEST_EFFORT
    Set(Rt, 15); // GMEM_PRIORITY_REALTIME
    std::printf("urgent_first_launch: libgmemrt loaded, levels set\n");
  }
  int Clock = 0;
  CHECK(cudaDeviceGetAttribute(&Clock, cudaDevAttrClockRate, 0)); // kHz
  int *Out = nullptr;
  CHECK(cudaMallocManaged(&Out, sizeof(int)));
  *Out = 0;
  const long long Cycles = (long long)Clock * SpinMs;
  spin<<<1, 32, 0, Be>>>(Cycles, Out);
  if (!Gated)
    spin<<<1, 32, 0, Be>>>(Cycles / 100, Out); // queued: waits at the gate
  CHECK(cudaGetLastError());
  std::this_thread::sleep_for(std::chrono::milliseconds(SpinMs / 4));
  if (Gated)
    spin<<<1, 32, 0, Rt>>>(2 * Cycles, Out); // urgent work: Be's gate closes
  const auto T0 = std::chrono::steady_clock::now();
  say<<<1, 1, 0, Gated ? Be : Rt>>>(Out); // its first launch
  CHECK(cudaGetLastError());
  const double CallMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T0).count();
  CHECK(cudaDeviceSynchronize());
  std::printf("urgent_first_launch %s: printf kernel's launch call %.1f ms, result %d (want 102)\n",
              Gated ? "gated" : "urgent", CallMs, *Out);
  return *Out == 102 ? 0 : 1;
}

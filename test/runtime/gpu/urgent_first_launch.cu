// An urgent launch the driver holds until the context's streams are idle,
// while best-effort work waits at the scheduler's closed gate.
//
// A kernel that calls printf sets up the printf buffer at its first launch,
// and the driver waits there for every stream of the context (H200, driver
// 580: bench/preempt/results/session32). Here a best-effort stream runs a
// long kernel with a second one queued behind it; then a real-time stream
// launches such a kernel for the first time. The urgent launch suppresses
// the best-effort level (closes its gate) and enters the driver, which waits
// for the best-effort stream; that stream finishes its long kernel and
// waits at the closed gate, which the scheduler's monitor must open. Under
// libgmemrt with GMEM_SCHED=1 the program must finish (exit 0) and print
// the line of each kernel; a hang (killed by the caller's timeout) is the
// failure. Without libgmemrt it finishes too (nothing to gate).
//
//   urgent_first_launch [SPIN_MS]      (default 200)
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
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
  printf("urgent_first_launch: the urgent kernel ran\n");
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
  const int SpinMs = Argc > 1 ? std::atoi(Argv[1]) : 200;
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
  spin<<<1, 32, 0, Be>>>(Cycles / 100, Out); // queued: waits at the gate
  CHECK(cudaGetLastError());
  std::this_thread::sleep_for(std::chrono::milliseconds(SpinMs / 4));
  const auto T0 = std::chrono::steady_clock::now();
  say<<<1, 1, 0, Rt>>>(Out); // its first launch: the driver waits for Be
  CHECK(cudaGetLastError());
  const double CallMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - T0).count();
  CHECK(cudaDeviceSynchronize());
  std::printf("urgent_first_launch: urgent launch call %.1f ms, result %d (want 102)\n", CallMs,
              *Out);
  return *Out == 102 ? 0 : 1;
}

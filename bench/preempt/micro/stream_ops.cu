// What each stream operation of libgmemrt's gated clone launch costs the
// program's stream on the GPU (bench/preempt/micro/RESULTS.md, "Stream
// operations"). A kernel of a fixed length (one CTA per SM spinning on
// %globaltimer) is launched alone and behind / in front of the operations
// Scheduler::gatedLaunch adds (control block memset, gate wait, timing
// events, hold wait, done event), each sequence timed with events of its
// own around it, the variants interleaved, medians and P99.
//
//   nvcc -O2 -arch=sm_90 -o stream_ops stream_ops.cu -lcuda
//   ./stream_ops [ROUNDS]
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                            \
  do {                                                                                   \
    auto e_ = (x);                                                                       \
    if (e_) {                                                                            \
      std::fprintf(stderr, "%s:%d: %s failed (%d)\n", __FILE__, __LINE__, #x, int(e_)); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

__global__ void spin(unsigned long long ns) {
  unsigned long long t0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  for (;;) {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t - t0 >= ns)
      break;
  }
}

static double pct(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(p / 100.0 * (v.size() - 1) + 0.5))];
}

int main(int argc, char **argv) {
  const int Rounds = argc > 1 ? std::atoi(argv[1]) : 201;
  CK(cudaSetDevice(0));
  CK(cudaFree(nullptr));
  int Sms = 0;
  CK(cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0));
  cudaStream_t S;
  int Lo = 0, Hi = 0;
  CK(cudaDeviceGetStreamPriorityRange(&Lo, &Hi));
  CK(cudaStreamCreateWithPriority(&S, cudaStreamNonBlocking, Lo));
  CUstream CS = reinterpret_cast<CUstream>(S);
  // A persistent clone's control block: 2 + 2P + 1 words for P = 8 per SM.
  const size_t Words = 2 + 2 * size_t(Sms) * 8 + 1;
  CUdeviceptr Ctl, Gate, Hold;
  CK(cuMemAlloc(&Ctl, Words * 4));
  CK(cuMemAlloc(&Gate, 4));
  CK(cuMemAlloc(&Hold, 4));
  CK(cuMemsetD32(Gate, 0, 1));
  CK(cuMemsetD32(Hold, 0, 1));
  cudaEvent_t A, B, In0, In1, In2;
  for (cudaEvent_t *E : {&A, &B, &In0, &In1, &In2})
    CK(cudaEventCreate(E));
  enum { Kernel, Memset, GateWait, Events, HoldWait, All, NV };
  const char *Names[NV] = {"kernel alone", "+ memset of the control block",
                           "+ gate wait before", "+ start/drain events",
                           "+ hold wait and done event after", "all (libgmemrt's gated launch)"};
  for (unsigned long long Ns : {50000ull, 200000ull, 1000000ull}) {
    std::vector<double> T[NV];
    auto Run = [&](int V) {
      CK(cudaEventRecord(A, S));
      if (V == Memset || V == All)
        CK(cuMemsetD32Async(Ctl, 0, Words, CS));
      if (V == GateWait || V == All)
        CK(cuStreamWaitValue32(CS, Gate, 0, CU_STREAM_WAIT_VALUE_EQ));
      if (V == Events || V == All)
        CK(cudaEventRecord(In0, S));
      spin<<<Sms, 32, 0, S>>>(Ns);
      if (V == Events || V == All)
        CK(cudaEventRecord(In1, S));
      if (V == HoldWait || V == All) {
        CK(cuStreamWaitValue32(CS, Hold, 0, CU_STREAM_WAIT_VALUE_EQ));
        CK(cudaEventRecord(In2, S));
      }
      CK(cudaEventRecord(B, S));
      CK(cudaEventSynchronize(B));
      float Ms = 0;
      CK(cudaEventElapsedTime(&Ms, A, B));
      return double(Ms) * 1e3;
    };
    for (int V = 0; V < NV; ++V)
      Run(V);
    for (int R = 0; R < Rounds; ++R)
      for (int K = 0; K < NV; ++K) {
        const int V = (R + K) % NV;
        T[V].push_back(Run(V));
      }
    const double Base = pct(T[Kernel], 50);
    std::printf("kernel of %llu us, %d rounds:\n", Ns / 1000, Rounds);
    for (int V = 0; V < NV; ++V)
      std::printf("  %-34s median %9.2f us (%+6.2f us)  p99 %9.2f us\n", Names[V], pct(T[V], 50),
                  pct(T[V], 50) - Base, pct(T[V], 99));
  }
  return 0;
}

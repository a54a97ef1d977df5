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
  cudaEvent_t A, B, In0, In1, In2, NoTiming;
  for (cudaEvent_t *E : {&A, &B, &In0, &In1})
    CK(cudaEventCreate(E));
  // The done event, as libgmemrt's: no timing.
  CK(cudaEventCreateWithFlags(&In2, cudaEventDisableTiming));
  CK(cudaEventCreateWithFlags(&NoTiming, cudaEventDisableTiming));
  enum {
    Kernel, Memset, GateWait, Events, HoldWait, All, // libgmemrt's pieces (c82d353 and before)
    TimingEvent, PlainEvent, HoldOnly, WriteOnly, Batch3, Now,
    HoldHost, Pair, PairHold, PairHoldHost, NV
  };
  const char *Names[NV] = {"kernel alone", "+ memset of the control block",
                           "+ gate wait before", "+ start/drain events",
                           "+ hold wait and done event after", "all (the gated launch before c82d353)",
                           "+ one timing event after", "+ one event without timing after",
                           "+ hold wait alone after", "+ one value write after",
                           "+ one batch: write, hold wait, write", "gate + drain/hold/done (c82d353)",
                         "+ hold wait on a host-mapped word", "two kernels (alone: 2x)",
                         "two kernels, hold wait between", "two kernels, host hold between"};
  // Host-mapped words for the batch variant's writes (drained, done).
  unsigned *HostWords = nullptr;
  CK(cudaHostAlloc(&HostWords, 64, cudaHostAllocMapped));
  CUdeviceptr HostDev = 0;
  CK(cuMemHostGetDevicePointer(&HostDev, HostWords, 0));
  HostWords[2] = 0; // the host-mapped hold word
  for (unsigned long long Ns : {50000ull, 200000ull, 1000000ull}) {
    std::vector<double> T[NV];
    auto Run = [&](int V) {
      CK(cudaEventRecord(A, S));
      if (V == Memset || V == All)
        CK(cuMemsetD32Async(Ctl, 0, Words, CS));
      if (V == GateWait || V == All || V == Now)
        CK(cuStreamWaitValue32(CS, Gate, 0, CU_STREAM_WAIT_VALUE_EQ));
      if (V == Events || V == All)
        CK(cudaEventRecord(In0, S));
      spin<<<Sms, 32, 0, S>>>(Ns);
      if (V == Events || V == All)
        CK(cudaEventRecord(In1, S));
      if (V == HoldWait || V == All || V == Now) {
        if (V == Now)
          CK(cudaEventRecord(In1, S)); // the drain event
        CK(cuStreamWaitValue32(CS, Hold, 0, CU_STREAM_WAIT_VALUE_EQ));
        CK(cudaEventRecord(In2, S));
      }
      if (V == TimingEvent)
        CK(cudaEventRecord(In1, S));
      if (V == PlainEvent)
        CK(cudaEventRecord(NoTiming, S));
      if (V == HoldOnly)
        CK(cuStreamWaitValue32(CS, Hold, 0, CU_STREAM_WAIT_VALUE_EQ));
      if (V == WriteOnly)
        CK(cuStreamWriteValue32(CS, HostDev, 1, CU_STREAM_WRITE_VALUE_DEFAULT));
      if (V == HoldHost)
        CK(cuStreamWaitValue32(CS, HostDev + 8, 0, CU_STREAM_WAIT_VALUE_EQ));
      if (V == PairHold)
        CK(cuStreamWaitValue32(CS, Hold, 0, CU_STREAM_WAIT_VALUE_EQ));
      if (V == PairHoldHost)
        CK(cuStreamWaitValue32(CS, HostDev + 8, 0, CU_STREAM_WAIT_VALUE_EQ));
      if (V == Pair || V == PairHold || V == PairHoldHost)
        spin<<<Sms, 32, 0, S>>>(Ns);
      if (V == Batch3) {
        CUstreamBatchMemOpParams P[3] = {};
        P[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
        P[0].writeValue.address = HostDev;
        P[0].writeValue.value = 1;
        P[1].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
        P[1].waitValue.address = Hold;
        P[1].waitValue.value = 0;
        P[1].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
        P[2].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
        P[2].writeValue.address = HostDev + 4;
        P[2].writeValue.value = 1;
        CK(cuStreamBatchMemOp(CS, 3, P, 0));
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
    std::printf("kernel of %llu us, %d rounds (interleaved):\n", Ns / 1000, Rounds);
    for (int V = 0; V < NV; ++V)
      std::printf("  %-34s median %9.2f us (%+6.2f us)  p99 %9.2f us\n", Names[V], pct(T[V], 50),
                  pct(T[V], 50) - Base, pct(T[V], 99));
  }
  return 0;
}

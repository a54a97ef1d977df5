// What a paced segment measures (bench/preempt/results/parts/warp-refresh):
// a hand-written copy of the pass's paced grid-stride loop (iota, 2^29
// ints, 1056 x 256 threads), with per-warp statistics of the segments it
// ran: how many, the shift s each one had, and log2 of the cycles each one
// measured. Also %clock against %globaltimer over a spin, so that a
// segment's cycles can be read as time. Built like persist_micro.cu:
//   GMEM_CHECKPOINTS=0 build/bin/gmem-clang++ -O2 --cudart=static --no-gmem-runtime \
//     bench/preempt/micro/pace_probe.cu -o .stage/micro/pace_probe
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x)                                                                    \
  do {                                                                           \
    cudaError_t e = (x);                                                         \
    if (e != cudaSuccess) {                                                      \
      fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));                    \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

__device__ unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__device__ unsigned clk() {
  unsigned c;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(c));
  return c;
}

__global__ void clock_rate(unsigned long long *out, int spins) {
  unsigned long long t0 = globaltimer();
  unsigned c0 = clk();
  unsigned x = 0;
  for (int i = 0; i < spins; ++i)
    x = x * 1664525u + 1013904223u;
  unsigned c1 = clk();
  unsigned long long t1 = globaltimer();
  out[0] = c1 - c0;
  out[1] = t1 - t0;
  out[2] = x;
}

// The pass's pace update at a segment's end: s moves by log2(target /
// elapsed), the clock's low 6 bits hold s.
__device__ unsigned next_pace(unsigned pace, unsigned target_lz) {
  unsigned now = clk() & ~63u;
  int ns = (int)(pace & 63u) + __clz(now - (pace & ~63u)) - (int)target_lz;
  ns = ns < 0 ? 0 : ns > 16 ? 16 : ns;
  return now | (unsigned)ns;
}

// Where a segment of 2^s trips from i ends: the pass's limit, in 64 bits.
__device__ int segment_limit(int i, int stride, unsigned s, int n) {
  long long ahead = (long long)i + ((long long)stride << s);
  return ahead < n ? (int)ahead : n;
}

// A CTA's stop word in shared memory, cleared before use.
template <bool Lds> __device__ void clear_flag(volatile unsigned &flag) {
  if (Lds) {
    if (threadIdx.x == 0)
      flag = 0;
    __syncthreads();
  }
}

// Stats per launch: [0] segments, [1] iterations, [2..18] segments by s,
// [19..51] segments by floor(log2(elapsed cycles)) (32: elapsed 0).
constexpr int kStats = 52;

__global__ void iota_paced_stats(int *out, int n, unsigned target_lz, unsigned long long *stats) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = blockDim.x * gridDim.x;
  unsigned pace = (clk() & ~63u) | 2u;
  unsigned segs = 0, iters = 0;
  unsigned by_s[17] = {};
  unsigned by_lg[33] = {};
  while (i < n) {
    unsigned s = pace & 63u;
    int limit = segment_limit(i, stride, s, n);
    do {
      out[i] = 7 + i;
      i += stride;
      ++iters;
    } while (i < limit);
    unsigned elapsed = (clk() & ~63u) - (pace & ~63u);
    pace = next_pace(pace, target_lz);
    ++segs;
    ++by_s[s];
    ++by_lg[elapsed ? 31 - __clz(elapsed) : 32];
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(&stats[0], segs);
    atomicAdd(&stats[1], iters);
    for (int k = 0; k < 17; ++k)
      if (by_s[k])
        atomicAdd(&stats[2 + k], by_s[k]);
    for (int k = 0; k < 33; ++k)
      if (by_lg[k])
        atomicAdd(&stats[19 + k], by_lg[k]);
  }
}

// Pieces of a paced segment, one at a time (no statistics).
// Strip-mined, fixed K = 2^s, 64-bit limit (what the pass emits, unpaced).
__global__ void iota_strip64(int *out, int n, unsigned s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = blockDim.x * gridDim.x;
  while (i < n) {
    int limit = segment_limit(i, stride, s, n);
    do {
      out[i] = 7 + i;
      i += stride;
    } while (i < limit);
  }
}

// The same with the segment's limit in 32 bits (a caller-checked bound).
__global__ void iota_strip32(int *out, int n, unsigned s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = blockDim.x * gridDim.x;
  const int kstep = stride << s;
  while (i < n) {
    int limit = n - i > kstep ? i + kstep : n;
    do {
      out[i] = 7 + i;
      i += stride;
    } while (i < limit);
  }
}

// Paced on %clock as the pass does; with Lds, the check also reads a
// shared word and may leave.
template <bool Lds>
__global__ void iota_paced(int *out, int n, unsigned target_lz) {
  __shared__ volatile unsigned flag;
  clear_flag<Lds>(flag);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = blockDim.x * gridDim.x;
  unsigned pace = (clk() & ~63u) | 2u;
  while (i < n) {
    unsigned s = pace & 63u;
    int limit = segment_limit(i, stride, s, n);
    do {
      out[i] = 7 + i;
      i += stride;
    } while (i < limit);
    pace = next_pace(pace, target_lz);
    if (Lds && flag == 2)
      return;
  }
}

// The check as a rarely taken branch inside the one loop (the pass's IV
// kind), paced: the segment ends where the IV reaches `seg`, K steps on.
template <bool Lds>
__global__ void iota_iv_paced(int *out, int n, unsigned target_lz) {
  __shared__ volatile unsigned flag;
  clear_flag<Lds>(flag);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = blockDim.x * gridDim.x;
  unsigned pace = (clk() & ~63u) | 2u;
  unsigned seg = (unsigned)i + ((unsigned)stride << 2);
  while (i < n) {
    out[i] = 7 + i;
    i += stride;
    if ((unsigned)i == seg) {
      pace = next_pace(pace, target_lz);
      seg = (unsigned)i + ((unsigned)stride << (pace & 63u));
      if (Lds && flag == 2)
        return;
    }
  }
}

__global__ void iota_plain(int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = 7 + i;
}

int main() {
  const int n = 1 << 29;
  int *out;
  unsigned long long *stats, host[kStats];
  CK(cudaMalloc(&out, n * 4ull));
  CK(cudaMalloc(&stats, kStats * 8));
  clock_rate<<<1, 1>>>(stats, 1 << 24);
  CK(cudaMemcpy(host, stats, 24, cudaMemcpyDeviceToHost));
  printf("clock: %llu cycles in %llu ns = %.3f cycles/ns\n", host[0], host[1],
         double(host[0]) / double(host[1]));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (unsigned target : {2048u, 4096u}) {
    CK(cudaMemset(stats, 0, kStats * 8));
    iota_plain<<<1056, 256>>>(out, n);
    CK(cudaEventRecord(e0));
    iota_plain<<<1056, 256>>>(out, n);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float plain_ms;
    CK(cudaEventElapsedTime(&plain_ms, e0, e1));
    CK(cudaEventRecord(e0));
    iota_paced_stats<<<1056, 256>>>(out, n, __builtin_clz(target), stats);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float paced_ms;
    CK(cudaEventElapsedTime(&paced_ms, e0, e1));
    CK(cudaMemcpy(host, stats, sizeof host, cudaMemcpyDeviceToHost));
    printf("target %u cycles: plain %.3f ms, paced %.3f ms; warp segments %llu, warp iterations %llu "
           "(%.2f per segment)\n",
           target, plain_ms, paced_ms, host[0], host[1], double(host[1]) / double(host[0]));
    printf("  segments by s:");
    for (int k = 0; k < 17; ++k)
      if (host[2 + k])
        printf(" s%d=%llu", k, host[2 + k]);
    printf("\n  segments by log2(cycles):");
    for (int k = 0; k < 33; ++k)
      if (host[19 + k])
        printf(" %d:%llu", k, host[19 + k]);
    printf("\n");
  }
  // Interleaved timing of the pieces, medians of 21 rounds.
  const int rounds = 21;
  const char *names[] = {"plain", "strip64 K=8", "strip32 K=8", "strip64 K=32", "paced_bare 4096",
                         "paced_lds 4096", "paced_bare 2048", "paced_lds 2048", "iv_bare 4096",
                         "iv_lds 4096", "iv_bare 2048", "iv_lds 2048"};
  const int kinds = sizeof names / sizeof names[0];
  static float t[12][rounds];
  for (int r = 0; r < rounds; ++r)
    for (int k = 0; k < kinds; ++k) {
      CK(cudaEventRecord(e0));
      switch (k) {
      case 0: iota_plain<<<1056, 256>>>(out, n); break;
      case 1: iota_strip64<<<1056, 256>>>(out, n, 3); break;
      case 2: iota_strip32<<<1056, 256>>>(out, n, 3); break;
      case 3: iota_strip64<<<1056, 256>>>(out, n, 5); break;
      case 4: iota_paced<false><<<1056, 256>>>(out, n, 19); break;
      case 5: iota_paced<true><<<1056, 256>>>(out, n, 19); break;
      case 6: iota_paced<false><<<1056, 256>>>(out, n, 20); break;
      case 7: iota_paced<true><<<1056, 256>>>(out, n, 20); break;
      case 8: iota_iv_paced<false><<<1056, 256>>>(out, n, 19); break;
      case 9: iota_iv_paced<true><<<1056, 256>>>(out, n, 19); break;
      case 10: iota_iv_paced<false><<<1056, 256>>>(out, n, 20); break;
      case 11: iota_iv_paced<true><<<1056, 256>>>(out, n, 20); break;
      }
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      CK(cudaEventElapsedTime(&t[k][r], e0, e1));
    }
  float med[12];
  for (int k = 0; k < kinds; ++k) {
    std::sort(t[k], t[k] + rounds);
    med[k] = t[k][rounds / 2];
    printf("%-18s median %.4f ms  p90 %.4f  vs plain %+.2f%%\n", names[k], med[k],
           t[k][rounds * 9 / 10], 100.0 * (med[k] / med[0] - 1));
  }
  return 0;
}

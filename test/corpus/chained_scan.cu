// Single-pass prefix sum with chained tiles: CUB's DeviceScan (decoupled
// look-back) reduced to waiting for the previous tile's inclusive prefix.
// Each CTA scans its 256 values in shared memory; thread 0 spins until
// tile blockIdx.x - 1 has published its prefix (flag in the high word),
// then publishes its own. `status` must be zero before a launch. The
// kernel relies on the CTA it waits for having started, so gmem gives it
// no preemptible clone (CheckpointSpinWait.cpp).

// GMEM-EXPECT: chained_scan non-idempotent
// GMEM-RUN: chained_scan grid=64 block=256 args=buf:i32:16384:randint:0:100 buf:i32:16384:zero buf:u64:64:zero
// GMEM-RUN: chained_scan grid=4096 block=256 args=buf:i32:1048576:randint:0:100 buf:i32:1048576:zero buf:u64:4096:zero
__global__ void chained_scan(const int *in, int *out, volatile unsigned long long *status) {
  __shared__ int s[256];
  __shared__ int prefix;
  int t = blockIdx.x;
  int i = t * 256 + threadIdx.x;
  s[threadIdx.x] = in[i];
  __syncthreads();
  for (int o = 1; o < 256; o *= 2) {
    int v = threadIdx.x >= o ? s[threadIdx.x - o] : 0;
    __syncthreads();
    s[threadIdx.x] += v;
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    unsigned before = 0;
    if (t > 0) {
      unsigned long long st;
      while (((st = status[t - 1]) >> 32) == 0)
        ;
      before = (unsigned)st;
    }
    prefix = (int)before;
    __threadfence();
    status[t] = (1ull << 32) | (unsigned)(before + s[255]);
  }
  __syncthreads();
  out[i] = prefix + s[threadIdx.x];
}

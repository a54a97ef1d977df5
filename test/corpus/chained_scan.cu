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

// The same chain as hand-written code often spells it: a running total
// handed from tile to tile, the wait reading the previous tile's word with
// atomicAdd(p, 0) (a coherent read through an atomic that changes nothing)
// instead of a volatile load. A wait all the same, so no preemptible clone.
// GMEM-EXPECT: chained_total_atomic non-idempotent
// GMEM-RUN: chained_total_atomic grid=64 block=256 args=buf:i32:16384:randint:0:100 buf:i32:64:zero buf:u64:64:zero
// GMEM-RUN: chained_total_atomic grid=2048 block=256 args=buf:i32:524288:randint:0:100 buf:i32:2048:zero buf:u64:2048:zero
__global__ void chained_total_atomic(const int *in, int *total, unsigned long long *status) {
  __shared__ int part[256];
  int t = blockIdx.x;
  part[threadIdx.x] = in[t * 256 + threadIdx.x];
  __syncthreads();
  for (int o = 128; o > 0; o /= 2) {
    if (threadIdx.x < o)
      part[threadIdx.x] += part[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    unsigned before = 0;
    if (t > 0) {
      unsigned long long st;
      while (((st = atomicAdd(&status[t - 1], 0ull)) >> 32) == 0)
        ;
      before = (unsigned)st;
    }
    total[t] = (int)before + part[0];
    __threadfence();
    atomicExch(&status[t], (1ull << 32) | (unsigned)(before + part[0]));
  }
}

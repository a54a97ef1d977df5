// Adversarial round 49: printf, __nanosleep, spin-waits on flags written by
// other blocks, last-block-done (threadFenceReduction), work stealing.
#include <cstdio>

// printf plus a plain store. Policy: a rerun prints again.
// GMEM-EXPECT: printf_store non-idempotent
// GMEM-RUN: printf_store grid=1 block=4 args=buf:i32:4:zero
__global__ void printf_store(int *out) {
  out[threadIdx.x] = threadIdx.x;
  if (threadIdx.x == 0) printf("blk %d\n", blockIdx.x);
}

// printf inside a helper that is only sometimes called (n < 0 never).
// GMEM-EXPECT: printf_guarded non-idempotent
// GMEM-RUN: printf_guarded grid=1 block=32 args=buf:i32:32:zero i32:-1
__device__ __noinline__ void report(int v) { printf("v=%d\n", v); }
__global__ void printf_guarded(int *out, int n) {
  if (n >= 0 && threadIdx.x == 0) report(n);
  out[threadIdx.x] = 2 * threadIdx.x;
}

// __nanosleep then a pure store: idempotent.
// GMEM-EXPECT: nanosleep_store idempotent
// GMEM-RUN: nanosleep_store grid=2 block=64 args=buf:i32:128:zero u32:1000
__global__ void nanosleep_store(int *out, unsigned ns) {
  __nanosleep(ns);
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

// Block 0 publishes data then raises a flag; other blocks spin on the
// volatile flag and copy the data. Truth: reads flag and data written by
// the same launch (not idempotent by definition); the second run finds
// flag == 1 already.
// GMEM-EXPECT: spin_publish non-idempotent
// GMEM-RUN: spin_publish grid=4 block=64 args=buf:f32:64:zero buf:i32:1:zero buf:f32:256:zero
__global__ void spin_publish(float *data, int *flag, float *out) {
  int t = threadIdx.x;
  if (blockIdx.x == 0) {
    data[t] = 1.5f * t;
    __threadfence();
    __syncthreads();
    if (t == 0) *(volatile int *)flag = 1;
  } else {
    if (t == 0) while (*(volatile int *)flag == 0) __nanosleep(64);
    __syncthreads();
    out[blockIdx.x * 64 + t] = ((volatile float *)data)[t];
  }
}

// threadFenceReduction sample: partial sums, fence, atomicInc ticket; the
// last block sums the partials and resets the counter.
// GMEM-EXPECT: fence_reduction non-idempotent
// GMEM-RUN: fence_reduction grid=8 block=128 args=buf:f32:1024:rand buf:f32:8:zero buf:u32:1:zero buf:f32:1:zero
__global__ void fence_reduction(const float *in, float *partial, unsigned *count, float *result) {
  __shared__ float s[128];
  __shared__ bool last;
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * 128 + t];
  __syncthreads();
  for (int o = 64; o > 0; o >>= 1) {
    if (t < o) s[t] += s[t + o];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    unsigned ticket = atomicInc(count, gridDim.x);
    last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (last && t == 0) {
    float sum = 0;
    for (int b = 0; b < gridDim.x; ++b) sum += ((volatile float *)partial)[b];
    *result = sum;
    *count = 0;
  }
}

// Stream-K style work stealing: tiles claimed from a global counter.
// GMEM-EXPECT: work_steal non-idempotent
// GMEM-RUN: work_steal grid=4 block=32 args=buf:i32:1:zero buf:f32:512:rand buf:f32:512:zero i32:16
__global__ void work_steal(int *next, const float *in, float *out, int ntiles) {
  __shared__ int tile;
  while (true) {
    if (threadIdx.x == 0) tile = atomicAdd(next, 1);
    __syncthreads();
    int k = tile;
    __syncthreads();
    if (k >= ntiles) break;
    out[k * 32 + threadIdx.x] = in[k * 32 + threadIdx.x] * 2.0f;
  }
}

// Per-block work stealing through a shared counter: which thread handles
// which element varies, but every element gets the same value -> truly
// idempotent in bytes (reads in, writes out).
// GMEM-EXPECT: smem_steal_elements conditional
// GMEM-RUN: smem_steal_elements grid=2 block=64 args=buf:f32:512:rand buf:f32:512:zero
__global__ void smem_steal_elements(const float *in, float *out) {
  __shared__ int next;
  if (threadIdx.x == 0) next = 0;
  __syncthreads();
  for (int k; (k = atomicAdd(&next, 1)) < 256;)
    out[blockIdx.x * 256 + k] = in[blockIdx.x * 256 + k] + 1.0f;
}

// Write-only publish: data then flag, nobody reads -> idempotent.
// GMEM-EXPECT: publish_store_only idempotent
// GMEM-RUN: publish_store_only grid=2 block=64 args=buf:f32:128:zero buf:i32:2:zero
__global__ void publish_store_only(float *data, int *flag) {
  data[blockIdx.x * 64 + threadIdx.x] = threadIdx.x;
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) *(volatile int *)&flag[blockIdx.x] = 1;
}

// Last-block-done with a volatile flag array polled by block 0 (no atomics):
// block 0 waits until every other block's flag is set, then sums their
// outputs. Truth: reads done[] and part[] written in the launch.
// GMEM-EXPECT: poll_flags_sum non-idempotent
// GMEM-RUN: poll_flags_sum grid=4 block=32 args=buf:i32:4:zero buf:f32:4:zero buf:f32:1:zero
__global__ void poll_flags_sum(int *done, float *part, float *result) {
  if (blockIdx.x != 0) {
    if (threadIdx.x == 0) {
      part[blockIdx.x] = (float)blockIdx.x;
      __threadfence();
      ((volatile int *)done)[blockIdx.x] = 1;
    }
    return;
  }
  if (threadIdx.x == 0) {
    float s = 0;
    for (int b = 1; b < gridDim.x; ++b) {
      while (((volatile int *)done)[b] == 0) __nanosleep(32);
      s += ((volatile float *)part)[b];
    }
    *result = s;
  }
}

// A spin whose exit count is written out: how many polls it took depends on
// timing (nondeterministic output without clocks or atomics).
// GMEM-EXPECT: spin_count_out non-idempotent
// GMEM-RUN: spin_count_out grid=2 block=32 args=buf:i32:1:zero buf:i32:2:zero
__global__ void spin_count_out(int *flag, int *polls) {
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0) { __nanosleep(20000); *(volatile int *)flag = 1; }
    return;
  }
  if (threadIdx.x == 0) {
    int n = 0;
    while (*(volatile int *)flag == 0) ++n;
    polls[blockIdx.x] = n;
  }
}

// Shared-memory spin: warp 1 counts polls until warp 0 raises a shared flag
// (after a sleep), then writes the count to global memory. No global read,
// no atomic, no clock, yet the stored value depends on timing.
// GMEM-EXPECT: smem_poll_count non-idempotent
// GMEM-RUN: smem_poll_count grid=1 block=64 args=buf:i32:1:zero
__global__ void smem_poll_count(int *out) {
  __shared__ volatile int flag;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  if (threadIdx.x == 0) { __nanosleep(10000); flag = 1; }
  if (threadIdx.x == 32) {
    int n = 0;
    while (flag == 0) ++n;
    out[0] = n;
  }
}

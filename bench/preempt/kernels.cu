// Kernels of the preemption harness (bench/preempt), compiled with the gmem
// plugin like any user code, so each has its preemptible clone
// __gmem_pre_<name> (extern "C": unmangled names).
//
// Victims (latency): each thread runs a loop of `iters` iterations; block 0
// thread 0 first raises *started (host-mapped) so the host knows the kernel
// runs. victim_loop and victim_tiled are idempotent (out = f(in)), checked
// per thread resp. at their __syncthreads; victim_accum is not (out += f(in))
// and only ever gets request 1, so its CTAs are short and many;
// victim_accum_sync is the same with a barrier after its loop, so it has no
// loop checkpoints.
//
// Helpers: fill (deterministic buffer contents on the device), count_diff
// (bitwise comparison on the device), trigger (writes the request after a
// delay measured on %globaltimer, from inside the GPU).
#include <stdint.h>

extern "C" __global__ void victim_loop(const float *in, float *out, int iters,
                                       volatile int *started) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *started = 1;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int k = 0; k < iters; ++k) v = v * 0.9999f + 0.0001f * __sinf(v + (float)k);
  out[i] = v;
}

// Many short CTAs: thread indices wrap at mask + 1 (a power of two far above
// one wave of CTAs), so a long run needs no huge buffers.
extern "C" __global__ void victim_accum(const float *in, float *out, int iters, int mask,
                                        volatile int *started) {
  if (blockIdx.x == 0 && threadIdx.x == 0) *started = 1;
  int i = (blockIdx.x * blockDim.x + threadIdx.x) & mask;
  float v = in[i];
  for (int k = 0; k < iters; ++k) v = v * 0.9999f + 0.0001f * __sinf(v + (float)k);
  out[i] += v;
}

// victim_accum with no loop checkpoints: the __syncthreads_or after its
// loop keeps the pass from checking inside it (a thread that left would
// leave the others waiting at the barrier, and a counting barrier is no
// meeting point for a deferred stop, as a plain __syncthreads would be), so
// every launch of it stops between virtual CTAs only. blockDim.x == 256.
extern "C" __global__ void victim_accum_sync(const float *in, float *out, int iters, int mask,
                                             volatile int *started) {
  __shared__ float row[256];
  if (blockIdx.x == 0 && threadIdx.x == 0) *started = 1;
  int i = (blockIdx.x * blockDim.x + threadIdx.x) & mask;
  float v = in[i];
  for (int k = 0; k < iters; ++k) v = v * 0.9999f + 0.0001f * __sinf(v + (float)k);
  row[threadIdx.x] = v;
  if (__syncthreads_or(v != v)) v = 0.0f; // no NaN from the loop above
  out[i] += row[(threadIdx.x + 1) & 255] + v * 0.0f;
}

// n = number of floats in `in` (a power of two); blockDim.x == 256.
extern "C" __global__ void victim_tiled(const float *in, float *out, int iters, int n,
                                        volatile int *started) {
  __shared__ float tile[256];
  if (blockIdx.x == 0 && threadIdx.x == 0) *started = 1;
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  for (int k = 0; k < iters; ++k) {
    tile[t] = in[(i + k * 256) & (n - 1)];
    __syncthreads();
    float s = 0.0f;
#pragma unroll 8
    for (int j = 0; j < 32; ++j) s += tile[(t + j) & 255] * 0.5f;
    acc = acc * 0.999f + s;
    __syncthreads();
  }
  out[i] = acc;
}

__device__ __forceinline__ uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// type: 0 f32, 1 f64, 2 i32, 3 u32, 4 i64, 5 u64, 6 i8, 7 u8
// mode: 0 rand (floats in [-1,1), integers in [0,100)), 1 randint [lo,hi),
//       2 zero, 3 iota, 4 const (cf for floats, lo for integers)
extern "C" __global__ void fill(void *p, unsigned long long count, int type, int mode,
                                unsigned long long seed, long long lo, long long hi, double cf) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
       i < count; i += (unsigned long long)blockDim.x * gridDim.x) {
    uint64_t r = mix64(seed ^ (i * 0xD1B54A32D192ED03ull));
    bool isf = type < 2;
    double fv = 0.0;
    long long iv = 0;
    switch (mode) {
    case 0:
      fv = (double)(r >> 11) * (2.0 / 9007199254740992.0) - 1.0;
      iv = (long long)(r % 100);
      break;
    case 1:
      iv = lo + (long long)(r % (uint64_t)(hi - lo));
      fv = (double)iv;
      break;
    case 3:
      iv = (long long)i;
      fv = (double)i;
      break;
    case 4:
      iv = lo;
      fv = cf;
      break;
    default:
      break;
    }
    if (mode == 3 || mode == 1) isf = false;
    switch (type) {
    case 0: ((float *)p)[i] = isf ? (float)fv : (float)iv; break;
    case 1: ((double *)p)[i] = isf ? fv : (double)iv; break;
    case 2: case 3: ((uint32_t *)p)[i] = (uint32_t)iv; break;
    case 4: case 5: ((uint64_t *)p)[i] = (uint64_t)iv; break;
    default: ((uint8_t *)p)[i] = (uint8_t)iv; break;
    }
  }
}

// Counts differing bytes of a and b (n bytes); first differing offset in
// result[1] (atomicMin, start with ~0).
extern "C" __global__ void count_diff(const uint8_t *a, const uint8_t *b, unsigned long long n,
                                      unsigned long long *result) {
  unsigned long long words = n / 4, diff = 0, first = ~0ull;
  const uint32_t *wa = (const uint32_t *)a, *wb = (const uint32_t *)b;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
       i < words; i += (unsigned long long)blockDim.x * gridDim.x) {
    uint32_t x = wa[i] ^ wb[i];
    if (x) {
      diff += ((x & 0xff) != 0) + ((x & 0xff00) != 0) + ((x & 0xff0000) != 0) + ((x >> 24) != 0);
      if (4 * i < first) first = 4 * i;
    }
  }
  if (blockIdx.x == 0 && threadIdx.x == 0)
    for (unsigned long long i = 4 * words; i < n; ++i)
      if (a[i] != b[i]) {
        ++diff;
        if (i < first) first = i;
      }
  if (diff) {
    atomicAdd(&result[0], diff);
    atomicMin(&result[1], first);
  }
}

// Writes *request = value `delay_ns` after it starts (device-side preemption
// at a chosen point of the victim's run). One thread.
extern "C" __global__ void trigger(volatile unsigned int *request, unsigned int value,
                                   unsigned long long delay_ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < delay_ns);
  *request = value;
  __threadfence_system();
}

// Session 51: atomic combines (an unused integer atomicMax/Min/And/Or counts
// as a write for idempotence, MemAccess::Combine) and loads covered by the
// thread's own store (CoveredLoads.h), checked on the GPU with real atomics
// and real thread orders. The expectation lines are the author's judgement
// of the sound and precise class.

// Per-block maximum into out[blockIdx.x].
// GMEM-EXPECT: cb_block_max conditional
// GMEM-RUN: cb_block_max grid=64 block=256 args=buf:i32:16384:randint:-1000:1000 buf:i32:64:zero i32:16384
// GMEM-RUN: cb_block_max grid=64 block=256 args=buf:i32:16384:randint:-1000:1000 ptr:0+0 i32:16384
__global__ void cb_block_max(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMax(&out[blockIdx.x], in[i]);
}

// One global minimum of |x| as bits.
// GMEM-EXPECT: cb_global_min conditional
// GMEM-RUN: cb_global_min grid=32 block=128 args=buf:f32:4096:rand buf:u32:1:randint:0:2000000000 i32:4096
__global__ void cb_global_min(const float *in, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMin(out, __float_as_uint(in[i]) & 0x7fffffffu);
}

// Bitset of keys (a Bloom-filter add with one hash).
// GMEM-EXPECT: cb_bitset_or conditional
// GMEM-RUN: cb_bitset_or grid=16 block=256 args=buf:i32:4096:randint:0:65536 buf:u32:2048:zero i32:4096
__global__ void cb_bitset_or(const int *keys, unsigned *bits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned h = (unsigned)keys[i] * 2654435761u;
    atomicOr(&bits[(h >> 5) & 2047], 1u << (h & 31));
  }
}

// Clear bits with a mask.
// GMEM-EXPECT: cb_mask_and conditional
// GMEM-RUN: cb_mask_and grid=8 block=128 args=buf:u32:1024:randint:0:1000000 buf:u32:64:randint:0:2000000000 i32:1024
__global__ void cb_mask_and(const unsigned *masks, unsigned *words, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAnd(&words[i & 63], ~(masks[i] & 0xffu));
}

// 64-bit max in a grid-stride loop.
// GMEM-EXPECT: cb_gs_max64 conditional
// GMEM-RUN: cb_gs_max64 grid=8 block=128 args=buf:u64:100000:randint:0:1000000000 buf:u64:16:zero i32:100000
__global__ void cb_gs_max64(const unsigned long long *in, unsigned long long *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicMax(&out[i & 15], in[i]);
}

// A sum stays non-idempotent.
// GMEM-EXPECT: cb_block_sum non-idempotent
// GMEM-RUN: cb_block_sum grid=16 block=128 args=buf:i32:2048:randint:0:100 buf:i32:16:zero i32:2048
__global__ void cb_block_sum(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&out[blockIdx.x], in[i]);
}

// Max and min into one word: the order decides.
// GMEM-EXPECT: cb_max_min_mix non-idempotent
// GMEM-RUN: cb_max_min_mix grid=8 block=128 args=buf:i32:1024:randint:-50:50 buf:i32:4:zero i32:1024
__global__ void cb_max_min_mix(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if (in[i] & 1)
      atomicMax(&out[0], in[i]);
    else
      atomicMin(&out[0], in[i]);
  }
}

// Max whose old value is used.
// GMEM-EXPECT: cb_max_old non-idempotent
// GMEM-RUN: cb_max_old grid=4 block=64 args=buf:i32:256:randint:0:1000 buf:i32:1:zero buf:i32:256:zero i32:256
__global__ void cb_max_old(const int *in, int *out, int *old, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    old[i] = atomicMax(out, in[i]);
}

// Max into a slot the kernel also reads plainly.
// GMEM-EXPECT: cb_max_read non-idempotent
// GMEM-RUN: cb_max_read grid=8 block=128 args=buf:i32:1024:randint:0:1000 buf:i32:8:zero buf:i32:8:zero i32:1024
__global__ void cb_max_read(const int *in, int *out, int *copy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMax(&out[blockIdx.x], in[i]);
  __syncthreads();
  if (threadIdx.x == 0)
    copy[blockIdx.x] = out[blockIdx.x] + 1;
}

// Max whose operand is read from the maxed buffer (another slot).
// GMEM-EXPECT: cb_max_from_self non-idempotent
// GMEM-RUN: cb_max_from_self grid=4 block=64 args=buf:i32:512:randint:0:1000 i32:256
__global__ void cb_max_from_self(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMax(&a[i + n], a[(i * 7) % n] + a[i + n]);
}

// Row written, then rescaled in place by the same thread (covered loads).
// GMEM-EXPECT: cb_softmax_rows conditional
// GMEM-RUN: cb_softmax_rows grid=32 block=128 args=buf:f32:16384:rand buf:f32:16384:zero i32:512
// GMEM-RUN: cb_softmax_rows grid=32 block=128 args=buf:f32:16384:rand ptr:0+0 i32:512
__global__ void cb_softmax_rows(const float *x, float *y, int C) {
  const float *xr = x + blockIdx.x * C;
  float *yr = y + blockIdx.x * C;
  __shared__ float red[128];
  float m = -1e30f;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    m = fmaxf(m, xr[c]);
  red[threadIdx.x] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float sum = 0.f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    float e = __expf(xr[c] - m);
    yr[c] = e;
    sum += e;
  }
  red[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  float inv = 1.f / red[0];
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    yr[c] = yr[c] * inv;
}

// Written through a pointer chosen per launch, read back through the other
// (not covered: the store went elsewhere).
// GMEM-EXPECT: cb_chosen_store non-idempotent
// GMEM-RUN: cb_chosen_store grid=4 block=64 args=buf:f32:256:rand buf:f32:256:rand i32:0
// GMEM-RUN: cb_chosen_store grid=4 block=64 args=buf:f32:256:rand buf:f32:256:rand i32:1
__global__ void cb_chosen_store(float *a, float *b, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = flag ? a : b;
  p[i] = 1.0f;
  __syncthreads();
  a[i] = a[i] + 1.0f;
}

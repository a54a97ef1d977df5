// Kernels with a __device__ global counter: the CUDA samples'
// threadFenceReduction (single-pass reduction where the last block to finish,
// found with an atomic ticket, sums the per-block partials), and a counter
// that only accumulates into a module global.

__device__ unsigned int g_retirement_count = 0;

// Launch with a power-of-two blockDim.x <= 1024.
// GMEM-EXPECT: reduce_single_pass non-idempotent
// GMEM-RUN: reduce_single_pass grid=512 block=256 args=buf:f32:1000000:rand buf:f32:512:zero buf:f32:1:zero i32:1000000
__global__ void reduce_single_pass(const float *in, float *partial, float *out, int n) {
  __shared__ float sdata[1024];
  __shared__ bool am_last;
  int tid = threadIdx.x;

  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x)
    s += in[i];
  sdata[tid] = s;
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) sdata[tid] += sdata[tid + stride];
    __syncthreads();
  }

  if (tid == 0) {
    partial[blockIdx.x] = sdata[0];
    __threadfence();
    unsigned int ticket = atomicInc(&g_retirement_count, gridDim.x);
    am_last = (ticket == gridDim.x - 1);
  }
  __syncthreads();

  if (am_last) {
    const volatile float *vp = partial;
    float t = 0.0f;
    for (int i = tid; i < (int)gridDim.x; i += blockDim.x)
      t += vp[i];
    sdata[tid] = t;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
      if (tid < stride) sdata[tid] += sdata[tid + stride];
      __syncthreads();
    }
    if (tid == 0) {
      out[0] = sdata[0];
      g_retirement_count = 0;
    }
  }
}

__device__ unsigned long long g_nonzero_count;

// Reads x only, but read-modify-writes a module global: not idempotent even
// though no pointer argument is written.
// GMEM-EXPECT: count_nonzero non-idempotent
// GMEM-RUN: count_nonzero grid=391 block=256 args=buf:f32:100000:rand i32:100000
__global__ void count_nonzero(const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool nz = false;
  if (i < n) nz = (x[i] != 0.0f);
  unsigned int mask = __ballot_sync(0xffffffffu, nz);
  if ((threadIdx.x & 31) == 0 && mask != 0)
    atomicAdd(&g_nonzero_count, (unsigned long long)__popc(mask));
}

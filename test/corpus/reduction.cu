// Sum reductions: the CUDA samples' shared-memory tree reduction (templated
// on the block size, two loads per thread), a warp-shuffle reduction and a
// single-pass reduction that finishes with one atomicAdd per block.

// Block partial sums into out[blockIdx.x]. Launch with blockDim.x == BLOCK.
template <int BLOCK>
__global__ void reduce(const float *in, float *out, int n) {
  __shared__ float sdata[BLOCK];
  int tid = threadIdx.x;
  int i = blockIdx.x * (BLOCK * 2) + threadIdx.x;

  float s = 0.0f;
  if (i < n) s = in[i];
  if (i + BLOCK < n) s += in[i + BLOCK];
  sdata[tid] = s;
  __syncthreads();

  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (tid < stride) sdata[tid] += sdata[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// GMEM-EXPECT: reduce<256> conditional
// GMEM-RUN: reduce<256> grid=1954 block=256 args=buf:f32:1000000:rand buf:f32:1954:zero i32:1000000
template __global__ void reduce<256>(const float *, float *, int);

// Grid-stride accumulation, then warp shuffles; one partial per block.
// Launch with blockDim.x a multiple of 32.
// GMEM-EXPECT: warp_reduce_sum conditional
// GMEM-RUN: warp_reduce_sum grid=264 block=256 args=buf:f32:1000000:rand buf:f32:264:zero i32:1000000
__global__ void warp_reduce_sum(const float *in, float *out, int n) {
  __shared__ float warp_sums[32];
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    s += in[i];
  for (int offset = 16; offset > 0; offset >>= 1)
    s += __shfl_down_sync(0xffffffffu, s, offset);

  int lane = threadIdx.x & 31;
  int wid = threadIdx.x >> 5;
  if (lane == 0) warp_sums[wid] = s;
  __syncthreads();

  if (wid == 0) {
    int nwarps = (blockDim.x + 31) >> 5;
    s = lane < nwarps ? warp_sums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1)
      s += __shfl_down_sync(0xffffffffu, s, offset);
    if (lane == 0) out[blockIdx.x] = s;
  }
}

// Every block reduces its slice in shared memory and adds it to *result.
// GMEM-EXPECT: reduce_atomic_add non-idempotent
// GMEM-RUN: reduce_atomic_add grid=128 block=512 args=buf:f32:1000000:rand buf:f32:1:zero i32:1000000
__global__ void reduce_atomic_add(const float *in, float *result, int n) {
  __shared__ float sdata[1024];
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
  if (tid == 0) atomicAdd(result, sdata[0]);
}

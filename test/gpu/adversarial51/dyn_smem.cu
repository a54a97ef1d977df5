// Session 51: kernels that stage through dynamic shared memory (extern
// __shared__, sized by the launch's smem=), so that the GPU truth and the
// forced preemption of persistent clones (which run many virtual CTAs in
// one CTA's shared memory) cover them. The expectation lines are the
// author's judgement of the sound and precise class.

// Staged and read back reversed.
// GMEM-EXPECT: ds_reverse conditional
// GMEM-RUN: ds_reverse grid=64 block=128 smem=512 args=buf:f32:8192:rand buf:f32:8192:zero
// GMEM-RUN: ds_reverse grid=64 block=128 smem=512 args=buf:f32:8192:rand ptr:0+0
__global__ void ds_reverse(const float *in, float *out) {
  extern __shared__ float stage[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  stage[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = stage[blockDim.x - 1 - threadIdx.x];
}

// Tree reduction in dynamic shared memory, one partial per block.
// GMEM-EXPECT: ds_block_sum conditional
// GMEM-RUN: ds_block_sum grid=512 block=256 smem=1024 args=buf:f32:131072:rand buf:f32:512:zero i32:131072
__global__ void ds_block_sum(const float *in, float *out, int n) {
  extern __shared__ float part[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  part[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = part[0];
}

// A row cached in dynamic shared memory, then its softmax written.
// GMEM-EXPECT: ds_softmax_row conditional
// GMEM-RUN: ds_softmax_row grid=64 block=128 smem=4096 args=buf:f32:65536:rand buf:f32:65536:zero i32:1024
// GMEM-RUN: ds_softmax_row grid=64 block=128 smem=4096 args=buf:f32:65536:rand ptr:0+0 i32:1024
__global__ void ds_softmax_row(const float *x, float *y, int C) {
  extern __shared__ float row[];
  __shared__ float red[128];
  const float *xr = x + (size_t)blockIdx.x * C;
  float *yr = y + (size_t)blockIdx.x * C;
  float m = -1e30f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    row[c] = xr[c];
    m = fmaxf(m, row[c]);
  }
  red[threadIdx.x] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float sum = 0.0f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    row[c] = __expf(row[c] - m);
    sum += row[c];
  }
  red[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      red[threadIdx.x] += red[threadIdx.x + s];
    __syncthreads();
  }
  float inv = 1.0f / red[0];
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    yr[c] = row[c] * inv;
}

// Matrix-vector product by tiles of x staged in dynamic shared memory,
// a barrier in the tile loop (joined loop checkpoints).
// GMEM-EXPECT: ds_gemv_tiles conditional
// GMEM-RUN: ds_gemv_tiles grid=32 block=128 smem=512 args=buf:f32:1048576:rand buf:f32:256:rand buf:f32:4096:zero i32:4096 i32:256
__global__ void ds_gemv_tiles(const float *A, const float *x, float *y, int rows, int cols) {
  extern __shared__ float xs[];
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < cols; t += blockDim.x) {
    if (t + threadIdx.x < cols)
      xs[threadIdx.x] = x[t + threadIdx.x];
    __syncthreads();
    for (int k = 0; k < blockDim.x && t + k < cols; ++k)
      if (r < rows)
        acc += A[(size_t)r * cols + t + k] * xs[k];
    __syncthreads();
  }
  if (r < rows)
    y[r] = acc;
}

// In place through dynamic shared memory: not idempotent.
// GMEM-EXPECT: ds_inplace_scale non-idempotent
// GMEM-RUN: ds_inplace_scale grid=16 block=128 smem=512 args=buf:f32:2048:rand
__global__ void ds_inplace_scale(float *a) {
  extern __shared__ float t[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x] = a[i];
  __syncthreads();
  a[i] = 2.0f * t[(threadIdx.x + 1) % blockDim.x];
}

// Two arrays carved out of one dynamic allocation (float keys, int counts),
// a shared-memory histogram with shared atomics, one row of counts a block.
// GMEM-EXPECT: ds_block_hist conditional
// GMEM-RUN: ds_block_hist grid=32 block=256 smem=1280 args=buf:i32:65536:randint:0:64 buf:i32:2048:zero i32:65536
__global__ void ds_block_hist(const int *keys, int *hist, int n) {
  extern __shared__ int dyn[];
  int *bins = dyn;                 // 64 counters
  int *scratch = dyn + 64;         // blockDim.x words
  for (int b = threadIdx.x; b < 64; b += blockDim.x)
    bins[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    scratch[threadIdx.x] = keys[i] & 63;
    atomicAdd(&bins[scratch[threadIdx.x]], 1);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 64; b += blockDim.x)
    hist[blockIdx.x * 64 + b] = bins[b];
}

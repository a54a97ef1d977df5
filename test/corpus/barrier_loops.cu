// Loops with a __syncthreads() in every iteration, in shapes whose
// preemptible clones strip-mine them (a CTA-uniform induction variable,
// step and bound: one barrier reduction between segments) or keep a
// per-iteration counter (a start that differs per thread, a latch the Limit
// kind does not match). Each stages a tile of the input in shared memory
// and uses another thread's element.

// Tiles from the CTA's row on, stride gridDim.y: a uniform start that is
// not a constant and a step from the grid.
// GMEM-EXPECT: tile_rows_strided conditional
// GMEM-RUN: tile_rows_strided grid=16,4 block=128 args=buf:f32:262144:rand buf:f32:8192:zero i32:128
// GMEM-RUN: tile_rows_strided grid=16,4 block=128 args=buf:f32:262144:rand ptr:0+0 i32:128
__global__ void tile_rows_strided(const float *in, float *out, int ntiles) {
  __shared__ float tile[128];
  float acc = 0.0f;
  const int col = blockIdx.x * 128 + threadIdx.x;
  for (int t = blockIdx.y; t < ntiles; t += gridDim.y) {
    tile[threadIdx.x] = in[(size_t)t * gridDim.x * 128 + col];
    __syncthreads();
    acc += tile[(threadIdx.x + 1) & 127] * (float)(t + 1);
    __syncthreads();
  }
  out[blockIdx.y * gridDim.x * 128 + col] = acc;
}

// Counting down to zero. LLVM tests the counter before its decrement
// (t.in > 1), a latch the Limit kind does not match: the clone keeps the
// per-iteration counter here too.
// GMEM-EXPECT: tile_countdown conditional
// GMEM-RUN: tile_countdown grid=64 block=256 args=buf:f32:1048576:rand buf:f32:16384:zero i32:64
__global__ void tile_countdown(const float *in, float *out, int tiles) {
  __shared__ float tile[256];
  const float *base = in + (size_t)blockIdx.x * tiles * 256;
  float acc = 0.0f;
  for (int t = tiles - 1; t >= 0; --t) {
    tile[threadIdx.x] = base[t * 256 + threadIdx.x];
    __syncthreads();
    acc = acc * 0.5f + tile[255 - threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// The trip count read from memory (every thread reads the same word).
// GMEM-EXPECT: tile_count_from_memory conditional
// GMEM-RUN: tile_count_from_memory grid=32 block=256 args=buf:f32:524288:rand buf:i32:1:const:64 buf:f32:8192:zero
__global__ void tile_count_from_memory(const float *in, const int *count, float *out) {
  __shared__ float tile[256];
  const int tiles = *count;
  const float *base = in + (size_t)blockIdx.x * tiles * 256;
  float acc = 0.0f;
  for (int t = 0; t < tiles; ++t) {
    tile[threadIdx.x] = base[t * 256 + threadIdx.x];
    __syncthreads();
    acc += tile[threadIdx.x ^ 1];
    __syncthreads();
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// A block-stride loop over a row whose length is a multiple of blockDim.x:
// every thread runs it equally often, but its start differs per thread, so
// the clone keeps the counter that picks the deciding iterations.
// GMEM-EXPECT: row_stride_sync conditional
// GMEM-RUN: row_stride_sync grid=48 block=128 args=buf:f32:393216:rand buf:f32:393216:zero i32:8192
__global__ void row_stride_sync(const float *in, float *out, int row) {
  __shared__ float buf[128];
  const float *src = in + (size_t)blockIdx.x * row;
  float *dst = out + (size_t)blockIdx.x * row;
  for (int i = threadIdx.x; i < row; i += blockDim.x) {
    buf[threadIdx.x] = src[i];
    __syncthreads();
    dst[i] = buf[(threadIdx.x + 3) & 127] - src[i];
    __syncthreads();
  }
}

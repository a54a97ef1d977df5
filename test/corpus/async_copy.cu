// Tiles staged through shared memory by cp.async, one tile in flight ahead
// of the one in use: the sm_80 multistage pipeline of CUTLASS-style GEMM
// mainloops and FlashAttention-2, reduced to two stages. The copies are
// inline PTX, as cuda_pipeline.h and CUTLASS issue them.

__device__ __forceinline__ void cp_async4(float *smem, const float *gmem) {
  unsigned s = (unsigned)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(s), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
__device__ __forceinline__ void cp_async_wait_prior1() { asm volatile("cp.async.wait_group 1;" ::: "memory"); }

// Each CTA of 256 threads weighs `tiles` tiles of its own row block; the
// next tile's copy is issued before the current one is used.
// GMEM-EXPECT: tile_sum_async conditional
// GMEM-RUN: tile_sum_async grid=64 block=256 args=buf:f32:131072:rand buf:f32:16384:zero i32:8
// GMEM-RUN: tile_sum_async grid=264 block=256 args=buf:f32:4055040:rand buf:f32:67584:zero i32:60
// Soundness of the copies' read region: `out` aliases the last 1024 floats
// of `in`, which only the loop's prefetches of the last CTA read (its first
// tile ends at float 6400). A region without the prefetches would miss the
// overlap and call this launch idempotent; it is not.
// GMEM-RUN: tile_sum_async grid=4 block=256 args=buf:f32:8192:rand ptr:0+28672 i32:8
__global__ void tile_sum_async(const float *in, float *out, int tiles) {
  __shared__ float buf[2][256];
  const float *base = in + (size_t)blockIdx.x * tiles * 256;
  float acc = 0.0f;
  cp_async4(&buf[0][threadIdx.x], base + threadIdx.x);
  cp_async_commit();
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles)
      cp_async4(&buf[(t + 1) & 1][threadIdx.x], base + (t + 1) * 256 + threadIdx.x);
    cp_async_commit();
    cp_async_wait_prior1();
    __syncthreads();
    acc += buf[t & 1][(threadIdx.x + 1) & 255] * (float)(t + 1);
    __syncthreads();
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// The same with an unguarded prefetch (the last one re-reads the last
// tile) that nobody waits for: the CTA exits with a copy in flight. A
// persistent clone must not let it land in the next virtual CTA's tiles.
// GMEM-EXPECT: tile_sum_async_tail conditional
// GMEM-RUN: tile_sum_async_tail grid=264 block=256 args=buf:f32:2162688:rand buf:f32:67584:zero i32:32
__global__ void tile_sum_async_tail(const float *in, float *out, int tiles) {
  __shared__ float buf[2][256];
  const float *base = in + (size_t)blockIdx.x * tiles * 256;
  float acc = 0.0f;
  cp_async4(&buf[0][threadIdx.x], base + threadIdx.x);
  cp_async_commit();
  for (int t = 0; t < tiles; ++t) {
    int next = t + 1 < tiles ? t + 1 : tiles - 1;
    cp_async4(&buf[(t + 1) & 1][threadIdx.x], base + next * 256 + threadIdx.x);
    cp_async_commit();
    cp_async_wait_prior1();
    __syncthreads();
    acc += buf[t & 1][(threadIdx.x + 3) & 255] - 0.5f * (float)t;
    __syncthreads();
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// The CUDA programming guide's 16x16 tiled matrix product with its tiles
// staged by cp.async one tile ahead (CUDA samples' async-copy matrixMul):
// the realistic form of the pipeline above, 16 FMAs per element and tile.
// Out-of-range tile elements are zero-filled with a plain shared store.
// GMEM-EXPECT: gemm_tiled16_async conditional
// GMEM-RUN: gemm_tiled16_async grid=19,15 block=16,16 args=buf:f32:46000:rand buf:f32:60000:rand buf:f32:69000:zero i32:230 i32:300 i32:200
__device__ __forceinline__ void stage_elem(float *dst, const float *src, int r, int c, int rows,
                                           int cols, int ld) {
  if (r < rows && c < cols)
    cp_async4(dst, src + r * ld + c);
  else
    *dst = 0.0f;
}

__global__ void gemm_tiled16_async(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[2][16][16];
  __shared__ float Bs[2][16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 16 + ty;
  int col = blockIdx.x * 16 + tx;
  int tiles = (K + 15) / 16;
  float sum = 0.0f;
  stage_elem(&As[0][ty][tx], A, row, tx, M, K, K);
  stage_elem(&Bs[0][ty][tx], B, ty, col, K, N, N);
  cp_async_commit();
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) {
      stage_elem(&As[(t + 1) & 1][ty][tx], A, row, (t + 1) * 16 + tx, M, K, K);
      stage_elem(&Bs[(t + 1) & 1][ty][tx], B, (t + 1) * 16 + ty, col, K, N, N);
    }
    cp_async_commit();
    cp_async_wait_prior1();
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      sum += As[t & 1][ty][k] * Bs[t & 1][k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = sum;
}

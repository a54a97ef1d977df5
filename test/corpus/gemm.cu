// C = A * B (row-major, A is M x K, B is K x N): naive one-thread-per-output
// and the classic 16x16 shared-memory tiled version (CUDA programming guide
// matrixMul), both writing C without reading it.

// GMEM-EXPECT: gemm_naive conditional
// GMEM-RUN: gemm_naive grid=20,16 block=16,16 args=buf:f32:49152:rand buf:f32:61440:rand buf:f32:81920:zero i32:256 i32:320 i32:192
__global__ void gemm_naive(const float *A, const float *B, float *C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int k = 0; k < K; ++k)
      sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
  }
}

#define GEMM_TILE 16

// Launch with block=16,16. Handles sizes that are not multiples of 16.
// GMEM-EXPECT: gemm_tiled16 conditional
// GMEM-RUN: gemm_tiled16 grid=19,15 block=16,16 args=buf:f32:46000:rand buf:f32:60000:rand buf:f32:69000:zero i32:230 i32:300 i32:200
__global__ void gemm_tiled16(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[GEMM_TILE][GEMM_TILE];
  __shared__ float Bs[GEMM_TILE][GEMM_TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * GEMM_TILE + ty;
  int col = blockIdx.x * GEMM_TILE + tx;

  float sum = 0.0f;
  for (int t = 0; t < (K + GEMM_TILE - 1) / GEMM_TILE; ++t) {
    int a_col = t * GEMM_TILE + tx;
    int b_row = t * GEMM_TILE + ty;
    As[ty][tx] = (row < M && a_col < K) ? A[row * K + a_col] : 0.0f;
    Bs[ty][tx] = (b_row < K && col < N) ? B[b_row * N + col] : 0.0f;
    __syncthreads();
    for (int kk = 0; kk < GEMM_TILE; ++kk)
      sum += As[ty][kk] * Bs[kk][tx];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = sum;
}

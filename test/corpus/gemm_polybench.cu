// PolyBench/GPU GEMM: C = alpha * A * B + beta * C, accumulating in C.

// GMEM-EXPECT: gemm_polybench non-idempotent
// GMEM-RUN: gemm_polybench grid=8,32 block=32,8 args=i32:256 i32:256 i32:128 f32:1.5 f32:1.2 buf:f32:32768:rand buf:f32:32768:rand buf:f32:65536:rand
__global__ void gemm_polybench(int ni, int nj, int nk, float alpha, float beta,
                               const float *a, const float *b, float *c) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < ni) && (j < nj)) {
    c[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++)
      c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
  }
}

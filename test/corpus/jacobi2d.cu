// PolyBench/GPU JACOBI2D: one out-of-place sweep, then the copy-back kernel.

// GMEM-EXPECT: jacobi2d_step conditional
// GMEM-RUN: jacobi2d_step grid=32,128 block=32,8 args=i32:1000 buf:f32:1000000:rand buf:f32:1000000:zero
__global__ void jacobi2d_step(int n, const float *A, float *B) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1))) {
    B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + (j - 1)] + A[i * n + (1 + j)] +
                           A[(1 + i) * n + j] + A[(i - 1) * n + j]);
  }
}

// A = B on the interior.
// GMEM-EXPECT: jacobi2d_copy conditional
// GMEM-RUN: jacobi2d_copy grid=32,128 block=32,8 args=i32:1000 buf:f32:1000000:zero buf:f32:1000000:rand
__global__ void jacobi2d_copy(int n, float *A, const float *B) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1))) {
    A[i * n + j] = B[i * n + j];
  }
}

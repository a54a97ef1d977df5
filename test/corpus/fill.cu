// Initialisation kernels that read no global memory (cf. thrust::fill,
// cudaMemset-like helpers, identity-matrix setup in PolyBench/GPU drivers).

// GMEM-EXPECT: fill_f32 idempotent
// GMEM-RUN: fill_f32 grid=1024 block=256 args=buf:f32:262144:rand f32:3.0 i32:262144
__global__ void fill_f32(float *out, float value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

// Identity matrix in a row-major matrix with leading dimension lda >= n.
// GMEM-EXPECT: eye_f32 idempotent
// GMEM-RUN: eye_f32 grid=32,32 block=16,16 args=buf:f32:256000:rand i32:500 i32:512
__global__ void eye_f32(float *A, int n, int lda) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    A[row * lda + col] = (row == col) ? 1.0f : 0.0f;
  }
}

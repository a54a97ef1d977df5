// PolyBench/GPU ATAX (y = A^T (A x)) as two kernels, accumulating in
// registers: tmp = A x, then y = A^T tmp.  A is nx x ny row-major.

// GMEM-EXPECT: atax_kernel1 conditional
// GMEM-RUN: atax_kernel1 grid=4 block=256 args=buf:f32:1024000:rand buf:f32:1000:rand buf:f32:1024:zero i32:1024 i32:1000
__global__ void atax_kernel1(const float *A, const float *x, float *tmp, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    float s = 0.0f;
    for (int j = 0; j < ny; j++)
      s += A[i * ny + j] * x[j];
    tmp[i] = s;
  }
}

// GMEM-EXPECT: atax_kernel2 conditional
// GMEM-RUN: atax_kernel2 grid=4 block=256 args=buf:f32:1024000:rand buf:f32:1000:zero buf:f32:1024:rand i32:1024 i32:1000
__global__ void atax_kernel2(const float *A, float *y, const float *tmp, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    float s = 0.0f;
    for (int i = 0; i < nx; i++)
      s += A[i * ny + j] * tmp[i];
    y[j] = s;
  }
}

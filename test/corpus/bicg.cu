// PolyBench/GPU BICG sub-kernels (s = A^T r, q = A p), register accumulation.
// A is nx x ny row-major.

// GMEM-EXPECT: bicg_kernel1 conditional
// GMEM-RUN: bicg_kernel1 grid=8 block=128 args=buf:f32:1000000:rand buf:f32:1000:rand buf:f32:1000:zero i32:1000 i32:1000
__global__ void bicg_kernel1(const float *A, const float *r, float *s, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    float acc = 0.0f;
    for (int i = 0; i < nx; i++)
      acc += r[i] * A[i * ny + j];
    s[j] = acc;
  }
}

// GMEM-EXPECT: bicg_kernel2 conditional
// GMEM-RUN: bicg_kernel2 grid=8 block=128 args=buf:f32:1000000:rand buf:f32:1000:rand buf:f32:1000:zero i32:1000 i32:1000
__global__ void bicg_kernel2(const float *A, const float *p, float *q, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    float acc = 0.0f;
    for (int j = 0; j < ny; j++)
      acc += A[i * ny + j] * p[j];
    q[i] = acc;
  }
}

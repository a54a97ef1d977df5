// PolyBench/GPU MVT: x1 = x1 + A y1 and x2 = x2 + A^T y2, accumulating
// directly in the output vectors.

// GMEM-EXPECT: mvt_kernel1 non-idempotent
// GMEM-RUN: mvt_kernel1 grid=4 block=256 args=i32:1000 buf:f32:1000000:rand buf:f32:1000:rand buf:f32:1000:rand
__global__ void mvt_kernel1(int n, const float *a, float *x1, const float *y1) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++)
      x1[i] += a[i * n + j] * y1[j];
  }
}

// GMEM-EXPECT: mvt_kernel2 non-idempotent
// GMEM-RUN: mvt_kernel2 grid=4 block=256 args=i32:1000 buf:f32:1000000:rand buf:f32:1000:rand buf:f32:1000:rand
__global__ void mvt_kernel2(int n, const float *a, float *x2, const float *y2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++)
      x2[i] += a[j * n + i] * y2[j];
  }
}

// In-place element-wise updates (torch mul_/add_ style).

// a[i] *= s
// GMEM-EXPECT: scale_inplace non-idempotent
// GMEM-RUN: scale_inplace grid=1024 block=256 args=buf:f32:262144:rand f32:2.0 i32:262144
__global__ void scale_inplace(float *a, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= s;
}

// x[r][c] += bias[c] on a rows x cols row-major matrix (Linear layer bias add).
// GMEM-EXPECT: add_bias_inplace non-idempotent
// GMEM-RUN: add_bias_inplace grid=24,63 block=32,8 args=buf:f32:384000:rand buf:f32:768:rand i32:500 i32:768
__global__ void add_bias_inplace(float *x, const float *bias, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) {
    x[r * cols + c] += bias[c];
  }
}

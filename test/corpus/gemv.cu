// Matrix-vector product y = A * x (A row-major, m x n): one thread per row,
// and one warp per row with a shuffle reduction (as in cuBLAS-like/TVM
// generated GEMV).

// GMEM-EXPECT: gemv conditional
// GMEM-RUN: gemv grid=8 block=128 args=buf:f32:1024000:rand buf:f32:1024:rand buf:f32:1000:zero i32:1000 i32:1024
__global__ void gemv(const float *A, const float *x, float *y, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    float sum = 0.0f;
    for (int j = 0; j < n; ++j)
      sum += A[row * n + j] * x[j];
    y[row] = sum;
  }
}

// Launch with blockDim.x a multiple of 32; blockDim.x/32 rows per block.
// GMEM-EXPECT: gemv_warp conditional
// GMEM-RUN: gemv_warp grid=125 block=256 args=buf:f32:1024000:rand buf:f32:1024:rand buf:f32:1000:zero i32:1000 i32:1024
__global__ void gemv_warp(const float *A, const float *x, float *y, int m, int n) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  int lane = threadIdx.x & 31;
  if (warp >= m) return;
  const float *row = A + (size_t)warp * n;
  float sum = 0.0f;
  for (int j = lane; j < n; j += 32)
    sum += row[j] * x[j];
  for (int offset = 16; offset > 0; offset >>= 1)
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) y[warp] = sum;
}

// Warp per row, grid-stride over the rows (a fixed grid of persistent
// warps, as in fused-kernel libraries). Launch with blockDim.x a multiple
// of 32.
// GMEM-EXPECT: gemv_warp_gs conditional
// GMEM-RUN: gemv_warp_gs grid=8 block=128 args=buf:f32:1024000:rand buf:f32:1024:rand buf:f32:1000:zero i32:1000 i32:1024
__global__ void gemv_warp_gs(const float *A, const float *x, float *y, int m, int n) {
  int lane = threadIdx.x & 31;
  int warps = (gridDim.x * blockDim.x) >> 5;
  for (int r = (blockIdx.x * blockDim.x + threadIdx.x) >> 5; r < m; r += warps) {
    const float *row = A + (size_t)r * n;
    float sum = 0.0f;
    for (int j = lane; j < n; j += 32)
      sum += row[j] * x[j];
    for (int offset = 16; offset > 0; offset >>= 1)
      sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) y[r] = sum;
  }
}

// Matrix transpose, naive and shared-memory tiled (CUDA samples "transpose",
// coalesced variant with a padded 32x33 tile and 32x8 thread blocks).

// out (cols x rows) = transpose(in (rows x cols))
// GMEM-EXPECT: transpose_naive conditional
// GMEM-RUN: transpose_naive grid=63,38 block=16,16 args=buf:f32:600000:rand buf:f32:600000:zero i32:600 i32:1000
__global__ void transpose_naive(const float *in, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) {
    out[c * rows + r] = in[r * cols + c];
  }
}

#define TDIM 32
#define TROWS 8

// src is height x width; dst is width x height. Launch with block=32,8.
// GMEM-EXPECT: transpose_tiled conditional
// GMEM-RUN: transpose_tiled grid=32,19 block=32,8 args=buf:f32:600000:zero buf:f32:600000:rand i32:1000 i32:600
__global__ void transpose_tiled(float *dst, const float *src, int width, int height) {
  __shared__ float tile[TDIM][TDIM + 1];

  int x = blockIdx.x * TDIM + threadIdx.x;
  int y = blockIdx.y * TDIM + threadIdx.y;
  for (int j = 0; j < TDIM; j += TROWS) {
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = src[(y + j) * width + x];
  }
  __syncthreads();

  x = blockIdx.y * TDIM + threadIdx.x;
  y = blockIdx.x * TDIM + threadIdx.y;
  for (int j = 0; j < TDIM; j += TROWS) {
    if (x < height && y + j < width)
      dst[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
  }
}

// 3x3 2D convolution in the shape of PolyBench/GPU 2DCONV (out of place,
// interior points only).

// GMEM-EXPECT: conv2d conditional
// GMEM-RUN: conv2d grid=32,128 block=32,8 args=i32:1024 i32:1000 buf:f32:1024000:rand buf:f32:1024000:zero
__global__ void conv2d(int ni, int nj, const float *A, float *B) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;

  // 3x3 weights, row-major (north-west .. south-east)
  const float w00 = 0.25f, w01 = -0.40f, w02 = 0.15f;
  const float w10 = 0.55f, w11 = 0.70f, w12 = -0.35f;
  const float w20 = -0.10f, w21 = 0.30f, w22 = 0.45f;

  if (row > 0 && row < ni - 1 && col > 0 && col < nj - 1) {
    const float *up = A + (row - 1) * nj;
    const float *mid = A + row * nj;
    const float *down = A + (row + 1) * nj;
    B[row * nj + col] = w00 * up[col - 1] + w01 * up[col] + w02 * up[col + 1] +
                        w10 * mid[col - 1] + w11 * mid[col] + w12 * mid[col + 1] +
                        w20 * down[col - 1] + w21 * down[col] + w22 * down[col + 1];
  }
}

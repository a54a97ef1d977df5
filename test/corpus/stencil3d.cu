// 3D stencils: a PolyBench/GPU 3DCONV-like convolution (one thread per
// output point on a 3D grid, face and corner neighbours), and a Parboil
// "stencil"-like 7-point Jacobi sweep where each thread walks the z dimension.

// GMEM-EXPECT: conv3d conditional
// GMEM-RUN: conv3d grid=4,16,100 block=32,8,1 args=buf:f32:1280000:rand buf:f32:1280000:zero i32:100 i32:128 i32:100
__global__ void conv3d(const float *A, float *B, int ni, int nj, int nk) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int i = blockIdx.z * blockDim.z + threadIdx.z;

  if (i > 0 && i < ni - 1 && j > 0 && j < nj - 1 && k > 0 && k < nk - 1) {
    int plane = nj * nk;
    int c = (i * nj + j) * nk + k;
    // centre, the 6 face neighbours and 4 of the corners, with fixed weights
    float v = 3.0f * A[c]
            - 0.5f * (A[c - 1] + A[c + 1])
            + 0.25f * (A[c - nk] + A[c + nk])
            - 0.125f * (A[c - plane] + A[c + plane])
            + 0.0625f * (A[c - plane - nk - 1] + A[c + plane + nk + 1])
            - 0.0625f * (A[c - plane + nk + 1] + A[c + plane - nk - 1]);
    B[c] = v;
  }
}

// Anext = c1 * (sum of 6 neighbours) - c0 * A0, interior points only.
// GMEM-EXPECT: stencil3d_7pt conditional
// GMEM-RUN: stencil3d_7pt grid=4,16 block=32,8 args=f32:0.5 f32:0.1 buf:f32:1048576:rand buf:f32:1048576:zero i32:128 i32:128 i32:64
__global__ void stencil3d_7pt(float c0, float c1, const float *A0, float *Anext, int nx, int ny, int nz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < 1 || i >= nx - 1 || j < 1 || j >= ny - 1) return;
  for (int k = 1; k < nz - 1; k++) {
    int idx = i + nx * (j + ny * k);
    Anext[idx] = c1 * (A0[idx - 1] + A0[idx + 1] +
                       A0[idx - nx] + A0[idx + nx] +
                       A0[idx - nx * ny] + A0[idx + nx * ny]) -
                 c0 * A0[idx];
  }
}

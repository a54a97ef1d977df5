// Kernels shaped after the SHOC benchmark suite (own code): Stencil2D's
// 9-point stencil over a strip of rows staged in shared memory, with the
// row pitch rounded up to an alignment, and MD's Lennard-Jones forces over
// a column-major neighbour list.

// Each block stages rows gRow - 1 .. gRow + strip of its 64-wide column
// block (halo columns by thread 0) and writes rows gRow .. gRow + strip - 1.
// blockDim.x <= 64, strip <= 16; the grid covers gridDim.x * strip rows and
// gridDim.y * blockDim.x columns inside a one-cell border.
// GMEM-EXPECT: stencil2d_strip conditional
// GMEM-RUN: stencil2d_strip grid=8,4 block=64 args=buf:f32:35360:rand buf:f32:35360:zero i32:16 i32:16 f32:0.25 f32:0.15 f32:0.05
// GMEM-RUN: stencil2d_strip grid=3,2 block=32 args=buf:f32:1122:rand buf:f32:1122:zero i32:1 i32:5 f32:0.25 f32:0.15 f32:0.05
__global__ void stencil2d_strip(const float *data, float *newData, int alignment, int strip,
                                float wCenter, float wCardinal, float wDiagonal) {
  __shared__ float sh[18][66];
  int gRow = blockIdx.x * strip + 1;
  int gCol = blockIdx.y * blockDim.x + threadIdx.x + 1;
  int nCols = gridDim.y * blockDim.x + 2;
  int pitch = nCols + alignment - 1 - ((nCols + alignment - 1) % alignment);
  int lc = threadIdx.x + 1;
  for (int i = -1; i <= strip; i++)
    sh[i + 1][lc] = data[(gRow + i) * pitch + gCol];
  if (threadIdx.x == 0)
    for (int i = -1; i <= strip; i++) {
      sh[i + 1][0] = data[(gRow + i) * pitch + gCol - 1];
      sh[i + 1][blockDim.x + 1] = data[(gRow + i) * pitch + gCol + blockDim.x];
    }
  __syncthreads();
  for (int i = 0; i < strip; i++) {
    float c = sh[i + 1][lc];
    float card = sh[i][lc] + sh[i + 2][lc] + sh[i + 1][lc - 1] + sh[i + 1][lc + 1];
    float diag = sh[i][lc - 1] + sh[i][lc + 1] + sh[i + 2][lc - 1] + sh[i + 2][lc + 1];
    newData[(gRow + i) * pitch + gCol] = wCenter * c + wCardinal * card + wDiagonal * diag;
  }
}

// Force on each atom from its neighbours within the cutoff: neighbour j of
// atom i is neighList[j * inum + i]; positions are float4 (x, y, z, type).
// GMEM-EXPECT: md_lj_forces conditional
// GMEM-RUN: md_lj_forces grid=8 block=128 args=buf:f32:4000:zero buf:f32:4000:rand i32:16 buf:i32:16000:randint:0:1000 f32:0.5 f32:1.5 f32:2.0 i32:1000
__global__ void md_lj_forces(float4 *force, const float4 *position, int neighCount,
                             const int *neighList, float cutsq, float lj1, float lj2, int inum) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= inum) return;
  float4 ipos = position[idx];
  float4 f = {0.f, 0.f, 0.f, 0.f};
  for (int j = 0; j < neighCount; j++) {
    float4 jpos = position[neighList[j * inum + idx]];
    float dx = ipos.x - jpos.x, dy = ipos.y - jpos.y, dz = ipos.z - jpos.z;
    float r2 = dx * dx + dy * dy + dz * dz;
    if (r2 < cutsq && r2 > 1e-4f) {
      float r2inv = 1.0f / r2, r6inv = r2inv * r2inv * r2inv;
      float fo = r2inv * r6inv * (lj1 * r6inv - lj2);
      f.x += dx * fo;
      f.y += dy * fo;
      f.z += dz * fo;
    }
  }
  force[idx] = f;
}

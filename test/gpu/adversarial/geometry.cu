// Adversarial round 48: launch geometry used in unusual combinations:
// flattened 2-D/3-D block ids, threads flattened across y and z, reversed
// block order, warp and lane decompositions, strides from gridDim, and
// in-place updates whose overlap depends on the launch shape.

// Flattened 2-D block id times a flattened 2-D thread id.
// GMEM-EXPECT: flat2d idempotent
// GMEM-RUN: flat2d grid=3,2 block=8,4 args=buf:f32:256:zero
__global__ void flat2d(float *p) {
  unsigned bid = blockIdx.y * gridDim.x + blockIdx.x;
  unsigned tid = threadIdx.x + blockDim.x * threadIdx.y;
  p[bid * (blockDim.x * blockDim.y) + tid] = 1.0f;
}

// 3-D flattening with z outermost.
// GMEM-EXPECT: flat3d idempotent
// GMEM-RUN: flat3d grid=2,2,2 block=4,2,2 args=buf:f32:256:zero
__global__ void flat3d(float *p) {
  unsigned bid = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  unsigned nt = blockDim.x * blockDim.y * blockDim.z;
  unsigned tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  p[bid * nt + tid] = 2.0f;
}

// Block order reversed: block b writes the tile of gridDim.x - 1 - b.
// GMEM-EXPECT: reversed_blocks idempotent
// GMEM-RUN: reversed_blocks grid=4 block=32 args=buf:f32:128:zero
__global__ void reversed_blocks(float *p) {
  unsigned b = gridDim.x - 1 - blockIdx.x;
  p[b * blockDim.x + (blockDim.x - 1 - threadIdx.x)] = 3.0f;
}

// Transposed flattening: x is the slow index (columns of width gridDim.y *
// blockDim.y).
// GMEM-EXPECT: transposed_flat idempotent
// GMEM-RUN: transposed_flat grid=2,3 block=4,8 args=buf:f32:256:zero
__global__ void transposed_flat(float *p) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  p[x * (gridDim.y * blockDim.y) + y] = 4.0f;
}

// Warp and lane: each warp writes a 33-element row (padding).
// GMEM-EXPECT: warp_rows idempotent
// GMEM-RUN: warp_rows grid=2 block=128 args=buf:f32:512:zero
__global__ void warp_rows(float *p) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned warp = g / 32, lane = g % 32;
  p[warp * 33 + lane + 1] = 5.0f;
}

// In place across the 2-D shape: reads p[y][x + 1] of a row of width
// blockDim.x * gridDim.x + 1, writes p[y][x].
// GMEM-EXPECT: row_shift_2d non-idempotent
// GMEM-RUN: row_shift_2d grid=2,2 block=16,4 args=buf:f32:512:rand
__global__ void row_shift_2d(float *p) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned w = blockDim.x * gridDim.x + 1;
  float v = p[y * w + x + 1];
  __syncthreads();
  p[y * w + x] = v + 1.0f;
}

// Reads p[n + t], writes p[t]: disjoint only while the block has at most n
// threads (96 threads reach into the reads).
// GMEM-EXPECT: half_split conditional
// GMEM-RUN: half_split grid=1 block=64 args=buf:f32:256:rand i32:64
// GMEM-RUN: half_split grid=1 block=96 args=buf:f32:256:rand i32:64
__global__ void half_split(float *p, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  float v = p[n + g];
  __syncthreads();
  p[g] = v * 0.5f;
}

// gridDim.x * blockDim.x as the row length, y from blockIdx.y only.
// GMEM-EXPECT: grid_row_len idempotent
// GMEM-RUN: grid_row_len grid=4,3 block=16 args=buf:f32:256:zero
__global__ void grid_row_len(float *p) {
  unsigned len = gridDim.x * blockDim.x;
  p[blockIdx.y * len + blockIdx.x * blockDim.x + threadIdx.x] = 8.0f;
}

// blockDim.y used as the x stride by mistake (a real bug pattern): the
// region follows the formula, not the intent.
// GMEM-EXPECT: swapped_dims idempotent
// GMEM-RUN: swapped_dims grid=2,2 block=8,16 args=buf:f32:1024:zero
__global__ void swapped_dims(float *p) {
  unsigned x = blockIdx.x * blockDim.y + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  p[y * (gridDim.x * blockDim.x) + x] = 9.0f;
}

// Threads of z-slices write rows of a 3-D array; z from threadIdx.z only.
// GMEM-EXPECT: z_slices idempotent
// GMEM-RUN: z_slices grid=2 block=8,2,4 args=buf:f32:256:zero
__global__ void z_slices(float *p) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  p[(threadIdx.z * blockDim.y + threadIdx.y) * (gridDim.x * blockDim.x) + x] = 10.0f;
}

// Grid-stride over a 2-D grid with an x-only stride (overlapping blocks in
// y write the same elements with the same values).
// GMEM-EXPECT: stride_x_only idempotent
// GMEM-RUN: stride_x_only grid=2,3 block=32 args=buf:f32:512:zero i32:300
__global__ void stride_x_only(float *p, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    p[i] = 11.0f;
}

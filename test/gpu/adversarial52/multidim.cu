// Adversarial round 6: 2-D/3-D grids and blocks, blockDim not a multiple of
// 32, regions that depend on gridDim.y/z, pitched 2-D accesses with the
// pitch a scalar, tiny and wide grids.

// Attacks: 3-D block (5,3,2) and 3-D grid: flat index over everything.
// GMEM-EXPECT: md_flat3d idempotent
// GMEM-RUN: md_flat3d grid=2,3,2 block=5,3,2 args=buf:i32:360:zero
// GMEM-RUN: md_flat3d grid=1,1,4 block=7,1,3 args=buf:i32:360:zero
__global__ void md_flat3d(int *p) {
  unsigned b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  p[b * (blockDim.x * blockDim.y * blockDim.z) + t] = (int)(b * 1000 + t);
}

// Attacks: region offset by gridDim.z (output placed after a gridDim.z-sized header).
// GMEM-EXPECT: md_gridz_header conditional
// GMEM-RUN: md_gridz_header grid=1,1,3 block=16 args=buf:i32:128:rand ptr:0+0
// GMEM-RUN: md_gridz_header grid=1,1,3 block=16 args=buf:i32:128:rand ptr:0+256
__global__ void md_gridz_header(int *out, const int *in) {
  int i = threadIdx.x + 16 * blockIdx.z;
  out[gridDim.z * 16 + i] = in[i] + 1;
}

// Attacks: column-major over a 2-D grid with blockDim.y != 1 and gridDim.y rows.
// GMEM-EXPECT: md_colmajor idempotent
// GMEM-RUN: md_colmajor grid=3,4 block=4,3 args=buf:f32:144:zero
__global__ void md_colmajor(float *p) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned H = gridDim.y * blockDim.y;
  p[x * H + y] = (float)(x + y);
}

// Attacks: pitched copy, pitch a scalar in elements; pitch < w makes rows overlap in the input only.
// GMEM-EXPECT: md_pitch_copy conditional
// GMEM-RUN: md_pitch_copy grid=2,4 block=16,2 args=buf:f32:512:zero buf:f32:512:rand i32:32 i32:20 i32:8 i32:24
// GMEM-RUN: md_pitch_copy grid=2,4 block=16,2 args=buf:f32:512:rand ptr:0+0 i32:32 i32:20 i32:8 i32:24
// GMEM-RUN: md_pitch_copy grid=2,4 block=16,2 args=buf:f32:600:rand ptr:0+1024 i32:32 i32:20 i32:8 i32:32
__global__ void md_pitch_copy(float *out, const float *in, int opitch, int w, int h, int ipitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * opitch + x] = in[y * ipitch + x] * 2.0f;
}

// Attacks: pitched in-place scale through a byte pitch (char* arithmetic), rows apart iff pitch >= 4w.
// GMEM-EXPECT: md_pitch_bytes non-idempotent
// GMEM-RUN: md_pitch_bytes grid=1,4 block=8,2 args=buf:u8:1024:rand i64:64 i32:8 i32:8
__global__ void md_pitch_bytes(char *base, long long pitch, int w, int h) {
  int x = threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    float *row = (float *)(base + y * pitch);
    row[x] = row[x] * 0.5f;
  }
}

// Attacks: pitched write out, read of a second pitched array at a scalar negative pitch (rows walk down).
// GMEM-EXPECT: md_neg_pitch conditional
// GMEM-RUN: md_neg_pitch grid=1,4 block=8 args=buf:f32:128:zero buf:f32:128:rand ptr:1+448 i32:-16
// GMEM-RUN: md_neg_pitch grid=1,4 block=8 args=buf:f32:128:rand buf:f32:8:zero ptr:0+448 i32:-16
__global__ void md_neg_pitch(float *out, float *unused, const float *in, int pitch) {
  int x = threadIdx.x, y = blockIdx.y;
  out[y * 8 + x] = in[y * pitch + x] + 1.0f;
}

// Attacks: blockDim.x == 48 (a partial second warp); index built from warp and lane ids.
// GMEM-EXPECT: md_warp_lane idempotent
// GMEM-RUN: md_warp_lane grid=2 block=48 args=buf:i32:128:zero
__global__ void md_warp_lane(int *p) {
  unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  p[blockIdx.x * 64 + warp * 32 + lane] = (int)lane;
}

// Attacks: blockDim (1,1,1) and a wide grid (300 CTAs), write at blockIdx.x * 3.
// GMEM-EXPECT: md_one_thread idempotent
// GMEM-RUN: md_one_thread grid=300 block=1 args=buf:i32:900:zero
__global__ void md_one_thread(int *p) {
  p[blockIdx.x * 3 + 2] = blockIdx.x;
}

// Attacks: grid (1,300): blockIdx.y picks the element, blockDim.x is 1.
// GMEM-EXPECT: md_tall_grid idempotent
// GMEM-RUN: md_tall_grid grid=1,300 block=1 args=buf:i32:300:zero
__global__ void md_tall_grid(int *p) {
  p[blockIdx.y] = blockIdx.y + 1;
}

// Attacks: row index from threadIdx.y, columns from blockIdx.z (grid z as columns).
// GMEM-EXPECT: md_z_columns idempotent
// GMEM-RUN: md_z_columns grid=1,1,5 block=1,7 args=buf:i32:64:zero
__global__ void md_z_columns(int *p) {
  p[threadIdx.y * gridDim.z + blockIdx.z] = threadIdx.y;
}

// Attacks: in-place read/write with partner from the transposed 2-D position (x,y) <-> (y,x).
// GMEM-EXPECT: md_transpose_inplace non-idempotent
// GMEM-RUN: md_transpose_inplace grid=1 block=8,8 args=buf:i32:64:rand
__global__ void md_transpose_inplace(int *p) {
  int x = threadIdx.x, y = threadIdx.y;
  int v = p[y * 8 + x];
  __syncthreads();
  p[x * 8 + y] = v;
}

// Attacks: flat tid from 2-D block with a bound; blockDim.x = 3.
// GMEM-EXPECT: md_flat_bound idempotent
// GMEM-RUN: md_flat_bound grid=2 block=3,11 args=buf:i32:64:zero i32:30
// GMEM-RUN: md_flat_bound grid=2 block=3,11 args=buf:i32:80:zero i32:100
__global__ void md_flat_bound(int *p, int n) {
  int tid = threadIdx.y * blockDim.x + threadIdx.x + blockIdx.x * blockDim.x * blockDim.y;
  if (tid < n) p[tid] = tid;
}

// Attacks: grid-stride loop over a 3-D grid's flat thread count.
// GMEM-EXPECT: md_gs3d idempotent
// GMEM-RUN: md_gs3d grid=2,2,2 block=5,2 args=buf:f32:300:zero i32:300
__global__ void md_gs3d(float *p, int n) {
  int nt = gridDim.x * gridDim.y * gridDim.z * blockDim.x * blockDim.y;
  int b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  int t = b * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
  for (int i = t; i < n; i += nt) p[i] = (float)i;
}

// Attacks: y-stride loop (rows strided by gridDim.y * blockDim.y) with a column bound.
// GMEM-EXPECT: md_ystride idempotent
// GMEM-RUN: md_ystride grid=1,2 block=8,3 args=buf:i32:320:zero i32:8 i32:40
__global__ void md_ystride(int *p, int w, int h) {
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h; y += gridDim.y * blockDim.y)
    if (threadIdx.x < w) p[y * w + threadIdx.x] = y;
}

// Attacks: write at gridDim.x*blockDim.x - 1 - i (reversed), read at i (same buffer): reads and writes apart.
// GMEM-EXPECT: md_reverse_grid idempotent
// GMEM-RUN: md_reverse_grid grid=3 block=10 args=buf:i32:30:rand
__global__ void md_reverse_grid(int *p) {
  int n = gridDim.x * blockDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = p[i];
  __syncthreads();
  if (i < n / 2) p[n - 1 - i] = v;
}

// Attacks: rows [blockIdx.y * rpb, ...) from a scalar rows-per-block, with blockDim.y = 1 and gridDim.y = 5.
// GMEM-EXPECT: md_rows_per_block idempotent
// GMEM-RUN: md_rows_per_block grid=1,5 block=4 args=buf:i32:100:zero i32:5 i32:4
// GMEM-RUN: md_rows_per_block grid=1,5 block=4 args=buf:i32:100:zero i32:0 i32:4
__global__ void md_rows_per_block(int *p, int rpb, int w) {
  for (int r = 0; r < rpb; r++) p[(blockIdx.y * rpb + r) * w + threadIdx.x] = r;
}

// Attacks: 3-D block with blockDim.z used as a stride for threadIdx.x (x fastest in memory is z here).
// GMEM-EXPECT: md_z_fast idempotent
// GMEM-RUN: md_z_fast grid=1 block=3,2,5 args=buf:i32:30:zero
__global__ void md_z_fast(int *p) {
  p[(threadIdx.x * blockDim.y + threadIdx.y) * blockDim.z + threadIdx.z] = threadIdx.z;
}

// Attacks: in-place 2-D stencil over rows with rows read from the previous gridDim.y row.
// GMEM-EXPECT: md_row_dep non-idempotent
// GMEM-RUN: md_row_dep grid=1,4 block=8 args=buf:i32:40:rand
__global__ void md_row_dep(int *p) {
  int y = blockIdx.y + 1, x = threadIdx.x;
  p[y * 8 + x] = p[(y - 1) * 8 + x] + 1;
}

// `x < C && y < C` for unsigned x, y and a power of two C reaches the
// analysis as InstCombine's `(x | y) <u C`: x|y is at least x and at least
// y, so each operand of the `or` is below C (a blind run over HIP code,
// session 46, found a 64x64 tile's region growing with the grid). Signed
// tests are not folded that way and keep their own bounds.
// Checked by regions/or_guard.test. The GMEM-EXPECT/GMEM-RUN lines make
// this file a corpus file too: its launches, whose grids overshoot the
// guards, ran under test/gpu's ground truth on the H200
// (test/gpu/results/session46-or-guard).

// GMEM-EXPECT: tile64 conditional
// GMEM-RUN: tile64 grid=4,4 block=32,32 args=buf:f32:4096:zero buf:f32:4096:rand
// GMEM-RUN: tile64 grid=1,1 block=32,32 args=buf:f32:4096:zero buf:f32:4096:rand
__global__ void tile64(float *out, const float *in) {
  unsigned x = blockDim.x * blockIdx.x + threadIdx.x, y = blockDim.y * blockIdx.y + threadIdx.y;
  if (x < 64 && y < 64)
    out[y * 64 + x] = in[x * 64 + y];
}

// Three conditions: nested `or`s.
// GMEM-EXPECT: three idempotent
// GMEM-RUN: three grid=4 block=64 args=buf:f32:128:zero u32:5 u32:7
// GMEM-RUN: three grid=4 block=64 args=buf:f32:128:zero u32:5 u32:200
__global__ void three(float *out, unsigned a, unsigned b) {
  unsigned x = blockDim.x * blockIdx.x + threadIdx.x;
  if (x < 128 && a < 128 && b < 128)
    out[x] = 1.0f;
}

// The negated form: the access is on the edge where `(x | y) >= 64` fails.
// GMEM-EXPECT: early_exit idempotent
// GMEM-RUN: early_exit grid=3,5 block=32,16 args=buf:f32:4096:rand
__global__ void early_exit(float *out) {
  unsigned x = blockDim.x * blockIdx.x + threadIdx.x, y = blockDim.y * blockIdx.y + threadIdx.y;
  if (x >= 64 || y >= 64)
    return;
  out[y * 64 + x] = 0.0f;
}

// Signed: a may be negative, so the region starts at 4*a.
// GMEM-EXPECT: signed_pair idempotent
// GMEM-RUN: signed_pair grid=2 block=64 args=buf:f32:160:rand i32:10
__global__ void signed_pair(float *out, int a) {
  int x = blockDim.x * blockIdx.x + threadIdx.x;
  if (x < 64 && a < 64)
    out[x + a] = 1.0f;
}

// Three-dimensional: (x | y | z) <u 32.
// GMEM-EXPECT: cube32 conditional
// GMEM-RUN: cube32 grid=2,2,2 block=32,4,4 args=buf:f32:32768:zero buf:f32:32768:rand
__global__ void cube32(float *out, const float *in) {
  unsigned x = blockDim.x * blockIdx.x + threadIdx.x, y = blockDim.y * blockIdx.y + threadIdx.y,
           z = blockDim.z * blockIdx.z + threadIdx.z;
  if (x < 32 && y < 32 && z < 32)
    out[(z * 32 + y) * 32 + x] = in[(x * 32 + y) * 32 + z] + 1.0f;
}

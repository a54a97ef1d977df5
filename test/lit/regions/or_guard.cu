// `x < C && y < C` for unsigned x, y and a power of two C reaches the
// analysis as InstCombine's `(x | y) <u C`: x|y is at least x and at least
// y, so each operand of the `or` is below C (a blind run over HIP code,
// session 46, found a 64x64 tile's region growing with the grid). Signed
// tests are not folded that way and keep their own bounds.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK-LABEL: kernel tile64(float*, float const*)
// CHECK:         write: [0, 256*min(blockDim.y*gridDim.y - 1, 63) + 4*min(blockDim.x*gridDim.x - 1, 63) + 4)
// CHECK:         read:  [0, 256*min(blockDim.x*gridDim.x - 1, 63) + 4*min(blockDim.y*gridDim.y - 1, 63) + 4)
__global__ void tile64(float *out, const float *in) {
  unsigned x = blockDim.x * blockIdx.x + threadIdx.x, y = blockDim.y * blockIdx.y + threadIdx.y;
  if (x < 64 && y < 64)
    out[y * 64 + x] = in[x * 64 + y];
}

// Three conditions: nested `or`s.
// CHECK-LABEL: kernel three(float*, unsigned int, unsigned int)
// CHECK:         write: [0, 4*min(blockDim.x*gridDim.x - 1, 127) + 4)
__global__ void three(float *out, unsigned a, unsigned b) {
  unsigned x = blockDim.x * blockIdx.x + threadIdx.x;
  if (x < 128 && a < 128 && b < 128)
    out[x] = 1.0f;
}

// The negated form: the access is on the edge where `(x | y) >= 64` fails.
// CHECK-LABEL: kernel early_exit(float*)
// CHECK:         write: [0, 256*min(blockDim.y*gridDim.y - 1, 63) + 4*min(blockDim.x*gridDim.x - 1, 63) + 4)
__global__ void early_exit(float *out) {
  unsigned x = blockDim.x * blockIdx.x + threadIdx.x, y = blockDim.y * blockIdx.y + threadIdx.y;
  if (x >= 64 || y >= 64)
    return;
  out[y * 64 + x] = 0.0f;
}

// Signed: a may be negative, so the region starts at 4*a.
// CHECK-LABEL: kernel signed_pair(float*, int)
// CHECK:         write: [4*a, 4*min(blockDim.x*gridDim.x - 1, 63) + 4*min(63, a) + 4)
__global__ void signed_pair(float *out, int a) {
  int x = blockDim.x * blockIdx.x + threadIdx.x;
  if (x < 64 && a < 64)
    out[x + a] = 1.0f;
}

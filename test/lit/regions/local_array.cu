// Thread-private (stack) arrays are not global memory: their reads and
// writes, even with data-dependent indices, do not show up and do not make
// the kernel non-idempotent.
// RUN: %gmem-analyze %s | FileCheck %s --implicit-check-not=unknown --implicit-check-not=whole

// CHECK:      kernel private_buf(int, float const*, float*)
// CHECK:      class:  conditional -- reads 'in' and writes 'out'
// CHECK:      #1 in : ptr  R
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT: #2 out : ptr  W
// CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
__global__ void private_buf(int n, const float *in, float *out) {
  float buf[8];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  for (int k = 0; k < 8; ++k)
    buf[k] = in[i] * k;
  float s = 0.0f;
  for (int k = 0; k < 8; ++k)
    s += buf[(k * i) & 7];
  buf[i & 7] += s; // read-modify-write of the private array
  out[i] = buf[(i + 1) & 7];
}

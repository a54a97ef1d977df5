// In-place update y[i] += x[i]: y is read and written at the same offset,
// so running the kernel twice adds x twice. Non-idempotent.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel accumulate(int, float const*, float*)
// CHECK:      class:  non-idempotent -- 'y' is read and written at the same offset (read-modify-write)
// CHECK:      #1 x : ptr  R
// CHECK:      #2 y : ptr  RW
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NOT:      proven disjoint
__global__ void accumulate(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += x[i];
}

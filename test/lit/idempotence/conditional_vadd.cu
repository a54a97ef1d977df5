// c[i] = a[i] + b[i]: reads a and b, writes c. Idempotent exactly when c
// does not overlap a or b at a launch: class conditional.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel vadd(int, float const*, float const*, float*)
// CHECK:      class:  conditional -- reads 'a' and writes 'c': idempotent when they do not overlap at a launch
// CHECK:      #1 a : ptr  R
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT: #2 b : ptr  R
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT: #3 c : ptr  W
// CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
__global__ void vadd(int n, const float *a, const float *b, float *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

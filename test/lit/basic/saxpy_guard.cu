// A dominating `if (i < n)` bounds every access by n as well as by the grid.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK: kernel saxpy(int, float, float const*, float*)
// CHECK: class:  non-idempotent
// CHECK: #2 x : ptr  R
// CHECK-NEXT: read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK: #3 y : ptr  RW
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

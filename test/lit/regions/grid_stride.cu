// A grid-stride loop `for (i = tid; i < n; i += blockDim.x * gridDim.x)` is
// summarised by its exit test alone: [0, 4*n), independent of the launch.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel scale(int, float const*, float*)
// CHECK:      class:  conditional -- reads 'x' and writes 'y'
// CHECK:      #1 x : ptr  R
// CHECK-NEXT:     read:  [0, 4*n)
// CHECK-NEXT: #2 y : ptr  W
// CHECK-NEXT:     write: [0, 4*n)
__global__ void scale(int n, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = 3.0f * x[i];
}

// In-place stencil a[i] = a[i - 1] + a[i + 1]: each write lands on what a
// neighbour reads. Non-idempotent. The guard 0 < i < n - 1 gives read
// [0, 4n) and write [4, 4n - 4) (for a large enough grid).
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel stencil(int, float*)
// CHECK:      class:  non-idempotent -- 'a' is read and written at a constant distance (read-modify-write)
// CHECK:      #1 a : ptr  RW
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 2) + 8)
// CHECK-NEXT:     write: [4, 4*min(blockDim.x*gridDim.x - 1, n - 2) + 4)
// CHECK-NOT:      proven disjoint
__global__ void stencil(int n, float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    a[i] = a[i - 1] + a[i + 1];
}

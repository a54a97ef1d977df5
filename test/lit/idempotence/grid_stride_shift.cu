// A grid-stride copy within one buffer, a[k + n] = a[k] for k < n: the latch
// test bounds k through the sibling recurrence k + n, so both regions are
// exact ([0, 4n) and [4n, 8n)) and proven apart.
// RUN: %gmem-analyze %s | FileCheck %s
// CHECK:      class:  idempotent
// CHECK:      read:  [0, 4*n)
// CHECK-NEXT: write: [4*max(1, n), 8*n)
// CHECK-NEXT: reads and writes proven disjoint
__global__ void gs_shift(float *a, int n) {
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += blockDim.x * gridDim.x)
    a[k + n] = a[k];
}

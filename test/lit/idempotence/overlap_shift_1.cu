// Counter-example to disjointness: buf[i + 1] = buf[i]. Thread i writes
// what thread i + 1 reads, so the read and write sets overlap: never
// idempotent, and no "proven disjoint" mark.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel shift_1(int, float*)
// CHECK:      class:  non-idempotent -- 'buf' is read and written at a constant distance (read-modify-write)
// CHECK:      #1 buf : ptr  RW
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT:     write: [4, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 8)
// CHECK-NOT:      proven disjoint
__global__ void shift_1(int n, float *buf) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    buf[i + 1] = buf[i];
}

// Same buffer, interleaved: read a[2i], write a[2i + 1]. The regions
// overlap as intervals, but no even element is ever odd: the prover (integer
// reasoning, not interval hulls) shows them apart. Idempotent.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel even_odd(int, float*)
// CHECK:      class:  idempotent -- every location it reads is proven apart from every location it writes
// CHECK:      #1 a : ptr  RW
// CHECK-NEXT:     read:  [0, 8*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT:     write: [4, 8*min(blockDim.x*gridDim.x - 1, n - 1) + 8)
// CHECK-NEXT:     reads and writes proven disjoint
__global__ void even_odd(int n, float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[2 * i + 1] = 2.0f * a[2 * i];
}

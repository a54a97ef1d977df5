// Same buffer, provably disjoint halves: buf[i + n] = buf[i] with i < n
// reads [0, 4n) and writes [4n, 8n). The prover shows no read meets a
// write: idempotent, and the parameter is marked read/write-disjoint
// ("rw_disjoint_proven": true in JSON: instance/same_buffer_disjoint.test).
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel shift_n(int, float*)
// CHECK:      class:  idempotent -- every location it reads is proven apart from every location it writes
// CHECK:      #1 buf : ptr  RW
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT:     write: [4*max(1, n), 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4*n + 4)
// CHECK-NEXT:     reads and writes proven disjoint
__global__ void shift_n(int n, float *buf) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    buf[i + n] = buf[i];
}

// __constant__ memory is read-only for kernels: reading it can never
// conflict with a write, so it is not reported. A kernel that only reads
// constant memory and writes `out` reads no global memory: idempotent.
// RUN: %gmem-analyze %s | FileCheck %s --implicit-check-not=coef --implicit-check-not='global @'

// CHECK:      kernel use_const(int, float*)
// CHECK-NEXT:   symbol: _Z9use_constiPf
// CHECK-NEXT:   class:  idempotent -- reads no global memory
// CHECK-NEXT:   #0 n : i32
// CHECK-NEXT:   #1 out : ptr  W
// CHECK-NEXT:       write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
__constant__ float coef[64];
__global__ void use_const(int n, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = coef[i & 63] * 2.0f;
}

// __shared__ arrays (address space 3) are not global memory: they never
// appear in the report, and accesses to them do not change the class.
// RUN: %gmem-analyze %s | FileCheck %s --implicit-check-not=tile --implicit-check-not='global @'

// CHECK:      kernel reverse_tile(int, float const*, float*)
// CHECK-NEXT:   symbol: _Z12reverse_tileiPKfPf
// CHECK-NEXT:   class:  conditional -- reads 'in' and writes 'out': idempotent when they do not overlap at a launch
// CHECK-NEXT:   #0 n : i32
// CHECK-NEXT:   #1 in : ptr  R
// CHECK-NEXT:       read:  [0, 4*min(16*gridDim.x + blockDim.x - 17, n - 1) + 4)
// CHECK-NEXT:   #2 out : ptr  W
// CHECK-NEXT:       write: [0, 4*min(16*gridDim.x + blockDim.x - 17, n - 1) + 4)
// CHECK-NEXT:   preempt: between CTAs (no loop checkpoints); persistent forms: full light alt
// CHECK-EMPTY:
#define T 16
__global__ void reverse_tile(int n, const float *in, float *out) {
  __shared__ float tile[T];
  int i = blockIdx.x * T + threadIdx.x;
  if (i < n)
    tile[threadIdx.x] = in[i];
  __syncthreads();
  // Read-modify-write of shared memory only: still not non-idempotent.
  tile[threadIdx.x] += 1.0f;
  __syncthreads();
  if (i < n)
    out[i] = tile[T - 1 - threadIdx.x];
}

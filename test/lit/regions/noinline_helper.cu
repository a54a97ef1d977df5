// A __noinline__ __device__ helper stays a call in the device IR; the
// analysis follows it, so the caller's a and b get the helper's accesses
// with the caller's index and guard.
// RUN: %gmem-analyze %s | FileCheck %s --implicit-check-not=unknown --implicit-check-not=whole

// CHECK:      kernel call_helper(int, float const*, float*)
// CHECK:      class:  conditional -- reads 'a' and writes 'b'
// CHECK:      #1 a : ptr  R
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 8)
// CHECK-NEXT: #2 b : ptr  W
// CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// The helper itself is no kernel: no entry for it.
// CHECK-NOT:  kernel
__device__ __noinline__ void pair_sum(const float *src, float *dst, int i) {
  dst[i] = src[i] + src[i + 1];
}
__global__ void call_helper(int n, const float *a, float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    pair_sum(a, b, i);
}

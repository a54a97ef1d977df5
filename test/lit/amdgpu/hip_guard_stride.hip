// HIP source (AMDGPU, through the built-in HIP shim when no ROCm is
// installed): the report says [amdgpu]; a guarded access is bounded by n and
// by blockDim.x*gridDim.x (workgroup size and count from the implicit
// kernel arguments), and a grid-stride loop by its exit test.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel hip_guard(int, float const*, float*)  [amdgpu]
// CHECK:      class:  conditional -- reads 'x' and writes 'y'
// CHECK:      #1 x : ptr  R
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT: #2 y : ptr  W
// CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
#include <hip/hip_runtime.h>
__global__ void hip_guard(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = 2.0f * x[i];
}

// CHECK:      kernel hip_stride(int, float*)  [amdgpu]
// CHECK:      class:  non-idempotent -- 'y' is read and written at the same offset (read-modify-write)
// CHECK:      #1 y : ptr  RW
// CHECK-NEXT:     read:  [0, 4*n)
// CHECK-NEXT:     write: [0, 4*n)
__global__ void hip_stride(int n, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = y[i] * 0.5f;
}

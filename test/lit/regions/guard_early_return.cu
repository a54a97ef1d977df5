// `if (i >= n) return;` guards like `if (i < n)`; a guarded a[i - 1] reads
// one element before the pointer (negative offset), a[i + 1] one past i.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel diff(int, float const*, float*)
// CHECK:      #1 a : ptr  R
// CHECK-NEXT:     read:  [-4, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 8)
// CHECK-NEXT: #2 d : ptr  W
// CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
__global__ void diff(int n, const float *a, float *d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  d[i] = a[i + 1] - a[i - 1];
}

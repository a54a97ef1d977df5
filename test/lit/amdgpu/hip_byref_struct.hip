// HIP passes a struct kernel argument by reference into the constant
// kernel-argument segment (ptr addrspace(4) byref). The analysis treats that
// reference as an ordinary pointer parameter that is read: it shows as
// "arg0 : ptr R [0, 8)" (unnamed in the IR) and takes part in the
// conditional class. Imprecise (kernel arguments are never written by a
// launch, so this read cannot conflict), but sound. The guard i < p.n does
// not bound x and y (p.n is a load).
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel hbyval(Params, float const*, float*)  [amdgpu]
// CHECK:      class:  conditional
// CHECK:      #0 arg0 : ptr  R
// CHECK-NEXT:     read:  [0, 8)
// CHECK-NEXT: #1 x : ptr  R
// CHECK-NEXT:     read:  [0, 4*blockDim.x*gridDim.x)
// CHECK-NEXT: #2 y : ptr  W
// CHECK-NEXT:     write: [0, 4*blockDim.x*gridDim.x)
#include <hip/hip_runtime.h>
struct Params { int n; float a; };
__global__ void hbyval(Params p, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    y[i] = p.a * x[i];
}

// HIP passes a struct kernel argument by reference into the constant
// kernel-argument segment (ptr addrspace(4) byref) where CUDA passes it
// byval: the analysis reads both alike. Its fields are launch values
// (arg0.i32@0 is p.n, unnamed in the IR), so the guard i < p.n bounds x
// and y; pointer fields are objects of their own, reached through the
// addrspacecast HIP puts on a generic pointer before the arithmetic, and
// an instance launch takes the struct's bytes (struct:...).
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel hfields --grid 2 --block 64 --alloc 0x100000:0x1000 \
// RUN:   --arg struct:ptr:0x100000,ptr:0x100100,i32:100,f32:2.0 | FileCheck %s --check-prefix=ALIAS

// CHECK:      kernel hbyval(Params, float const*, float*)  [amdgpu]
// CHECK:      class:  conditional
// CHECK:      #0 arg0 : other
// CHECK-NEXT: #1 x : ptr  R
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, arg0.i32@0 - 1) + 4)
// CHECK-NEXT: #2 y : ptr  W
// CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, arg0.i32@0 - 1) + 4)

// CHECK:      kernel hfields(Fields)  [amdgpu]
// CHECK:      class:  conditional -- reads 'arg0+0' and writes 'arg0+8'
// CHECK:      field arg0+0 : ptr (in #0 at byte 0)  R
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, arg0.i32@16 - 1) + 4)
// CHECK-NEXT: field arg0+8 : ptr (in #0 at byte 8)  W
// CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, arg0.i32@16 - 1) + 4)

// ALIAS:      field arg0+0  read [0x100000, 0x100190)
// ALIAS-NEXT: field arg0+8  write [0x100100, 0x100290)
// ALIAS-NEXT: idempotent: no -- write of arg0+8 overlaps read of arg0+0
#include <hip/hip_runtime.h>
struct Params { int n; float a; };
__global__ void hbyval(Params p, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    y[i] = p.a * x[i];
}

struct Fields { const float *in; float *out; int n; float alpha; };
__global__ void hfields(Fields f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < f.n)
    f.out[i] = f.alpha * f.in[i];
}

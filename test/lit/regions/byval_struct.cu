// By-value struct parameters (struct Params {int n; float a;}) live in the
// kernel parameter space: reading them is no global access ("p : other").
// Their integer fields are launch values like scalar parameters, so the
// guard i < p.n bounds the region by the field (p.i32@0: the 4-byte integer
// at byte 0 of p), and the runtime reads it from the launch's argument bytes.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel axpy_p(Params, float const*, float*)
// CHECK:      class:  conditional -- reads 'x' and writes 'y'
// CHECK:      #0 p : other
// CHECK-NEXT: #1 x : ptr  R
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, p.i32@0 - 1) + 4)
// CHECK-NEXT: #2 y : ptr  W
// CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, p.i32@0 - 1) + 4)
struct Params { int n; float a; };
__global__ void axpy_p(Params p, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n)
    y[i] = p.a * x[i];
}

// A pointer inside the by-value struct is a field target with its own
// exact region (o+8: the pointer at byte 8 of o).
// CHECK:      kernel via_struct(Out, float const*)
// CHECK:      class:  conditional -- reads 'x' and writes 'o+8'
// CHECK:      field o+8 : ptr (in #0 at byte 8)  W
// CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, o.i32@0 - 1) + 4)
struct Out { int n; float *dst; };
__global__ void via_struct(Out o, const float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < o.n)
    o.dst[i] = x[i];
}

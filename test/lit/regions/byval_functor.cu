// A templated kernel taking a lambda by value (thrust/PyTorch style): the
// captured pointers are fields of the by-value functor parameter and get
// exact regions of their own ("f+0": the pointer at byte 0 of f).
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel for_each --grid 2 --block 128 \
// RUN:   --alloc 0x10000:4096 --alloc 0x20000:4096 \
// RUN:   --arg i32:200 --arg struct:ptr:0x20000,ptr:0x10000 | FileCheck %s --check-prefix=SEP
// RUN: %gmem-analyze %s --kernel for_each --grid 2 --block 128 \
// RUN:   --alloc 0x10000:4096 \
// RUN:   --arg i32:200 --arg struct:ptr:0x10010,ptr:0x10000 | FileCheck %s --check-prefix=ALIAS
// RUN: not %gmem-analyze %s --kernel for_each --grid 2 --block 128 \
// RUN:   --arg i32:200 --arg i32:5 2>&1 | FileCheck %s --check-prefix=BADARG

// CHECK:      kernel void for_each<{{.*}}>(int, {{.*}})  [nvptx]
// CHECK:      class:  conditional -- reads 'f+8' and writes 'f+0'
// CHECK:      #1 f : other
// CHECK-NEXT: field f+8 : ptr (in #1 at byte 8)  R
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT: field f+0 : ptr (in #1 at byte 0)  W
// CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// SEP:   idempotent: yes
// ALIAS: idempotent: no -- write of f+0 overlaps read of f+8
// BADARG: --arg #1 for by-value parameter 'f' (16 bytes): give bytes:HEX or struct:KIND:V,...
template <class F> __global__ void for_each(int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f(i);
}
void launch(float *out, const float *in, int n) {
  auto f = [=] __device__(int i) { out[i] = 2 * in[i]; };
  for_each<<<1, 1>>>(n, f);
}

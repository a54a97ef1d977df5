// An atomic read-modify-write of global memory makes the kernel
// non-idempotent; the parameter carries the A flag ("atomic": true in JSON,
// see instance/atomic_not_idempotent.test). hist[keys[i] & 255] is bounded
// by the mask: [0, 1024).
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel histogram(int, int const*, int*)
// CHECK:      class:  non-idempotent -- atomic read-modify-write of 'hist'
// CHECK:      #1 keys : ptr  R
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT: #2 hist : ptr  RWA
// CHECK-NEXT:     read:  [0, 1024)
// CHECK-NEXT:     write: [0, 1024)

// atomicCAS counts as an atomic read-modify-write too; an atomicExch whose
// old value is unused is a store (session 51).
// CHECK:      kernel cas_flag(int*)
// CHECK:      class:  non-idempotent -- atomic read-modify-write of 'flag'
// CHECK:      #0 flag : ptr  RWA
// CHECK:      kernel exch(int*, int)
// CHECK:      class:  idempotent -- reads no global memory
// CHECK:      #0 slot : ptr  W
// CHECK-NEXT:     write: [0, 4*blockDim.x)

__global__ void histogram(int n, const int *keys, int *hist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&hist[keys[i] & 255], 1);
}
__global__ void cas_flag(int *flag) {
  atomicCAS(flag, 0, 1);
}
__global__ void exch(int *slot, int v) {
  atomicExch(&slot[threadIdx.x], v);
}

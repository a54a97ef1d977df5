// memset/memcpy in device code (llvm.memset / llvm.memcpy) count as
// accesses of their full length: memset writes its destination, memcpy
// reads its source and writes its destination.
// RUN: %gmem-analyze %s | FileCheck %s

struct Rec { float v[16]; }; // 64 bytes

// CHECK:      kernel clear(int, Rec*)
// CHECK:      class:  idempotent -- reads no global memory
// CHECK:      #1 r : ptr  W
// CHECK-NEXT:     write: [0, 64*min(blockDim.x*gridDim.x - 1, n - 1) + 64)
__global__ void clear(int n, Rec *r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    memset(&r[i], 0, sizeof(Rec));
}

// CHECK:      kernel copy(int, Rec const*, Rec*)
// CHECK:      class:  conditional -- reads 'src' and writes 'dst'
// CHECK:      #1 src : ptr  R
// CHECK-NEXT:     read:  [0, 64*min(blockDim.x*gridDim.x - 1, n - 1) + 64)
// CHECK-NEXT: #2 dst : ptr  W
// CHECK-NEXT:     write: [0, 64*min(blockDim.x*gridDim.x - 1, n - 1) + 64)
__global__ void copy(int n, const Rec *src, Rec *dst) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    memcpy(&dst[i], &src[i], sizeof(Rec));
}

// A run-time length shows up in the formula.
// CHECK:      kernel copy_len(int, int, char const*, char*)
// CHECK:      #2 src : ptr  R
// CHECK-NEXT:     read:  [0, 64*min(blockDim.x*gridDim.x - 1, n - 1) + len)
// CHECK-NEXT: #3 dst : ptr  W
// CHECK-NEXT:     write: [0, 64*min(blockDim.x*gridDim.x - 1, n - 1) + len)
__global__ void copy_len(int n, int len, const char *src, char *dst) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    memcpy(dst + i * 64, src + i * 64, len);
}

// memcpy within one buffer (second half from the first): the source and
// destination are proven apart, so the kernel is idempotent.
// CHECK:      kernel dup_half(int, Rec*)
// CHECK:      class:  idempotent -- every location it reads is proven apart from every location it writes
// CHECK:      #1 r : ptr  RW
// CHECK-NEXT:     read:  [0, 64*min(blockDim.x*gridDim.x - 1, n - 1) + 64)
// CHECK-NEXT:     write: [64*max(1, n), 64*min(blockDim.x*gridDim.x - 1, n - 1) + 64*n + 64)
// CHECK-NEXT:     reads and writes proven disjoint
__global__ void dup_half(int n, Rec *r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    memcpy(&r[i + n], &r[i], sizeof(Rec));
}

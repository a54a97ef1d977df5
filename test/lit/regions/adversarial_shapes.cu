// Shapes outside the corpus, checked for soundness by hand: reverse and
// negative-step loops, pointer bumping with a signed stride, unsigned i - 1
// at i = 0 (wraps: never a small negative offset), 64-bit indices, a pointer
// selected between two parameters, data-dependent while loops, float4, CAS
// loops, early returns, % and / indices.
// RUN: %gmem-analyze %s | FileCheck %s
// Decreasing loop: exact where its launch checks hold, whole allocation
// where they fail; never smaller than the truth [0, 4n).
// RUN: %gmem-analyze %s --kernel neg_step --grid 1 --block 64 --alloc 0x100000:0x100000 \
// RUN:   --arg ptr:0x180000 --arg i32:64 | FileCheck %s --check-prefix=NEG-EXACT
// RUN: %gmem-analyze %s --kernel neg_step --grid 1 --block 32 --alloc 0x100000:0x100000 \
// RUN:   --arg ptr:0x180000 --arg i32:100 | FileCheck %s --check-prefix=NEG-WIDE
// NEG-EXACT: #0 a  write [0x180000, 0x180100){{$}}
// NEG-WIDE:  #0 a  write [0x100000, 0x200000)  (launch fails the no-wrap check
// CHECK-LABEL: kernel reverse_loop
// CHECK:       write: [-4*n + 4*max(1, n), 4*n)
// CHECK-LABEL: kernel ptr_bump
// CHECK:       write: [min(-4*stride + 4*n*stride, 0), max(-4*stride + 4*n*stride + 4*blockDim.x - 4, 4*blockDim.x - 4) + 4)
// CHECK-LABEL: kernel unsigned_minus_one
// CHECK:       read:  whole allocation (index wraps around
// CHECK-LABEL: kernel size_t_index
// CHECK:       write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// A pointer selected between two parameters, then offset: each gets the
// offset's region (regions/select_base.cu); within each, the reads [n, 2n)
// and the writes [0, n) are disjoint, so only the two parameters' overlap
// at a launch decides.
// At a launch (n = 100, 128 threads) the truth is reads [0x190, 0x320) and
// writes [0, 0x190) of the chosen buffer: exactly the regions, and a second
// run reads nothing the first wrote (idempotent). The launch's flag picks
// the variant in which only a is touched (launch variants, session 52).
// RUN: %gmem-analyze %s --kernel select_ptr --grid 2 --block 64 --alloc 0x100000:0x1000 \
// RUN:   --alloc 0x200000:0x1000 --arg ptr:0x100000 --arg ptr:0x200000 --arg i32:1 --arg i32:100 \
// RUN:   | FileCheck %s --check-prefix=SEL
// SEL: launch variant: flag != 0 holds at this launch
// SEL: #0 a  read [0x100190, 0x100320)  write [0x100000, 0x100190)
// SEL-NOT: #1 b
// SEL: idempotent: yes
// CHECK-LABEL: kernel select_ptr
// CHECK:       class:  conditional
// CHECK:       #0 a : ptr  RW
// CHECK-NEXT:    read:  [4*max(1, n), 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4*n + 4)
// CHECK-NEXT:    write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK:       #1 b : ptr  RW
// CHECK-NEXT:    read:  [4*max(1, n), 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4*n + 4)
// CHECK-NEXT:    write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-LABEL: kernel data_while
// CHECK:       write: [0, 8589934592)
// CHECK-LABEL: kernel vec4
// CHECK:       write: [0, 16*min(blockDim.x*gridDim.x - 1, n4 - 1) + 16)
// CHECK-LABEL: kernel cas_max
// CHECK:       class:  non-idempotent -- atomic read-modify-write of 'm'
// CHECK-LABEL: kernel early_return
// CHECK:       read:  [4, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 8)
// CHECK-LABEL: kernel neg_step
// CHECK:       write: [4*min(
// CHECK-LABEL: kernel mod_index
// CHECK:       read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1, m - 1) + 4)
// CHECK-LABEL: kernel div_index
// CHECK:       read:  [0, 4*(min(blockDim.x*gridDim.x - 1, n - 1) /u 2) + 4)
__global__ void reverse_loop(float *a, const float *b, int n) {
  for (int i = n - 1; i >= 0; --i) a[i] = b[i];
}
__global__ void ptr_bump(float *a, int n, int stride) {
  float *p = a + threadIdx.x;
  for (int k = 0; k < n; ++k) { *p = 0.f; p += stride; }
}
__global__ void unsigned_minus_one(float *a, const float *b) {
  unsigned i = threadIdx.x;
  a[i] = b[i - 1];
}
__global__ void size_t_index(float *a, long n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < (size_t)n) a[i] = 1.f;
}
__global__ void select_ptr(float *a, float *b, int flag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = flag ? a : b;
  if (i < n) p[i] = p[i + n];
}
__global__ void data_while(float *a, const int *next, int start) {
  int j = start;
  while (j >= 0) { a[j] = 1.f; j = next[j]; }
}
__global__ void vec4(float4 *out, const float4 *in, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) { float4 v = in[i]; v.x *= 2; out[i] = v; }
}
__global__ void cas_max(int *m, const int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { int old = *m; while (old < v[i]) { int a = atomicCAS(m, old, v[i]); if (a == old) break; old = a; } }
}
__global__ void early_return(float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  a[i] = b[i + 1];
}
__global__ void neg_step(float *a, int n) {
  for (int i = n - 1 - threadIdx.x; i >= 0; i -= blockDim.x) a[i] = 0.f;
}
__global__ void mod_index(float *a, const float *b, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i % m];
}
__global__ void div_index(float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i / 2];
}

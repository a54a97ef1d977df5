// A branch around a block that stops the kernel guards what follows it:
// `if (id < 0 || id >= V) __trap();` (CUDA's __trap() is inline asm that the
// IR falls through), __builtin_trap(), and the device assert that PyTorch's
// CUDA_KERNEL_ASSERT expands to (__assertfail, which stops the kernel).
// Before, an index loaded from memory bounded nothing after such checks and
// the table's region was the whole allocation.
// RUN: %gmem-analyze %s | FileCheck %s

#include <assert.h>

// CHECK-LABEL: kernel embed_trap
// CHECK:       #1 w : ptr  R
// CHECK-NEXT:      read:  [4*min(-D + V*D, 0), 4*max(-D + V*D, 0) + 4*min(n*D - 1, blockDim.x*gridDim.x - 1, D - 1) + 4)
__global__ void embed_trap(float *out, const float *w, const int *ids, int n, int V, int D) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * D) return;
  int id = ids[t / D];
  if (id < 0 || id >= V) __trap();
  out[t] = w[id * D + t % D];
}

// CHECK-LABEL: kernel gather_builtin_trap
// CHECK:       #1 in : ptr  R
// CHECK-NEXT:      read:  [0, 4*V)
__global__ void gather_builtin_trap(float *out, const float *in, const int *idx, int n, int V) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int r = idx[t];
  if (r < 0 || r >= V) __builtin_trap();
  out[t] = in[r];
}

// CHECK-LABEL: kernel gather_assert
// CHECK:       #1 in : ptr  R
// CHECK-NEXT:      read:  [0, 4*V)
__global__ void gather_assert(float *out, const float *in, const int *idx, int n, int V) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int r = idx[t];
  assert(r >= 0 && r < V);
  out[t] = in[r];
}

// Only a block that stops the kernel: a printf returns, so the read after
// it may see any index.
// CHECK-LABEL: kernel gather_printf
// CHECK:       #1 in : ptr  R
// CHECK-NEXT:      read:  whole allocation
__global__ void gather_printf(float *out, const float *in, const int *idx, int n, int V) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int r = idx[t];
  if (r < 0 || r >= V) printf("bad index %d\n", r);
  out[t] = in[r];
}

// What the stopping block itself does before its trap is not guarded.
// CHECK-LABEL: kernel mark_then_trap
// CHECK:       #0 out : ptr  W
// CHECK-NEXT:      write: whole allocation
__global__ void mark_then_trap(float *out, const int *idx, int n, int V) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int r = idx[t];
  if (r >= V) {
    out[r] = -1.0f;
    __trap();
  }
  if (r >= 0)
    out[r] = 1.0f;
}

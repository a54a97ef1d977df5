// A pointer distance (b - a) or a pointer's integer value that leaves the
// registers (stored to shared or local memory, passed through a shuffle,
// inline asm or a call) may come back as an index: a[d + t] with d = b - a
// read back from shared memory writes b. Once a kernel lets such a value
// out, an address computed from what it loads or what a call returns
// counts as computed from another pointer: unknown memory, as the same
// distance kept in registers always did (an adversarial round, session
// 49: diff_via_smem wrote b in place, called idempotent). Kernels that
// keep pointer values in registers keep their regions.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel diff_via_smem --grid 1 --block 32 --alloc 0x100000000:128 \
// RUN:   --alloc 0x200000000:128 --arg ptr:0x100000000 --arg ptr:0x200000000 \
// RUN:   | FileCheck %s --check-prefix=SMEM
// SMEM: idempotent: no
#include <stdint.h>

// CHECK-LABEL: kernel diff_via_smem(
// CHECK:         class:  unknown -- writes memory it cannot bound (address computed from another pointer's value (a pointer difference))
__global__ void diff_via_smem(const float *b, float *a) {
  __shared__ long long d;
  if (threadIdx.x == 0)
    d = b - a;
  __syncthreads();
  int t = threadIdx.x;
  a[d + t] = b[t] + 1.0f;
}

// CHECK-LABEL: kernel diff_via_shfl(
// CHECK:         class:  unknown -- writes memory it cannot bound (address computed from another pointer's value
__global__ void diff_via_shfl(const float *b, float *a) {
  long long d = __shfl_sync(0xffffffffu, (long long)(b - a), 0);
  int t = threadIdx.x;
  a[d + t] = b[t] + 1.0f;
}

// CHECK-LABEL: kernel diff_via_asm(
// CHECK:         class:  unknown -- writes memory it cannot bound (address computed from another pointer's value
__global__ void diff_via_asm(const float *b, float *a) {
  long long d;
  asm("mov.b64 %0, %1;" : "=l"(d) : "l"((long long)(b - a)));
  a[d + threadIdx.x] = b[threadIdx.x] + 1.0f;
}

// Integer addresses in a local table with a dynamic index, rebased on a.
// CHECK-LABEL: kernel uintptr_local_table(
// CHECK:         class:  unknown -- writes memory it cannot bound (address computed from another pointer's value
__global__ void uintptr_local_table(const float *b, float *a) {
  uintptr_t tab[4] = {(uintptr_t)a, (uintptr_t)b, (uintptr_t)a, (uintptr_t)b};
  int t = threadIdx.x;
  volatile int k = t & 3;
  uintptr_t u = tab[k];
  float *q = a + (u - (uintptr_t)a) / sizeof(float);
  q[t] = b[t] + 1.0f;
}

// The read side: b[t] = a[d + t + 1] reads b.
// CHECK-LABEL: kernel diff_read_via_smem(
// CHECK:         unknown memory read:  address computed from another pointer's value
__global__ void diff_read_via_smem(float *b, const float *a) {
  __shared__ long long d;
  if (threadIdx.x == 0)
    d = b - (float *)a;
  __syncthreads();
  int t = threadIdx.x;
  b[t] = a[d + t + 1] + 1.0f;
}

// No pointer value leaves the registers (an alignment test compares it):
// a gather through loaded indices keeps its bounded regions.
// CHECK-LABEL: kernel gather_aligned(
// CHECK:         class:  conditional
// CHECK:         #0 out : ptr  W
// CHECK-NEXT:      write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK:         #1 x : ptr  R
// CHECK-NEXT:      read:  whole allocation (index depends on a value loaded from memory)
// CHECK-NOT:     unknown memory
__global__ void gather_aligned(float *out, const float *x, const int *idx, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n && ((uintptr_t)x & 15) == 0)
    out[t] = x[idx[t]];
}

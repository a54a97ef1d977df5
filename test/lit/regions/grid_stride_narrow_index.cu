// Grid-stride loops whose int or unsigned index is tested against a wider
// bound (`i < n` with size_t or long n). The latch tests sext/zext(i + G),
// and SCEV has no trip count: i + G adds an unsigned step, so it may wrap
// without UB. Every value i takes after the first passed the latch test
// (the first, the loop's entry test), so the test itself bounds the index:
// [0, n) for an unsigned comparison however i wraps (a negative int fails
// it, an unsigned one that restarts at 0 stays below n). A signed one (long
// n) lets a wrapped int index through, so its bound needs a check that
// i + G cannot pass INT_MAX; launches that fail it get the whole allocation.
// The index may also be an affine function of the tested one (2 * i + 1).
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel int_size --grid 2 --block 64 --alloc 0x100000:0x10000 \
// RUN:   --alloc 0x200000:0x10000 --arg u64:1000 --arg ptr:0x100000 --arg ptr:0x200000 \
// RUN:   | FileCheck %s --check-prefix=INST
// RUN: %gmem-analyze %s --kernel int_size --grid 2 --block 64 --alloc 0x100000:0x10000 \
// RUN:   --alloc 0x200000:0x10000 --arg u64:0x8000000000000000 --arg ptr:0x100000 \
// RUN:   --arg ptr:0x200000 | FileCheck %s --check-prefix=HUGE
// RUN: %gmem-analyze %s --kernel int_long --grid 2 --block 64 --alloc 0x100000:0x10000 \
// RUN:   --alloc 0x200000:0x10000 --arg i64:0x7fffff00 --arg ptr:0x100000 \
// RUN:   --arg ptr:0x200000 | FileCheck %s --check-prefix=NOWRAP
// RUN: %gmem-analyze %s --kernel int_long --grid 2 --block 64 --alloc 0x100000:0x10000 \
// RUN:   --alloc 0x200000:0x10000 --arg i64:0x80000005 --arg ptr:0x100000 \
// RUN:   --arg ptr:0x200000 | FileCheck %s --check-prefix=WRAP
#include <cstddef>

// CHECK: kernel int_size(unsigned long, float*, float const*)
// CHECK: #1 out : ptr  W
// CHECK-NEXT: write: [0, 4*n)
// CHECK: #2 in : ptr  R
// CHECK-NEXT: read:  [0, 4*n)
// INST: instance int_size(
// INST-NEXT: #1 out  write [0x100000, 0x100fa0)
// INST-NEXT: #2 in  read [0x200000, 0x200fa0)
// n = 2^63 is not a size_t bound below 2^63: a negative i would pass.
// HUGE: instance int_size(
// HUGE-NEXT: #1 out  write [0x100000, 0x110000)  (launch fails the no-wrap check on n
__global__ void int_size(size_t n, float *out, const float *in) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i];
}

// CHECK: kernel uns_size(unsigned long, float*, float const*)
// CHECK: #1 out : ptr  W
// CHECK-NEXT: write: [0, 4*n)
// CHECK: #2 in : ptr  R
// CHECK-NEXT: read:  [0, 4*n)
__global__ void uns_size(size_t n, float *out, const float *in) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i];
}

// CHECK: kernel int_long(long, float*, float const*)
// CHECK: #1 out : ptr  W
// CHECK-NEXT: write: [0, 4*n)
// CHECK: #2 in : ptr  R
// CHECK-NEXT: read:  [0, 4*n)
// NOWRAP: instance int_long(
// NOWRAP-NEXT: #1 out  write [0x100000, 0x110000){{$}}
// WRAP: instance int_long(
// WRAP-NEXT: #1 out  write [0x100000, 0x110000)  (launch fails the no-wrap check on blockDim.x*gridDim.x + n - 1
__global__ void int_long(long n, float *out, const float *in) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i];
}

// CHECK: kernel uns_long(long, float*, float const*)
// CHECK: #1 out : ptr  W
// CHECK-NEXT: write: [0, 4*n)
__global__ void uns_long(long n, float *out, const float *in) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i];
}

// CHECK: kernel int_size_stride2(unsigned long, float*, float const*)
// CHECK: #1 out : ptr  W
// CHECK-NEXT: write: [4, 8*n)
// CHECK: #2 in : ptr  R
// CHECK-NEXT: read:  [0, 4*n)
__global__ void int_size_stride2(size_t n, float *out, const float *in) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[2 * i + 1] = in[n - 1 - i];
}

// CHECK: kernel int_size_le(unsigned long, float*, float const*)
// CHECK: #1 out : ptr  W
// CHECK-NEXT: write: [0, 4*n + 4)
__global__ void int_size_le(size_t n, float *out, const float *in) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += blockDim.x * gridDim.x)
    out[i] = in[i];
}

// A short index: SCEV does not model the loop's phi (i is sign-extended from
// 16 bits at every step), but the phi's value from the latch is the value
// the latch tests, so the same argument bounds the phi itself. A negative
// (wrapped) short fails `< n`; the unsigned short that restarts at 0 stays
// below n. With long n a wrapped short passes the test, and without a step
// SCEV knows there is no induction: the type's range stays.
// CHECK: kernel short_size(unsigned long, float*, float const*)
// CHECK: #1 out : ptr  W
// CHECK-NEXT: write: [0, 4*n)
__global__ void short_size(size_t n, float *out, const float *in) {
  for (short i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i];
}

// CHECK: kernel ushort_size(unsigned long, float*, float const*)
// CHECK: #1 out : ptr  W
// CHECK-NEXT: write: [0, 4*n)
__global__ void ushort_size(size_t n, float *out, const float *in) {
  for (unsigned short i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = in[i];
}

// CHECK: kernel short_long(long, float*, float const*)
// CHECK: #1 out : ptr  W
// CHECK-NEXT: write: [-131072, 131072)
__global__ void short_long(long n, float *out, const float *in) {
  for (short i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i];
}

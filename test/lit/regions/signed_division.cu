// Signed shifts, divisions and remainders of an index (warp-per-row and
// column indices on int: `tid >> 5`, `tid / 32`, `i % m`, `i / w`), which
// SCEV leaves opaque, are bounded from the operand's bounds: unsigned
// division when the operand is known non-negative, else signed bounds
// (ashr one lower); a divisor that is not a constant is checked >= 1 at the
// launch. Before, the regions were the operand type's whole range or the
// whole allocation, so tensors carved from one pooled allocation (as
// PyTorch's caching allocator does) always looked overlapping.
// RUN: %gmem-analyze %s | FileCheck %s
//
// Instances: a and b in one 8 KiB allocation, b 4 KiB above a.
// RUN: %gmem-analyze %s --kernel warp_flags --grid 8 --block 128 \
// RUN:   --alloc 0x200000000:8192 --arg ptr:0x200001000 --arg ptr:0x200000000 --arg i32:1024 \
// RUN:   | FileCheck %s --check-prefix=POOL-WARP
// RUN: %gmem-analyze %s --kernel mod_cols --grid 4 --block 256 \
// RUN:   --alloc 0x200000000:8192 --arg ptr:0x200000000 --arg ptr:0x200001000 --arg i32:1024 --arg i32:7 \
// RUN:   | FileCheck %s --check-prefix=POOL-MOD
// A divisor of 0 fails the launch check: the read falls back to the whole
// allocation, which the write overlaps.
// RUN: %gmem-analyze %s --kernel mod_cols --grid 4 --block 256 \
// RUN:   --alloc 0x200000000:8192 --arg ptr:0x200000000 --arg ptr:0x200001000 --arg i32:1024 --arg i32:0 \
// RUN:   | FileCheck %s --check-prefix=POOL-MOD0
// The regions are supersets of what the threads really touch. With
// off = -10 and 32 threads, i runs over [-10, 21]: i >> 2 (rounding down)
// is in [-3, 5], so b's bytes [-12, 24) are read; i % 7 (C: the sign of i)
// is in [-6, 6], bytes [-24, 28). The launches' regions are exactly those.
// RUN: %gmem-analyze %s --kernel shift_negative --grid 1 --block 32 \
// RUN:   --alloc 0x200000000:8192 --arg ptr:0x200000000 --arg ptr:0x200001000 --arg i32:-10 \
// RUN:   | FileCheck %s --check-prefix=NEG-SHIFT
// RUN: %gmem-analyze %s --kernel rem_negative --grid 1 --block 32 \
// RUN:   --alloc 0x200000000:8192 --arg ptr:0x200000000 --arg ptr:0x200001000 --arg i32:-10 --arg i32:7 \
// RUN:   | FileCheck %s --check-prefix=NEG-REM

// Lane 0 only: `(tid & 31) == 0` also bounds tid by 992 (of its 1024).
// CHECK-LABEL: kernel warp_flags
// CHECK:       write: [0, 4*(min(min(blockDim.x - 1, 992) - blockDim.x + blockDim.x*gridDim.x, n - 1) /u 32) + 4)
// CHECK-LABEL: kernel warp_rows
// CHECK:       write: [0, 4*min(rows - 1, (blockDim.x*gridDim.x - 1) /u 32) + 4)
// CHECK-LABEL: kernel mod_cols
// CHECK:       read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1, m - 1) + 4)
// CHECK-LABEL: kernel div_by_arg
// CHECK:       read:  [0, 4*(min(blockDim.x*gridDim.x - 1, n - 1) /u w) + 4)
// An operand that may be negative (a signed offset): signed bounds, the
// shift one lower. Never the narrower unsigned form.
// CHECK-LABEL: kernel shift_negative
// CHECK:       read:  [4*(off /s 4) - 4, 4*((off + blockDim.x - 1) /s 4) + 4)
// CHECK-LABEL: kernel rem_negative
// CHECK:       read:  [4*min(max(-m + 1, off), 0), 4*max(min(off + blockDim.x - 1, m - 1), 0) + 4)

__global__ void warp_flags(unsigned *flags, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((threadIdx.x & 31) == 0 && i < n)
    flags[i >> 5] = __ballot_sync(0xffffffffu, x[i] > 0.0f);
}
__global__ void warp_rows(float *out, int rows) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int row = tid / 32;
  if (row >= rows) return;
  out[row] = 1.0f;
}
__global__ void mod_cols(float *a, const float *b, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i % m];
}
__global__ void div_by_arg(float *a, const float *b, int n, int w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i / w];
}
__global__ void shift_negative(float *a, const float *b, int off) {
  int i = (int)threadIdx.x + off;
  a[threadIdx.x] = b[i >> 2];
}
__global__ void rem_negative(float *a, const float *b, int off, int m) {
  int i = (int)threadIdx.x + off;
  a[threadIdx.x] = b[i % m];
}

// POOL-WARP:      #0 flags  write [0x200001000, 0x200001080)
// POOL-WARP-NEXT: #1 x  read [0x200000000, 0x200001000)
// POOL-WARP-NEXT: idempotent: yes
// POOL-MOD:       #0 a  write [0x200000000, 0x200001000)
// POOL-MOD-NEXT:  #1 b  read [0x200001000, 0x20000101c)
// POOL-MOD-NEXT:  idempotent: yes
// POOL-MOD0:      #1 b  read [0x200000000, 0x200002000)
// POOL-MOD0-NEXT: idempotent: no
// NEG-SHIFT:      #1 b  read [0x200000ff4, 0x200001018)
// NEG-REM:        #1 b  read [0x200000fe8, 0x20000101c)

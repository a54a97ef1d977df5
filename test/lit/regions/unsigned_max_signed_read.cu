// Regression (found by test/fuzz/region_fuzz.py, seed 2000): an unsigned
// max read as an int. `(unsigned)(lane - v0)` wraps for lane < v0, so the
// max is above INT32_MAX and (int) makes it negative: this launch writes
// elements -99 to -1. The range analysis bounded the max below by `rows`
// in its unsigned reading, and SCEV's no-wrap flags on min/max (always set)
// let the signed reading take that bound and fill in INT32_MAX above: the
// region [4*rows, 2^33) missed every write. A min/max of the other
// signedness now needs both bounds, checked to fit the reading's type.
// RUN: %gmem-analyze %s --kernel umax_as_int --grid 1 --block 33 \
// RUN:   --alloc 0x100000000:0x800000 --arg ptr:0x100400000 --arg i32:31 --arg i32:100 \
// RUN:   --arg i64:32 | FileCheck %s
// The allocation's first byte: every write is below the pointer.
// CHECK: #0 b  write [0x100000000,
__global__ void umax_as_int(float *b, int rows, int cols, long long stride) {
  int lane = threadIdx.x & 31;
  for (unsigned v0 = (unsigned)cols - 1; v0 >= (unsigned)stride; v0 -= blockDim.x * gridDim.x)
    b[(int)max((unsigned)rows, (unsigned)(lane - v0))] = 1.f;
}

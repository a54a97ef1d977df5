// `for (j2 = j1 + 1; j2 < m; ++j2)` under the guard `j1 < m - 1`, with a
// 64-bit index: SCEV carries the access as a 64-bit recurrence while the
// latch tests the 32-bit j2. The trip count (m - 2 - j1 as SCEV writes it)
// once bounded it, with a launch check that the guard had to make pass at
// every launch (also one with more threads than m), and the region was up to
// m - 2 elements more than the threads touch. The latch's own test now
// bounds the 64-bit recurrence through j2 (j2 <= m - 1 in every iteration):
// the region is exact, and no launch check can fail.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --json | FileCheck %s --check-prefix=JSON
// 256 threads, m = 100: rows 0..98 write up to a[98*100 + 99], bytes
// [4, 39600) from the array; the bound is exactly 4*(98*100 + 100) = 39600.
// RUN: %gmem-analyze %s --kernel triu_clear_long --grid 2 --block 128 \
// RUN:   --alloc 0x100000:0x100000 --arg i32:100 --arg ptr:0x100000 | FileCheck %s --check-prefix=MORE
// MORE: #1 a  write [0x100004, 0x109ab0){{$}}

// CHECK:      kernel triu_clear_long(int, float*)
// CHECK:      #1 a : ptr  W
// CHECK-NEXT:     write: [4, 4*min(blockDim.x*gridDim.x - 1, m - 2)*m + 4*m)
// The only launch check left: the thread index fits an int.
// JSON: "checks": [{"value": "blockDim.x*gridDim.x", "min": -9223372036854775808, "max": 2147483647}]
__global__ void triu_clear_long(int m, float *a) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m - 1)
    for (int j2 = j1 + 1; j2 < m; j2++)
      a[(long)j1 * m + j2] = 0.0f;
}

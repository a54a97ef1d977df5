// The trip count of `for (j2 = j1 + 1; j2 < m; ++j2)` is m - 2 - j1 as SCEV
// writes it, a sum holding -j1's terms, while the guard `j1 < m - 1` that
// keeps threads past m - 2 out of the loop is on j1 itself (SCEV keeps
// -1 * j1 as a product). The guard bounds the trip count's -j1 part too, so
// the trip count's launch check (it must be >= 0 for every thread that runs
// the loop, since it is read unsigned) holds at every launch, also one with
// more threads than m. With a 64-bit index the region is start plus trip
// count: up to m - 2 elements more than the threads touch, never whole.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --json | FileCheck %s --check-prefix=JSON
// 256 threads, m = 100: rows 0..98 write up to a[98*100 + 99], byte 39600;
// the bound is 4*(98*100 + 98 + 100) = 39992.
// RUN: %gmem-analyze %s --kernel triu_clear_long --grid 2 --block 128 \
// RUN:   --alloc 0x100000:0x100000 --arg i32:100 --arg ptr:0x100000 | FileCheck %s --check-prefix=MORE
// MORE: #1 a  write [0x100004, 0x109c38){{$}}

// CHECK:      kernel triu_clear_long(int, float*)
// CHECK:      #1 a : ptr  W
// CHECK-NEXT:     write: [4, 4*min(blockDim.x*gridDim.x - 1, m - 2)*m + 4*min(blockDim.x*gridDim.x - 1, m - 2) + 4*m)
// The trip count's check: its least value over the threads the guard lets
// into the loop, m - 1 - min(threads, m - 1), is >= 0 (at every launch).
// JSON: {"value": "-min(min(blockDim.x*gridDim.x - 1, m - 2) + 1, m - 1) + m - 1", "min": 0,
__global__ void triu_clear_long(int m, float *a) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m - 1)
    for (int j2 = j1 + 1; j2 < m; j2++)
      a[(long)j1 * m + j2] = 0.0f;
}

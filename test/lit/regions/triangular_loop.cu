// A triangular loop whose start is the thread's index, as in PolyBench CORR's
// `for (j2 = j1 + 1; j2 < m; ++j2)` under `j1 < m - 1`. Threads past the
// guard never enter the loop, so its trip count m - 2 - j1 is bounded through
// the guard on j1 (the bound keeps every launch's trip count >= 0 and needs no
// failing check when the grid has more threads than m), and the i32 index
// j1*m + j2, which SCEV extends to 64 bits only as a whole recurrence, ends
// at j1*m + m - 1 for the last row that runs: the exact region.
// RUN: %gmem-analyze %s | FileCheck %s
//
// 256 threads, m = 100: rows 0..98 write a[1] .. a[98*100 + 99], bytes
// [4, 39600); the region is that, not the whole 1 MiB allocation.
// RUN: %gmem-analyze %s --kernel triu_clear --grid 2 --block 128 --alloc 0x100000:0x100000 \
// RUN:   --arg i32:100 --arg ptr:0x100000 | FileCheck %s --check-prefix=MORE
// 64 threads, m = 100: rows 0..63, a[1] .. a[63*100 + 99], bytes [4, 25600).
// RUN: %gmem-analyze %s --kernel triu_clear --grid 1 --block 64 --alloc 0x100000:0x100000 \
// RUN:   --arg i32:100 --arg ptr:0x100000 | FileCheck %s --check-prefix=FEWER
// MORE:  #1 a  write [0x100004, 0x109ab0){{$}}
// FEWER: #1 a  write [0x100004, 0x106400){{$}}

// CHECK-LABEL: kernel triu_clear(int, float*)
// CHECK:       #1 a : ptr  W
// CHECK-NEXT:      write: [4, min(4*min(min(blockDim.x*gridDim.x - 1, m - 2) + 1, m - 1) + 4*min(blockDim.x*gridDim.x - 1, m - 2)*m + 4*m - 8, 4*min(blockDim.x*gridDim.x - 1, m - 2)*m + 4*m - 4) + 4)
__global__ void triu_clear(int m, float *a) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m - 1)
    for (int j2 = j1 + 1; j2 < m; j2++)
      a[j1 * m + j2] = 0.0f;
}

// The correlation kernel: diagonal, row j1 right of it and column j1 below
// it. 256 threads, m = 100, n = 8: symmat's last diagonal, row and column
// writes are symmat[98*101], symmat[98*100 + 99] and symmat[99*100 + 98],
// each range exact. data[i*m + j1] is exact too (up to data[7*100 + 98]),
// and so is data[i*m + j2] (up to data[7*100 + 99]): its byte offset steps
// 4 where the latch's j2 steps 1, a constant ratio that relates the two.
// No launch check fails.
// RUN: %gmem-analyze %s --kernel corr_kernel --grid 2 --block 128 \
// RUN:   --alloc 0x100000:0x100000 --alloc 0x300000:0x100000 --arg i32:100 --arg i32:8 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x300000 | FileCheck %s --check-prefix=CORR
// CORR:      #2 symmat  write [0x100000, 0x109aac)  write [0x100004, 0x109ab0)  write [0x100190, 0x109c3c){{$}}
// CORR-NEXT: #3 data  read [0x300000, 0x300c7c)  read [0x300004, 0x300c80){{$}}

// CHECK-LABEL: kernel corr_kernel(int, int, float*, float*)
// CHECK:       #2 symmat : ptr  W
// CHECK-NEXT:      write: {{.*}} U [4, min(4*min(min(blockDim.x*gridDim.x - 1, m - 2) + 1, m - 1) + 4*min(blockDim.x*gridDim.x - 1, m - 2)*m + 4*m - 8, 4*min(blockDim.x*gridDim.x - 1, m - 2)*m + 4*m - 4) + 4) U
__global__ void corr_kernel(int m, int n, float *symmat, float *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m - 1) {
    symmat[j1 * m + j1] = 1.0f;
    for (int j2 = j1 + 1; j2 < m; j2++) {
      symmat[j1 * m + j2] = 0.0f;
      for (int i = 0; i < n; i++)
        symmat[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
      symmat[j2 * m + j1] = symmat[j1 * m + j2];
    }
  }
}

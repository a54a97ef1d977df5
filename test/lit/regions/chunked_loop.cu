// A chunk of consecutive elements per thread, [t*chunk, min(t*chunk + chunk,
// n)): the loop's start and end both depend on the thread. Its bound is
// the latch test of the 32-bit index, `i + 1 < end`; SCEV writes the 64-bit
// byte offset with the trip count end - begin - 1, and bounding start and
// trip count apart gave up to twice the chunked range, with a launch check
// (the count is >= 0) that failed at ordinary launches.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel chunked --grid 2 --block 64 --alloc 0x100000:0x100000 \
// RUN:   --alloc 0x300000:0x100000 --arg i32:300 --arg i32:3 --arg ptr:0x100000 \
// RUN:   --arg ptr:0x300000 | FileCheck %s --check-prefix=UP
// RUN: %gmem-analyze %s --kernel chunk_down --grid 2 --block 64 --alloc 0x100000:0x100000 \
// RUN:   --arg i32:300 --arg i32:3 --arg ptr:0x100000 | FileCheck %s --check-prefix=DOWN
// RUN: %gmem-analyze %s --kernel countdown --grid 1 --block 64 --alloc 0x100000:0x100000 \
// RUN:   --alloc 0x300000:0x100000 --arg i32:50 --arg ptr:0x100000 --arg ptr:0x300000 \
// RUN:   | FileCheck %s --check-prefix=COUNT
#define GID (blockIdx.x * blockDim.x + threadIdx.x)

// CHECK-LABEL: kernel chunked(
// CHECK:       read:  [4*min(-chunk + chunk*blockDim.x*gridDim.x, 0), 4*min(max(chunk*blockDim.x*gridDim.x, chunk), n))
// 128 threads of 3 elements, cut at 300: exactly elements 0..299.
// UP:      #2 x  read [0x100000, 0x1004b0){{$}}
// UP-NEXT: #3 y  write [0x300000, 0x3004b0){{$}}
__global__ void chunked(int n, int chunk, const float *x, float *y) {
  int begin = GID * chunk;
  int end = min(begin + chunk, n);
  for (int i = begin; i < end; i++) y[i] = 2.f * x[i];
}

// The same chunk walked backwards: the test `i - 1 >= begin` bounds it below.
// DOWN: #2 y  write [0x100000, 0x1004b0){{$}}
__global__ void chunk_down(int n, int chunk, float *y) {
  int begin = GID * chunk;
  for (int i = min(begin + chunk, n) - 1; i >= begin; i--) y[i] = 1.f;
}

// Thread i reads x[i], x[i - 1], ..., x[0]: nothing below x[0].
// COUNT: #1 x  read [0x100000, 0x1000c8){{$}}
__global__ void countdown(int n, const float *x, float *y) {
  int i = GID;
  if (i >= n) return;
  float s = 0.f;
  for (int j = i; j >= 0; j--) s += x[j];
  y[i] = s;
}

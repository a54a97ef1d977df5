// Kernels for narrow_counter_exhaustive.test: a 32-bit loop counter whose
// accesses SCEV carries as 64-bit recurrences (a row pointer made before the
// loop, stepped by the counter), in loops with no trip count (a volatile asm
// or a barrier in the body). The latch's test on the counter is the only
// bound. touched_bytes.py holds a Python model of each; keep them in step.
#include <stddef.h>
#define GID (blockIdx.x * blockDim.x + threadIdx.x)
#define OPAQUE() asm volatile("" ::: "memory")

// Thread t reads row t (n floats), every third element.
__global__ void rows_step(int n, const float *x, float *y) {
  const float *row = x + (size_t)GID * n;
  float s = 0.f;
  for (int k = 0; k < n; k += 3) {
    s += row[k];
    OPAQUE();
  }
  y[GID] = s;
}
// From a start that may be negative (before the row), inclusive end.
__global__ void rows_from(int n, int begin, const float *x, float *y) {
  const float *row = x + (size_t)GID * 8;
  float s = 0.f;
  for (int k = begin; k <= n; k++) {
    s += row[k];
    OPAQUE();
  }
  y[GID] = s;
}
// Unsigned counter, odd or even start.
__global__ void rows_unsigned(unsigned n, unsigned begin, float *y) {
  float *row = y + (size_t)GID * 16;
  for (unsigned k = begin; k < n; k += 2) {
    row[k] = 1.f;
    OPAQUE();
  }
}
// do-while: the body runs once before the first test.
__global__ void rows_do_while(int n, float *y) {
  float *row = y + (size_t)GID * 4;
  int k = 0;
  do {
    row[k] = 0.f;
    k += 3;
    OPAQUE();
  } while (k < n);
}
// A CTA-wide tile loop with barriers: tid-strided, the tail guarded.
__global__ void tile_rows(int n, const float *x, float *y) {
  const float *row = x + (size_t)blockIdx.x * n;
  float s = 0.f;
  for (int k = 0; k < n; k += blockDim.x) {
    if (k + (int)threadIdx.x < n)
      s += row[k + threadIdx.x];
    __syncthreads();
  }
  y[GID] = s;
}

// Kernels for equality_exit_exhaustive.test: loops whose start and end both
// depend on the thread. LLVM's runtime unroller turns each into a remainder
// loop that counts `k != (end - begin) & 3` and a main loop that tests
// `i + 4 != end`: loops that leave on an equality test. touched_bytes.py
// holds a Python model of each; keep the two in step.
#include <stddef.h>
#define GID (blockIdx.x * blockDim.x + threadIdx.x)

// Thread t reads x[t], x[t - 1], ..., x[0] (a prefix sum done naively).
__global__ void countdown(int n, const float *x, float *y) {
  int i = GID;
  if (i >= n) return;
  float s = 0.f;
  for (int j = i; j >= 0; j--) s += x[j];
  y[i] = s;
}
// The same, every third element.
__global__ void countdown_stride(int n, const float *x, float *y) {
  int i = GID;
  if (i >= n) return;
  float s = 0.f;
  for (int j = i; j >= 0; j -= 3) s += x[j];
  y[i] = s;
}
// Each thread a chunk of consecutive elements, the last chunk cut at n.
__global__ void chunked(int n, int chunk, const float *x, float *y) {
  int begin = GID * chunk;
  int end = min(begin + chunk, n);
  for (int i = begin; i < end; i++) y[i] = 2.f * x[i];
}
// The chunk walked backwards.
__global__ void chunk_down(int n, int chunk, float *y) {
  int begin = GID * chunk;
  for (int i = min(begin + chunk, n) - 1; i >= begin; i--) y[i] = 1.f;
}
// Unsigned and 64-bit indices.
__global__ void chunked_unsigned(unsigned n, unsigned chunk, float *y) {
  unsigned begin = GID * chunk;
  unsigned end = min(begin + chunk, n);
  for (unsigned i = begin; i < end; i++) y[i] = 1.f;
}
__global__ void chunked_size_t(int n, int chunk, float *y) {
  size_t begin = (size_t)GID * chunk;
  size_t end = min(begin + chunk, (size_t)n);
  for (size_t i = begin; i < end; i++) y[i] = 1.f;
}
// A loop written with != and a step of 2 (len >= 0: it ends).
__global__ void step2_ne(int base, int len, float *y) {
  int begin = base + 3 * GID;
  for (int i = begin; i != begin + 2 * len; i += 2) y[i] = 1.f;
}
// A second exit: the loop may leave before its end (not at the latch).
__global__ void early_exit(int n, int chunk, int stop, float *y) {
  int begin = GID * chunk;
  int end = min(begin + chunk, n);
  for (int i = begin; i < end; i++) {
    if (i == stop) break;
    y[i] = 1.f;
  }
}
// A pointer walked up to an end pointer.
__global__ void ptr_walk(int len, const float *x, float *y) {
  const float *p = x + 2 * GID, *e = x + 2 * GID + len;
  float s = 0.f;
  for (; p != e; ++p) s += *p;
  y[GID] = s;
}
// A row of a matrix per thread, columns [c0, c1) of it.
__global__ void row_chunk(int ld, int c0, int c1, float *y) {
  int r = GID;
  for (int c = c0 + r % 3; c < min(c1, ld); c++) y[r * ld + c] = 1.f;
}

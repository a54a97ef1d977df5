// Grid-stride loops whose index is narrower than the bound they test
// (int, unsigned, short and unsigned short i against size_t, long or int
// n), for narrow_index_exhaustive.test (models: narrow_index_models.py).
// The 32-bit index increments by an unsigned step, so it may wrap without
// UB; the 16-bit ones wrap at launches small enough to enumerate (i keeps
// taking the same values when it never fails the test: the models stop at
// the first repeated index). Scalars first, then the pointers.
#include <cstddef>
#define GID (blockIdx.x * blockDim.x + threadIdx.x)
#define G (blockDim.x * gridDim.x)

__global__ void int_size(size_t n, float *out, const float *in) {
  for (int i = GID; i < n; i += G)
    out[i] = in[i];
}
__global__ void uns_size(size_t n, float *out, const float *in) {
  for (unsigned i = GID; i < n; i += G)
    out[i] = in[i];
}
__global__ void int_long(long n, float *out, const float *in) {
  for (int i = GID; i < n; i += G)
    out[i] = in[i];
}
__global__ void uns_long(long n, float *out, const float *in) {
  for (unsigned i = GID; i < n; i += G)
    out[i] = in[i];
}
__global__ void int_size_le(size_t n, float *out, const float *in) {
  for (int i = GID; i <= n; i += G)
    out[i] = in[i];
}
__global__ void int_long_le(long n, float *out, const float *in) {
  for (int i = GID; i <= n; i += G)
    out[i] = in[i];
}
__global__ void int_size_stride2(size_t n, float *out, const float *in) {
  for (int i = GID; i < n; i += G)
    out[2 * i + 1] = in[i];
}
__global__ void uns_size_stride3(size_t n, float *out, const float *in) {
  for (unsigned i = GID; i < n; i += G)
    out[3 * i] = in[i];
}
__global__ void int_size_reverse(size_t n, float *out, const float *in) {
  for (int i = GID; i < n; i += G)
    out[i] = in[n - 1 - i];
}
__global__ void int_size_offset(size_t n, long off, float *out, const float *in) {
  for (int i = GID; i < n; i += G)
    out[i] = in[i + off];
}
__global__ void int_size_start(size_t n, float *out, const float *in) {
  for (int i = GID + 3; i < n; i += G)
    out[i - 3] = in[i];
}
__global__ void int_size_step2(size_t n, float *out, const float *in) {
  for (int i = GID; i < n; i += 2 * G)
    out[i] = in[i];
}
__global__ void int_uns(unsigned n, float *out, const float *in) {
  for (int i = GID; i < n; i += G)
    out[i] = in[i];
}
__global__ void int_size_down(size_t n, float *out, const float *in) {
  for (int i = n - 1 - GID; i >= 0; i -= G)
    out[i] = in[i];
}
__global__ void short_size(size_t n, float *out, const float *in) {
  for (short i = GID; i < n; i += G)
    out[i] = in[i];
}
__global__ void ushort_size(size_t n, float *out, const float *in) {
  for (unsigned short i = GID; i < n; i += G)
    out[i] = in[i];
}
__global__ void short_long(long n, float *out, const float *in) {
  for (short i = GID; i < n; i += G)
    out[i] = in[i];
}
__global__ void ushort_long(long n, float *out, const float *in) {
  for (unsigned short i = GID; i < n; i += G)
    out[i] = in[i];
}
__global__ void short_size_le(size_t n, float *out, const float *in) {
  for (short i = GID; i <= n; i += G)
    out[i] = in[i];
}
__global__ void short_size_stride2(size_t n, float *out, const float *in) {
  for (short i = GID; i < n; i += G)
    out[2 * i + 1] = in[i];
}

// Grid-stride loops with 64-bit and 32-bit indices and bounds, for
// gridstride_exhaustive.test (models: gridstride_models.py). Scalars first,
// then the pointers, as touched_bytes.py passes them.
#include <cstddef>
#define GID (blockIdx.x * blockDim.x + threadIdx.x)
#define G (blockDim.x * gridDim.x)

__global__ void gs_size(size_t n, float *out, const float *in) {
  for (size_t i = GID; i < n; i += G)
    out[i] = in[i];
}
__global__ void gs_size_wide_step(size_t n, float *out, const float *in) {
  for (size_t i = GID; i < n; i += (size_t)blockDim.x * gridDim.x)
    out[i] = in[i];
}
__global__ void gs_size_stride2(size_t n, float *out, const float *in) {
  for (size_t i = GID; i < n; i += G)
    out[2 * i + 1] = in[i];
}
__global__ void gs_size_reverse(size_t n, float *out, const float *in) {
  for (size_t i = GID; i < n; i += G)
    out[i] = in[n - 1 - i];
}
__global__ void gs_size_offset(size_t n, long off, float *out, const float *in) {
  for (size_t i = GID; i < n; i += G)
    out[i] = in[i + off];
}
__global__ void gs_long(long n, float *out, const float *in) {
  for (long i = GID; i < n; i += (long)G)
    out[i] = in[i];
}
__global__ void gs_u32(unsigned n, float *out, const float *in) {
  for (unsigned i = GID; i < n; i += G)
    out[i] = in[i];
}
__global__ void gs_int(int n, float *out, const float *in) {
  for (int i = GID; i < n; i += G)
    out[i] = in[i];
}
// Index and step both computed in 64 bits (no 32-bit product to wrap):
// SCEV distributes start + step into `tid + bd * (gd + bid)`, so the index
// one step behind the latch's value comes from the header phi.
#define GID64 ((size_t)blockIdx.x * blockDim.x + threadIdx.x)
#define G64 ((size_t)blockDim.x * gridDim.x)
__global__ void gs_size_wide(size_t n, float *out, const float *in) {
  for (size_t i = GID64; i < n; i += G64)
    out[i] = in[i];
}
__global__ void gs_size_wide_int_n(int n, float *out, const float *in) {
  for (size_t i = GID64; i < n; i += G64)
    out[i] = in[i];
}
__global__ void gs_long_wide(int n, float *out, const float *in) {
  for (long i = GID64; i < n; i += (long)G64)
    out[i] = in[i];
}
__global__ void gs_size_wide_stride2(size_t n, float *out, const float *in) {
  for (size_t i = GID64; i < n; i += G64)
    out[2 * i + 1] = in[i];
}
// Rows and columns both grid-stride, 64-bit: the inner loop's start holds
// the outer recurrence (r * W + c), which SCEV does not fold back.
__global__ void gs_2d_wide(size_t H, size_t W, float *out, const float *in) {
  for (size_t r = (size_t)blockIdx.y * blockDim.y + threadIdx.y; r < H;
       r += (size_t)blockDim.y * gridDim.y)
    for (size_t c = GID64; c < W; c += G64)
      out[r * W + c] = in[r * W + c];
}
// A column walk (matmul's B[k*N + c]), the loop counter widened or not.
__global__ void col_int(int K, int N, float *out, const float *B) {
  int c = GID;
  if (c < N) {
    float s = 0.f;
    for (int k = 0; k < K; ++k)
      s += B[k * N + c];
    out[c] = s;
  }
}
__global__ void col_long(long K, long N, float *out, const float *B) {
  long c = GID;
  if (c < N) {
    float s = 0.f;
    for (long k = 0; k < K; ++k)
      s += B[k * N + c];
    out[c] = s;
  }
}

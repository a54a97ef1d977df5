// Border tests written `(unsigned)x < (unsigned)n` on an index that may be
// negative, for unsigned_guard_exhaustive.test (models:
// unsigned_guard_models.py). Scalars first, then the pointers.
#define GID (blockIdx.x * blockDim.x + threadIdx.x)

__global__ void ult_shift(int n, int off, const float *in, float *out) {
  int x = GID + off;
  if ((unsigned)x < (unsigned)n)
    out[x] = in[x];
}
__global__ void ule_shift(int n, int off, const float *in, float *out) {
  int x = GID + off;
  if ((unsigned)x <= (unsigned)n)
    out[x] = in[x];
}
__global__ void ult_stencil(int n, const float *in, float *out) {
  int x = GID;
  float s = 0.f;
  for (int d = -1; d <= 1; ++d) {
    int xx = x + d;
    if ((unsigned)xx < (unsigned)n)
      s += in[xx];
  }
  if (x < n)
    out[x] = s;
}
__global__ void ult_unsigned_math(int n, const float *in, float *out) {
  unsigned x = GID - 5u; // wraps for the first five threads
  if (x < (unsigned)n)
    out[x] = in[x];
}

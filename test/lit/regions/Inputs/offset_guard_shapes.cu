// Guards on a constant offset or multiple of the accessed index (`i + 3 <
// n` over a[i], `4 * g + 3 < n` over a[g], vector tails), for
// offset_guard_exhaustive.test (models: offset_guard_models.py). Scalars
// first, then the pointers.
#define GID (blockIdx.x * blockDim.x + threadIdx.x)

__global__ void plus1(int n, const float *in, float *out) {
  int i = GID;
  if (i + 1 < n)
    out[i] = in[i + 1];
}
__global__ void plus3_le(int n, float *out) {
  int i = GID;
  if (i + 3 <= n)
    out[i] = 1.0f;
}
__global__ void minus2(int n, float *out) {
  int i = GID;
  if (i - 2 < n)
    out[i] = 1.0f;
}
// Both sides: above m - 2 and below n.
__global__ void window(int m, int n, float *out) {
  int i = GID;
  if (i + 2 > m && i < n)
    out[i - m] = 1.0f;
}
// 4 * gid in unsigned arithmetic (wraps), read as int: i / 4 is an exact
// arithmetic shift of a value that need not be 4 * gid.
__global__ void vec_tail_u(int n, const float *in, float *out) {
  int i = 4 * GID;
  if (i + 3 < n)
    out[i / 4] = in[i / 4];
}
__global__ void vec_tail_s(int n, float *out) {
  int g = GID;
  int i = 4 * g;
  if (i + 3 < n)
    out[g] = 1.0f;
}
__global__ void vec_head_u(int n, float *out) {
  int i = 4 * GID;
  if (i < n)
    out[i >> 2] = 1.0f;
}
// The float4 form: elements i .. i + 3 under i + 3 < n, the rest one by one.
__global__ void vec4_copy(int n, const float *in, float *out) {
  int i = 4 * GID;
  if (i + 3 < n) {
    float4 v = *reinterpret_cast<const float4 *>(in + i);
    *reinterpret_cast<float4 *>(out + i) = v;
  } else {
    for (int j = i; j < n; ++j)
      out[j] = in[j];
  }
}
__global__ void twice_minus1(int n, float *out) {
  int g = GID;
  if (2 * g - 1 < n)
    out[g] = 1.0f;
}
// Unsigned, wrapping: x + 2 < n for the first threads' huge x too.
__global__ void wrap_plus2(int n, float *out) {
  unsigned x = GID - 5u;
  if (x + 2 < (unsigned)n)
    out[x] = 1.0f;
}
__global__ void eight_u(int n, float *out) {
  unsigned i = 8u * GID;
  if (i + 7 < (unsigned)n)
    out[i / 8] = 1.0f;
}

// PyTorch's unrolled elementwise loop: a block covers 4 * blockDim.x
// elements, thread_idx < remaining = N - 4 * blockDim.x * blockIdx.x.
__global__ void unrolled4(int N, const float *in, float *out) {
  int remaining = N - 4 * blockDim.x * blockIdx.x;
  int thread_idx = threadIdx.x;
#pragma unroll
  for (int i = 0; i < 4; i++) {
    if (thread_idx >= remaining)
      break;
    int linear = thread_idx + 4 * blockDim.x * blockIdx.x;
    out[linear] = in[linear] * 2.0f;
    thread_idx += blockDim.x;
  }
}
// The same with the remainder in unsigned arithmetic: it wraps for blocks
// past N, so every thread of theirs passes the test.
__global__ void unrolled4_u(int N, float *out) {
  unsigned remaining = N - 4 * blockDim.x * blockIdx.x;
  unsigned thread_idx = threadIdx.x;
#pragma unroll
  for (int i = 0; i < 4; i++) {
    if (thread_idx >= remaining)
      break;
    out[thread_idx + 4 * blockDim.x * blockIdx.x] = 1.0f;
    thread_idx += blockDim.x;
  }
}
// A triangle: j < n - i over a[i + j].
__global__ void triangle_sum(int n, int i, float *out) {
  int j = GID;
  if (j < n - i)
    out[i + j] = 1.0f;
}

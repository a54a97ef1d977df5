// Index decompositions into several coordinates by division and remainder
// by launch values, recombined with other strides (attention's q/k/v
// permute and its inverse, an NCHW -> NHWC relayout), for
// permute_exhaustive.test (models: permute_models.py). Their bounds are
// products of parameters of unknown sign: regionOf's second try checks
// those signs at launch. Scalars first, then the pointers.
#define GID (blockIdx.x * blockDim.x + threadIdx.x)

// Coordinates of flat index idx of a (B, NH, N, d) tensor.
__device__ __forceinline__ void split_bhnd(int idx, int N, int NH, int d, int &b, int &nh, int &n,
                                           int &c) {
  b = idx / (NH * N * d);
  int rest = idx % (NH * N * d);
  nh = rest / (N * d);
  rest = rest % (N * d);
  n = rest / d;
  c = rest % d;
}

// inp is (B, N, 3, NH, d); q, k, v are (B, NH, N, d).
__global__ void permute_qkv(int B, int N, int NH, int d, float *q, float *k, float *v,
                            const float *inp) {
  int idx = GID;
  if (idx < B * NH * N * d) {
    int b, nh, n, c;
    split_bhnd(idx, N, NH, d, b, nh, n, c);
    int at = b * N * 3 * NH * d + n * 3 * NH * d + nh * d + c;
    q[idx] = inp[at];
    k[idx] = inp[at + NH * d];
    v[idx] = inp[at + 2 * NH * d];
  }
}

// (B, NH, N, d) back to (B, N, NH, d).
__global__ void unpermute(int B, int N, int NH, int d, float *out, const float *inp) {
  int idx = GID;
  if (idx < B * NH * N * d) {
    int b, nh, n, c;
    split_bhnd(idx, N, NH, d, b, nh, n, c);
    out[b * NH * N * d + n * NH * d + nh * d + c] = inp[idx];
  }
}

// The same written back to front: a negative constant factor (`total - 1 -
// x`) in a product the second try checks, whose sign is known.
__global__ void unpermute_reversed(int B, int N, int NH, int d, float *out, const float *inp) {
  int idx = GID;
  if (idx < B * NH * N * d) {
    int b, nh, n, c;
    split_bhnd(idx, N, NH, d, b, nh, n, c);
    out[B * NH * N * d - 1 - (b * NH * N * d + n * NH * d + nh * d + c)] = inp[idx];
  }
}

// NCHW -> NHWC, one thread per element, grid-stride.
__global__ void nchw_to_nhwc(int Nn, int C, int H, int W, float *out, const float *in) {
  for (int i = GID; i < Nn * C * H * W; i += gridDim.x * blockDim.x) {
    int w = i % W, h = (i / W) % H, c = (i / (W * H)) % C, n = i / (W * H * C);
    out[((n * H + h) * W + w) * C + c] = in[i];
  }
}

// Column walks: the row stride ld is the factor between the access's step
// and the loop counter's (viaLatchRecurrence with an invariant factor).
__global__ void column_sum(int n, int ld, float *out, const float *a) {
  float s = 0.f;
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s += a[i * ld + blockIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
__global__ void column_scale_gs(int n, int ld, float f, float *a) {
  for (int i = GID; i < n; i += gridDim.x * blockDim.x)
    a[i * ld] *= f;
}
// The same with 64-bit sizes: SCEV has a trip count, and the address step
// `ld * blockDim.x` has an unknown sign (checked on the second try).
__global__ void column_sum_long(long n, long ld, float *out, const float *a) {
  float s = 0.f;
  for (long i = threadIdx.x; i < n; i += blockDim.x)
    s += a[i * ld + blockIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

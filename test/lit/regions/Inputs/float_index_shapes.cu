// Indices converted from floats (nearest-neighbour and bilinear resampling,
// histograms of float data) and clamps of loaded integers, for
// float_index_exhaustive.test (models: float_index_models.py). Scalars
// first, then the pointers.
#define GID (blockIdx.x * blockDim.x + threadIdx.x)

// PyTorch's nearest-neighbour source index: min((int)(x * scale), w - 1),
// the scale from the two sizes.
__global__ void nearest_sizes(int dw, int sw, const float *src, float *dst) {
  int x = GID;
  if (x >= dw)
    return;
  int sx = min((int)((float)x * ((float)sw / (float)dw)), sw - 1);
  dst[x] = src[sx];
}

// The same with the scale passed as a float parameter.
__global__ void nearest_scale(int dw, int sw, float scale, const float *src, float *dst) {
  int x = GID;
  if (x >= dw)
    return;
  int sx = min((int)((float)x * scale), sw - 1);
  dst[x] = src[sx];
}

// A divided coordinate: x / s with s = -0.0 is -inf.
__global__ void nearest_div(int dw, int sw, float s, const float *src, float *dst) {
  int x = GID;
  if (x >= dw)
    return;
  int sx = min((int)((float)x / s), sw - 1);
  dst[x] = src[sx];
}

// Bilinear source index: clamped at 0 as a float, then the neighbour.
__global__ void bilinear_pair(int dw, int sw, float scale, const float *src, float *dst) {
  int x = GID;
  if (x >= dw)
    return;
  float fx = ((float)x + 0.5f) * scale;
  fx = fx - 0.5f;
  fx = fx < 0.0f ? 0.0f : fx;
  int x0 = (int)fx;
  int x1 = x0 < sw - 1 ? x0 + 1 : x0;
  dst[x] = src[x0] + src[x1];
}

// A histogram of float data: bin = min((int)(|v| * scale), bins - 1).
__global__ void hist_abs(int n, int bins, float scale, const float *v, unsigned *h) {
  int i = GID;
  if (i >= n)
    return;
  int b = min((int)floorf(fabsf(v[i]) * scale), bins - 1);
  atomicAdd(&h[b], 1u);
}

// max(v - off, 0) with fmaxf, truncated, capped.
__global__ void relu_bin(int n, int w, float off, const float *v, float *out) {
  int i = GID;
  if (i >= n)
    return;
  int k = min((int)fmaxf(v[i] - off, 0.0f), w - 1);
  out[k] = 1.0f;
}

// Nothing keeps this float non-negative: the index may be negative.
__global__ void shifted_bin(int n, int w, float scale, const float *v, float *out) {
  int i = GID;
  if (i >= n)
    return;
  int k = min((int)((v[i] - 0.5f) * scale), w - 1);
  out[k] = 1.0f;
}

// Clamps of loaded integers: a signed clamp written with selects, an
// unsigned min.
__global__ void clamp_loaded(int n, int w, const int *ids, float *tab) {
  int i = GID;
  if (i >= n)
    return;
  int k = ids[i];
  k = k < 0 ? 0 : (k > w - 1 ? w - 1 : k);
  tab[k] = 1.0f;
}

__global__ void umin_loaded(int n, unsigned v, const unsigned *ids, float *tab) {
  int i = GID;
  if (i >= n)
    return;
  tab[min(ids[i], v - 1)] = 1.0f;
}

// Bounded from above by float min / clamping selects, the conversions to
// float exact only up to 2^24.
__global__ void fmin_bins(int n, int bins, float scale, const float *v, unsigned *h) {
  int i = GID;
  if (i >= n)
    return;
  int b = (int)fminf(fmaxf(v[i] * scale, 0.0f), (float)(bins - 1));
  atomicAdd(&h[b], 1u);
}
__global__ void coord_clamp(int dw, int sw, float scale, const float *src, float *dst) {
  int x = GID;
  if (x >= dw)
    return;
  float fx = (float)x * scale;
  fx = fx > (float)sw - 1.0f ? (float)sw - 1.0f : fx;
  fx = fmaxf(fx, 0.0f);
  dst[x] = src[(int)fx];
}
__global__ void upper_only(int n, int w, const float *v, float *out) {
  int i = GID;
  if (i >= n)
    return;
  int k = (int)fminf(v[i], (float)w);
  out[max(k, 0)] = 1.0f;
}

// Rounding up past a fractional bound: ceil(min(x, w - 0.5)) reaches w,
// __float2int_ru(min(x, 2.5)) reaches 3.
__global__ void ceil_half(int n, int w, const float *v, float *out) {
  int i = GID;
  if (i >= n)
    return;
  out[max((int)ceilf(fminf(fmaxf(v[i], 0.0f), (float)w - 0.5f)), 0)] = 1.0f;
}
__global__ void round_up_const(int n, const float *v, float *out) {
  int i = GID;
  if (i >= n)
    return;
  out[__float2int_ru(fminf(fmaxf(v[i], 0.0f), 2.5f))] = 1.0f;
}

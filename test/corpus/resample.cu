// Resampling and binning kernels that index with floats converted to int,
// shaped after PyTorch's CUDA upsampling (upsample_nearest2d: source index
// min((int)floorf(dst * scale), in - 1); upsample_bilinear2d with
// align_corners=false: the source coordinate clamped at 0 as a float, the
// neighbour one further unless at the edge) and a histogram of float data
// with bins of a given width. Scales are float parameters (in / out), as
// PyTorch passes them. Channels run over blockIdx.z.

// GMEM-EXPECT: upsample_nearest2d conditional
// GMEM-RUN: upsample_nearest2d grid=4,8,3 block=32,8 args=buf:f32:12288:rand buf:f32:49152:zero i32:64 i32:64 i32:64 i32:128 f32:1.0 f32:0.5
// GMEM-RUN: upsample_nearest2d grid=3,7,2 block=16,8 args=buf:f32:2100:rand buf:f32:4736:zero i32:30 i32:35 i32:52 i32:45 f32:0.5769231 f32:0.7777778
// In place (out is in), upsampling the top-left quarter: not idempotent at
// this launch.
// GMEM-RUN: upsample_nearest2d grid=2,8,1 block=32,8 args=buf:f32:4096:rand ptr:0+0 i32:64 i32:64 i32:64 i32:64 f32:0.5 f32:0.5
__global__ void upsample_nearest2d(const float *in, float *out, int ih, int iw, int oh, int ow,
                                   float scale_h, float scale_w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.z;
  if (x >= ow || y >= oh)
    return;
  int sy = min((int)floorf((float)y * scale_h), ih - 1);
  int sx = min((int)floorf((float)x * scale_w), iw - 1);
  out[((size_t)c * oh + y) * ow + x] = in[((size_t)c * ih + sy) * iw + sx];
}

__device__ __forceinline__ float area_source_index(float scale, int dst) {
  float src = scale * ((float)dst + 0.5f) - 0.5f;
  return src < 0.0f ? 0.0f : src;
}

// GMEM-EXPECT: upsample_bilinear2d conditional
// GMEM-RUN: upsample_bilinear2d grid=4,8,2 block=32,8 args=buf:f32:8192:rand buf:f32:32768:zero i32:64 i32:64 i32:128 i32:128 f32:0.5 f32:0.5
// GMEM-RUN: upsample_bilinear2d grid=2,4,1 block=32,8 args=buf:f32:9000:rand buf:f32:1200:zero i32:90 i32:100 i32:30 i32:40 f32:3.0 f32:2.5
__global__ void upsample_bilinear2d(const float *in, float *out, int ih, int iw, int oh, int ow,
                                    float rh, float rw) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.z;
  if (x >= ow || y >= oh)
    return;
  float h1r = area_source_index(rh, y);
  int h1 = (int)h1r;
  int h1p = h1 < ih - 1 ? 1 : 0;
  float h1l = h1r - (float)h1, h0l = 1.0f - h1l;
  float w1r = area_source_index(rw, x);
  int w1 = (int)w1r;
  int w1p = w1 < iw - 1 ? 1 : 0;
  float w1l = w1r - (float)w1, w0l = 1.0f - w1l;
  const float *p = in + (size_t)c * ih * iw;
  float v = h0l * (w0l * p[h1 * iw + w1] + w1l * p[h1 * iw + w1 + w1p]) +
            h1l * (w0l * p[(h1 + h1p) * iw + w1] + w1l * p[(h1 + h1p) * iw + w1 + w1p]);
  out[((size_t)c * oh + y) * ow + x] = v;
}

// Bins of width 1 / inv_width from lo; values below lo go to bin 0, above
// the last bin to the last.
// GMEM-EXPECT: histogram_float_bins non-idempotent
// GMEM-RUN: histogram_float_bins grid=64 block=256 args=buf:f32:16384:rand buf:u32:64:zero i32:16384 i32:64 f32:-1.0 f32:32.0
// GMEM-RUN: histogram_float_bins grid=8 block=128 args=buf:f32:1000:rand buf:u32:10:zero i32:1000 i32:10 f32:0.0 f32:10.0
__global__ void histogram_float_bins(const float *v, unsigned *bins, int n, int nbins, float lo,
                                     float inv_width) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int b = min((int)fmaxf((v[i] - lo) * inv_width, 0.0f), nbins - 1);
  atomicAdd(&bins[b], 1u);
}

// Token ids clamped into the vocabulary with an unsigned min (ids out of
// range read the last row).
// GMEM-EXPECT: embedding_clamped conditional
// GMEM-RUN: embedding_clamped grid=64 block=128 args=buf:u32:64:randint:0:1200 buf:f32:128000:rand buf:f32:8192:zero i32:64 i32:128 u32:1000
__global__ void embedding_clamped(const unsigned *ids, const float *table, float *out, int ntok,
                                  int dim, unsigned vocab) {
  int t = blockIdx.x;
  if (t >= ntok)
    return;
  unsigned row = min(ids[t], vocab - 1);
  for (int d = threadIdx.x; d < dim; d += blockDim.x)
    out[(size_t)t * dim + d] = table[(size_t)row * dim + d];
}

// Image-processing kernels shaped after OpenCV CUDA / NPP primitives and
// the CUDA samples' image filters: Sobel gradient magnitude on pitched
// images (pitches in bytes, rows reached through (char *)base + y * pitch),
// the column pass of a separable Gaussian blur (shared-memory tile plus a
// halo of clamped rows), bilinear resize (four source pixels at clamped
// float-to-int coordinates), packed RGB to gray, a 256-entry LUT applied in
// place, a 3x3 median through a sorting network in registers, and the two
// in-place passes of an integral image (a thread walks a row, then a column).

// Gradient magnitude of an 8-bit image into a float image. Border pixels
// get 0. src_pitch and dst_pitch are row strides in bytes.
// GMEM-EXPECT: sobel_mag_pitched conditional
// GMEM-RUN: sobel_mag_pitched grid=16,12 block=32,8 args=buf:u8:46080:rand i32:512 buf:f32:46080:zero i64:2048 i32:500 i32:90
// GMEM-RUN: sobel_mag_pitched grid=3,5 block=16,16 args=buf:u8:4096:rand i32:64 buf:f32:4096:zero i64:256 i32:61 i32:63
__global__ void sobel_mag_pitched(const unsigned char *src, int src_pitch, float *dst, long long dst_pitch,
                                  int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float *out_row = (float *)((char *)dst + y * dst_pitch);
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
    out_row[x] = 0.0f;
    return;
  }
  const unsigned char *up = (const unsigned char *)((const char *)src + (y - 1) * src_pitch);
  const unsigned char *mid = (const unsigned char *)((const char *)src + y * src_pitch);
  const unsigned char *down = (const unsigned char *)((const char *)src + (y + 1) * src_pitch);
  float gx = (float)up[x + 1] - (float)up[x - 1] + 2.0f * ((float)mid[x + 1] - (float)mid[x - 1]) +
             (float)down[x + 1] - (float)down[x - 1];
  float gy = (float)down[x - 1] - (float)up[x - 1] + 2.0f * ((float)down[x] - (float)up[x]) +
             (float)down[x + 1] - (float)up[x + 1];
  out_row[x] = sqrtf(gx * gx + gy * gy);
}

// Column pass of a 9-tap separable Gaussian. A block of 32x8 threads owns
// 32 columns and GC_STEPS * 8 output rows; it stages those rows plus one
// 8-row halo above and below in shared memory, clamping row indices to the
// image (replicated border). pitch is in elements. Launch with block=32,8.
#define GC_BX 32
#define GC_BY 8
#define GC_STEPS 4
#define GC_HALO 1
#define GC_RADIUS 4
// GMEM-EXPECT: gauss_cols_shared conditional
// GMEM-RUN: gauss_cols_shared grid=10,8 block=32,8 args=buf:f32:102400:rand buf:f32:102400:zero i32:300 i32:250 i32:320
// GMEM-RUN: gauss_cols_shared grid=2,3 block=32,8 args=buf:f32:4096:rand buf:f32:4096:zero i32:40 i32:70 i32:45
__global__ void gauss_cols_shared(const float *src, float *dst, int width, int height, int pitch) {
  __shared__ float tile[GC_BX][(GC_STEPS + 2 * GC_HALO) * GC_BY + 1];
  const float w[2 * GC_RADIUS + 1] = {0.0276f, 0.0663f, 0.1238f, 0.1802f, 0.2042f,
                                      0.1802f, 0.1238f, 0.0663f, 0.0276f};
  const int x = blockIdx.x * GC_BX + threadIdx.x;
  const int xs = x < width ? x : width - 1;
  const int y0 = ((int)blockIdx.y * GC_STEPS - GC_HALO) * GC_BY + threadIdx.y;
  for (int s = 0; s < GC_STEPS + 2 * GC_HALO; s++) {
    int y = y0 + s * GC_BY;
    y = y < 0 ? 0 : (y >= height ? height - 1 : y);
    tile[threadIdx.x][threadIdx.y + s * GC_BY] = src[y * pitch + xs];
  }
  __syncthreads();
  if (x >= width) return;
  for (int s = GC_HALO; s < GC_HALO + GC_STEPS; s++) {
    int y = y0 + s * GC_BY;
    if (y >= height) break;
    float acc = 0.0f;
    for (int k = -GC_RADIUS; k <= GC_RADIUS; k++)
      acc += w[k + GC_RADIUS] * tile[threadIdx.x][threadIdx.y + s * GC_BY + k];
    dst[y * pitch + x] = acc;
  }
}

// Bilinear resize of an sw x sh float image to dw x dh (pixel centres
// aligned). Source coordinates are truncated to int and clamped to the
// image on both sides.
// GMEM-EXPECT: resize_bilinear conditional
// GMEM-RUN: resize_bilinear grid=20,15 block=16,16 args=buf:f32:48000:rand i32:240 i32:200 buf:f32:76800:zero i32:320 i32:240
// GMEM-RUN: resize_bilinear grid=2,3 block=32,8 args=buf:f32:10000:rand i32:100 i32:100 buf:f32:1400:zero i32:35 i32:37
__global__ void resize_bilinear(const float *src, int sw, int sh, float *dst, int dw, int dh) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= dw || y >= dh) return;
  float fx = ((float)x + 0.5f) * ((float)sw / (float)dw) - 0.5f;
  float fy = ((float)y + 0.5f) * ((float)sh / (float)dh) - 0.5f;
  int x0 = (int)floorf(fx);
  int y0 = (int)floorf(fy);
  float ax = fx - (float)x0;
  float ay = fy - (float)y0;
  x0 = x0 < 0 ? 0 : (x0 > sw - 1 ? sw - 1 : x0);
  y0 = y0 < 0 ? 0 : (y0 > sh - 1 ? sh - 1 : y0);
  int x1 = x0 + 1 < sw ? x0 + 1 : sw - 1;
  int y1 = y0 + 1 < sh ? y0 + 1 : sh - 1;
  ax = ax < 0.0f ? 0.0f : (ax > 1.0f ? 1.0f : ax);
  ay = ay < 0.0f ? 0.0f : (ay > 1.0f ? 1.0f : ay);
  float p00 = src[y0 * sw + x0], p01 = src[y0 * sw + x1];
  float p10 = src[y1 * sw + x0], p11 = src[y1 * sw + x1];
  float top = p00 + ax * (p01 - p00);
  float bot = p10 + ax * (p11 - p10);
  dst[y * dw + x] = top + ay * (bot - top);
}

// Packed 8-bit RGB (3 bytes a pixel) to 8-bit luma, fixed-point BT.601
// weights.
// GMEM-EXPECT: rgb_to_gray conditional
// GMEM-RUN: rgb_to_gray grid=391 block=256 args=buf:u8:300000:rand buf:u8:100000:zero i32:100000
// GMEM-RUN: rgb_to_gray grid=3 block=96 args=buf:u8:3000:rand buf:u8:1000:zero i32:1000
__global__ void rgb_to_gray(const unsigned char *rgb, unsigned char *gray, int npix) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < npix) {
    unsigned int r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];
    gray[i] = (unsigned char)((77u * r + 150u * g + 29u * b + 128u) >> 8);
  }
}

// img[i] = lut[img[i]] in place over an 8-bit image (grid-stride loop).
// GMEM-EXPECT: lut_apply_inplace non-idempotent
// GMEM-RUN: lut_apply_inplace grid=64 block=256 args=buf:u8:200000:rand buf:u8:256:randint:0:256 i32:200000
__global__ void lut_apply_inplace(unsigned char *img, const unsigned char *lut, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    img[i] = lut[img[i]];
}

// 3x3 median of an 8-bit image with replicated borders: sort the three
// rows, then the three columns of the sorted rows; the median is the median
// of the anti-diagonal.
__device__ __forceinline__ void cswap(unsigned int &a, unsigned int &b) {
  unsigned int lo = a < b ? a : b;
  unsigned int hi = a < b ? b : a;
  a = lo;
  b = hi;
}
// GMEM-EXPECT: median3x3 conditional
// GMEM-RUN: median3x3 grid=16,16 block=16,16 args=buf:u8:65536:rand buf:u8:65536:zero i32:250 i32:240
// GMEM-RUN: median3x3 grid=1,2 block=32,8 args=buf:u8:400:rand buf:u8:400:zero i32:20 i32:20
__global__ void median3x3(const unsigned char *src, unsigned char *dst, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int xm = x > 0 ? x - 1 : 0, xp = x < width - 1 ? x + 1 : width - 1;
  int ym = y > 0 ? y - 1 : 0, yp = y < height - 1 ? y + 1 : height - 1;
  unsigned int a0 = src[ym * width + xm], a1 = src[ym * width + x], a2 = src[ym * width + xp];
  unsigned int b0 = src[y * width + xm], b1 = src[y * width + x], b2 = src[y * width + xp];
  unsigned int c0 = src[yp * width + xm], c1 = src[yp * width + x], c2 = src[yp * width + xp];
  // rows
  cswap(a0, a1); cswap(a1, a2); cswap(a0, a1);
  cswap(b0, b1); cswap(b1, b2); cswap(b0, b1);
  cswap(c0, c1); cswap(c1, c2); cswap(c0, c1);
  // columns
  cswap(a0, b0); cswap(b0, c0); cswap(a0, b0);
  cswap(a1, b1); cswap(b1, c1); cswap(a1, b1);
  cswap(a2, b2); cswap(b2, c2); cswap(a2, b2);
  // anti-diagonal a2, b1, c0
  cswap(a2, b1); cswap(b1, c0); cswap(a2, b1);
  dst[y * width + x] = (unsigned char)b1;
}

// Integral image, row pass: one thread per row turns the row into its
// inclusive prefix sum in place. pitch is in elements.
// GMEM-EXPECT: integral_rows_inplace non-idempotent
// GMEM-RUN: integral_rows_inplace grid=2 block=128 args=buf:u32:65536:randint:0:256 i32:200 i32:250 i32:256
// GMEM-RUN: integral_rows_inplace grid=4 block=32 args=buf:u32:2000:randint:0:256 i32:37 i32:50 i32:40
__global__ void integral_rows_inplace(unsigned int *img, int width, int height, int pitch) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= height) return;
  unsigned int *row = img + y * pitch;
  unsigned int run = 0;
  for (int x = 0; x < width; x++) {
    run += row[x];
    row[x] = run;
  }
}

// Integral image, column pass: one thread per column accumulates down the
// column in place.
// GMEM-EXPECT: integral_cols_inplace non-idempotent
// GMEM-RUN: integral_cols_inplace grid=2 block=128 args=buf:u32:65536:randint:0:256 i32:200 i32:250 i32:256
// GMEM-RUN: integral_cols_inplace grid=1 block=64 args=buf:u32:2000:randint:0:256 i32:37 i32:50 i32:40
__global__ void integral_cols_inplace(unsigned int *img, int width, int height, int pitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  for (int y = 1; y < height; y++)
    img[y * pitch + x] += img[(y - 1) * pitch + x];
}

// 3x3 box filter with a constant (zero) border in the OpenCV style: one
// unsigned compare per axis, (unsigned)x < (unsigned)width, rejects both
// negative and too-large coordinates. pitch is in elements.
// GMEM-EXPECT: box3x3_const_border conditional
// GMEM-RUN: box3x3_const_border grid=8,8 block=16,16 args=buf:f32:16384:rand buf:f32:16384:zero i32:120 i32:100 i32:128
// GMEM-RUN: box3x3_const_border grid=2,1 block=32,8 args=buf:f32:1000:rand buf:f32:1000:zero i32:45 i32:20 i32:50
__global__ void box3x3_const_border(const float *src, float *dst, int width, int height, int pitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float acc = 0.0f;
  for (int dy = -1; dy <= 1; dy++) {
    int yy = y + dy;
    if ((unsigned)yy >= (unsigned)height) continue;
    for (int dx = -1; dx <= 1; dx++) {
      int xx = x + dx;
      if ((unsigned)xx < (unsigned)width) acc += src[yy * pitch + xx];
    }
  }
  dst[y * pitch + x] = acc * (1.0f / 9.0f);
}

// Border fill in place (copyMakeBorder into a buffer allocated with the
// border, BORDER_REFLECT_101, left and right only): row y holds pad border
// pixels, width image pixels, pad border pixels. Thread k of row y copies
// column pad + 1 + k into pad - 1 - k and column pad + width - 2 - k into
// pad + width + k. With pad < width the columns read are image pixels and
// never written, so a re-run changes nothing; with pad >= width the
// reflected columns reach into the border written by other threads. Same
// buffer, value-dependent overlap: unknown. The instance has pad < width.
// GMEM-EXPECT: border_reflect101_inplace unknown
// GMEM-RUN: border_reflect101_inplace grid=1,64 block=32 args=buf:f32:13312:rand i32:200 i32:64 i32:4
// GMEM-RUN: border_reflect101_inplace grid=1,1 block=32 args=buf:f32:208:rand i32:200 i32:1 i32:4
__global__ void border_reflect101_inplace(float *img, int width, int height, int pad) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (k >= pad || y >= height) return;
  float *row = img + y * (width + 2 * pad);
  row[pad - 1 - k] = row[pad + 1 + k];
  row[pad + width + k] = row[pad + width - 2 - k];
}

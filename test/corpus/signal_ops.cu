// Signal-processing kernels shaped after cuFFT-like hand-written kernels
// and the CUDA samples' DSP examples: a 1024-point radix-2 FFT held in
// shared memory (one transform a block, bit-reversed load), a 1-D FIR
// filter whose taps come through a pointer and whose input tile carries a
// halo, an 8x8 DCT-II per block, overlap-add of frames into one output with
// atomics, and decimation by a runtime factor.

// Forward 1024-point complex FFT, one transform a block. Complex values
// are interleaved (re, im) floats in global memory and split into two
// shared arrays; the load scatters to bit-reversed positions, ten radix-2
// stages follow, and the result goes to a separate output. Any block size;
// blocks at or past nbatch do nothing. Thread t loads and stores the same
// elements, so with out == in each element is read and written by one
// thread (an FFT of an FFT is not the input).
#define FFT_N 1024
#define FFT_LOG2N 10
// GMEM-EXPECT: fft1024_radix2 conditional
// GMEM-RUN: fft1024_radix2 grid=16 block=512 args=buf:f32:32768:rand buf:f32:32768:zero i32:16
// GMEM-RUN: fft1024_radix2 grid=5 block=96 args=buf:f32:8192:rand buf:f32:8192:zero i32:3
// GMEM-RUN: fft1024_radix2 grid=4 block=256 args=buf:f32:8192:rand ptr:0+0 i32:4
__global__ void fft1024_radix2(const float *in, float *out, int nbatch) {
  __shared__ float s_re[FFT_N];
  __shared__ float s_im[FFT_N];
  if ((int)blockIdx.x >= nbatch) return;
  const float *src = in + (long long)blockIdx.x * (2 * FFT_N);
  float *dst = out + (long long)blockIdx.x * (2 * FFT_N);
  for (int i = threadIdx.x; i < FFT_N; i += blockDim.x) {
    unsigned int r = __brev((unsigned int)i) >> (32 - FFT_LOG2N);
    s_re[r] = src[2 * i];
    s_im[r] = src[2 * i + 1];
  }
  __syncthreads();
  for (int half = 1; half < FFT_N; half <<= 1) {
    for (int j = threadIdx.x; j < FFT_N / 2; j += blockDim.x) {
      int pos = j & (half - 1);
      int i0 = ((j - pos) << 1) + pos;
      int i1 = i0 + half;
      float sn, cs;
      __sincosf(-3.14159265f * (float)pos / (float)half, &sn, &cs);
      float br = s_re[i1] * cs - s_im[i1] * sn;
      float bi = s_re[i1] * sn + s_im[i1] * cs;
      float ar = s_re[i0], ai = s_im[i0];
      s_re[i0] = ar + br;
      s_im[i0] = ai + bi;
      s_re[i1] = ar - br;
      s_im[i1] = ai - bi;
    }
    __syncthreads();
  }
  for (int i = threadIdx.x; i < FFT_N; i += blockDim.x) {
    dst[2 * i] = s_re[i];
    dst[2 * i + 1] = s_im[i];
  }
}

// Causal FIR: y[i] = sum_k taps[k] * x[i - k] (x is 0 before the start).
// Each block produces FIR_TILE outputs; it stages those inputs plus the
// ntaps - 1 samples before them (the halo) and the taps in shared memory.
// ntaps is capped at FIR_MAXTAPS. With ntaps == 1, block=FIR_TILE and
// y == x, each sample is read and written by the same thread.
#define FIR_TILE 256
#define FIR_MAXTAPS 32
// GMEM-EXPECT: fir_halo conditional
// GMEM-RUN: fir_halo grid=40 block=256 args=buf:f32:10000:rand buf:f32:17:rand buf:f32:10000:zero i32:10000 i32:17
// GMEM-RUN: fir_halo grid=3 block=96 args=buf:f32:700:rand buf:f32:32:rand buf:f32:700:zero i32:700 i32:32
// GMEM-RUN: fir_halo grid=8 block=256 args=buf:f32:2000:rand buf:f32:1:const:0.5 ptr:0+0 i32:2000 i32:1
__global__ void fir_halo(const float *x, const float *taps, float *y, int n, int ntaps) {
  __shared__ float s_x[FIR_TILE + FIR_MAXTAPS - 1];
  __shared__ float s_h[FIR_MAXTAPS];
  const int nt = ntaps < FIR_MAXTAPS ? ntaps : FIR_MAXTAPS;
  const int base = blockIdx.x * FIR_TILE;
  for (int j = threadIdx.x; j < FIR_TILE + nt - 1; j += blockDim.x) {
    int g = base - (nt - 1) + j;
    s_x[j] = (g >= 0 && g < n) ? x[g] : 0.0f;
  }
  for (int k = threadIdx.x; k < nt; k += blockDim.x) s_h[k] = taps[k];
  __syncthreads();
  for (int j = threadIdx.x; j < FIR_TILE; j += blockDim.x) {
    int i = base + j;
    if (i < n) {
      float acc = 0.0f;
      for (int k = 0; k < nt; k++) acc += s_h[k] * s_x[j + nt - 1 - k];
      y[i] = acc;
    }
  }
}

// 8x8 DCT-II per block (block=8,8): the tile goes to shared memory, a row
// transform into a second shared tile, then a column transform straight to
// the output. Tiles past the image edge are zero-padded on load and not
// stored. Thread (tx, ty) loads and stores the same pixel.
// GMEM-EXPECT: dct8x8_shared conditional
// GMEM-RUN: dct8x8_shared grid=16,12 block=8,8 args=buf:f32:12288:rand buf:f32:12288:zero i32:128 i32:96
// GMEM-RUN: dct8x8_shared grid=3,4 block=8,8 args=buf:f32:1000:rand buf:f32:1000:zero i32:30 i32:30
// GMEM-RUN: dct8x8_shared grid=5,4 block=8,8 args=buf:f32:1200:rand ptr:0+0 i32:37 i32:30
__global__ void dct8x8_shared(const float *in, float *out, int width, int height) {
  __shared__ float tile[8][9];
  __shared__ float rows[8][9];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * 8 + tx;
  const int y = blockIdx.y * 8 + ty;
  const bool inside = x < width && y < height;
  tile[ty][tx] = inside ? in[y * width + x] : 0.0f;
  __syncthreads();
  const float pi16 = 3.14159265f / 16.0f;
  float cu = tx == 0 ? 0.35355339f : 0.5f;
  float acc = 0.0f;
  for (int k = 0; k < 8; k++) acc += tile[ty][k] * cosf((2 * k + 1) * tx * pi16);
  rows[ty][tx] = cu * acc;
  __syncthreads();
  float cv = ty == 0 ? 0.35355339f : 0.5f;
  acc = 0.0f;
  for (int k = 0; k < 8; k++) acc += rows[k][tx] * cosf((2 * k + 1) * ty * pi16);
  if (inside) out[y * width + x] = cv * acc;
}

// Overlap-add: frame f (frame_len samples, hop <= frame_len <= 2 * hop)
// lands at out[f * hop]. Block f adds the frame's head into its own
// segment and its tail into the head of segment f + 1, both with atomics
// because block f + 1 adds into the same samples.
// GMEM-EXPECT: overlap_add non-idempotent
// GMEM-RUN: overlap_add grid=64 block=128 args=buf:f32:32768:rand buf:f32:16640:zero i32:512 i32:256 i32:64
// GMEM-RUN: overlap_add grid=7 block=64 args=buf:f32:700:rand buf:f32:460:zero i32:100 i32:60 i32:7
__global__ void overlap_add(const float *frames, float *out, int frame_len, int hop, int nframes) {
  const int f = blockIdx.x;
  if (f >= nframes) return;
  const float *fr = frames + f * frame_len;
  for (int i = threadIdx.x; i < hop; i += blockDim.x)
    atomicAdd(&out[f * hop + i], fr[i]);
  for (int i = threadIdx.x; i < frame_len - hop; i += blockDim.x)
    atomicAdd(&out[(f + 1) * hop + i], fr[hop + i]);
}

// Decimation: out[i] = in[i * factor] for i < n_out.
// GMEM-EXPECT: decimate conditional
// GMEM-RUN: decimate grid=40 block=256 args=buf:f32:40000:rand buf:f32:10000:zero i32:10000 i32:4
// GMEM-RUN: decimate grid=2 block=96 args=buf:f32:3000:rand buf:f32:1000:zero i32:1000 i32:3
__global__ void decimate(const float *in, float *out, int n_out, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n_out) out[i] = in[i * factor];
}

// Kernels reading __constant__ memory (CUDA samples convolutionSeparable
// keeps its filter taps in constant memory).

__constant__ float c_window[16] = {
    0.0000f, 0.0432f, 0.1654f, 0.3455f, 0.5523f, 0.7500f, 0.9045f, 0.9891f,
    0.9891f, 0.9045f, 0.7500f, 0.5523f, 0.3455f, 0.1654f, 0.0432f, 0.0000f};

__constant__ float c_filter[9] = {0.05f, 0.09f, 0.12f, 0.15f, 0.18f, 0.15f, 0.12f, 0.09f, 0.05f};

// Tiles a window function over the output; reads only constant memory.
// GMEM-EXPECT: window_fill idempotent
// GMEM-RUN: window_fill grid=256 block=256 args=buf:f32:65536:rand f32:2.0 i32:65536
__global__ void window_fill(float *out, float gain, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = gain * c_window[i & 15];
}

// 9-tap 1D convolution with zero padding.
// GMEM-EXPECT: conv1d_constant conditional
// GMEM-RUN: conv1d_constant grid=391 block=256 args=buf:f32:100000:rand buf:f32:100000:zero i32:100000
__global__ void conv1d_constant(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int k = -4; k <= 4; k++) {
      int j = i + k;
      if (j >= 0 && j < n) s += c_filter[k + 4] * in[j];
    }
    out[i] = s;
  }
}

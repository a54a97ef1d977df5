// Kernels for libgmemrt's benchmarks (bench/runtime): 1, 4 and 8 pointer
// parameters, built with the gmem plugin so that the benchmarks evaluate
// the descriptors the real analysis produces.

// 1 pointer: fill.
__global__ void fill1(float *out, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = v;
}

// 4 pointers: out = a*x + y*z (conditional: out may alias an input).
__global__ void fma4(const float *x, const float *y, const float *z, float *out, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * x[i] + y[i] * z[i];
}

// 8 pointers: a 7-input reduction into one output, grid-stride loop.
__global__ void sum8(const float *a, const float *b, const float *c, const float *d,
                     const float *e, const float *f, const float *g, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = a[i] + b[i] + c[i] + d[i] + e[i] + f[i] + g[i];
}

// A 2D stencil with 2 pointers (five reads, one write).
__global__ void stencil2d(const float *in, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r > 0 && c > 0 && r < rows - 1 && c < cols - 1)
    out[r * cols + c] = 0.2f * (in[r * cols + c] + in[(r - 1) * cols + c] + in[(r + 1) * cols + c] +
                                in[r * cols + c - 1] + in[r * cols + c + 1]);
}

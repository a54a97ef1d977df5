// Grid-stride loop: the region is [0, 4*n) whatever the grid.
__global__ void scale(float *out, const float *in, float s, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = s * in[i];
}

// In place: reads and writes the same elements. Non-idempotent.
__global__ void scale_inplace(float *x, float s, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    x[i] *= s;
}

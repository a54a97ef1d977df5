// 256-bin byte histograms (CUDA samples histogram / Parboil histo style):
// atomics straight to global memory, and per-block privatised bins in shared
// memory merged with global atomics.  Also a float histogram with a computed
// bin index.

// GMEM-EXPECT: histogram_global non-idempotent
// GMEM-RUN: histogram_global grid=240 block=256 args=buf:u8:1000000:rand buf:u32:256:zero i32:1000000
__global__ void histogram_global(const unsigned char *data, unsigned int *bins, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&bins[data[i]], 1u);
}

// GMEM-EXPECT: histogram_shared non-idempotent
// GMEM-RUN: histogram_shared grid=120 block=512 args=buf:u8:1000000:rand buf:u32:256:zero i32:1000000
__global__ void histogram_shared(const unsigned char *data, unsigned int *bins, int n) {
  __shared__ unsigned int local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    if (local[b] != 0) atomicAdd(&bins[b], local[b]);
}

// Values in [center - half_width, center + half_width) go to nbins
// equal-width bins; outliers are clamped to the end bins.
// GMEM-EXPECT: histogram_float non-idempotent
// GMEM-RUN: histogram_float grid=391 block=256 args=buf:f32:100000:rand buf:i32:64:zero i32:64 f32:0.0 f32:1.0 i32:100000
__global__ void histogram_float(const float *x, int *bins, int nbins, float center, float half_width, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float lo = center - half_width;
    int b = (int)((x[i] - lo) / (2.0f * half_width) * (float)nbins);
    b = b < 0 ? 0 : (b >= nbins ? nbins - 1 : b);
    atomicAdd(&bins[b], 1);
  }
}

// Kernels that generate data without reading global memory: a counter-based
// hash RNG init (curand-style seeding) and a lookup table built in shared memory.

// GMEM-EXPECT: hash_init idempotent
// GMEM-RUN: hash_init grid=512 block=256 args=buf:u32:131072:zero u32:12345 i32:131072
__global__ void hash_init(unsigned int *out, unsigned int seed, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned int h = (unsigned int)i * 747796405u + seed;
    h = ((h >> ((h >> 28u) + 4u)) ^ h) * 277803737u;
    h = (h >> 22u) ^ h;
    out[i] = h;
  }
}

// Each block builds a 256-entry sine table in shared memory, then writes out.
// GMEM-EXPECT: lut_shared idempotent
// GMEM-RUN: lut_shared grid=400 block=128 args=buf:f32:51200:rand i32:51200
__global__ void lut_shared(float *out, int n) {
  __shared__ float table[256];
  for (int t = threadIdx.x; t < 256; t += blockDim.x) {
    table[t] = __sinf((float)t * (6.2831853f / 256.0f));
  }
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = table[(i * 7) & 255];
}

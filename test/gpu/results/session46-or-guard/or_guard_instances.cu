// GMEM-EXPECT: tile64 conditional
// GMEM-RUN: tile64 grid=4,4 block=32,32 args=buf:f32:4096:zero buf:f32:4096:rand
// GMEM-RUN: tile64 grid=1,1 block=32,32 args=buf:f32:4096:zero buf:f32:4096:rand
__global__ void tile64(float *out, const float *in) {
  unsigned x = blockDim.x * blockIdx.x + threadIdx.x, y = blockDim.y * blockIdx.y + threadIdx.y;
  if (x < 64 && y < 64)
    out[y * 64 + x] = in[x * 64 + y];
}
// GMEM-EXPECT: three idempotent
// GMEM-RUN: three grid=4 block=64 args=buf:f32:128:zero u32:5 u32:7
// GMEM-RUN: three grid=4 block=64 args=buf:f32:128:zero u32:5 u32:200
__global__ void three(float *out, unsigned a, unsigned b) {
  unsigned x = blockDim.x * blockIdx.x + threadIdx.x;
  if (x < 128 && a < 128 && b < 128)
    out[x] = 1.0f;
}
// GMEM-EXPECT: early_exit idempotent
// GMEM-RUN: early_exit grid=3,5 block=32,16 args=buf:f32:4096:rand
__global__ void early_exit(float *out) {
  unsigned x = blockDim.x * blockIdx.x + threadIdx.x, y = blockDim.y * blockIdx.y + threadIdx.y;
  if (x >= 64 || y >= 64)
    return;
  out[y * 64 + x] = 0.0f;
}
// GMEM-EXPECT: signed_pair idempotent
// GMEM-RUN: signed_pair grid=2 block=64 args=buf:f32:160:rand i32:10
__global__ void signed_pair(float *out, int a) {
  int x = blockDim.x * blockIdx.x + threadIdx.x;
  if (x < 64 && a < 64)
    out[x + a] = 1.0f;
}
// Nested or with an offset: (x | y | z) < 32 over a 3-D launch.
// GMEM-EXPECT: cube32 conditional
// GMEM-RUN: cube32 grid=2,2,2 block=32,4,4 args=buf:f32:32768:zero buf:f32:32768:rand
__global__ void cube32(float *out, const float *in) {
  unsigned x = blockDim.x * blockIdx.x + threadIdx.x, y = blockDim.y * blockIdx.y + threadIdx.y,
           z = blockDim.z * blockIdx.z + threadIdx.z;
  if (x < 32 && y < 32 && z < 32)
    out[(z * 32 + y) * 32 + x] = in[(x * 32 + y) * 32 + z] + 1.0f;
}

// Copy kernels: vectorised float4 copy (bandwidth tests in SHOC / CUDA
// samples) and a strided gather-copy (column extraction).

// GMEM-EXPECT: copy_vec4 conditional
// GMEM-RUN: copy_vec4 grid=256 block=256 args=buf:f32:1048576:rand buf:f32:1048576:zero i32:262144
__global__ void copy_vec4(const float4 *in, float4 *out, int n4) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
    out[i] = in[i];
  }
}

// out[i] = in[i * stride + offset]
// GMEM-EXPECT: strided_copy conditional
// GMEM-RUN: strided_copy grid=40 block=256 args=buf:f32:160000:rand buf:f32:10000:zero i32:10000 i32:16 i32:3
__global__ void strided_copy(const float *in, float *out, int n, int stride, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i * stride + offset];
}

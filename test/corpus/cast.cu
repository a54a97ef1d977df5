// Type-conversion kernels (torch .to(dtype) / TVM cast).

// float -> int with scaling and round-to-nearest.
// GMEM-EXPECT: cast_f32_to_i32 conditional
// GMEM-RUN: cast_f32_to_i32 grid=1024 block=256 args=buf:f32:262144:rand buf:i32:262144:zero f32:100.0 i32:262144
// GMEM-RUN: cast_f32_to_i32 grid=1024 block=256 args=buf:f32:262144:rand ptr:0+0 f32:100.0 i32:262144
__global__ void cast_f32_to_i32(const float *in, int *out, float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float2int_rn(in[i] * scale);
}

// uint8 image -> normalized float (ToTensor-like).
// GMEM-EXPECT: cast_u8_to_f32 conditional
// GMEM-RUN: cast_u8_to_f32 grid=768 block=256 args=buf:u8:196608:rand buf:f32:196608:zero f32:0.00392156862 i32:196608
__global__ void cast_u8_to_f32(const unsigned char *in, float *out, float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (float)in[i] * scale;
}

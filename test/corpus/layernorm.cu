// LayerNorm forward, one warp per row (as in Apex/OneFlow fused layer norm
// for short rows): two-pass mean/variance with warp shuffles, then
// y = (x - mean) * rstd * gamma + beta.  Launch with block=32,R.

// GMEM-EXPECT: layernorm_rows conditional
// GMEM-RUN: layernorm_rows grid=256 block=32,4 args=buf:f32:786432:rand buf:f32:786432:zero buf:f32:768:rand buf:f32:768:rand i32:1024 i32:768 f32:0.00001
// GMEM-RUN: layernorm_rows grid=256 block=32,4 args=buf:f32:786432:rand ptr:0+0 buf:f32:768:rand buf:f32:768:rand i32:1024 i32:768 f32:0.00001
__global__ void layernorm_rows(const float *in, float *out, const float *gamma, const float *beta,
                               int rows, int cols, float eps) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  int lane = threadIdx.x;
  if (row >= rows) return;
  const float *x = in + (size_t)row * cols;
  float *y = out + (size_t)row * cols;

  float sum = 0.0f;
  for (int c = lane; c < cols; c += 32) sum += x[c];
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  float mean = sum / (float)cols;

  float var = 0.0f;
  for (int c = lane; c < cols; c += 32) {
    float d = x[c] - mean;
    var += d * d;
  }
  for (int o = 16; o > 0; o >>= 1) var += __shfl_xor_sync(0xffffffffu, var, o);
  float rstd = rsqrtf(var / (float)cols + eps);

  for (int c = lane; c < cols; c += 32)
    y[c] = (x[c] - mean) * rstd * gamma[c] + beta[c];
}

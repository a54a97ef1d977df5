// Row-wise softmax, one block per row (PyTorch/Apex-style "block softmax"):
// block max, block sum of exponentials, then the normalised write.
// Launch with a power-of-two blockDim.x <= 1024 and gridDim.x >= rows.

// GMEM-EXPECT: softmax_rows conditional
// GMEM-RUN: softmax_rows grid=512 block=256 args=buf:f32:512000:rand buf:f32:512000:zero i32:512 i32:1000
// GMEM-RUN: softmax_rows grid=512 block=256 args=buf:f32:512000:rand ptr:0+0 i32:512 i32:1000
__global__ void softmax_rows(const float *in, float *out, int rows, int cols) {
  __shared__ float red[1024];
  int row = blockIdx.x;
  if (row >= rows) return;
  int tid = threadIdx.x;
  const float *x = in + (size_t)row * cols;
  float *y = out + (size_t)row * cols;

  float m = -3.402823466e38f;
  for (int c = tid; c < cols; c += blockDim.x) m = fmaxf(m, x[c]);
  red[tid] = m;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] = fmaxf(red[tid], red[tid + s]);
    __syncthreads();
  }
  float row_max = red[0];
  __syncthreads();

  float sum = 0.0f;
  for (int c = tid; c < cols; c += blockDim.x) sum += __expf(x[c] - row_max);
  red[tid] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) red[tid] += red[tid + s];
    __syncthreads();
  }
  float inv = 1.0f / red[0];

  for (int c = tid; c < cols; c += blockDim.x) y[c] = __expf(x[c] - row_max) * inv;
}

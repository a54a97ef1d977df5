// Activation functions as generated for PyTorch/TVM element-wise ops.

// GMEM-EXPECT: relu conditional
// GMEM-RUN: relu grid=2048 block=512 args=buf:f32:1048576:rand buf:f32:1048576:zero i32:1048576
__global__ void relu(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

// tanh approximation of GELU (as in BERT / torch.nn.functional.gelu(approximate='tanh')).
// GMEM-EXPECT: gelu_tanh conditional
// GMEM-RUN: gelu_tanh grid=977 block=256 args=buf:f32:250000:rand buf:f32:250000:zero i32:250000
// GMEM-RUN: gelu_tanh grid=977 block=256 args=buf:f32:250000:rand ptr:0+0 i32:250000
__global__ void gelu_tanh(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = in[i];
    float inner = 0.7978845608f * (x + 0.044715f * x * x * x);
    out[i] = 0.5f * x * (1.0f + tanhf(inner));
  }
}

// In-place sigmoid: x[i] = 1 / (1 + exp(-x[i])).
// GMEM-EXPECT: sigmoid_inplace non-idempotent
// GMEM-RUN: sigmoid_inplace grid=245 block=1024 args=buf:f32:250000:rand i32:250000
__global__ void sigmoid_inplace(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 1.0f / (1.0f + __expf(-x[i]));
}

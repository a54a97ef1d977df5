// Fused optimizer steps as in PyTorch's fused/foreach Adam and SGD kernels:
// parameters and optimizer state are updated in place.

// GMEM-EXPECT: adam_step non-idempotent
// GMEM-RUN: adam_step grid=1024 block=256 args=buf:f32:262144:rand buf:f32:262144:rand buf:f32:262144:zero buf:f32:262144:zero f32:0.001 f32:0.9 f32:0.999 f32:0.00000001 f32:0.1 f32:0.001 i32:262144
__global__ void adam_step(float *param, const float *grad, float *exp_avg, float *exp_avg_sq,
                          float lr, float beta1, float beta2, float eps,
                          float bias_correction1, float bias_correction2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float g = grad[i];
    float m = beta1 * exp_avg[i] + (1.0f - beta1) * g;
    float v = beta2 * exp_avg_sq[i] + (1.0f - beta2) * g * g;
    exp_avg[i] = m;
    exp_avg_sq[i] = v;
    float denom = sqrtf(v / bias_correction2) + eps;
    param[i] -= lr * (m / bias_correction1) / denom;
  }
}

// GMEM-EXPECT: sgd_momentum non-idempotent
// GMEM-RUN: sgd_momentum grid=1024 block=256 args=buf:f32:262144:rand buf:f32:262144:zero buf:f32:262144:rand f32:0.01 f32:0.9 f32:0.0001 i32:262144
__global__ void sgd_momentum(float *param, float *momentum_buf, const float *grad,
                             float lr, float momentum, float weight_decay, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float p = param[i];
    float d = grad[i] + weight_decay * p;
    float buf = momentum * momentum_buf[i] + d;
    momentum_buf[i] = buf;
    param[i] = p - lr * buf;
  }
}

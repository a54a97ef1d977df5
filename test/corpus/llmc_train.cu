// Training kernels in the style of llm.c's CUDA code (written for this
// corpus, not copied): an embedding gather by token, a warp-per-row
// layernorm through cooperative groups' reduce with streaming loads and
// stores (__ldcs / __stcs), the attention input permute, a fused softmax +
// cross-entropy that overwrites its logits with their gradient, and a bias
// gradient accumulated into its output.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// out[b, t, :] = wte[inp[b, t], :] + wpe[t, :]: a gather by loaded token.
// GMEM-EXPECT: encoder_forward conditional
// GMEM-RUN: encoder_forward grid=64 block=256 args=buf:f32:16384:zero buf:i32:64:randint:0:50 buf:f32:12800:rand buf:f32:8192:rand i32:2 i32:32 i32:256
__global__ void encoder_forward(float *out, const int *inp, const float *wte, const float *wpe,
                                int B, int T, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * T * C) {
    int bt = idx / C;
    int t = bt % T;
    int c = idx % C;
    out[idx] = wte[inp[bt] * C + c] + wpe[t * C + c];
  }
}

// One warp per row of C floats: mean and rstd saved for the backward pass.
// GMEM-EXPECT: layernorm_forward conditional
// GMEM-RUN: layernorm_forward grid=16 block=128 args=buf:f32:38400:zero buf:f32:64:zero buf:f32:64:zero buf:f32:38400:rand buf:f32:600:rand buf:f32:600:rand i32:64 i32:600
// GMEM-RUN: layernorm_forward grid=4 block=64 args=buf:f32:800:zero buf:f32:8:zero buf:f32:8:zero buf:f32:800:rand buf:f32:100:rand buf:f32:100:rand i32:8 i32:100
__global__ void layernorm_forward(float *__restrict__ out, float *__restrict__ mean,
                                  float *__restrict__ rstd, const float *__restrict__ inp,
                                  const float *__restrict__ weight, const float *__restrict__ bias,
                                  int N, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (idx >= N)
    return;
  const float *x = inp + idx * C;
  float sum = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size())
    sum += x[i];
  float m = cg::reduce(warp, sum, cg::plus<float>{}) / C;
  if (warp.thread_rank() == 0)
    mean[idx] = m;
  sum = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) {
    float d = x[i] - m;
    sum += d * d;
  }
  float s = rsqrtf(cg::reduce(warp, sum, cg::plus<float>{}) / C + 1e-5f);
  if (warp.thread_rank() == 0)
    rstd[idx] = s;
  float *o = out + idx * C;
  for (int c = warp.thread_rank(); c < C; c += warp.size())
    __stcs(o + c, s * (__ldcs(x + c) - m) * weight[c] + bias[c]);
}

// qkv (B, N, 3, NH, d) -> q, k, v (B, NH, N, d).
// GMEM-EXPECT: permute_qkv conditional
// GMEM-RUN: permute_qkv grid=32 block=256 args=buf:f32:8192:zero buf:f32:8192:zero buf:f32:8192:zero buf:f32:24576:rand i32:2 i32:64 i32:4 i32:16
__global__ void permute_qkv(float *q, float *k, float *v, const float *inp, int B, int N, int NH,
                            int d) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < B * NH * N * d) {
    int b = idx / (NH * N * d);
    int rest = idx % (NH * N * d);
    int nh = rest / (N * d);
    rest = rest % (N * d);
    int n = rest / d;
    int dd = rest % d;
    int in = b * N * 3 * NH * d + n * 3 * NH * d + nh * d + dd;
    q[idx] = __ldcs(&inp[in]);
    k[idx] = __ldcs(&inp[in + NH * d]);
    v[idx] = __ldcs(&inp[in + 2 * NH * d]);
  }
}

// One CTA per row of V logits (row pitch P): loss, then the logits
// replaced by their gradient, in place.
// GMEM-EXPECT: fused_classifier non-idempotent
// GMEM-RUN: fused_classifier grid=16 block=128 args=buf:f32:16384:rand buf:f32:16:zero buf:f32:16:rand buf:i32:16:randint:0:1000 i32:16 i32:1000 i32:1024
__global__ void fused_classifier(float *logits, float *losses, const float *dlosses,
                                 const int *targets, int BT, int V, int P) {
  __shared__ float sh[32];
  int row = blockIdx.x;
  const float *x = logits + (size_t)row * P;
  float mx = -1e30f;
  for (int i = threadIdx.x; i < V; i += blockDim.x)
    mx = fmaxf(mx, x[i]);
  for (int o = 16; o > 0; o >>= 1)
    mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
  if (threadIdx.x % 32 == 0)
    sh[threadIdx.x / 32] = mx;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < blockDim.x / 32; ++w)
      sh[0] = fmaxf(sh[0], sh[w]);
  }
  __syncthreads();
  float m = sh[0];
  __syncthreads();
  float s = 0.f;
  for (int i = threadIdx.x; i < V; i += blockDim.x)
    s += expf(x[i] - m);
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_xor_sync(0xffffffffu, s, o);
  if (threadIdx.x % 32 == 0)
    sh[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < blockDim.x / 32; ++w)
      sh[0] += sh[w];
  }
  __syncthreads();
  float sum = sh[0];
  int ix = targets[row];
  float dl = dlosses[row];
  if (threadIdx.x == 0)
    losses[row] = logf(sum) + m - x[ix];
  __syncthreads();
  for (int i = threadIdx.x; i < V; i += blockDim.x)
    logits[(size_t)row * P + i] = (expf(x[i] - m) / sum - (i == ix ? 1.0f : 0.0f)) * dl;
}

// dbias[o] += sum over rows of dout[row, o]: one CTA per output column.
// GMEM-EXPECT: matmul_backward_bias non-idempotent
// GMEM-RUN: matmul_backward_bias grid=96 block=128 args=buf:f32:96:rand buf:f32:24576:rand i32:4 i32:64 i32:96
__global__ void matmul_backward_bias(float *dbias, const float *dout, int B, int T, int OC) {
  int o = blockIdx.x;
  float sum = 0.0f;
  for (int i = threadIdx.x; i < B * T; i += blockDim.x)
    sum += dout[i * OC + o];
  __shared__ float part[128];
  part[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s >= 1; s /= 2) {
    if (threadIdx.x < s)
      part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    dbias[o] += part[0];
}

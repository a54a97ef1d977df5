// LLM quantisation, sampling and loss kernels, shaped after the kinds of
// kernel in llama.cpp / bitsandbytes / vLLM / PyTorch: per-row symmetric int8
// quantisation (absmax block reduction), an int4 weight-only GEMV with two
// 4-bit weights per byte and a scale per group, per-row top-k with K small
// (per-thread insertion lists merged by one thread through shared memory),
// and a fused cross-entropy forward/backward (per-row logsumexp, loss per
// row, gradient softmax - onehot).
// Launch the block-per-row kernels with blockDim.x a multiple of 32.

#define Q_NEG_INF __int_as_float(0xff800000)

__device__ __forceinline__ float q_warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

__device__ __forceinline__ float q_warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// Max over the block, returned to every thread. red holds 33 floats.
__device__ float q_block_max(float v, float *red) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int nwarps = (blockDim.x + 31) >> 5;
  v = q_warp_max(v);
  if (lane == 0) red[warp] = v;
  __syncthreads();
  if (warp == 0) {
    float t = lane < nwarps ? red[lane] : Q_NEG_INF;
    t = q_warp_max(t);
    if (lane == 0) red[32] = t;
  }
  __syncthreads();
  float r = red[32];
  __syncthreads();
  return r;
}

// Sum over the block, returned to every thread. red holds 33 floats.
__device__ float q_block_sum(float v, float *red) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  int nwarps = (blockDim.x + 31) >> 5;
  v = q_warp_sum(v);
  if (lane == 0) red[warp] = v;
  __syncthreads();
  if (warp == 0) {
    float t = lane < nwarps ? red[lane] : 0.0f;
    t = q_warp_sum(t);
    if (lane == 0) red[32] = t;
  }
  __syncthreads();
  float r = red[32];
  __syncthreads();
  return r;
}

// out[r][c] = round(in[r][c] * 127 / absmax(in[r])), scales[r] = absmax / 127.
// One block per row.
// GMEM-EXPECT: quantize_rows_int8 conditional
// GMEM-RUN: quantize_rows_int8 grid=512 block=256 args=buf:f32:524288:rand buf:i8:524288:zero buf:f32:512:zero i32:512 i32:1024
// GMEM-RUN: quantize_rows_int8 grid=100 block=96 args=buf:f32:30000:rand buf:i8:30000:zero buf:f32:100:zero i32:100 i32:300
__global__ void quantize_rows_int8(const float *in, signed char *out, float *scales, int rows, int cols) {
  __shared__ float red[33];
  int row = blockIdx.x;
  if (row >= rows) return;
  const float *x = in + (size_t)row * cols;
  signed char *y = out + (size_t)row * cols;
  float amax = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) amax = fmaxf(amax, fabsf(x[c]));
  amax = q_block_max(amax, red);
  float inv = amax > 0.0f ? 127.0f / amax : 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    int qv = __float2int_rn(x[c] * inv);
    qv = max(-127, min(127, qv));
    y[c] = (signed char)qv;
  }
  if (threadIdx.x == 0) scales[row] = amax / 127.0f;
}

// y[r] = sum_c dequant(w[r][c]) * x[c]. Row r of wq holds cols/2 bytes, the
// low nibble is column 2b, the high nibble column 2b+1, both offset by 8.
// scales[r][g] scales the group of group_size columns g. One warp per row:
// launch with block=32,R. cols is even and a multiple of group_size.
// GMEM-EXPECT: dequant_int4_gemv conditional
// GMEM-RUN: dequant_int4_gemv grid=256 block=32,8 args=buf:u8:1048576:randint:0:256 buf:f32:16384:rand buf:f32:1024:rand buf:f32:2048:zero i32:2048 i32:1024 i32:128
// GMEM-RUN: dequant_int4_gemv grid=25 block=32,4 args=buf:u8:76800:randint:0:256 buf:f32:9600:rand buf:f32:1536:rand buf:f32:100:zero i32:100 i32:1536 i32:16
__global__ void dequant_int4_gemv(const unsigned char *wq, const float *scales, const float *x, float *y,
                                  int rows, int cols, int group_size) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  int lane = threadIdx.x;
  if (row >= rows) return;
  int nbytes = cols / 2;
  int ngroups = cols / group_size;
  const unsigned char *wr = wq + (size_t)row * nbytes;
  const float *sr = scales + (size_t)row * ngroups;
  float acc = 0.0f;
  for (int b = lane; b < nbytes; b += 32) {
    unsigned int v = wr[b];
    int c = 2 * b;
    float s = sr[c / group_size];
    float w0 = (float)((int)(v & 15u) - 8);
    float w1 = (float)((int)(v >> 4) - 8);
    acc += s * (w0 * x[c] + w1 * x[c + 1]);
  }
  acc = q_warp_sum(acc);
  if (lane == 0) y[row] = acc;
}

// Top-K values and indices of every row, K small. Each thread keeps its K
// best in a sorted register list (insertion), the lists go to shared memory
// and thread 0 merges them. Ties keep the earlier candidate. One block per
// row, blockDim.x <= 256.
template <int K>
__global__ void topk_rows(const float *in, float *vals, int *idx, int rows, int cols) {
  __shared__ float sv[256 * K];
  __shared__ int si[256 * K];
  int row = blockIdx.x;
  if (row >= rows) return;
  int tid = threadIdx.x;
  const float *x = in + (size_t)row * cols;
  float v[K];
  int id[K];
  for (int k = 0; k < K; ++k) {
    v[k] = Q_NEG_INF;
    id[k] = -1;
  }
  for (int c = tid; c < cols; c += blockDim.x) {
    float e = x[c];
    if (e > v[K - 1]) {
      int p = K - 1;
      while (p > 0 && e > v[p - 1]) {
        v[p] = v[p - 1];
        id[p] = id[p - 1];
        --p;
      }
      v[p] = e;
      id[p] = c;
    }
  }
  for (int k = 0; k < K; ++k) {
    sv[tid * K + k] = v[k];
    si[tid * K + k] = id[k];
  }
  __syncthreads();
  if (tid == 0) {
    float bv[K];
    int bi[K];
    for (int k = 0; k < K; ++k) {
      bv[k] = Q_NEG_INF;
      bi[k] = -1;
    }
    int n = blockDim.x * K;
    for (int j = 0; j < n; ++j) {
      float e = sv[j];
      int ei = si[j];
      if (ei < 0 || !(e > bv[K - 1])) continue;
      int p = K - 1;
      while (p > 0 && e > bv[p - 1]) {
        bv[p] = bv[p - 1];
        bi[p] = bi[p - 1];
        --p;
      }
      bv[p] = e;
      bi[p] = ei;
    }
    for (int k = 0; k < K; ++k) {
      vals[(size_t)row * K + k] = bv[k];
      idx[(size_t)row * K + k] = bi[k];
    }
  }
}

// GMEM-EXPECT: topk_rows<4> conditional
// GMEM-RUN: topk_rows<4> grid=1024 block=128 args=buf:f32:524288:rand buf:f32:4096:zero buf:i32:4096:zero i32:1024 i32:512
// GMEM-RUN: topk_rows<4> grid=64 block=256 args=buf:f32:64000:rand buf:f32:256:zero buf:i32:256:zero i32:64 i32:1000
template __global__ void topk_rows<4>(const float *, float *, int *, int, int);

// Cross-entropy over a vocabulary, forward and backward in one pass per row:
// loss[r] = logsumexp(logits[r]) - logits[r][t], grad[r][c] = softmax - (c == t)
// with t = targets[r]; rows whose target is ignore_index get loss 0 and grad 0.
// Thread 0 reads the target logit before the first block reduction, so the
// aliasing instance (grad written over logits, as in-place loss kernels do)
// has every logit read by its writer or before the first barrier.
// GMEM-EXPECT: cross_entropy_fwd_bwd conditional
// GMEM-RUN: cross_entropy_fwd_bwd grid=256 block=256 args=buf:f32:524288:rand buf:i32:256:randint:0:2048 buf:f32:256:zero buf:f32:524288:zero i32:256 i32:2048 i32:-100
// GMEM-RUN: cross_entropy_fwd_bwd grid=128 block=128 args=buf:f32:128000:rand buf:i32:128:randint:-1:1000 buf:f32:128:zero buf:f32:128000:zero i32:128 i32:1000 i32:-1
// GMEM-RUN: cross_entropy_fwd_bwd grid=256 block=256 args=buf:f32:524288:rand buf:i32:256:randint:0:2048 buf:f32:256:zero ptr:0+0 i32:256 i32:2048 i32:-100
__global__ void cross_entropy_fwd_bwd(const float *logits, const int *targets, float *loss, float *grad,
                                      int rows, int vocab, int ignore_index) {
  __shared__ float red[33];
  __shared__ float target_logit;
  int row = blockIdx.x;
  if (row >= rows) return;
  const float *x = logits + (size_t)row * vocab;
  float *g = grad + (size_t)row * vocab;
  int t = targets[row];
  bool valid = t != ignore_index && t >= 0 && t < vocab;
  if (threadIdx.x == 0) target_logit = valid ? x[t] : 0.0f;

  float m = Q_NEG_INF;
  for (int c = threadIdx.x; c < vocab; c += blockDim.x) m = fmaxf(m, x[c]);
  m = q_block_max(m, red);
  float s = 0.0f;
  for (int c = threadIdx.x; c < vocab; c += blockDim.x) s += __expf(x[c] - m);
  s = q_block_sum(s, red);
  float lse = m + __logf(s);
  if (threadIdx.x == 0) loss[row] = valid ? lse - target_logit : 0.0f;
  float inv = 1.0f / s;
  for (int c = threadIdx.x; c < vocab; c += blockDim.x) {
    float p = __expf(x[c] - m) * inv;
    if (c == t) p -= 1.0f;
    g[c] = valid ? p : 0.0f;
  }
}

// Sampling penalties in place (vLLM/HF repetition, frequency and presence
// penalties): counts[r][v] is how often token v was generated in sequence r.
// Every penalised logit is read and rewritten by its own thread.
// GMEM-EXPECT: apply_token_penalties non-idempotent
// GMEM-RUN: apply_token_penalties grid=64 block=256 args=buf:f32:256000:rand buf:i32:256000:randint:0:3 i32:64 i32:4000 f32:1.2 f32:0.1 f32:0.05
__global__ void apply_token_penalties(float *logits, const int *counts, int rows, int vocab, float repetition,
                                      float frequency, float presence) {
  int row = blockIdx.x;
  if (row >= rows) return;
  float *l = logits + (size_t)row * vocab;
  const int *cnt = counts + (size_t)row * vocab;
  for (int v = threadIdx.x; v < vocab; v += blockDim.x) {
    int c = cnt[v];
    if (c == 0) continue;
    float x = l[v];
    x = x > 0.0f ? x / repetition : x * repetition;
    l[v] = x - frequency * (float)c - presence;
  }
}

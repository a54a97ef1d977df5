// LLM inference normalisation and rotary-embedding kernels, shaped after the
// kinds of kernel in vLLM / llama.cpp / FasterTransformer: RMSNorm (one block
// per row, warp shuffles then a shared-memory combine across warps), rotary
// position embedding applied in place to q and k (GPT-J interleaved pairs) or
// out of place (GPT-NeoX rotate-half pairs), and the fused residual add +
// RMSNorm that keeps the running residual in place.
// Launch the block-per-row kernels with blockDim.x a multiple of 32, <= 1024.

__device__ __forceinline__ float nr_warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// Sum over the block, returned to every thread. red holds 33 floats.
__device__ float nr_block_sum(float v, float *red) {
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x >> 5;
  int nwarps = (blockDim.x + 31) >> 5;
  v = nr_warp_sum(v);
  if (lane == 0) red[warp] = v;
  __syncthreads();
  if (warp == 0) {
    float t = lane < nwarps ? red[lane] : 0.0f;
    t = nr_warp_sum(t);
    if (lane == 0) red[32] = t;
  }
  __syncthreads();
  float r = red[32];
  __syncthreads();
  return r;
}

// out[r][i] = in[r][i] * rsqrt(mean(in[r]^2) + eps) * weight[i]
// The aliasing instance normalises in place: every element is read (in both
// passes) and written by the same thread, so a second run rescales it again.
// GMEM-EXPECT: rms_norm conditional
// GMEM-RUN: rms_norm grid=512 block=256 args=buf:f32:524288:rand buf:f32:1024:rand buf:f32:524288:zero i32:512 i32:1024 f32:0.000001
// GMEM-RUN: rms_norm grid=64 block=128 args=buf:f32:65536:rand buf:f32:1000:rand buf:f32:65536:zero i32:64 i32:1000 f32:0.000001
// GMEM-RUN: rms_norm grid=512 block=256 args=buf:f32:524288:rand buf:f32:1024:rand ptr:0+0 i32:512 i32:1024 f32:0.000001
__global__ void rms_norm(const float *in, const float *weight, float *out, int rows, int hidden, float eps) {
  __shared__ float red[33];
  int row = blockIdx.x;
  if (row >= rows) return;
  const float *x = in + (size_t)row * hidden;
  float *y = out + (size_t)row * hidden;
  float ss = 0.0f;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    float v = x[i];
    ss += v * v;
  }
  ss = nr_block_sum(ss, red);
  float inv = rsqrtf(ss / (float)hidden + eps);
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) y[i] = x[i] * inv * weight[i];
}

// The same RMSNorm with 16-byte vector loads and stores (as vectorised
// inference kernels do); hidden is a multiple of 4 and the rows 16-byte aligned.
// GMEM-EXPECT: rms_norm_vec4 conditional
// GMEM-RUN: rms_norm_vec4 grid=256 block=128 args=buf:f32:262144:rand buf:f32:1024:rand buf:f32:262144:zero i32:256 i32:1024 f32:0.000001
// GMEM-RUN: rms_norm_vec4 grid=256 block=128 args=buf:f32:262144:rand buf:f32:1024:rand ptr:0+0 i32:256 i32:1024 f32:0.000001
__global__ void rms_norm_vec4(const float *in, const float *weight, float *out, int rows, int hidden, float eps) {
  __shared__ float red[33];
  int row = blockIdx.x;
  if (row >= rows) return;
  int n4 = hidden / 4;
  const float4 *x = reinterpret_cast<const float4 *>(in + (size_t)row * hidden);
  const float4 *w = reinterpret_cast<const float4 *>(weight);
  float4 *y = reinterpret_cast<float4 *>(out + (size_t)row * hidden);
  float ss = 0.0f;
  for (int i = threadIdx.x; i < n4; i += blockDim.x) {
    float4 v = x[i];
    ss += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
  }
  ss = nr_block_sum(ss, red);
  float inv = rsqrtf(ss / (float)hidden + eps);
  for (int i = threadIdx.x; i < n4; i += blockDim.x) {
    float4 v = x[i], g = w[i];
    y[i] = make_float4(v.x * inv * g.x, v.y * inv * g.y, v.z * inv * g.z, v.w * inv * g.w);
  }
}

// residual[r] += input[r]; out[r] = RMSNorm(residual[r]) * weight.
// The sum is stored back into residual and read back by the same thread for
// the normalised write: residual grows by input on every launch.
// GMEM-EXPECT: fused_add_rms_norm non-idempotent
// GMEM-RUN: fused_add_rms_norm grid=256 block=256 args=buf:f32:262144:rand buf:f32:262144:rand buf:f32:1024:rand buf:f32:262144:zero i32:256 i32:1024 f32:0.000001
__global__ void fused_add_rms_norm(const float *input, float *residual, const float *weight, float *out,
                                   int rows, int hidden, float eps) {
  __shared__ float red[33];
  int row = blockIdx.x;
  if (row >= rows) return;
  const float *x = input + (size_t)row * hidden;
  float *res = residual + (size_t)row * hidden;
  float ss = 0.0f;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    float r = x[i] + res[i];
    res[i] = r;
    ss += r * r;
  }
  ss = nr_block_sum(ss, red);
  float inv = rsqrtf(ss / (float)hidden + eps);
  float *y = out + (size_t)row * hidden;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) y[i] = res[i] * inv * weight[i];
}

// vLLM's in-place form: residual = input + residual, input = RMSNorm(residual).
// Both buffers are read and overwritten.
// GMEM-EXPECT: fused_add_rms_norm_inplace non-idempotent
// GMEM-RUN: fused_add_rms_norm_inplace grid=256 block=128 args=buf:f32:196608:rand buf:f32:196608:rand buf:f32:768:rand i32:256 i32:768 f32:0.00001
__global__ void fused_add_rms_norm_inplace(float *input, float *residual, const float *weight, int rows,
                                           int hidden, float eps) {
  __shared__ float red[33];
  int row = blockIdx.x;
  if (row >= rows) return;
  float *x = input + (size_t)row * hidden;
  float *res = residual + (size_t)row * hidden;
  float ss = 0.0f;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    float r = x[i] + res[i];
    res[i] = r;
    ss += r * r;
  }
  ss = nr_block_sum(ss, red);
  float inv = rsqrtf(ss / (float)hidden + eps);
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) x[i] = res[i] * inv * weight[i];
}

// Rotary embedding, GPT-J style, in place. One block per token. The
// cos/sin cache row of a position holds rot_dim/2 cosines then rot_dim/2
// sines; the pair (2p, 2p+1) of every head is rotated by angle p. Dimensions
// rot_dim..head_size of a head are left as they are (partial rotary).
// query: [tokens][q_stride], key: [tokens][k_stride]; positions < max_pos.
// GMEM-EXPECT: rope_gptj_inplace non-idempotent
// GMEM-RUN: rope_gptj_inplace grid=256 block=128 args=buf:i32:256:randint:0:512 buf:f32:131072:rand buf:f32:32768:rand buf:f32:32768:rand i32:256 i32:8 i32:2 i32:64 i32:64 i32:512 i32:128
// GMEM-RUN: rope_gptj_inplace grid=128 block=64 args=buf:i32:128:randint:0:1024 buf:f32:98304:rand buf:f32:24576:rand buf:f32:32768:rand i32:128 i32:12 i32:3 i32:64 i32:32 i32:768 i32:192
__global__ void rope_gptj_inplace(const int *positions, float *query, float *key, const float *cos_sin_cache,
                                  int num_tokens, int num_heads, int num_kv_heads, int head_size, int rot_dim,
                                  int q_stride, int k_stride) {
  int tok = blockIdx.x;
  if (tok >= num_tokens) return;
  int pos = positions[tok];
  int half = rot_dim / 2;
  const float *cosv = cos_sin_cache + (size_t)pos * rot_dim;
  const float *sinv = cosv + half;

  float *qt = query + (size_t)tok * q_stride;
  for (int i = threadIdx.x; i < num_heads * half; i += blockDim.x) {
    int h = i / half, p = i % half;
    float *v = qt + h * head_size + 2 * p;
    float c = cosv[p], s = sinv[p];
    float x0 = v[0], x1 = v[1];
    v[0] = x0 * c - x1 * s;
    v[1] = x1 * c + x0 * s;
  }
  float *kt = key + (size_t)tok * k_stride;
  for (int i = threadIdx.x; i < num_kv_heads * half; i += blockDim.x) {
    int h = i / half, p = i % half;
    float *v = kt + h * head_size + 2 * p;
    float c = cosv[p], s = sinv[p];
    float x0 = v[0], x1 = v[1];
    v[0] = x0 * c - x1 * s;
    v[1] = x1 * c + x0 * s;
  }
}

// Rotary embedding, GPT-NeoX style (rotate half), out of place: the pair
// (p, p + rot_dim/2) of every head is rotated; dimensions rot_dim..head_size
// are copied. q/k are [tokens][heads][head_size], contiguous.
// The aliasing instance writes q_out over query and k_out over key: each
// element is read and written by one thread, and a second run rotates again.
// GMEM-EXPECT: rope_neox conditional
// GMEM-RUN: rope_neox grid=256 block=128 args=buf:i32:256:randint:0:512 buf:f32:131072:rand buf:f32:32768:rand buf:f32:32768:rand buf:f32:131072:zero buf:f32:32768:zero i32:256 i32:8 i32:2 i32:64 i32:64
// GMEM-RUN: rope_neox grid=128 block=96 args=buf:i32:128:randint:0:256 buf:f32:65536:rand buf:f32:16384:rand buf:f32:8192:rand buf:f32:65536:zero buf:f32:16384:zero i32:128 i32:4 i32:1 i32:128 i32:32
// GMEM-RUN: rope_neox grid=256 block=128 args=buf:i32:256:randint:0:512 buf:f32:131072:rand buf:f32:32768:rand buf:f32:32768:rand ptr:1+0 ptr:2+0 i32:256 i32:8 i32:2 i32:64 i32:64
__global__ void rope_neox(const int *positions, const float *query, const float *key, const float *cos_sin_cache,
                          float *q_out, float *k_out, int num_tokens, int num_heads, int num_kv_heads,
                          int head_size, int rot_dim) {
  int tok = blockIdx.x;
  if (tok >= num_tokens) return;
  int pos = positions[tok];
  int half = rot_dim / 2;
  const float *cosv = cos_sin_cache + (size_t)pos * rot_dim;
  const float *sinv = cosv + half;
  int per_head = head_size - half;  // half rotated pairs, then the pass-through tail
  int total = (num_heads + num_kv_heads) * per_head;
  for (int i = threadIdx.x; i < total; i += blockDim.x) {
    int h = i / per_head, j = i % per_head;
    const float *src;
    float *dst;
    if (h < num_heads) {
      src = query + ((size_t)tok * num_heads + h) * head_size;
      dst = q_out + ((size_t)tok * num_heads + h) * head_size;
    } else {
      src = key + ((size_t)tok * num_kv_heads + (h - num_heads)) * head_size;
      dst = k_out + ((size_t)tok * num_kv_heads + (h - num_heads)) * head_size;
    }
    if (j < half) {
      float c = cosv[j], s = sinv[j];
      float x0 = src[j], x1 = src[j + half];
      dst[j] = x0 * c - x1 * s;
      dst[j + half] = x1 * c + x0 * s;
    } else {
      int d = j + half;  // rot_dim .. head_size-1
      dst[d] = src[d];
    }
  }
}

__device__ __forceinline__ float nr_silu(float v) { return v / (1.0f + __expf(-v)); }

// SwiGLU gate (vLLM silu_and_mul): x is [tokens][2*d] holding the gate then
// the up projection; out[t][j] = silu(x[t][j]) * x[t][d + j].
// GMEM-EXPECT: silu_and_mul conditional
// GMEM-RUN: silu_and_mul grid=256 block=256 args=buf:f32:524288:rand buf:f32:262144:zero i32:256 i32:1024
__global__ void silu_and_mul(const float *x, float *out, int tokens, int d) {
  int t = blockIdx.x;
  if (t >= tokens) return;
  const float *gate = x + (size_t)t * 2 * d;
  const float *up = gate + d;
  for (int j = threadIdx.x; j < d; j += blockDim.x) out[(size_t)t * d + j] = nr_silu(gate[j]) * up[j];
}

// The gate activation kept inside the one buffer: the upper half of each
// [tokens][2*d] row receives silu of the lower half. Reads and writes are
// apart (lower vs upper half of every row), so a re-run rewrites the same values.
// GMEM-EXPECT: silu_to_upper_half idempotent
// GMEM-RUN: silu_to_upper_half grid=256 block=256 args=buf:f32:524288:rand i32:256 i32:1024
// GMEM-RUN: silu_to_upper_half grid=100 block=64 args=buf:f32:60000:rand i32:100 i32:300
__global__ void silu_to_upper_half(float *x, int tokens, int d) {
  int t = blockIdx.x;
  if (t >= tokens) return;
  float *row = x + (size_t)t * 2 * d;
  for (int j = threadIdx.x; j < d; j += blockDim.x) row[d + j] = nr_silu(row[j]);
}

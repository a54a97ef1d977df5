// LLM serving KV-cache and attention kernels, shaped after the kinds of
// kernel in vLLM / FasterTransformer: appending the new tokens' keys and
// values to a paged cache at slot_mapping[token] (an indirect write index),
// a paged-attention decode step that reaches key/value rows through a block
// table (two-level indirection) with an online softmax over the context,
// and causal masking of an attention-score matrix.

#define KV_NEG_INF __int_as_float(0xff800000)

// Cache layouts as in vLLM's paged cache:
//   key_cache   [num_blocks][num_heads][head_size / x][block_size][x]
//   value_cache [num_blocks][num_heads][head_size][block_size]
// slot = slot_mapping[token]; a negative slot marks a padding token.
// One block per token, threads over num_heads * head_size.
// Distinct slots (iota) keep the instance free of write-write races.
// GMEM-EXPECT: reshape_and_cache conditional
// GMEM-RUN: reshape_and_cache grid=256 block=128 args=buf:f32:65536:rand buf:f32:65536:rand buf:i32:256:iota buf:f32:131072:zero buf:f32:131072:zero i32:256 i32:4 i32:64 i32:16 i32:4 i32:256 i32:256
// GMEM-RUN: reshape_and_cache grid=200 block=64 args=buf:f32:76800:rand buf:f32:51200:rand buf:i32:200:iota buf:f32:53248:zero buf:f32:53248:zero i32:200 i32:2 i32:128 i32:8 i32:4 i32:384 i32:256
__global__ void reshape_and_cache(const float *key, const float *value, const int *slot_mapping,
                                  float *key_cache, float *value_cache, int num_tokens, int num_heads,
                                  int head_size, int block_size, int x, int key_stride, int value_stride) {
  int tok = blockIdx.x;
  if (tok >= num_tokens) return;
  int slot = slot_mapping[tok];
  if (slot < 0) return;
  int blk = slot / block_size;
  int off = slot % block_size;
  int n = num_heads * head_size;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    int h = i / head_size, d = i % head_size;
    int xi = d / x, xo = d % x;
    size_t kidx = ((((size_t)blk * num_heads + h) * (head_size / x) + xi) * block_size + off) * x + xo;
    size_t vidx = (((size_t)blk * num_heads + h) * head_size + d) * block_size + off;
    key_cache[kidx] = key[(size_t)tok * key_stride + i];
    value_cache[vidx] = value[(size_t)tok * value_stride + i];
  }
}

__device__ __forceinline__ float kv_warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

// Decode-step paged attention. grid = (num_heads, num_seqs), one thread per
// head dimension (blockDim.x >= head_size, a multiple of 32, <= 1024).
// k_cache / v_cache: [num_blocks][block_size][num_kv_heads][head_size].
// Token t of sequence s lives in physical block block_tables[s][t / block_size].
// For every token: a block-wide dot product q.k, then an online-softmax
// update of the running max m, normaliser l and the thread's accumulator.
// context_lens[s] <= max_blocks_per_seq * block_size.
// The aliasing instance writes out over q: thread d of a (head, seq) block
// reads q element d of its row once and is the only writer of it.
// GMEM-EXPECT: paged_attention conditional
// GMEM-RUN: paged_attention grid=8,8 block=64 args=buf:f32:4096:rand buf:f32:131072:rand buf:f32:131072:rand buf:i32:64:randint:0:64 buf:i32:8:randint:1:129 buf:f32:4096:zero i32:8 i32:2 i32:64 i32:16 i32:8 f32:0.125
// GMEM-RUN: paged_attention grid=4,3 block=128 args=buf:f32:1536:rand buf:f32:65536:rand buf:f32:65536:rand buf:i32:60:randint:0:16 buf:i32:3:randint:0:161 buf:f32:1536:zero i32:4 i32:4 i32:128 i32:8 i32:20 f32:0.0883883
// GMEM-RUN: paged_attention grid=8,8 block=64 args=buf:f32:4096:rand buf:f32:131072:rand buf:f32:131072:rand buf:i32:64:randint:0:64 buf:i32:8:randint:1:129 ptr:0+0 i32:8 i32:2 i32:64 i32:16 i32:8 f32:0.125
__global__ void paged_attention(const float *q, const float *k_cache, const float *v_cache,
                                const int *block_tables, const int *context_lens, float *out, int num_heads,
                                int num_kv_heads, int head_size, int block_size, int max_blocks_per_seq,
                                float scale) {
  __shared__ float red[32];
  __shared__ float dot;
  int head = blockIdx.x, seq = blockIdx.y;
  int kv_head = head / (num_heads / num_kv_heads);
  int d = threadIdx.x;
  int lane = d & 31, warp = d >> 5;
  int nwarps = (blockDim.x + 31) >> 5;
  bool active = d < head_size;
  size_t qo = ((size_t)seq * num_heads + head) * head_size;
  float qd = active ? q[qo + d] * scale : 0.0f;
  int ctx = context_lens[seq];
  const int *bt = block_tables + (size_t)seq * max_blocks_per_seq;

  float m = KV_NEG_INF, l = 0.0f, acc = 0.0f;
  for (int t = 0; t < ctx; ++t) {
    int phys = bt[t / block_size];
    int off = t % block_size;
    size_t base = (((size_t)phys * block_size + off) * num_kv_heads + kv_head) * head_size;
    float s = active ? qd * k_cache[base + d] : 0.0f;
    s = kv_warp_sum(s);
    if (lane == 0) red[warp] = s;
    __syncthreads();
    if (d == 0) {
      float tot = 0.0f;
      for (int w = 0; w < nwarps; ++w) tot += red[w];
      dot = tot;
    }
    __syncthreads();
    s = dot;
    float m_new = fmaxf(m, s);
    float alpha = __expf(m - m_new);
    float p = __expf(s - m_new);
    l = l * alpha + p;
    if (active) acc = acc * alpha + p * v_cache[base + d];
    m = m_new;
  }
  if (active) out[qo + d] = ctx > 0 ? acc / l : 0.0f;
}

// scores[bh][i][j] = -inf where key j lies after query i (j > i + k_len - q_len).
// Writes a constant and reads nothing. grid = (k tiles, q tiles, batch*heads).
// GMEM-EXPECT: causal_mask_fill idempotent
// GMEM-RUN: causal_mask_fill grid=4,4,16 block=32,8 args=buf:f32:65536:rand i32:16 i32:32 i32:128
// GMEM-RUN: causal_mask_fill grid=4,13,8 block=32,8 args=buf:f32:102400:rand i32:8 i32:100 i32:128
__global__ void causal_mask_fill(float *scores, int batch_heads, int q_len, int k_len) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int bh = blockIdx.z;
  if (bh >= batch_heads || i >= q_len || j >= k_len) return;
  if (j > i + (k_len - q_len)) scores[((size_t)bh * q_len + i) * k_len + j] = KV_NEG_INF;
}

// The fused form: scale the visible scores in place and mask the rest. The
// visible entries are read and rewritten, so a second launch scales again.
// GMEM-EXPECT: causal_scale_mask non-idempotent
// GMEM-RUN: causal_scale_mask grid=4,4,16 block=32,8 args=buf:f32:65536:rand i32:16 i32:32 i32:128 f32:0.125
__global__ void causal_scale_mask(float *scores, int batch_heads, int q_len, int k_len, float scale) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int bh = blockIdx.z;
  if (bh >= batch_heads || i >= q_len || j >= k_len) return;
  float *p = scores + ((size_t)bh * q_len + i) * k_len + j;
  *p = (j > i + (k_len - q_len)) ? KV_NEG_INF : *p * scale;
}

// vLLM copy_blocks (copy-on-write of shared prefix blocks): block_mapping
// holds (src, dst) block pairs; both caches copy block src onto block dst
// in place. Whether a re-run changes memory depends on the mapping (a dst
// that is also a src), which no launch-time check of the arguments decides.
// The instance uses pairs (2p, 2p+1): no dst is a src.
// GMEM-EXPECT: copy_blocks unknown
// GMEM-RUN: copy_blocks grid=16 block=256 args=buf:f32:262144:rand buf:f32:262144:rand buf:i32:32:iota i32:8192
__global__ void copy_blocks(float *key_cache, float *value_cache, const int *block_mapping, int numel_per_block) {
  int pair = blockIdx.x;
  int src = block_mapping[2 * pair];
  int dst = block_mapping[2 * pair + 1];
  size_t so = (size_t)src * numel_per_block, dof = (size_t)dst * numel_per_block;
  for (int i = threadIdx.x; i < numel_per_block; i += blockDim.x) {
    key_cache[dof + i] = key_cache[so + i];
    value_cache[dof + i] = value_cache[so + i];
  }
}

// llama.cpp-style context shift inside one cache: rows [n_keep + n_discard,
// n_ctx) move down by n_discard rows, one block per moved row. Reads and
// writes of the cache overlap unless n_discard >= n_ctx - n_keep - n_discard
// (or n_discard == 0), so the class depends on the scalars at the launch.
// The instance moves 128 rows down by 128: source and destination are apart.
// GMEM-EXPECT: kv_cache_shift unknown
// GMEM-RUN: kv_cache_shift grid=128 block=128 args=buf:f32:66560:rand i32:4 i32:128 i32:260 i32:256
__global__ void kv_cache_shift(float *cache, int n_keep, int n_discard, int n_ctx, int row_len) {
  int r = n_keep + blockIdx.x;
  if (r >= n_ctx - n_discard) return;
  for (int d = threadIdx.x; d < row_len; d += blockDim.x)
    cache[(size_t)r * row_len + d] = cache[(size_t)(r + n_discard) * row_len + d];
}

// Adversarial round (idempotent updates + launch variants): realistic
// kernels around accepted updates (BFS counts, clip masks) and launch
// variants folded on flags, null pointers, masks, truncations, floats.

// Attacks: BFS level update whose then-block counts newly visited vertices per block.
// GMEM-EXPECT: rv_bfs_count non-idempotent
// GMEM-RUN: rv_bfs_count grid=2 block=32 args=buf:u32:64:randint:0:2 buf:i32:64:iota buf:i32:2:zero u32:5
__global__ void rv_bfs_count(unsigned *level, const int *frontier, int *count, unsigned depth) {
  __shared__ int s[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = frontier[i];
  int fresh = 0;
  if (level[v] == 0u) { level[v] = depth + 1; fresh = 1; }
  s[threadIdx.x] = fresh;
  __syncthreads();
  for (int o = 16; o > 0; o >>= 1) {
    if (threadIdx.x < o) s[threadIdx.x] += s[threadIdx.x + o];
    __syncthreads();
  }
  if (threadIdx.x == 0) count[blockIdx.x] = s[0];
}

// Attacks: gradient clipping with a per-element clip mask (bool phi).
// GMEM-EXPECT: rv_clip_mask non-idempotent
// GMEM-RUN: rv_clip_mask grid=1 block=32 args=buf:f32:32:rand buf:u8:32:zero f32:0.5
__global__ void rv_clip_mask(float *g, unsigned char *clipped, float hi) {
  int i = threadIdx.x;
  bool c = false;
  if (g[i] > hi) { g[i] = hi; c = true; }
  clipped[i] = c;
}

// Attacks: clip mask written as a float scale (non-bool phi).
// GMEM-EXPECT: rv_clip_scale non-idempotent
// GMEM-RUN: rv_clip_scale grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero f32:0.5
__global__ void rv_clip_scale(float *g, float *scale, float hi) {
  int i = threadIdx.x;
  float s = 1.0f;
  if (g[i] > hi) { g[i] = hi; s = 0.5f; }
  scale[i] = s;
}

// Attacks: union-find style 'if parent unset then set' with a per-thread status code.
// GMEM-EXPECT: rv_status_code non-idempotent
// GMEM-RUN: rv_status_code grid=1 block=32 args=buf:i32:32:randint:-1:1 buf:i32:32:zero
__global__ void rv_status_code(int *parent, int *status) {
  int i = threadIdx.x;
  int st = 0x20;
  if (parent[i] < 0) { parent[i] = i; st = 0x10; }
  status[i] = st;
}

// Launch variants: accumulate flag.
// GMEM-EXPECT: rv_acc_flag non-idempotent
// GMEM-RUN: rv_acc_flag grid=1 block=32 args=buf:f32:32:rand buf:f32:32:rand i32:0
// GMEM-RUN: rv_acc_flag grid=1 block=32 args=buf:f32:32:rand buf:f32:32:rand i32:1
// GMEM-RUN: rv_acc_flag grid=1 block=32 args=buf:f32:32:rand buf:f32:32:rand i32:-1
__global__ void rv_acc_flag(const float *x, float *y, int acc) {
  int i = threadIdx.x;
  if (acc) y[i] += x[i]; else y[i] = x[i];
}

// Launch variants: null bias pointer that aliases the output when not null.
// GMEM-EXPECT: rv_null_bias conditional
// GMEM-RUN: rv_null_bias grid=1 block=32 args=buf:f32:32:rand buf:f32:32:rand null
// GMEM-RUN: rv_null_bias grid=1 block=32 args=buf:f32:32:rand buf:f32:32:rand ptr:1+0
// GMEM-RUN: rv_null_bias grid=1 block=32 args=buf:f32:32:rand buf:f32:33:rand ptr:1+4
__global__ void rv_null_bias(const float *x, float *y, const float *bias) {
  int i = threadIdx.x;
  float b = bias ? bias[i] : 0.f;
  y[i] = x[i] + b;
}

// Launch variants: mode truncated to a byte (256 reads as 0).
// GMEM-EXPECT: rv_trunc_mode non-idempotent
// GMEM-RUN: rv_trunc_mode grid=1 block=32 args=buf:i32:32:iota buf:i32:32:iota i32:256
// GMEM-RUN: rv_trunc_mode grid=1 block=32 args=buf:i32:32:iota buf:i32:32:iota i32:257
__global__ void rv_trunc_mode(const int *x, int *y, int mode) {
  int i = threadIdx.x;
  if ((unsigned char)mode == 0) y[i] = x[i]; else y[i] += x[i];
}

// Launch variants: flag bit mask (bit 2 set means accumulate).
// GMEM-EXPECT: rv_mask_bit non-idempotent
// GMEM-RUN: rv_mask_bit grid=1 block=32 args=buf:i32:32:iota buf:i32:32:iota u32:3
// GMEM-RUN: rv_mask_bit grid=1 block=32 args=buf:i32:32:iota buf:i32:32:iota u32:4
__global__ void rv_mask_bit(const int *x, int *y, unsigned flags) {
  int i = threadIdx.x;
  if (flags & 4u) y[i] += x[i]; else y[i] = x[i];
}

// Launch variants: beta == 0 with beta = -0.0 (taken) and 1e-45 (denormal, not taken).
// GMEM-EXPECT: rv_beta_zero non-idempotent
// GMEM-RUN: rv_beta_zero grid=1 block=32 args=buf:f32:32:rand buf:f32:32:rand f32:-0.0
// GMEM-RUN: rv_beta_zero grid=1 block=32 args=buf:f32:32:rand buf:f32:32:rand f32:1e-45
// GMEM-RUN: rv_beta_zero grid=1 block=32 args=buf:f32:32:rand buf:f32:32:rand f32:0.0
__global__ void rv_beta_zero(const float *x, float *y, float beta) {
  int i = threadIdx.x;
  if (beta == 0.0f) y[i] = 2.f * x[i]; else y[i] = 2.f * x[i] + beta * y[i];
}

// Launch variants: n < 0 signed guard decides an in-place scale; n passed as INT_MIN.
// GMEM-EXPECT: rv_neg_n non-idempotent
// GMEM-RUN: rv_neg_n grid=1 block=32 args=buf:i32:32:iota i32:-2147483648
// GMEM-RUN: rv_neg_n grid=1 block=32 args=buf:i32:32:iota i32:7
__global__ void rv_neg_n(int *x, int n) {
  int i = threadIdx.x;
  if (n < 0) x[i] = max(x[i], 3); else x[i] = x[i] * 2;
}

// Launch variants: 64-bit guard with a constant above 2^32.
// GMEM-EXPECT: rv_u64_guard non-idempotent
// GMEM-RUN: rv_u64_guard grid=1 block=32 args=buf:i32:32:iota u64:4294967296
// GMEM-RUN: rv_u64_guard grid=1 block=32 args=buf:i32:32:iota u64:0
__global__ void rv_u64_guard(int *x, unsigned long long big) {
  int i = threadIdx.x;
  if (big == 0x100000000ull) x[i] = 5; else x[i] += 1;
}

// Launch variants: the flag is an int turned bool and used in a select.
// GMEM-EXPECT: rv_bool_flag non-idempotent
// GMEM-RUN: rv_bool_flag grid=1 block=32 args=buf:i32:32:iota buf:i32:32:iota i32:0
// GMEM-RUN: rv_bool_flag grid=1 block=32 args=buf:i32:32:iota buf:i32:32:iota i32:1
__global__ void rv_bool_flag(const int *x, int *y, int acci) {
  int i = threadIdx.x;
  bool acc = acci != 0;
  y[i] = acc ? y[i] + x[i] : x[i];
}

// Launch variants + idempotent update: mode selects relu (idempotent) or a phi-leaking relu.
// GMEM-EXPECT: rv_variant_leak non-idempotent
// GMEM-RUN: rv_variant_leak grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero i32:0
// GMEM-RUN: rv_variant_leak grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero i32:1
__global__ void rv_variant_leak(float *x, float *out, int mode) {
  int i = threadIdx.x;
  if (mode == 0) {
    x[i] = fmaxf(x[i], 0.f);
  } else {
    float t = 0.25f;
    if (x[i] < 0.f) { x[i] = 0.f; t = 0.75f; }
    out[i] = t;
  }
}

// Launch variants: two guards on one parameter (n == 0 decides n < 5 too).
// GMEM-EXPECT: rv_two_atoms non-idempotent
// GMEM-RUN: rv_two_atoms grid=1 block=32 args=buf:i32:32:iota i32:0
// GMEM-RUN: rv_two_atoms grid=1 block=32 args=buf:i32:32:iota i32:3
// GMEM-RUN: rv_two_atoms grid=1 block=32 args=buf:i32:32:iota i32:9
__global__ void rv_two_atoms(int *x, int n) {
  int i = threadIdx.x;
  if (n == 0) x[i] = 1;
  else if (n < 5) x[i] += n;
  else x[i] = min(x[i], n);
}

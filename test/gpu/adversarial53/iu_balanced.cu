// Adversarial round (session 53): the balance of the corpus: in-place
// updates that are idempotent (realistic activations, saturations, flag and
// sentinel maps, older forms at odd types) and a few near misses that are
// not. Every RUN covers the values that would expose a wrong verdict.

// NaN/overflow scrubbing: NaN -> 0, above 1e30 -> 1e30 (both kept).
// GMEM-EXPECT: bl_nan_to_num idempotent
// GMEM-RUN: bl_nan_to_num grid=1 block=64 args=buf:u32:64:randint:2139095000:2147483647
// GMEM-RUN: bl_nan_to_num grid=1 block=64 args=buf:u32:64:randint:0:4294967295
__global__ void bl_nan_to_num(unsigned *xu) {
  float *x = (float *)xu;
  int i = threadIdx.x;
  float v = x[i];
  x[i] = (v != v) ? 0.f : ((v > 1e30f) ? 1e30f : v);
}

// A sentinel replaced: -1 -> 0.
// GMEM-EXPECT: bl_sentinel idempotent
// GMEM-RUN: bl_sentinel grid=1 block=64 args=buf:i32:64:randint:-2:3
__global__ void bl_sentinel(int *x) {
  int i = threadIdx.x;
  int v = x[i];
  x[i] = (v == -1) ? 0 : v;
}

// Two sentinels to one literal that neither sentinel is.
// GMEM-EXPECT: bl_two_sentinels idempotent
// GMEM-RUN: bl_two_sentinels grid=1 block=64 args=buf:i32:64:randint:-3:3
__global__ void bl_two_sentinels(int *x) {
  int i = threadIdx.x;
  int v = x[i];
  x[i] = (v == -1 || v == -2) ? 9 : v;
}

// A sentinel chain: -1 -> -2, -2 -> 9: -1 -> -2 -> 9 is a move.
// GMEM-EXPECT: bl_sentinel_chain non-idempotent
// GMEM-RUN: bl_sentinel_chain grid=1 block=64 args=buf:i32:64:const:-1
__global__ void bl_sentinel_chain(int *x) {
  int i = threadIdx.x;
  int v = x[i];
  x[i] = (v == -1) ? -2 : ((v == -2) ? 9 : v);
}

// Half-precision ReLU by select (-0 -> +0, NaN -> +0, both kept).
// GMEM-EXPECT: bl_half_relu idempotent
// GMEM-RUN: bl_half_relu grid=1 block=64 args=buf:u32:32:randint:0:4294967295
__global__ void bl_half_relu(unsigned *xu) {
  _Float16 *x = (_Float16 *)xu;
  int i = threadIdx.x;
  _Float16 v = x[i];
  x[i] = v > (_Float16)0 ? v : (_Float16)0;
}

// Double sign by comparisons.
// GMEM-EXPECT: bl_sign_double idempotent
// GMEM-RUN: bl_sign_double grid=1 block=64 args=buf:f64:64:rand
__global__ void bl_sign_double(double *x) {
  int i = threadIdx.x;
  double v = x[i];
  x[i] = (double)((v > 0.0) - (v < 0.0));
}

// Integer clamp with launch bounds given inverted (lo > hi: constant hi).
// GMEM-EXPECT: bl_clamp_inverted_args idempotent
// GMEM-RUN: bl_clamp_inverted_args grid=1 block=64 args=buf:i32:64:randint:-100:100 i32:50 i32:-50
__global__ void bl_clamp_inverted_args(int *x, int lo, int hi) {
  int i = threadIdx.x;
  x[i] = min(max(x[i], lo), hi);
}

// Unsigned clamp chain of three.
// GMEM-EXPECT: bl_umin_chain idempotent
// GMEM-RUN: bl_umin_chain grid=1 block=64 args=buf:u32:64:randint:0:4294967295 u32:1000
__global__ void bl_umin_chain(unsigned *x, unsigned cap) {
  int i = threadIdx.x;
  x[i] = min(max(min(x[i], cap), 10u), 4000000000u);
}

// Masks from launch scalars, and then or.
// GMEM-EXPECT: bl_mask_set idempotent
// GMEM-RUN: bl_mask_set grid=1 block=64 args=buf:u32:64:randint:0:4294967295 u32:255 u32:4096
__global__ void bl_mask_set(unsigned *x, unsigned keep, unsigned set) {
  int i = threadIdx.x;
  x[i] = ((x[i] | set) & keep) | 1u;
}

// xor with a literal: a toggle.
// GMEM-EXPECT: bl_xor_toggle non-idempotent
// GMEM-RUN: bl_xor_toggle grid=1 block=64 args=buf:u32:64:randint:0:100
__global__ void bl_xor_toggle(unsigned *x) {
  int i = threadIdx.x;
  x[i] ^= 1u;
}

// __saturatef in place.
// GMEM-EXPECT: bl_saturate idempotent
// GMEM-RUN: bl_saturate grid=1 block=64 args=buf:u32:64:randint:0:4294967295
__global__ void bl_saturate(unsigned *xu) {
  float *x = (float *)xu;
  int i = threadIdx.x;
  x[i] = __saturatef(x[i]);
}

// floor of doubles, grid-stride.
// GMEM-EXPECT: bl_floor_gs idempotent
// GMEM-RUN: bl_floor_gs grid=2 block=64 args=buf:f64:1000:rand i32:1000
__global__ void bl_floor_gs(double *x, int n) {
  for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += blockDim.x * gridDim.x)
    x[j] = floor(x[j]);
}

// Integer ReLU on float bits held as int: negative words (sign set) -> 0.
// GMEM-EXPECT: bl_bits_relu idempotent
// GMEM-RUN: bl_bits_relu grid=1 block=64 args=buf:i32:64:randint:-2147483648:2147483647
__global__ void bl_bits_relu(int *x) {
  int i = threadIdx.x;
  int v = x[i];
  x[i] = v < 0 ? 0 : v;
}

// Threshold with the value replaced by a launch scalar that the threshold
// catches again: x < t -> m; idempotent only because the other arm is x.
// GMEM-EXPECT: bl_threshold_arg_value idempotent
// GMEM-RUN: bl_threshold_arg_value grid=1 block=64 args=buf:f32:64:rand f32:0.5 f32:-3.0
__global__ void bl_threshold_arg_value(float *x, float t, float m) {
  int i = threadIdx.x;
  float v = x[i];
  x[i] = v < t ? m : v;
}

// Step whose literals collide with the comparison's boundary: x >= 0.5 ->
// 0.5, x < 0.5 -> 0; both kept.
// GMEM-EXPECT: bl_step_boundary idempotent
// GMEM-RUN: bl_step_boundary grid=1 block=64 args=buf:f32:64:rand
__global__ void bl_step_boundary(float *x) {
  int i = threadIdx.x;
  x[i] = x[i] >= 0.5f ? 0.5f : 0.f;
}

// Step whose literal falls on the wrong side: x >= 0.5 -> 0.25 -> 0.
// GMEM-EXPECT: bl_step_wrong_side non-idempotent
// GMEM-RUN: bl_step_wrong_side grid=1 block=64 args=buf:f32:64:rand
__global__ void bl_step_wrong_side(float *x) {
  int i = threadIdx.x;
  x[i] = x[i] >= 0.5f ? 0.25f : 0.f;
}

// 64-bit flag word normalised through a 32-bit truncation test: low word
// nonzero -> 1, else kept (0x100000000 stays): idempotent.
// GMEM-EXPECT: bl_u64_lowword_flag idempotent
// GMEM-RUN: bl_u64_lowword_flag grid=1 block=64 args=buf:u64:64:randint:4294967290:4294967310
__global__ void bl_u64_lowword_flag(unsigned long long *x) {
  int i = threadIdx.x;
  unsigned long long v = x[i];
  x[i] = ((unsigned)v != 0u) ? 1ull : v;
}

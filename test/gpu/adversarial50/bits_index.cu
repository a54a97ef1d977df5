// Adversarial round 50: indices computed through bit intrinsics, float
// conversions, min/max/clamp, select chains and switch tables. Each kernel
// reads 'in' and writes 'out' at the computed index; the write region must
// cover every index the intrinsic can produce for the instance.

// Attacks: bit-reversal permutation index (__brev) shifted by a parameter.
// GMEM-EXPECT: bi_brev conditional
// GMEM-RUN: bi_brev grid=4 block=64 args=buf:f32:256:rand buf:f32:256:zero i32:24
// GMEM-RUN: bi_brev grid=4 block=64 args=buf:f32:512:rand ptr:0+1024 i32:24
// GMEM-RUN: bi_brev grid=4 block=64 args=buf:f32:256:rand buf:f32:65536:zero i32:16
__global__ void bi_brev(const float *in, float *out, int sh) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[__brev(t) >> sh] = in[t];
}

// Attacks: population count as an index (small range from a large domain).
// GMEM-EXPECT: bi_popc conditional
// GMEM-RUN: bi_popc grid=4 block=64 args=buf:i32:256:iota buf:i32:64:zero i32:256
// GMEM-RUN: bi_popc grid=1 block=64 args=buf:i32:256:rand ptr:0+4 i32:64
__global__ void bi_popc(const int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[__popc(in[t]) + __popc(t)] = t;
}

// Attacks: __umulhi scaling of the thread index by a runtime factor.
// GMEM-EXPECT: bi_umulhi conditional
// GMEM-RUN: bi_umulhi grid=4 block=64 args=buf:f32:256:rand buf:f32:4096:zero u32:4294967295
// GMEM-RUN: bi_umulhi grid=4 block=64 args=buf:f32:256:rand buf:f32:4096:zero u32:2147483648
// GMEM-RUN: bi_umulhi grid=4 block=64 args=buf:f32:4096:rand ptr:0+4 u32:4294967295
__global__ void bi_umulhi(const float *in, float *out, unsigned f) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[__umulhi(t << 4, f)] = in[t];
}

// Attacks: __ffs of the thread index (0 for t == 0, up to 32).
// GMEM-EXPECT: bi_ffs conditional
// GMEM-RUN: bi_ffs grid=2 block=128 args=buf:i32:256:rand buf:i32:40:zero
// GMEM-RUN: bi_ffs grid=2 block=128 args=buf:i32:300:rand ptr:0+0
__global__ void bi_ffs(const int *in, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[__ffs(t) + __ffs(t >> 3)] = in[t];
}

// Attacks: __byte_perm with a runtime selector moves index bytes around.
// GMEM-EXPECT: bi_byte_perm conditional
// GMEM-RUN: bi_byte_perm grid=4 block=64 args=buf:u8:256:rand buf:u8:65536:zero u32:0x3210
// GMEM-RUN: bi_byte_perm grid=4 block=64 args=buf:u8:256:rand buf:u8:65536:zero u32:0x4404
// GMEM-RUN: bi_byte_perm grid=4 block=64 args=buf:u8:65536:rand ptr:0+1 u32:0x4440
__global__ void bi_byte_perm(const unsigned char *in, unsigned char *out, unsigned sel) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[__byte_perm(t, 0, sel) & 0xffff] = in[t];
}

// Attacks: count leading zeros of the index (t == 0 gives 32).
// GMEM-EXPECT: bi_clz conditional
// GMEM-RUN: bi_clz grid=2 block=64 args=buf:i32:128:rand buf:i32:33:zero
// GMEM-RUN: bi_clz grid=2 block=64 args=buf:i32:128:rand ptr:0+256
__global__ void bi_clz(const int *in, int *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[__clz(t)] = in[t];
}

// Attacks: float-to-int conversion of a scaled index (rounding up past n-1).
// GMEM-EXPECT: bi_f2i_scale conditional
// GMEM-RUN: bi_f2i_scale grid=4 block=64 args=buf:f32:256:rand buf:f32:640:zero f32:2.5 i32:256
// GMEM-RUN: bi_f2i_scale grid=4 block=64 args=buf:f32:256:rand buf:f32:300:zero f32:-1.0 i32:256
// GMEM-RUN: bi_f2i_scale grid=4 block=64 args=buf:f32:900:rand ptr:0+1024 f32:2.5 i32:256
__global__ void bi_f2i_scale(const float *in, float *out, float scale, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    int j = __float2int_rn(t * scale);
    if (j < 0) j += n;
    out[j] = in[t];
  }
}

// Attacks: float index via sqrt (triangular indexing, values loaded as floats).
// GMEM-EXPECT: bi_f2i_sqrt conditional
// GMEM-RUN: bi_f2i_sqrt grid=4 block=64 args=buf:f32:256:rand buf:f32:64:zero
// GMEM-RUN: bi_f2i_sqrt grid=4 block=64 args=buf:f32:256:rand ptr:0+512
__global__ void bi_f2i_sqrt(const float *in, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int row = (int)((sqrtf(8.0f * t + 1.0f) - 1.0f) * 0.5f);
  out[row] = in[t];
}

// Attacks: clamp with lo > hi (min(max(t, lo), hi) returns hi; max(min(..)) returns lo).
// GMEM-EXPECT: bi_clamp_inverted conditional
// GMEM-RUN: bi_clamp_inverted grid=2 block=64 args=buf:i32:128:rand buf:i32:256:zero i32:200 i32:10
// GMEM-RUN: bi_clamp_inverted grid=2 block=64 args=buf:i32:512:rand ptr:0+800 i32:200 i32:10
__global__ void bi_clamp_inverted(const int *in, int *out, int lo, int hi) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[max(min(t, hi), lo)] = in[t];
  out[min(max(t, lo), hi) + 1] = in[t] + 1;
}

// Attacks: unsigned min between a signed param and an unsigned index (mixed min -> unsigned).
// GMEM-EXPECT: bi_mixed_min conditional
// GMEM-RUN: bi_mixed_min grid=2 block=64 args=buf:i32:128:rand buf:i32:128:zero i32:-1
// GMEM-RUN: bi_mixed_min grid=2 block=64 args=buf:i32:128:rand buf:i32:128:zero i32:50
__global__ void bi_mixed_min(const int *in, int *out, int cap) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[min(t, (unsigned)cap)] = in[t];
}

// Attacks: select chain over index bits choosing among far-apart offsets.
// GMEM-EXPECT: bi_select_chain conditional
// GMEM-RUN: bi_select_chain grid=2 block=64 args=buf:f32:128:rand buf:f32:4096:zero i32:1000 i32:3000
// GMEM-RUN: bi_select_chain grid=2 block=64 args=buf:f32:128:rand buf:f32:4096:zero i32:-1 i32:2000
// GMEM-RUN: bi_select_chain grid=2 block=64 args=buf:f32:8192:rand ptr:0+8000 i32:1000 i32:2000
__global__ void bi_select_chain(const float *in, float *out, int a, int b) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int k = t & 7;
  int off = k == 0 ? 0 : k == 3 ? a : k == 5 ? b : k == 7 ? a + b : 64;
  if (off < 0) off = 4000 + (t & 15);
  out[off + (t >> 3)] = in[t];
}

// Attacks: switch table over the index mapping to constant slots far apart.
// GMEM-EXPECT: bi_switch_table conditional
// GMEM-RUN: bi_switch_table grid=1 block=64 args=buf:i32:64:rand buf:i32:2048:zero
// GMEM-RUN: bi_switch_table grid=1 block=64 args=buf:i32:2049:rand ptr:0+4
__global__ void bi_switch_table(const int *in, int *out) {
  int t = threadIdx.x;
  int slot;
  switch (t % 6) {
  case 0: slot = 7; break;
  case 1: slot = 1500; break;
  case 2: slot = 33; break;
  case 3: slot = 2040; break;
  case 4: slot = 900; break;
  default: slot = 2047; break;
  }
  out[slot - (t >> 5)] = in[t];
}

// Attacks: loaded switch selector with a jump table (values from memory pick the slot).
// GMEM-EXPECT: bi_switch_loaded conditional
// GMEM-RUN: bi_switch_loaded grid=1 block=64 args=buf:i32:64:randint:0:9 buf:i32:3000:zero
__global__ void bi_switch_loaded(const int *sel, int *out) {
  int t = threadIdx.x, slot;
  switch (sel[t]) {
  case 0: slot = 10; break;
  case 1: slot = 2999; break;
  case 2: slot = 1000; break;
  case 3: slot = 200; break;
  case 4: slot = 2500; break;
  case 5: slot = 12; break;
  case 6: slot = 1234; break;
  default: slot = 0; break;
  }
  out[slot] = t;
}

// Attacks: sign-magnitude trick: index = abs(t - c) with c a parameter.
// GMEM-EXPECT: bi_abs_dist conditional
// GMEM-RUN: bi_abs_dist grid=2 block=64 args=buf:i32:128:rand buf:i32:128:zero i32:127
// GMEM-RUN: bi_abs_dist grid=2 block=64 args=buf:i32:256:rand ptr:0+260 i32:40
__global__ void bi_abs_dist(const int *in, int *out, int c) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[abs(t - c)] = in[t];
}

// Attacks: funnel shift combining two index words.
// GMEM-EXPECT: bi_funnel conditional
// GMEM-RUN: bi_funnel grid=2 block=64 args=buf:i32:128:rand buf:i32:8192:zero u32:4
// GMEM-RUN: bi_funnel grid=2 block=64 args=buf:i32:128:rand buf:i32:8192:zero u32:36
__global__ void bi_funnel(const int *in, int *out, unsigned s) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[__funnelshift_l(t << 26, t & 3, s) & 8191] = in[t];
}

// Attacks: __mul24 wraps a large index product into a small signed value.
// GMEM-EXPECT: bi_mul24 conditional
// GMEM-RUN: bi_mul24 grid=2 block=64 args=buf:i32:128:rand buf:i32:8192:zero i32:131072 i32:2048
__global__ void bi_mul24(const int *in, int *out, int k, int base) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[base + (__mul24(t, k) >> 12)] = in[t];
}

// Adversarial corpus, session 55c: interactions of the in-place update
// rules with launch variants, alias pairs, loops, narrow and vector types.
#include <cuda_fp16.h>

// Launch variant on a truncated scalar: k = 256 makes (uchar)k == 0.
// GMEM-EXPECT: lv_trunc non-idempotent
// GMEM-RUN: lv_trunc grid=1 block=64 args=buf:i32:64:zero i32:256
// GMEM-RUN: lv_trunc grid=1 block=64 args=buf:i32:64:zero i32:1
__global__ void lv_trunc(int *p, int k) {
  int i = threadIdx.x;
  if ((unsigned char)k == 0) p[i] = p[i] + 1;
  else p[i] = max(p[i], 3);
}

// Variant guard on a 64-bit scalar compared with a 32-bit constant.
// GMEM-EXPECT: lv_wide non-idempotent
// GMEM-RUN: lv_wide grid=1 block=64 args=buf:i32:64:zero i64:4294967296
__global__ void lv_wide(int *p, long long k) {
  int i = threadIdx.x;
  if ((int)k == 0) p[i] = p[i] + 1;
  else p[i] = max(p[i], 3);
}

// Guarded literal map whose guard also reads a folded scalar.
// GMEM-EXPECT: lv_guard non-idempotent
// GMEM-RUN: lv_guard grid=1 block=64 args=buf:i32:64:randint:0:3 i32:1
// GMEM-RUN: lv_guard grid=1 block=64 args=buf:i32:64:randint:0:3 i32:0
__global__ void lv_guard(int *p, int mode) {
  int i = threadIdx.x;
  int x = p[i];
  if (mode == 1) { if (x == 0) p[i] = 1; }
  else { if (x == 1) p[i] = 2; else if (x == 0) p[i] = 1; }
}

// Keep-or-replace whose condition reads a shifted alias of p.
// GMEM-EXPECT: al_keep_shift conditional
// GMEM-RUN: al_keep_shift grid=1 block=64 args=buf:i32:65:const:1 ptr:0+4
// GMEM-RUN: al_keep_shift grid=1 block=64 args=buf:i32:65:const:1 ptr:0+0
__global__ void al_keep_shift(int *p, const int *m) {
  int i = threadIdx.x;
  p[i] = m[i] == 0 ? 0 : p[i];
}

// Guarded literal map out of place, called at offset 0 and 4.
// GMEM-EXPECT: al_guard conditional
// GMEM-RUN: al_guard grid=1 block=64 args=buf:i32:65:randint:0:3 ptr:0+0
// GMEM-RUN: al_guard grid=1 block=64 args=buf:i32:65:randint:0:3 ptr:0+4
__global__ void al_guard(const int *x, int *out) {
  int i = threadIdx.x;
  int v = x[i];
  if (v == 0) out[i] = 1;
  else if (v == 2) out[i] = 1;
}

// Select-like phi (branch around the load), per-thread condition, shared
// word, barrier rounds: keep-or-replace composes.
// GMEM-EXPECT: sp_phi_rounds idempotent
// GMEM-RUN: sp_phi_rounds grid=1 block=4 args=buf:i32:1:zero i32:4
__global__ void sp_phi_rounds(int *p, int rounds) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int v;
      if (t & 1) v = t + 7; else v = p[0];
      p[0] = v;
    }
    __syncthreads();
  }
}

// One thread, loop: different keep-or-replace and max maps to one element
// per trip (a checkpoint at the back edge via the barrier).
// GMEM-EXPECT: lp_maxes idempotent
// GMEM-RUN: lp_maxes grid=2 block=64 args=buf:i32:128:randint:0:9 buf:i32:8:randint:0:9 i32:8
__global__ void lp_maxes(int *p, const int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; ++k) {
    p[i] = max(p[i], a[k] - k);
    __syncthreads();
  }
}

// Loop, clamp with per-trip bounds, stopped at the barrier and rerun.
// GMEM-EXPECT: lp_clamp idempotent
// GMEM-RUN: lp_clamp grid=2 block=64 args=buf:i32:128:randint:0:9 buf:i32:8:randint:0:9 i32:8
__global__ void lp_clamp(int *p, const int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; ++k) {
    p[i] = min(max(p[i], a[k] - 3), a[k] + 3);
    __syncthreads();
  }
}

// Loop: bits chain with per-trip masks; (x & a) | b.
// GMEM-EXPECT: lp_bits idempotent
// GMEM-RUN: lp_bits grid=2 block=64 args=buf:i32:128:randint:0:16 buf:i32:8:randint:0:16 i32:8
__global__ void lp_bits(int *p, const int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < n; ++k) {
    p[i] = (p[i] & a[k]) | (a[k] >> 2);
    __syncthreads();
  }
}

// Loop whose strict map reads a stable table at the trip's index: maps
// differ by trip (x == a[k] ? a[k] + 1 : x). A loop checkpoint stops it.
// GMEM-EXPECT: lp_key non-idempotent
// GMEM-RUN: lp_key grid=1 block=32 args=buf:i32:32:zero buf:i32:4:iota i32:2
__global__ void lp_key(int *p, const int *a, int n) {
  int i = threadIdx.x;
  for (int k = n - 1; k >= 0; --k) {
    int x = p[i];
    p[i] = x == a[k] ? a[k] + 1 : x;
    __syncthreads();
  }
}

// Narrow: u8 max with a scalar (promotion to int), i16 clamp, half max.
// GMEM-EXPECT: nw_u8 idempotent
// GMEM-RUN: nw_u8 grid=1 block=64 args=buf:u8:64:randint:0:255 i32:300
__global__ void nw_u8(unsigned char *p, int k) {
  int i = threadIdx.x;
  unsigned char v = p[i];
  p[i] = v > k ? v : (unsigned char)k;
}

// GMEM-EXPECT: nw_i16 idempotent
// GMEM-RUN: nw_i16 grid=1 block=64 args=buf:i32:32:randint:0:100 i32:-5 i32:40
__global__ void nw_i16(short *p, int lo, int hi) {
  int i = threadIdx.x;
  short v = p[i];
  p[i] = (short)min(max((int)v, lo), hi);
}

// v < 0 maps to v + 32768 >= 0 (LLVM: v & 0x7fff under the guard): idempotent.
// GMEM-EXPECT: nw_i16_add idempotent
// GMEM-RUN: nw_i16_add grid=1 block=64 args=buf:i32:32:randint:0:100
__global__ void nw_i16_add(short *p) {
  int i = threadIdx.x;
  short v = p[i];
  if (v < 0) p[i] = (short)(v + 32768);
}

// Guarded literal on u8 through promotion: 255 + 1 wraps.
// v > 250 always stores 0: idempotent.
// GMEM-EXPECT: nw_u8_wrap idempotent
// GMEM-RUN: nw_u8_wrap grid=1 block=64 args=buf:u8:64:randint:250:256
__global__ void nw_u8_wrap(unsigned char *p) {
  int i = threadIdx.x;
  unsigned char v = p[i];
  if (v > 250) p[i] = (unsigned char)(v + 5 > 255 ? 0 : 255);
}

// Struct field: max of a with b of the same element (b never written).
struct S { int a, b; };
// GMEM-EXPECT: st_field idempotent
// GMEM-RUN: st_field grid=1 block=64 args=buf:i32:128:randint:0:9
__global__ void st_field(S *s) {
  int i = threadIdx.x;
  s[i].a = max(s[i].a, s[i].b);
}

// Struct field: max of a with b of the next element, b written too by a
// guarded map (b < 0 -> 0).
// GMEM-EXPECT: st_field2 non-idempotent
// GMEM-RUN: st_field2 grid=1 block=64 args=buf:i32:130:randint:-3:9
__global__ void st_field2(S *s) {
  int i = threadIdx.x;
  s[i].a = max(s[i].a, s[i + 1].b);
  int b = s[i].b;
  if (b < 0) s[i].b = 0;
}

// Vector: int2 load, scalar store of one lane's clamp.
// GMEM-EXPECT: vec_int2 idempotent
// GMEM-RUN: vec_int2 grid=1 block=64 args=buf:i32:128:randint:-9:9
__global__ void vec_int2(int2 *q) {
  int i = threadIdx.x;
  int2 v = q[i];
  q[i].x = max(v.x, 0);
  q[i].y = min(v.y, 0);
}

// float4 load, then the x lane replaced by max(x, y) (y never changes).
// GMEM-EXPECT: vec_f4 idempotent
// GMEM-RUN: vec_f4 grid=1 block=64 args=buf:f32:256:rand
__global__ void vec_f4(float4 *q) {
  int i = threadIdx.x;
  float4 v = q[i];
  v.x = fmaxf(v.x, v.y);
  q[i] = v;
}

// half max with a scalar.
// GMEM-EXPECT: nw_half idempotent
// GMEM-RUN: nw_half grid=1 block=64 args=buf:i32:32:zero f32:0.5
__global__ void nw_half(__half *p, float c) {
  int i = threadIdx.x;
  p[i] = __hmax(p[i], __float2half(c));
}

// Float few-outcome with -0.0 and a denormal threshold compare.
// A tiny x goes to +0.0, then +0.0 to -0.0: not idempotent (not for this data).
// GMEM-EXPECT: fp_negzero non-idempotent
// GMEM-RUN: fp_negzero grid=1 block=64 args=buf:f32:64:rand
__global__ void fp_negzero(float *p) {
  int i = threadIdx.x;
  float x = p[i];
  if (x == 0.f) p[i] = -0.f;
  else if (x < 1e-30f && x > -1e-30f) p[i] = 0.f;
}

// Integer overflow in a few-outcome map: x + 1 compared after wrap.
// 0 -> INT_MAX -> -1 -> INT_MAX: not idempotent.
// GMEM-EXPECT: int_wrap non-idempotent
// GMEM-RUN: int_wrap grid=1 block=64 args=buf:i32:64:randint:0:9
__global__ void int_wrap(int *p) {
  int i = threadIdx.x;
  unsigned x = p[i];
  if (x + 1u < 5u) p[i] = 0x7fffffff;
  else if (x == 0x7fffffffu) p[i] = -1;
}

// Two update pairs on one element split by a barrier (max then min).
// GMEM-EXPECT: two_pairs idempotent
// GMEM-RUN: two_pairs grid=1 block=64 args=buf:i32:64:randint:0:9
__global__ void two_pairs(int *p) {
  int i = threadIdx.x;
  p[i] = max(p[i], 3);
  __syncthreads();
  p[i] = min(p[i], 6);
}

// Volatile load of the element, then a clamp store.
// GMEM-EXPECT: vol_clamp idempotent
// GMEM-RUN: vol_clamp grid=1 block=64 args=buf:i32:64:randint:0:9
__global__ void vol_clamp(int *p) {
  int i = threadIdx.x;
  int x = *(volatile int *)&p[i];
  p[i] = min(x, 4);
}

// Composing max whose operand is a stable load at an index computed from
// the element's own old value through a select on a flag (the operand is
// per-thread and reads a table at a data-dependent index).
// GMEM-EXPECT: cm_gather conditional
// GMEM-RUN: cm_gather grid=1 block=64 args=buf:i32:64:randint:0:8 buf:i32:8:randint:0:8 buf:i32:64:randint:0:8
__global__ void cm_gather(int *p, const int *tab, const int *idx) {
  int i = threadIdx.x;
  p[i] = max(p[i], tab[idx[i]]);
}

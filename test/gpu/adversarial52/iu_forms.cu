// Adversarial round (idempotent updates): the accepted forms at their edges
// (float NaN/-0/inf, inverted clamps, masks, casts, widths) and the
// rejected compositions.

// Attacks: inverted clamp lo > hi (constant result).
// GMEM-EXPECT: fm_clamp_inverted idempotent
// GMEM-RUN: fm_clamp_inverted grid=1 block=32 args=buf:f32:32:rand f32:0.5 f32:-0.5
// GMEM-RUN: fm_clamp_inverted grid=1 block=32 args=buf:f32:32:rand f32:-0.25 f32:0.25
__global__ void fm_clamp_inverted(float *x, float lo, float hi) {
  int i = threadIdx.x;
  x[i] = fminf(fmaxf(x[i], lo), hi);
}

// Attacks: NaN and signed zeros in the data: quiet NaN, signaling NaN, -0.
// GMEM-EXPECT: fm_relu_bits idempotent
// GMEM-RUN: fm_relu_bits grid=1 block=32 args=buf:u32:32:const:2143289344
// GMEM-RUN: fm_relu_bits grid=1 block=32 args=buf:u32:32:const:2139095041
// GMEM-RUN: fm_relu_bits grid=1 block=32 args=buf:u32:32:const:2147483648
// GMEM-RUN: fm_relu_bits grid=1 block=32 args=buf:u32:32:const:4286578688
__global__ void fm_relu_bits(unsigned *xu) {
  float *x = (float *)xu;
  int i = threadIdx.x;
  x[i] = fmaxf(x[i], 0.f);
}

// Attacks: select relu x < 0 ? -0 : x; then -0 < 0 false (kept).
// GMEM-EXPECT: fm_relu_negzero idempotent
// GMEM-RUN: fm_relu_negzero grid=1 block=32 args=buf:u32:32:const:3212836864
// GMEM-RUN: fm_relu_negzero grid=1 block=32 args=buf:u32:32:const:2147483648
__global__ void fm_relu_negzero(unsigned *xu) {
  float *x = (float *)xu;
  int i = threadIdx.x;
  float v = x[i];
  x[i] = v < 0.f ? -0.f : v;
}

// Attacks: NaN-replacing select: x != x ? 0 : x.
// GMEM-EXPECT: fm_nan_to_zero idempotent
// GMEM-RUN: fm_nan_to_zero grid=1 block=32 args=buf:u32:32:const:2143289344
__global__ void fm_nan_to_zero(unsigned *xu) {
  float *x = (float *)xu;
  int i = threadIdx.x;
  float v = x[i];
  x[i] = (v != v) ? 0.f : v;
}

// Attacks: clamp with an infinite bound and a NaN-propagating fmax form (v > lo ? v : lo).
// GMEM-EXPECT: fm_sel_max idempotent
// GMEM-RUN: fm_sel_max grid=1 block=32 args=buf:u32:32:const:1048576000 f32:0.25
// GMEM-RUN: fm_sel_max grid=1 block=32 args=buf:u32:32:const:2143289344 f32:0.25
__global__ void fm_sel_max(unsigned *xu, float lo) {
  float *x = (float *)xu;
  int i = threadIdx.x;
  float v = x[i];
  x[i] = v > lo ? v : lo;
}

// Attacks: two replacements composed (5 -> 7, 0 -> 5): each alone idempotent.
// GMEM-EXPECT: fm_two_replace non-idempotent
// GMEM-RUN: fm_two_replace grid=1 block=32 args=buf:i32:32:randint:0:8
__global__ void fm_two_replace(int *x) {
  int i = threadIdx.x;
  int v = x[i];
  if (v == 5) v = 7;
  if (v == 0) v = 5;
  x[i] = v;
}

// Attacks: xor (not idempotent) disguised between and/or.
// GMEM-EXPECT: fm_xor_chain non-idempotent
// GMEM-RUN: fm_xor_chain grid=1 block=32 args=buf:u32:32:randint:0:100 u32:12
__global__ void fm_xor_chain(unsigned *x, unsigned m) {
  int i = threadIdx.x;
  x[i] = ((x[i] & 0xff) ^ m) | 1u;
}

// Attacks: min/max with the loaded value on both sides of a sub (x - c) then max.
// GMEM-EXPECT: fm_sub_max non-idempotent
// GMEM-RUN: fm_sub_max grid=1 block=32 args=buf:i32:32:randint:0:100 i32:3
__global__ void fm_sub_max(int *x, int c) {
  int i = threadIdx.x;
  x[i] = max(x[i] - c, 0);
}

// Attacks: signed clamp then unsigned clamp (two families): idempotent really.
// GMEM-EXPECT: fm_mixed_family idempotent
// GMEM-RUN: fm_mixed_family grid=1 block=32 args=buf:i32:32:randint:-50:500
__global__ void fm_mixed_family(int *x) {
  int i = threadIdx.x;
  x[i] = (int)min((unsigned)max(x[i], 0), 255u);
}

// Attacks: char saturation through int promotion (zext/trunc around the clamp).
// GMEM-EXPECT: fm_u8_sat idempotent
// GMEM-RUN: fm_u8_sat grid=1 block=32 args=buf:u8:32:randint:0:256
__global__ void fm_u8_sat(unsigned char *h) {
  int i = threadIdx.x;
  if (h[i] > 200) h[i] = 200;
}

// Attacks: signed char compared as unsigned then stored (sign mix).
// GMEM-EXPECT: fm_i8_mix idempotent
// GMEM-RUN: fm_i8_mix grid=1 block=32 args=buf:i8:32:randint:-128:128
__global__ void fm_i8_mix(signed char *h) {
  int i = threadIdx.x;
  signed char v = h[i];
  if ((unsigned char)v > 100) h[i] = -3;
}

// Attacks: guard depends on the value; stored value replaces with something
// that itself meets the guard (c = 300 > 255: replaced each run by itself).
// GMEM-EXPECT: fm_guard_meets idempotent
// GMEM-RUN: fm_guard_meets grid=1 block=32 args=buf:i32:32:randint:200:400
__global__ void fm_guard_meets(int *h) {
  int i = threadIdx.x;
  if (h[i] > 255) h[i] = 300;
}

// Attacks: float -> int -> float round trip (trunc) in place.
// GMEM-EXPECT: fm_ftoi_trunc idempotent
// GMEM-RUN: fm_ftoi_trunc grid=1 block=32 args=buf:f32:32:rand
__global__ void fm_ftoi_trunc(float *x) {
  int i = threadIdx.x;
  x[i] = (float)(int)(x[i] * 1.0f);
}

// Attacks: rounding in place: floorf, rintf, truncf, __saturatef.
// GMEM-EXPECT: fm_rounders idempotent
// GMEM-RUN: fm_rounders grid=1 block=32 args=buf:f32:128:rand
__global__ void fm_rounders(float *x) {
  int i = threadIdx.x;
  x[i] = floorf(x[i] * 1.0f + 0.0f);
  x[32 + i] = rintf(x[32 + i]);
  x[64 + i] = truncf(x[64 + i]);
  x[96 + i] = __saturatef(x[96 + i]);
}

// Attacks: floorf(x * 4) (scale inside, not idempotent).
// GMEM-EXPECT: fm_floor_scale non-idempotent
// GMEM-RUN: fm_floor_scale grid=1 block=32 args=buf:f32:32:rand
__global__ void fm_floor_scale(float *x) {
  int i = threadIdx.x;
  x[i] = floorf(x[i] * 4.0f);
}

// Attacks: fabs then negate: -|x| is idempotent? (-|-|x|| = -|x|): yes.
// GMEM-EXPECT: fm_negabs idempotent
// GMEM-RUN: fm_negabs grid=1 block=32 args=buf:f32:32:rand
__global__ void fm_negabs(float *x) {
  int i = threadIdx.x;
  x[i] = -fabsf(x[i]);
}

// Attacks: negate alone (not idempotent).
// GMEM-EXPECT: fm_neg non-idempotent
// GMEM-RUN: fm_neg grid=1 block=32 args=buf:f32:32:rand
__global__ void fm_neg(float *x) {
  int i = threadIdx.x;
  x[i] = -x[i];
}

// Attacks: copysign(x, -1) (idempotent), copysign(2, x) (both idempotent).
// GMEM-EXPECT: fm_copysign idempotent
// GMEM-RUN: fm_copysign grid=1 block=32 args=buf:f32:64:rand
__global__ void fm_copysign(float *x) {
  int i = threadIdx.x;
  x[i] = copysignf(x[i], -1.f);
  x[32 + i] = copysignf(2.f, x[32 + i]);
}

// Attacks: 64-bit mask with a scalar mask; u64.
// GMEM-EXPECT: fm_mask64 idempotent
// GMEM-RUN: fm_mask64 grid=1 block=32 args=buf:u64:32:randint:0:1000 u64:0xff00ff00ff00ff00
__global__ void fm_mask64(unsigned long long *x, unsigned long long m) {
  int i = threadIdx.x;
  x[i] = (x[i] & m) | 0x10ull;
}

// Attacks: shift pair (x >> 1) << 1 (clears bit 0: idempotent but not a form).
// GMEM-EXPECT: fm_shift_clear idempotent
// GMEM-RUN: fm_shift_clear grid=1 block=32 args=buf:u32:32:randint:0:1000
__global__ void fm_shift_clear(unsigned *x) {
  int i = threadIdx.x;
  x[i] = (x[i] >> 1) << 1;
}

// Attacks: store through a second pointer expression to the same bytes (x + i vs &x[i]) via char*.
// GMEM-EXPECT: fm_bytewise_update non-idempotent
// GMEM-RUN: fm_bytewise_update grid=1 block=32 args=buf:u32:32:randint:0:1000
__global__ void fm_bytewise_update(unsigned *x) {
  int i = threadIdx.x;
  unsigned v = x[i];
  unsigned char *b = (unsigned char *)&x[i];
  b[0] = (unsigned char)(v + 1);
}

// Attacks: load 4 bytes, store 4 bytes at offset +2 (overlapping, same width).
// GMEM-EXPECT: fm_shifted_store non-idempotent
// GMEM-RUN: fm_shifted_store grid=1 block=1 args=buf:u32:8:randint:0:100
__global__ void fm_shifted_store(unsigned *xu) {
  unsigned short *x = (unsigned short *)xu;
  unsigned v;
  memcpy(&v, x, 4);
  v = v | 1u;
  memcpy(x + 1, &v, 4);
}

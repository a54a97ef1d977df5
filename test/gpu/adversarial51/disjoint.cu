// Adversarial round 5 (session 51): same-buffer read/write pairs that the
// disjointness prover must not prove apart (or must prove only per launch):
// mixed element widths, truncations, masks, xor partners, division
// rounding, reversed halves, pitch parameters smaller than the row.

// Attacks: read a float at a[2i], write a double over a[2i..2i+1] of another index (width mix).
// GMEM-EXPECT: dj_width_mix conditional
// GMEM-RUN: dj_width_mix grid=1 block=64 args=buf:f32:512:rand i32:64
// GMEM-RUN: dj_width_mix grid=1 block=64 args=buf:f32:512:rand i32:63
__global__ void dj_width_mix(float *a, int off) {
  int i = threadIdx.x;
  float v = a[2 * i + 1];
  double *d = (double *)a;
  d[i + off] = (double)v;
}

// Attacks: read halves (short) at odd slots, write ints at i + off (odd short = high half of int).
// GMEM-EXPECT: dj_short_int conditional
// GMEM-RUN: dj_short_int grid=1 block=64 args=buf:i32:256:rand i32:64
// GMEM-RUN: dj_short_int grid=1 block=64 args=buf:i32:256:rand i32:32
__global__ void dj_short_int(int *a, int off) {
  int i = threadIdx.x;
  short s = ((short *)a)[2 * i + 1];
  a[i + off] = s * 3;
}

// Attacks: byte at 4i+3 read, int written at i (same int's top byte) -- pairs that overlap exactly.
// GMEM-EXPECT: dj_top_byte non-idempotent
// GMEM-RUN: dj_top_byte grid=1 block=64 args=buf:i32:64:rand
__global__ void dj_top_byte(int *a) {
  int i = threadIdx.x;
  unsigned char c = ((unsigned char *)a)[4 * i + 3];
  a[i] = c + 1;
}

// Attacks: xor partner: read a[i ^ m], write a[i] for i < n (apart only if partners out of range).
// GMEM-EXPECT: dj_xor_partner conditional
// GMEM-RUN: dj_xor_partner grid=1 block=64 args=buf:i32:256:rand i32:128
// GMEM-RUN: dj_xor_partner grid=1 block=64 args=buf:i32:256:rand i32:1
__global__ void dj_xor_partner(int *a, int m) {
  int i = threadIdx.x;
  a[i] = a[i ^ m] + 1;
}

// Attacks: read a[i | 1], write a[i & ~1] (even/odd split: apart).
// GMEM-EXPECT: dj_odd_even idempotent
// GMEM-RUN: dj_odd_even grid=1 block=64 args=buf:i32:64:rand
__global__ void dj_odd_even(int *a) {
  int i = threadIdx.x;
  int v = a[i | 1];
  if ((i & 1) == 0) a[i & ~1] = v * 2;
}

// Attacks: read a[(i|1)], write a[(i & ~1) + d] (d = 1 makes them meet).
// GMEM-EXPECT: dj_odd_even_shift conditional
// GMEM-RUN: dj_odd_even_shift grid=1 block=64 args=buf:i32:80:rand i32:1
// GMEM-RUN: dj_odd_even_shift grid=1 block=64 args=buf:i32:80:rand i32:0
__global__ void dj_odd_even_shift(int *a, int d) {
  int i = threadIdx.x;
  int v = a[i | 1];
  if ((i & 1) == 0) a[(i & ~1) + d] = v * 2;
}

// Attacks: division rounding: read a[(i/3)*3 + 2], write a[(i/3)*3] for i%3==0, plus a[(i+1)/3*3+1].
// GMEM-EXPECT: dj_div_round conditional
// GMEM-RUN: dj_div_round grid=1 block=96 args=buf:i32:128:rand
__global__ void dj_div_round(int *a) {
  int i = threadIdx.x;
  int v = a[(i / 3) * 3 + 2];
  if (i % 3 == 0) a[(i / 3) * 3] = v;
  if (i % 3 == 1) a[((i + 1) / 3) * 3 + 1] = v;
}

// Attacks: reversed halves: read a[i], write a[n-1-i] for i < h (apart iff h <= n/2).
// GMEM-EXPECT: dj_reverse_half conditional
// GMEM-RUN: dj_reverse_half grid=1 block=64 args=buf:i32:128:rand i32:128 i32:64
// GMEM-RUN: dj_reverse_half grid=1 block=64 args=buf:i32:128:rand i32:100 i32:64
__global__ void dj_reverse_half(int *a, int n, int h) {
  int i = threadIdx.x;
  if (i < h) a[n - 1 - i] = a[i] + 7;
}

// Attacks: 2-D with a pitch parameter: read row y cols [0,w), write cols [w, 2w) of row y (pitch < 2w overlaps next row).
// GMEM-EXPECT: dj_pitch_cols conditional
// GMEM-RUN: dj_pitch_cols grid=1 block=16,8 args=buf:f32:1024:rand i32:32 i32:16
// GMEM-RUN: dj_pitch_cols grid=1 block=16,8 args=buf:f32:1024:rand i32:24 i32:16
__global__ void dj_pitch_cols(float *a, int pitch, int w) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w) a[y * pitch + x + w] = a[y * pitch + x] * 0.5f;
}

// Attacks: interleaved complex pairs: read re at 2i, write im at 2i+1 with a float2 store of a neighbour.
// GMEM-EXPECT: dj_float2_neighbor non-idempotent
// GMEM-RUN: dj_float2_neighbor grid=1 block=32 args=buf:f32:128:rand
__global__ void dj_float2_neighbor(float *a) {
  int i = threadIdx.x;
  float re = a[2 * i + 2];
  float2 *p = (float2 *)a;
  p[i] = make_float2(re, 0.0f);
}

// Attacks: modulo wrap: read a[(i + s) % n], write a[i] for i < c (apart iff the windows don't meet modulo n).
// GMEM-EXPECT: dj_mod_window conditional
// GMEM-RUN: dj_mod_window grid=1 block=32 args=buf:i32:128:rand i32:64 i32:128 i32:32
// GMEM-RUN: dj_mod_window grid=1 block=32 args=buf:i32:128:rand i32:110 i32:128 i32:32
__global__ void dj_mod_window(int *a, int s, int n, int c) {
  int i = threadIdx.x;
  if (i < c) a[i] = a[(i + s) % n] + 1;
}

// Attacks: unsigned wrap in the read index: read a[(unsigned)(i - k) ] guarded by unsigned < n.
// GMEM-EXPECT: dj_unsigned_wrap conditional
// GMEM-RUN: dj_unsigned_wrap grid=1 block=64 args=buf:i32:256:rand u32:3 u32:256 i32:128
// GMEM-RUN: dj_unsigned_wrap grid=1 block=64 args=buf:i32:256:rand u32:100 u32:256 i32:128
__global__ void dj_unsigned_wrap(int *a, unsigned k, unsigned n, int base) {
  unsigned i = threadIdx.x;
  unsigned j = i - k;
  int v = j < n ? a[j] : 0;
  a[i + base] = v;
}

// Attacks: 16-bit index arithmetic wraps: write a[(unsigned short)(i + k)], read a[i + 256].
// GMEM-EXPECT: dj_ushort_wrap conditional
// GMEM-RUN: dj_ushort_wrap grid=1 block=64 args=buf:i32:512:rand i32:65536
// GMEM-RUN: dj_ushort_wrap grid=1 block=64 args=buf:i32:512:rand i32:65792
__global__ void dj_ushort_wrap(int *a, int k) {
  int i = threadIdx.x;
  unsigned short j = (unsigned short)(i + k);
  a[j] = a[i + 256] + 1;
}

// Attacks: 8-bit signed index: write a[128 + (signed char)(i + k)], read a[256 + i].
// GMEM-EXPECT: dj_schar_wrap conditional
// GMEM-RUN: dj_schar_wrap grid=1 block=64 args=buf:i32:512:rand i32:0
// GMEM-RUN: dj_schar_wrap grid=1 block=64 args=buf:i32:512:rand i32:256
// GMEM-RUN: dj_schar_wrap grid=1 block=64 args=buf:i32:512:rand i32:100
__global__ void dj_schar_wrap(int *a, int k) {
  int i = threadIdx.x;
  signed char j = (signed char)(i + k);
  a[128 + j] = a[256 + i] + 1;
}

// Attacks: multiply by parameter stride with the read at an offset < stride (apart iff stride >= 2).
// GMEM-EXPECT: dj_stride_param conditional
// GMEM-RUN: dj_stride_param grid=1 block=64 args=buf:i32:256:rand i32:2
// GMEM-RUN: dj_stride_param grid=1 block=64 args=buf:i32:256:rand i32:1
// GMEM-RUN: dj_stride_param grid=1 block=64 args=buf:i32:256:rand i32:0
__global__ void dj_stride_param(int *a, int s) {
  int i = threadIdx.x;
  a[i * s] = a[i * s + 1] + 1;
}

// Attacks: product of two parameters as the stride, read at offset q (apart iff q < r*c and q >= 1...).
// GMEM-EXPECT: dj_two_param_stride conditional
// GMEM-RUN: dj_two_param_stride grid=1 block=16 args=buf:i32:1024:rand i32:4 i32:8 i32:5
// GMEM-RUN: dj_two_param_stride grid=1 block=16 args=buf:i32:1024:rand i32:4 i32:8 i32:32
__global__ void dj_two_param_stride(int *a, int r, int c, int q) {
  int i = threadIdx.x;
  a[i * r * c] = a[i * r * c + q] + 1;
}

// Attacks: min/max clamp of the write index to the read window's edge.
// GMEM-EXPECT: dj_clamp_edge conditional
// GMEM-RUN: dj_clamp_edge grid=1 block=64 args=buf:i32:256:rand i32:64 i32:200
// GMEM-RUN: dj_clamp_edge grid=1 block=64 args=buf:i32:256:rand i32:64 i32:10
__global__ void dj_clamp_edge(int *a, int lo, int hi) {
  int i = threadIdx.x;
  int w = max(lo + i, hi);
  a[min(w, 255)] = a[i] + 1;
}

// Attacks: 64-bit index product that wraps in 32 bits before widening.
// GMEM-EXPECT: dj_mul_wrap32 conditional
// GMEM-RUN: dj_mul_wrap32 grid=1 block=32 args=buf:i32:256:rand u32:65536 u32:65536 i32:64
// GMEM-RUN: dj_mul_wrap32 grid=1 block=32 args=buf:i32:256:rand u32:2 u32:3 i32:64
__global__ void dj_mul_wrap32(int *a, unsigned p, unsigned q, int base) {
  unsigned i = threadIdx.x;
  unsigned idx = p * q + i;
  a[(size_t)idx] = a[base + i] + 1;
}

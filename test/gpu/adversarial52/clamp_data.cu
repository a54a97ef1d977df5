// Adversarial round 6: indices loaded from memory and clamped by launch
// scalars at their extremes (n == 0 so that n - 1 wraps, n == -1 read as
// unsigned, INT_MIN, INT_MAX), signed vs unsigned min/max, one-sided guards
// on loaded values.

// Attacks: unsigned min(idx, n - 1) with n == 0 (n - 1 is UINT_MAX: idx unclamped).
// GMEM-EXPECT: cd_umin_nm1 conditional
// GMEM-RUN: cd_umin_nm1 grid=1 block=32 args=buf:i32:128:zero buf:u32:32:randint:0:128 u32:0
// GMEM-RUN: cd_umin_nm1 grid=1 block=32 args=buf:i32:128:zero buf:u32:32:randint:0:128 u32:16
__global__ void cd_umin_nm1(int *p, const unsigned *idx, unsigned n) {
  unsigned j = min(idx[threadIdx.x], n - 1u);
  p[j] = 1;
}

// Attacks: signed min(idx, n - 1) with n == 0: index -1 (below the pointer).
// GMEM-EXPECT: cd_smin_nm1 conditional
// GMEM-RUN: cd_smin_nm1 grid=1 block=32 args=buf:i32:128:zero ptr:0+64 buf:i32:32:randint:0:48 i32:0
// GMEM-RUN: cd_smin_nm1 grid=1 block=32 args=buf:i32:128:zero ptr:0+64 buf:i32:32:randint:-16:48 i32:30
__global__ void cd_smin_nm1(int *base, int *p, const int *idx, int n) {
  int j = min(idx[threadIdx.x], n - 1);
  p[j] = 2;
}

// Attacks: (unsigned)idx clamped by (unsigned)n with n == -1 (no clamp).
// GMEM-EXPECT: cd_umin_neg conditional
// GMEM-RUN: cd_umin_neg grid=1 block=32 args=buf:i32:128:zero buf:i32:32:randint:0:128 i32:-1
// GMEM-RUN: cd_umin_neg grid=1 block=32 args=buf:i32:128:zero buf:i32:32:randint:0:128 i32:-2147483648
__global__ void cd_umin_neg(int *p, const int *idx, int n) {
  unsigned j = min((unsigned)idx[threadIdx.x], (unsigned)n);
  p[j] = 3;
}

// Attacks: x < 0 ? 0 : min(x, w - 1) with w == 0 (gives -1 for x >= 0).
// GMEM-EXPECT: cd_clamp_w0 conditional
// GMEM-RUN: cd_clamp_w0 grid=1 block=32 args=buf:i32:128:zero ptr:0+64 buf:i32:32:randint:-20:60 i32:0
// GMEM-RUN: cd_clamp_w0 grid=1 block=32 args=buf:i32:128:zero ptr:0+64 buf:i32:32:randint:-20:60 i32:10
__global__ void cd_clamp_w0(int *base, int *p, const int *xs, int w) {
  int x = xs[threadIdx.x];
  int j = x < 0 ? 0 : min(x, w - 1);
  p[j] = 4;
}

// Attacks: guard idx < n (unsigned) with n from a scalar; idx loaded signed (negative -> huge, skipped).
// GMEM-EXPECT: cd_guard_unsigned conditional
// GMEM-RUN: cd_guard_unsigned grid=1 block=32 args=buf:i32:64:zero buf:i32:32:randint:-40:80 u32:64
// GMEM-RUN: cd_guard_unsigned grid=1 block=32 args=buf:i32:64:zero buf:i32:32:randint:-40:80 u32:0
__global__ void cd_guard_unsigned(int *p, const int *idx, unsigned n) {
  int j = idx[threadIdx.x];
  if ((unsigned)j < n) p[j] = 5;
}

// Attacks: guard j < n signed only (negative j passes): write lands below the pointer.
// GMEM-EXPECT: cd_guard_signed_only conditional
// GMEM-RUN: cd_guard_signed_only grid=1 block=32 args=buf:i32:128:zero ptr:0+256 buf:i32:32:randint:-40:40 i32:40
__global__ void cd_guard_signed_only(int *base, int *p, const int *idx, int n) {
  int j = idx[threadIdx.x];
  if (j < n) p[j] = 6;
}

// Attacks: max(idx, lo) with lo == INT_MIN (no lower clamp) then + off.
// GMEM-EXPECT: cd_max_intmin conditional
// GMEM-RUN: cd_max_intmin grid=1 block=32 args=buf:i32:128:zero ptr:0+256 buf:i32:32:randint:-40:40 i32:-2147483648 i32:39
__global__ void cd_max_intmin(int *base, int *p, const int *idx, int lo, int hi) {
  int j = min(max(idx[threadIdx.x], lo), hi);
  p[j] = 7;
}

// Attacks: clamp with hi < lo (min(max(x, lo), hi) == hi when hi < lo).
// GMEM-EXPECT: cd_inverted_clamp conditional
// GMEM-RUN: cd_inverted_clamp grid=1 block=32 args=buf:i32:128:zero buf:i32:32:randint:0:128 i32:100 i32:5
__global__ void cd_inverted_clamp(int *p, const int *idx, int lo, int hi) {
  int j = min(max(idx[threadIdx.x], lo), hi);
  p[j] = 8;
}

// Attacks: clamp applied as max(min(x, hi), lo) with hi < lo (== lo).
// GMEM-EXPECT: cd_inverted_clamp2 conditional
// GMEM-RUN: cd_inverted_clamp2 grid=1 block=32 args=buf:i32:128:zero buf:i32:32:randint:0:128 i32:100 i32:5
__global__ void cd_inverted_clamp2(int *p, const int *idx, int lo, int hi) {
  int j = max(min(idx[threadIdx.x], hi), lo);
  p[j] = 9;
}

// Attacks: loaded 64-bit index clamped by an int n sign-extended (n == -1: every index is above).
// GMEM-EXPECT: cd_min64_sext conditional
// GMEM-RUN: cd_min64_sext grid=1 block=32 args=buf:i32:128:zero ptr:0+256 buf:i64:32:randint:-30:30 i32:-1
__global__ void cd_min64_sext(int *base, int *p, const long long *idx, int n) {
  long long j = min(idx[threadIdx.x], (long long)n);
  p[j] = 10;
}

// Attacks: loaded 64-bit index unsigned-min'd with a zero-extended u32 n (n = 2^32-1: no clamp).
// GMEM-EXPECT: cd_umin64_zext conditional
// GMEM-RUN: cd_umin64_zext grid=1 block=32 args=buf:i32:128:zero buf:u64:32:randint:0:128 u32:4294967295
// GMEM-RUN: cd_umin64_zext grid=1 block=32 args=buf:i32:128:zero buf:u64:32:randint:0:128 u32:3
__global__ void cd_umin64_zext(int *p, const unsigned long long *idx, unsigned n) {
  unsigned long long j = min(idx[threadIdx.x], (unsigned long long)n);
  p[j] = 11;
}

// Attacks: byte loaded as signed char, used as an index after an unsigned guard on the int.
// GMEM-EXPECT: cd_schar_index conditional
// GMEM-RUN: cd_schar_index grid=1 block=32 args=buf:i32:64:zero ptr:0+128 buf:i8:32:randint:-128:128 i32:200
__global__ void cd_schar_index(int *base, int *p, const signed char *idx, int n) {
  int j = idx[threadIdx.x];
  if (j < n) p[j / 4] = 12;
}

// Attacks: index = loaded value modulo a scalar m (m == 1: all zero; negative values give negative remainders).
// GMEM-EXPECT: cd_srem_index conditional
// GMEM-RUN: cd_srem_index grid=1 block=32 args=buf:i32:64:zero ptr:0+128 buf:i32:32:randint:-100:100 i32:30
// GMEM-RUN: cd_srem_index grid=1 block=32 args=buf:i32:64:zero ptr:0+128 buf:i32:32:randint:-100:100 i32:-30
__global__ void cd_srem_index(int *base, int *p, const int *idx, int m) {
  p[idx[threadIdx.x] % m] = 13;
}

// Attacks: unsigned remainder by a scalar that is 0x80000000 with a negative loaded value.
// GMEM-EXPECT: cd_urem_big conditional
// GMEM-RUN: cd_urem_big grid=1 block=32 args=buf:i32:256:zero buf:i32:32:randint:-64:64 u32:2147483648 u32:2147483584
__global__ void cd_urem_big(int *p, const int *idx, unsigned m, unsigned sub) {
  unsigned r = (unsigned)idx[threadIdx.x] % m;
  unsigned j = r >= sub ? r - sub : r;
  if (j < 256) p[j] = 14;
}

// Attacks: division of a loaded value by a negative scalar divisor (rounds toward zero).
// GMEM-EXPECT: cd_sdiv_neg conditional
// GMEM-RUN: cd_sdiv_neg grid=1 block=32 args=buf:i32:64:zero ptr:0+128 buf:i32:32:randint:-100:100 i32:-4
__global__ void cd_sdiv_neg(int *base, int *p, const int *idx, int d) {
  p[idx[threadIdx.x] / d] = 15;
}

// Attacks: abs of a loaded value then a guard (abs(INT_MIN) stays negative).
// GMEM-EXPECT: cd_abs_loaded conditional
// GMEM-RUN: cd_abs_loaded grid=1 block=32 args=buf:i32:64:zero buf:i32:32:randint:-60:60 i32:64
__global__ void cd_abs_loaded(int *p, const int *idx, int n) {
  int v = idx[threadIdx.x];
  int a = v < 0 ? -v : v;
  if (a < n) p[a] = 16;
}

// Attacks: shift of a loaded value by a scalar >= 32 in 64 bits, then clamp.
// GMEM-EXPECT: cd_shift_loaded conditional
// GMEM-RUN: cd_shift_loaded grid=1 block=32 args=buf:i32:64:zero buf:i64:32:randint:0:4096 i32:6 i32:63
__global__ void cd_shift_loaded(int *p, const long long *v, int s, int hi) {
  long long j = v[threadIdx.x] >> s;
  p[j < hi ? j : hi] = 17;
}

// Attacks: min of a loaded unsigned and a scalar via the ternary in 16 bits (wraps at 65536).
// GMEM-EXPECT: cd_u16_clamp conditional
// GMEM-RUN: cd_u16_clamp grid=1 block=32 args=buf:i32:128:zero buf:u32:32:randint:65500:65600 u32:65535
__global__ void cd_u16_clamp(int *p, const unsigned *v, unsigned hi) {
  unsigned short x = (unsigned short)v[threadIdx.x];
  unsigned short j = x < (unsigned short)hi ? x : (unsigned short)hi;
  if (j < 128) p[j] = 18;
}

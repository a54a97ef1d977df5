// Adversarial round 6: launch-time scalars at their extremes (INT_MAX,
// UINT_MAX, -1, INT_MIN, 64-bit bounds above 2^32, 64-bit strides that wrap
// modulo 2^64), signed/unsigned and int/size_t compare mixes, pointers that
// overlap by one byte, one buffer passed with two element types.
#include <climits>

// Attacks: i <= n with n == INT_MAX (n + 1 wraps in 32 bits).
// GMEM-EXPECT: ls_le_n idempotent
// GMEM-RUN: ls_le_n grid=2 block=64 args=buf:i32:128:zero i32:2147483647
// GMEM-RUN: ls_le_n grid=2 block=64 args=buf:i32:128:zero i32:-1
// GMEM-RUN: ls_le_n grid=2 block=64 args=buf:i32:128:zero i32:-2147483648
// GMEM-RUN: ls_le_n grid=2 block=64 args=buf:i32:128:zero i32:0
__global__ void ls_le_n(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) p[i] = i + 1;
}

// Attacks: unsigned i <= n with n == UINT_MAX.
// GMEM-EXPECT: ls_ule_n idempotent
// GMEM-RUN: ls_ule_n grid=2 block=64 args=buf:i32:128:zero u32:4294967295
// GMEM-RUN: ls_ule_n grid=2 block=64 args=buf:i32:128:zero u32:0
__global__ void ls_ule_n(int *p, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) p[i] = 7;
}

// Attacks: threadIdx.x < n with int n converted to unsigned (-1 and INT_MIN admit everyone).
// GMEM-EXPECT: ls_tid_lt_int idempotent
// GMEM-RUN: ls_tid_lt_int grid=1 block=64 args=buf:i32:64:zero i32:-1
// GMEM-RUN: ls_tid_lt_int grid=1 block=64 args=buf:i32:64:zero i32:-2147483648
// GMEM-RUN: ls_tid_lt_int grid=1 block=64 args=buf:i32:64:zero i32:10
__global__ void ls_tid_lt_int(int *p, int n) {
  if (threadIdx.x < n) p[threadIdx.x] = 3;
}

// Attacks: size_t index against (size_t)n with int n negative (huge bound).
// GMEM-EXPECT: ls_sizet_int idempotent
// GMEM-RUN: ls_sizet_int grid=2 block=32 args=buf:f32:64:zero i32:-1
// GMEM-RUN: ls_sizet_int grid=2 block=32 args=buf:f32:64:zero i32:40
__global__ void ls_sizet_int(float *p, int n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (size_t)n) p[i] = 1.5f;
}

// Attacks: unsigned i < n - 1 with n == 0 (n - 1 wraps to UINT_MAX).
// GMEM-EXPECT: ls_lt_nm1 idempotent
// GMEM-RUN: ls_lt_nm1 grid=2 block=32 args=buf:i32:64:zero u32:0
// GMEM-RUN: ls_lt_nm1 grid=2 block=32 args=buf:i32:64:zero u32:1
// GMEM-RUN: ls_lt_nm1 grid=2 block=32 args=buf:i32:64:zero u32:20
__global__ void ls_lt_nm1(int *p, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n - 1) p[i] = 9;
}

// Attacks: int index vs 64-bit bound above 2^32 (must not be truncated).
// GMEM-EXPECT: ls_i_lt_n64 idempotent
// GMEM-RUN: ls_i_lt_n64 grid=2 block=32 args=buf:i32:64:zero i64:4294967301
// GMEM-RUN: ls_i_lt_n64 grid=2 block=32 args=buf:i32:64:zero i64:-4294967291
__global__ void ls_i_lt_n64(int *p, long long n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 4;
}

// Attacks: bound truncated to int from a 64-bit parameter (2^32 + 5 -> 5).
// GMEM-EXPECT: ls_trunc_n64 idempotent
// GMEM-RUN: ls_trunc_n64 grid=2 block=32 args=buf:i32:64:zero i64:4294967301
// GMEM-RUN: ls_trunc_n64 grid=2 block=32 args=buf:i32:64:zero i64:8589934591
__global__ void ls_trunc_n64(int *p, long long n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (int)n) p[i] = 5;
}

// Attacks: unsigned index vs u64 bound via a uint cast of the bound (2^32 + 40 -> 40; 2^32 - 1 -> all).
// GMEM-EXPECT: ls_ucast_n64 idempotent
// GMEM-RUN: ls_ucast_n64 grid=2 block=32 args=buf:i32:64:zero u64:4294967336
// GMEM-RUN: ls_ucast_n64 grid=2 block=32 args=buf:i32:64:zero u64:4294967295
__global__ void ls_ucast_n64(int *p, unsigned long long n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (unsigned)n) p[i] = 6;
}

// Attacks: 64-bit stride that is 2^62+1 floats (4 * s wraps to 4 modulo 2^64: p[i*s] == p[i]).
// GMEM-EXPECT: ls_stride_wrap64 idempotent
// GMEM-RUN: ls_stride_wrap64 grid=1 block=32 args=buf:f32:32:zero u64:4611686018427387905
// GMEM-RUN: ls_stride_wrap64 grid=1 block=32 args=buf:f32:32:zero u64:1
__global__ void ls_stride_wrap64(float *p, unsigned long long s) {
  unsigned long long i = threadIdx.x;
  p[i * s] = 2.0f;
}

// Attacks: 64-bit stride 2^62-1 floats (4 * s == -4 modulo 2^64): writes walk down from p.
// GMEM-EXPECT: ls_stride_neg64 idempotent
// GMEM-RUN: ls_stride_neg64 grid=1 block=32 args=buf:f32:64:zero ptr:0+252 u64:4611686018427387903
__global__ void ls_stride_neg64(float *base, float *p, unsigned long long s) {
  unsigned long long i = threadIdx.x;
  p[i * s] = 3.0f;
}

// Attacks: signed 64-bit stride -1 from an int scalar (sign extended): writes below p.
// GMEM-EXPECT: ls_stride_sext conditional
// GMEM-RUN: ls_stride_sext grid=1 block=32 args=buf:f32:64:rand ptr:0+252 i32:-1
// GMEM-RUN: ls_stride_sext grid=1 block=32 args=buf:f32:64:rand ptr:0+128 i32:1
__global__ void ls_stride_sext(const float *in, float *p, int s) {
  long long i = threadIdx.x;
  p[i * (long long)s] = in[i] * 2.0f;
}

// Attacks: unsigned stride zero-extended (-1 as u32 is 2^32-1 elements: must be far away, not -1).
// GMEM-EXPECT: ls_stride_zext conditional
// GMEM-RUN: ls_stride_zext grid=1 block=1 args=buf:f32:64:rand ptr:0+128 u32:4294967295
__global__ void ls_stride_zext(const float *in, float *p, unsigned s) {
  unsigned long long i = threadIdx.x;
  p[i * s] = in[i] + 1.0f;
}

// Attacks: min(i, n) with a negative n: index below the pointer.
// GMEM-EXPECT: ls_min_neg idempotent
// GMEM-RUN: ls_min_neg grid=1 block=32 args=buf:i32:64:zero ptr:0+128 i32:-5
// GMEM-RUN: ls_min_neg grid=1 block=32 args=buf:i32:64:zero ptr:0+128 i32:7
__global__ void ls_min_neg(int *base, int *p, int n) {
  int i = threadIdx.x;
  p[min(i, n)] = 11;
}

// Attacks: max(i - k, lo) with lo negative.
// GMEM-EXPECT: ls_max_lo idempotent
// GMEM-RUN: ls_max_lo grid=1 block=32 args=buf:i32:64:zero ptr:0+128 i32:10 i32:-20
__global__ void ls_max_lo(int *base, int *p, int k, int lo) {
  int i = threadIdx.x;
  p[max(i - k, lo)] = 12;
}

// Attacks: int out and char in over one buffer: overlap of exactly one byte.
// GMEM-EXPECT: ls_byte_overlap conditional
// GMEM-RUN: ls_byte_overlap grid=1 block=64 args=buf:i32:128:const:-1 ptr:0+256
// GMEM-RUN: ls_byte_overlap grid=1 block=64 args=buf:i32:128:const:-1 ptr:0+255
// GMEM-RUN: ls_byte_overlap grid=1 block=64 args=buf:i32:128:const:-1 ptr:0+0
__global__ void ls_byte_overlap(int *out, const signed char *in) {
  int i = threadIdx.x;
  out[i] = in[i] + 1;
}

// Attacks: float in one element before the output (in = out - 4 bytes).
// GMEM-EXPECT: ls_neg_byte conditional
// GMEM-RUN: ls_neg_byte grid=1 block=32 args=buf:u8:256:rand ptr:0+132 ptr:0+128
// GMEM-RUN: ls_neg_byte grid=1 block=32 args=buf:u8:256:rand ptr:0+128 ptr:0+0
__global__ void ls_neg_byte(unsigned char *base, float *out, const float *in) {
  int i = threadIdx.x;
  if (i < 16) out[i] = in[i] * 0.5f + 1.0f;
}

// Attacks: one buffer as double* and float*: write d[i], read f[2i+2] (the next double's half).
// GMEM-EXPECT: ls_types_two conditional
// GMEM-RUN: ls_types_two grid=1 block=32 args=buf:f64:80:rand ptr:0+0
// GMEM-RUN: ls_types_two grid=1 block=32 args=buf:f64:80:rand ptr:0+256
__global__ void ls_types_two(double *d, const float *f) {
  int i = threadIdx.x;
  float v = f[2 * i + 2];
  __syncthreads();
  d[i] = (double)v;
}

// Attacks: bound from a multiply of two scalars that wraps in 32 bits (65536*65536 == 0).
// GMEM-EXPECT: ls_mul_bound idempotent
// GMEM-RUN: ls_mul_bound grid=2 block=32 args=buf:i32:64:zero u32:65536 u32:65536
// GMEM-RUN: ls_mul_bound grid=2 block=32 args=buf:i32:64:zero u32:65537 u32:65535
__global__ void ls_mul_bound(int *p, unsigned a, unsigned b) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a * b) p[i] = 8;
}

// Attacks: start offset that wraps: p[i + off] with unsigned off = 2^32 - 8, 64-bit pointer math after zext.
// GMEM-EXPECT: ls_off_wrap idempotent
// GMEM-RUN: ls_off_wrap grid=1 block=32 args=buf:i32:64:zero u32:4294967288
__global__ void ls_off_wrap(int *p, unsigned off) {
  unsigned j = threadIdx.x + off + 8u;
  p[j] = 1;
}

// Attacks: a 16-bit scalar bound (unsigned short 0xffff passed as u32 70000 -> 4464).
// GMEM-EXPECT: ls_short_bound idempotent
// GMEM-RUN: ls_short_bound grid=2 block=64 args=buf:i32:128:zero u32:65616
__global__ void ls_short_bound(int *p, unsigned n) {
  unsigned short m = (unsigned short)n;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) p[i] = 2;
}

// Attacks: bound is n >> s with s >= 32 through a 64-bit shift of a 32-bit n.
// GMEM-EXPECT: ls_shift_bound idempotent
// GMEM-RUN: ls_shift_bound grid=2 block=64 args=buf:i32:128:zero i64:549755813888 i32:33
__global__ void ls_shift_bound(int *p, long long n, int s) {
  long long i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (n >> s)) p[i] = 2;
}

// Attacks: the index is n - 1 - i for unsigned i with n == 0 ... guarded by j < cap.
// GMEM-EXPECT: ls_rev_guard idempotent
// GMEM-RUN: ls_rev_guard grid=1 block=64 args=buf:i32:64:zero u32:0 u32:64
// GMEM-RUN: ls_rev_guard grid=1 block=64 args=buf:i32:64:zero u32:70 u32:64
__global__ void ls_rev_guard(int *p, unsigned n, unsigned cap) {
  unsigned j = n - 1u - threadIdx.x;
  if (j < cap) p[j] = 5;
}

// Attacks: i < n for unsigned i against (unsigned)(n_signed) after an abs-like select.
// GMEM-EXPECT: ls_abs_bound idempotent
// GMEM-RUN: ls_abs_bound grid=1 block=64 args=buf:i32:64:zero i32:-40
// GMEM-RUN: ls_abs_bound grid=1 block=64 args=buf:i32:64:zero i32:-2147483647
__global__ void ls_abs_bound(int *p, int n) {
  int m = n < 0 ? -n : n;
  if ((int)threadIdx.x < m) p[threadIdx.x] = 1;
}

// Attacks: a signed compare of a 64-bit index against a bound that is a u32 parameter (zext).
// GMEM-EXPECT: ls_zext_bound idempotent
// GMEM-RUN: ls_zext_bound grid=2 block=32 args=buf:i32:64:zero u32:4294967295
__global__ void ls_zext_bound(int *p, unsigned n) {
  long long i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (long long)n) p[i] = 1;
}

// Attacks: a signed compare against an i32 that is sign-extended to 64 (INT_MIN: nobody).
// GMEM-EXPECT: ls_sext_bound idempotent
// GMEM-RUN: ls_sext_bound grid=2 block=32 args=buf:i32:64:zero i32:-2147483648
// GMEM-RUN: ls_sext_bound grid=2 block=32 args=buf:i32:64:zero i32:2147483647
__global__ void ls_sext_bound(int *p, int n) {
  long long i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (long long)n) p[i] = 1;
}

// Adversarial round 48: index arithmetic that differs between 32 and 64
// bits, NVVM integer intrinsics, runtime shifts, signed remainders and
// quotients, abs/min/max on indices. Pointers named `p` often point into the
// middle of the buffer `base` so that negative indices stay in bounds.

// __mul24 sign-extends its 24-bit operands: a = 0xFFFFFF is -1, so p[-t].
// GMEM-EXPECT: mul24_neg idempotent
// GMEM-RUN: mul24_neg grid=1 block=64 args=buf:f32:4096:zero ptr:0+8192 i32:16777215
// GMEM-RUN: mul24_neg grid=2 block=64 args=buf:f32:4096:zero ptr:0+8192 i32:3
// GMEM-RUN: mul24_neg grid=1 block=128 args=buf:f32:4096:zero ptr:0+8192 i32:33554430
__global__ void mul24_neg(float *base, float *p, int a) {
  p[__mul24(a, (int)threadIdx.x)] = 1.0f;
}

// Read index through __mul24 with a 25-bit factor: 16777216 is 0 in 24 bits,
// so every thread reads a[0], which thread 0 writes.
// GMEM-EXPECT: mul24_rw conditional
// GMEM-RUN: mul24_rw grid=1 block=64 args=buf:f32:1024:rand i32:16777216
// GMEM-RUN: mul24_rw grid=1 block=64 args=buf:f32:1024:rand i32:16777217
__global__ void mul24_rw(float *a, int s) {
  int t = threadIdx.x;
  float v = a[__mul24(t + 64, s)];
  __syncthreads();
  a[t] = v + 1.0f;
}

// __umul24 keeps the low 24 bits: 0x1000010 * t is 16 * t.
// GMEM-EXPECT: umul24_rw conditional
// GMEM-RUN: umul24_rw grid=1 block=64 args=buf:f32:2048:rand u32:16777233
// GMEM-RUN: umul24_rw grid=1 block=64 args=buf:f32:2048:rand u32:16
__global__ void umul24_rw(float *a, unsigned s) {
  unsigned t = threadIdx.x;
  float v = a[__umul24(t, s)];
  __syncthreads();
  a[1024 + t] = v * 2.0f + 1.0f;
}

// __umulhi(gid, m): the high word of a 64-bit product.
// GMEM-EXPECT: umulhi_gather conditional
// GMEM-RUN: umulhi_gather grid=4 block=64 args=buf:f32:256:zero buf:f32:256:rand u32:2147483648
// GMEM-RUN: umulhi_gather grid=1 block=256 args=buf:f32:512:rand ptr:0+0 u32:4294967295
__global__ void umulhi_gather(float *out, const float *in, unsigned m) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[__umulhi(g, m)];
  __syncthreads();
  out[g] = v + 1.0f;
}

// __mulhi of a signed value: (t - 32) * 2^30 >> 32 = floor((t - 32) / 4).
// GMEM-EXPECT: mulhi_neg idempotent
// GMEM-RUN: mulhi_neg grid=1 block=64 args=buf:f32:1024:zero ptr:0+2048 i32:1073741824
// GMEM-RUN: mulhi_neg grid=1 block=64 args=buf:f32:1024:zero ptr:0+2048 i32:-1073741824
__global__ void mulhi_neg(float *base, float *p, int m) {
  p[__mulhi((int)threadIdx.x - 32, m)] = 2.0f;
}

// Runtime left shift of the thread index.
// GMEM-EXPECT: shl_var idempotent
// GMEM-RUN: shl_var grid=1 block=64 args=buf:f32:8192:zero i32:3
// GMEM-RUN: shl_var grid=2 block=32 args=buf:f32:8192:zero i32:7
__global__ void shl_var(float *p, int s) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  p[g << s] = 3.0f;
}

// Arithmetic right shift of a negative index by a runtime amount.
// GMEM-EXPECT: ashr_var idempotent
// GMEM-RUN: ashr_var grid=1 block=64 args=buf:f32:1024:zero ptr:0+2048 i32:2
// GMEM-RUN: ashr_var grid=1 block=64 args=buf:f32:1024:zero ptr:0+2048 i32:0
__global__ void ashr_var(float *base, float *p, int s) {
  int x = (int)threadIdx.x - 40;
  p[x >> s] = 4.0f;
}

// Logical right shift of a wrapped value: (t - 8u) >> s is huge for t < 8
// unless s is large; with s = 28 it is 15 for t < 8 and 0 otherwise.
// GMEM-EXPECT: lshr_wrap idempotent
// GMEM-RUN: lshr_wrap grid=1 block=64 args=buf:f32:64:zero i32:28
// GMEM-RUN: lshr_wrap grid=1 block=64 args=buf:f32:64:zero i32:31
__global__ void lshr_wrap(float *p, int s) {
  unsigned x = threadIdx.x - 8u;
  p[x >> s] = 5.0f;
}

// C's remainder takes the dividend's sign: (t - 40) % n lies in (-|n|, |n|).
// GMEM-EXPECT: srem_neg idempotent
// GMEM-RUN: srem_neg grid=1 block=64 args=buf:f32:256:zero ptr:0+512 i32:7
// GMEM-RUN: srem_neg grid=1 block=64 args=buf:f32:256:zero ptr:0+512 i32:-5
// GMEM-RUN: srem_neg grid=1 block=64 args=buf:f32:256:zero ptr:0+512 i32:1000
__global__ void srem_neg(float *base, float *p, int n) {
  p[((int)threadIdx.x - 40) % n] = 6.0f;
}

// In place: reads a[(t - 40) % n + 120], writes a[t + 128]: n = -7 keeps the
// reads in [114, 126], n = 100 reaches [80, 143].
// GMEM-EXPECT: srem_rw conditional
// GMEM-RUN: srem_rw grid=1 block=64 args=buf:f32:256:rand i32:-7
// GMEM-RUN: srem_rw grid=1 block=64 args=buf:f32:256:rand i32:100
__global__ void srem_rw(float *a, int n) {
  int t = threadIdx.x;
  float v = a[(t - 40) % n + 120];
  __syncthreads();
  a[t + 128] = v + 1.0f;
}

// Signed division by a runtime (negative) divisor.
// GMEM-EXPECT: sdiv_neg idempotent
// GMEM-RUN: sdiv_neg grid=1 block=64 args=buf:f32:256:zero ptr:0+512 i32:-3
// GMEM-RUN: sdiv_neg grid=1 block=64 args=buf:f32:256:zero ptr:0+512 i32:5
// GMEM-RUN: sdiv_neg grid=1 block=64 args=buf:f32:256:zero ptr:0+512 i32:-1
__global__ void sdiv_neg(float *base, float *p, int d) {
  p[((int)threadIdx.x - 10) / d] = 7.0f;
}

// abs() of an index difference.
// GMEM-EXPECT: abs_idx idempotent
// GMEM-RUN: abs_idx grid=1 block=64 args=buf:f32:256:zero i32:40
// GMEM-RUN: abs_idx grid=1 block=64 args=buf:f32:256:zero i32:-20
__global__ void abs_idx(float *p, int c) {
  p[abs((int)threadIdx.x - c)] = 8.0f;
}

// abs() in place: reads a[|t - c|], writes a[t + 64]; c = 100 reaches the writes.
// GMEM-EXPECT: abs_rw conditional
// GMEM-RUN: abs_rw grid=1 block=64 args=buf:f32:512:rand i32:100
// GMEM-RUN: abs_rw grid=1 block=64 args=buf:f32:512:rand i32:0
__global__ void abs_rw(float *a, int c) {
  int t = threadIdx.x;
  float v = a[abs(t - c)];
  __syncthreads();
  a[t + 64] = v + 1.0f;
}

// 64-bit abs of a long difference.
// GMEM-EXPECT: llabs_idx idempotent
// GMEM-RUN: llabs_idx grid=1 block=64 args=buf:f32:512:zero i64:-300
// GMEM-RUN: llabs_idx grid=1 block=64 args=buf:f32:512:zero i64:300
__global__ void llabs_idx(float *p, long long c) {
  long long d = (long long)threadIdx.x + c;
  p[d < 0 ? -d : d] = 9.0f;
}

// min of a signed index that may be negative and a bound.
// GMEM-EXPECT: min_neg idempotent
// GMEM-RUN: min_neg grid=1 block=64 args=buf:f32:256:zero ptr:0+256 i32:20
// GMEM-RUN: min_neg grid=1 block=64 args=buf:f32:256:zero ptr:0+256 i32:-30
__global__ void min_neg(float *base, float *p, int n) {
  p[min((int)threadIdx.x - 8, n)] = 10.0f;
}

// max(unsigned, int): CUDA picks the unsigned overload; n = -1 is 0xFFFFFFFF,
// but the min with 63 keeps it in bounds.
// GMEM-EXPECT: max_mixed idempotent
// GMEM-RUN: max_mixed grid=1 block=64 args=buf:f32:64:zero i32:-1
// GMEM-RUN: max_mixed grid=1 block=64 args=buf:f32:64:zero i32:10
__global__ void max_mixed(float *p, int n) {
  unsigned m = max(threadIdx.x, n);
  p[min(m, 63u)] = 11.0f;
}

// A 32-bit product that wraps, used as a 64-bit (size_t) index: r * c = 2^32
// wraps to 0, so the index is just t.
// GMEM-EXPECT: u32_prod_wrap idempotent
// GMEM-RUN: u32_prod_wrap grid=1 block=64 args=buf:f32:128:zero u32:65536 u32:65536
// GMEM-RUN: u32_prod_wrap grid=1 block=64 args=buf:f32:128:zero u32:1 u32:64
__global__ void u32_prod_wrap(float *p, unsigned r, unsigned c) {
  size_t idx = r * c + threadIdx.x;
  p[idx] = 12.0f;
}

// In place with the wrapping product: reads a[(r*c mod 2^32) + t] and
// writes a[t + 64]: with r*c = 2^32 + 64 the read is the write.
// GMEM-EXPECT: u32_prod_rw conditional
// GMEM-RUN: u32_prod_rw grid=1 block=64 args=buf:f32:256:rand u32:67108865 u32:64
// GMEM-RUN: u32_prod_rw grid=1 block=64 args=buf:f32:256:rand u32:2 u32:64
__global__ void u32_prod_rw(float *a, unsigned r, unsigned c) {
  size_t idx = r * c + threadIdx.x;
  float v = a[idx];
  __syncthreads();
  a[threadIdx.x + 64] = v + 1.0f;
}

// The same product taken in 64 bits: (long)r * c with negative r.
// GMEM-EXPECT: i64_prod_neg idempotent
// GMEM-RUN: i64_prod_neg grid=1 block=64 args=buf:f32:1024:zero ptr:0+2048 i32:-1 i32:64
// GMEM-RUN: i64_prod_neg grid=1 block=64 args=buf:f32:1024:zero ptr:0+2048 i32:3 i32:-100
__global__ void i64_prod_neg(float *base, float *p, int r, int c) {
  p[(long)r * c + threadIdx.x] = 13.0f;
}

// Unsigned t - 1 at t = 0 is 0xFFFFFFFF; as int it is -1.
// GMEM-EXPECT: unsigned_minus1 idempotent
// GMEM-RUN: unsigned_minus1 grid=1 block=64 args=buf:f32:128:zero ptr:0+4
// GMEM-RUN: unsigned_minus1 grid=3 block=32 args=buf:f32:128:zero ptr:0+4
__global__ void unsigned_minus1(float *base, float *p) {
  int j = (int)(threadIdx.x - 1u);
  p[j] = 14.0f;
}

// Unsigned t - 1 read in place: a[t] = a[(int)(t - 1)] + 1 (p = a + 1).
// GMEM-EXPECT: unsigned_minus1_rw non-idempotent
// GMEM-RUN: unsigned_minus1_rw grid=1 block=64 args=buf:f32:256:rand ptr:0+4
__global__ void unsigned_minus1_rw(float *base, float *p) {
  unsigned t = threadIdx.x;
  float v = p[(int)(t - 1u)];
  __syncthreads();
  p[(int)t + 64] = v;
  if (t == 0) p[-1] = 0.5f * v;
}

// A 16-bit truncation of t * m read as signed: t * 1000 wraps past 32767.
// GMEM-EXPECT: short_trunc idempotent
// GMEM-RUN: short_trunc grid=1 block=64 args=buf:f32:131072:zero ptr:0+262144 i32:1000
// GMEM-RUN: short_trunc grid=1 block=64 args=buf:f32:131072:zero ptr:0+262144 i32:3
__global__ void short_trunc(float *base, float *p, int m) {
  short s = (short)(threadIdx.x * m);
  p[s] = 15.0f;
}

// A 64-bit parameter truncated to int: L = 2^32 + 5 gives index 5 + t.
// GMEM-EXPECT: i64_trunc_param idempotent
// GMEM-RUN: i64_trunc_param grid=1 block=64 args=buf:f32:256:zero i64:4294967301
// GMEM-RUN: i64_trunc_param grid=1 block=64 args=buf:f32:256:zero i64:-4294967291
__global__ void i64_trunc_param(float *p, long long L) {
  int j = (int)L + (int)threadIdx.x;
  p[j] = 16.0f;
}

// Truncated 64-bit parameter in place: reads a[(int)L + t], writes a[t].
// GMEM-EXPECT: i64_trunc_rw conditional
// GMEM-RUN: i64_trunc_rw grid=1 block=64 args=buf:f32:512:rand i64:4294967306
// GMEM-RUN: i64_trunc_rw grid=1 block=64 args=buf:f32:512:rand i64:4294967396
__global__ void i64_trunc_rw(float *a, long long L) {
  int t = threadIdx.x;
  float v = a[(int)L + t];
  __syncthreads();
  a[t] = v * 0.5f + 1.0f;
}

// A negative 64-bit offset.
// GMEM-EXPECT: i64_neg_param idempotent
// GMEM-RUN: i64_neg_param grid=2 block=64 args=buf:f32:512:zero ptr:0+1024 i64:-200
__global__ void i64_neg_param(float *base, float *p, long long L) {
  p[L + blockIdx.x * blockDim.x + threadIdx.x] = 17.0f;
}

// Zero-extension of a wrapped 32-bit sum, guarded: t + off for off =
// 2^32 - 64 is t - 64 for t >= 64.
// GMEM-EXPECT: zext_wrap_guard idempotent
// GMEM-RUN: zext_wrap_guard grid=1 block=128 args=buf:f32:128:zero u32:4294967232
// GMEM-RUN: zext_wrap_guard grid=1 block=128 args=buf:f32:256:zero u32:64
__global__ void zext_wrap_guard(float *p, unsigned off) {
  unsigned t = threadIdx.x;
  if (t >= 64)
    p[(size_t)(t + off)] = 18.0f;
}

// Unsigned product as int, sign-extended: (2t) * m for m = 2^31 + 1 is 2t
// (mod 2^32), though (2t) * m as a mathematical product is far outside int.
// GMEM-EXPECT: sext_wrap_prod idempotent
// GMEM-RUN: sext_wrap_prod grid=1 block=64 args=buf:f32:256:zero u32:2147483649
// GMEM-RUN: sext_wrap_prod grid=1 block=64 args=buf:f32:256:zero u32:1
__global__ void sext_wrap_prod(float *p, unsigned m) {
  int j = (int)((threadIdx.x * 2u) * m);
  p[j] = 19.0f;
}

// The same wrap in place: reads a[(int)(2t*m) + off], writes a[t + 128].
// GMEM-EXPECT: sext_wrap_rw conditional
// GMEM-RUN: sext_wrap_rw grid=1 block=64 args=buf:f32:512:rand u32:2147483649 i32:64
// GMEM-RUN: sext_wrap_rw grid=1 block=64 args=buf:f32:512:rand u32:2147483649 i32:256
__global__ void sext_wrap_rw(float *a, unsigned m, int off) {
  unsigned t = threadIdx.x;
  int j = (int)((t * 2u) * m);
  float v = a[j + off];
  __syncthreads();
  a[t + 128] = v + 1.0f;
}

// Runtime shift right then left (rounding down to a multiple of 2^s).
// GMEM-EXPECT: round_down_shift conditional
// GMEM-RUN: round_down_shift grid=1 block=64 args=buf:f32:256:rand i32:4 u32:0
// GMEM-RUN: round_down_shift grid=1 block=64 args=buf:f32:256:rand i32:3 u32:64
__global__ void round_down_shift(float *a, int s, unsigned k) {
  unsigned t = threadIdx.x;
  float v = a[((t + 64 + k) >> s) << s];
  __syncthreads();
  a[t + 128] = v + 1.0f;
}

// Bit reversal of the thread index (FFT ordering), in place when n = 64:
// reads a[rev(t)], writes a[t] with rev a permutation of the same range.
// GMEM-EXPECT: brev_rw non-idempotent
// GMEM-RUN: brev_rw grid=1 block=64 args=buf:f32:64:iota i32:6
__global__ void brev_rw(float *a, int logn) {
  unsigned t = threadIdx.x;
  float v = a[__brev(t) >> (32 - logn)];
  __syncthreads();
  a[t] = v;
}

// __byte_perm selecting byte 0 of t and three zero bytes: the index is t & 255.
// GMEM-EXPECT: byte_perm_idx idempotent
// GMEM-RUN: byte_perm_idx grid=1 block=64 args=buf:f32:256:zero u32:17472
__global__ void byte_perm_idx(float *p, unsigned s) {
  p[__byte_perm(threadIdx.x, 0, s)] = 20.0f;
}

// popcount-based index.
// GMEM-EXPECT: popc_idx idempotent
// GMEM-RUN: popc_idx grid=1 block=64 args=buf:f32:64:zero u32:4294967295
__global__ void popc_idx(float *p, unsigned m) {
  p[__popc(threadIdx.x & m) * 8] = 21.0f;
}

// Leading-zero count: 31 - clz(t + 1) is floor(log2(t + 1)).
// GMEM-EXPECT: clz_idx idempotent
// GMEM-RUN: clz_idx grid=1 block=64 args=buf:f32:64:zero
__global__ void clz_idx(float *p) {
  p[31 - __clz((int)threadIdx.x + 1)] = 22.0f;
}

// funnel shift right: (hi:lo) >> s with lo = t, hi = k: bits of k come in.
// GMEM-EXPECT: funnel_idx idempotent
// GMEM-RUN: funnel_idx grid=1 block=64 args=buf:f32:4096:zero u32:1 i32:28
// GMEM-RUN: funnel_idx grid=1 block=64 args=buf:f32:4096:zero u32:0 i32:2
__global__ void funnel_idx(float *p, unsigned k, int s) {
  p[__funnelshift_r(threadIdx.x, k, s) & 4095] = 23.0f;
}

// Division of the global index by a runtime divisor, then remainder.
// GMEM-EXPECT: divmod_2d idempotent
// GMEM-RUN: divmod_2d grid=4 block=64 args=buf:f32:4096:zero u32:10 u32:100
// GMEM-RUN: divmod_2d grid=4 block=64 args=buf:f32:4096:zero u32:256 u32:3
__global__ void divmod_2d(float *p, unsigned w, unsigned pitch) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned r = g / w, c = g % w;
  p[r * pitch + c] = 24.0f;
}

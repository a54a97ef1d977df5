// Adversarial round 48: vector and sub-word accesses: float4/int2/double2
// loads and stores, reinterpret_casts to wider types at byte offsets,
// byte-granular writes at 3*i + k, byte loops the compiler turns into
// memset/memcpy, array-of-structs with padding, cache-hint loads and
// stores, volatile.

// float4 store at a vector index: 16 bytes per thread.
// GMEM-EXPECT: f4_store idempotent
// GMEM-RUN: f4_store grid=2 block=32 args=buf:f32:1024:zero i32:3
__global__ void f4_store(float *p, int off) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  reinterpret_cast<float4 *>(p)[g + off] = make_float4(1, 2, 3, 4);
}

// float4 copy where out aliases in one vector later: in-place shift.
// GMEM-EXPECT: f4_copy_shift conditional
// GMEM-RUN: f4_copy_shift grid=1 block=64 args=buf:f32:1024:rand ptr:0+16
// GMEM-RUN: f4_copy_shift grid=1 block=64 args=buf:f32:2048:rand ptr:0+4096
__global__ void f4_copy_shift(const float *in, float *out) {
  unsigned t = threadIdx.x;
  float4 v = reinterpret_cast<const float4 *>(in)[t];
  __syncthreads();
  v.x += 1.0f;
  reinterpret_cast<float4 *>(out)[t] = v;
}

// int2 load at an odd element offset (8-byte aligned because off is even).
// GMEM-EXPECT: i2_gather conditional
// GMEM-RUN: i2_gather grid=1 block=64 args=buf:i32:256:zero buf:i32:512:iota i32:6
__global__ void i2_gather(int *out, const int *in, int off) {
  unsigned t = threadIdx.x;
  int2 v = *reinterpret_cast<const int2 *>(in + off + 2 * t);
  out[t] = v.x + v.y;
}

// double2 through a char pointer at a runtime byte offset.
// GMEM-EXPECT: d2_byte_offset idempotent
// GMEM-RUN: d2_byte_offset grid=1 block=32 args=buf:f64:512:zero i32:48
__global__ void d2_byte_offset(double *p, int byteoff) {
  char *c = reinterpret_cast<char *>(p) + byteoff;
  reinterpret_cast<double2 *>(c)[threadIdx.x] = make_double2(1.0, 2.0);
}

// A 16-byte store through a uchar pointer: the region is in bytes.
// GMEM-EXPECT: u8_as_uint4 idempotent
// GMEM-RUN: u8_as_uint4 grid=1 block=32 args=buf:u8:1024:zero
__global__ void u8_as_uint4(unsigned char *p) {
  reinterpret_cast<uint4 *>(p)[threadIdx.x * 2 + 1] = make_uint4(1, 2, 3, 4);
}

// Byte writes at 3*i + k (packed RGB).
// GMEM-EXPECT: rgb_bytes idempotent
// GMEM-RUN: rgb_bytes grid=2 block=64 args=buf:u8:512:zero
__global__ void rgb_bytes(unsigned char *p) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 3; k++)
    p[3 * g + k] = (unsigned char)(g + k);
}

// RGB to gray in place: reads 3 bytes, writes the first: the next run reads
// the gray value.
// GMEM-EXPECT: rgb_gray_inplace non-idempotent
// GMEM-RUN: rgb_gray_inplace grid=1 block=64 args=buf:u8:256:rand
__global__ void rgb_gray_inplace(unsigned char *p) {
  unsigned t = threadIdx.x;
  unsigned s = p[3 * t] + p[3 * t + 1] + p[3 * t + 2];
  p[3 * t] = (unsigned char)(s / 3 + 1);
}

// Per-thread row clear the compiler turns into a memset of 4*w bytes.
// GMEM-EXPECT: row_memset idempotent
// GMEM-RUN: row_memset grid=1 block=16 args=buf:f32:4096:rand i32:40 i32:100
// GMEM-RUN: row_memset grid=1 block=16 args=buf:f32:4096:rand i32:-3 i32:100
// GMEM-RUN: row_memset grid=1 block=16 args=buf:f32:4096:rand i32:100 i32:60
__global__ void row_memset(float *p, int w, int stride) {
  float *row = p + threadIdx.x * stride;
  for (int k = 0; k < w; k++)
    row[k] = 0.0f;
}

// Byte loop the compiler turns into memcpy; dst and src rows of one buffer.
// GMEM-EXPECT: row_memcpy conditional
// GMEM-RUN: row_memcpy grid=1 block=8 args=buf:u8:4096:rand ptr:0+2048 i32:200 i32:256
// GMEM-RUN: row_memcpy grid=1 block=8 args=buf:u8:4096:rand ptr:0+100 i32:200 i32:512
__global__ void row_memcpy(const unsigned char *src, unsigned char *dst, int n, int stride) {
  const unsigned char *s = src + threadIdx.x * stride;
  unsigned char *d = dst + threadIdx.x * stride;
  for (int k = 0; k < n; k++)
    d[k] = s[k];
}

// Backwards byte copy inside one buffer (memmove-like), shifted by one.
// GMEM-EXPECT: byte_shift_back non-idempotent
// GMEM-RUN: byte_shift_back grid=1 block=1 args=buf:u8:512:rand i32:300
__global__ void byte_shift_back(unsigned char *p, int n) {
  for (int k = n; k > 0; k--)
    p[k] = p[k - 1];
}

struct Particle {
  char tag;      // offset 0
  double pos;    // offset 8
  int id;        // offset 16
  short flags;   // offset 20, sizeof = 24
};

// One field of an array of padded structs; the buffer is passed as bytes.
// GMEM-EXPECT: aos_field idempotent
// GMEM-RUN: aos_field grid=1 block=64 args=buf:u8:2048:zero
__global__ void aos_field(unsigned char *raw) {
  Particle *p = reinterpret_cast<Particle *>(raw);
  p[threadIdx.x].id = (int)threadIdx.x;
  p[threadIdx.x].flags = 7;
}

// A whole struct copied from element i to element n - 1 - i of the same
// array (reads the other half).
// GMEM-EXPECT: aos_mirror conditional
// GMEM-RUN: aos_mirror grid=1 block=32 args=buf:u8:2048:rand i32:64
// GMEM-RUN: aos_mirror grid=1 block=32 args=buf:u8:2048:rand i32:40
__global__ void aos_mirror(unsigned char *raw, int n) {
  Particle *p = reinterpret_cast<Particle *>(raw);
  unsigned t = threadIdx.x;
  Particle v = p[t];
  __syncthreads();
  v.pos += 1.0;
  p[n - 1 - t] = v;
}

// __ldg of one buffer, __stcs into another aliasing it.
// GMEM-EXPECT: ldg_stcs conditional
// GMEM-RUN: ldg_stcs grid=2 block=64 args=buf:f32:512:rand buf:f32:512:zero
// GMEM-RUN: ldg_stcs grid=1 block=64 args=buf:f32:512:rand ptr:0+128
__global__ void ldg_stcs(const float *in, float *out) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  float v = __ldg(in + g);
  __syncthreads();
  __stcs(out + g, v * 2.0f);
}

// __ldg of a float4 and __stcg of a float4.
// GMEM-EXPECT: ldg_f4 conditional
// GMEM-RUN: ldg_f4 grid=1 block=32 args=buf:f32:512:rand ptr:0+0 i32:1
__global__ void ldg_f4(const float4 *in, float4 *out, int d) {
  unsigned t = threadIdx.x;
  float4 v = __ldg(in + t + d);
  __syncthreads();
  v.y = v.x + 1.0f;
  __stcg(out + t, v);
}

// volatile read-modify-write.
// GMEM-EXPECT: volatile_rmw non-idempotent
// GMEM-RUN: volatile_rmw grid=1 block=64 args=buf:i32:64:zero
__global__ void volatile_rmw(volatile int *p) {
  p[threadIdx.x] = p[threadIdx.x] + 1;
}

// Half-word stores at odd positions through a short pointer.
// GMEM-EXPECT: short_odd idempotent
// GMEM-RUN: short_odd grid=1 block=64 args=buf:u8:512:zero
__global__ void short_odd(unsigned char *raw) {
  short *s = reinterpret_cast<short *>(raw);
  s[2 * threadIdx.x + 1] = -1;
}

// Bytes of an int reversed in place through a char pointer.
// GMEM-EXPECT: byte_swap_inplace non-idempotent
// GMEM-RUN: byte_swap_inplace grid=1 block=32 args=buf:u32:64:iota
__global__ void byte_swap_inplace(unsigned *p) {
  unsigned char *c = reinterpret_cast<unsigned char *>(p + threadIdx.x);
  unsigned char b0 = c[0], b1 = c[1], b2 = c[2], b3 = c[3];
  c[0] = b3; c[1] = b2; c[2] = b1; c[3] = b0;
}

// Vector store of 8 bytes at a byte offset computed as 4*k + 8*t (k even:
// an odd k would misalign the float2).
// GMEM-EXPECT: f2_straddle idempotent
// GMEM-RUN: f2_straddle grid=1 block=32 args=buf:f32:256:zero i32:2
__global__ void f2_straddle(float *p, int k) {
  char *c = reinterpret_cast<char *>(p) + 8 * threadIdx.x + 4 * k;
  *reinterpret_cast<float2 *>(c) = make_float2(5.0f, 6.0f);
}

// Sub-word writes inside words that a different parameter reads whole:
// reads in[t] as int, writes the high byte of out[t] (out = in).
// GMEM-EXPECT: subword_alias conditional
// GMEM-RUN: subword_alias grid=1 block=32 args=buf:i32:64:iota ptr:0+0
// GMEM-RUN: subword_alias grid=1 block=32 args=buf:i32:64:iota ptr:0+128
__global__ void subword_alias(const int *in, int *out) {
  unsigned t = threadIdx.x;
  int v = in[t];
  __syncthreads();
  reinterpret_cast<unsigned char *>(out + t)[3] = (unsigned char)((v >> 24) + 1);
}

// memcpy of a runtime byte count from an offset in the same buffer.
// GMEM-EXPECT: memcpy_runtime conditional
// GMEM-RUN: memcpy_runtime grid=1 block=1 args=buf:u8:1024:rand i32:100 i32:300 i32:200
// GMEM-RUN: memcpy_runtime grid=1 block=1 args=buf:u8:1024:rand i32:100 i32:200 i32:300
// GMEM-RUN: memcpy_runtime grid=1 block=1 args=buf:u8:1024:rand i32:100 i32:400 i32:300
__global__ void memcpy_runtime(unsigned char *p, int n, int from, int to) {
  memcpy(p + to, p + from, n);
}

// memset of a runtime count at a runtime offset.
// GMEM-EXPECT: memset_runtime idempotent
// GMEM-RUN: memset_runtime grid=1 block=4 args=buf:u8:2048:rand i32:100 i32:333
__global__ void memset_runtime(unsigned char *p, int n, int off) {
  memset(p + off + threadIdx.x * n, 0x5a, n);
}

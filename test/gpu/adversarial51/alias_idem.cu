// Adversarial round 5: idempotence traps through aliasing at runtime
// offsets (two pointer arguments into one buffer), read-after-write through
// different arguments, counters used as index and destination, swaps and
// in-place permutations, kernels idempotent only for special scalars.

// Attacks: swap of two arrays (idempotent only when they are the same array).
// GMEM-EXPECT: ai_swap conditional
// GMEM-RUN: ai_swap grid=1 block=64 args=buf:i32:64:rand buf:i32:64:rand
// GMEM-RUN: ai_swap grid=1 block=64 args=buf:i32:64:rand ptr:0+0
__global__ void ai_swap(int *a, int *b) {
  int i = threadIdx.x;
  int t = a[i]; a[i] = b[i]; b[i] = t;
}

// Attacks: copy then read back through an alias of the destination (RAW via another argument).
// GMEM-EXPECT: ai_raw_alias conditional
// GMEM-RUN: ai_raw_alias grid=1 block=64 args=buf:i32:64:rand buf:i32:64:zero buf:i32:64:zero ptr:1+0
// GMEM-RUN: ai_raw_alias grid=1 block=64 args=buf:i32:64:rand buf:i32:80:zero ptr:1+64 ptr:1+0
__global__ void ai_raw_alias(const int *x, int *a, int *b, const int *c) {
  int i = threadIdx.x;
  a[i] = x[i];
  __syncthreads();
  b[i] = c[i] + 1;
}

// Attacks: counters array used as index source and destination (cnt[cnt[i]] = i).
// GMEM-EXPECT: ai_counter_index non-idempotent
// GMEM-RUN: ai_counter_index grid=1 block=32 args=buf:i32:64:randint:32:64
// GMEM-RUN: ai_counter_index grid=1 block=32 args=buf:i32:64:randint:0:64
__global__ void ai_counter_index(int *cnt) {
  int i = threadIdx.x;
  cnt[cnt[i]] = i;
}

// Attacks: gather through an index array that lies inside the output buffer.
// GMEM-EXPECT: ai_index_in_output conditional
// GMEM-RUN: ai_index_in_output grid=1 block=64 args=buf:f32:256:rand buf:i32:128:randint:0:256 ptr:1+256
// GMEM-RUN: ai_index_in_output grid=1 block=64 args=buf:f32:256:rand buf:i32:192:randint:0:256 ptr:1+512
__global__ void ai_index_in_output(const float *src, const int *idx, float *out) {
  int i = threadIdx.x;
  out[i] = src[idx[i]];
}

// Attacks: write-once-if-zero into a slot chosen by data, with the flag in the same buffer.
// GMEM-EXPECT: ai_write_once_flag conditional
// GMEM-RUN: ai_write_once_flag grid=1 block=32 args=buf:i32:64:zero buf:i32:32:rand
__global__ void ai_write_once_flag(int *buf, const int *v) {
  int i = threadIdx.x;
  if (buf[0] == 0 && i == 0) buf[0] = 1;
  if (i > 0 && buf[32 + i] == 0) buf[32 + i] = v[i] + 1;
}

// Attacks: in-place permutation a[p[i]] = a[i] (not idempotent unless p is the identity).
// GMEM-EXPECT: ai_perm_inplace non-idempotent
// GMEM-RUN: ai_perm_inplace grid=1 block=64 args=buf:i32:64:rand buf:i32:64:iota
// GMEM-RUN: ai_perm_inplace grid=1 block=64 args=buf:i32:64:rand buf:i32:64:randint:0:64
__global__ void ai_perm_inplace(int *a, const int *p) {
  int i = threadIdx.x;
  int v = a[i];
  __syncthreads();
  a[p[i]] = v;
}

// Attacks: out = in shifted by a runtime offset inside one buffer, offset 0 is a no-op.
// GMEM-EXPECT: ai_shift_copy conditional
// GMEM-RUN: ai_shift_copy grid=2 block=64 args=buf:f32:256:rand ptr:0+0 i32:128
// GMEM-RUN: ai_shift_copy grid=2 block=64 args=buf:f32:256:rand ptr:0+512 i32:128
// GMEM-RUN: ai_shift_copy grid=2 block=64 args=buf:f32:256:rand ptr:0+4 i32:128
__global__ void ai_shift_copy(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

// Attacks: y = a*x + y with a == 0 (idempotent) vs a != 0; x aliasing y at an offset.
// GMEM-EXPECT: ai_axpy conditional
// GMEM-RUN: ai_axpy grid=1 block=64 args=buf:f32:64:rand buf:f32:64:rand f32:0.0
// GMEM-RUN: ai_axpy grid=1 block=64 args=buf:f32:64:rand buf:f32:64:rand f32:2.0
// GMEM-RUN: ai_axpy grid=1 block=64 args=buf:f32:128:rand ptr:0+256 f32:1.0
__global__ void ai_axpy(const float *x, float *y, float a) {
  int i = threadIdx.x;
  y[i] = a * x[i] + y[i];
}

// Attacks: y[i] = x[i] ^ y[i] ^ y[i] (xor cancels: a pure copy, idempotent with disjoint args).
// GMEM-EXPECT: ai_xor_cancel conditional
// GMEM-RUN: ai_xor_cancel grid=1 block=64 args=buf:u32:64:rand buf:u32:64:rand
__global__ void ai_xor_cancel(const unsigned *x, unsigned *y) {
  int i = threadIdx.x;
  unsigned t = y[i];
  y[i] = x[i] ^ t ^ t;
}

// Attacks: power with exponent parameter: x = x^e (idempotent for e == 1 and e == 0).
// GMEM-EXPECT: ai_pow_param non-idempotent
// GMEM-RUN: ai_pow_param grid=1 block=64 args=buf:f32:64:rand i32:1
// GMEM-RUN: ai_pow_param grid=1 block=64 args=buf:f32:64:rand i32:2
__global__ void ai_pow_param(float *x, int e) {
  int i = threadIdx.x;
  float r = 1.0f, b = x[i];
  for (int k = 0; k < e; k++) r *= b;
  x[i] = r;
}

// Attacks: rotate left by k (identity for k == 0 or 32).
// GMEM-EXPECT: ai_rotate non-idempotent
// GMEM-RUN: ai_rotate grid=1 block=64 args=buf:u32:64:rand u32:0
// GMEM-RUN: ai_rotate grid=1 block=64 args=buf:u32:64:rand u32:7
__global__ void ai_rotate(unsigned *x, unsigned k) {
  int i = threadIdx.x;
  unsigned v = x[i];
  k &= 31;
  x[i] = k ? (v << k) | (v >> (32 - k)) : v;
}

// Attacks: two outputs at runtime offsets inside one buffer; they overlap each other (WAW) not the input.
// GMEM-EXPECT: ai_two_outputs conditional
// GMEM-RUN: ai_two_outputs grid=1 block=64 args=buf:i32:64:rand buf:i32:256:zero ptr:1+128
// GMEM-RUN: ai_two_outputs grid=1 block=64 args=buf:i32:64:rand buf:i32:256:zero ptr:1+512
__global__ void ai_two_outputs(const int *in, int *o1, int *o2) {
  int i = threadIdx.x;
  o1[i] = in[i];
  __syncthreads();
  o2[i] = in[i] * 2;
}

// Attacks: an input pointer that lies after the output (reads the tail the output writes over).
// GMEM-EXPECT: ai_tail_read conditional
// GMEM-RUN: ai_tail_read grid=1 block=64 args=buf:i32:128:rand ptr:0+252 i32:64
// GMEM-RUN: ai_tail_read grid=1 block=64 args=buf:i32:128:rand ptr:0+256 i32:64
__global__ void ai_tail_read(int *out, const int *in, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = in[i] + 1;
}

// Attacks: ping-pong buffer selected by a parity parameter (src/dst swapped by the scalar).
// GMEM-EXPECT: ai_pingpong conditional
// GMEM-RUN: ai_pingpong grid=1 block=64 args=buf:f32:128:rand i32:0
// GMEM-RUN: ai_pingpong grid=1 block=64 args=buf:f32:128:rand i32:1
__global__ void ai_pingpong(float *buf, int parity) {
  int i = threadIdx.x;
  float *src = buf + (parity ? 64 : 0), *dst = buf + (parity ? 0 : 64);
  dst[i] = src[i] * 0.5f;
}

// Attacks: ping-pong with both halves at the same place when the parity parameter is 2.
// GMEM-EXPECT: ai_pingpong_same conditional
// GMEM-RUN: ai_pingpong_same grid=1 block=64 args=buf:f32:128:rand i32:2
// GMEM-RUN: ai_pingpong_same grid=1 block=64 args=buf:f32:128:rand i32:0
__global__ void ai_pingpong_same(float *buf, int parity) {
  int i = threadIdx.x;
  float *src = buf + (parity == 1 ? 64 : 0), *dst = buf + (parity == 0 ? 64 : 0);
  dst[i] = src[i] * 0.5f;
}

// Attacks: struct of pointers passed by value (src and dst fields alias at a runtime offset).
struct AiPair { const float *src; float *dst; int n; };
// GMEM-EXPECT: ai_struct_ptrs conditional
// GMEM-RUN: ai_struct_ptrs grid=1 block=64 args=buf:f32:128:rand buf:f32:128:zero
__global__ void ai_struct_ptrs(const float *a, float *b) {
  AiPair p{a, b, 64};
  int i = threadIdx.x;
  if (i < p.n) p.dst[i] = p.src[i] + 1.0f;
}

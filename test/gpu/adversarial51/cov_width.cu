// Covered loads: store width vs load width, partial stores, non-plain stores,
// pointer bumps, unsigned wrap of the index, another thread's store.

// GMEM-EXPECT: w_char_then_int non-idempotent
// GMEM-RUN: w_char_then_int grid=2 block=32 args=buf:i32:64:rand
__global__ void w_char_then_int(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  ((char *)out)[4 * i] = 1;
  out[i] = out[i] + 1;
}

// GMEM-EXPECT: w_char_hi_then_int non-idempotent
// GMEM-RUN: w_char_hi_then_int grid=2 block=32 args=buf:i32:64:rand
__global__ void w_char_hi_then_int(int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  ((char *)out)[4 * i + 3] = 0;
  out[i] = out[i] * 3 + 1;
}

// Two halves stored separately: every byte covered, but by two stores.
// GMEM-EXPECT: w_two_halves conditional
// GMEM-RUN: w_two_halves grid=2 block=32 args=buf:i32:64:rand buf:i32:64:rand
__global__ void w_two_halves(int *out, const int *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  short *h = (short *)out;
  h[2 * i] = (short)a[i];
  h[2 * i + 1] = (short)(a[i] >> 16);
  out[i] = out[i] + 1;
}

// Store of bytes [4i,4i+4), load of the int starting two bytes later.
// GMEM-EXPECT: w_straddle non-idempotent
// GMEM-RUN: w_straddle grid=1 block=32 args=buf:i32:64:rand
__global__ void w_straddle(int *out) {
  int i = threadIdx.x;
  out[2 * i] = 7;
  char *b = (char *)out;
  int v;
  memcpy(&v, b + 8 * i + 2, 4);
  out[2 * i + 1] = v;
}

// Load inside the store (byte 3 of an int store): covered.
// GMEM-EXPECT: w_byte_inside conditional
// GMEM-RUN: w_byte_inside grid=2 block=32 args=buf:i32:64:rand buf:i32:64:rand
__global__ void w_byte_inside(int *out, const int *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] * 1000;
  unsigned char hi = ((unsigned char *)out)[4 * i + 3];
  out[i] = out[i] + hi;
}

// 4-byte store, 8-byte load at the same offset.
// GMEM-EXPECT: w_wider_load non-idempotent
// GMEM-RUN: w_wider_load grid=1 block=32 args=buf:i32:64:rand
__global__ void w_wider_load(int *out) {
  int i = threadIdx.x;
  out[2 * i] = 5;
  long long v = *(long long *)&out[2 * i];
  out[2 * i + 1] = (int)(v >> 32) + 1;
}

// 8-byte store covering, 4-byte load of its upper half: covered.
// GMEM-EXPECT: w_narrow_load conditional
// GMEM-RUN: w_narrow_load grid=1 block=32 args=buf:i32:64:rand buf:i32:64:rand
__global__ void w_narrow_load(int *out, const int *a) {
  int i = threadIdx.x;
  *(long long *)&out[2 * i] = (long long)a[i] << 20;
  out[2 * i] = out[2 * i + 1] + 3;
}

// Store at out[i], load at out[i - 1] (neighbour's value, before its store?).
// GMEM-EXPECT: w_neighbour non-idempotent
// GMEM-RUN: w_neighbour grid=1 block=32 args=buf:i32:80:rand
__global__ void w_neighbour(int *out) {
  int i = threadIdx.x + 1;
  out[i] = i;
  out[i + 32] = out[i - 1] + 1;
}

// Another thread's element after a barrier.
// GMEM-EXPECT: w_xor_thread conditional
// GMEM-RUN: w_xor_thread grid=1 block=32 args=buf:f32:32:rand buf:f32:32:rand
__global__ void w_xor_thread(float *out, const float *a) {
  int i = threadIdx.x;
  out[i] = a[i];
  __syncthreads();
  float v = out[i ^ 1];
  __syncthreads();
  out[i] = out[i] + v;
}

// Stored through memset, read back: not a plain store.
// GMEM-EXPECT: w_memset_then_read conditional
// GMEM-RUN: w_memset_then_read grid=1 block=32 args=buf:i32:64:rand
__global__ void w_memset_then_read(int *out) {
  int i = threadIdx.x;
  memset(&out[2 * i], 0, 8);
  out[2 * i] = out[2 * i + 1] + 1;
}

// Stored through memcpy of a variable length (1..4 bytes), read as int.
// GMEM-EXPECT: w_memcpy_len non-idempotent
// GMEM-RUN: w_memcpy_len grid=1 block=32 args=buf:i32:64:rand buf:i32:64:rand buf:i32:32:randint:1:4
__global__ void w_memcpy_len(int *out, const int *a, const int *len) {
  int i = threadIdx.x;
  memcpy(&out[i], &a[i], len[i]);
  out[i] = out[i] + 1;
}

// Volatile store then read.
// GMEM-EXPECT: w_volatile conditional
// GMEM-RUN: w_volatile grid=1 block=32 args=buf:i32:64:rand
__global__ void w_volatile(int *out) {
  int i = threadIdx.x;
  ((volatile int *)out)[i] = i;
  out[i] = out[i] + 1;
}

// atomicExch as the store, then a plain read.
// GMEM-EXPECT: w_atomic_store non-idempotent
// GMEM-RUN: w_atomic_store grid=1 block=32 args=buf:i32:64:rand
__global__ void w_atomic_store(int *out) {
  int i = threadIdx.x;
  atomicExch(&out[i], i);
  out[i] = out[i] + 1;
}

// Pointer bumped in both loops the same way: covered.
// GMEM-EXPECT: w_bump conditional
// GMEM-RUN: w_bump grid=1 block=32 args=buf:f32:1024:rand buf:f32:1024:rand i32:20
__global__ void w_bump(float *out, const float *a, int n) {
  int t = threadIdx.x;
  float *p = out + t * 32;
  for (int k = 0; k < n; ++k)
    *p++ = a[t * 32 + k];
  float *q = out + t * 32;
  for (int k = 0; k < n; ++k, ++q)
    *q = *q * 2.0f;
}

// Pointer bumped by 2 in L2, by 1 in L1.
// GMEM-EXPECT: w_bump2 non-idempotent
// GMEM-RUN: w_bump2 grid=1 block=32 args=buf:f32:2048:rand buf:f32:1024:rand i32:20
__global__ void w_bump2(float *out, const float *a, int n) {
  int t = threadIdx.x;
  float *p = out + t * 64;
  for (int k = 0; k < n; ++k)
    *p++ = a[t * 32 + k];
  float *q = out + t * 64;
  for (int k = 0; k < n; ++k, q += 2)
    *q = *q * 2.0f;
}

// Pointer continues from where L1 left (L2 walks past the stored range).
// GMEM-EXPECT: w_bump_continue non-idempotent
// GMEM-RUN: w_bump_continue grid=1 block=32 args=buf:f32:2048:rand buf:f32:1024:rand i32:20
__global__ void w_bump_continue(float *out, const float *a, int n) {
  int t = threadIdx.x;
  float *p = out + t * 64;
  for (int k = 0; k < n; ++k)
    *p++ = a[t * 32 + k];
  for (int k = 0; k < n; ++k, ++p)
    *p = *p * 2.0f;
}

// Unsigned index wraps in the load address only.
// GMEM-EXPECT: w_uwrap non-idempotent
// GMEM-RUN: w_uwrap grid=1 block=32 args=buf:f32:64:rand u32:4294967295
// GMEM-RUN: w_uwrap grid=1 block=32 args=buf:f32:64:rand u32:0
__global__ void w_uwrap(float *out, unsigned k) {
  unsigned i = threadIdx.x;
  out[i] = 1.0f;
  unsigned j = i + k + 1u;
  out[j & 63u] = out[j & 63u] + 1.0f;
}

// 64-bit vs 32-bit index of the same small value.
// GMEM-EXPECT: w_idx_width conditional
// GMEM-RUN: w_idx_width grid=2 block=32 args=buf:f32:64:rand buf:f32:64:rand
__global__ void w_idx_width(float *out, const float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i];
  long long j = i;
  out[j] = out[j] * 2.0f;
}

// int index i * 2^30 wraps in 32 bits: out[(int)(i<<30)] vs out[(long)i<<30 >> ...]
// GMEM-EXPECT: w_trunc_idx non-idempotent
// GMEM-RUN: w_trunc_idx grid=1 block=4 args=buf:f32:64:rand
__global__ void w_trunc_idx(float *out) {
  unsigned i = threadIdx.x;
  unsigned s = i << 30;          // 0, 2^30, 2^31, 3*2^30
  out[(s >> 30) + 8] = 1.0f;
  unsigned long long t = (unsigned long long)i << 30;
  out[(unsigned)(t >> 30) + 9] = out[(unsigned)(t >> 30) + 9] + 1.0f;
}

// Store dominates the load in a loop only on its first trip (store before loop,
// index of the loop).
// GMEM-EXPECT: w_store_before_loop non-idempotent
// GMEM-RUN: w_store_before_loop grid=1 block=32 args=buf:f32:1024:rand
__global__ void w_store_before_loop(float *out) {
  float *row = out + threadIdx.x * 32;
  row[0] = 1.0f;
  for (int k = 0; k < 8; ++k)
    row[k] = row[k] + 1.0f;
}

// Store in a loop, load after the loop at the last index: covered.
// GMEM-EXPECT: w_after_loop conditional
// GMEM-RUN: w_after_loop grid=1 block=32 args=buf:f32:1024:rand buf:f32:1024:rand i32:9
__global__ void w_after_loop(float *out, const float *a, int n) {
  float *row = out + threadIdx.x * 32;
  int k = 0;
  do {
    row[k] = a[k];
    ++k;
  } while (k < n);
  row[k - 1] = row[k - 1] * 2.0f;
}

// Store in a loop, load after the loop at the index one past the last.
// GMEM-EXPECT: w_after_loop_past non-idempotent
// GMEM-RUN: w_after_loop_past grid=1 block=32 args=buf:f32:1024:rand buf:f32:1024:rand i32:9
__global__ void w_after_loop_past(float *out, const float *a, int n) {
  float *row = out + threadIdx.x * 32;
  int k = 0;
  do {
    row[k] = a[k];
    ++k;
  } while (k < n);
  row[k] = row[k] * 2.0f;
}

// Loop exit in the middle: the store is after the exit test, load after loop.
// GMEM-EXPECT: w_mid_exit non-idempotent
// GMEM-RUN: w_mid_exit grid=1 block=32 args=buf:f32:1024:rand buf:f32:1024:rand
__global__ void w_mid_exit(float *out, const float *a) {
  float *row = out + threadIdx.x * 32;
  int k = 0;
  for (;;) {
    if (a[threadIdx.x * 32 + k] > 0.5f || k == 30) break;
    row[k] = a[k];
    ++k;
  }
  row[k] = row[k] + 1.0f;
}

// struct store with padding, then an int load spanning padding bytes.
struct Pad { int a; char b; };
// GMEM-EXPECT: w_struct_pad non-idempotent
// GMEM-RUN: w_struct_pad grid=1 block=32 args=buf:i32:128:rand
__global__ void w_struct_pad(int *out) {
  int i = threadIdx.x;
  Pad *p = (Pad *)(out + 2 * i);
  Pad v; v.a = i; v.b = 3;
  *p = v;
  out[2 * i + 1] = out[2 * i + 1] + 256;
}

// Adversarial round 50: device-side memcpy / memset / memmove with sizes
// computed from parameters, loaded from memory, or derived from indices;
// struct copies lowered to llvm.memcpy; overlapping in-place moves.

// Attacks: per-block row copy whose length is a parameter (bytes = len*4).
// GMEM-EXPECT: dm_copy_rows conditional
// GMEM-RUN: dm_copy_rows grid=4 block=1 args=buf:f32:1024:rand buf:f32:1024:zero i32:200
// GMEM-RUN: dm_copy_rows grid=4 block=1 args=buf:f32:2048:rand ptr:0+3200 i32:200
// GMEM-RUN: dm_copy_rows grid=4 block=1 args=buf:f32:1024:rand ptr:0+0 i32:256
__global__ void dm_copy_rows(const float *in, float *out, int len) {
  if (threadIdx.x == 0)
    memcpy(out + blockIdx.x * len, in + blockIdx.x * len, len * sizeof(float));
}

// Attacks: memset of k ints per thread with k a parameter, fill byte from a parameter.
// GMEM-EXPECT: dm_fill_k idempotent
// GMEM-RUN: dm_fill_k grid=2 block=32 args=buf:i32:2048:zero i32:16 i32:255
// GMEM-RUN: dm_fill_k grid=2 block=32 args=buf:i32:2048:zero i32:3 i32:1
__global__ void dm_fill_k(int *out, int k, int byte) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  memset(out + t * k, byte, k * sizeof(int));
}

// Attacks: memmove within one buffer by a shift (idempotent only when shift == 0 or count == 0).
// GMEM-EXPECT: dm_memmove_shift non-idempotent
// GMEM-RUN: dm_memmove_shift grid=1 block=1 args=buf:i32:1024:rand i32:3 i32:500
// GMEM-RUN: dm_memmove_shift grid=1 block=1 args=buf:i32:1024:rand i32:0 i32:500
// GMEM-RUN: dm_memmove_shift grid=1 block=1 args=buf:i32:1024:rand i32:-5 i32:500
__global__ void dm_memmove_shift(int *a, int shift, int count) {
  __builtin_memmove(a + 100 + shift, a + 100, count * sizeof(int));
}

// Attacks: copy length loaded from memory (lens[b]) into a per-block slot.
// GMEM-EXPECT: dm_loaded_len conditional
// GMEM-RUN: dm_loaded_len grid=4 block=1 args=buf:i32:4:randint:0:64 buf:u8:256:rand buf:u8:256:zero
// GMEM-RUN: dm_loaded_len grid=4 block=1 args=buf:i32:4:randint:0:64 buf:u8:512:rand ptr:1+256
__global__ void dm_loaded_len(const int *lens, const unsigned char *in, unsigned char *out) {
  int b = blockIdx.x;
  memcpy(out + b * 64, in + b * 64, lens[b]);
}

// Attacks: size from a difference of parameters, guarded only by > 0.
// GMEM-EXPECT: dm_span_copy conditional
// GMEM-RUN: dm_span_copy grid=1 block=1 args=buf:u8:4096:rand buf:u8:4096:zero i32:100 i32:3000
// GMEM-RUN: dm_span_copy grid=1 block=1 args=buf:u8:4096:rand buf:u8:4096:zero i32:3000 i32:100
// GMEM-RUN: dm_span_copy grid=1 block=1 args=buf:u8:8192:rand ptr:0+2000 i32:100 i32:3000
__global__ void dm_span_copy(const unsigned char *in, unsigned char *out, int lo, int hi) {
  int sz = hi - lo;
  if (sz > 0)
    memcpy(out + lo, in + lo, sz);
}

struct Rec { int a[12]; float f[4]; };
// Attacks: struct assignment (64-byte llvm.memcpy) gathered through an index array.
// GMEM-EXPECT: dm_struct_gather conditional
// GMEM-RUN: dm_struct_gather grid=1 block=32 args=buf:i32:32:randint:0:16 buf:i32:256:rand buf:i32:512:zero
// GMEM-RUN: dm_struct_gather grid=1 block=32 args=buf:i32:32:randint:0:16 buf:i32:1024:rand ptr:1+1024
__global__ void dm_struct_gather(const int *idx, const int *in, int *out) {
  const Rec *src = (const Rec *)in;
  Rec *dst = (Rec *)out;
  dst[threadIdx.x] = src[idx[threadIdx.x]];
}

// Attacks: memset padding after n elements, pad length a parameter.
// GMEM-EXPECT: dm_pad_tail conditional
// GMEM-RUN: dm_pad_tail grid=2 block=64 args=buf:f32:128:rand buf:f32:200:const:3 i32:100 i32:40
// GMEM-RUN: dm_pad_tail grid=2 block=64 args=buf:f32:400:rand ptr:0+400 i32:100 i32:40
__global__ void dm_pad_tail(const float *in, float *out, int n, int pad) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = in[t];
  if (t == 0)
    memset(out + n, 0, pad * sizeof(float));
}

// Attacks: memcpy at odd byte offsets of 3 bytes each (unaligned tiny copies).
// GMEM-EXPECT: dm_odd_bytes conditional
// GMEM-RUN: dm_odd_bytes grid=1 block=64 args=buf:u8:256:rand buf:u8:256:zero i32:1
// GMEM-RUN: dm_odd_bytes grid=1 block=64 args=buf:u8:512:rand ptr:0+191 i32:1
__global__ void dm_odd_bytes(const unsigned char *in, unsigned char *out, int off) {
  int t = threadIdx.x;
  memcpy(out + off + 3 * t, in + 2 * t + off, 3);
}

// Attacks: reversed chunk copy: chunk c goes to slot nchunks-1-c.
// GMEM-EXPECT: dm_reverse_chunks conditional
// GMEM-RUN: dm_reverse_chunks grid=1 block=8 args=buf:i32:512:rand buf:i32:512:zero i32:8 i32:64
// GMEM-RUN: dm_reverse_chunks grid=1 block=8 args=buf:i32:512:rand ptr:0+0 i32:8 i32:64
// GMEM-RUN: dm_reverse_chunks grid=1 block=8 args=buf:i32:1024:rand ptr:0+1024 i32:8 i32:64
__global__ void dm_reverse_chunks(const int *in, int *out, int nchunks, int len) {
  int c = threadIdx.x;
  if (c < nchunks)
    memcpy(out + (nchunks - 1 - c) * len, in + c * len, len * sizeof(int));
}

// Attacks: memset size from a 64-bit product that wraps in 32 bits (rows*cols as int).
// GMEM-EXPECT: dm_clear_matrix idempotent
// GMEM-RUN: dm_clear_matrix grid=1 block=1 args=buf:u8:65536:rand i32:256 i32:256
// GMEM-RUN: dm_clear_matrix grid=1 block=1 args=buf:u8:65536:rand i32:65537 i32:65537
__global__ void dm_clear_matrix(unsigned char *m, int rows, int cols) {
  unsigned sz = (unsigned)rows * (unsigned)cols;
  memset(m, 0, sz & 0xffff);
}

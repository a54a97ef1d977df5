// Adversarial round 49: __half2 / __nv_bfloat162 / 8- and 16-bit elements at
// odd offsets, char3/short3, bitfields, sub-word values through wider types.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

// __half2 scale: words of two halves. Truth: reads in[0,n) words, writes out[0,n).
// GMEM-EXPECT: half2_scale conditional
// GMEM-RUN: half2_scale grid=2 block=64 args=buf:u32:128:rand buf:u32:128:zero i32:128
// GMEM-RUN: half2_scale grid=2 block=64 args=buf:u32:130:rand ptr:0+8 i32:120
__global__ void half2_scale(const unsigned *in, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half2 v = reinterpret_cast<const __half2 *>(in)[i];
    reinterpret_cast<__half2 *>(out)[i] = __hmul2(v, __floats2half2_rn(2.f, 0.5f));
  }
}

// Halves at an odd half offset updated in place (2-byte accesses at 2+4k).
// Truth: RMW of bytes [2, 2+2n) (not idempotent).
// GMEM-EXPECT: half_odd_inplace non-idempotent
// GMEM-RUN: half_odd_inplace grid=1 block=64 args=buf:u32:64:rand i32:63
__global__ void half_odd_inplace(unsigned *buf, int n) {
  __half *h = reinterpret_cast<__half *>(buf) + 1;
  int i = threadIdx.x;
  if (i < n) h[2 * i] = __hadd(h[2 * i], __float2half(1.f));
}

// Halves at odd half offsets read, even offsets written (interleaved, disjoint
// bytes of the same words). Truth: reads bytes 4i+2..4i+3, writes 4i..4i+1.
// GMEM-EXPECT: half_interleave idempotent
// GMEM-RUN: half_interleave grid=1 block=64 args=buf:u32:64:rand
__global__ void half_interleave(unsigned *buf) {
  __half *h = reinterpret_cast<__half *>(buf);
  int i = threadIdx.x;
  h[2 * i] = __hmul(h[2 * i + 1], __float2half(3.f));
}

// bfloat162 stores only. Truth: writes out[0, 4*N) -> idempotent.
// GMEM-EXPECT: bf162_fill idempotent
// GMEM-RUN: bf162_fill grid=2 block=64 args=buf:u32:128:zero
__global__ void bf162_fill(unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  reinterpret_cast<__nv_bfloat162 *>(out)[i] = __floats2bfloat162_rn((float)i, -(float)i);
}

// bf16 converted from float, stored at 2-byte element index off + i.
// Truth: writes bytes [2*off, 2*off + 2*N); reads in[0,N).
// GMEM-EXPECT: bf16_store_off conditional
// GMEM-RUN: bf16_store_off grid=1 block=64 args=buf:f32:64:rand buf:u32:64:zero i32:33
// GMEM-RUN: bf16_store_off grid=1 block=64 args=buf:f32:128:rand ptr:0+2 i32:1
// GMEM-RUN: bf16_store_off grid=1 block=64 args=buf:f32:128:rand ptr:0+256 i32:-63
__global__ void bf16_store_off(const float *in, unsigned short *out, int off) {
  int i = threadIdx.x;
  reinterpret_cast<__nv_bfloat16 *>(out)[off + i] = __float2bfloat16_rn(in[i]);
}

// atomicAdd on __half2 (asm atom.add.noftz.f16x2).
// GMEM-EXPECT: half2_atomic non-idempotent
// GMEM-RUN: half2_atomic grid=1 block=64 args=buf:u32:16:zero
__global__ void half2_atomic(unsigned *acc) {
  atomicAdd(reinterpret_cast<__half2 *>(acc) + (threadIdx.x & 15), __floats2half2_rn(1.f, 2.f));
}

// atomicAdd on a single bf16 at an odd element index.
// GMEM-EXPECT: bf16_atomic_odd non-idempotent
// GMEM-RUN: bf16_atomic_odd grid=1 block=64 args=buf:u32:16:zero
__global__ void bf16_atomic_odd(unsigned *acc) {
  atomicAdd(reinterpret_cast<__nv_bfloat16 *>(acc) + 2 * (threadIdx.x & 15) + 1, __float2bfloat16(1.f));
}

// __ldg / __stcs of __half2 (inline asm in cuda_fp16.hpp) at index i + k.
// Truth: reads in[i+k], writes out[i+k].
// GMEM-EXPECT: half2_ldg_stcs conditional
// GMEM-RUN: half2_ldg_stcs grid=1 block=64 args=buf:u32:80:rand buf:u32:80:zero i32:16
// GMEM-RUN: half2_ldg_stcs grid=1 block=64 args=buf:u32:80:rand ptr:0+4 i32:0
__global__ void half2_ldg_stcs(const unsigned *in, unsigned *out, int k) {
  int i = threadIdx.x + k;
  __half2 v = __ldg(reinterpret_cast<const __half2 *>(in) + i);
  __stcs(reinterpret_cast<__half2 *>(out) + i, __hneg2(v));
}

// Bytes at odd offsets: out[2i+1] = in[3i+2].
// GMEM-EXPECT: u8_odd_copy conditional
// GMEM-RUN: u8_odd_copy grid=1 block=100 args=buf:u8:300:rand buf:u8:200:zero
// GMEM-RUN: u8_odd_copy grid=1 block=100 args=buf:u8:400:rand ptr:0+1
__global__ void u8_odd_copy(const unsigned char *in, unsigned char *out) {
  int i = threadIdx.x;
  out[2 * i + 1] = in[3 * i + 2];
}

// char3 elements (3-byte stride) shifted by one element. Truth: reads
// c[3i..3i+2], writes c[3(i+1)..] in place when out = in+3 (not idempotent).
// GMEM-EXPECT: char3_shift conditional
// GMEM-RUN: char3_shift grid=1 block=64 args=buf:u8:195:rand buf:u8:195:zero
// GMEM-RUN: char3_shift grid=1 block=64 args=buf:u8:200:rand ptr:0+3
// GMEM-RUN: char3_shift grid=1 block=64 args=buf:u8:400:rand ptr:0+192
__global__ void char3_shift(const char *in, char *out) {
  const char3 *a = reinterpret_cast<const char3 *>(in);
  char3 *b = reinterpret_cast<char3 *>(out);
  int i = threadIdx.x;
  char3 v = a[i];
  b[i] = make_char3(v.z, v.x, (char)(v.y + 1));
}

// short3 at a byte offset given by the launch (multiple of 2).
// Truth: writes bytes [boff + 6i, boff + 6i + 6); reads in[i].
// GMEM-EXPECT: short3_at conditional
// GMEM-RUN: short3_at grid=1 block=32 args=buf:i32:32:rand buf:u8:256:zero i32:2
// GMEM-RUN: short3_at grid=1 block=32 args=buf:i32:64:rand ptr:0+126 i32:0
__global__ void short3_at(const int *in, unsigned char *out, int boff) {
  int i = threadIdx.x;
  short3 *s = reinterpret_cast<short3 *>(out + boff);
  int v = in[i];
  s[i] = make_short3((short)v, (short)(v >> 8), (short)(v >> 16));
}

// Bitfield update of one field of a packed struct (load word, mask, store).
// Truth: reads and writes word i (RMW; bytes unchanged on the 2nd run, but it
// reads what it writes).
struct Packed { unsigned a : 5, b : 11, c : 16; };
// GMEM-EXPECT: bitfield_set_b non-idempotent
// GMEM-RUN: bitfield_set_b grid=1 block=64 args=buf:u32:64:rand
__global__ void bitfield_set_b(unsigned *words) {
  Packed *p = reinterpret_cast<Packed *>(words);
  p[threadIdx.x].b = threadIdx.x * 3;
}

// Whole-struct bitfield store (no read). Truth: idempotent.
// GMEM-EXPECT: bitfield_pack idempotent
// GMEM-RUN: bitfield_pack grid=1 block=64 args=buf:u32:64:zero
__global__ void bitfield_pack(unsigned *words) {
  Packed v;
  v.a = threadIdx.x & 31; v.b = threadIdx.x * 7; v.c = 0xBEEF;
  reinterpret_cast<Packed *>(words)[threadIdx.x] = v;
}

// Bitfield field c (upper 16 bits) read into field a of the next word.
// Truth: reads word i, RMW word i+1 -> reads what neighbours write.
// GMEM-EXPECT: bitfield_chain non-idempotent
// GMEM-RUN: bitfield_chain grid=1 block=63 args=buf:u32:64:rand
__global__ void bitfield_chain(unsigned *words) {
  Packed *p = reinterpret_cast<Packed *>(words);
  int i = threadIdx.x;
  p[i + 1].a = p[i].c & 31;
}

// A byte value stored through a 32-bit word (zero-extended): writes 4 bytes
// per element at out + 4i. Truth: writes out[0, 4N) bytes; reads in[i].
// GMEM-EXPECT: byte_through_word conditional
// GMEM-RUN: byte_through_word grid=1 block=64 args=buf:u8:64:rand buf:u8:256:zero
// GMEM-RUN: byte_through_word grid=1 block=64 args=buf:u8:320:rand ptr:0+64
__global__ void byte_through_word(const unsigned char *in, unsigned char *out) {
  int i = threadIdx.x;
  *reinterpret_cast<unsigned *>(out + 4 * i) = in[i];
}

// 16-bit halves of words written separately by two threads (2i and 2i+1).
// Truth: writes all bytes [0, 2*N); reads in[i]; idempotent when apart.
// GMEM-EXPECT: u16_halves conditional
// GMEM-RUN: u16_halves grid=1 block=128 args=buf:u32:128:rand buf:u32:64:zero
// GMEM-RUN: u16_halves grid=1 block=128 args=buf:u32:192:rand ptr:0+256
__global__ void u16_halves(const unsigned *in, unsigned *out) {
  int i = threadIdx.x;
  reinterpret_cast<unsigned short *>(out)[i] = (unsigned short)(in[i] * 3u);
}

// char4 packed via __byte_perm, stored at an odd char4 index 2i+1.
// GMEM-EXPECT: char4_perm conditional
// GMEM-RUN: char4_perm grid=1 block=32 args=buf:u32:32:rand buf:u32:64:zero
// GMEM-RUN: char4_perm grid=1 block=32 args=buf:u32:64:rand ptr:0+0
__global__ void char4_perm(const unsigned *in, unsigned *out) {
  int i = threadIdx.x;
  unsigned w = __byte_perm(in[i], 0, 0x0123);
  reinterpret_cast<char4 *>(out)[2 * i + 1] = *reinterpret_cast<char4 *>(&w);
}

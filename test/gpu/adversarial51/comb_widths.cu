// Atomic combines (unused integer max/min/and/or) mixed with other widths and
// with plain stores to the same bytes. Expectations: sound and precise class.
typedef unsigned long long u64;

// 32-bit umax on the LOW half of a word that a 64-bit umax also targets.
// max64 can replace the low half with a smaller value; re-running max32 then
// raises it again.
// GMEM-EXPECT: cw_mix_umax_low non-idempotent
// GMEM-RUN: cw_mix_umax_low grid=1 block=1 args=buf:u64:4:zero buf:u32:4:const:9 buf:u64:4:const:1
// GMEM-RUN: cw_mix_umax_low grid=2 block=32 args=buf:u64:4:zero buf:u32:64:randint:0:100000 buf:u64:64:randint:1:256
__global__ void cw_mix_umax_low(u64 *p, const unsigned *lo, const u64 *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax((unsigned *)&p[i & 3], lo[i]);
  atomicMax(&p[i & 3], v[i] << 32);
}

// Same, signed (Max, not UMax) through long long and int.
// GMEM-EXPECT: cw_mix_smax_low non-idempotent
// GMEM-RUN: cw_mix_smax_low grid=1 block=1 args=buf:i64:2:zero buf:i32:2:const:9 buf:i64:2:const:4294967296
// GMEM-RUN: cw_mix_smax_low grid=2 block=32 args=buf:i64:4:zero buf:i32:64:randint:0:1000000 buf:i64:64:randint:4294967296:1099511627776
__global__ void cw_mix_smax_low(long long *p, const int *lo, const long long *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax((int *)&p[i & 1], lo[i]);
  atomicMax(&p[i & 1], v[i]);
}

// Threads split: even threads max the low word, odd threads the 64-bit word.
// GMEM-EXPECT: cw_mix_umax_split non-idempotent
// GMEM-RUN: cw_mix_umax_split grid=2 block=64 args=buf:u64:1:zero buf:u32:128:randint:0:100000 buf:u64:128:randint:4294967296:8589934592
// GMEM-RUN: cw_mix_umax_split grid=4 block=32 args=buf:u64:1:const:5 buf:u32:128:randint:0:1000 buf:u64:128:randint:4294967296:4294967300
__global__ void cw_mix_umax_split(u64 *p, const unsigned *lo, const u64 *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 32)
    atomicMax(p, v[i]);
  else
    atomicMax((unsigned *)p, lo[i]);
}

// 32-bit umin on the low half plus 64-bit umin.
// GMEM-EXPECT: cw_mix_umin_low non-idempotent
// GMEM-RUN: cw_mix_umin_low grid=1 block=1 args=buf:u64:1:const:4294967301 buf:u32:1:const:3 buf:u64:1:const:4294967295
// GMEM-RUN: cw_mix_umin_low grid=2 block=32 args=buf:u64:2:const:1099511627775 buf:u32:64:randint:1000:100000 buf:u64:64:randint:4294967296:1099511627776
__global__ void cw_mix_umin_low(u64 *p, const unsigned *lo, const u64 *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMin((unsigned *)&p[i & 1], lo[i]);
  atomicMin(&p[i & 1], v[i]);
}

// 32-bit umax on the HIGH half plus 64-bit umax: monotone, the final state is a
// fixpoint of every operation (idempotent, though order-dependent).
// GMEM-EXPECT: cw_mix_umax_high conditional
// GMEM-RUN: cw_mix_umax_high grid=2 block=32 args=buf:u64:4:zero buf:u32:64:randint:0:100 buf:u64:64:randint:0:1099511627776
__global__ void cw_mix_umax_high(u64 *p, const unsigned *hi, const u64 *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax((unsigned *)&p[i & 3] + 1, hi[i]);
  atomicMax(&p[i & 3], v[i]);
}

// Or through 32 and 64 bits: bitwise, width does not matter.
// GMEM-EXPECT: cw_mix_or_widths conditional
// GMEM-RUN: cw_mix_or_widths grid=2 block=32 args=buf:u64:4:zero buf:u32:64:randint:0:100000 buf:u64:64:randint:0:1099511627776
__global__ void cw_mix_or_widths(u64 *p, const unsigned *lo, const u64 *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicOr((unsigned *)&p[i & 3] + (i & 1), lo[i]);
  atomicOr(&p[i & 3], v[i]);
}

// 64-bit max on even slots, 32-bit max on words of odd slots: apart.
// GMEM-EXPECT: cw_mix_widths_apart conditional
// GMEM-RUN: cw_mix_widths_apart grid=2 block=32 args=buf:u64:8:zero buf:u32:64:randint:0:100000 buf:u64:64:randint:0:1099511627776
__global__ void cw_mix_widths_apart(u64 *p, const unsigned *lo, const u64 *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax(&p[2 * (i & 3)], v[i]);
  atomicMax((unsigned *)&p[2 * (i & 3) + 1] + (i & 1), lo[i]);
}

// A byte store into the word, then a max of the word (same thread).
// GMEM-EXPECT: cw_byte_store_max non-idempotent
// GMEM-RUN: cw_byte_store_max grid=1 block=1 args=buf:u32:1:zero u32:256
// GMEM-RUN: cw_byte_store_max grid=4 block=64 args=buf:u32:256:zero u32:256
// GMEM-RUN: cw_byte_store_max grid=4 block=64 args=buf:u32:256:randint:0:100 u32:1000
__global__ void cw_byte_store_max(unsigned *p, unsigned v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  ((unsigned char *)&p[i])[0] = 0xff;
  atomicMax(&p[i], v);
}

// A 16-bit store into the word, then a min.
// GMEM-EXPECT: cw_short_store_min non-idempotent
// GMEM-RUN: cw_short_store_min grid=2 block=64 args=buf:u32:128:const:4294967295 u32:305419896
// GMEM-RUN: cw_short_store_min grid=2 block=64 args=buf:u32:128:randint:0:1000000000 u32:305419896
__global__ void cw_short_store_min(unsigned *p, unsigned v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  ((unsigned short *)&p[i])[0] = 0;
  atomicMin(&p[i], v);
}

// A 32-bit store into the low half, then a 64-bit max.
// GMEM-EXPECT: cw_half_store_max64 non-idempotent
// GMEM-RUN: cw_half_store_max64 grid=2 block=32 args=buf:u64:64:zero buf:u64:64:randint:4294967296:1099511627776
__global__ void cw_half_store_max64(u64 *p, const u64 *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  ((unsigned *)&p[i])[0] = 0xffffffffu;
  atomicMax(&p[i], v[i]);
}

// Thread 0 sets the low byte of the block's word, then (after the barrier)
// every thread maxes into it.
// GMEM-EXPECT: cw_byte_init_barrier_max non-idempotent
// GMEM-RUN: cw_byte_init_barrier_max grid=4 block=64 args=buf:u32:4:zero buf:u32:256:randint:256:1024
__global__ void cw_byte_init_barrier_max(unsigned *p, const unsigned *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0)
    ((unsigned char *)&p[blockIdx.x])[0] = 0xff;
  __syncthreads();
  atomicMax(&p[blockIdx.x], in[i]);
}

// memset of one byte then max.
// GMEM-EXPECT: cw_memset_byte_max non-idempotent
// GMEM-RUN: cw_memset_byte_max grid=2 block=32 args=buf:u32:64:zero u32:65536
__global__ void cw_memset_byte_max(unsigned *p, unsigned v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  memset((unsigned char *)&p[i] + 1, 0x7f, 1);
  atomicMax(&p[i], v);
}

// Full-word store then max (same thread): reset every run; idempotent.
// GMEM-EXPECT: cw_full_store_max conditional
// GMEM-RUN: cw_full_store_max grid=2 block=64 args=buf:i32:128:randint:0:100 buf:i32:128:randint:0:100
__global__ void cw_full_store_max(int *p, const int *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = 50;
  atomicMax(&p[i], v[i]);
}

// Max then a byte store to the low byte (same thread): idempotent (the upper
// bytes of the result decide it).
// GMEM-EXPECT: cw_max_byte_store conditional
// GMEM-RUN: cw_max_byte_store grid=2 block=64 args=buf:u32:128:randint:0:1000 buf:u32:128:randint:0:1000
__global__ void cw_max_byte_store(unsigned *p, const unsigned *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax(&p[i], v[i]);
  ((unsigned char *)&p[i])[0] = 0x10;
}

// A byte store then an or: bitwise, idempotent.
// GMEM-EXPECT: cw_byte_store_or conditional
// GMEM-RUN: cw_byte_store_or grid=2 block=64 args=buf:u32:128:randint:0:100000 buf:u32:128:randint:0:100000
__global__ void cw_byte_store_or(unsigned *p, const unsigned *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  ((unsigned char *)&p[i])[1] = 0x5a;
  atomicOr(&p[i], v[i]);
}

// A byte store then an and.
// GMEM-EXPECT: cw_byte_store_and conditional
// GMEM-RUN: cw_byte_store_and grid=2 block=64 args=buf:u32:128:randint:0:100000 buf:u32:128:randint:0:100000
__global__ void cw_byte_store_and(unsigned *p, const unsigned *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  ((unsigned char *)&p[i])[0] = 0xa5;
  atomicAnd(&p[i], v[i] | 0xff00u);
}

// Block 0 overwrites a slot that every other block maxes into (a race
// between a plain store and combines of other blocks): re-running block 0
// after the others resets it.
// GMEM-EXPECT: cw_store_race_max non-idempotent
// GMEM-RUN: cw_store_race_max grid=4 block=32 args=buf:i32:1:zero buf:i32:128:randint:0:1000
__global__ void cw_store_race_max(int *p, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 0) {
    if (threadIdx.x == 0)
      p[0] = -1;
  } else {
    atomicMax(p, in[i]);
  }
}

// A byte field packed into a word, maxed with a shifted 32-bit max: a
// combine on the whole word (only the top byte carries the key).
// GMEM-EXPECT: cw_top_byte_max conditional
// GMEM-RUN: cw_top_byte_max grid=2 block=64 args=buf:u32:8:zero buf:u8:128:randint:0:255
__global__ void cw_top_byte_max(unsigned *p, const unsigned char *k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax(&p[i & 7], (unsigned)k[i] << 24);
}

// A byte inside the word or'ed through a masked 32-bit or.
// GMEM-EXPECT: cw_byte_or_mask conditional
// GMEM-RUN: cw_byte_or_mask grid=2 block=64 args=buf:u32:8:zero buf:u8:128:randint:0:255
__global__ void cw_byte_or_mask(unsigned *p, const unsigned char *k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicOr(&p[(i >> 2) & 7], (unsigned)k[i] << (8 * (i & 3)));
}

// A 16-bit max emulated with 32-bit max on the half: byte field min via
// umin on the upper half only (lower half forced to ones: never decides).
// GMEM-EXPECT: cw_half_min_masked conditional
// GMEM-RUN: cw_half_min_masked grid=2 block=64 args=buf:u32:8:const:4294967295 buf:u32:128:randint:0:65535
__global__ void cw_half_min_masked(unsigned *p, const unsigned *k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMin(&p[i & 7], (k[i] << 16) | 0xffffu);
}

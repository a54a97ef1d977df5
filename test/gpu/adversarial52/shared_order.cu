// Adversarial round 6: shared-memory atomics whose result depends on the
// threads' order although they are all one "operation" by name: atomicInc /
// atomicDec with per-thread limits, one add or max at two widths on one
// word, and order-free controls. The result is then stored to global memory.
typedef unsigned long long u64;

// Attacks: shared atomicInc with a per-thread limit (inc-wrap with different limits does not commute).
// GMEM-EXPECT: so_inc_limits non-idempotent
// GMEM-RUN: so_inc_limits grid=2 block=32 args=buf:u32:2:zero
__global__ void so_inc_limits(unsigned *out) {
  __shared__ unsigned s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  atomicInc(&s, threadIdx.x * 3u);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// Attacks: shared atomicDec with per-thread limits.
// GMEM-EXPECT: so_dec_limits non-idempotent
// GMEM-RUN: so_dec_limits grid=2 block=32 args=buf:u32:2:zero
__global__ void so_dec_limits(unsigned *out) {
  __shared__ unsigned s;
  if (threadIdx.x == 0) s = 7;
  __syncthreads();
  atomicDec(&s, threadIdx.x + 5u);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// Attacks: shared atomicInc with one limit for all threads (order-free: idempotent).
// GMEM-EXPECT: so_inc_same idempotent
// GMEM-RUN: so_inc_same grid=2 block=32 args=buf:u32:2:zero
__global__ void so_inc_same(unsigned *out) {
  __shared__ unsigned s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  atomicInc(&s, 9u);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// Attacks: shared add at 64 bits and at 32 bits on the low half (carries make the order matter).
// GMEM-EXPECT: so_add_widths non-idempotent
// GMEM-RUN: so_add_widths grid=1 block=32 args=buf:u64:1:zero
__global__ void so_add_widths(u64 *out) {
  __shared__ u64 s;
  if (threadIdx.x == 0) s = 0xffffffffull;
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&s, 1ull);
  else atomicAdd((unsigned *)&s, 1u);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s;
}

// Attacks: shared unsigned max at 64 bits and at 32 bits on the low half.
// GMEM-EXPECT: so_max_widths non-idempotent
// GMEM-RUN: so_max_widths grid=1 block=32 args=buf:u64:1:zero
__global__ void so_max_widths(u64 *out) {
  __shared__ u64 s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  if (threadIdx.x == 31) atomicMax(&s, 0x100000000ull);
  else if (threadIdx.x == 0) atomicMax((unsigned *)&s, 5u);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s;
}

// Attacks: shared min at 32 bits on both halves of a 64-bit word, plus a 64-bit min.
// GMEM-EXPECT: so_min_halves non-idempotent
// GMEM-RUN: so_min_halves grid=1 block=32 args=buf:u64:1:zero
__global__ void so_min_halves(u64 *out) {
  __shared__ u64 s;
  if (threadIdx.x == 0) s = ~0ull;
  __syncthreads();
  if (threadIdx.x == 0) atomicMin(&s, 0x00000001ffffffffull);
  else if (threadIdx.x == 31) atomicMin((unsigned *)&s + 1, 0u);
  else if (threadIdx.x == 30) atomicMin((unsigned *)&s, 3u);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s;
}

// Attacks: shared add with a 16-bit-shifted operand on an int and atomicAdd on the int (same width: order-free).
// GMEM-EXPECT: so_add_same idempotent
// GMEM-RUN: so_add_same grid=2 block=32 args=buf:i32:2:zero
__global__ void so_add_same(int *out) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  atomicAdd(&s, (int)threadIdx.x << 16);
  atomicSub(&s, (int)threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// Attacks: shared inc with limit from global data (varies per thread).
// GMEM-EXPECT: so_inc_data non-idempotent
// GMEM-RUN: so_inc_data grid=1 block=32 args=buf:u32:1:zero buf:u32:32:randint:0:40
__global__ void so_inc_data(unsigned *out, const unsigned *lim) {
  __shared__ unsigned s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  atomicInc(&s, lim[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s;
}

// Attacks: shared inc with limit from a launch scalar for half the warp and a constant for the other half.
// GMEM-EXPECT: so_inc_mixed non-idempotent
// GMEM-RUN: so_inc_mixed grid=1 block=32 args=buf:u32:1:zero u32:4
// GMEM-RUN: so_inc_mixed grid=1 block=32 args=buf:u32:1:zero u32:100
__global__ void so_inc_mixed(unsigned *out, unsigned lim) {
  __shared__ unsigned s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  atomicInc(&s, threadIdx.x < 16 ? lim : 100u);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s;
}

// Attacks: atomicAdd at 32 and 64 bits on one word of dynamic shared memory.
// GMEM-EXPECT: so_add_widths_dyn non-idempotent
// GMEM-RUN: so_add_widths_dyn grid=1 block=32 smem=64 args=buf:u64:1:zero
__global__ void so_add_widths_dyn(u64 *out) {
#ifdef __CUDA_ARCH__
  extern __shared__ u64 dyn[];
#else
  static u64 dyn[8]; // host emulator stand-in
#endif
  if (threadIdx.x == 0) dyn[0] = 0xfffffffeull;
  __syncthreads();
  if (threadIdx.x & 1) atomicAdd(&dyn[0], 1ull);
  else atomicAdd((unsigned *)dyn, 1u);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = dyn[0];
}

// Attacks: shared inc-wrap through a scoped atomic (atomicInc_block) with per-thread limits.
// GMEM-EXPECT: so_inc_block non-idempotent
// GMEM-RUN: so_inc_block grid=1 block=32 args=buf:u32:1:zero
__global__ void so_inc_block(unsigned *out) {
  __shared__ unsigned s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  atomicInc_block(&s, 2u + (threadIdx.x & 3) * 20u);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s;
}

// Attacks: shared exchange (order-dependent) read back through inline asm ld.shared (not a LoadInst).
// GMEM-EXPECT: so_exch_asm_load non-idempotent
// GMEM-RUN: so_exch_asm_load grid=1 block=32 args=buf:u32:1:zero
__global__ void so_exch_asm_load(unsigned *out) {
  __shared__ unsigned s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  atomicExch(&s, threadIdx.x + 1u);
  __syncthreads();
  unsigned v;
#ifdef __CUDA_ARCH__
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(&s)));
#else
  v = s;
#endif
  if (threadIdx.x == 0) out[0] = v;
}

struct Blob { unsigned w[32]; };
// Attacks: shared exchange into a struct, the struct then copied to global as an aggregate (memcpy).
// GMEM-EXPECT: so_exch_memcpy non-idempotent
// GMEM-RUN: so_exch_memcpy grid=1 block=32 args=buf:u32:32:zero
__global__ void so_exch_memcpy(Blob *out) {
  __shared__ Blob s;
  s.w[threadIdx.x] = 0;
  __syncthreads();
  atomicExch(&s.w[threadIdx.x & 3], threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) *out = s;
}

// Attacks: shared inc-wrap with per-thread limits, result copied to global through a variable-length memcpy.
// GMEM-EXPECT: so_inc_memcpy non-idempotent
// GMEM-RUN: so_inc_memcpy grid=1 block=32 args=buf:u32:8:zero i32:16
__global__ void so_inc_memcpy(unsigned *out, int nbytes) {
  __shared__ unsigned s[8];
  if (threadIdx.x < 8) s[threadIdx.x] = 0;
  __syncthreads();
  atomicInc(&s[threadIdx.x & 7], threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) memcpy(out, s, nbytes);
}

__device__ unsigned so_rd(const unsigned *p, int d) { return d > 0 ? so_rd(p, d - 1) + 1u : *p; }
// Attacks: shared exchange read back through a recursive device function (calls left after the inlining budget).
// GMEM-EXPECT: so_exch_recursive_read non-idempotent
// GMEM-RUN: so_exch_recursive_read grid=1 block=32 args=buf:u32:1:zero i32:0
__global__ void so_exch_recursive_read(unsigned *out, int depth) {
  __shared__ unsigned s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  atomicExch(&s, threadIdx.x + 1u);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = so_rd(&s, depth);
}

// Attacks: inline-asm atom.shared.inc with per-thread limits, result read with a plain load.
// GMEM-EXPECT: so_asm_inc non-idempotent
// GMEM-RUN: so_asm_inc grid=1 block=32 args=buf:u32:1:zero
__global__ void so_asm_inc(unsigned *out) {
  __shared__ unsigned s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  unsigned lim = threadIdx.x * 3u, old;
#ifdef __CUDA_ARCH__
  asm volatile("atom.shared.inc.u32 %0, [%1], %2;" : "=r"(old) : "r"((unsigned)__cvta_generic_to_shared(&s)), "r"(lim) : "memory");
#else
  old = atomicInc(&s, lim);
#endif
  (void)old;
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s;
}

// Attacks: shared unsigned max at 32 bits on the high half and 64-bit max on the word (scoped _block forms).
// GMEM-EXPECT: so_max_widths_block non-idempotent
// GMEM-RUN: so_max_widths_block grid=1 block=32 args=buf:u64:1:zero
__global__ void so_max_widths_block(u64 *out) {
  __shared__ u64 s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  if (threadIdx.x == 31) atomicMax_block(&s, 0x00000000ffffffffull);
  else if (threadIdx.x == 0) atomicMax_block((unsigned *)&s + 1, 0u + 1u);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s;
}

// Attacks: poll of a shared flag with volatile loads, the loop left through a switch (not a conditional branch).
// GMEM-EXPECT: so_poll_switch non-idempotent
// GMEM-RUN: so_poll_switch grid=1 block=32 args=buf:i32:32:zero
__global__ void so_poll_switch(int *out) {
  __shared__ int flag;
  volatile int *vf = &flag;
  if (threadIdx.x == 0) *vf = 0;
  __syncthreads();
  int n = 0;
  if (threadIdx.x == 31) {
    *vf = 3;
  } else {
    for (; n < 1000; n++) {
      switch (*vf) {
      case 0: continue;
      case 1: n += 7; continue;
      case 2: n += 9; continue;
      default: break;
      }
      break;
    }
  }
  out[threadIdx.x] = n;
}

// Attacks: the same poll left through a plain conditional branch (control: detected).
// GMEM-EXPECT: so_poll_branch non-idempotent
// GMEM-RUN: so_poll_branch grid=1 block=32 args=buf:i32:32:zero
__global__ void so_poll_branch(int *out) {
  __shared__ int flag;
  volatile int *vf = &flag;
  if (threadIdx.x == 0) *vf = 0;
  __syncthreads();
  int n = 0;
  if (threadIdx.x == 31) *vf = 3;
  else
    for (; n < 1000 && *vf == 0; n++) {}
  out[threadIdx.x] = n;
}

// Attacks: poll of a shared flag inside an irreducible cycle (two entries: no natural loop for LoopInfo).
// GMEM-EXPECT: so_poll_irreducible non-idempotent
// GMEM-RUN: so_poll_irreducible grid=1 block=32 args=buf:i32:32:zero
__global__ void so_poll_irreducible(int *out) {
  __shared__ int flag;
  volatile int *vf = &flag;
  if (threadIdx.x == 0) *vf = 0;
  __syncthreads();
  int n = 0;
  if (threadIdx.x == 31) {
    *vf = 3;
    goto done;
  }
  if (threadIdx.x & 1) goto second;
first:
  n += 1;
  if (*vf != 0) goto done;
second:
  n += 2;
  if (n < 3000) goto first;
done:
  out[threadIdx.x] = n;
}

// Attacks: reads shared memory before writing it (stale values from an earlier CTA or launch): a kernel bug.
// GMEM-EXPECT: so_uninit_shared non-idempotent
// GMEM-RUN: so_uninit_shared grid=2 block=32 args=buf:i32:64:zero
__global__ void so_uninit_shared(int *out) {
  __shared__ int s[32];
  out[blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x];
  __syncthreads();
  s[threadIdx.x] = threadIdx.x + 1;
}

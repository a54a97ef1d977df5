// Atomic combines: aliasing at the launch, several objects and operations,
// used old values, plain reads of combined bytes, scoped atomics, globals.
typedef unsigned long long u64;

// Operand read through a parameter that may alias the combined buffer.
// GMEM-EXPECT: ca_alias_operand conditional
// GMEM-RUN: ca_alias_operand grid=2 block=64 args=buf:i32:8:zero buf:i32:128:randint:0:1000
// GMEM-RUN: ca_alias_operand grid=2 block=64 args=buf:i32:200:randint:0:1000 ptr:0+0
// GMEM-RUN: ca_alias_operand grid=2 block=64 args=buf:i32:200:randint:0:1000 ptr:0+4
// GMEM-RUN: ca_alias_operand grid=2 block=64 args=buf:i32:200:randint:0:1000 ptr:0+32
__global__ void ca_alias_operand(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax(&out[i & 7], in[i] + (i & 7));
}

// Max into a, min into b: one object when b aliases a.
// GMEM-EXPECT: ca_max_min_params conditional
// GMEM-RUN: ca_max_min_params grid=2 block=64 args=buf:i32:8:const:500 buf:i32:8:const:500 buf:i32:128:randint:0:1000
// GMEM-RUN: ca_max_min_params grid=2 block=64 args=buf:i32:8:const:500 ptr:0+0 buf:i32:128:randint:0:1000
// GMEM-RUN: ca_max_min_params grid=2 block=64 args=buf:i32:16:const:500 ptr:0+16 buf:i32:128:randint:0:1000
__global__ void ca_max_min_params(int *a, int *b, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax(&a[i & 7], in[i]);
  atomicMin(&b[i & 7], in[i]);
}

// Or into a, and into b.
// GMEM-EXPECT: ca_or_and_params conditional
// GMEM-RUN: ca_or_and_params grid=2 block=64 args=buf:u32:8:zero buf:u32:8:const:4294967295 buf:u32:128:randint:0:1000000
// GMEM-RUN: ca_or_and_params grid=2 block=64 args=buf:u32:8:zero ptr:0+0 buf:u32:128:randint:0:1000000
__global__ void ca_or_and_params(unsigned *a, unsigned *b, const unsigned *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicOr(&a[i & 7], in[i]);
  atomicAnd(&b[i & 7], ~in[(i + 5) & 127]);
}

// umax32 into a, umax64 into b: the same operation at two widths when they
// alias.
// GMEM-EXPECT: ca_w32_w64_params conditional
// GMEM-RUN: ca_w32_w64_params grid=2 block=32 args=buf:u32:8:zero buf:u64:4:zero buf:u32:64:randint:0:100000 buf:u64:64:randint:1:100
// GMEM-RUN: ca_w32_w64_params grid=2 block=32 args=buf:u32:8:zero ptr:0+0 buf:u32:64:randint:0:100000 buf:u64:64:randint:1:100
__global__ void ca_w32_w64_params(unsigned *a, u64 *b, const unsigned *lo, const u64 *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax(&a[2 * (i & 3)], lo[i]);
  atomicMax(&b[i & 3], v[i] << 32);
}

// Max through a pointer chosen per launch, min into a: with flag=1 both land
// on a's words.
// GMEM-EXPECT: ca_select_max_min conditional
// GMEM-RUN: ca_select_max_min grid=2 block=64 args=buf:i32:8:const:500 buf:i32:8:const:500 buf:i32:128:randint:0:1000 i32:0
// GMEM-RUN: ca_select_max_min grid=2 block=64 args=buf:i32:8:const:500 buf:i32:8:const:500 buf:i32:128:randint:0:1000 i32:1
__global__ void ca_select_max_min(int *a, int *b, const int *in, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = flag ? a : b;
  atomicMax(&p[i & 7], in[i]);
  atomicMin(&a[i & 7], in[(i * 3) & 127]);
}

// Max into a __device__ global, plus a plain output.
__device__ int g_best[8];
// GMEM-EXPECT: ca_global_max conditional
// GMEM-RUN: ca_global_max grid=2 block=64 args=buf:i32:128:randint:0:1000 buf:i32:128:zero
__global__ void ca_global_max(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax(&g_best[i & 7], in[i]);
  out[i] = in[i] * 2;
}

// Or and and into different words of one global (precision: idempotent).
__device__ unsigned g_bits[16];
// GMEM-EXPECT: ca_global_or_and conditional
// GMEM-RUN: ca_global_or_and grid=2 block=64 args=buf:u32:128:randint:0:100000
__global__ void ca_global_or_and(const unsigned *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicOr(&g_bits[i & 7], in[i]);
  atomicAnd(&g_bits[8 + (i & 7)], ~in[i]);
}

// Max and add on one buffer at different offsets.
// GMEM-EXPECT: ca_max_add_offsets non-idempotent
// GMEM-RUN: ca_max_add_offsets grid=2 block=64 args=buf:i32:16:zero buf:i32:128:randint:0:1000
__global__ void ca_max_add_offsets(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax(&out[i & 7], in[i]);
  atomicAdd(&out[8 + (i & 7)], 1);
}

// Or and and on different words of one buffer (precision: idempotent).
// GMEM-EXPECT: ca_or_and_diff_words conditional
// GMEM-RUN: ca_or_and_diff_words grid=2 block=64 args=buf:u32:16:const:12345678 buf:u32:128:randint:0:100000
__global__ void ca_or_and_diff_words(unsigned *w, const unsigned *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicOr(&w[i & 7], in[i]);
  atomicAnd(&w[8 + (i & 7)], ~in[i]);
}

// Or and and on the same word.
// GMEM-EXPECT: ca_or_and_same_word non-idempotent
// GMEM-RUN: ca_or_and_same_word grid=2 block=64 args=buf:u32:8:const:12345678 buf:u32:128:randint:0:32
__global__ void ca_or_and_same_word(unsigned *w, const unsigned *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicOr(&w[i & 7], 1u << in[i]);
  atomicAnd(&w[i & 7], ~(1u << in[(i + 1) & 127]));
}

// A CAS loop implementing max (semantically a max; the tool need not see it).
// GMEM-EXPECT: ca_cas_max conditional
// GMEM-RUN: ca_cas_max grid=2 block=64 args=buf:i32:8:zero buf:i32:128:randint:0:1000
__global__ void ca_cas_max(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = &out[i & 7];
  int old = *p, v = in[i];
  while (old < v) {
    int got = atomicCAS(p, old, v);
    if (got == old)
      break;
    old = got;
  }
}

// A CAS loop that adds (must stay non-idempotent).
// GMEM-EXPECT: ca_cas_add non-idempotent
// GMEM-RUN: ca_cas_add grid=2 block=64 args=buf:i32:8:zero buf:i32:128:randint:0:1000
__global__ void ca_cas_add(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = &out[i & 7];
  int old = *p;
  for (;;) {
    int got = atomicCAS(p, old, old + in[i]);
    if (got == old)
      break;
    old = got;
  }
}

// Block- and system-scoped max.
// GMEM-EXPECT: ca_max_block_scope conditional
// GMEM-RUN: ca_max_block_scope grid=4 block=64 args=buf:i32:4:zero buf:i32:256:randint:0:1000
// GMEM-RUN: ca_max_block_scope grid=4 block=64 args=buf:i32:256:randint:0:1000 ptr:0+0
__global__ void ca_max_block_scope(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax_block(&out[blockIdx.x], in[i]);
}
// GMEM-EXPECT: ca_max_system_scope conditional
// GMEM-RUN: ca_max_system_scope grid=4 block=64 args=buf:u32:4:zero buf:u32:256:randint:0:1000
__global__ void ca_max_system_scope(unsigned *out, const unsigned *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax_system(&out[blockIdx.x], in[i]);
  atomicOr_system(&out[blockIdx.x], 0u);
}

// The old value only through an empty asm (imprecision is fine).
// GMEM-EXPECT: ca_old_asm conditional
// GMEM-RUN: ca_old_asm grid=2 block=64 args=buf:i32:8:zero buf:i32:128:randint:0:1000
__global__ void ca_old_asm(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int old = atomicMax(&out[i & 7], in[i]);
  asm volatile("" ::"r"(old));
}

// The old value decides a winner.
// GMEM-EXPECT: ca_old_winner non-idempotent
// GMEM-RUN: ca_old_winner grid=2 block=64 args=buf:i32:1:zero buf:i32:1:const:-1 buf:i32:128:randint:0:100000
__global__ void ca_old_winner(int *best, int *who, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (atomicMax(best, in[i]) < in[i])
    *who = i;
}

// Volatile read of the block's slot after the barrier.
// GMEM-EXPECT: ca_volatile_read conditional
// GMEM-RUN: ca_volatile_read grid=4 block=64 args=buf:i32:4:zero buf:i32:4:zero buf:i32:256:randint:0:1000
__global__ void ca_volatile_read(int *out, int *copy, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax(&out[blockIdx.x], in[i]);
  __syncthreads();
  if (threadIdx.x == 0)
    copy[blockIdx.x] = *(volatile int *)&out[blockIdx.x];
}

// After a fence, a block reads the NEXT block's slot: whether that block
// has run decides the copy.
// GMEM-EXPECT: ca_fence_read_next non-idempotent
// GMEM-RUN: ca_fence_read_next grid=4 block=64 args=buf:i32:4:zero buf:i32:4:zero buf:i32:256:randint:0:1000
__global__ void ca_fence_read_next(int *out, int *copy, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax(&out[blockIdx.x], in[i]);
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0)
    copy[blockIdx.x] = *(volatile int *)&out[(blockIdx.x + 1) % gridDim.x];
}

// Target index read from the other half of the combined buffer.
// GMEM-EXPECT: ca_index_other_half conditional
// GMEM-RUN: ca_index_other_half grid=2 block=64 args=buf:u32:256:randint:0:1000 u32:128
__global__ void ca_index_other_half(unsigned *a, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMax(&a[a[n + i] % n], i);
}

// Target index and value read from the combined words themselves.
// GMEM-EXPECT: ca_index_self non-idempotent
// GMEM-RUN: ca_index_self grid=2 block=64 args=buf:u32:128:randint:0:1000 u32:128
__global__ void ca_index_self(unsigned *a, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned k = a[i];
    atomicMax(&a[(k * 7) % n], k + 1);
  }
}

// Loop that stops once the slot reached a limit (a partially run block that
// stopped early leaves its later maxes unapplied: order-dependent).
// GMEM-EXPECT: ca_loop_exit_up non-idempotent
// GMEM-RUN: ca_loop_exit_up grid=2 block=64 args=buf:i32:8:zero buf:i32:512:randint:0:1000 i32:900
__global__ void ca_loop_exit_up(int *out, const int *in, int lim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4; k++) {
    if (out[i & 7] >= lim)
      break;
    atomicMax(&out[i & 7], in[4 * i + k]);
  }
}

// Loop that only goes on once the slot reached a limit: a re-run applies
// more.
// GMEM-EXPECT: ca_loop_exit_down non-idempotent
// GMEM-RUN: ca_loop_exit_down grid=2 block=64 args=buf:i32:8:zero buf:i32:512:randint:0:1000 i32:500
__global__ void ca_loop_exit_down(int *out, const int *in, int lim) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4; k++) {
    atomicMax(&out[i & 7], in[4 * i + k] / (k + 1));
    if (out[i & 7] < lim)
      break;
  }
}

// Warp shuffle reduction, then lane 0 maxes.
// GMEM-EXPECT: ca_warp_reduce_max conditional
// GMEM-RUN: ca_warp_reduce_max grid=4 block=64 args=buf:i32:256:randint:0:100000 buf:i32:2:zero
__global__ void ca_warp_reduce_max(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  for (int d = 16; d > 0; d >>= 1)
    v = max(v, __shfl_down_sync(0xffffffffu, v, d));
  if ((threadIdx.x & 31) == 0)
    atomicMax(&out[blockIdx.x & 1], v);
}

// Slot chosen by a shared-memory ticket (thread order decides the slot).
// GMEM-EXPECT: ca_shared_ticket non-idempotent
// GMEM-RUN: ca_shared_ticket grid=2 block=64 args=buf:i32:128:zero buf:i32:128:randint:0:1000
__global__ void ca_shared_ticket(int *out, const int *in) {
  __shared__ unsigned ticket;
  if (threadIdx.x == 0)
    ticket = 0;
  __syncthreads();
  unsigned t = atomicAdd(&ticket, 1u);
  atomicMax(&out[blockIdx.x * blockDim.x + t], in[blockIdx.x * blockDim.x + threadIdx.x]);
}

// Same with a plain store (the old tool's verdict for comparison).
// GMEM-EXPECT: ca_shared_ticket_store non-idempotent
// GMEM-RUN: ca_shared_ticket_store grid=2 block=64 args=buf:i32:128:zero buf:i32:128:randint:0:1000
__global__ void ca_shared_ticket_store(int *out, const int *in) {
  __shared__ unsigned ticket;
  if (threadIdx.x == 0)
    ticket = 0;
  __syncthreads();
  unsigned t = atomicAdd(&ticket, 1u);
  out[blockIdx.x * blockDim.x + t] = in[blockIdx.x * blockDim.x + threadIdx.x];
}

// Operand read from x; y written; x and y may alias at the launch.
// GMEM-EXPECT: ca_operand_alias_written conditional
// GMEM-RUN: ca_operand_alias_written grid=2 block=64 args=buf:i32:4:zero buf:i32:128:randint:1:1000 buf:i32:128:zero
// GMEM-RUN: ca_operand_alias_written grid=2 block=64 args=buf:i32:4:zero buf:i32:128:randint:1:1000 ptr:1+0
__global__ void ca_operand_alias_written(int *out, const int *x, int *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = x[i];
  __syncthreads();
  y[(i + 1) & 127] = 0;
  atomicMax(&out[i & 3], v);
}

// Max then a plain store by the same thread.
// GMEM-EXPECT: ca_max_then_store conditional
// GMEM-RUN: ca_max_then_store grid=2 block=64 args=buf:i32:128:randint:0:1000 buf:i32:128:randint:0:1000
__global__ void ca_max_then_store(int *p, const int *v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicMax(&p[i], v[i]);
  p[i] = v[i] + 1;
}

// Max or min chosen by a launch flag (uniform per launch).
// GMEM-EXPECT: ca_flag_max_or_min conditional
// GMEM-RUN: ca_flag_max_or_min grid=2 block=64 args=buf:u32:8:const:500 buf:u32:128:randint:0:1000 i32:0
// GMEM-RUN: ca_flag_max_or_min grid=2 block=64 args=buf:u32:8:const:500 buf:u32:128:randint:0:1000 i32:1
__global__ void ca_flag_max_or_min(unsigned *p, const unsigned *in, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (flag)
    atomicMax(&p[i & 7], in[i]);
  else
    atomicMin(&p[i & 7], in[i]);
}

// Old value returned by a device function and dropped by the caller.
__device__ __noinline__ int upd_max(int *p, int v) { return atomicMax(p, v); }
// GMEM-EXPECT: ca_devfn_old_dropped conditional
// GMEM-RUN: ca_devfn_old_dropped grid=2 block=64 args=buf:i32:8:zero buf:i32:128:randint:0:1000
__global__ void ca_devfn_old_dropped(int *out, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  upd_max(&out[i & 7], in[i]);
}

// Signed and unsigned max on one word: max and umax disagree on negatives.
// GMEM-EXPECT: ca_smax_umax non-idempotent
// GMEM-RUN: ca_smax_umax grid=2 block=64 args=buf:i32:1:zero buf:i32:128:randint:-1000:1000
__global__ void ca_smax_umax(int *p, const int *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i & 1)
    atomicMax(p, in[i]);
  else
    atomicMax((unsigned *)p, (unsigned)in[i]);
}

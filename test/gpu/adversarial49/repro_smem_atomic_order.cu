// REPRO (UNSOUND under the tool's own rule "the order of atomics decides a
// value" -> non-idempotent; definitional, the H200 may or may not show it):
// order-dependent shared-memory atomics the nondeterminism check misses.
// Suspected code: passes/lib/Analysis/NondeterministicOutput.cpp,
// nondeterministicOutput(): (a) inline asm counts as an atomic only if its
// text contains "atom." or "atomic", so `red.shared.add.f32` / `red.add.f32`
// (no result, order-dependent float sum) never sets OrderedShared; (b)
// orderDependent() judges each atomicrmw alone: add, and/or, max/min,
// inc/dec are each order-free, but two different ones on the same shared
// word do not commute ((x|m)&~m != (x&~m)|m, max(x+1,y) != max(x,y)+1), so
// the final shared value, later stored to global, depends on thread order.
// Control: smem_fadd_builtin (atomicAdd on a shared float) is non-idempotent.
//
//   gmem-analyze repro_smem_atomic_order.cu  ->
//     smem_fadd_red_asm      class: conditional   (expected non-idempotent)
//     smem_fadd_red_generic  class: conditional
//     smem_or_and_mix        class: idempotent -- reads no global memory
//     smem_add_max_mix       class: conditional
//     smem_fadd_builtin      class: non-idempotent (control)
//   instance, e.g. --kernel smem_or_and_mix --grid 1 --block 64
//     --alloc 0x100000000:4 --arg ptr:0x100000000  -> idempotent: yes

// GMEM-EXPECT: smem_fadd_red_asm non-idempotent
// GMEM-RUN: smem_fadd_red_asm grid=4 block=256 args=buf:f32:1024:rand buf:f32:4:zero
__global__ void smem_fadd_red_asm(const float *in, float *out) {
  __shared__ float s;
  if (threadIdx.x == 0) s = 0.f;
  __syncthreads();
  asm volatile("red.shared.add.f32 [%0], %1;" ::"r"((unsigned)__cvta_generic_to_shared(&s)),
               "f"(in[blockIdx.x * blockDim.x + threadIdx.x]) : "memory");
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// GMEM-EXPECT: smem_fadd_red_generic non-idempotent
// GMEM-RUN: smem_fadd_red_generic grid=4 block=256 args=buf:f32:1024:rand buf:f32:4:zero
__global__ void smem_fadd_red_generic(const float *in, float *out) {
  __shared__ float s;
  if (threadIdx.x == 0) s = 0.f;
  __syncthreads();
  asm volatile("red.add.f32 [%0], %1;" ::"l"(&s), "f"(in[blockIdx.x * blockDim.x + threadIdx.x]) : "memory");
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// Warp 0 sets bit k, warp 1 clears bit k: the final word depends on which
// warp's atomics land last.
// GMEM-EXPECT: smem_or_and_mix non-idempotent
// GMEM-RUN: smem_or_and_mix grid=1 block=64 args=buf:u32:1:zero
__global__ void smem_or_and_mix(unsigned *out) {
  __shared__ unsigned w;
  if (threadIdx.x == 0) w = 0x0000ffffu;
  __syncthreads();
  unsigned bit = 1u << (threadIdx.x & 31);
  if (threadIdx.x < 32) atomicOr(&w, bit);
  else atomicAnd(&w, ~bit);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = w;
}

// atomicAdd by one warp, atomicMax by another on the same shared int.
// GMEM-EXPECT: smem_add_max_mix non-idempotent
// GMEM-RUN: smem_add_max_mix grid=1 block=64 args=buf:i32:64:randint:0:100 buf:i32:1:zero
__global__ void smem_add_max_mix(const int *in, int *out) {
  __shared__ int m;
  if (threadIdx.x == 0) m = 0;
  __syncthreads();
  if (threadIdx.x < 32) atomicAdd(&m, 1);
  else atomicMax(&m, in[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = m;
}

// Control: atomicAdd on a shared float is flagged.
// GMEM-EXPECT: smem_fadd_builtin non-idempotent
// GMEM-RUN: smem_fadd_builtin grid=4 block=256 args=buf:f32:1024:rand buf:f32:4:zero
__global__ void smem_fadd_builtin(const float *in, float *out) {
  __shared__ float s;
  if (threadIdx.x == 0) s = 0.f;
  __syncthreads();
  atomicAdd(&s, in[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}

// Adversarial round 5: global memory reached by inline PTX: vector stores,
// offsets in brackets, .relaxed/.release/.volatile scopes, red.global,
// bulk copies and bulk reductions (TMA-like), prefetches, cache-hint
// intrinsics, addresses computed inside the asm text. Device code runs the
// asm; the host emulator runs the C fallback with the same effect.

// Attacks: st.global.v4.u32 at out + 4i (16 bytes per thread).
// GMEM-EXPECT: am_st_v4 conditional
// GMEM-RUN: am_st_v4 grid=2 block=64 args=buf:u32:128:rand buf:u32:512:zero
__global__ void am_st_v4(const unsigned *in, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = in[i];
  unsigned *p = out + 4 * i;
#ifdef __CUDA_ARCH__
  asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" :: "l"(p), "r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3) : "memory");
#else
  p[0] = v; p[1] = v + 1; p[2] = v + 2; p[3] = v + 3;
#endif
}

// Attacks: immediate offset in the bracket ([p+12]) writes past the pointer's element.
// GMEM-EXPECT: am_st_offset conditional
// GMEM-RUN: am_st_offset grid=2 block=64 args=buf:u32:128:rand buf:u32:520:zero
__global__ void am_st_offset(const unsigned *in, unsigned *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *p = out + 4 * i;
#ifdef __CUDA_ARCH__
  asm volatile("st.global.u32 [%0+12], %1;\n\tst.global.u32 [%0 + 0x20], %1;" :: "l"(p), "r"(in[i]) : "memory");
#else
  p[3] = in[i]; p[8] = in[i];
#endif
}

// Attacks: red.global.add.u32 (atomic add with no result) into a histogram.
// GMEM-EXPECT: am_red_hist non-idempotent
// GMEM-RUN: am_red_hist grid=2 block=64 args=buf:u32:128:randint:0:16 buf:u32:16:zero
__global__ void am_red_hist(const unsigned *in, unsigned *hist) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned *p = hist + (in[i] & 15);
#ifdef __CUDA_ARCH__
  asm volatile("red.global.add.u32 [%0], 1;" :: "l"(p) : "memory");
#else
  atomicAdd(p, 1u);
#endif
}

// Attacks: st.release.gpu / ld.acquire.gpu flag pair (publication to one slot).
// GMEM-EXPECT: am_release_acquire conditional
// GMEM-RUN: am_release_acquire grid=2 block=32 args=buf:i32:64:rand buf:i32:64:zero buf:i32:64:zero
__global__ void am_release_acquire(const int *in, int *data, int *flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = in[i];
#ifdef __CUDA_ARCH__
  asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(flag + i), "r"(1) : "memory");
  int f;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(f) : "l"(flag + i) : "memory");
#else
  flag[i] = 1; int f = flag[i];
#endif
  data[i] += f - 1;
}

// Attacks: ld.volatile.global.v2.f32 (8 bytes per thread) then a plain store.
// GMEM-EXPECT: am_ld_v2_volatile conditional
// GMEM-RUN: am_ld_v2_volatile grid=2 block=64 args=buf:f32:256:rand buf:f32:128:zero
__global__ void am_ld_v2_volatile(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a, b;
#ifdef __CUDA_ARCH__
  asm volatile("ld.volatile.global.v2.f32 {%0, %1}, [%2];" : "=f"(a), "=f"(b) : "l"(in + 2 * i));
#else
  a = in[2 * i]; b = in[2 * i + 1];
#endif
  out[i] = a + b;
}

// Attacks: address computed inside the asm text (mad.wide then st) from base + index.
// GMEM-EXPECT: am_addr_in_asm conditional
// GMEM-RUN: am_addr_in_asm grid=2 block=64 args=buf:i32:128:rand buf:i32:128:zero
__global__ void am_addr_in_asm(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef __CUDA_ARCH__
  asm volatile("{ .reg .u64 a; mad.wide.u32 a, %1, 4, %0; st.global.u32 [a], %2; }" :: "l"(out), "r"(i), "r"(in[i]) : "memory");
#else
  out[i] = in[i];
#endif
}

// Attacks: the pointer register advanced by the asm itself ("+l") before the store.
// GMEM-EXPECT: am_tied_advance conditional
// GMEM-RUN: am_tied_advance grid=2 block=64 args=buf:i32:128:rand buf:i32:256:zero
__global__ void am_tied_advance(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = out + i;
#ifdef __CUDA_ARCH__
  asm volatile("add.u64 %0, %0, 512;\n\tst.global.u32 [%0], %1;" : "+l"(p) : "r"(in[i]) : "memory");
#else
  p[128] = in[i];
#endif
}

// Attacks: cp.async.bulk shared->global store (TMA-like bulk copy of a CTA tile).
// GMEM-EXPECT: am_bulk_store conditional
// GMEM-RUN: am_bulk_store grid=4 block=64 args=buf:f32:256:rand buf:f32:256:zero
__global__ void am_bulk_store(const float *in, float *out) {
  __shared__ __attribute__((aligned(128))) float s[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i] * 2.0f;
  __syncthreads();
#ifdef __CUDA_ARCH__
  if (threadIdx.x == 0) {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" :: "l"(out + blockIdx.x * 64), "r"((unsigned)__cvta_generic_to_shared(s)), "r"(256) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
#else
  out[i] = s[threadIdx.x];
#endif
}

// Attacks: cp.reduce.async.bulk add into global (a bulk reduction: not idempotent).
// GMEM-EXPECT: am_bulk_reduce non-idempotent
// GMEM-RUN: am_bulk_reduce grid=4 block=64 args=buf:f32:256:rand buf:f32:64:zero
__global__ void am_bulk_reduce(const float *in, float *acc) {
  __shared__ __attribute__((aligned(128))) float s[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i];
  __syncthreads();
#ifdef __CUDA_ARCH__
  if (threadIdx.x == 0) {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], %2;" :: "l"(acc), "r"((unsigned)__cvta_generic_to_shared(s)), "r"(256) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
#else
  atomicAdd(&acc[threadIdx.x], s[threadIdx.x]);
#endif
}

// Attacks: cp.async.bulk global->shared with an mbarrier (TMA-like load), then a plain store.
// GMEM-EXPECT: am_bulk_load conditional
// GMEM-RUN: am_bulk_load grid=4 block=64 args=buf:f32:256:rand buf:f32:256:zero
__global__ void am_bulk_load(const float *in, float *out) {
  __shared__ __attribute__((aligned(128))) float s[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef __CUDA_ARCH__
  __shared__ unsigned long long bar;
  unsigned ba = (unsigned)__cvta_generic_to_shared(&bar), sa = (unsigned)__cvta_generic_to_shared(s);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" :: "r"(ba) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" :: "r"(ba), "r"(256) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" :: "r"(sa), "l"(in + blockIdx.x * 64), "r"(256), "r"(ba) : "memory");
  }
  __syncthreads();
  unsigned done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }" : "=r"(done) : "r"(ba) : "memory");
#else
  s[threadIdx.x] = in[i];
#endif
  out[i] = s[63 - threadIdx.x];
}

// Attacks: prefetch hints on an argument that is then only read.
// GMEM-EXPECT: am_prefetch conditional
// GMEM-RUN: am_prefetch grid=2 block=64 args=buf:f32:256:rand buf:f32:128:zero
__global__ void am_prefetch(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef __CUDA_ARCH__
  asm volatile("prefetch.global.L2::evict_last [%0];" :: "l"(in + i + 128));
  asm volatile("prefetch.global.L1 [%0];" :: "l"(in + i));
#endif
  out[i] = in[i] + in[i + 128];
}

// Attacks: cache-hint intrinsics __ldcs/__ldlu/__stcs/__stwt on float4.
// GMEM-EXPECT: am_cache_hints conditional
// GMEM-RUN: am_cache_hints grid=2 block=32 args=buf:f32:256:rand buf:f32:256:zero buf:f32:64:zero
__global__ void am_cache_hints(const float4 *in, float4 *out, float *side) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 a = __ldcs(in + i);
  float b = __ldlu((const float *)in + 4 * i + 2);
  __stcs(out + i, a);
  __stwt(side + i, b);
}

// Attacks: predicated stores to two places in one asm block (both must be in the region).
// GMEM-EXPECT: am_pred_two conditional
// GMEM-RUN: am_pred_two grid=2 block=64 args=buf:i32:128:rand buf:i32:128:zero buf:i32:128:zero
__global__ void am_pred_two(const int *in, int *a, int *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
#ifdef __CUDA_ARCH__
  asm volatile("{ .reg .pred p; setp.gt.s32 p, %2, 50; @p st.global.u32 [%0], %2; @!p st.global.u32 [%1], %2; }" :: "l"(a + i), "l"(b + i), "r"(v) : "memory");
#else
  if (v > 50) a[i] = v; else b[i] = v;
#endif
}

// Attacks: atom.global.exch in asm (returns old value into out).
// GMEM-EXPECT: am_atom_exch non-idempotent
// GMEM-RUN: am_atom_exch grid=2 block=64 args=buf:i32:128:rand buf:i32:128:zero
__global__ void am_atom_exch(int *slot, int *old) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int o;
#ifdef __CUDA_ARCH__
  asm volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(o) : "l"(slot + i), "r"(i) : "memory");
#else
  o = atomicExch(slot + i, i);
#endif
  old[i] = o;
}

// Attacks: 128-bit store st.global.b128 (16 bytes) from two 64-bit halves.
// GMEM-EXPECT: am_st_b128 conditional
// GMEM-RUN: am_st_b128 grid=2 block=32 args=buf:u64:128:rand buf:u64:128:zero
__global__ void am_st_b128(const unsigned long long *in, unsigned long long *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long lo = in[2 * i], hi = in[2 * i + 1];
#ifdef __CUDA_ARCH__
  asm volatile("{ .reg .b128 t; mov.b128 t, {%1, %2}; st.global.b128 [%0], t; }" :: "l"(out + 2 * i), "l"(lo), "l"(hi) : "memory");
#else
  out[2 * i] = lo; out[2 * i + 1] = hi;
#endif
}

// Attacks: generic-space store (no .global) through a pointer argument with a register offset.
// GMEM-EXPECT: am_generic_st conditional
// GMEM-RUN: am_generic_st grid=2 block=64 args=buf:i32:128:rand buf:i32:256:zero
__global__ void am_generic_st(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef __CUDA_ARCH__
  asm volatile("st.relaxed.sys.u32 [%0+4], %1;" :: "l"(out + 2 * i), "r"(in[i]) : "memory");
#else
  out[2 * i + 1] = in[i];
#endif
}

// Adversarial round 5: what the persistent clones (a loop over virtual CTAs
// in one physical CTA) must not get wrong: inline asm that ends the thread
// (`ret;` inside the kernel body ends the whole persistent loop), special
// registers read through asm, named barriers, barrier reductions, mbarriers,
// spin waits with __nanosleep, dynamic shared memory. Device code uses the
// asm; the host emulator runs the C fallback (same semantics per CTA).
#ifndef __CUDA_ARCH__
static unsigned emu_smem_dyn[4096];
inline int emu_count(int) { return 0; }
#endif

// Attacks: asm `ret;` on a data-dependent condition (an early return the pass cannot see).
// GMEM-EXPECT: pa_asm_ret_neg conditional
// GMEM-RUN: pa_asm_ret_neg grid=16 block=64 args=buf:f32:1024:rand buf:f32:1024:zero
__global__ void pa_asm_ret_neg(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
#ifdef __CUDA_ARCH__
  if (v < 0.0f) asm volatile("ret;");
#else
  if (v < 0.0f) return;
#endif
  out[i] = v * 2.0f;
}

// Attacks: predicated asm `@p ret;` inside one statement block.
// GMEM-EXPECT: pa_asm_pred_ret conditional
// GMEM-RUN: pa_asm_pred_ret grid=16 block=64 args=buf:i32:1024:randint:0:4 buf:i32:1024:zero
__global__ void pa_asm_pred_ret(const int *sel, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = sel[i];
#ifdef __CUDA_ARCH__
  asm volatile("{ .reg .pred p; setp.eq.s32 p, %0, 0; @p ret; }" :: "r"(s));
#else
  if (s == 0) return;
#endif
  out[i] = s + 10;
}

// Attacks: asm `exit;` on thread data (the pass refuses clones: precision case).
// GMEM-EXPECT: pa_asm_exit_data conditional
// GMEM-RUN: pa_asm_exit_data grid=16 block=64 args=buf:f32:1024:rand buf:f32:1024:zero
__global__ void pa_asm_exit_data(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
#ifdef __CUDA_ARCH__
  if (v < 0.0f) asm volatile("exit;");
#else
  if (v < 0.0f) return;
#endif
  out[i] = v + 1.0f;
}

// Attacks: %smid read through asm selects a per-SM scratch slot (nondeterministic output).
// GMEM-EXPECT: pa_smid_slot non-idempotent
// GMEM-RUN: pa_smid_slot grid=4 block=32 args=buf:i32:128:rand buf:i32:1024:zero
__global__ void pa_smid_slot(const int *in, int *scratch) {
  unsigned sm = 0;
#ifdef __CUDA_ARCH__
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
#endif
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  scratch[(sm & 31) * 32 + threadIdx.x] = in[i];
}

// Attacks: %nsmid through asm as a loop stride over the work (grid-like partition by SM count).
// GMEM-EXPECT: pa_nsmid_stride conditional
// GMEM-RUN: pa_nsmid_stride grid=4 block=32 args=buf:f32:1024:rand buf:f32:1024:zero i32:1000
__global__ void pa_nsmid_stride(const float *in, float *out, int n) {
  unsigned ns = 1;
#ifdef __CUDA_ARCH__
  asm("mov.u32 %0, %%nsmid;" : "=r"(ns));
#endif
  if (ns == 0) ns = 1;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i] * (float)(ns > 0);
}

// Attacks: %dynamic_smem_size read through asm decides how many elements each CTA stages.
// GMEM-EXPECT: pa_dyn_smem_size conditional
// GMEM-RUN: pa_dyn_smem_size grid=4 block=64 args=buf:f32:1024:rand buf:f32:1024:zero
__global__ void pa_dyn_smem_size(const float *in, float *out) {
  unsigned bytes = 256;
#ifdef __CUDA_ARCH__
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
#endif
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (bytes == 0) out[i] = in[i];
  else out[i] = -in[i];
}

// Attacks: named barrier with a thread count after half the CTA returned.
// GMEM-EXPECT: pa_named_bar conditional
// GMEM-RUN: pa_named_bar grid=8 block=128 args=buf:f32:1024:rand buf:f32:512:zero
__global__ void pa_named_bar(const float *in, float *out) {
  __shared__ float s[64];
  if (threadIdx.x >= 64) return;
  s[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
#ifdef __CUDA_ARCH__
  asm volatile("bar.sync 1, 64;" ::: "memory");
#else
  __syncthreads();
#endif
  out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}

// Attacks: __syncthreads_count result stored by every thread (uniform barrier reduction).
// GMEM-EXPECT: pa_sync_count conditional
// GMEM-RUN: pa_sync_count grid=8 block=64 args=buf:f32:512:rand buf:i32:512:zero
__global__ void pa_sync_count(const float *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int p = in[i] > 0.0f;
#ifdef __CUDA_ARCH__
  int c = __syncthreads_count(p);
#else
  __shared__ int cnt; if (threadIdx.x == 0) cnt = 0; __syncthreads(); cnt += p; __syncthreads(); int c = cnt; __syncthreads();
#endif
  out[i] = c;
}

// Attacks: __syncthreads_or after a data-dependent early return of some threads.
// GMEM-EXPECT: pa_sync_or_after_return conditional
// GMEM-RUN: pa_sync_or_after_return grid=8 block=64 args=buf:f32:512:rand buf:i32:512:zero
__global__ void pa_sync_or_after_return(const float *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x >= 32) { out[i] = 7; return; }
  int p = in[i] > 0.5f;
#ifdef __CUDA_ARCH__
  int any = __syncthreads_or(p);
#else
  int any = p;
#endif
  out[i] = any;
}

// Attacks: mbarrier init/arrive/wait in shared memory around a staged copy.
// GMEM-EXPECT: pa_mbarrier_stage conditional
// GMEM-RUN: pa_mbarrier_stage grid=8 block=64 args=buf:f32:512:rand buf:f32:512:zero
__global__ void pa_mbarrier_stage(const float *in, float *out) {
  __shared__ float s[64];
#ifdef __CUDA_ARCH__
  __shared__ unsigned long long bar;
  unsigned ba = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" :: "r"(ba), "r"(blockDim.x) : "memory");
  __syncthreads();
#endif
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = in[i];
#ifdef __CUDA_ARCH__
  unsigned long long tok;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(tok) : "r"(ba) : "memory");
  unsigned done = 0;
  while (!done)
    asm volatile("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                 : "=r"(done) : "r"(ba), "l"(tok) : "memory");
#else
  __syncthreads();
#endif
  out[i] = s[(threadIdx.x + 1) & 63];
}

// Attacks: __nanosleep spin on a flag the kernel never writes (reads only; waits zero trips).
// GMEM-EXPECT: pa_nanosleep_flag conditional
// GMEM-RUN: pa_nanosleep_flag grid=4 block=32 args=buf:i32:1:const:1 buf:f32:128:rand buf:f32:128:zero
__global__ void pa_nanosleep_flag(const volatile int *flag, const float *in, float *out) {
  while (*flag == 0) {
#ifdef __CUDA_ARCH__
    __nanosleep(100);
#endif
  }
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * 4.0f;
}

// (A kernel staging through extern __shared__ was dropped: RUN lines
// cannot give dynamic shared memory, and the launch without it faulted on
// the H200, session 51; adversarial49's dyn_smem_guarded covers the shape.)

// Attacks: blockIdx.x read inside a __noinline__ device function that picks the output row.
__device__ __noinline__ int pa_row_of() { return blockIdx.x * 2 + 1; }
// GMEM-EXPECT: pa_noinline_bid conditional
// GMEM-RUN: pa_noinline_bid grid=4 block=32 args=buf:f32:256:rand buf:f32:512:zero
__global__ void pa_noinline_bid(const float *in, float *out) {
  int r = pa_row_of();
  out[r * 32 + threadIdx.x] = in[blockIdx.x * 32 + threadIdx.x];
}

// Attacks: %ctaid read through asm in a __noinline__ device function (asm spelled %%ctaid).
__device__ __noinline__ unsigned pa_asm_cta() {
  unsigned c = 0;
#ifdef __CUDA_ARCH__
  asm("mov.u32 %0, %%ctaid.x;" : "=r"(c));
#else
  c = blockIdx.x;
#endif
  return c;
}
// GMEM-EXPECT: pa_asm_cta_fn conditional
// GMEM-RUN: pa_asm_cta_fn grid=4 block=32 args=buf:f32:128:rand buf:f32:128:zero
__global__ void pa_asm_cta_fn(const float *in, float *out) {
  unsigned c = pa_asm_cta();
  out[c * 32 + threadIdx.x] = in[c * 32 + threadIdx.x] + 3.0f;
}

// Attacks: trap in asm on bad input (ends the launch; harmless for clones).
// GMEM-EXPECT: pa_asm_trap conditional
// GMEM-RUN: pa_asm_trap grid=4 block=32 args=buf:f32:128:rand buf:f32:128:zero
__global__ void pa_asm_trap(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
#ifdef __CUDA_ARCH__
  if (v != v) asm volatile("trap;");
#endif
  out[i] = v * v;
}

// Adversarial corpus (session 53b): fixed operands of in-place maps read
// from memory the launch never writes ("StableLoads", KernelAnalysis.cpp;
// RunInvariant, IdempotentUpdates.cpp). Each kernel reads a "mask" or
// bound that the launch does write, by a path the collector might miss, or
// that aliases the updated array at a launch. Expectations give the
// author's judgement of the true class.

#include <cstring>

// The mask is written by a memcpy (a struct copy) in thread 0.
struct Quad { int v[4]; };
// GMEM-EXPECT: st_mask_memcpy non-idempotent
// GMEM-RUN: st_mask_memcpy grid=1 block=256 args=buf:f32:256:rand buf:i32:256:zero buf:i32:4:const:1 i32:256
__global__ void st_mask_memcpy(float *x, int *mask, const int *src, int n) {
  int i = threadIdx.x;
  if (i < 4 && mask[i])
    x[i] = -5.f;
  __syncthreads();
  if (i == 0)
    *(Quad *)mask = *(const Quad *)src;
  if (i >= 4 && i < n)
    x[i] = mask[i] ? -5.f : x[i];
}

// memset of the mask after the update, by thread 0 after a barrier.
// GMEM-EXPECT: st_mask_memset non-idempotent
// GMEM-RUN: st_mask_memset grid=1 block=256 args=buf:f32:256:rand buf:u8:256:zero i32:256
__global__ void st_mask_memset(float *x, unsigned char *mask, int n) {
  int i = threadIdx.x;
  if (i < n)
    x[i] = mask[i] ? 3.f : x[i];
  __syncthreads();
  if (i == 0)
    memset(mask, 1, n);
}

// The mask is written by inline PTX through a pointer operand.
// GMEM-EXPECT: st_mask_asm_store non-idempotent
// GMEM-RUN: st_mask_asm_store grid=4 block=256 args=buf:f32:1024:rand buf:i32:1024:zero i32:1024
__global__ void st_mask_asm_store(float *x, int *mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = mask[i] ? 1.f : x[i] + 0.f * x[i];
    x[i] = mask[i] ? 2.f : x[i];
    asm volatile("st.global.u32 [%0], %1;" ::"l"(mask + i), "r"(1) : "memory");
  }
}

// The mask is written by an exchange whose old value nothing uses.
// GMEM-EXPECT: st_mask_xchg non-idempotent
// GMEM-RUN: st_mask_xchg grid=4 block=256 args=buf:f32:1024:rand buf:i32:1024:zero i32:1024
__global__ void st_mask_xchg(float *x, int *mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = mask[i] ? 2.f : x[i];
    atomicExch(&mask[i], 1);
  }
}

// The mask is set by atomicOr (an idempotent combine).
// GMEM-EXPECT: st_mask_atomic_or non-idempotent
// GMEM-RUN: st_mask_atomic_or grid=4 block=256 args=buf:f32:1024:rand buf:i32:1024:zero i32:1024
__global__ void st_mask_atomic_or(float *x, int *mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = mask[i] ? 2.f : x[i];
    atomicOr(&mask[i], 1);
  }
}

// The mask is touched only by atomics that change nothing (or 0, and ~0):
// really never written. Idempotent apart from x/mask aliasing.
// GMEM-EXPECT: st_mask_noop_atomics conditional
// GMEM-RUN: st_mask_noop_atomics grid=4 block=256 args=buf:f32:1024:rand buf:i32:1024:randint:0:2 i32:1024
__global__ void st_mask_noop_atomics(float *x, int *mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicOr(&mask[i], 0);
    x[i] = mask[i] ? 2.f : x[i];
    atomicAnd(&mask[i], ~0);
  }
}

// The mask written through a pointer the kernel loads from memory.
// GMEM-EXPECT: st_mask_via_loaded_ptr non-idempotent
// GMEM-RUN: st_mask_via_loaded_ptr grid=4 block=256 args=buf:f32:1024:rand buf:i32:1024:zero buf:u64:1:zero i32:1024
__global__ void st_mask_via_loaded_ptr(float *x, int *mask, int **slot, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0)
    *slot = mask;
  __syncthreads();
  if (i < n) {
    x[i] = mask[i] ? 2.f : x[i];
    int *m = *(int *volatile *)slot;
    if (m)
      m[i] = 1;
  }
}

// The mask written through its address turned into an integer and back.
// GMEM-EXPECT: st_mask_int_roundtrip non-idempotent
// GMEM-RUN: st_mask_int_roundtrip grid=4 block=256 args=buf:f32:1024:rand buf:i32:1024:zero u64:0 i32:1024
__global__ void st_mask_int_roundtrip(float *x, int *mask, unsigned long long salt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = mask[i] ? 2.f : x[i];
    unsigned long long a = (unsigned long long)(mask + i) ^ salt;
    *(int *)(a ^ salt) = 1;
  }
}

// The mask is a __device__ global the kernel writes.
__device__ int g_mask[1024];
// GMEM-EXPECT: st_global_mask_written non-idempotent
// GMEM-RUN: st_global_mask_written grid=4 block=256 args=buf:f32:1024:rand i32:1024
__global__ void st_global_mask_written(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = g_mask[i] ? 2.f : x[i];
    g_mask[i] = 1;
  }
}

// A __device__ global never written by the kernel: a stable mask.
__device__ int g_mask_ro[1024];
// GMEM-EXPECT: st_global_mask_ro conditional
// GMEM-RUN: st_global_mask_ro grid=4 block=256 args=buf:f32:1024:rand i32:1024
__global__ void st_global_mask_ro(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = g_mask_ro[i] ? 2.f : x[i];
}

// The mask is x's own bytes one element on (ptr:0+4): the update writes
// the next thread's "mask". The launch check must refuse it.
// GMEM-EXPECT: st_mask_alias_shift conditional
// GMEM-RUN: st_mask_alias_shift grid=4 block=256 args=buf:f32:1025:const:1 buf:f32:1024:zero i32:1024
// GMEM-RUN: st_mask_alias_shift grid=4 block=256 args=buf:f32:1025:const:1 ptr:0+4 i32:1024
__global__ void st_mask_alias_shift(float *x, const float *mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = mask[i] != 0.f ? 0.f : x[i];
}

// The mask read at an index taken from a stable index array; the mask
// aliases x at the launch.
// GMEM-EXPECT: st_mask_gather_alias conditional
// GMEM-RUN: st_mask_gather_alias grid=4 block=256 args=buf:i32:1024:randint:0:3 ptr:0+0 buf:i32:1024:randint:0:1024 i32:1024
// GMEM-RUN: st_mask_gather_alias grid=4 block=256 args=buf:i32:1024:randint:0:3 buf:i32:1024:randint:0:2 buf:i32:1024:randint:0:1024 i32:1024
__global__ void st_mask_gather_alias(int *x, const int *mask, const int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = mask[idx[i]] ? 7 : x[i];
}

// Clamp with tensor bounds where the upper bound tensor is x itself.
// GMEM-EXPECT: st_clamp_self_bound conditional
// GMEM-RUN: st_clamp_self_bound grid=4 block=256 args=buf:i32:1025:randint:0:100 buf:i32:1024:randint:0:50 ptr:0+4 i32:1024
__global__ void st_clamp_self_bound(int *x, const int *lo, const int *hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = min(max(x[i], lo[i]), hi[i]);
}

// The bound is read with a volatile load: not a simple load (imprecise
// only). Idempotent apart from aliasing.
// GMEM-EXPECT: st_volatile_bound conditional
// GMEM-RUN: st_volatile_bound grid=4 block=256 args=buf:i32:1024:randint:0:100 buf:i32:1024:randint:0:100 i32:1024
__global__ void st_volatile_bound(int *x, const int *hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = min(x[i], ((const volatile int *)hi)[i]);
}

// The bound through __ldg. Idempotent apart from aliasing.
// GMEM-EXPECT: st_ldg_bound conditional
// GMEM-RUN: st_ldg_bound grid=4 block=256 args=buf:i32:1024:randint:0:100 buf:i32:1024:randint:0:100 i32:1024
__global__ void st_ldg_bound(int *x, const int *hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = min(x[i], __ldg(&hi[i]));
}

// The bound staged through shared memory by another thread: shared loads
// are not stable loads (another thread wrote them). True class: idempotent
// apart from aliasing, the analysis may be imprecise.
// GMEM-EXPECT: st_shared_bound conditional
// GMEM-RUN: st_shared_bound grid=4 block=256 args=buf:i32:1024:randint:0:100 buf:i32:1024:randint:0:100 i32:1024
__global__ void st_shared_bound(int *x, const int *hi, int n) {
  __shared__ int s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? hi[i] : 0;
  __syncthreads();
  if (i < n)
    x[i] = min(x[i], s[255 - threadIdx.x]);
}

// The bound is another element of x (written by its owner): not fixed.
// GMEM-EXPECT: st_bound_from_x non-idempotent
// GMEM-RUN: st_bound_from_x grid=1 block=256 args=buf:i32:256:randint:0:100 i32:256
__global__ void st_bound_from_x(int *x, int n) {
  int i = threadIdx.x;
  if (i < n)
    x[i] = min(x[i], x[(i + 1) % n] - 1);
}

// The bound is read at an index the value decides (a table by value).
// GMEM-EXPECT: st_bound_by_value non-idempotent
// GMEM-RUN: st_bound_by_value grid=4 block=256 args=buf:i32:1024:randint:0:256 buf:i32:256:randint:0:256 i32:1024
__global__ void st_bound_by_value(int *x, const int *tab, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = min(x[i], tab[x[i] & 255]);
}

// A bound behind two stable loads (hi[idx[i]]): fixed. Idempotent apart
// from aliasing.
// GMEM-EXPECT: st_bound_two_level conditional
// GMEM-RUN: st_bound_two_level grid=4 block=256 args=buf:i32:1024:randint:0:100 buf:i32:1024:randint:0:100 buf:i32:1024:randint:0:1024 i32:1024
__global__ void st_bound_two_level(int *x, const int *hi, const int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = min(x[i], hi[idx[i]]);
}

// A bound read from memory x's update writes at another place, within the
// same parameter (hi is x + n): not stable.
// GMEM-EXPECT: st_bound_same_param non-idempotent
// GMEM-RUN: st_bound_same_param grid=1 block=256 args=buf:i32:512:randint:0:100 i32:256
__global__ void st_bound_same_param(int *x, int n) {
  int i = threadIdx.x;
  if (i < n) {
    x[i] = min(x[i], x[n + i]);
    x[n + ((i + 1) % n)] = x[i] - 1;
  }
}

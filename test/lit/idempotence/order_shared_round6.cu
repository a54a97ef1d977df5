// Shared memory whose contents the threads' order decides (an adversarial
// round, session 52), each stored to global memory:
// - wrapping increments with a limit per thread (two limits are two
//   functions, which do not commute), and inc/dec in inline asm;
// - one add at two widths on one word (the 32-bit add drops the carry);
// - the word read back by a memcpy (a struct copy) or by inline asm
//   `ld.shared` at an integer address, not by a load;
// - a poll whose loop exits through a switch, or whose cycle is entered in
//   two places (a goto into its middle: no LoopInfo loop).
// One limit for every increment, one width for every add, and a poll whose
// count goes nowhere stay idempotent.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK-LABEL: kernel inc_limits(unsigned int*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void inc_limits(unsigned *out) {
  __shared__ unsigned s;
  if (threadIdx.x == 0)
    s = 0;
  __syncthreads();
  atomicInc(&s, threadIdx.x * 3u);
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = s;
}

// CHECK-LABEL: kernel inc_one_limit(unsigned int*)
// CHECK:         class:  idempotent
__global__ void inc_one_limit(unsigned *out) {
  __shared__ unsigned s;
  if (threadIdx.x == 0)
    s = 0;
  __syncthreads();
  atomicInc(&s, 7u);
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = s;
}

// CHECK-LABEL: kernel inc_asm(unsigned int*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void inc_asm(unsigned *out) {
  __shared__ unsigned s;
  if (threadIdx.x == 0)
    s = 0;
  __syncthreads();
  unsigned addr = (unsigned)__cvta_generic_to_shared(&s), old;
  asm volatile("atom.shared.inc.u32 %0, [%1], %2;" : "=r"(old) : "r"(addr), "r"(threadIdx.x)
               : "memory");
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = s;
}

// CHECK-LABEL: kernel add_widths(unsigned long long*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void add_widths(unsigned long long *out) {
  __shared__ unsigned long long s;
  if (threadIdx.x == 0)
    s = 0xffffffffull;
  __syncthreads();
  if (threadIdx.x < 16)
    atomicAdd(&s, 1ull);
  else
    atomicAdd((unsigned *)&s, 1u);
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = s;
}

// CHECK-LABEL: kernel add_one_width(unsigned long long*)
// CHECK:         class:  idempotent
__global__ void add_one_width(unsigned long long *out) {
  __shared__ unsigned long long s;
  if (threadIdx.x == 0)
    s = 0xffffffffull;
  __syncthreads();
  atomicAdd(&s, 1ull + (threadIdx.x & 1));
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = s;
}

struct Blob {
  unsigned w[32];
};
// CHECK-LABEL: kernel exch_memcpy(Blob*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void exch_memcpy(Blob *out) {
  __shared__ Blob s;
  s.w[threadIdx.x] = 0;
  __syncthreads();
  atomicExch(&s.w[threadIdx.x & 3], threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0)
    *out = s;
}

// CHECK-LABEL: kernel exch_asm_load(unsigned int*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void exch_asm_load(unsigned *out) {
  __shared__ unsigned s;
  if (threadIdx.x == 0)
    s = 0;
  __syncthreads();
  atomicExch(&s, threadIdx.x + 1u);
  __syncthreads();
  unsigned v;
  asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(&s)));
  if (threadIdx.x == 0)
    out[0] = v;
}

// CHECK-LABEL: kernel poll_switch(int*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void poll_switch(int *out) {
  __shared__ int flag;
  volatile int *vf = &flag;
  if (threadIdx.x == 0)
    *vf = 0;
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

// CHECK-LABEL: kernel poll_irreducible(int*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void poll_irreducible(int *out) {
  __shared__ int flag;
  volatile int *vf = &flag;
  if (threadIdx.x == 0)
    *vf = 0;
  __syncthreads();
  int n = 0;
  if (threadIdx.x == 31) {
    *vf = 3;
    goto done;
  }
  if (threadIdx.x & 1)
    goto second;
first:
  n += 1;
  if (*vf != 0)
    goto done;
second:
  n += 2;
  if (n < 3000)
    goto first;
done:
  out[threadIdx.x] = n;
}

// CHECK-LABEL: kernel poll_switch_unused(int*)
// CHECK:         class:  idempotent
__global__ void poll_switch_unused(int *out) {
  __shared__ int flag;
  volatile int *vf = &flag;
  if (threadIdx.x == 0)
    *vf = 0;
  __syncthreads();
  if (threadIdx.x == 31) {
    *vf = 3;
  } else {
    for (int n = 0; n < 1000; n++) {
      switch (*vf) {
      case 0: continue;
      default: break;
      }
      break;
    }
  }
  out[threadIdx.x] = 5;
}

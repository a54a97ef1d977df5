// Output that the threads' timing decides, beyond clocks and atomics'
// results (an adversarial round, session 49):
// - a float reduction written as inline asm `red.shared.add.f32` (only
//   `atom` text was recognised);
// - atomics of different operations on shared memory (or with and, add with
//   max): each commutes with itself, not with the other;
// - a loop that polls a volatile shared flag another warp sets: how many
//   trips it ran, stored, differs from run to run.
// A single commuting operation (integer add) and a poll whose trip count
// goes nowhere stay as they were.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK-LABEL: kernel red_asm_float(float const*, float*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void red_asm_float(const float *in, float *out) {
  __shared__ float s;
  if (threadIdx.x == 0)
    s = 0.f;
  __syncthreads();
  float v = in[threadIdx.x] * (1.0f + (float)(threadIdx.x & 7) * 1e4f);
  unsigned addr = (unsigned)__cvta_generic_to_shared(&s);
  asm volatile("red.shared.add.f32 [%0], %1;" ::"r"(addr), "f"(v) : "memory");
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = s;
}

// CHECK-LABEL: kernel or_and_mix(unsigned int*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void or_and_mix(unsigned *out) {
  __shared__ unsigned w;
  if (threadIdx.x == 0)
    w = 0;
  __syncthreads();
  if (threadIdx.x & 1)
    atomicOr(&w, 1u << (threadIdx.x & 31));
  else
    atomicAnd(&w, ~(1u << ((threadIdx.x + 1) & 31)));
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = w;
}

// CHECK-LABEL: kernel add_only(int const*, int*)
// CHECK:         class:  conditional
__global__ void add_only(const int *in, int *out) {
  __shared__ int s;
  if (threadIdx.x == 0)
    s = 0;
  __syncthreads();
  atomicAdd(&s, in[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = s;
}

// CHECK-LABEL: kernel poll_count(int*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run {{.*}}how long a loop polled memory
__global__ void poll_count(int *out) {
  __shared__ volatile int flag;
  if (threadIdx.x == 0)
    flag = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    __nanosleep(10000);
    flag = 1;
  }
  if (threadIdx.x == 32) {
    int n = 0;
    while (flag == 0)
      ++n;
    out[0] = n;
  }
}

// The same wait, its trip count unused: what it stores does not depend on it.
// CHECK-LABEL: kernel poll_then_store(int*)
// CHECK:         class:  idempotent
__global__ void poll_then_store(int *out) {
  __shared__ volatile int flag;
  if (threadIdx.x == 0)
    flag = 0;
  __syncthreads();
  if (threadIdx.x == 0)
    flag = 1;
  if (threadIdx.x == 32) {
    while (flag == 0)
      ;
    out[0] = 7;
  }
}

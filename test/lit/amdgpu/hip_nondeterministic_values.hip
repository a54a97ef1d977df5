// AMDGPU's time and hardware-id reads decide values too: a kernel that
// writes them is never idempotent (NondeterministicOutput.cpp), and so do
// the tickets of ds_append / ds_consume.
// RUN: %gmem-analyze %s | FileCheck %s
#include <hip/hip_runtime.h>

// CHECK-LABEL: kernel memtime_stamp(unsigned long long*)  [amdgpu]
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void memtime_stamp(unsigned long long *out) {
  out[threadIdx.x] = __builtin_amdgcn_s_memtime();
}

// CHECK-LABEL: kernel realtime_stamp(unsigned long long*)  [amdgpu]
// CHECK:         class:  non-idempotent
__global__ void realtime_stamp(unsigned long long *out) {
  out[threadIdx.x] = __builtin_amdgcn_s_memrealtime();
}

// CHECK-LABEL: kernel wall_clock_wait(float*, float const*, unsigned long long)  [amdgpu]
// CHECK:         class:  conditional
__global__ void wall_clock_wait(float *out, const float *in, unsigned long long d) {
  unsigned long long t0 = wall_clock64();
  while (wall_clock64() - t0 < d) {
  }
  out[threadIdx.x] = in[threadIdx.x];
}

// ds_append / ds_consume hand each wave the counter's value in the order
// the waves arrive (two waves of a 128-thread block: 0 to the first, 64 to
// the second): an order-dependent ticket, as a shared atomicAdd's is.
// CHECK-LABEL: kernel ds_append_ticket(int*)  [amdgpu]
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void ds_append_ticket(int *out) {
  __shared__ int ctr;
  if (threadIdx.x == 0)
    ctr = 0;
  __syncthreads();
  int t = __builtin_amdgcn_ds_append((__attribute__((address_space(3))) int *)&ctr);
  out[blockIdx.x * blockDim.x + threadIdx.x] = t;
}

// CHECK-LABEL: kernel ds_consume_ticket(int*)  [amdgpu]
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void ds_consume_ticket(int *out) {
  __shared__ int ctr;
  if (threadIdx.x == 0)
    ctr = 1000;
  __syncthreads();
  int t = __builtin_amdgcn_ds_consume((__attribute__((address_space(3))) int *)&ctr);
  out[blockIdx.x * blockDim.x + threadIdx.x] = t;
}

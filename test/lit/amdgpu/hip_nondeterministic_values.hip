// AMDGPU's time and hardware-id reads decide values too: a kernel that
// writes them is never idempotent (NondeterministicOutput.cpp).
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

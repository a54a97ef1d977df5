// Waits on another workgroup in HIP (AMDGPU), as the NVPTX side sees them
// (CheckpointSpinWait.cpp; found by a blind run over HIP code in session
// 46): a hand-off in a lock's shape and a flag poll get no clone; a mutex
// whose every release follows its acquire keeps one (its kernel is not
// idempotent, so its launches stop only between workgroups).
// RUN: %gmem-analyze %s | FileCheck %s
#include <hip/hip_runtime.h>

// The host leaves *lock == 1; workgroup 0 frees it without taking it, the
// others wait for that.
// CHECK-LABEL: kernel lock_handoff(int*, float*, float const*)  [amdgpu]
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write
__global__ void lock_handoff(int *lock, float *acc, const float *x) {
  if (threadIdx.x == 0) {
    if (blockIdx.x == 0) {
      *acc = x[0];
      __threadfence();
      atomicExch(lock, 0);
      return;
    }
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    *acc += x[blockIdx.x];
    __threadfence();
    atomicExch(lock, 0);
  }
}

// CHECK-LABEL: kernel flag_poll(int*, float*)  [amdgpu]
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write
__global__ void flag_poll(int *flag, float *out) {
  if (threadIdx.x == 0 && blockIdx.x > 0)
    while (atomicAdd(&flag[blockIdx.x - 1], 0) == 0) {
    }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
  if (threadIdx.x == 0) {
    __threadfence();
    atomicExch(&flag[blockIdx.x], 1);
  }
}

// CHECK-LABEL: kernel locked_sum(int*, float*, float const*)  [amdgpu]
// CHECK:         class:  non-idempotent
// CHECK:         preempt: in loops
__global__ void locked_sum(int *lock, float *sum, const float *x) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    *sum += x[blockIdx.x];
    __threadfence();
    atomicExch(lock, 0);
  }
}

// s_sleep and friends touch no memory (LLVM 19 gives them no memory
// attribute): a copy that sleeps stays conditional, not unknown...
// CHECK-LABEL: kernel copy_sleep(float const*, float*, int)  [amdgpu]
// CHECK:         class:  conditional
// CHECK-NOT:     unknown memory
// CHECK:         preempt:
__global__ void copy_sleep(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __builtin_amdgcn_s_sleep(1);
  __builtin_amdgcn_s_setprio(1);
  if (i < n)
    out[i] = in[i];
}

// ... and a plain load polled with an s_sleep backoff is still a wait.
// CHECK-LABEL: kernel sleep_poll(int*, float*)  [amdgpu]
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write
__global__ void sleep_poll(int *flag, float *out) {
  if (threadIdx.x == 0 && blockIdx.x > 0)
    while (flag[blockIdx.x - 1] == 0)
      __builtin_amdgcn_s_sleep(2);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
  if (threadIdx.x == 0) {
    __threadfence();
    flag[blockIdx.x] = 1;
  }
}

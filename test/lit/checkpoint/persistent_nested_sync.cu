// A persistent clone keeps the threads that returned early waiting at the
// end of the virtual CTA instead of exiting, so no barrier or warp
// collective may lie where a thread-dependent branch decides whether a
// thread gets there. That region is every block between the branch and its
// post-dominator, not only the blocks that post-dominate one of its
// successors: a barrier under a uniform `if` after an early return was
// missed, and its clone was persistent (the returned threads would meet the
// others' __syncthreads at the end-of-CTA barrier). Now refused, as the
// unnested form always was.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK-LABEL: kernel ret_then_uniform_bar(
// CHECK:         preempt: {{.*}}not persistent: a barrier or warp collective depends on a thread-dependent branch or an early return
__global__ void ret_then_uniform_bar(float *a, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  a[i] *= 2.f;
  if (flag) {
    __syncthreads();
    a[i] += 1.f;
  }
}

// A shuffle nested the same way after a return that lanes of one warp may
// take differently.
// CHECK-LABEL: kernel ret_then_uniform_shfl(
// CHECK:         preempt: {{.*}}not persistent: a warp collective depends on a branch that lanes of one warp may take differently
__global__ void ret_then_uniform_shfl(float *a, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = a[i];
  if (flag)
    v += __shfl_down_sync(0xffffffffu, v, 1);
  a[i] = v;
}

// Deeper: a loop under the uniform branch holds the barrier.
// CHECK-LABEL: kernel ret_then_loop_bar(
// CHECK:         preempt: {{.*}}not persistent: a barrier or warp collective depends on a thread-dependent branch or an early return
__global__ void ret_then_loop_bar(float *a, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (steps > 0)
    for (int s = 0; s < steps; ++s) {
      a[i] += 1.f;
      __syncthreads();
    }
}

// The same nesting under a warp-uniform return (whole warps leave alike)
// stays persistent, given whole-warp rows.
// CHECK-LABEL: kernel warp_ret_then_uniform_shfl(
// CHECK:         preempt: {{.*}}persistent forms: full{{.*}}persistent only where blockDim.x is a multiple of 32
__global__ void warp_ret_then_uniform_shfl(float *a, int warps, int flag) {
  int w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  if (w >= warps)
    return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i];
  if (flag)
    v += __shfl_down_sync(0xffffffffu, v, 1);
  a[i] = v;
}

// A barrier after a branch that only skips work (no return) is reached by
// every thread: persistent.
// CHECK-LABEL: kernel skip_then_bar(
// CHECK:         preempt: {{.*}}persistent forms: full
__global__ void skip_then_bar(float *a, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] *= 2.f;
  if (flag) {
    __syncthreads();
    if (i < n)
      a[i] += 1.f;
  }
}

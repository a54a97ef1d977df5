// Waits on another CTA as CUDA source writes them (CheckpointSpinWait.cpp):
// each gets no clone, since a stop at CTA entry could leave a started CTA
// spinning for one that left. A producer loop of the same shape that waits
// on nothing keeps its clone.
// RUN: %gmem-analyze %s | FileCheck %s

// Thread 0 polls the previous tile's flag into a __shared__ variable, which
// the CTA tests after a barrier: the exit test reads shared memory (through
// a generic pointer, as clang emits it), but what it waits for is global.
// CHECK-LABEL: kernel lookback_shared_relay(
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write
__global__ void lookback_shared_relay(const int *in, int *out, volatile int *flags) {
  __shared__ int ready;
  int t = blockIdx.x;
  do {
    if (threadIdx.x == 0)
      ready = t == 0 ? 1 : flags[t - 1];
    __syncthreads();
  } while (ready == 0);
  out[t * blockDim.x + threadIdx.x] = in[t * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    flags[t] = 1;
  }
}

// A warp polls 32 predecessors' statuses and leaves when none is invalid.
// CHECK-LABEL: kernel lookback_any_sync(
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write
__global__ void lookback_any_sync(const int *in, int *out, volatile int *status) {
  int t = blockIdx.x;
  if (threadIdx.x < 32 && t > 0) {
    int s;
    do {
      s = status[t - 1 - (threadIdx.x % t)];
    } while (__any_sync(0xffffffffu, s == 0));
  }
  __syncthreads();
  out[t * blockDim.x + threadIdx.x] = in[t * blockDim.x + threadIdx.x];
  if (threadIdx.x == 0)
    status[t] = 1;
}

// The same shapes over the CTA's own data: a shared value relayed by thread
// 0 and a vote, without a load that another CTA's write could change.
// CHECK-LABEL: kernel converge_in_cta(
// CHECK:         preempt: in loops
__global__ void converge_in_cta(const float *in, float *out, int n) {
  __shared__ float err;
  float x = in[blockIdx.x * blockDim.x + threadIdx.x];
  int it = 0;
  do {
    x = 0.5f * (x + 2.0f / x);
    if (threadIdx.x == 0)
      err = fabsf(x * x - 2.0f);
    __syncthreads();
  } while (err > 1e-6f && ++it < n && __any_sync(0xffffffffu, x > 0.f));
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// The wait decides the loop's progress, not its exit test directly: the
// index only moves on once the element before it is published (the shape of
// a tree summarization that waits for its children), so the exit test
// `i < n` depends on a phi that a branch on the volatile load chooses.
// CHECK-LABEL: kernel publish_in_order(
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write
__global__ void publish_in_order(volatile int *done, float *val, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  while (i < n) {
    if (i == 0 || done[i - 1]) {
      val[i] += 1.0f;
      __threadfence();
      done[i] = 1;
      i += gridDim.x * blockDim.x;
    }
  }
}

// A retry flag set under a branch on a neighbour's volatile state, the loop
// left on a vote over it (a colouring that waits for a neighbour in another
// CTA to settle).
// CHECK-LABEL: kernel retry_vote(
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write
__global__ void retry_vote(volatile int *state, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool retry;
  do {
    retry = false;
    if (i < n) {
      int s = state[(i + 1) % n];
      if (s < 0)
        retry = true;
      else
        out[i] = s;
    }
  } while (__any_sync(0xffffffffu, retry));
}

// A branch on a volatile load that only decides what the loop counts, not
// whether or how it goes on: a grid-stride count of published flags keeps
// its clone.
// CHECK-LABEL: kernel count_published(
// CHECK:         preempt: in loops
__global__ void count_published(volatile const int *flag, int *count, int n) {
  int c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    if (flag[i])
      ++c;
  atomicAdd(count, c);
}

// Adversarial corpus (session 54): accesses through a pointer chosen
// between two parameters (a select or phi web: AccessCollector's
// recordSharedOffset gives one access per parameter, each with the offset
// from the chosen pointer). Commit 6ada7cd made samePlainBytes
// (IdempotentUpdates.cpp) take equal offsets for the same bytes, so that
// the alias pair rule could match a load of x with a store of out. For a
// load through `p = c ? y : x` and a store through `q = c ? x : y` the
// offsets from "x" are equal while the thread reads one buffer and writes
// the other: the single-object rule now calls the pair an in-place update
// of x (and of y). The session-53c build called these kernels
// non-idempotent. Expectations: the author's view.

// Two threads per element: thread 2j copies relu(x[j]) into y[j], thread
// 2j + 1 copies relu(y[j]) into x[j]; a barrier between the loads and the
// stores makes it a swap in every schedule: run again, it swaps back.
// GMEM-EXPECT: sw_swap_bar non-idempotent
// GMEM-RUN: sw_swap_bar grid=1 block=256 args=buf:f32:128:rand buf:f32:128:rand
// GMEM-RUN: sw_swap_bar grid=2 block=256 args=buf:f32:256:rand buf:f32:256:rand
__global__ void sw_swap_bar(float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i >> 1;
  float *p = (i & 1) ? y : x;
  float *q = (i & 1) ? x : y;
  float v = p[j];
  __syncthreads();
  q[j] = fmaxf(v, 0.f);
}

// No barrier: a converged warp loads both, then stores both (a swap).
// GMEM-EXPECT: sw_swap_warp non-idempotent
// GMEM-RUN: sw_swap_warp grid=2 block=256 args=buf:f32:256:rand buf:f32:256:rand i32:512
__global__ void sw_swap_warp(float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i >> 1;
  float *p = (i & 1) ? y : x;
  float *q = (i & 1) ? x : y;
  if (i < n)
    q[j] = fmaxf(p[j], 0.f);
}

// The same swap with an integer mask (and-chain) as the map.
// GMEM-EXPECT: sw_swap_mask non-idempotent
// GMEM-RUN: sw_swap_mask grid=1 block=256 args=buf:i32:128:randint:0:100 buf:i32:128:randint:0:100
__global__ void sw_swap_mask(int *x, int *y) {
  int i = threadIdx.x;
  int j = i >> 1;
  int *p = (i & 1) ? y : x;
  int *q = (i & 1) ? x : y;
  int v = p[j];
  __syncthreads();
  q[j] = v & 0x7f;
}

// fabsf as the map; direction chosen by a stable table per thread.
// GMEM-EXPECT: sw_swap_table non-idempotent
// GMEM-RUN: sw_swap_table grid=1 block=256 args=buf:f32:128:rand buf:f32:128:rand buf:i32:256:randint:0:2
__global__ void sw_swap_table(float *x, float *y, const int *dir) {
  int i = threadIdx.x;
  int j = i >> 1;
  float *p = dir[i] ? y : x;
  float *q = dir[i] ? x : y;
  float v = p[j];
  __syncthreads();
  q[j] = fabsf(v);
}

// The plain copy (the loaded value itself is the map).
// GMEM-EXPECT: sw_swap_copy non-idempotent
// GMEM-RUN: sw_swap_copy grid=1 block=256 args=buf:i32:128:iota buf:i32:128:zero
__global__ void sw_swap_copy(int *x, int *y) {
  int i = threadIdx.x;
  int j = i >> 1;
  int *p = (i & 1) ? y : x;
  int *q = (i & 1) ? x : y;
  int v = p[j];
  __syncthreads();
  q[j] = v;
}

// One thread per element, direction by a launch scalar: out of place at
// every launch (idempotent while x and y are apart). Control.
// GMEM-EXPECT: sw_dir_arg conditional
// GMEM-RUN: sw_dir_arg grid=2 block=256 args=buf:f32:512:rand buf:f32:512:rand i32:1 i32:512
// GMEM-RUN: sw_dir_arg grid=2 block=256 args=buf:f32:512:rand buf:f32:512:rand i32:0 i32:512
__global__ void sw_dir_arg(float *x, float *y, int c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = c ? y : x;
  float *q = c ? x : y;
  if (i < n)
    q[i] = fmaxf(p[i], 0.f);
}

// One thread per element, direction by parity of the element: out of place
// per element (idempotent while apart). Control.
// GMEM-EXPECT: sw_dir_own conditional
// GMEM-RUN: sw_dir_own grid=2 block=256 args=buf:f32:512:rand buf:f32:512:rand i32:512
__global__ void sw_dir_own(float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = (i & 1) ? y : x;
  float *q = (i & 1) ? x : y;
  if (i < n)
    q[i] = fmaxf(p[i], 0.f);
}

// Ping-pong in a loop (a phi web over the selects): per-thread direction
// as sw_swap_bar, then K rounds, swapping src and dst after each. An odd K
// swaps x and y (run again: swapped back); K = 2 returns each value home
// (idempotent at that launch).
// GMEM-EXPECT: sw_pingpong non-idempotent
// GMEM-RUN: sw_pingpong grid=1 block=256 args=buf:f32:128:rand buf:f32:128:rand i32:1
// GMEM-RUN: sw_pingpong grid=1 block=256 args=buf:f32:128:rand buf:f32:128:rand i32:2
__global__ void sw_pingpong(float *x, float *y, int K) {
  int i = threadIdx.x;
  int j = i >> 1;
  float *src = (i & 1) ? y : x;
  float *dst = (i & 1) ? x : y;
  for (int k = 0; k < K; ++k) {
    float v = src[j];
    __syncthreads();
    dst[j] = fmaxf(v, 0.f);
    __syncthreads();
    float *t = src;
    src = dst;
    dst = t;
  }
}

// Selecting between a parameter and itself plus nothing: in place on x
// whichever way (idempotent). Control.
// GMEM-EXPECT: sw_same_target idempotent
// GMEM-RUN: sw_same_target grid=2 block=256 args=buf:f32:512:rand i32:512
__global__ void sw_same_target(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = (i & 1) ? x : x;
  if (i < n)
    p[i] = fmaxf(p[i], 0.f);
}

// Adversarial corpus (session 54): alias pairs (an out-of-place kernel
// called in place, KernelAnalysis.cpp AliasOk) where several threads share
// one element. The pair rule accepts a (read, write) pair at one offset by
// isIdempotentUpdate, which looks at one thread only: the map it stores is
// idempotent for that thread. When the offset is not injective in the
// thread and the map depends on the thread (a key taken from the geometry
// or from a per-thread table), another thread's map is applied to this
// thread's result in place, and two idempotent maps composed need not be
// idempotent (0 -> 1 by one thread, 1 -> 2 by another). Out of place the
// kernels have no race: the input is fixed, so at most one thread per
// element matches its key and stores. Expectations: the author's view.

// Two threads per element (j = i / 2), keys j and j + 1 (i - j). In place,
// x[j] = j: thread 2j stores j + 1; run again, thread 2j + 1 stores j + 2.
// GMEM-EXPECT: ct_pair_key conditional
// GMEM-RUN: ct_pair_key grid=2 block=256 args=buf:i32:256:iota buf:i32:256:zero i32:512
// GMEM-RUN: ct_pair_key grid=2 block=256 args=buf:i32:256:iota ptr:0+0 i32:512
__global__ void ct_pair_key(const int *x, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i >> 1;
  int key = i - j;
  if (i < n && x[j] == key)
    out[j] = key + 1;
}

// The same with the key from the geometry alone: parity (0 -> 1, 1 -> 2).
// GMEM-EXPECT: ct_parity_key conditional
// GMEM-RUN: ct_parity_key grid=2 block=256 args=buf:i32:256:zero buf:i32:256:zero i32:512
// GMEM-RUN: ct_parity_key grid=2 block=256 args=buf:i32:256:zero ptr:0+0 i32:512
__global__ void ct_parity_key(const int *x, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i / 2] == (i & 1))
    out[i / 2] = (i & 1) + 1;
}

// A warp shares one word; lane l maps l -> l + 1. In place every run moves
// the word on by one (a counter).
// GMEM-EXPECT: ct_warp_word conditional
// GMEM-RUN: ct_warp_word grid=1 block=256 args=buf:i32:8:zero buf:i32:8:zero
// GMEM-RUN: ct_warp_word grid=1 block=256 args=buf:i32:8:zero ptr:0+0
__global__ void ct_warp_word(const int *x, int *out) {
  int lane = threadIdx.x & 31;
  int w = threadIdx.x >> 5;
  if (x[w] == lane)
    out[w] = lane + 1;
}

// Ordered by barriers: odd threads act in phase 0, even threads in phase 1,
// one load and one store (not unrolled); keys as ct_pair_key. In place,
// x[j] = j: phase 1 stores j + 1 (thread 2j); run again, phase 0 stores
// j + 2 (thread 2j + 1). Deterministic in every schedule.
// GMEM-EXPECT: ct_phased conditional
// GMEM-RUN: ct_phased grid=1 block=256 args=buf:i32:128:iota buf:i32:128:zero
// GMEM-RUN: ct_phased grid=1 block=256 args=buf:i32:128:iota ptr:0+0
__global__ void ct_phased(const int *x, int *out) {
  int i = threadIdx.x;
  int j = i >> 1;
#pragma unroll 1
  for (int s = 0; s < 2; ++s) {
    if ((i & 1) != s && x[j] == i - j)
      out[j] = i - j + 1;
    __syncthreads();
  }
}

// A relabelling through per-thread tables (stable loads): all threads share
// out[i % m]; thread i maps from[i] -> to[i]. With m = 1 and to = from + 1
// (iota tables) every run moves the word on by one; with m = n nothing is
// shared.
// GMEM-EXPECT: ct_table_relabel conditional
// GMEM-RUN: ct_table_relabel grid=1 block=64 args=buf:i32:64:iota buf:i32:64:zero buf:i32:65:iota ptr:2+4 i32:64 i32:64
// GMEM-RUN: ct_table_relabel grid=1 block=64 args=buf:i32:64:zero ptr:0+0 buf:i32:65:iota ptr:2+4 i32:64 i32:1
// GMEM-RUN: ct_table_relabel grid=1 block=64 args=buf:i32:64:iota ptr:0+0 buf:i32:65:iota ptr:2+4 i32:64 i32:64
__global__ void ct_table_relabel(const int *x, int *out, const int *from, const int *to, int n,
                                 int m) {
  int i = threadIdx.x;
  if (i < n && m > 0) {
    int j = i % m;
    if (x[j] == from[i])
      out[j] = to[i];
  }
}

// Grid-stride form of ct_pair_key.
// GMEM-EXPECT: ct_gs_pair_key conditional
// GMEM-RUN: ct_gs_pair_key grid=2 block=64 args=buf:i32:512:iota buf:i32:512:zero i32:1024
// GMEM-RUN: ct_gs_pair_key grid=2 block=64 args=buf:i32:512:iota ptr:0+0 i32:1024
__global__ void ct_gs_pair_key(const int *x, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int j = i >> 1;
    int key = i - j;
    if (x[j] == key)
      out[j] = key + 1;
  }
}

// Two-dimensional block: the element is threadIdx.x, the key threadIdx.y
// (warps of different y share an element). Order between warps decides.
// GMEM-EXPECT: ct_2d_key conditional
// GMEM-RUN: ct_2d_key grid=1 block=32,4 args=buf:i32:32:zero buf:i32:32:zero
// GMEM-RUN: ct_2d_key grid=1 block=32,4 args=buf:i32:32:zero ptr:0+0
__global__ void ct_2d_key(const int *x, int *out) {
  int t = threadIdx.x, k = threadIdx.y;
  if (x[t] == k)
    out[t] = k + 1;
}

// Blocks share the element (threadIdx.x); the key is blockIdx.x.
// GMEM-EXPECT: ct_block_key conditional
// GMEM-RUN: ct_block_key grid=4 block=64 args=buf:i32:64:zero buf:i32:64:zero
// GMEM-RUN: ct_block_key grid=4 block=64 args=buf:i32:64:zero ptr:0+0
__global__ void ct_block_key(const int *x, int *out) {
  if (x[threadIdx.x] == (int)blockIdx.x)
    out[threadIdx.x] = blockIdx.x + 1;
}

// Float keys: a per-thread threshold step (x < t -> t) is a floor; two
// floors composed are a floor (idempotent), but an equality key is not.
// GMEM-EXPECT: ct_float_key conditional
// GMEM-RUN: ct_float_key grid=1 block=256 args=buf:f32:128:zero buf:f32:128:zero
// GMEM-RUN: ct_float_key grid=1 block=256 args=buf:f32:128:zero ptr:0+0
__global__ void ct_float_key(const float *x, float *out) {
  int i = threadIdx.x;
  float key = (float)(i & 1);
  if (x[i >> 1] == key)
    out[i >> 1] = key + 1.0f;
}

// Controls: the map is the same for every thread sharing the element, so
// in place it composes with itself (idempotent in place).
// GMEM-EXPECT: ct_same_map conditional
// GMEM-RUN: ct_same_map grid=2 block=256 args=buf:i32:256:randint:0:10 buf:i32:256:zero i32:512
// GMEM-RUN: ct_same_map grid=2 block=256 args=buf:i32:256:randint:0:10 ptr:0+0 i32:512
__global__ void ct_same_map(const int *x, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i >> 1] == 7)
    out[i >> 1] = 9;
}

// GMEM-EXPECT: ct_same_relu conditional
// GMEM-RUN: ct_same_relu grid=2 block=256 args=buf:f32:256:rand buf:f32:256:zero i32:512
// GMEM-RUN: ct_same_relu grid=2 block=256 args=buf:f32:256:rand ptr:0+0 i32:512
__global__ void ct_same_relu(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i >> 1] = fmaxf(x[i >> 1], 0.f);
}

// Control: the key depends on the thread but the element is the thread's
// own (injective): in place idempotent.
// GMEM-EXPECT: ct_own_key conditional
// GMEM-RUN: ct_own_key grid=2 block=256 args=buf:i32:512:iota buf:i32:512:zero i32:512
// GMEM-RUN: ct_own_key grid=2 block=256 args=buf:i32:512:iota ptr:0+0 i32:512
__global__ void ct_own_key(const int *x, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] == i)
    out[i] = i + 1;
}

// The in-place forms of the same maps (one parameter): the single-object
// rule (same isIdempotentUpdate) calls them idempotent.
// GMEM-EXPECT: ct_inplace_pair_key non-idempotent
// GMEM-RUN: ct_inplace_pair_key grid=2 block=256 args=buf:i32:256:iota i32:512
__global__ void ct_inplace_pair_key(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i >> 1;
  int key = i - j;
  if (i < n && x[j] == key)
    x[j] = key + 1;
}

// GMEM-EXPECT: ct_inplace_warp_word non-idempotent
// GMEM-RUN: ct_inplace_warp_word grid=1 block=256 args=buf:i32:8:zero
__global__ void ct_inplace_warp_word(int *x) {
  int lane = threadIdx.x & 31;
  int w = threadIdx.x >> 5;
  if (x[w] == lane)
    x[w] = lane + 1;
}

// GMEM-EXPECT: ct_inplace_table non-idempotent
// GMEM-RUN: ct_inplace_table grid=1 block=64 args=buf:i32:64:zero buf:i32:65:iota ptr:1+4 i32:64 i32:1
__global__ void ct_inplace_table(int *x, const int *from, const int *to, int n, int m) {
  int i = threadIdx.x;
  if (i < n && m > 0) {
    int j = i % m;
    if (x[j] == from[i])
      x[j] = to[i];
  }
}

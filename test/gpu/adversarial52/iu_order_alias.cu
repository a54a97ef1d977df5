// Adversarial round (idempotent updates): accepted updates next to other
// accesses of the same bytes: neighbours, barriers, intervening stores,
// aliasing parameters, loaded indices, pointer phis, escapes.

// Attacks: a neighbour reads the element before the update (barrier-ordered).
// GMEM-EXPECT: oa_nb_before non-idempotent
// GMEM-RUN: oa_nb_before grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero
__global__ void oa_nb_before(float *x, float *out) {
  int i = threadIdx.x;
  out[i] = x[(i + 1) & 31];
  __syncthreads();
  x[i] = fmaxf(x[i], 0.f);
}

// Attacks: a neighbour reads the element after the update (idempotent really).
// GMEM-EXPECT: oa_nb_after idempotent
// GMEM-RUN: oa_nb_after grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero
__global__ void oa_nb_after(float *x, float *out) {
  int i = threadIdx.x;
  x[i] = fmaxf(x[i], 0.f);
  __syncthreads();
  out[i] = x[(i + 1) & 31];
}

// Attacks: the same thread stores a constant between the update's load and store.
// GMEM-EXPECT: oa_between_const non-idempotent
// GMEM-RUN: oa_between_const grid=1 block=32 args=buf:i32:32:randint:-5:5
__global__ void oa_between_const(int *x) {
  int i = threadIdx.x;
  int v = x[i];
  x[i] = 5;
  __syncthreads();
  if (v > 0) x[i] = 0;
}

// Attacks: a store through an aliasing parameter between load and store.
// GMEM-EXPECT: oa_between_alias conditional
// GMEM-RUN: oa_between_alias grid=1 block=32 args=buf:i32:32:randint:-5:5 ptr:0+0
// GMEM-RUN: oa_between_alias grid=1 block=32 args=buf:i32:32:randint:-5:5 buf:i32:32:zero
__global__ void oa_between_alias(int *x, int *y) {
  int i = threadIdx.x;
  int v = x[i];
  y[i] = 5;
  if (v > 0) x[i] = 0;
}

// Attacks: two updates of one element by two threads, barrier-ordered (5->7 then 0->5).
// GMEM-EXPECT: oa_two_threads non-idempotent
// GMEM-RUN: oa_two_threads grid=1 block=32 args=buf:i32:1:zero
__global__ void oa_two_threads(int *x) {
  if (threadIdx.x == 0 && x[0] == 5) x[0] = 7;
  __syncthreads();
  if (threadIdx.x == 1 && x[0] == 0) x[0] = 5;
}

// Attacks: the load before a barrier guards a store after it; another thread's
// replacement runs in between.
// GMEM-EXPECT: oa_stale_guard non-idempotent
// GMEM-RUN: oa_stale_guard grid=1 block=32 args=buf:i32:1:zero
__global__ void oa_stale_guard(int *x) {
  int v = x[0];
  __syncthreads();
  if (threadIdx.x == 1 && x[0] == 0) x[0] = 2;
  __syncthreads();
  if (threadIdx.x == 0 && v == 0) x[0] = 1;
}

// Attacks: update on x, and a plain read of the same buffer through y (aliasing) before it.
// GMEM-EXPECT: oa_alias_read conditional
// GMEM-RUN: oa_alias_read grid=1 block=32 args=buf:f32:32:rand ptr:0+0 buf:f32:32:zero
// GMEM-RUN: oa_alias_read grid=1 block=32 args=buf:f32:32:rand buf:f32:32:rand buf:f32:32:zero
__global__ void oa_alias_read(float *x, const float *y, float *out) {
  int i = threadIdx.x;
  out[i] = y[(i + 3) & 31];
  __syncthreads();
  x[i] = fmaxf(x[i], 0.f);
}

// Attacks: two different updates on two aliasing parameters (max 0 then min -1 -> not a clamp
// when applied as max(min(.)) across threads).
// GMEM-EXPECT: oa_alias_two conditional
// GMEM-RUN: oa_alias_two grid=1 block=32 args=buf:i32:32:randint:0:8 ptr:0+0
// GMEM-RUN: oa_alias_two grid=1 block=32 args=buf:i32:32:randint:0:8 buf:i32:32:randint:0:8
__global__ void oa_alias_two(int *x, int *y) {
  int i = threadIdx.x;
  if (x[i] == 5) x[i] = 7;
  __syncthreads();
  if (y[i] == 0) y[i] = 5;
}

// Attacks: loaded indices with duplicates, one update form (idempotent).
// GMEM-EXPECT: oa_idx_relu conditional
// GMEM-RUN: oa_idx_relu grid=1 block=32 args=buf:f32:16:rand buf:i32:32:randint:0:16
__global__ void oa_idx_relu(float *x, const int *idx) {
  int j = idx[threadIdx.x];
  x[j] = fmaxf(x[j], 0.f);
}

// Attacks: loaded indices, two update forms on possibly equal elements.
// GMEM-EXPECT: oa_idx_two non-idempotent
// GMEM-RUN: oa_idx_two grid=1 block=32 args=buf:i32:8:randint:0:8 buf:i32:32:randint:0:8 buf:i32:32:randint:0:8
__global__ void oa_idx_two(int *x, const int *a, const int *b) {
  int j = a[threadIdx.x];
  if (x[j] == 5) x[j] = 7;
  __syncthreads();
  int k = b[threadIdx.x];
  if (x[k] == 0) x[k] = 5;
}

// Attacks: pointer phi: which buffer to write chosen inside the guarded block.
// GMEM-EXPECT: oa_ptr_phi non-idempotent
// GMEM-RUN: oa_ptr_phi grid=1 block=32 args=buf:i32:32:randint:0:2 buf:i32:32:zero buf:i32:32:zero
__global__ void oa_ptr_phi(int *flag, int *o1, int *o2) {
  int i = threadIdx.x;
  int *dst = o1;
  if (flag[i] == 0) { flag[i] = 1; dst = o2; }
  dst[i] = 3;
}

// Attacks: else-arm returns early (the join is the exit): code after runs only on one side.
// GMEM-EXPECT: oa_else_return non-idempotent
// GMEM-RUN: oa_else_return grid=1 block=32 args=buf:i32:32:randint:0:2 buf:i32:32:zero
__global__ void oa_else_return(int *flag, int *out) {
  int i = threadIdx.x;
  if (flag[i] == 0) flag[i] = 1; else return;
  out[i] = 4;
}

// Attacks: loaded value escapes through a warp shuffle (neighbour's old value).
// GMEM-EXPECT: oa_shfl_escape non-idempotent
// GMEM-RUN: oa_shfl_escape grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero
__global__ void oa_shfl_escape(float *x, float *out) {
  int i = threadIdx.x;
  float v = x[i];
  x[i] = fmaxf(v, 0.f);
  out[i] = __shfl_xor_sync(0xffffffffu, v, 1);
}

// Attacks: loaded value escapes through shared memory.
// GMEM-EXPECT: oa_smem_escape non-idempotent
// GMEM-RUN: oa_smem_escape grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero
__global__ void oa_smem_escape(float *x, float *out) {
  __shared__ float s[32];
  int i = threadIdx.x;
  float v = x[i];
  s[i] = v;
  x[i] = fmaxf(v, 0.f);
  __syncthreads();
  out[i] = s[(i + 1) & 31];
}

// Attacks: update then a guarded re-read after a barrier in the same thread (idempotent).
// GMEM-EXPECT: oa_reread conditional
// GMEM-RUN: oa_reread grid=1 block=32 args=buf:i32:32:randint:-5:5 buf:i32:32:zero
__global__ void oa_reread(int *x, int *out) {
  int i = threadIdx.x;
  if (x[i] < 0) x[i] = 0;
  __syncthreads();
  out[i] = x[i] * 2;
}

// Attacks: update inside a grid-stride loop, loop count from a scalar (idempotent).
// GMEM-EXPECT: oa_gs_clamp idempotent
// GMEM-RUN: oa_gs_clamp grid=2 block=32 args=buf:f32:200:rand i32:200 f32:-0.5 f32:0.5
// GMEM-RUN: oa_gs_clamp grid=3 block=32 args=buf:f32:200:rand i32:150 f32:0.5 f32:-0.5
__global__ void oa_gs_clamp(float *x, int n, float lo, float hi) {
  for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x)
    x[j] = fminf(fmaxf(x[j], lo), hi);
}

// Attacks: the update applied twice in a loop with operands from a scalar and its negation.
// GMEM-EXPECT: oa_loop_ops non-idempotent
// GMEM-RUN: oa_loop_ops grid=1 block=32 args=buf:i32:32:randint:0:8 i32:3
__global__ void oa_loop_ops(int *x, int c) {
  int i = threadIdx.x;
  for (int k = 0; k < 2; ++k) {
    int v = x[i];
    int from = k ? 0 : c, to = k ? c : c + 4;
    if (v == from) x[i] = to;
    __syncthreads();
  }
}

// Attacks: volatile element update (not simple: must stay an RMW).
// GMEM-EXPECT: oa_volatile idempotent
// GMEM-RUN: oa_volatile grid=1 block=32 args=buf:i32:32:randint:-5:5
__global__ void oa_volatile(volatile int *x) {
  int i = threadIdx.x;
  int v = x[i];
  x[i] = v < 0 ? 0 : v;
}

// Attacks: memset of the element before the update (memset then update: constant result).
// GMEM-EXPECT: oa_memset_update idempotent
// GMEM-RUN: oa_memset_update grid=1 block=32 args=buf:i32:32:randint:-5:5
__global__ void oa_memset_update(int *x) {
  int i = threadIdx.x;
  memset(&x[i], 0xff, 4);
  __syncthreads();
  if (x[i] < 0) x[i] = 0;
}

// Attacks: update via a 2-D index and a second expression of the same address (row*w+col vs ptr row).
// GMEM-EXPECT: oa_two_exprs idempotent
// GMEM-RUN: oa_two_exprs grid=1 block=8,4 args=buf:f32:32:rand i32:8
__global__ void oa_two_exprs(float *x, int w) {
  float *row = x + threadIdx.y * w;
  float v = x[threadIdx.y * w + threadIdx.x];
  row[threadIdx.x] = fmaxf(v, 0.f);
}

// Attacks: a store whose address equals the load's only at some launches (off == 0).
// GMEM-EXPECT: oa_off_alias conditional
// GMEM-RUN: oa_off_alias grid=1 block=32 args=buf:i32:64:randint:-5:5 i32:0
// GMEM-RUN: oa_off_alias grid=1 block=32 args=buf:i32:64:randint:-5:5 i32:32
__global__ void oa_off_alias(int *x, int off) {
  int i = threadIdx.x;
  int v = x[i];
  x[i + off] = v < 0 ? 0 : v + 1;
}

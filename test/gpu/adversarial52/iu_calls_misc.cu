// Adversarial round (idempotent updates): updates inside noinline device
// functions (return values, per-call operands), __ldg reads of the updated
// element, else-if chains, float2 halves, updates guarded by another
// thread's value.

// Attacks: noinline callee reports through its return value whether it updated.
__device__ __noinline__ float cm_relu_ret(float *p) {
  float r = 1.5f;
  if (*p < 0.f) { *p = 0.f; r = 2.5f; }
  return r;
}
// GMEM-EXPECT: cm_call_ret non-idempotent
// GMEM-RUN: cm_call_ret grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero
__global__ void cm_call_ret(float *x, float *out) {
  int i = threadIdx.x;
  out[i] = cm_relu_ret(&x[i]);
}

// Attacks: noinline clamp whose bound is a per-call (thread-dependent) argument.
__device__ __noinline__ void cm_clamp_to(int *p, int hi) {
  *p = min(*p, hi);
}
// GMEM-EXPECT: cm_call_bound idempotent
// GMEM-RUN: cm_call_bound grid=1 block=32 args=buf:i32:8:randint:0:100
__global__ void cm_call_bound(int *x) {
  int i = threadIdx.x;
  if (i < 8) cm_clamp_to(&x[i], 50 - i);
  __syncthreads();
  if (i >= 8 && i < 16) cm_clamp_to(&x[i - 8], 10 * (i - 8));
}

// Attacks: noinline replacement called with two different constants on one element.
__device__ __noinline__ void cm_replace(int *p, int from, int to) {
  if (*p == from) *p = to;
}
// GMEM-EXPECT: cm_call_replace non-idempotent
// GMEM-RUN: cm_call_replace grid=1 block=32 args=buf:i32:32:randint:0:8
__global__ void cm_call_replace(int *x) {
  int i = threadIdx.x;
  cm_replace(&x[i], 5, 7);
  __syncthreads();
  cm_replace(&x[i], 0, 5);
}

// Attacks: __ldg of the element, max, store back (relu through the read-only path).
// GMEM-EXPECT: cm_ldg_relu idempotent
// GMEM-RUN: cm_ldg_relu grid=1 block=32 args=buf:f32:32:rand
__global__ void cm_ldg_relu(float *x) {
  int i = threadIdx.x;
  x[i] = fmaxf(__ldg(&x[i]), 0.f);
}

// Attacks: else-if chain of two saturations (a clamp written as branches).
// GMEM-EXPECT: cm_elseif_clamp idempotent
// GMEM-RUN: cm_elseif_clamp grid=1 block=32 args=buf:i32:32:randint:-50:50
__global__ void cm_elseif_clamp(int *x) {
  int i = threadIdx.x;
  int v = x[i];
  if (v < -10) x[i] = -10;
  else if (v > 10) x[i] = 10;
}

// Attacks: else-if chain that is not idempotent (v < 0 -> 20, v > 10 -> -5).
// GMEM-EXPECT: cm_elseif_cycle non-idempotent
// GMEM-RUN: cm_elseif_cycle grid=1 block=32 args=buf:i32:32:randint:-50:50
__global__ void cm_elseif_cycle(int *x) {
  int i = threadIdx.x;
  int v = x[i];
  if (v < 0) x[i] = 20;
  else if (v > 10) x[i] = -5;
}

// Attacks: float2 element, relu on .x only (vector load/store, half updated).
// GMEM-EXPECT: cm_float2_half idempotent
// GMEM-RUN: cm_float2_half grid=1 block=32 args=buf:f32:64:rand
__global__ void cm_float2_half(float *xf) {
  float2 *x = (float2 *)xf;
  int i = threadIdx.x;
  float2 v = x[i];
  v.x = fmaxf(v.x, 0.f);
  x[i] = v;
}

// Attacks: float4 relu on all lanes.
// GMEM-EXPECT: cm_float4_relu idempotent
// GMEM-RUN: cm_float4_relu grid=1 block=8 args=buf:f32:32:rand
__global__ void cm_float4_relu(float *xf) {
  float4 *x = (float4 *)xf;
  int i = threadIdx.x;
  float4 v = x[i];
  v.x = fmaxf(v.x, 0.f); v.y = fmaxf(v.y, 0.f); v.z = fmaxf(v.z, 0.f); v.w = fmaxf(v.w, 0.f);
  x[i] = v;
}

// Attacks: float2 lanes swapped while one is clamped (not idempotent).
// GMEM-EXPECT: cm_float2_swap non-idempotent
// GMEM-RUN: cm_float2_swap grid=1 block=32 args=buf:f32:64:rand
__global__ void cm_float2_swap(float *xf) {
  float2 *x = (float2 *)xf;
  int i = threadIdx.x;
  float2 v = x[i];
  x[i] = make_float2(v.y, fmaxf(v.x, 0.f));
}

// Attacks: guard on another thread's element read after a barrier (writes only zeros: idempotent).
// GMEM-EXPECT: cm_guard_neighbour idempotent
// GMEM-RUN: cm_guard_neighbour grid=1 block=32 args=buf:i32:32:randint:-3:3
__global__ void cm_guard_neighbour(int *x) {
  int i = threadIdx.x;
  int nb = x[(i + 1) & 31];
  __syncthreads();
  if (nb < 0) x[i] = 0;
}

// Attacks: memcpy-based in-place relu (bytes through memcpy).
// GMEM-EXPECT: cm_memcpy_relu idempotent
// GMEM-RUN: cm_memcpy_relu grid=1 block=32 args=buf:f32:32:rand
__global__ void cm_memcpy_relu(float *x) {
  int i = threadIdx.x;
  float v;
  memcpy(&v, &x[i], 4);
  v = fmaxf(v, 0.f);
  memcpy(&x[i], &v, 4);
}

// Attacks: update where the loaded value also picks a shared-memory slot read by no one.
// GMEM-EXPECT: cm_dead_smem idempotent
// GMEM-RUN: cm_dead_smem grid=1 block=32 args=buf:i32:32:randint:-5:5
__global__ void cm_dead_smem(int *x) {
  __shared__ int s[64];
  int i = threadIdx.x;
  int v = x[i];
  s[(v & 31) + 32] = 1;
  x[i] = max(v, 0);
}

// Attacks: guarded store whose guard is a function of x and threadIdx (secondary: idempotent).
// GMEM-EXPECT: cm_guard_tid idempotent
// GMEM-RUN: cm_guard_tid grid=1 block=32 args=buf:i32:32:randint:-5:5
__global__ void cm_guard_tid(int *x) {
  int i = threadIdx.x;
  int v = x[i];
  if (v < (int)(i & 3) - 2) x[i] = 0;
}

// Adversarial round (idempotent updates): the loaded value of an accepted
// in-place update decides, through control flow alone (a phi at the join,
// no data use), what another store writes.

// Attacks: BFS-style guarded constant store; the join's phi carries whether it ran.
// GMEM-EXPECT: cl_flag_phi non-idempotent
// GMEM-RUN: cl_flag_phi grid=1 block=32 args=buf:i32:32:zero buf:f32:32:zero
// GMEM-RUN: cl_flag_phi grid=2 block=16 args=buf:i32:32:randint:0:2 buf:f32:32:zero
__global__ void cl_flag_phi(int *flag, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float g = 2.5f;
  if (flag[i] == 0) { flag[i] = 1; g = 7.5f; }
  out[i] = g;
}

// Attacks: saturation (h > 255 -> 255) whose then-block also sets a counter value.
// GMEM-EXPECT: cl_sat_count non-idempotent
// GMEM-RUN: cl_sat_count grid=1 block=64 args=buf:i32:64:randint:200:300 buf:i32:64:zero
__global__ void cl_sat_count(int *h, int *out) {
  int i = threadIdx.x;
  int c = 3;
  if (h[i] > 255) { h[i] = 255; c = 11; }
  out[i] = c;
}

// Attacks: relu in select-free if form; else-arm computes a value (writes nothing).
// GMEM-EXPECT: cl_relu_else non-idempotent
// GMEM-RUN: cl_relu_else grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero
__global__ void cl_relu_else(float *x, float *out) {
  int i = threadIdx.x;
  float g;
  if (x[i] < 0.f) { x[i] = 0.f; g = 1.25f; } else { g = -3.5f; }
  out[i] = g;
}

// Attacks: count of applied updates in a loop over elements; count written once.
// GMEM-EXPECT: cl_loop_count non-idempotent
// GMEM-RUN: cl_loop_count grid=1 block=8 args=buf:i32:64:randint:-5:5 buf:i32:8:zero i32:8
__global__ void cl_loop_count(int *x, int *out, int per) {
  int t = threadIdx.x;
  int cnt = 0;
  for (int k = 0; k < per; ++k) {
    int j = t * per + k;
    if (x[j] < 0) { x[j] = 0; cnt += 7; }
  }
  out[t] = cnt;
}

// Attacks: the phi is an index: which slot the thread then writes.
// GMEM-EXPECT: cl_phi_index non-idempotent
// GMEM-RUN: cl_phi_index grid=1 block=32 args=buf:i32:32:randint:0:2 buf:i32:64:zero
__global__ void cl_phi_index(int *flag, int *out) {
  int i = threadIdx.x;
  int slot = 2 * i + 1;
  if (flag[i] == 0) { flag[i] = 1; slot = 2 * i; }
  out[slot] = 9;
}

// Attacks: the phi decides a later branch: whether the thread writes at all.
// GMEM-EXPECT: cl_phi_branch non-idempotent
// GMEM-RUN: cl_phi_branch grid=1 block=32 args=buf:u32:32:randint:0:3 buf:i32:32:const:-1
__global__ void cl_phi_branch(unsigned *level, int *out) {
  int i = threadIdx.x;
  volatile int dummy = 0; (void)dummy;
  int first = 5;
  if (level[i] == 0u) { level[i] = 1u; first = 17; }
  if (first == 17) out[i] = i;
}

// Attacks: if-then-else whose else arm (no writes) carries a float to the join.
// GMEM-EXPECT: cl_clamp_else non-idempotent
// GMEM-RUN: cl_clamp_else grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero f32:0.5
__global__ void cl_clamp_else(float *x, float *out, float hi) {
  int i = threadIdx.x;
  float g;
  if (x[i] > hi) { x[i] = hi; g = 0.75f; } else { g = 0.125f; }
  out[i] = g;
}

// Attacks: mask with guard on bit; the join phi is a 64-bit value.
// GMEM-EXPECT: cl_mask_phi64 non-idempotent
// GMEM-RUN: cl_mask_phi64 grid=1 block=32 args=buf:u32:32:randint:0:100 buf:u64:32:zero
__global__ void cl_mask_phi64(unsigned *x, unsigned long long *out) {
  int i = threadIdx.x;
  unsigned long long tag = 0x1111111111ull;
  if (x[i] & 1u) { x[i] = 0u; tag = 0x2222222222ull; }
  out[i] = tag;
}

// Attacks: phi feeds a grid-stride loop's accumulator written per element.
// GMEM-EXPECT: cl_gs_acc non-idempotent
// GMEM-RUN: cl_gs_acc grid=2 block=32 args=buf:i32:256:randint:-3:3 buf:i32:256:zero i32:256
__global__ void cl_gs_acc(int *x, int *y, int n) {
  for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += gridDim.x * blockDim.x) {
    int s = 100;
    if (x[j] < 0) { x[j] = 0; s = 200; }
    y[j] = s;
  }
}

// Attacks: double relu; join phi is a double written to another buffer.
// GMEM-EXPECT: cl_dbl_phi non-idempotent
// GMEM-RUN: cl_dbl_phi grid=1 block=32 args=buf:f64:32:rand buf:f64:32:zero
__global__ void cl_dbl_phi(double *x, double *out) {
  int i = threadIdx.x;
  double g = 1.0;
  if (x[i] < 0.0) { x[i] = 0.0; g = 2.0; }
  out[i] = g;
}

// Attacks: phi feeds shared memory; a neighbour reads it after a barrier.
// GMEM-EXPECT: cl_phi_shared non-idempotent
// GMEM-RUN: cl_phi_shared grid=1 block=32 args=buf:i32:32:randint:0:2 buf:i32:32:zero
__global__ void cl_phi_shared(int *flag, int *out) {
  __shared__ int s[32];
  int i = threadIdx.x;
  int v = 4;
  if (flag[i] == 0) { flag[i] = 1; v = 8; }
  s[i] = v;
  __syncthreads();
  out[i] = s[(i + 1) & 31];
}

// Attacks: phi reaching an atomicAdd on a counter (combine).
// GMEM-EXPECT: cl_phi_atomic non-idempotent
// GMEM-RUN: cl_phi_atomic grid=1 block=32 args=buf:i32:32:randint:0:2 buf:i32:1:zero
__global__ void cl_phi_atomic(int *flag, int *cnt) {
  int i = threadIdx.x;
  int add = 0;
  if (flag[i] == 0) { flag[i] = 1; add = 3; }
  if (add) atomicAdd(cnt, add);
}

// Control: the same shapes without the leak (phi only of unrelated values).
// GMEM-EXPECT: cl_ctrl_ok conditional
// GMEM-RUN: cl_ctrl_ok grid=1 block=32 args=buf:i32:32:randint:0:2 buf:f32:32:zero
__global__ void cl_ctrl_ok(int *flag, float *out) {
  int i = threadIdx.x;
  if (flag[i] == 0) flag[i] = 1;
  out[i] = 2.5f;
}

// Stores through a pointer that may be one of several objects (a select or
// phi of parameters/globals): AccessCollector::recordSharedOffset records one
// write per candidate object, which the covered-load rule takes as a store
// that certainly happened to each.

// GMEM-EXPECT: mo_sel_fixed_loops non-idempotent
// GMEM-RUN: mo_sel_fixed_loops grid=1 block=32 args=buf:f32:1024:rand buf:f32:1024:rand i32:0
// GMEM-RUN: mo_sel_fixed_loops grid=1 block=32 args=buf:f32:1024:rand buf:f32:1024:rand i32:1
// GMEM-RUN: mo_sel_fixed_loops grid=1 block=32 args=buf:f32:1024:rand ptr:0+0 i32:0
__global__ void mo_sel_fixed_loops(float *a, float *b, int flag) {
  float *p = (flag ? a : b) + threadIdx.x * 32;
  float *ra = a + threadIdx.x * 32;
  for (int k = 0; k < 8; ++k)
    p[k] = (float)k;
  for (int k = 0; k < 8; ++k)
    ra[k] = ra[k] + 1.0f;
}

// Pointer switched from a to b in the middle of L1 (a loop-carried phi).
// GMEM-EXPECT: mo_phi_switch non-idempotent
// GMEM-RUN: mo_phi_switch grid=1 block=32 args=buf:f32:1024:rand buf:f32:1024:rand i32:3
// GMEM-RUN: mo_phi_switch grid=1 block=32 args=buf:f32:1024:rand buf:f32:1024:rand i32:100
__global__ void mo_phi_switch(float *a, float *b, int sw) {
  int t = threadIdx.x * 32;
  float *p = a;
  for (int k = 0; k < 8; ++k) {
    p[t + k] = 2.0f;
    if (k == sw) p = b;
  }
  for (int k = 0; k < 8; ++k)
    a[t + k] = a[t + k] * 3.0f;
}

// Chosen per thread parity.
// GMEM-EXPECT: mo_sel_parity non-idempotent
// GMEM-RUN: mo_sel_parity grid=2 block=32 args=buf:f32:64:rand buf:f32:64:rand
// GMEM-RUN: mo_sel_parity grid=1 block=64 args=buf:f32:64:rand buf:f32:64:rand
__global__ void mo_sel_parity(float *a, float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = (threadIdx.x & 1) ? a : b;
  p[i] = 0.25f;
  __syncthreads();
  b[i] = b[i] + a[i];
}

// A __device__ global or a parameter.
__device__ float mo_g[256];
// GMEM-EXPECT: mo_global_or_param non-idempotent
// GMEM-RUN: mo_global_or_param grid=2 block=32 args=buf:f32:64:rand i32:1
// GMEM-RUN: mo_global_or_param grid=2 block=32 args=buf:f32:64:rand i32:0
__global__ void mo_global_or_param(float *a, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = flag ? mo_g : a;
  p[i] = 1.5f;
  a[i] = a[i] - 0.5f;
}

// Three-way choice through a switch.
// GMEM-EXPECT: mo_three_way non-idempotent
// GMEM-RUN: mo_three_way grid=1 block=32 args=buf:f32:32:rand buf:f32:32:rand buf:f32:32:rand i32:0
// GMEM-RUN: mo_three_way grid=1 block=32 args=buf:f32:32:rand buf:f32:32:rand buf:f32:32:rand i32:1
// GMEM-RUN: mo_three_way grid=1 block=32 args=buf:f32:32:rand buf:f32:32:rand buf:f32:32:rand i32:2
__global__ void mo_three_way(float *a, float *b, float *c, int w) {
  int i = threadIdx.x;
  float *p;
  switch (w) {
  case 0: p = a; break;
  case 1: p = b; break;
  default: p = c; break;
  }
  p[i] = 9.0f;
  c[i] = c[i] + b[i];
}

// Ping-pong buffers over time steps, softmax-like pair per step.
// GMEM-EXPECT: mo_pingpong_loops non-idempotent
// GMEM-RUN: mo_pingpong_loops grid=1 block=32 args=buf:f32:1024:rand buf:f32:1024:rand i32:1
// GMEM-RUN: mo_pingpong_loops grid=1 block=32 args=buf:f32:1024:rand buf:f32:1024:rand i32:2
// GMEM-RUN: mo_pingpong_loops grid=1 block=32 args=buf:f32:1024:rand buf:f32:1024:rand i32:5
__global__ void mo_pingpong_loops(float *a, float *b, int steps) {
  float *src = a, *dst = b;
  int t = threadIdx.x * 32;
  for (int s = 0; s < steps; ++s) {
    for (int k = 0; k < 8; ++k)
      dst[t + k] = 0.0f;
    for (int k = 0; k < 8; ++k)
      dst[t + k] = src[t + k] + 1.0f;
    float *x = src; src = dst; dst = x;
  }
}

// The choice made once, the covered read through the other candidate.
// GMEM-EXPECT: mo_read_other non-idempotent
// GMEM-RUN: mo_read_other grid=2 block=32 args=buf:i32:64:rand buf:i32:64:rand i32:0
// GMEM-RUN: mo_read_other grid=2 block=32 args=buf:i32:64:rand buf:i32:64:rand i32:1
__global__ void mo_read_other(int *a, int *b, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int *w = flag ? a : b;
  int *r = flag ? b : a;
  w[i] = i;
  r[i] = r[i] * 2 + 1;
}

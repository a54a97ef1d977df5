// Adversarial round 50: __device__ / __constant__ global variables and
// arrays written or read by the kernel, global pointer variables, and
// kernels whose parameter-side effects depend on global state. Where the
// emulator cannot see globals (they are not RUN buffers) the truth is by
// hand (REPORT.md).

__device__ int g_tab[1024];
__device__ int g_counter;
__device__ float g_acc[256];
__device__ int g_flag;
__device__ int g_sel = 5;
__device__ int g_arr[256];
__device__ int *g_p = g_arr;
__constant__ int c_perm[8] = {3, 1, 7, 0, 2, 6, 5, 4};

// Attacks: global table written, then a neighbour's entry read back (cross-thread through a global).
// GMEM-EXPECT: gv_table_neighbor non-idempotent
// GMEM-RUN: gv_table_neighbor grid=1 block=256 args=buf:i32:256:rand buf:i32:256:zero
__global__ void gv_table_neighbor(const int *in, int *out) {
  int t = threadIdx.x;
  g_tab[t] = in[t];
  __syncthreads();
  out[t] = g_tab[(t + 1) & 255] + g_tab[t + 256];
  g_tab[t + 256] = 1;
}

// Attacks: global counter bumped each launch decides the output offset.
// GMEM-EXPECT: gv_counter_offset non-idempotent
// GMEM-RUN: gv_counter_offset grid=1 block=32 args=buf:i32:32:rand buf:i32:4096:zero
__global__ void gv_counter_offset(const int *in, int *out) {
  int base = g_counter;
  __syncthreads();
  out[(base & 63) * 32 + threadIdx.x] = in[threadIdx.x];
  if (threadIdx.x == 0)
    g_counter = base + 1;
}

// Attacks: global accumulator array (read-modify-write of a global).
// GMEM-EXPECT: gv_acc_rmw non-idempotent
// GMEM-RUN: gv_acc_rmw grid=1 block=256 args=buf:f32:256:rand buf:f32:256:zero
__global__ void gv_acc_rmw(const float *in, float *out) {
  int t = threadIdx.x;
  g_acc[t] += in[t];
  out[t] = g_acc[t];
}

// Attacks: write-only global flag plus a plain copy (idempotent).
// GMEM-EXPECT: gv_flag_write conditional
// GMEM-RUN: gv_flag_write grid=2 block=64 args=buf:f32:128:rand buf:f32:128:zero
// GMEM-RUN: gv_flag_write grid=2 block=64 args=buf:f32:129:rand ptr:0+4
__global__ void gv_flag_write(const float *in, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t];
  g_flag = 1;
}

// Attacks: __constant__ permutation (initialiser known, but the host may overwrite it).
// GMEM-EXPECT: gv_const_perm conditional
// GMEM-RUN: gv_const_perm grid=1 block=64 args=buf:i32:64:rand buf:i32:64:zero
// GMEM-RUN: gv_const_perm grid=1 block=64 args=buf:i32:128:rand ptr:0+256
__global__ void gv_const_perm(const int *in, int *out) {
  int t = threadIdx.x;
  out[c_perm[t & 7] * 8 + (t >> 3)] = in[t];
}

// Attacks: global selector initialised to 5 and changed by the kernel (later launches write elsewhere).
// GMEM-EXPECT: gv_sel_bump non-idempotent
// GMEM-RUN: gv_sel_bump grid=1 block=32 args=buf:i32:32:rand buf:i32:4096:zero
__global__ void gv_sel_bump(const int *in, int *out) {
  int t = threadIdx.x;
  int k = g_sel;
  out[(k & 1023) + t] = in[t];
  __syncthreads();
  if (t == 0)
    g_sel = k + 64;
}

// Attacks: global pointer variable initialised to a global array, written through.
// GMEM-EXPECT: gv_ptr_var unknown
// GMEM-RUN: gv_ptr_var grid=1 block=64 args=buf:i32:64:rand
__global__ void gv_ptr_var(const int *in) {
  g_p[threadIdx.x] = in[threadIdx.x];
}

// Attacks: the kernel redirects the global pointer into a parameter buffer, then writes through it.
// GMEM-EXPECT: gv_ptr_redirect unknown
// GMEM-RUN: gv_ptr_redirect grid=1 block=64 args=buf:i32:64:rand buf:i32:128:zero
// GMEM-RUN: gv_ptr_redirect grid=1 block=64 args=buf:i32:128:rand ptr:0+4
__global__ void gv_ptr_redirect(const int *in, int *out) {
  if (threadIdx.x == 0)
    g_p = out + 1;
  __syncthreads();
  g_p[threadIdx.x] = in[threadIdx.x] + 1;
}

// Attacks: global array used as a per-thread scratch between two phases of one launch (written then read).
// GMEM-EXPECT: gv_scratch_two_phase conditional
// GMEM-RUN: gv_scratch_two_phase grid=1 block=128 args=buf:f32:128:rand buf:f32:128:zero
__global__ void gv_scratch_two_phase(const float *in, float *out) {
  int t = threadIdx.x;
  g_acc[t] = in[t] * 2.0f;
  out[t] = g_acc[t] + 1.0f;
}

__device__ int g_last_big;
// Attacks: grid-stride loop storing the item index into a global "last seen" slot (write-write collision on a global).
// GMEM-EXPECT: gv_gs_last_global conditional
// GMEM-RUN: gv_gs_last_global grid=1 block=1 args=buf:i32:3000:randint:0:100 buf:i32:3000:zero i32:3000
// GMEM-RUN: gv_gs_last_global grid=2 block=64 args=buf:i32:3000:randint:0:100 buf:i32:3000:zero i32:3000
__global__ void gv_gs_last_global(const int *in, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = in[i];
    if (in[i] > 90)
      g_last_big = i;
  }
}

// Adversarial round 48: idempotence traps: in-place updates behind
// noinline helpers, one element read and written through two different
// expressions, a buffer passed twice (fully or partially aliased), atomics
// used as plain stores, CAS loops, shared-memory staged in-place
// transforms, global counters, write-once-if-zero.

__device__ __noinline__ void bump(float *p, int i) { p[i] += 1.0f; }
__device__ __noinline__ float load_at(const float *p, int i) { return p[i]; }
__device__ __noinline__ void store_at(float *p, int i, float v) { p[i] = v; }

// The read-modify-write is inside a noinline helper.
// GMEM-EXPECT: helper_bump non-idempotent
// GMEM-RUN: helper_bump grid=2 block=64 args=buf:f32:256:rand
__global__ void helper_bump(float *a) {
  bump(a, blockIdx.x * blockDim.x + threadIdx.x);
}

// Load and store in two different helpers, same element.
// GMEM-EXPECT: helper_split_rmw non-idempotent
// GMEM-RUN: helper_split_rmw grid=1 block=64 args=buf:f32:64:rand
__global__ void helper_split_rmw(float *a) {
  int t = threadIdx.x;
  store_at(a, t, load_at(a, t) * 2.0f + 1.0f);
}

// Helpers reading one parameter and writing another: aliased at the launch.
// GMEM-EXPECT: helper_copy conditional
// GMEM-RUN: helper_copy grid=1 block=64 args=buf:f32:128:rand buf:f32:128:zero
// GMEM-RUN: helper_copy grid=1 block=64 args=buf:f32:128:rand ptr:0+4
__global__ void helper_copy(const float *in, float *out) {
  int t = threadIdx.x;
  float v = load_at(in, t);
  __syncthreads();
  store_at(out, t, v + 1.0f);
}

// Read a[t], write a[(t + n) % n]: the same element for t < n.
// GMEM-EXPECT: mod_same_element non-idempotent
// GMEM-RUN: mod_same_element grid=1 block=64 args=buf:f32:64:rand u32:64
// GMEM-RUN: mod_same_element grid=1 block=64 args=buf:f32:128:rand u32:100
__global__ void mod_same_element(float *a, unsigned n) {
  unsigned t = threadIdx.x;
  float v = a[t];
  a[(t + n) % n] = v + 1.0f;
}

// Read a[2t + 1 - 1], write a[(2t) | 0]: one element by two spellings.
// GMEM-EXPECT: two_spellings non-idempotent
// GMEM-RUN: two_spellings grid=1 block=32 args=buf:f32:64:rand
__global__ void two_spellings(float *a) {
  unsigned t = threadIdx.x;
  float v = a[2 * t + 1 - 1];
  a[(2 * t) | 0u] = v * 3.0f;
}

// Read through one pointer, write through a second that aliases fully
// (second RUN: offset by one element, so each write lands on the next
// thread's read).
// GMEM-EXPECT: scale_two_ptrs conditional
// GMEM-RUN: scale_two_ptrs grid=2 block=64 args=buf:f32:256:rand buf:f32:256:zero
// GMEM-RUN: scale_two_ptrs grid=2 block=64 args=buf:f32:256:rand ptr:0+0
// GMEM-RUN: scale_two_ptrs grid=1 block=64 args=buf:f32:256:rand ptr:0+4
// GMEM-RUN: scale_two_ptrs grid=2 block=64 args=buf:f32:256:rand ptr:0+512
__global__ void scale_two_ptrs(const float *x, float *y) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[g];
  __syncthreads();
  y[g] = 2.0f * v;
}

// atomicExch with its result unused: a plain store (idempotent in truth).
// GMEM-EXPECT: exch_as_store idempotent
// GMEM-RUN: exch_as_store grid=1 block=64 args=buf:i32:64:zero
__global__ void exch_as_store(int *a) {
  atomicExch(&a[threadIdx.x], (int)threadIdx.x + 7);
}

// atomicMax of a constant: idempotent in truth (max is idempotent).
// GMEM-EXPECT: atomic_max_const idempotent
// GMEM-RUN: atomic_max_const grid=2 block=64 args=buf:i32:16:rand
__global__ void atomic_max_const(int *a) {
  atomicMax(&a[threadIdx.x & 15], 50);
}

// atomicAdd as a "store" of 0 + v into a zeroed buffer: not idempotent.
// GMEM-EXPECT: atomic_add_store non-idempotent
// GMEM-RUN: atomic_add_store grid=1 block=64 args=buf:f32:64:zero
__global__ void atomic_add_store(float *a) {
  atomicAdd(&a[threadIdx.x], 1.5f);
}

// Float atomic max through a CAS loop.
// GMEM-EXPECT: cas_float_max idempotent
// GMEM-RUN: cas_float_max grid=2 block=64 args=buf:f32:1:const:-5 buf:f32:128:rand
__global__ void cas_float_max(float *m, const float *x) {
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  int *mi = reinterpret_cast<int *>(m);
  int old = *mi, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= v)
      break;
    old = atomicCAS(mi, assumed, __float_as_int(v));
  } while (old != assumed);
}

// Shared-memory staged in-place reversal of each 64-element tile.
// GMEM-EXPECT: tile_reverse_inplace non-idempotent
// GMEM-RUN: tile_reverse_inplace grid=3 block=64 args=buf:f32:192:iota
__global__ void tile_reverse_inplace(float *a) {
  __shared__ float tile[64];
  unsigned base = blockIdx.x * 64;
  tile[threadIdx.x] = a[base + threadIdx.x];
  __syncthreads();
  a[base + threadIdx.x] = tile[63 - threadIdx.x];
}

// Shared-memory staged copy of the tile back onto itself: idempotent.
// GMEM-EXPECT: tile_copy_back idempotent
// GMEM-RUN: tile_copy_back grid=3 block=64 args=buf:f32:192:rand
__global__ void tile_copy_back(float *a) {
  __shared__ float tile[64];
  unsigned base = blockIdx.x * 64;
  tile[threadIdx.x] = a[base + threadIdx.x];
  __syncthreads();
  a[base + threadIdx.x] = tile[threadIdx.x];
}

// A launch counter in global memory, copied to the output.
// GMEM-EXPECT: launch_counter non-idempotent
// GMEM-RUN: launch_counter grid=1 block=32 args=buf:u32:1:zero buf:u32:32:zero
__global__ void launch_counter(unsigned *cnt, unsigned *out) {
  __shared__ unsigned ticket;
  if (threadIdx.x == 0)
    ticket = atomicAdd(cnt, 1u);
  __syncthreads();
  out[threadIdx.x] = ticket;
}

// Write once if zero: idempotent.
// GMEM-EXPECT: write_if_zero idempotent
// GMEM-RUN: write_if_zero grid=1 block=64 args=buf:i32:64:randint:0:2 i32:9
__global__ void write_if_zero(int *a, int v) {
  int t = threadIdx.x;
  if (a[t] == 0)
    a[t] = v;
}

// Write if zero, else increment: not idempotent.
// GMEM-EXPECT: write_if_zero_else_inc non-idempotent
// GMEM-RUN: write_if_zero_else_inc grid=1 block=64 args=buf:i32:64:randint:0:2 i32:9
__global__ void write_if_zero_else_inc(int *a, int v) {
  int t = threadIdx.x;
  if (a[t] == 0)
    a[t] = v;
  else
    a[t] += 1;
}

// Each thread reads its neighbour's element, which the neighbour writes.
// GMEM-EXPECT: neighbour_swap non-idempotent
// GMEM-RUN: neighbour_swap grid=1 block=64 args=buf:f32:64:iota
__global__ void neighbour_swap(float *a) {
  unsigned t = threadIdx.x;
  float v = a[t ^ 1];
  __syncthreads();
  a[t] = v;
}

// Output depends on another thread's output region: reads out[t], writes
// out[t + 64] (ordered by a barrier, so the first launch reads the input).
// GMEM-EXPECT: read_other_thread_output non-idempotent
// GMEM-RUN: read_other_thread_output grid=1 block=128 args=buf:f32:128:rand buf:f32:192:zero
__global__ void read_other_thread_output(const float *in, float *out) {
  unsigned t = threadIdx.x;
  float v = in[t] + out[t];
  __syncthreads();
  out[t + 64] = v + 1.0f;
}

// A __device__ global array used as scratch, written before it is read.
// GMEM-EXPECT: global_scratch idempotent
// GMEM-RUN: global_scratch grid=1 block=64 args=buf:f32:64:rand buf:f32:64:zero
__device__ float g_scratch[64];
__global__ void global_scratch(const float *in, float *out) {
  unsigned t = threadIdx.x;
  g_scratch[t] = in[t] * 2.0f;
  __syncthreads();
  out[t] = g_scratch[63 - t];
}

// A __device__ flag the kernel reads and then sets: the second launch
// takes the other branch.
// GMEM-EXPECT: global_flag non-idempotent
// GMEM-RUN: global_flag grid=1 block=32 args=buf:f32:32:zero
__device__ int g_flag48;
__global__ void global_flag(float *out) {
  int f = g_flag48;
  __syncthreads();
  out[threadIdx.x] = f ? 2.0f : 1.0f + (float)f;
  if (threadIdx.x == 0)
    g_flag48 = f + 1;
}

// Adversarial round 49: pointers and pointer differences stored in memory
// (shared, local arrays with a dynamic index, global slots), carried through
// shuffles and asm moves, pointer tables (float**), linked structures.
#include <stdint.h>

// The distance b - a is computed once, parked in shared memory and read back:
// a[d + t] is b[t]. Truth: reads b[0,32), writes b[0,32) (b[t] += 1, not
// idempotent); a is never touched.
// GMEM-EXPECT: diff_via_smem non-idempotent
// GMEM-RUN: diff_via_smem grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero
// GMEM-RUN: diff_via_smem grid=1 block=64 args=buf:f32:64:rand buf:f32:256:zero
__global__ void diff_via_smem(const float *b, float *a) {
  __shared__ long long d;
  if (threadIdx.x == 0) d = b - a;
  __syncthreads();
  int t = threadIdx.x;
  a[d + t] = b[t] + 1.0f;
}

// Same distance broadcast by a warp shuffle (lane 0's value).
// GMEM-EXPECT: diff_via_shfl non-idempotent
// GMEM-RUN: diff_via_shfl grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero
// GMEM-RUN: diff_via_shfl grid=2 block=64 args=buf:f32:128:rand buf:f32:128:zero
__global__ void diff_via_shfl(const float *b, float *a) {
  long long d = b - a;
  d = __shfl_sync(0xffffffffu, d, 0);
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  a[d + t] = b[t] + 1.0f;
}

// The distance through an asm register move.
// GMEM-EXPECT: diff_via_asm non-idempotent
// GMEM-RUN: diff_via_asm grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero
__global__ void diff_via_asm(const float *b, float *a) {
  long long d = b - a, e;
  asm("mov.b64 %0, %1;" : "=l"(e) : "l"(d));
  int t = threadIdx.x;
  a[e + t] = b[t] + 1.0f;
}

// The distance parked in a global scratch slot (slot[0]); slot is RMW'd too.
// Truth: writes b[0,n) (in place) and slot[0]; reads slot[0], b[0,n).
// GMEM-EXPECT: diff_via_global_slot non-idempotent
// GMEM-RUN: diff_via_global_slot grid=1 block=64 args=buf:f32:64:rand buf:f32:64:zero buf:i64:4:zero
__global__ void diff_via_global_slot(const float *b, float *a, long long *slot) {
  if (threadIdx.x == 0) *(volatile long long *)slot = b - a;
  __syncthreads();
  long long d = *(volatile long long *)slot;
  int t = threadIdx.x;
  a[d + t] = b[t] * 2.0f;
}

// A local table of integer addresses with a dynamic index, rebased on a:
// thread t writes through (t&1 ? b : a). Truth: odd threads write b[t] =
// b[t]+1 (RMW of b); even threads write a[t] = b[t]+1.
// GMEM-EXPECT: uintptr_local_table non-idempotent
// GMEM-RUN: uintptr_local_table grid=1 block=64 args=buf:f32:64:rand buf:f32:64:zero
__global__ void uintptr_local_table(const float *b, float *a) {
  uintptr_t tab[4] = {(uintptr_t)a, (uintptr_t)b, (uintptr_t)a, (uintptr_t)b};
  int t = threadIdx.x;
  volatile int k = t & 3;
  uintptr_t u = tab[k];
  float *q = a + (u - (uintptr_t)a) / sizeof(float);
  q[t] = b[t] + 1.0f;
}

// A struct array of {pointer,len} in local memory indexed by thread: the
// pointer is loaded (not a parameter). Truth: t even writes a[t], t odd b[t];
// b[t] = b[t] + a[t] read both -> RMW of b and reads a[t] it also writes.
// GMEM-EXPECT: struct_ptr_local unknown
// GMEM-RUN: struct_ptr_local grid=1 block=64 args=buf:f32:64:rand buf:f32:64:rand
__global__ void struct_ptr_local(float *a, float *b) {
  struct V { float *p; int n; } v[2] = {{a, 64}, {b, 64}};
  int t = threadIdx.x;
  volatile int k = t & 1;
  V s = v[k];
  if (t < s.n) s.p[t] = a[t] + b[t];
}

// Pointer table in shared memory written by two threads, read back by all.
// Truth: thread t writes (t&1 ? b : a)[t] = a[t] + 1 -> RMW of a at even t.
// GMEM-EXPECT: smem_ptr_table non-idempotent
// GMEM-RUN: smem_ptr_table grid=1 block=64 args=buf:f32:64:rand buf:f32:64:zero
__global__ void smem_ptr_table(float *a, float *b) {
  __shared__ float *tab[2];
  if (threadIdx.x < 2) tab[threadIdx.x] = threadIdx.x ? b : a;
  __syncthreads();
  int t = threadIdx.x;
  float *q = tab[t & 1];
  q[t] = a[t] + 1.0f;
}

// float** parameter (u64 buffer): the kernel fills the table itself, then
// each thread writes through its neighbour's entry. Truth: tab[0,n) written
// and read; data[(t+1)%n * 4] written, data never read -> writes tab then
// reads tab (RMW-ish: reads what it writes) -> not idempotent by definition.
// GMEM-EXPECT: ptrptr_fill_then_use unknown
// GMEM-RUN: ptrptr_fill_then_use grid=1 block=32 args=buf:u64:32:zero buf:f32:128:zero
__global__ void ptrptr_fill_then_use(float **tab, float *data) {
  int t = threadIdx.x, n = blockDim.x;
  tab[t] = data + 4 * t;
  __syncthreads();
  float *q = ((float *volatile *)tab)[(t + 1) % n];
  q[0] = (float)t;
}

// Linked list of indices built in global memory, then walked; the pointer
// comes from a node's next field (an index): node[i].next = i+1.
// Truth: writes next[0,n), val[0,n); reads next[...] along the walk.
// GMEM-EXPECT: linked_walk unknown
// GMEM-RUN: linked_walk grid=1 block=32 args=buf:i32:64:zero buf:f32:64:zero i32:32
__global__ void linked_walk(int *next, float *val, int n) {
  int t = threadIdx.x;
  if (t < n) next[t] = t + 1 < n ? t + 1 : -1;
  __syncthreads();
  if (t == 0) {
    int i = 0, k = 0;
    while (i >= 0 && k < 1000) {
      val[i] = (float)k++;
      i = ((volatile int *)next)[i];
    }
  }
}

// A pointer written into a global pointer table (__device__) and read back
// by another thread after the barrier.
__device__ float *g_ptab[64];
// GMEM-EXPECT: device_ptr_table unknown
// GMEM-RUN: device_ptr_table grid=1 block=64 args=buf:f32:64:rand buf:f32:64:zero
__global__ void device_ptr_table(const float *in, float *out) {
  int t = threadIdx.x;
  g_ptab[t] = (t & 1) ? out : (float *)in;
  __syncthreads();
  float *q = ((float *volatile *)g_ptab)[t ^ 1];
  q[t] = in[t] * 3.0f;
}

// Offsets (not pointer-derived) parked in shared memory: address = out + s[x].
// Truth: writes out[0,32) (a permutation), reads in[0,32). Conditional.
// GMEM-EXPECT: smem_offsets conditional
// GMEM-RUN: smem_offsets grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero
// GMEM-RUN: smem_offsets grid=1 block=32 args=buf:f32:64:rand ptr:0+128
__global__ void smem_offsets(const float *in, float *out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = (t * 5) & 31;
  __syncthreads();
  out[s[(t + 1) & 31]] = in[t];
}

// The pointer itself is stored in shared memory as an integer, reloaded and
// rebased: a + (u - (uintptr)a)/4 reaches b. Truth: b[t] = b[t]*2 (RMW of b).
// GMEM-EXPECT: uintptr_via_smem non-idempotent
// GMEM-RUN: uintptr_via_smem grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero
// GMEM-RUN: uintptr_via_smem grid=4 block=32 args=buf:f32:32:rand buf:f32:1024:zero
__global__ void uintptr_via_smem(const float *b, float *a) {
  __shared__ uintptr_t u;
  if (threadIdx.x == 0) u = (uintptr_t)b;
  __syncthreads();
  int t = threadIdx.x;
  float *q = a + (u - (uintptr_t)a) / sizeof(float);
  q[t] = b[t] * 2.0f;
}

// Control: the same, but the distance is computed in registers (no memory).
// GMEM-EXPECT: diff_in_regs non-idempotent
// GMEM-RUN: diff_in_regs grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero
__global__ void diff_in_regs(const float *b, float *a) {
  long long d = b - a;
  int t = threadIdx.x;
  a[d + t] = b[t] + 1.0f;
}

// A distance used only for a read: b is written, a[d+t] actually reads b.
// Truth: reads b[t+1] (t<31) , writes b[t] -> cross-thread overlap, not idempotent.
// GMEM-EXPECT: diff_read_via_smem non-idempotent
// GMEM-RUN: diff_read_via_smem grid=1 block=32 args=buf:f32:64:rand buf:f32:64:rand
__global__ void diff_read_via_smem(float *b, const float *a) {
  __shared__ long long d;
  if (threadIdx.x == 0) d = b - (float *)a;
  __syncthreads();
  int t = threadIdx.x;
  b[t] = a[d + t + 1] + 1.0f;
}

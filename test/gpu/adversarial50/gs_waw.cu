// Adversarial round 50: grid-stride loops (flag GridStride) whose items
// write the SAME location (write-write collisions). Reads and writes are
// disjoint, so the launch is idempotent on its own grid, but which item
// writes last depends on how items are spread over threads and CTAs: on the
// launch's grid the colliding items run in one thread, in trip order; on a
// larger grid (one trip per virtual CTA) they race in different CTAs.

// Attacks: store indexed by threadIdx.x inside the loop (last trip wins).
// GMEM-EXPECT: gs_tid_slot conditional
// GMEM-RUN: gs_tid_slot grid=1 block=64 args=buf:f32:5000:rand buf:f32:64:zero i32:5000
// GMEM-RUN: gs_tid_slot grid=4 block=64 args=buf:f32:5000:rand buf:f32:64:zero i32:5000
// GMEM-RUN: gs_tid_slot grid=1 block=64 args=buf:f32:5100:rand ptr:0+20000 i32:5000
// GMEM-RUN: gs_tid_slot grid=1 block=64 args=buf:f32:5000:rand ptr:0+0 i32:5000
__global__ void gs_tid_slot(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[threadIdx.x] = in[i];
}

// Attacks: out[i % m] with m = the launch's thread count (items of one slot share a thread).
// GMEM-EXPECT: gs_mod_slot conditional
// GMEM-RUN: gs_mod_slot grid=2 block=64 args=buf:i32:5000:rand buf:i32:128:zero i32:5000 i32:128
// GMEM-RUN: gs_mod_slot grid=4 block=64 args=buf:i32:5000:rand buf:i32:256:zero i32:5000 i32:256
// GMEM-RUN: gs_mod_slot grid=2 block=64 args=buf:i32:5200:rand ptr:0+20004 i32:5000 i32:128
__global__ void gs_mod_slot(const int *in, int *out, int n, int m) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i % m] = in[i];
}

// Attacks: "last match" position written by every matching item (single thread on its grid).
// GMEM-EXPECT: gs_last_match conditional
// GMEM-RUN: gs_last_match grid=1 block=1 args=buf:i32:3000:randint:0:10 buf:i32:1:const:-1 i32:3000 i32:5
// GMEM-RUN: gs_last_match grid=2 block=64 args=buf:i32:3000:randint:0:10 buf:i32:1:const:-1 i32:3000 i32:5
// GMEM-RUN: gs_last_match grid=1 block=1 args=buf:i32:3001:randint:0:10 ptr:0+12000 i32:3000 i32:5
__global__ void gs_last_match(const int *a, int *pos, int n, int key) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    if (a[i] == key)
      *pos = i;
}

// Attacks: item i clears its right neighbour then writes itself (order decides out[i]).
// GMEM-EXPECT: gs_neighbor_clear conditional
// GMEM-RUN: gs_neighbor_clear grid=1 block=1 args=buf:f32:2000:rand buf:f32:2001:const:7 i32:2000
// GMEM-RUN: gs_neighbor_clear grid=1 block=64 args=buf:f32:2000:rand buf:f32:2001:const:7 i32:2000
// GMEM-RUN: gs_neighbor_clear grid=1 block=1 args=buf:f32:4001:rand ptr:0+8000 i32:2000
__global__ void gs_neighbor_clear(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i + 1] = 0.0f;
    out[i] = in[i];
  }
}

// Attacks: memset (a memory intrinsic, allowed in the loop) overlapping the next items' slots.
// GMEM-EXPECT: gs_memset_overlap conditional
// GMEM-RUN: gs_memset_overlap grid=1 block=1 args=buf:u8:1000:rand buf:u8:1008:const:9 i32:1000
// GMEM-RUN: gs_memset_overlap grid=2 block=32 args=buf:u8:1000:rand buf:u8:1008:const:9 i32:1000
__global__ void gs_memset_overlap(const unsigned char *in, unsigned char *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    memset(out + i, 0, 8);
    out[i] = in[i] + 1;
  }
}

// Attacks: memcpy of a whole window into one fixed destination (every item overwrites it).
// GMEM-EXPECT: gs_memcpy_fixed conditional
// GMEM-RUN: gs_memcpy_fixed grid=1 block=1 args=buf:i32:1100:rand buf:i32:16:zero i32:1000
// GMEM-RUN: gs_memcpy_fixed grid=1 block=32 args=buf:i32:1100:rand buf:i32:16:zero i32:1000
__global__ void gs_memcpy_fixed(const int *in, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    memcpy(out, in + i, 16 * sizeof(int));
}

// Attacks: two items per slot (i >> 1): on a one-thread grid the odd item writes last.
// GMEM-EXPECT: gs_half_slot conditional
// GMEM-RUN: gs_half_slot grid=1 block=1 args=buf:f32:3000:rand buf:f32:1500:zero i32:3000
// GMEM-RUN: gs_half_slot grid=3 block=64 args=buf:f32:3000:rand buf:f32:1500:zero i32:3000
__global__ void gs_half_slot(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i >> 1] = in[i];
}

// Attacks: data-dependent scatter target with collisions (histogram-like "last writer").
// GMEM-EXPECT: gs_scatter_last conditional
// GMEM-RUN: gs_scatter_last grid=1 block=1 args=buf:i32:4000:randint:0:64 buf:i32:64:const:-1 i32:4000
// GMEM-RUN: gs_scatter_last grid=4 block=32 args=buf:i32:4000:randint:0:64 buf:i32:64:const:-1 i32:4000
// GMEM-RUN: gs_scatter_last grid=1 block=1 args=buf:i32:4100:randint:0:64 ptr:0+16000 i32:4000
__global__ void gs_scatter_last(const int *idx, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[idx[i]] = i;
}

// Attacks: slot per CTA row (blockIdx.y, which the x-regrid leaves alone) still collides in x.
// GMEM-EXPECT: gs_row_slot conditional
// GMEM-RUN: gs_row_slot grid=1,2 block=1 args=buf:f32:3000:rand buf:f32:2:zero i32:3000
// GMEM-RUN: gs_row_slot grid=2,3 block=32 args=buf:f32:3000:rand buf:f32:3:zero i32:3000
__global__ void gs_row_slot(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[blockIdx.y] = in[i] + (float)blockIdx.y;
}

// Attacks: 64-bit index, unsigned bound, threadIdx.x-indexed store.
// GMEM-EXPECT: gs_tid_slot64 conditional
// GMEM-RUN: gs_tid_slot64 grid=1 block=64 args=buf:i64:5000:rand buf:i64:64:zero u64:5000
// GMEM-RUN: gs_tid_slot64 grid=2 block=64 args=buf:i64:5000:rand buf:i64:64:zero u64:5000
__global__ void gs_tid_slot64(const long long *in, long long *out, unsigned long long n) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)blockDim.x * gridDim.x)
    out[threadIdx.x] = in[i] * 3;
}

// Attacks: item 0 also writes the last element (a fixed-index side store).
// GMEM-EXPECT: gs_head_writes_tail conditional
// GMEM-RUN: gs_head_writes_tail grid=1 block=1 args=buf:i32:1000:rand buf:i32:1000:zero i32:1000
// GMEM-RUN: gs_head_writes_tail grid=2 block=32 args=buf:i32:1000:rand buf:i32:1000:zero i32:1000
__global__ void gs_head_writes_tail(const int *in, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = in[i];
    if (i == 0)
      out[n - 1] = -1;
  }
}

// Attacks: lane-indexed slot (laneid is a "fixed" register for the proof).
// GMEM-EXPECT: gs_lane_slot conditional
// GMEM-RUN: gs_lane_slot grid=1 block=32 args=buf:f32:4000:rand buf:f32:32:zero i32:4000
// GMEM-RUN: gs_lane_slot grid=2 block=96 args=buf:f32:4000:rand buf:f32:32:zero i32:4000
__global__ void gs_lane_slot(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[threadIdx.x & 31] = in[i] * 2.0f;
}

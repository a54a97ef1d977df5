// Adversarial round 49: shared-memory staging sized by launch arguments
// (RUN lines cannot set dynamic shared memory, so extern __shared__ kernels
// check %dynamic_smem_size and fall back), global writes that depend on
// shared-memory contents, and uninitialised shared memory.

// Stage n floats per block, write them back reversed. n <= 1024.
// Truth: reads in[b*n, b*n+n), writes out[b*n + n-1-t] for t < n.
// GMEM-EXPECT: stage_reverse conditional
// GMEM-RUN: stage_reverse grid=2 block=256 args=buf:f32:2048:rand buf:f32:2048:zero i32:1000
// GMEM-RUN: stage_reverse grid=2 block=256 args=buf:f32:2048:rand ptr:0+0 i32:1000
// GMEM-RUN: stage_reverse grid=2 block=256 args=buf:f32:2048:rand ptr:0+4000 i32:500
__global__ void stage_reverse(const float *in, float *out, int n) {
  __shared__ float s[1024];
  int base = blockIdx.x * n;
  for (int t = threadIdx.x; t < n; t += blockDim.x) s[t] = in[base + t];
  __syncthreads();
  for (int t = threadIdx.x; t < n; t += blockDim.x) out[base + n - 1 - t] = s[t];
}

// In-place rotation by one inside each block's chunk (not idempotent).
// GMEM-EXPECT: stage_rotate_inplace non-idempotent
// GMEM-RUN: stage_rotate_inplace grid=2 block=128 args=buf:f32:512:rand i32:200
__global__ void stage_rotate_inplace(float *a, int n) {
  __shared__ float s[1024];
  int base = blockIdx.x * n;
  for (int t = threadIdx.x; t < n; t += blockDim.x) s[t] = a[base + t];
  __syncthreads();
  for (int t = threadIdx.x; t < n; t += blockDim.x) a[base + (t + 1) % n] = s[t];
}

// Staging covers only n elements but every thread writes s[t] out:
// threads t >= n copy uninitialised shared memory (garbage left by an earlier
// block or launch). Output of t >= n differs between runs.
// GMEM-EXPECT: stage_uninit_tail non-idempotent
// GMEM-RUN: stage_uninit_tail grid=1 block=256 args=buf:f32:256:rand buf:f32:256:zero i32:128
__global__ void stage_uninit_tail(const float *in, float *out, int n) {
  __shared__ float s[256];
  if (threadIdx.x < n) s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}

// Global write address read back from shared memory (data-dependent).
// Truth: out[idx[t] & 255] = in[t]; race when idx repeats.
// GMEM-EXPECT: smem_index_scatter conditional
// GMEM-RUN: smem_index_scatter grid=1 block=256 args=buf:i32:256:iota buf:f32:256:rand buf:f32:256:zero
// GMEM-RUN: smem_index_scatter grid=1 block=256 args=buf:i32:256:iota buf:f32:512:rand ptr:1+1024
__global__ void smem_index_scatter(const int *idx, const float *in, float *out) {
  __shared__ int s[256];
  s[threadIdx.x] = idx[threadIdx.x] & 255;
  __syncthreads();
  out[s[255 - threadIdx.x]] = in[threadIdx.x];
}

// extern __shared__ used only when the launch gave enough dynamic shared
// memory (%dynamic_smem_size); else copy directly.
// Truth (smem=0 at RUN): out[i] = in[i] * 2 for i < n.
// GMEM-EXPECT: dyn_smem_guarded conditional
// GMEM-RUN: dyn_smem_guarded grid=2 block=128 args=buf:f32:256:rand buf:f32:256:zero i32:256
// GMEM-RUN: dyn_smem_guarded grid=2 block=128 args=buf:f32:256:rand ptr:0+0 i32:256
__global__ void dyn_smem_guarded(const float *in, float *out, int n) {
  extern __shared__ float dyn[];
  unsigned bytes;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (bytes >= blockDim.x * sizeof(float)) {
    if (i < n) dyn[threadIdx.x] = in[i];
    __syncthreads();
    if (i < n) out[i] = dyn[blockDim.x - 1 - threadIdx.x] * 2.0f;
  } else if (i < n) {
    out[i] = in[i] * 2.0f;
  }
}

// Shared counter incremented by atomicAdd (result unused, order-free), then
// used as a global index: deterministic.
// Truth: out[count of positive in] = 1; reads in[0,N).
// GMEM-EXPECT: smem_count_index conditional
// GMEM-RUN: smem_count_index grid=1 block=128 args=buf:f32:128:rand buf:i32:129:zero
__global__ void smem_count_index(const float *in, int *out) {
  __shared__ int cnt;
  if (threadIdx.x == 0) cnt = 0;
  __syncthreads();
  if (in[threadIdx.x] > 0.f) atomicAdd(&cnt, 1);
  __syncthreads();
  if (threadIdx.x == 0) out[cnt] = 1;
}

// atomicCAS on a shared owner slot: the first arriving thread wins and its
// id is written out (order dependent).
// GMEM-EXPECT: smem_cas_owner non-idempotent
// GMEM-RUN: smem_cas_owner grid=1 block=128 args=buf:i32:1:zero
__global__ void smem_cas_owner(int *out) {
  __shared__ int owner;
  if (threadIdx.x == 0) owner = -1;
  __syncthreads();
  atomicCAS(&owner, -1, (int)threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = owner;
}

// Shared-memory histogram of a staged tile written back to global (counts
// via shared atomics, order free). Truth: reads in[0,N), writes hist[0,64).
// GMEM-EXPECT: smem_hist_store conditional
// GMEM-RUN: smem_hist_store grid=1 block=256 args=buf:i32:256:randint:0:64 buf:i32:64:zero
// GMEM-RUN: smem_hist_store grid=1 block=256 args=buf:i32:256:randint:0:64 ptr:0+0
__global__ void smem_hist_store(const int *in, int *hist) {
  __shared__ int h[64];
  if (threadIdx.x < 64) h[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&h[in[threadIdx.x] & 63], 1);
  __syncthreads();
  if (threadIdx.x < 64) hist[threadIdx.x] = h[threadIdx.x];
}

// A shared tile read at an index taken from another shared tile loaded from
// global (two-level gather staged in shared memory).
// Truth: reads perm[0,N), val[0,N); writes out[t] = val[perm[t]&127].
// GMEM-EXPECT: smem_two_level conditional
// GMEM-RUN: smem_two_level grid=1 block=128 args=buf:i32:128:randint:0:128 buf:f32:128:rand buf:f32:128:zero
// GMEM-RUN: smem_two_level grid=1 block=128 args=buf:i32:128:randint:0:128 buf:f32:128:rand ptr:1+0
__global__ void smem_two_level(const int *perm, const float *val, float *out) {
  __shared__ int p[128];
  __shared__ float v[128];
  p[threadIdx.x] = perm[threadIdx.x] & 127;
  v[threadIdx.x] = val[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = v[p[threadIdx.x]];
}

// Shared memory staged with a per-block stride from the launch (tile of
// blockDim floats starting at b*stride; stride may be < blockDim so tiles
// overlap across blocks). Truth: reads in[b*stride + t], writes out[same].
// GMEM-EXPECT: stage_stride_tiles conditional
// GMEM-RUN: stage_stride_tiles grid=4 block=64 args=buf:f32:512:rand buf:f32:512:zero i32:64
// GMEM-RUN: stage_stride_tiles grid=4 block=64 args=buf:f32:512:rand buf:f32:512:zero i32:32
// GMEM-RUN: stage_stride_tiles grid=4 block=64 args=buf:f32:512:rand ptr:0+1024 i32:64
__global__ void stage_stride_tiles(const float *in, float *out, int stride) {
  __shared__ float s[64];
  int base = blockIdx.x * stride;
  s[threadIdx.x] = in[base + threadIdx.x];
  __syncthreads();
  out[base + threadIdx.x] = s[(threadIdx.x + 1) & 63] + s[threadIdx.x];
}

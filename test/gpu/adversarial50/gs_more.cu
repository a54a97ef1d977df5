// Adversarial round 50: more grid-stride loops (flag GridStride) through
// templates, functors, lambdas, inlined device functions, 2D blocks and
// truncated indices; the flagged ones here collide in memory (two items
// write one location) so the result depends on the grid, or must be refused.

struct ModSlot {
  int m;
  __device__ int slot(int i) const { return i % m; }
  __device__ int operator()(int v) const { return v + m; }
};
// Attacks: templated kernel whose functor maps items to i % m (m from a kernel-side functor).
// GMEM-EXPECT: gs_functor_slot conditional
// GMEM-RUN: gs_functor_slot grid=2 block=64 args=buf:i32:5000:rand buf:i32:128:zero i32:5000 i32:128
// GMEM-RUN: gs_functor_slot grid=1 block=64 args=buf:i32:5000:rand buf:i32:128:zero i32:5000 i32:64
__global__ void gs_functor_slot(const int *in, int *out, int n, int m) {
  ModSlot op{m};
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[op.slot(i)] = op(in[i]);
}

// Attacks: lambda capturing a slot width, applied in the loop.
// GMEM-EXPECT: gs_lambda_slot conditional
// GMEM-RUN: gs_lambda_slot grid=2 block=32 args=buf:f32:4000:rand buf:f32:64:zero i32:4000
// GMEM-RUN: gs_lambda_slot grid=1 block=1 args=buf:f32:4000:rand buf:f32:64:zero i32:4000
__global__ void gs_lambda_slot(const float *in, float *out, int n) {
  auto put = [out](int i, float v) { out[i & 63] = v; };
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    put(i, in[i] * 0.5f);
}

__device__ __forceinline__ void gs_body_inline(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[threadIdx.x] = in[i] + 1.0f;
}
// Attacks: grid-stride loop in a force-inlined device function (threadIdx slot).
// GMEM-EXPECT: gs_inlined_fn conditional
// GMEM-RUN: gs_inlined_fn grid=1 block=64 args=buf:f32:5000:rand buf:f32:64:zero i32:5000
// GMEM-RUN: gs_inlined_fn grid=1 block=64 args=buf:f32:6000:rand ptr:0+20000 i32:5000
__global__ void gs_inlined_fn(const float *in, float *out, int n) { gs_body_inline(in, out, n); }

// Attacks: 2D block, slot chosen by threadIdx.y (a "fixed" coordinate) and the item's low bits.
// GMEM-EXPECT: gs_block2d_slot conditional
// GMEM-RUN: gs_block2d_slot grid=1 block=32,2 args=buf:i32:4000:rand buf:i32:64:zero i32:4000
// GMEM-RUN: gs_block2d_slot grid=2 block=32,2 args=buf:i32:4000:rand buf:i32:64:zero i32:4000
__global__ void gs_block2d_slot(const int *in, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[threadIdx.y * 32 + (i & 31)] = in[i] + (int)threadIdx.y;
}

// Attacks: index truncated to 16 bits (items i and i + 65536 collide; same thread on its grid).
// GMEM-EXPECT: gs_trunc16 conditional
// GMEM-RUN: gs_trunc16 grid=2 block=64 args=buf:u8:140000:rand buf:u8:65536:zero i32:140000
__global__ void gs_trunc16(const unsigned char *in, unsigned char *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[(unsigned short)i] = in[i];
}

// Attacks: every item memcpy's a fixed-size record to slot i/k (k items per slot).
// GMEM-EXPECT: gs_memcpy_record conditional
// GMEM-RUN: gs_memcpy_record grid=1 block=1 args=buf:i32:4096:rand buf:i32:1024:zero i32:1024 i32:4
// GMEM-RUN: gs_memcpy_record grid=2 block=32 args=buf:i32:4096:rand buf:i32:1024:zero i32:1024 i32:4
__global__ void gs_memcpy_record(const int *in, int *out, int n, int k) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    memcpy(out + (i / k) * 4, in + i * 4, 4 * sizeof(int));
}

// Attacks: per-item store of a value independent of i to a shared flag (benign collision: same value).
// GMEM-EXPECT: gs_flag_same_value conditional
// GMEM-RUN: gs_flag_same_value grid=2 block=64 args=buf:i32:3000:randint:0:5 buf:i32:1:zero i32:3000
__global__ void gs_flag_same_value(const int *a, int *flag, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    if (a[i] == 3)
      *flag = 1;
}

// Attacks: output written at i and at a mirrored index n-1-i (pairs of items collide).
// GMEM-EXPECT: gs_mirror_pair conditional
// GMEM-RUN: gs_mirror_pair grid=1 block=1 args=buf:f32:2000:rand buf:f32:2000:zero i32:2000
// GMEM-RUN: gs_mirror_pair grid=4 block=64 args=buf:f32:2000:rand buf:f32:2000:zero i32:2000
__global__ void gs_mirror_pair(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = in[i];
    out[n - 1 - i] = -in[i];
  }
}

// Attacks: memset of a whole window per item (later items clear earlier items' output).
// GMEM-EXPECT: gs_window_clear conditional
// GMEM-RUN: gs_window_clear grid=1 block=1 args=buf:i32:1024:rand buf:i32:1040:const:5 i32:1024 i32:16
// GMEM-RUN: gs_window_clear grid=2 block=32 args=buf:i32:1024:rand buf:i32:1040:const:5 i32:1024 i32:16
__global__ void gs_window_clear(const int *in, int *out, int n, int w) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    if (in[i] % 7 == 0)
      memset(out + i, 0, w * sizeof(int));
    else
      out[i] = in[i];
  }
}

template <int M>
__global__ void gs_tpl_slot(const int *in, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[M == 0 ? i : i % M] = in[i] * 3;
}
// Attacks: template instantiated with an injective slot (sound control).
// GMEM-EXPECT: gs_tpl_slot<0> conditional
// GMEM-RUN: gs_tpl_slot<0> grid=2 block=64 args=buf:i32:5000:rand buf:i32:5000:zero i32:5000
template __global__ void gs_tpl_slot<0>(const int *, int *, int);
// Attacks: same template with slot i % 64 (collisions inside one thread on a 64-thread grid).
// GMEM-EXPECT: gs_tpl_slot<64> conditional
// GMEM-RUN: gs_tpl_slot<64> grid=1 block=64 args=buf:i32:5000:rand buf:i32:64:zero i32:5000
// GMEM-RUN: gs_tpl_slot<64> grid=1 block=32 args=buf:i32:5000:rand buf:i32:64:zero i32:5000
template __global__ void gs_tpl_slot<64>(const int *, int *, int);

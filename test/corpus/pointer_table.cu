// Writes through pointers loaded from memory: a batched kernel taking an
// array of per-batch pointers (cuBLAS *Batched style, null entries skipped),
// variable-length segments described by structs holding a pointer, and a
// staging buffer reached through a __device__ pointer variable.

// ys[b][i] = alpha * xs[b][i] for every batch entry b with both pointers set.
// GMEM-EXPECT: batched_scale unknown
// GMEM-RUN: batched_scale grid=4,16 block=256 args=buf:u64:16:zero buf:u64:16:zero f32:2.0 i32:1024 i32:16
__global__ void batched_scale(const float *const *xs, float *const *ys, float alpha, int len, int nbatch) {
  int b = blockIdx.y;
  if (b >= nbatch) return;
  const float *x = xs[b];
  float *y = ys[b];
  if (x == nullptr || y == nullptr) return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < len; i += blockDim.x * gridDim.x)
    y[i] = alpha * x[i];
}

struct Segment {
  float *data;
  int len;
  int tag;
};

// GMEM-EXPECT: fill_segments unknown
// GMEM-RUN: fill_segments grid=32 block=128 args=buf:u64:64:zero i32:32 f32:1.0
__global__ void fill_segments(const Segment *segs, int nseg, float value) {
  int s = blockIdx.x;
  if (s >= nseg) return;
  Segment seg = segs[s];
  for (int i = threadIdx.x; i < seg.len; i += blockDim.x)
    seg.data[i] = value + (float)seg.tag;
}

__device__ float g_staging[65536];
__device__ float *g_staging_ptr = g_staging;

// GMEM-EXPECT: stage_via_global_ptr unknown
// GMEM-RUN: stage_via_global_ptr grid=256 block=256 args=buf:f32:65536:rand f32:0.5 i32:65536
__global__ void stage_via_global_ptr(const float *in, float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) g_staging_ptr[i] = in[i] * scale;
}

// Warp-level primitives: vote, shuffle butterflies, match, shaped after
// CUB/thrust copy_if (stream compaction), warp-aggregated atomics and
// warp-synchronous reductions.

// Keeps the positive elements of in, order within a warp preserved; one
// atomicAdd per warp reserves the output slots.
// GMEM-EXPECT: stream_compact non-idempotent
// GMEM-RUN: stream_compact grid=64 block=256 args=buf:f32:16384:rand buf:f32:16384:zero buf:i32:1:zero i32:16384
__global__ void stream_compact(const float *in, float *out, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  bool keep = i < n && in[i] > 0.0f;
  unsigned mask = __ballot_sync(0xffffffffu, keep);
  int base = 0;
  if (lane == 0 && mask)
    base = atomicAdd(count, __popc(mask));
  base = __shfl_sync(0xffffffffu, base, 0);
  if (keep)
    out[base + __popc(mask & ((1u << lane) - 1))] = in[i];
}

// flags[w] = which lanes of warp w hold a positive value.
// GMEM-EXPECT: warp_vote_flags conditional
// GMEM-RUN: warp_vote_flags grid=32 block=128 args=buf:f32:4096:rand buf:u32:128:zero i32:4096
__global__ void warp_vote_flags(const float *x, unsigned *flags, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned m = __ballot_sync(0xffffffffu, i < n && x[i] > 0.0f);
  if ((threadIdx.x & 31) == 0 && i < n)
    flags[i >> 5] = m;
}

// y[w] = sum of the 32 elements of warp w (xor butterfly, every lane ends
// with the sum; __syncwarp before lane 0 writes).
// GMEM-EXPECT: warp_butterfly_sum conditional
// GMEM-RUN: warp_butterfly_sum grid=16 block=256 args=buf:f32:4096:rand buf:f32:128:zero i32:4096
__global__ void warp_butterfly_sum(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? x[i] : 0.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  __syncwarp();
  if ((threadIdx.x & 31) == 0 && i < n)
    y[i >> 5] = v;
}

// Warp-aggregated histogram: lanes holding the same key elect a leader
// (__match_any_sync), which adds the group's size.
// GMEM-EXPECT: match_any_histogram non-idempotent
// GMEM-RUN: match_any_histogram grid=64 block=256 args=buf:i32:16384:randint:0:64 buf:i32:64:zero i32:16384
__global__ void match_any_histogram(const int *keys, int *counts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  int key = i < n ? keys[i] : -1;
  unsigned group = __match_any_sync(0xffffffffu, key);
  int leader = __ffs(group) - 1;
  if (key >= 0 && lane == leader)
    atomicAdd(&counts[key], __popc(group));
}

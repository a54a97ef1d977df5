// Shapes the covered-load rule should accept (idempotent when inputs and
// outputs are apart), plus nested-loop variants.

// GMEM-EXPECT: pr_layernorm conditional
// GMEM-RUN: pr_layernorm grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100
// GMEM-RUN: pr_layernorm grid=2 block=32 args=buf:f32:256:rand ptr:0+0 i32:100
__global__ void pr_layernorm(const float *x, float *y, int C) {
  const float *xr = x + blockIdx.x * C;
  float *yr = y + blockIdx.x * C;
  float s = 0.f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    float v = xr[c] * 0.5f;
    yr[c] = v;
    s += v;
  }
  float mean = s / C;
  float q = 0.f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    float d = yr[c] - mean;
    q += d * d;
  }
  float inv = 1.0f / sqrtf(q / C + 1e-5f);
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    yr[c] = (yr[c] - mean) * inv;
}

// GMEM-EXPECT: pr_residual conditional
// GMEM-RUN: pr_residual grid=2 block=32 args=buf:f32:64:rand buf:f32:64:rand buf:f32:64:rand f32:0.5
// GMEM-RUN: pr_residual grid=2 block=32 args=buf:f32:64:rand buf:f32:64:rand ptr:0+0 f32:0.5
__global__ void pr_residual(const float *a, const float *b, float *out, float g) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = a[i] + b[i];
  __syncthreads();
  out[i] = out[i] * g + out[i];
}

// Same guard, a barrier between the loops.
// GMEM-EXPECT: pr_guard_barrier conditional
// GMEM-RUN: pr_guard_barrier grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100
// GMEM-RUN: pr_guard_barrier grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:0
__global__ void pr_guard_barrier(const float *a, float *out, int C) {
  float *row = out + blockIdx.x * 128;
  int c0 = threadIdx.x;
  if (c0 < C) {
    for (int c = c0; c < C; c += blockDim.x)
      row[c] = a[c];
    for (int c = c0; c < C; c += blockDim.x)
      row[c] = row[c] + 1.0f;
  }
}

// L2 does fewer fixed trips than L1.
// GMEM-EXPECT: pr_fewer_trips conditional
// GMEM-RUN: pr_fewer_trips grid=2 block=32 args=buf:f32:1024:rand buf:f32:1024:rand
__global__ void pr_fewer_trips(const float *a, float *out) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  for (int k = 0; k < 8; ++k)
    out[base + k] = a[base + k];
  __syncthreads();
  for (int k = 0; k < 5; ++k)
    out[base + k] = out[base + k] * 3.0f;
}

// float4 stored in L1, one component read in L2.
// GMEM-EXPECT: pr_vec_component conditional
// GMEM-RUN: pr_vec_component grid=1 block=32 args=buf:f32:2048:rand buf:f32:2048:rand i32:10
__global__ void pr_vec_component(const float *a, float *out, int n) {
  float4 *row = (float4 *)(out + threadIdx.x * 64);
  for (int k = 0; k < n; ++k)
    row[k] = make_float4(a[k], a[k] + 1.f, a[k] + 2.f, a[k] + 3.f);
  float *f = (float *)row;
  for (int k = 0; k < n; ++k)
    f[4 * k + 1] = f[4 * k + 1] * 2.0f;
}

// Two stores per iteration; L2 reads the second.
// GMEM-EXPECT: pr_two_stores conditional
// GMEM-RUN: pr_two_stores grid=1 block=32 args=buf:f32:2048:rand buf:f32:2048:rand i32:16
__global__ void pr_two_stores(const float *a, float *out, int n) {
  float *row = out + threadIdx.x * 64;
  for (int k = 0; k < n; ++k) {
    row[2 * k] = a[k];
    row[2 * k + 1] = -a[k];
  }
  for (int k = 0; k < n; ++k)
    row[2 * k + 1] = row[2 * k + 1] + row[2 * k];
}

// Straight-line store, loop of loads at that one address.
// GMEM-EXPECT: pr_loop_invariant_load conditional
// GMEM-RUN: pr_loop_invariant_load grid=1 block=32 args=buf:f32:64:rand buf:f32:64:rand i32:5
__global__ void pr_loop_invariant_load(const float *a, float *out, int n) {
  int i = threadIdx.x;
  out[i] = a[i];
  float s = 0.f;
  for (int k = 0; k < n; ++k)
    s += out[i] * (float)k;
  out[i + 32] = s;
}

// Reverse L1, forward L2 (same bytes, different iteration order).
// GMEM-EXPECT: pr_reverse conditional
// GMEM-RUN: pr_reverse grid=1 block=32 args=buf:f32:1024:rand buf:f32:1024:rand
__global__ void pr_reverse(const float *a, float *out) {
  float *row = out + threadIdx.x * 32;
  for (int k = 15; k >= 0; --k)
    row[k] = a[k];
  for (int k = 0; k < 16; ++k)
    row[k] = row[k] * 2.0f;
}

// Rows per thread in an outer loop, softmax-like pair inside.
// GMEM-EXPECT: pr_outer_rows conditional
// GMEM-RUN: pr_outer_rows grid=1 block=32 args=buf:f32:4096:rand buf:f32:4096:rand i32:4 i32:16
__global__ void pr_outer_rows(const float *a, float *out, int R, int C) {
  for (int r = 0; r < R; ++r) {
    float *row = out + (threadIdx.x * R + r) * C;
    const float *ar = a + (threadIdx.x * R + r) * C;
    float s = 0.f;
    for (int c = 0; c < C; ++c) {
      row[c] = expf(ar[c]);
      s += row[c];
    }
    for (int c = 0; c < C; ++c)
      row[c] = row[c] / s;
  }
}

// if/else before the store in L1, both paths store after the merge.
// GMEM-EXPECT: pr_merge_store conditional
// GMEM-RUN: pr_merge_store grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100
__global__ void pr_merge_store(const float *a, float *out, int C) {
  float *row = out + blockIdx.x * C;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    float v = a[c];
    if (v < 0.f) v = -v; else v = v * 0.5f;
    row[c] = v;
  }
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = sqrtf(row[c]);
}

// Inner loop in L1 with a fixed trip count storing every element.
// GMEM-EXPECT: pr_inner_full conditional
// GMEM-RUN: pr_inner_full grid=1 block=32 args=buf:f32:2048:rand buf:f32:2048:rand
__global__ void pr_inner_full(const float *a, float *out) {
  float *row = out + threadIdx.x * 64;
  for (int k = 0; k < 8; ++k)
    for (int j = 0; j < 4; ++j)
      row[4 * k + j] = a[4 * k + j];
  for (int k = 0; k < 8; ++k)
    for (int j = 0; j < 4; ++j)
      row[4 * k + j] = row[4 * k + j] + 1.0f;
}

// Grid-stride pair over the whole array.
// GMEM-EXPECT: pr_gridstride_pair conditional
// GMEM-RUN: pr_gridstride_pair grid=2 block=32 args=buf:f32:300:rand buf:f32:300:rand i32:300
__global__ void pr_gridstride_pair(const float *a, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = a[i] * a[i];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = out[i] + 1.0f;
}

// Warp-shuffle reduction between the loops (value only).
// GMEM-EXPECT: pr_shfl_between conditional
// GMEM-RUN: pr_shfl_between grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100
__global__ void pr_shfl_between(const float *a, float *out, int C) {
  float *row = out + blockIdx.x * C;
  float m = -1e30f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    row[c] = a[blockIdx.x * C + c];
    m = fmaxf(m, row[c]);
  }
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = row[c] - m;
}

// Shared-memory staging: the global row is written, re-read after a barrier.
// GMEM-EXPECT: pr_shared_stage conditional
// GMEM-RUN: pr_shared_stage grid=2 block=32 args=buf:f32:64:rand buf:f32:64:rand
__global__ void pr_shared_stage(const float *a, float *out) {
  __shared__ float sm[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sm[threadIdx.x] = a[i];
  __syncthreads();
  out[i] = sm[31 - threadIdx.x];
  __syncthreads();
  out[i] = out[i] + sm[threadIdx.x];
}

// Nested: L1 / L2 inside an outer loop; L2's load at the outer index of the
// previous outer iteration (not stored in this one).
// GMEM-EXPECT: pr_outer_prev_row non-idempotent
// GMEM-RUN: pr_outer_prev_row grid=1 block=32 args=buf:f32:4096:rand buf:f32:4096:rand i32:4
__global__ void pr_outer_prev_row(const float *a, float *out, int R) {
  float *base = out + threadIdx.x * 128;
  for (int r = 1; r < R; ++r) {
    for (int c = 0; c < 8; ++c)
      base[r * 8 + c] = a[c] + (float)r;
    for (int c = 0; c < 8; ++c)
      base[r * 8 + c] = base[r * 8 + c] + base[(r - 1) * 8 + c];
  }
}

// Adversarial corpus (session 54): out-of-place kernels called in place
// (the alias pair rule, KernelAnalysis.cpp AliasOk; InstanceCheck.h
// launchAlias). Offsets between the two pointers, shifted and neighbour
// reads, reversal, swaps, transposes, gathers, stencils, widths and casts,
// three equal pointers, a third pointer overlapping part, null, pointers
// into the middle of one allocation, templates, __restrict__, shared-memory
// staging, warp shuffles, reductions. Each kernel is conditional (reads one
// parameter, writes another); the aliasing RUN lines are the attack.
// Expectations: the author's view.

// In place idempotent (accepted); one element or one byte off is a shift.
// GMEM-EXPECT: as_relu conditional
// GMEM-RUN: as_relu grid=4 block=256 args=buf:f32:1024:rand buf:f32:1024:zero i32:1024
// GMEM-RUN: as_relu grid=4 block=256 args=buf:f32:1025:rand ptr:0+0 i32:1024
// GMEM-RUN: as_relu grid=4 block=256 args=buf:f32:1025:rand ptr:0+4 i32:1024
// GMEM-RUN: as_relu grid=4 block=256 args=buf:f32:1100:rand ptr:0+256 i32:1024
__global__ void as_relu(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fmaxf(x[i], 0.f);
}

// Bytes: one byte off is a shift by one element.
// GMEM-EXPECT: as_bytes_or conditional
// GMEM-RUN: as_bytes_or grid=1 block=256 args=buf:u8:257:randint:0:100 ptr:0+0 i32:256
// GMEM-RUN: as_bytes_or grid=1 block=256 args=buf:u8:257:randint:0:100 ptr:0+1 i32:256
__global__ void as_bytes_or(const unsigned char *x, unsigned char *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = x[i] | 1;
}

// Not idempotent maps in place: scale, +1.
// GMEM-EXPECT: as_scale2 conditional
// GMEM-RUN: as_scale2 grid=4 block=256 args=buf:f32:1024:rand ptr:0+0 i32:1024
__global__ void as_scale2(const float *x, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.f * x[i];
}

// GMEM-EXPECT: as_plus1 conditional
// GMEM-RUN: as_plus1 grid=4 block=256 args=buf:i32:1024:iota ptr:0+0 i32:1024
__global__ void as_plus1(const int *x, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = x[i] + 1;
}

// Shifted read, neighbour read, reversal, pair swap.
// GMEM-EXPECT: as_shift_copy conditional
// GMEM-RUN: as_shift_copy grid=1 block=255 args=buf:i32:256:iota ptr:0+0 i32:256
__global__ void as_shift_copy(const int *x, int *out, int n) {
  int i = threadIdx.x;
  if (i + 1 < n) out[i] = x[i + 1];
}

// GMEM-EXPECT: as_neighbour_max conditional
// GMEM-RUN: as_neighbour_max grid=1 block=256 args=buf:f32:256:rand ptr:0+0 i32:256
__global__ void as_neighbour_max(const float *x, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = fmaxf(x[i], i > 0 ? x[i - 1] : 0.f);
}

// GMEM-EXPECT: as_reverse conditional
// GMEM-RUN: as_reverse grid=1 block=256 args=buf:f32:256:rand ptr:0+0 i32:256
__global__ void as_reverse(const float *x, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = fmaxf(x[n - 1 - i], 0.f);
}

// GMEM-EXPECT: as_pair_swap conditional
// GMEM-RUN: as_pair_swap grid=1 block=128 args=buf:f32:256:rand ptr:0+0
__global__ void as_pair_swap(const float *x, float *out) {
  int i = threadIdx.x;
  out[2 * i] = x[2 * i + 1];
  out[2 * i + 1] = x[2 * i];
}

// Square transpose (a swap of mirror elements in place).
// GMEM-EXPECT: as_transpose conditional
// GMEM-RUN: as_transpose grid=1 block=16,16 args=buf:f32:256:rand ptr:0+0 i32:16
__global__ void as_transpose(const float *x, float *out, int w) {
  int r = threadIdx.y, c = threadIdx.x;
  out[c * w + r] = fmaxf(x[r * w + c], 0.f);
}

// Gather through an index table (iota: the identity, idempotent in place;
// random: not).
// GMEM-EXPECT: as_gather conditional
// GMEM-RUN: as_gather grid=1 block=256 args=buf:f32:256:rand ptr:0+0 buf:i32:256:iota
// GMEM-RUN: as_gather grid=1 block=256 args=buf:f32:256:rand ptr:0+0 buf:i32:256:randint:0:256
__global__ void as_gather(const float *x, float *out, const int *idx) {
  int i = threadIdx.x;
  out[i] = fmaxf(x[idx[i]], 0.f);
}

// Three-point stencil.
// GMEM-EXPECT: as_stencil conditional
// GMEM-RUN: as_stencil grid=1 block=254 args=buf:f32:256:rand ptr:0+0
__global__ void as_stencil(const float *x, float *out) {
  int i = threadIdx.x + 1;
  out[i] = fmaxf(fmaxf(x[i - 1], x[i]), x[i + 1]);
}

// float4 loads, scalar stores (same bytes, other widths).
// GMEM-EXPECT: as_vec4_scalar conditional
// GMEM-RUN: as_vec4_scalar grid=1 block=64 args=buf:f32:256:rand ptr:0+0
// GMEM-RUN: as_vec4_scalar grid=1 block=64 args=buf:f32:260:rand ptr:0+4
__global__ void as_vec4_scalar(const float4 *x, float *out) {
  int i = threadIdx.x;
  float4 v = x[i];
  out[4 * i + 0] = fmaxf(v.x, 0.f);
  out[4 * i + 1] = fmaxf(v.y, 0.f);
  out[4 * i + 2] = fmaxf(v.z, 0.f);
  out[4 * i + 3] = fmaxf(v.w, 0.f);
}

// Lane swap inside a float2 (in place: swapped again).
// GMEM-EXPECT: as_float2_swap conditional
// GMEM-RUN: as_float2_swap grid=1 block=128 args=buf:f32:256:rand ptr:0+0
__global__ void as_float2_swap(const float2 *x, float2 *out) {
  int i = threadIdx.x;
  float2 v = x[i];
  out[i] = make_float2(v.y, v.x);
}

// Reinterpretation: reads float bits as int and clears the sign (idempotent
// in place); reads int as float and stores a float of it (not the same map).
// GMEM-EXPECT: as_bits_abs conditional
// GMEM-RUN: as_bits_abs grid=1 block=256 args=buf:f32:256:rand ptr:0+0
__global__ void as_bits_abs(const float *x, int *out) {
  int i = threadIdx.x;
  out[i] = __float_as_int(x[i]) & 0x7fffffff;
}

// GMEM-EXPECT: as_int_to_float conditional
// GMEM-RUN: as_int_to_float grid=1 block=256 args=buf:i32:256:iota ptr:0+0
__global__ void as_int_to_float(const int *x, float *out) {
  int i = threadIdx.x;
  out[i] = (float)x[i];
}

// Narrower writes over wider reads: out is short, x int (2i vs 4i).
// GMEM-EXPECT: as_narrow conditional
// GMEM-RUN: as_narrow grid=1 block=256 args=buf:i32:256:iota ptr:0+0
__global__ void as_narrow(const int *x, short *out) {
  int i = threadIdx.x;
  out[i] = (short)max(x[i], 0);
}

// a == b == out (two coincidences) and a == out with b partly over out.
// GMEM-EXPECT: as_max3 conditional
// GMEM-RUN: as_max3 grid=1 block=256 args=buf:f32:256:rand ptr:0+0 ptr:0+0
// GMEM-RUN: as_max3 grid=1 block=256 args=buf:f32:300:rand buf:f32:256:rand ptr:0+0
// GMEM-RUN: as_max3 grid=1 block=256 args=buf:f32:300:rand ptr:0+16 ptr:0+0
__global__ void as_max3(const float *a, const float *b, float *out) {
  int i = threadIdx.x;
  out[i] = fmaxf(a[i], b[i]);
}

// Optional bias, null; the mask placed over the pair at an offset.
// GMEM-EXPECT: as_bias_opt conditional
// GMEM-RUN: as_bias_opt grid=1 block=256 args=buf:f32:256:rand ptr:0+0 null
// GMEM-RUN: as_bias_opt grid=1 block=256 args=buf:f32:300:rand ptr:0+0 ptr:0+8
__global__ void as_bias_opt(const float *x, float *out, const float *bias) {
  int i = threadIdx.x;
  float lo = bias ? bias[i] : 0.f;
  out[i] = fmaxf(x[i], lo);
}

// Both pointers in the middle of one allocation (base is only the
// allocation); the kernel also reads behind them (x[i - back]), which
// lower threads write in place.
// GMEM-EXPECT: as_mid_behind conditional
// GMEM-RUN: as_mid_behind grid=1 block=256 args=buf:f32:1024:rand ptr:0+1024 ptr:0+1024 i32:64
// GMEM-RUN: as_mid_behind grid=1 block=256 args=buf:f32:1024:rand ptr:0+1024 ptr:0+1024 i32:0
__global__ void as_mid_behind(const float *base, const float *x, float *out, int back) {
  int i = threadIdx.x;
  out[i] = fmaxf(x[i], 0.f) + (i >= back ? 0.f * x[i - back] : 0.f) + 0.f * base[0];
}

template <typename T>
__global__ void as_tmpl_clamp(const T *x, T *out, T lo, T hi) {
  int i = threadIdx.x;
  T v = x[i];
  out[i] = v < lo ? lo : (v > hi ? hi : v);
}
template __global__ void as_tmpl_clamp<int>(const int *, int *, int, int);
// GMEM-EXPECT: as_tmpl_clamp<int> conditional
// GMEM-RUN: as_tmpl_clamp<int> grid=1 block=256 args=buf:i32:256:randint:0:100 ptr:0+0 i32:10 i32:50
// GMEM-RUN: as_tmpl_clamp<int> grid=1 block=256 args=buf:i32:256:randint:0:100 ptr:0+0 i32:50 i32:10

// __restrict__ on both and aliased at the launch (UB by the language; the
// machine code still does load-then-store per thread).
// GMEM-EXPECT: as_restrict_relu conditional
// GMEM-RUN: as_restrict_relu grid=1 block=256 args=buf:f32:256:rand ptr:0+0
__global__ void as_restrict_relu(const float *__restrict__ x, float *__restrict__ out) {
  int i = threadIdx.x;
  out[i] = fmaxf(x[i], 0.f);
  out[i + 0] = fmaxf(x[i], 0.f);
}

// Shared staging: the tile element of the neighbour.
// GMEM-EXPECT: as_smem_neighbour conditional
// GMEM-RUN: as_smem_neighbour grid=1 block=256 args=buf:f32:256:rand ptr:0+0
__global__ void as_smem_neighbour(const float *x, float *out) {
  __shared__ float t[256];
  int i = threadIdx.x;
  t[i] = x[i];
  __syncthreads();
  out[i] = fmaxf(t[i ^ 1], 0.f);
}

// Shared staging of the thread's own element (idempotent in place).
// GMEM-EXPECT: as_smem_own conditional
// GMEM-RUN: as_smem_own grid=1 block=256 args=buf:f32:256:rand ptr:0+0
__global__ void as_smem_own(const float *x, float *out) {
  __shared__ float t[256];
  int i = threadIdx.x;
  t[i] = x[i];
  __syncthreads();
  out[i] = fmaxf(t[i], 0.f);
}

// Warp shuffle of the neighbour's value.
// GMEM-EXPECT: as_shfl_xor conditional
// GMEM-RUN: as_shfl_xor grid=1 block=256 args=buf:f32:256:rand ptr:0+0
__global__ void as_shfl_xor(const float *x, float *out) {
  int i = threadIdx.x;
  float v = x[i];
  out[i] = fmaxf(__shfl_xor_sync(0xffffffffu, v, 1), 0.f);
}

// A block reduction written over the input's first element.
// GMEM-EXPECT: as_reduce_first conditional
// GMEM-RUN: as_reduce_first grid=1 block=256 args=buf:f32:256:rand ptr:0+0
__global__ void as_reduce_first(const float *x, float *out) {
  __shared__ float s[256];
  int i = threadIdx.x;
  s[i] = x[i];
  __syncthreads();
  for (int k = 128; k > 0; k >>= 1) {
    if (i < k) s[i] += s[i + k];
    __syncthreads();
  }
  if (i == 0) out[0] = s[0];
}

// Grid-stride relu (idempotent in place) and a grid-stride shift.
// GMEM-EXPECT: as_gs_relu conditional
// GMEM-RUN: as_gs_relu grid=2 block=64 args=buf:f32:1000:rand ptr:0+0 i32:1000
__global__ void as_gs_relu(const float *x, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = fmaxf(x[i], 0.f);
}

// GMEM-EXPECT: as_gs_shift conditional
// GMEM-RUN: as_gs_shift grid=2 block=64 args=buf:f32:1001:rand ptr:0+0 i32:1000
__global__ void as_gs_shift(const float *x, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = fmaxf(x[i + 1], 0.f);
}

// Rows in a loop (checkpoints); row r+1 reads the row r the loop wrote.
// GMEM-EXPECT: as_rows_prev conditional
// GMEM-RUN: as_rows_prev grid=1 block=64 args=buf:f32:1024:rand ptr:0+0 i32:16
__global__ void as_rows_prev(const float *x, float *out, int rows) {
  int c = threadIdx.x;
  for (int r = 0; r < rows; ++r)
    out[r * 64 + c] = fmaxf(x[r * 64 + c], r > 0 ? x[(r - 1) * 64 + c] : 0.f);
}

// 32-bit index that wraps: j = (unsigned short)(i * 257).
// GMEM-EXPECT: as_u16_index conditional
// GMEM-RUN: as_u16_index grid=1 block=256 args=buf:f32:65536:rand ptr:0+0
__global__ void as_u16_index(const float *x, float *out) {
  int i = threadIdx.x;
  unsigned short j = (unsigned short)(i * 257u);
  out[j] = fmaxf(x[i], 0.f);
}

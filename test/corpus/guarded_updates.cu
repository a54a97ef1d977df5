// In-place updates through branches on the loaded value (session 54):
// saturations written as if / else-if (OpenCV's saturate_cast done by
// hand, a histogram bin capped, a NaN replaced), whose stores LLVM merges
// into one block storing a phi; and maps that differ by thread but compose
// (session 55): a max with the thread's own operand where threads share an
// element, per-channel clamps, a mask broadcast over a group. Near misses
// are not idempotent: a swap of two values, a chain that moves an outcome
// on, bounds from arguments (lo > hi), keys per thread (0 -> 1 -> 2).

// GMEM-EXPECT: gu_sat_u8 idempotent
// GMEM-RUN: gu_sat_u8 grid=16 block=256 args=buf:i32:4096:randint:-300:600 i32:4096
__global__ void gu_sat_u8(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 0)
      v[i] = 0;
    else if (x > 255)
      v[i] = 255;
  }
}

// GMEM-EXPECT: gu_nan_and_cap idempotent
// GMEM-RUN: gu_nan_and_cap grid=16 block=256 args=buf:f32:4096:rand i32:4096
__global__ void gu_nan_and_cap(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = v[i];
    if (x != x)
      v[i] = 0.f;
    else if (x > 0.5f)
      v[i] = 0.5f;
  }
}

// GMEM-EXPECT: gu_clamp_arms idempotent
// GMEM-RUN: gu_clamp_arms grid=16 block=256 args=buf:i32:4096:randint:-20:20 i32:4096
__global__ void gu_clamp_arms(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    int y;
    if (x < -8)
      y = -8;
    else if (x > 8)
      y = 8;
    else
      y = x;
    v[i] = y;
  }
}

// GMEM-EXPECT: gu_sat_grid_stride idempotent
// GMEM-RUN: gu_sat_grid_stride grid=4 block=128 args=buf:i32:4096:randint:-300:600 i32:4096
__global__ void gu_sat_grid_stride(int *v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int x = v[i];
    if (x < 0)
      v[i] = 0;
    else if (x > 255)
      v[i] = 255;
  }
}

// GMEM-EXPECT: gu_swap_01 non-idempotent
// GMEM-RUN: gu_swap_01 grid=16 block=256 args=buf:i32:4096:randint:0:3 i32:4096
__global__ void gu_swap_01(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x == 0)
      v[i] = 1;
    else if (x == 1)
      v[i] = 0;
  }
}

// GMEM-EXPECT: gu_moves_on non-idempotent
// GMEM-RUN: gu_moves_on grid=16 block=256 args=buf:i32:4096:randint:-5:15 i32:4096
__global__ void gu_moves_on(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 0)
      v[i] = 5;
    else if (x < 10)
      v[i] = 20;
  }
}

// GMEM-EXPECT: gu_sat_args non-idempotent
// GMEM-RUN: gu_sat_args grid=16 block=256 args=buf:f32:4096:rand f32:0.75 f32:0.25 i32:4096
__global__ void gu_sat_args(float *v, float lo, float hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = v[i];
    if (x < lo)
      v[i] = lo;
    else if (x > hi)
      v[i] = hi;
  }
}

// Two threads per element, each raising it to its own floor, one after
// the other (a barrier between the phases).
// GMEM-EXPECT: gu_shared_floor idempotent
// GMEM-RUN: gu_shared_floor grid=1 block=256 args=buf:i32:128:randint:0:300
__global__ void gu_shared_floor(int *x) {
  int t = threadIdx.x;
  int j = t >> 1;
#pragma unroll 1
  for (int s = 0; s < 2; ++s) {
    if ((t & 1) == s)
      x[j] = max(x[j], t);
    __syncthreads();
  }
}

// GMEM-EXPECT: gu_channel_clamp conditional
// GMEM-RUN: gu_channel_clamp grid=16 block=256 args=buf:f32:4096:rand buf:f32:16:rand buf:f32:16:rand i32:4096 i32:256
__global__ void gu_channel_clamp(float *x, const float *lo, const float *hi, int n, int hw) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int c = i / hw;
    x[i] = fminf(fmaxf(x[i], lo[c]), hi[c]);
  }
}

// A mask per thread over pairs of threads, filled in two phases.
// GMEM-EXPECT: gu_group_fill conditional
// GMEM-RUN: gu_group_fill grid=1 block=256 args=buf:f32:128:rand buf:u8:256:randint:0:2 f32:-1
__global__ void gu_group_fill(float *x, const unsigned char *m, float v) {
  int t = threadIdx.x;
  int j = t >> 1;
#pragma unroll 1
  for (int s = 0; s < 2; ++s) {
    if ((t & 1) == s)
      x[j] = m[t] ? v : x[j];
    __syncthreads();
  }
}

// Keys per thread: odd threads (key j + 1) act first and find nothing,
// even ones then store j + 1; run again, the odd ones move it to j + 2.
// GMEM-EXPECT: gu_pair_key non-idempotent
// GMEM-RUN: gu_pair_key grid=1 block=256 args=buf:i32:128:iota
__global__ void gu_pair_key(int *x) {
  int t = threadIdx.x;
  int j = t >> 1;
  int key = t - j;
#pragma unroll 1
  for (int s = 0; s < 2; ++s) {
    if ((t & 1) != s && x[j] == key)
      x[j] = key + 1;
    __syncthreads();
  }
}

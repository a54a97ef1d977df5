// In-place elementwise updates by idempotent functions (session 52;
// passes/include/gmem/passes/IdempotentUpdates.h): PyTorch-style relu_,
// clamp_ / hardtanh_, threshold_, abs_, floor_, a histogram saturated in
// place, a bit mask applied to flags, Rodinia-style BFS level marking, and
// a grid-stride ReLU. Run again on its own output, each stores what it
// stored. The last kernels are the near misses that are not idempotent
// (a scale, a leaky ReLU's negative slope, a replacement that undoes
// another, a threshold per thread).

// GMEM-EXPECT: iu_relu idempotent
// GMEM-RUN: iu_relu grid=16 block=256 args=buf:f32:4096:rand i32:4096
__global__ void iu_relu(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = fmaxf(x[i], 0.f);
}

// GMEM-EXPECT: iu_relu_select idempotent
// GMEM-RUN: iu_relu_select grid=16 block=256 args=buf:f32:4096:rand i32:4096
__global__ void iu_relu_select(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    x[i] = v <= 0.f ? 0.f : v;
  }
}

// GMEM-EXPECT: iu_hardtanh idempotent
// GMEM-RUN: iu_hardtanh grid=16 block=256 args=buf:f32:4096:rand f32:-0.5 f32:0.25 i32:4096
// GMEM-RUN: iu_hardtanh grid=16 block=256 args=buf:f32:4096:rand f32:0.5 f32:-0.25 i32:4096
__global__ void iu_hardtanh(float *x, float lo, float hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = fminf(fmaxf(x[i], lo), hi);
}

// GMEM-EXPECT: iu_threshold idempotent
// GMEM-RUN: iu_threshold grid=16 block=256 args=buf:f32:4096:rand f32:0.1 f32:-7.0 i32:4096
__global__ void iu_threshold(float *x, float threshold, float value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    x[i] = v <= threshold ? value : v;
  }
}

// GMEM-EXPECT: iu_abs_floor conditional
// GMEM-RUN: iu_abs_floor grid=8 block=256 args=buf:f32:2048:rand buf:f64:2048:rand i32:2048
__global__ void iu_abs_floor(float *a, double *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i] = fabsf(a[i]);
    b[i] = floor(b[i] * 1.0);
  }
}

// GMEM-EXPECT: iu_saturate_hist idempotent
// GMEM-RUN: iu_saturate_hist grid=4 block=256 args=buf:i32:1024:randint:0:400 i32:255 i32:1024
__global__ void iu_saturate_hist(int *h, int cap, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && h[i] > cap)
    h[i] = cap;
}

// GMEM-EXPECT: iu_mask_flags idempotent
// GMEM-RUN: iu_mask_flags grid=4 block=256 args=buf:u32:1024:randint:0:100000 u32:4095 i32:1024
__global__ void iu_mask_flags(unsigned *f, unsigned keep, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f[i] = (f[i] & keep) | 0x10000u;
}

// A BFS step: every unvisited vertex of the frontier gets the next level
// (several frontier entries may name one vertex: they store the same value).
// GMEM-EXPECT: iu_bfs_mark conditional
// GMEM-RUN: iu_bfs_mark grid=4 block=256 args=buf:u32:2048:randint:0:3 buf:i32:1024:randint:0:2048 i32:1024 u32:7
__global__ void iu_bfs_mark(unsigned *level, const int *frontier, int nf, unsigned depth) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nf) {
    int v = frontier[i];
    if (level[v] == 1u)
      level[v] = depth + 1;
  }
}

// GMEM-EXPECT: iu_relu_gs idempotent
// GMEM-RUN: iu_relu_gs grid=8 block=128 args=buf:f32:10000:rand i32:10000
__global__ void iu_relu_gs(float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    x[i] = fmaxf(x[i], 0.f);
}

// GMEM-EXPECT: iu_scale non-idempotent
// GMEM-RUN: iu_scale grid=16 block=256 args=buf:f32:4096:rand i32:4096
__global__ void iu_scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = 0.5f * x[i];
}

// GMEM-EXPECT: iu_leaky_relu non-idempotent
// GMEM-RUN: iu_leaky_relu grid=16 block=256 args=buf:f32:4096:rand f32:0.01 i32:4096
__global__ void iu_leaky_relu(float *x, float slope, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    x[i] = v > 0.f ? v : slope * v;
  }
}

// GMEM-EXPECT: iu_swap_values non-idempotent
// GMEM-RUN: iu_swap_values grid=4 block=256 args=buf:i32:1024:randint:0:4 i32:1024
__global__ void iu_swap_values(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = x[i];
    x[i] = v == 1 ? 2 : (v == 2 ? 1 : v);
  }
}

// GMEM-EXPECT: iu_thread_floor non-idempotent
// GMEM-RUN: iu_thread_floor grid=4 block=256 args=buf:i32:1024:randint:0:300 i32:1024
__global__ void iu_thread_floor(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = max(x[i], (int)threadIdx.x);
}

// Constructs seen in real kernels that the rest of the corpus lacks: __ldg
// (read-only cache), clock64() busy waits, device printf, a 2-D batched
// grid, recursion, and an optional (null) pointer argument.

// 3-tap horizontal blur, reads through __ldg.
// GMEM-EXPECT: ldg_blur conditional
// GMEM-RUN: ldg_blur grid=64 block=256 args=buf:f32:16384:rand buf:f32:16384:zero i32:128 i32:128
__global__ void ldg_blur(const float *__restrict__ in, float *__restrict__ out, int w, int h) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= w * h) return;
  int x = i % w;
  float l = x > 0 ? __ldg(in + i - 1) : 0.0f;
  float r = x < w - 1 ? __ldg(in + i + 1) : 0.0f;
  out[i] = 0.25f * l + 0.5f * __ldg(in + i) + 0.25f * r;
}

// Waits `cycles` clock ticks, then marks its block done: a timing kernel.
// GMEM-EXPECT: clock_spin_mark idempotent
// GMEM-RUN: clock_spin_mark grid=32 block=64 args=i64:20000 buf:i32:32:zero
__global__ void clock_spin_mark(long long cycles, int *done) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
  if (threadIdx.x == 0)
    done[blockIdx.x] = 1;
}

// y = 2x, and thread 0 prints a line: a block run again would print again,
// so the kernel is not idempotent although its buffers are disjoint.
// GMEM-EXPECT: debug_printf non-idempotent
// GMEM-RUN: debug_printf grid=4 block=128 args=buf:f32:512:rand buf:f32:512:zero i32:512
__global__ void debug_printf(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = 2.0f * x[i];
  if (i == 0)
    printf("debug_printf: y[0] = %f\n", y[0]);
}

// Batched AXPY over a 2-D grid: blockIdx.y picks the batch; y is read and
// written in place.
// GMEM-EXPECT: batched_axpy_2d non-idempotent
// GMEM-RUN: batched_axpy_2d grid=8,4 block=128 args=f32:0.5 buf:f32:4096:rand buf:f32:4096:rand i32:1024
__global__ void batched_axpy_2d(float a, const float *x, float *y, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= len) return;
  size_t k = (size_t)blockIdx.y * len + i;
  y[k] = a * x[k] + y[k];
}

__device__ __noinline__ int collatz_steps(long long v, int depth) {
  if (v <= 1 || depth >= 64) return depth;
  return collatz_steps((v & 1) ? 3 * v + 1 : v / 2, depth + 1);
}

// steps[i] = Collatz steps of i + 1 (capped at 64), computed recursively.
// GMEM-EXPECT: collatz_recursive idempotent
// GMEM-RUN: collatz_recursive grid=16 block=256 args=buf:i32:4096:zero i32:4096
__global__ void collatz_recursive(int *steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    steps[i] = collatz_steps(i + 1, 0);
}

// Threads past n return early; the rest meet at a barrier that a launch
// value switches on, and each then reads its neighbour's doubled value
// (written before the barrier). The barrier runs in some threads only: no
// persistent clone (returned threads would wait at the end of the virtual
// CTA instead of exiting). n is not a multiple of the block.
// GMEM-EXPECT: guarded_sync_update non-idempotent
// GMEM-RUN: guarded_sync_update grid=8 block=128 args=buf:f32:1000:rand buf:f32:1000:zero i32:1000 i32:1
__global__ void guarded_sync_update(float *a, float *b, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  a[i] *= 2.f;
  if (flag) {
    __syncthreads();
    int j = (threadIdx.x + 1) % blockDim.x + blockIdx.x * blockDim.x;
    b[i] = j < n ? a[j] : 0.f;
  }
}

// An optional input the kernel tests for (a bias that may be null): the
// RUN token `null` passes a null pointer.
// GMEM-EXPECT: add_optional_bias conditional
// GMEM-RUN: add_optional_bias grid=8 block=128 args=buf:f32:1000:rand null buf:f32:1000:zero i32:1000
// GMEM-RUN: add_optional_bias grid=8 block=128 args=buf:f32:1000:rand buf:f32:1000:rand buf:f32:1000:zero i32:1000
__global__ void add_optional_bias(const float *x, const float *bias, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = x[i] + (bias ? bias[i] : 0.0f);
}

// Launch variants (session 52; LaunchGuard.h): kernels whose accesses hang on a scalar
// argument every thread of a launch shares (BLAS-style beta == 0 epilogues,
// accumulate flags, optional residual / weight pointers, mode switches).
// The class is the kernel's; the instances exercise both values of each
// guard, in place and apart, so that the GPU's ground truth checks the
// variant the runtime would pick at each launch.

// y = a*x + b*y; with b == 0, y is only written.
// GMEM-EXPECT: lv_axpby non-idempotent
// GMEM-RUN: lv_axpby grid=16 block=256 args=buf:f32:4096:rand buf:f32:4096:rand f32:2.0 f32:0.0 i32:4096
// GMEM-RUN: lv_axpby grid=16 block=256 args=buf:f32:4096:rand buf:f32:4096:rand f32:2.0 f32:-0.0 i32:4096
// GMEM-RUN: lv_axpby grid=16 block=256 args=buf:f32:4096:rand buf:f32:4096:rand f32:2.0 f32:0.5 i32:4096
// GMEM-RUN: lv_axpby grid=16 block=256 args=buf:f32:4096:rand ptr:0+0 f32:2.0 f32:0.0 i32:4096
__global__ void lv_axpby(const float *x, float *y, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if (b == 0.0f)
      y[i] = a * x[i];
    else
      y[i] = a * x[i] + b * y[i];
  }
}

// C = alpha*A*B + beta*C, the epilogue BLAS libraries specialise for beta == 0.
// GMEM-EXPECT: lv_gemm_beta non-idempotent
// GMEM-RUN: lv_gemm_beta grid=4,4 block=16,16 args=buf:f32:4096:rand buf:f32:4096:rand buf:f32:4096:rand i32:64 i32:64 i32:64 f32:1.0 f32:0.0
// GMEM-RUN: lv_gemm_beta grid=4,4 block=16,16 args=buf:f32:4096:rand buf:f32:4096:rand buf:f32:4096:rand i32:64 i32:64 i32:64 f32:1.0 f32:1.0
__global__ void lv_gemm_beta(const float *A, const float *B, float *C, int M, int N, int K,
                             float alpha, float beta) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N)
    return;
  float acc = 0.f;
  for (int k = 0; k < K; ++k)
    acc += A[row * K + k] * B[k * N + col];
  if (beta == 0.0f)
    C[row * N + col] = alpha * acc;
  else
    C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

// Gradient accumulation: += or = by a flag.
// GMEM-EXPECT: lv_accumulate non-idempotent
// GMEM-RUN: lv_accumulate grid=8 block=128 args=buf:f32:1024:rand buf:f32:1024:rand i32:0 i32:1024
// GMEM-RUN: lv_accumulate grid=8 block=128 args=buf:f32:1024:rand buf:f32:1024:rand i32:1 i32:1024
// GMEM-RUN: lv_accumulate grid=8 block=128 args=buf:f32:1024:rand buf:f32:1024:rand i32:-7 i32:1024
__global__ void lv_accumulate(const float *g, float *acc, int accumulate, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = 0.5f * g[i];
  if (accumulate)
    acc[i] += v;
  else
    acc[i] = v;
}

// Row sums into an output that is accumulated or overwritten.
// GMEM-EXPECT: lv_rowsum non-idempotent
// GMEM-RUN: lv_rowsum grid=4 block=64 args=buf:f32:16384:rand buf:f32:256:rand i32:256 i32:64 i32:0
// GMEM-RUN: lv_rowsum grid=4 block=64 args=buf:f32:16384:rand buf:f32:256:rand i32:256 i32:64 i32:1
__global__ void lv_rowsum(const float *m, float *out, int rows, int cols, int accumulate) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.f;
  for (int c = 0; c < cols; ++c)
    s += m[r * cols + c];
  if (accumulate != 0)
    out[r] += s;
  else
    out[r] = s;
}

// Histogram with optional weights: the atomic sum runs only with weights.
// GMEM-EXPECT: lv_bincount non-idempotent
// GMEM-RUN: lv_bincount grid=8 block=128 args=buf:i32:1024:randint:0:64 buf:i32:64:zero buf:f32:1024:rand buf:f32:64:zero i32:0 i32:1024
// GMEM-RUN: lv_bincount grid=8 block=128 args=buf:i32:1024:randint:0:64 buf:i32:64:zero buf:f32:1024:rand buf:f32:64:zero i32:1 i32:1024
__global__ void lv_bincount(const int *in, int *bins, const float *w, float *wbins, int has_w,
                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (has_w)
    atomicAdd(&wbins[in[i]], w[i]);
  else
    bins[in[i]] = 1;
}

// An optional residual: out = x (+ residual + out).
// GMEM-EXPECT: lv_residual non-idempotent
// GMEM-RUN: lv_residual grid=4 block=256 args=buf:f32:1024:rand null buf:f32:1024:rand i32:1024
// GMEM-RUN: lv_residual grid=4 block=256 args=buf:f32:1024:rand buf:f32:1024:rand buf:f32:1024:rand i32:1024
__global__ void lv_residual(const float *x, const float *residual, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  if (residual != nullptr)
    v += residual[i] + out[i];
  out[i] = v;
}

// A mode switch: mode == 0 copies, mode < 1 (negative) accumulates, else scales.
// GMEM-EXPECT: lv_modes non-idempotent
// GMEM-RUN: lv_modes grid=4 block=256 args=buf:f32:1024:rand buf:f32:1024:rand i32:0 i32:1024
// GMEM-RUN: lv_modes grid=4 block=256 args=buf:f32:1024:rand buf:f32:1024:rand i32:-1 i32:1024
// GMEM-RUN: lv_modes grid=4 block=256 args=buf:f32:1024:rand buf:f32:1024:rand i32:5 i32:1024
__global__ void lv_modes(const float *x, float *y, int mode, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (mode == 0)
    y[i] = x[i];
  else if (mode < 1)
    y[i] += x[i];
  else
    y[i] = 2.0f * x[i];
}

// The flag's low byte decides ((char)flag == 0 holds for 256): the guard
// must read what the kernel reads (the IR tests flag & 255).
// GMEM-EXPECT: lv_low_byte non-idempotent
// GMEM-RUN: lv_low_byte grid=4 block=256 args=buf:f32:1024:rand buf:f32:1024:rand i32:256 i32:1024
// GMEM-RUN: lv_low_byte grid=4 block=256 args=buf:f32:1024:rand buf:f32:1024:rand i32:257 i32:1024
__global__ void lv_low_byte(const float *x, float *y, int flag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if ((signed char)flag == 0)
    y[i] = x[i];
  else
    y[i] += x[i];
}

// Unsigned count: with count > 0 the output also gets the old value.
// GMEM-EXPECT: lv_unsigned non-idempotent
// GMEM-RUN: lv_unsigned grid=4 block=256 args=buf:f32:1024:rand buf:f32:1024:rand u32:0 i32:1024
// GMEM-RUN: lv_unsigned grid=4 block=256 args=buf:f32:1024:rand buf:f32:1024:rand u32:4294967295 i32:1024
__global__ void lv_unsigned(const float *x, float *y, unsigned count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (count > 0u)
    y[i] = y[i] * 0.5f + x[i];
  else
    y[i] = x[i];
}

// A guard that is tested only after an order-dependent step stays honest:
// the atomic ticket runs whatever the flag says.
// GMEM-EXPECT: lv_ticket non-idempotent
// GMEM-RUN: lv_ticket grid=4 block=64 args=buf:f32:256:rand buf:f32:256:zero buf:i32:1:zero i32:0 i32:256
// GMEM-RUN: lv_ticket grid=4 block=64 args=buf:f32:256:rand buf:f32:256:zero buf:i32:1:zero i32:1 i32:256
__global__ void lv_ticket(const float *x, float *y, int *counter, int compact, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int slot = atomicAdd(counter, 1);
  if (compact)
    y[slot] = x[i];
  else
    y[i] = x[i];
}

// Two hazards on two flags: idempotent only where both are off.
// GMEM-EXPECT: lv_two_flags non-idempotent
// GMEM-RUN: lv_two_flags grid=4 block=256 args=buf:f32:1024:rand buf:f32:1024:rand buf:i32:1:zero i32:0 i32:0 i32:1024
// GMEM-RUN: lv_two_flags grid=4 block=256 args=buf:f32:1024:rand buf:f32:1024:rand buf:i32:1:zero i32:0 i32:1 i32:1024
// GMEM-RUN: lv_two_flags grid=4 block=256 args=buf:f32:1024:rand buf:f32:1024:rand buf:i32:1:zero i32:1 i32:0 i32:1024
__global__ void lv_two_flags(const float *x, float *y, int *count, int accumulate, int counting,
                             int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (accumulate)
    y[i] += x[i];
  else
    y[i] = x[i];
  if (counting)
    atomicAdd(count, 1);
}

// A CUTLASS-style epilogue, D = max(alpha*acc + beta*C, 0), run in place
// (C is D): conditional either way, idempotent at beta == 0 where C is not
// read.
// GMEM-EXPECT: lv_epilogue conditional
// GMEM-RUN: lv_epilogue grid=4 block=64 args=buf:f32:256:rand buf:f32:256:rand ptr:1+0 f32:1.0 f32:0.0 i32:256
// GMEM-RUN: lv_epilogue grid=4 block=64 args=buf:f32:256:rand buf:f32:256:rand ptr:1+0 f32:1.0 f32:1.0 i32:256
// GMEM-RUN: lv_epilogue grid=4 block=64 args=buf:f32:256:rand buf:f32:256:rand buf:f32:256:zero f32:1.0 f32:1.0 i32:256
__global__ void lv_epilogue(const float *acc, const float *C, float *D, float alpha, float beta,
                            int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = alpha * acc[i];
  if (beta != 0.f)
    v += beta * C[i];
  D[i] = fmaxf(v, 0.f);
}

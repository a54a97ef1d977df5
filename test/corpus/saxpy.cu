// SAXPY in the classic BLAS form (y updated in place) and an out-of-place
// grid-stride variant, as found in the CUDA programming guide / "six ways to SAXPY".

// y = a*x + y reads and writes y[i].
// GMEM-EXPECT: saxpy non-idempotent
// GMEM-RUN: saxpy grid=3907 block=256 args=i32:1000000 f32:2.5 buf:f32:1000000:rand buf:f32:1000000:rand
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// out = a*x + y with a grid-stride loop.
// GMEM-EXPECT: saxpy_gs conditional
// GMEM-RUN: saxpy_gs grid=132 block=256 args=i32:1000000 f32:2.5 buf:f32:1000000:rand buf:f32:1000000:rand buf:f32:1000000:zero
// GMEM-RUN: saxpy_gs grid=132 block=256 args=i32:1000000 f32:2.5 buf:f32:1000000:rand buf:f32:1000000:rand ptr:3+0
__global__ void saxpy_gs(int n, float a, const float *x, const float *y, float *out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = a * x[i] + y[i];
  }
}

// The same with size_t index and bound (the common 64-bit form): the access
// recurrence is 4x the one the latch tests, and the symbolic step gives SCEV
// no trip count.
// GMEM-EXPECT: saxpy_gs_size_t conditional
// GMEM-RUN: saxpy_gs_size_t grid=132 block=256 args=u64:1000000 f32:2.5 buf:f32:1000000:rand buf:f32:1000000:rand buf:f32:1000000:zero
// GMEM-RUN: saxpy_gs_size_t grid=4 block=64 args=u64:1000 f32:2.5 buf:f32:1000:rand buf:f32:1000:rand ptr:3+0
__global__ void saxpy_gs_size_t(unsigned long long n, float a, const float *x, const float *y,
                                float *out) {
  for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    out[i] = a * x[i] + y[i];
}

// Index and step both computed in 64 bits (thrust / PyTorch style, no
// 32-bit product that could wrap), against an int bound.
// GMEM-EXPECT: saxpy_gs_wide conditional
// GMEM-RUN: saxpy_gs_wide grid=132 block=256 args=i32:1000000 f32:2.5 buf:f32:1000000:rand buf:f32:1000000:rand buf:f32:1000000:zero
// GMEM-RUN: saxpy_gs_wide grid=3 block=64 args=i32:1000 f32:2.5 buf:f32:2000:rand buf:f32:1000:rand ptr:2+4000
__global__ void saxpy_gs_wide(int n, float a, const float *x, const float *y, float *out) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x)
    out[i] = a * x[i] + y[i];
}

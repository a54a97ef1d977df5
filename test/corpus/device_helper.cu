// Kernels whose memory accesses happen inside non-inlined __device__
// helpers (as with -fno-inline builds or large shared device functions).

__device__ __noinline__ float load_clamped(const float *p, int i, float lo, float hi) {
  float v = p[i];
  return v < lo ? lo : (v > hi ? hi : v);
}

// GMEM-EXPECT: clamp_scale conditional
// GMEM-RUN: clamp_scale grid=1024 block=256 args=buf:f32:262144:rand buf:f32:262144:zero f32:0.25 f32:0.75 f32:2.0 i32:262144
// GMEM-RUN: clamp_scale grid=1024 block=256 args=buf:f32:262144:rand ptr:0+0 f32:0.25 f32:0.75 f32:2.0 i32:262144
__global__ void clamp_scale(const float *in, float *out, float lo, float hi, float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = scale * load_clamped(in, i, lo, hi);
}

__device__ __noinline__ void axpy_elem(float *y, const float *x, float a, int i) {
  y[i] = a * x[i] + y[i];
}

// GMEM-EXPECT: axpy_helper non-idempotent
// GMEM-RUN: axpy_helper grid=1024 block=256 args=buf:f32:262144:rand buf:f32:262144:rand f32:0.5 i32:262144
__global__ void axpy_helper(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) axpy_elem(y, x, a, i);
}

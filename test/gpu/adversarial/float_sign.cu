// Adversarial round 48: an int converted to float and back, where the int
// is a wrapped unsigned product: (int)(2t * u) for u = 2^31 - 1 is -2t,
// although 2t * u as a mathematical product is >= 0. A float made from it
// is negative, and so is the index converted back from it. Pointers named
// `p` point into the middle of `base`.

// Half of the converted value: index -t, guarded from above only.
// GMEM-EXPECT: float_half_wrap idempotent
// GMEM-RUN: float_half_wrap grid=1 block=8 args=buf:f32:1024:zero ptr:0+2048 u32:2147483647
// GMEM-RUN: float_half_wrap grid=1 block=8 args=buf:f32:1024:zero ptr:0+2048 u32:3
__global__ void float_half_wrap(float *base, float *p, unsigned u) {
  unsigned t = threadIdx.x;
  int x = (int)((2u * t) * u);
  float f = (float)x * 0.5f;
  int j = (int)f;
  if (j < 64)
    p[j] = 1.0f;
}

// The converted value plus |g[t]| (< 1): index in [-2t, 0].
// GMEM-EXPECT: float_plus_abs_wrap conditional
// GMEM-RUN: float_plus_abs_wrap grid=1 block=8 args=buf:f32:1024:zero ptr:0+2048 buf:f32:8:rand u32:2147483647
// GMEM-RUN: float_plus_abs_wrap grid=1 block=8 args=buf:f32:1024:zero ptr:0+2048 buf:f32:8:rand u32:4
__global__ void float_plus_abs_wrap(float *base, float *p, const float *g, unsigned u) {
  unsigned t = threadIdx.x;
  int x = (int)((2u * t) * u);
  float f = (float)x + fabsf(g[t]);
  int j = (int)f;
  if (j < 64)
    p[j] = 2.0f;
}

// In place: reads a[j + 64] with j = (int)((float)(int)(2t*u) * 0.5f) = -t,
// writes a[t]: thread t reads a[64 - t], which thread 64 - t writes.
// GMEM-EXPECT: float_wrap_rw conditional
// GMEM-RUN: float_wrap_rw grid=1 block=64 args=buf:f32:256:rand u32:2147483647
// GMEM-RUN: float_wrap_rw grid=1 block=64 args=buf:f32:256:rand u32:1
__global__ void float_wrap_rw(float *a, unsigned u) {
  unsigned t = threadIdx.x;
  int x = (int)((2u * t) * u);
  int j = (int)((float)x * 0.5f);
  float v = 0.0f;
  if (j < 64)
    v = a[j + 64];
  __syncthreads();
  a[t] = v + 1.0f;
}

// Control: the same value without the float round trip (the int index is
// bounded through its signed reading with a check).
// GMEM-EXPECT: int_half_wrap idempotent
// GMEM-RUN: int_half_wrap grid=1 block=8 args=buf:f32:1024:zero ptr:0+2048 u32:2147483647
__global__ void int_half_wrap(float *base, float *p, unsigned u) {
  unsigned t = threadIdx.x;
  int x = (int)((2u * t) * u);
  int j = x / 2;
  if (j < 64)
    p[j] = 3.0f;
}

// A float parameter's sign decides the index's: s = -0.5 makes it negative.
// GMEM-EXPECT: float_param_sign idempotent
// GMEM-RUN: float_param_sign grid=1 block=16 args=buf:f32:1024:zero ptr:0+2048 f32:-0.5
// GMEM-RUN: float_param_sign grid=1 block=16 args=buf:f32:1024:zero ptr:0+2048 f32:2.0
__global__ void float_param_sign(float *base, float *p, float s) {
  int j = (int)((float)threadIdx.x * s);
  if (j < 64)
    p[j] = 4.0f;
}

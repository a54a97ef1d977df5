// Covered loads vs stores through a pointer chosen among several objects
// (select/phi of bases, ping-pong buffers) and launch-time aliasing.

// GMEM-EXPECT: sel_store non-idempotent
// GMEM-RUN: sel_store grid=2 block=64 args=buf:f32:128:rand buf:f32:128:rand i32:0 i32:128
// GMEM-RUN: sel_store grid=2 block=64 args=buf:f32:128:rand buf:f32:128:rand i32:1 i32:128
__global__ void sel_store(float *a, float *b, int flag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float *p = flag ? a : b;
  p[i] = 1.0f;
  a[i] = a[i] + 1.0f;
}

// GMEM-EXPECT: phi_store non-idempotent
// GMEM-RUN: phi_store grid=2 block=64 args=buf:f32:128:rand buf:f32:128:rand buf:f32:128:rand i32:128
// GMEM-RUN: phi_store grid=1 block=32 args=buf:f32:64:const:1 buf:f32:64:rand buf:f32:64:rand i32:32
__global__ void phi_store(float *a, float *b, const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float *p;
  if (x[i] > 0.f)
    p = a;
  else
    p = b;
  p[i] = 3.0f;
  a[i] = a[i] * 2.0f;
}

// GMEM-EXPECT: sel_swap non-idempotent
// GMEM-RUN: sel_swap grid=2 block=32 args=buf:f32:64:rand buf:f32:64:rand i32:0 i32:64
// GMEM-RUN: sel_swap grid=2 block=32 args=buf:f32:64:rand buf:f32:64:rand i32:1 i32:64
__global__ void sel_swap(float *a, float *b, int flag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float *p = flag ? a : b;
  float *q = flag ? b : a;
  p[i] = 0.0f;
  q[i] = q[i] + 1.0f;
}

// GMEM-EXPECT: pingpong non-idempotent
// GMEM-RUN: pingpong grid=2 block=32 args=buf:f32:64:rand buf:f32:64:rand i32:1
// GMEM-RUN: pingpong grid=2 block=32 args=buf:f32:64:rand buf:f32:64:rand i32:2
// GMEM-RUN: pingpong grid=1 block=64 args=buf:f32:64:rand buf:f32:64:rand i32:3
__global__ void pingpong(float *a, float *b, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *src = a, *dst = b;
  for (int s = 0; s < steps; ++s) {
    dst[i] = 0.0f;
    float v = src[i];
    dst[i] = v + 1.0f;
    float *t = src; src = dst; dst = t;
  }
}

// GMEM-EXPECT: sel_loop non-idempotent
// GMEM-RUN: sel_loop grid=2 block=32 args=buf:f32:400:rand buf:f32:400:rand buf:f32:400:rand i32:100
// GMEM-RUN: sel_loop grid=2 block=32 args=buf:f32:400:rand buf:f32:400:rand buf:f32:400:rand i32:20
__global__ void sel_loop(float *a, float *b, const float *x, int C) {
  float *ra = a + blockIdx.x * C, *rb = b + blockIdx.x * C;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    float *p = (c & 1) ? ra : rb;
    p[c] = x[blockIdx.x * C + c];
  }
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    ra[c] = ra[c] * 0.5f;
}

// GMEM-EXPECT: sel_before_loops non-idempotent
// GMEM-RUN: sel_before_loops grid=2 block=32 args=buf:f32:400:rand buf:f32:400:rand buf:f32:400:rand i32:100 i32:0
// GMEM-RUN: sel_before_loops grid=2 block=32 args=buf:f32:400:rand buf:f32:400:rand buf:f32:400:rand i32:100 i32:1
__global__ void sel_before_loops(float *a, float *b, const float *x, int C, int flag) {
  float *p = flag ? a : b;
  float *row = p + blockIdx.x * C;
  float s = 0.f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    float e = expf(x[blockIdx.x * C + c]);
    row[c] = e;
    s += e;
  }
  float *ra = a + blockIdx.x * C;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    ra[c] = ra[c] / s;
}

// GMEM-EXPECT: field_sel non-idempotent
// GMEM-RUN: field_sel grid=2 block=32 args=buf:f32:64:rand buf:f32:64:rand buf:i32:64:randint:0:2
__global__ void field_sel(float *a, float *b, const int *pick) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = pick[i] ? a : b;
  float *q = pick[i] ? b : a;
  p[i] = 7.0f;
  __syncthreads();
  q[i] = q[i] - 1.0f;
}

// Launch-time aliasing of the rule's positive shapes.
// GMEM-EXPECT: written_then_scaled conditional
// GMEM-RUN: written_then_scaled grid=2 block=32 args=buf:f32:64:rand buf:f32:64:rand i32:64
// GMEM-RUN: written_then_scaled grid=2 block=32 args=buf:f32:80:rand ptr:0+16 i32:64
// GMEM-RUN: written_then_scaled grid=2 block=32 args=buf:f32:64:rand ptr:0+0 i32:64
// GMEM-RUN: written_then_scaled grid=2 block=32 args=buf:f32:128:rand ptr:0+256 i32:64
__global__ void written_then_scaled(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = expf(a[i]);
  __syncthreads();
  out[i] = out[i] * 2.0f;
}

// GMEM-EXPECT: softmax_alias conditional
// GMEM-RUN: softmax_alias grid=2 block=32 args=buf:f32:200:rand buf:f32:200:rand i32:100
// GMEM-RUN: softmax_alias grid=2 block=32 args=buf:f32:200:rand ptr:0+0 i32:100
// GMEM-RUN: softmax_alias grid=2 block=32 args=buf:f32:200:rand ptr:0+400 i32:50
__global__ void softmax_alias(const float *a, float *out, int C) {
  float *row = out + blockIdx.x * C;
  float s = 0.f;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    float e = expf(a[blockIdx.x * C + c]);
    row[c] = e;
    s += e;
  }
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = row[c] / s;
}

// Two pointer parameters to one buffer: store through p, read back through p,
// with q (maybe p itself) written in between.
// GMEM-EXPECT: two_names conditional
// GMEM-RUN: two_names grid=2 block=32 args=buf:f32:64:rand buf:f32:64:rand buf:f32:64:rand
// GMEM-RUN: two_names grid=2 block=32 args=buf:f32:64:rand ptr:0+0 buf:f32:64:rand
// GMEM-RUN: two_names grid=2 block=32 args=buf:f32:128:rand ptr:0+256 buf:f32:64:rand
__global__ void two_names(float *p, float *q, const float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p[i] = x[i];
  q[i] = 5.0f;
  p[i] = p[i] * 2.0f;
}

// Covered through p, but q = p + k read (not covered) at launch.
// GMEM-EXPECT: shifted_reader conditional
// GMEM-RUN: shifted_reader grid=1 block=32 args=buf:f32:64:rand buf:f32:64:rand
// GMEM-RUN: shifted_reader grid=1 block=32 args=buf:f32:64:rand ptr:0+128
// GMEM-RUN: shifted_reader grid=1 block=32 args=buf:f32:64:rand ptr:0+0
__global__ void shifted_reader(float *p, const float *q) {
  int i = threadIdx.x;
  p[i] = 1.0f;
  __syncthreads();
  p[i] = p[i] + q[i];
}

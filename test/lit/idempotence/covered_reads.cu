// A load of bytes the same thread stored earlier in the launch reads no
// value from before it, so it needs no proof that it is apart from the
// writes (passes/lib/Analysis/CoveredLoads.cpp): written, then read back
// across a barrier; a row written in one loop and normalised in the next
// (softmax, layernorm), guarded by one test or not guarded at all. Where the
// store may be skipped, the second loop may run further, the load reads a
// neighbour's bytes, or the loops are guarded by different tests, the read
// still sees bytes from before the launch and the kernel stays
// non-idempotent.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel written_then_scaled(float const*, float*, int)
// CHECK:      class:  conditional -- reads 'a' and writes 'out'
// CHECK:      #1 out : ptr  RW
// CHECK:          reads and writes proven disjoint
__global__ void written_then_scaled(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = expf(a[i]);
  __syncthreads();
  out[i] = out[i] * 2.0f;
}

// CHECK:      kernel softmax_like(float const*, float*, int)
// CHECK:      class:  conditional -- reads 'a' and writes 'out'
__global__ void softmax_like(const float *a, float *out, int C) {
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

// CHECK:      kernel fixed_trips(float const*, float*)
// CHECK:      class:  conditional -- reads 'a' and writes 'out'
__global__ void fixed_trips(const float *a, float *out) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  for (int k = 0; k < 8; ++k)
    out[base + k] = a[base + k] + 1.0f;
  __syncthreads();
  for (int k = 0; k < 8; ++k)
    out[base + k] = out[base + k] * out[base + k];
}

// CHECK:      kernel store_maybe_skipped(float const*, float*, int)
// CHECK:      class:  non-idempotent
__global__ void store_maybe_skipped(const float *a, float *out, int C) {
  float *row = out + blockIdx.x * C;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    float e = a[blockIdx.x * C + c];
    if (e > 0.f)
      row[c] = e;
  }
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = row[c] * 0.5f;
}

// CHECK:      kernel second_loop_longer(float const*, float*, int)
// CHECK:      class:  non-idempotent
__global__ void second_loop_longer(const float *a, float *out, int C) {
  float *row = out + blockIdx.x * (C + 64);
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = a[c];
  for (int c = threadIdx.x; c < C + 32; c += blockDim.x)
    row[c] = row[c] + 1.0f;
}

// CHECK:      kernel reads_neighbour(float const*, float*, int)
// CHECK:      class:  {{non-idempotent|unknown}}
__global__ void reads_neighbour(const float *a, float *out, int C) {
  float *row = out + blockIdx.x * (C + 1);
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = a[c];
  __syncthreads();
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = row[c + 1] + 1.0f;
}

// CHECK:      kernel other_guard(float const*, float*, int, int)
// CHECK:      class:  non-idempotent
__global__ void other_guard(const float *a, float *out, int C, int D) {
  float *row = out + blockIdx.x * 4096;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = a[c];
  for (int c = threadIdx.x; c < D; c += blockDim.x)
    row[c] = row[c] + 1.0f;
}

// CHECK:      kernel read_then_written(float*, int)
// CHECK:      class:  non-idempotent
__global__ void read_then_written(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = out[i] * 2.0f;
}

// A store through a pointer chosen among objects is a may-write of each, a
// must-write of none: a[i] is read from before the launch when flag is 0
// (the first version of the rule matched offsets from the object and
// called this launch idempotent; an adversarial round, session 51).
// CHECK:      kernel chosen_store(float*, float*, int)
// CHECK:      class:  non-idempotent
__global__ void chosen_store(float *a, float *b, int flag) {
  int i = threadIdx.x;
  float *p = flag ? a : b;
  p[i] = 1.0f;
  a[i] = a[i] + 1.0f;
}

// Ping-pong buffers: the store and the load go through different pointers.
// CHECK:      kernel ping_pong(float*, float*, int)
// CHECK:      class:  {{non-idempotent|unknown}}
__global__ void ping_pong(float *a, float *b, int steps) {
  int i = threadIdx.x;
  float *src = a, *dst = b;
  for (int s = 0; s < steps; ++s) {
    dst[i] = 0.0f;
    float v = src[i];
    dst[i] = v + 1.0f;
    float *t = src;
    src = dst;
    dst = t;
  }
}

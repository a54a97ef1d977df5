// Adversarial round 49: indirect calls (function pointers in __device__
// tables, virtual functions on device-constructed objects) and recursion.
#include <stdint.h>
#include <new>

typedef float (*unop_t)(float);
__device__ float op_neg(float x) { return -x; }
__device__ float op_sq(float x) { return x * x; }
__device__ float op_inc(float x) { return x + 1.0f; }
__device__ unop_t g_ops[3] = {op_neg, op_sq, op_inc};

// out[i] = g_ops[op](in[i]); the table is a mutable __device__ global.
// Truth: reads in[0,n), writes out[0,n); in-place instance is RMW.
// GMEM-EXPECT: fnptr_unop conditional
// GMEM-RUN: fnptr_unop grid=2 block=128 args=buf:f32:256:rand buf:f32:256:zero i32:1 i32:256
// GMEM-RUN: fnptr_unop grid=2 block=128 args=buf:f32:256:rand ptr:0+0 i32:2 i32:256
__global__ void fnptr_unop(const float *in, float *out, int op, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unop_t f = g_ops[op % 3];
  if (i < n) out[i] = f(in[i]);
}

typedef void (*writer_t)(float *, int, float);
__device__ void w_plain(float *p, int i, float v) { p[i] = v; }
__device__ void w_shift(float *p, int i, float v) { p[i + 1] = v; }
__device__ void w_accum(float *p, int i, float v) { p[i] += v; }
__device__ writer_t g_writers[3] = {w_plain, w_shift, w_accum};

// The callee writes through its pointer argument. Truth: op 0 writes
// a[0,n); op 1 writes a[1,n+1); op 2 RMW a[0,n) (not idempotent).
// GMEM-EXPECT: fnptr_writer non-idempotent
// GMEM-RUN: fnptr_writer grid=1 block=64 args=buf:f32:65:zero i32:0 i32:64
// GMEM-RUN: fnptr_writer grid=1 block=64 args=buf:f32:65:zero i32:1 i32:64
// GMEM-RUN: fnptr_writer grid=1 block=64 args=buf:f32:65:rand i32:2 i32:64
__global__ void fnptr_writer(float *a, int op, int n) {
  int i = threadIdx.x;
  writer_t w = g_writers[op];
  if (i < n) w(a, i, (float)i);
}

// An indirect call that returns a pointer distance (b - a); the kernel
// then writes a[d + t]. Truth: b[t] = b[t] + 1 in place (not idempotent),
// a untouched.
typedef long long (*dist_t)(const float *, const float *);
__device__ long long dist_fwd(const float *x, const float *y) { return x - y; }
__device__ long long dist_zero(const float *, const float *) { return 0; }
__device__ dist_t g_dist[2] = {dist_fwd, dist_zero};
// GMEM-EXPECT: fnptr_distance non-idempotent
// GMEM-RUN: fnptr_distance grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero i32:0
// GMEM-RUN: fnptr_distance grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero i32:1
__global__ void fnptr_distance(const float *b, float *a, int sel) {
  long long d = g_dist[sel & 1](b, a);
  int t = threadIdx.x;
  a[d + t] = b[t] + 1.0f;
}

// An indirect call returning a pointer chosen from its arguments.
typedef float *(*pick_t)(float *, float *);
__device__ float *pick_first(float *x, float *) { return x; }
__device__ float *pick_second(float *, float *y) { return y; }
__device__ pick_t g_pick[2] = {pick_first, pick_second};
// Truth: sel=0 writes a[t] = b[t]; sel=1 writes b[t] = b[t] (RMW of b).
// GMEM-EXPECT: fnptr_pick unknown
// GMEM-RUN: fnptr_pick grid=1 block=64 args=buf:f32:64:zero buf:f32:64:rand i32:0
// GMEM-RUN: fnptr_pick grid=1 block=64 args=buf:f32:64:zero buf:f32:64:rand i32:1
__global__ void fnptr_pick(float *a, float *b, int sel) {
  float *q = g_pick[sel & 1](a, b);
  int t = threadIdx.x;
  q[t] = b[t] * 0.5f;
}

// Virtual functions on objects constructed in device code (placement new in
// local storage), chosen by a launch argument.
struct Shape {
  __device__ virtual void apply(const float *in, float *out, int i) const = 0;
};
struct Copy1 : Shape {
  __device__ void apply(const float *in, float *out, int i) const override { out[i] = in[i]; }
};
struct Mirror : Shape {
  int n;
  __device__ Mirror(int n) : n(n) {}
  __device__ void apply(const float *in, float *out, int i) const override { out[n - 1 - i] = in[i]; }
};
// Truth: kind 0 out[i]=in[i]; kind 1 out[n-1-i]=in[i]; in-place kind 1 reverses.
// GMEM-EXPECT: virtual_apply conditional
// GMEM-RUN: virtual_apply grid=1 block=128 args=buf:f32:128:rand buf:f32:128:zero i32:0 i32:128
// GMEM-RUN: virtual_apply grid=1 block=128 args=buf:f32:128:rand ptr:0+0 i32:1 i32:128
__global__ void virtual_apply(const float *in, float *out, int kind, int n) {
  alignas(16) unsigned char buf[sizeof(Mirror) + 16];
  Shape *s;
  if (kind) s = new (buf) Mirror(n);
  else s = new (buf) Copy1();
  int i = threadIdx.x;
  if (i < n) s->apply(in, out, i);
}

// Objects in a __device__ array, their vtable pointers set by a setup step of
// the same kernel: thread 0 constructs, all use after the barrier.
__device__ unsigned char g_objs[2][32];
// GMEM-EXPECT: virtual_global_objs unknown
// GMEM-RUN: virtual_global_objs grid=1 block=64 args=buf:f32:64:rand buf:f32:64:zero i32:64
// GMEM-RUN: virtual_global_objs grid=1 block=64 args=buf:f32:64:rand ptr:0+0 i32:64
__global__ void virtual_global_objs(const float *in, float *out, int n) {
  if (threadIdx.x == 0) {
    new (g_objs[0]) Copy1();
    new (g_objs[1]) Mirror(n);
  }
  __syncthreads();
  const Shape *s = reinterpret_cast<const Shape *>(g_objs[threadIdx.x & 1]);
  s->apply(in, out, threadIdx.x);
}

// Recursion reading one element and writing another: a[i+1] = a[i] + 1 down
// a chain (true dependence across levels).
__device__ __noinline__ float rec_chain(float *a, int i, int depth) {
  if (depth == 0) return a[i];
  float v = rec_chain(a, i, depth - 1);
  a[i + depth] = v + 1.0f;
  return v + 1.0f;
}
// GMEM-EXPECT: recursive_chain non-idempotent
// GMEM-RUN: recursive_chain grid=1 block=1 args=buf:f32:64:rand i32:10
__global__ void recursive_chain(float *a, int depth) { rec_chain(a, 0, depth); }

// Recursive binary-tree sum of in[lo,hi) written to out[blockIdx]; read only of in.
__device__ __noinline__ float rec_sum(const float *in, int lo, int hi) {
  if (hi - lo <= 2) {
    float s = 0;
    for (int i = lo; i < hi; ++i) s += in[i];
    return s;
  }
  int mid = (lo + hi) / 2;
  return rec_sum(in, lo, mid) + rec_sum(in, mid, hi);
}
// GMEM-EXPECT: recursive_sum conditional
// GMEM-RUN: recursive_sum grid=4 block=1 args=buf:f32:400:rand buf:f32:4:zero i32:100
// GMEM-RUN: recursive_sum grid=4 block=1 args=buf:f32:400:rand ptr:0+800 i32:100
__global__ void recursive_sum(const float *in, float *out, int n) {
  out[blockIdx.x] = rec_sum(in + blockIdx.x * n, 0, n);
}

// A recursive function reached through a function pointer; writes p[k] for
// k = n-1 .. 0 with p[k] = p[k+1]*0.5 (reads what it writes).
__device__ __noinline__ void rec_halve(float *p, int k) {
  if (k < 0) return;
  p[k] = p[k + 1] * 0.5f;
  rec_halve(p, k - 1);
}
typedef void (*rec_t)(float *, int);
__device__ rec_t g_rec = rec_halve;
// GMEM-EXPECT: fnptr_recursive non-idempotent
// GMEM-RUN: fnptr_recursive grid=1 block=1 args=buf:f32:33:rand i32:31
__global__ void fnptr_recursive(float *p, int n) { g_rec(p, n); }

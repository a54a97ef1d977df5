// Locks and compare-and-swap loops, shaped after per-bucket spin locks in
// GPU hash tables and the CUDA programming guide's atomicCAS-based atomics.

// buckets[keys[i]] += vals[i] under a per-bucket spin lock (atomicCAS to
// take, atomicExch to release, __nanosleep backoff).
// GMEM-EXPECT: locked_bucket_add non-idempotent
// GMEM-RUN: locked_bucket_add grid=32 block=128 args=buf:i32:64:zero buf:f32:64:zero buf:i32:4096:randint:0:64 buf:f32:4096:rand i32:4096
__global__ void locked_bucket_add(int *locks, float *buckets, const int *keys, const float *vals, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int b = keys[i];
  bool done = false;
  unsigned ns = 8;
  while (!done) {
    if (atomicCAS(&locks[b], 0, 1) == 0) {
      __threadfence();
      buckets[b] += vals[i];
      __threadfence();
      atomicExch(&locks[b], 0);
      done = true;
    } else {
      __nanosleep(ns);
      if (ns < 256) ns *= 2;
    }
  }
}

// *result = max(*result, max of x), float max through an atomicCAS loop.
// Running it twice leaves the same maximum, but nothing short of reasoning
// about max proves that, so a sound analysis says non-idempotent.
// GMEM-EXPECT: atomic_max_cas non-idempotent
// GMEM-RUN: atomic_max_cas grid=16 block=256 args=buf:f32:4096:rand buf:f32:1:const:-2 i32:4096
__global__ void atomic_max_cas(const float *x, float *result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  int *addr = reinterpret_cast<int *>(result);
  int old = *addr;
  while (__int_as_float(old) < v) {
    int assumed = old;
    old = atomicCAS(addr, assumed, __float_as_int(v));
    if (old == assumed) break;
  }
}

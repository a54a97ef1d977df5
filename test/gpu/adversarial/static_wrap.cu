// Adversarial round 48: read/write disjointness proven only under "no
// signed overflow" checks that a correct program can fail without any
// undefined behaviour: the wrapping value is computed in unsigned
// arithmetic (or by a 64-to-32-bit truncation, which CUDA defines as
// modular) and only then read as int. Each kernel is idempotent whenever the
// value does not wrap and not idempotent when it does, so its honest class
// is conditional. The second RUN of each is the wrapping launch.

// (int)(u * 4u): u = 2^30 wraps to index 0, which thread 0 also writes.
// GMEM-EXPECT: sext_mul_rw conditional
// GMEM-RUN: sext_mul_rw grid=1 block=64 args=buf:f32:8192:rand u32:1500
// GMEM-RUN: sext_mul_rw grid=1 block=64 args=buf:f32:8192:rand u32:1073741824
__global__ void sext_mul_rw(float *a, unsigned u) {
  unsigned t = threadIdx.x;
  bool ok = t < 512 && (int)u >= 1024;
  float v = 0.0f;
  if (ok)
    v = a[(int)(u * 4u)];
  __syncthreads();
  if (ok)
    a[t] = v + 1.0f;
}

// (int)(L + t) of a 64-bit L: L = 2^32 truncates to t, the thread's own
// element (a read-modify-write).
// GMEM-EXPECT: trunc_guard_rw conditional
// GMEM-RUN: trunc_guard_rw grid=1 block=64 args=buf:f32:4096:rand i64:2000
// GMEM-RUN: trunc_guard_rw grid=1 block=64 args=buf:f32:4096:rand i64:4294967296
__global__ void trunc_guard_rw(float *a, long long L) {
  int t = threadIdx.x;
  if (t < 512 && L >= 1024) {
    int j = (int)(L + t);
    a[t] = a[j] + 1.0f;
  }
}

// (int)L + t with the truncation first.
// GMEM-EXPECT: trunc_first_rw conditional
// GMEM-RUN: trunc_first_rw grid=1 block=64 args=buf:f32:4096:rand i64:3000
// GMEM-RUN: trunc_first_rw grid=1 block=64 args=buf:f32:4096:rand i64:4294967306
__global__ void trunc_first_rw(float *a, long long L) {
  unsigned t = threadIdx.x;
  bool ok = t < 512 && L >= 1024;
  float v = 0.0f;
  if (ok)
    v = a[(int)L + (int)t];
  __syncthreads();
  if (ok)
    a[t] = v * 0.5f + 1.0f;
}

// A 64-bit element count truncated to int for a row offset: rows * cols
// with cols = 2^31 + 16 wraps to 16 * rows.
// GMEM-EXPECT: trunc_rowcol_rw conditional
// GMEM-RUN: trunc_rowcol_rw grid=1 block=32 args=buf:f32:8192:rand i64:2048
// GMEM-RUN: trunc_rowcol_rw grid=1 block=32 args=buf:f32:8192:rand i64:2147483656
__global__ void trunc_rowcol_rw(float *a, long long cols) {
  unsigned t = threadIdx.x;
  bool ok = t < 32 && cols >= 1024 && cols <= 4294967295LL;
  float v = 0.0f;
  if (ok)
    v = a[(int)(cols * 2) + (int)t];
  __syncthreads();
  if (ok)
    a[t] = v + 2.0f;
}

// Unsigned sum of two parameters read as int, with a barrier between the
// read and the write: u = 2^32 - 8 + ... style wrap through a product.
// GMEM-EXPECT: sext_mul2_rw conditional
// GMEM-RUN: sext_mul2_rw grid=1 block=128 args=buf:f32:8192:rand u32:600 u32:3
// GMEM-RUN: sext_mul2_rw grid=1 block=128 args=buf:f32:8192:rand u32:536870912 u32:8
__global__ void sext_mul2_rw(float *a, unsigned u, unsigned k) {
  unsigned t = threadIdx.x;
  float v = 0.0f;
  bool ok = t < 128 && (int)u >= 512 && (int)k >= 1 && (int)k <= 8;
  if (ok)
    v = a[(int)(u * k) + (int)t];
  __syncthreads();
  if (ok)
    a[t] = v + 1.0f;
}

// Signed comparison of a wrapped unsigned product as the guard of the read:
// the guard holds on the machine value, so this one is truly idempotent.
// GMEM-EXPECT: guard_on_wrap_rw idempotent
// GMEM-RUN: guard_on_wrap_rw grid=1 block=64 args=buf:f32:8192:rand u32:300
// GMEM-RUN: guard_on_wrap_rw grid=1 block=64 args=buf:f32:8192:rand u32:1073741824
__global__ void guard_on_wrap_rw(float *a, unsigned u) {
  unsigned t = threadIdx.x;
  int j = (int)(u * 4u);
  if (t < 512 && j >= 1024 && j < 8000) {
    a[t] = a[j] + 1.0f;
  }
}

// A 64-bit stride truncated to 32 bits inside a loop's index.
// GMEM-EXPECT: trunc_loop_rw conditional
// GMEM-RUN: trunc_loop_rw grid=1 block=16 args=buf:f32:4096:rand i64:1024
// GMEM-RUN: trunc_loop_rw grid=1 block=16 args=buf:f32:4096:rand i64:4294967296
__global__ void trunc_loop_rw(float *a, long long base) {
  unsigned t = threadIdx.x;
  bool ok = t < 16 && base >= 1024;
  float s = 0.0f;
  if (ok)
    for (int k = 0; k < 4; k++)
      s += a[(int)base + k * 16 + (int)t];
  __syncthreads();
  if (ok)
    a[t] = s;
}

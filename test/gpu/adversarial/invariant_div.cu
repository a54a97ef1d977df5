// Adversarial round 48: a signed division or remainder of launch values
// (parameters only) whose dividend or divisor is computed in wrapping
// unsigned arithmetic and then read as int. The quotient's or remainder's
// value depends on the wrapped 32-bit value, not on the mathematical sum or
// product; dividing the mathematical one gives a different, in-range
// result, so no range check catches it. Pointers named `p` point into the
// middle of `base`.

// (int)(ua + ub) / d: ua = 2^31 - 1, ub = 1 wraps to INT_MIN, so the index
// is -128 + t for d = 2^24 (the mathematical 2^31 / 2^24 is +128).
// GMEM-EXPECT: inv_sdiv_sum idempotent
// GMEM-RUN: inv_sdiv_sum grid=1 block=4 args=buf:f32:1024:zero ptr:0+2048 u32:2147483647 u32:1 i32:16777216
// GMEM-RUN: inv_sdiv_sum grid=1 block=4 args=buf:f32:1024:zero ptr:0+2048 u32:100 u32:28 i32:2
__global__ void inv_sdiv_sum(float *base, float *p, unsigned ua, unsigned ub, int d) {
  int x = (int)(ua + ub);
  p[x / d + (int)threadIdx.x] = 1.0f;
}

// (int)(ua * ub) % d: 65536 * 65537 = 2^32 + 65536 wraps to 65536, whose
// remainder by 100 is 36 (the mathematical product's is 32).
// GMEM-EXPECT: inv_srem_mul idempotent
// GMEM-RUN: inv_srem_mul grid=1 block=4 args=buf:f32:1024:zero ptr:0+2048 u32:65536 u32:65537 i32:100
// GMEM-RUN: inv_srem_mul grid=1 block=4 args=buf:f32:1024:zero ptr:0+2048 u32:7 u32:9 i32:10
__global__ void inv_srem_mul(float *base, float *p, unsigned ua, unsigned ub, int d) {
  int x = (int)(ua * ub);
  p[x % d + (int)threadIdx.x] = 1.0f;
}

// In place: reads a[(int)(ua + ub) / d + 512 + t], writes a[t]. With
// ua = 2^31 - 1, ub = 1, d = 2^22 the read is a[t] (-512 + 512), the
// mathematical value a[1024 + t]: a read-modify-write called idempotent.
// GMEM-EXPECT: inv_sdiv_rw conditional
// GMEM-RUN: inv_sdiv_rw grid=1 block=64 args=buf:f32:2048:rand u32:2147483647 u32:1 i32:4194304
// GMEM-RUN: inv_sdiv_rw grid=1 block=64 args=buf:f32:2048:rand u32:1000 u32:24 i32:2
__global__ void inv_sdiv_rw(float *a, unsigned ua, unsigned ub, int d) {
  unsigned t = threadIdx.x;
  int x = (int)(ua + ub);
  float v = a[x / d + 512 + (int)t];
  __syncthreads();
  a[t] = v + 1.0f;
}

// In place through the remainder: INT_MIN % 1000 = -648, the mathematical
// 2^31 % 1000 = +648; reads a[x % d + 648 + t], writes a[t].
// GMEM-EXPECT: inv_srem_rw conditional
// GMEM-RUN: inv_srem_rw grid=1 block=64 args=buf:f32:2048:rand u32:2147483647 u32:1 i32:1000
// GMEM-RUN: inv_srem_rw grid=1 block=64 args=buf:f32:2048:rand u32:500 u32:500 i32:1000
__global__ void inv_srem_rw(float *a, unsigned ua, unsigned ub, int d) {
  unsigned t = threadIdx.x;
  int x = (int)(ua + ub);
  float v = a[x % d + 648 + (int)t];
  __syncthreads();
  a[t] = v * 0.5f + 1.0f;
}

// An image's middle row: n = w * h computed in unsigned (it wraps for a
// 65536 x 65537 size), halved as int. The mathematical half is beyond the
// allocation.
// GMEM-EXPECT: mid_of_wrapped_size idempotent
// GMEM-RUN: mid_of_wrapped_size grid=1 block=32 args=buf:f32:65600:zero u32:65536 u32:65537
// GMEM-RUN: mid_of_wrapped_size grid=1 block=32 args=buf:f32:65600:zero u32:256 u32:256
__global__ void mid_of_wrapped_size(float *img, unsigned w, unsigned h) {
  int n = (int)(w * h);
  img[n / 2 + (int)threadIdx.x] = 2.0f;
}

// A wrapped divisor: (int)(ua + ub) = -2 for ua = ub = 2^31 - 1; the
// quotient 100 / -2 = -50 (the mathematical divisor 2^32 - 2 gives 0).
// GMEM-EXPECT: wrapped_divisor idempotent
// GMEM-RUN: wrapped_divisor grid=1 block=4 args=buf:f32:256:zero ptr:0+512 i32:100 u32:2147483647 u32:2147483647
// GMEM-RUN: wrapped_divisor grid=1 block=4 args=buf:f32:256:zero ptr:0+512 i32:100 u32:3 u32:2
__global__ void wrapped_divisor(float *base, float *p, int n, unsigned ua, unsigned ub) {
  p[n / (int)(ua + ub) + (int)threadIdx.x] = 3.0f;
}

// A tile count from a wrapped product divided by the tile size, used as an
// offset into a workspace that the kernel also reads at its start: 65536^2
// wraps to 0 tiles, so the writes land on the reads (the mathematical count
// 2^32 / 48 puts them far past the allocation).
// GMEM-EXPECT: workspace_tail_rw conditional
// GMEM-RUN: workspace_tail_rw grid=1 block=32 args=buf:f32:4096:rand u32:65536 u32:65536 i32:48
// GMEM-RUN: workspace_tail_rw grid=1 block=32 args=buf:f32:4096:rand u32:64 u32:64 i32:48
__global__ void workspace_tail_rw(float *ws, unsigned rows, unsigned cols, int tile) {
  unsigned t = threadIdx.x;
  int tiles = (int)(rows * cols) / tile; // 65536 * 65536 wraps to 0 tiles
  float v = ws[t];
  __syncthreads();
  ws[tiles + (int)t] = v + 1.0f;
}

// Control: an arithmetic shift of the wrapped sum (SCEV-opaque too, but
// bounded through the signed reading with a range check).
// GMEM-EXPECT: inv_ashr_sum idempotent
// GMEM-RUN: inv_ashr_sum grid=1 block=4 args=buf:f32:1024:zero ptr:0+2048 u32:2147483647 u32:1
__global__ void inv_ashr_sum(float *base, float *p, unsigned ua, unsigned ub) {
  int x = (int)(ua + ub);
  p[(x >> 24) + (int)threadIdx.x] = 4.0f;
}

// Control: a signed division whose dividend varies per thread.
// GMEM-EXPECT: thread_sdiv_sum idempotent
// GMEM-RUN: thread_sdiv_sum grid=1 block=4 args=buf:f32:1024:zero ptr:0+2048 u32:2147483647 u32:1 i32:16777216
__global__ void thread_sdiv_sum(float *base, float *p, unsigned ua, unsigned ub, int d) {
  int x = (int)(ua + ub + threadIdx.x);
  p[x / d] = 5.0f;
}

// Adversarial round 48: loops whose induction is multiplicative or
// shifting, whose bound is loaded from memory, whose exit is data dependent,
// do-while loops whose first trip ignores the test, values of an induction
// variable after the loop, break/goto/switch, conditional strides, pointer
// induction variables.

// Doubling stride: s = 1, 2, 4, ... < n.
// GMEM-EXPECT: doubling_idx idempotent
// GMEM-RUN: doubling_idx grid=1 block=32 args=buf:f32:1024:zero i32:600
// GMEM-RUN: doubling_idx grid=1 block=32 args=buf:f32:1024:zero i32:1
__global__ void doubling_idx(float *p, int n) {
  for (int s = 1; s < n; s <<= 1)
    p[threadIdx.x + s] = (float)s;
}

// Halving from n: s = n, n/2, ..., 1; the first value is n itself.
// GMEM-EXPECT: halving_idx idempotent
// GMEM-RUN: halving_idx grid=1 block=32 args=buf:f32:1024:zero i32:900
// GMEM-RUN: halving_idx grid=1 block=32 args=buf:f32:1024:zero i32:0
__global__ void halving_idx(float *p, int n) {
  for (int s = n; s > 0; s >>= 1)
    p[s + threadIdx.x] = 1.0f;
}

// Tripling: k = 1, 3, 9, ... while k < n.
// GMEM-EXPECT: tripling_idx idempotent
// GMEM-RUN: tripling_idx grid=1 block=32 args=buf:f32:1024:zero i32:700
__global__ void tripling_idx(float *p, int n) {
  for (int k = 1; k < n; k *= 3)
    p[k + threadIdx.x] = 2.0f;
}

// Tree reduction in place over global memory (the classic in-place sum):
// not idempotent.
// GMEM-EXPECT: tree_reduce_inplace non-idempotent
// GMEM-RUN: tree_reduce_inplace grid=1 block=64 args=buf:f32:128:rand
__global__ void tree_reduce_inplace(float *a) {
  unsigned t = threadIdx.x;
  for (unsigned s = blockDim.x; s > 0; s >>= 1) {
    if (t < s)
      a[t] += a[t + s];
    __syncthreads();
  }
}

// do-while: the body runs once before the test, so p[t + off] is written
// even when n <= t + off.
// GMEM-EXPECT: dowhile_first idempotent
// GMEM-RUN: dowhile_first grid=1 block=32 args=buf:f32:1024:zero i32:0 i32:500
// GMEM-RUN: dowhile_first grid=1 block=32 args=buf:f32:1024:zero i32:300 i32:7
__global__ void dowhile_first(float *p, int n, int off) {
  int k = threadIdx.x + off;
  do {
    p[k] = 3.0f;
    k += blockDim.x;
  } while (k < n);
}

// do-while in place: reads a[k + 1] and writes a[k] from k = t + off on.
// GMEM-EXPECT: dowhile_rw non-idempotent
// GMEM-RUN: dowhile_rw grid=1 block=32 args=buf:f32:1024:rand i32:0 i32:500
__global__ void dowhile_rw(float *a, int n, int off) {
  int k = threadIdx.x + off;
  float v;
  do {
    v = a[k + 1];
    k += blockDim.x;
  } while (k < n);
  __syncthreads();
  a[threadIdx.x + off] = v + 1.0f;
}

// Loop bound loaded from memory.
// GMEM-EXPECT: bound_from_memory conditional
// GMEM-RUN: bound_from_memory grid=1 block=32 args=buf:f32:2048:zero buf:i32:1:const:1500
// GMEM-RUN: bound_from_memory grid=1 block=32 args=buf:f32:2048:zero buf:i32:1:const:-5
__global__ void bound_from_memory(float *p, const int *cnt) {
  int n = cnt[0];
  for (int k = threadIdx.x; k < n; k += blockDim.x)
    p[k] = 4.0f;
}

// Search loop: k stops at the first zero or at n; the value after the
// loop (up to n itself) is the index written.
// GMEM-EXPECT: search_exit_value conditional
// GMEM-RUN: search_exit_value grid=1 block=1 args=buf:f32:512:zero buf:i32:512:const:1 i32:300
// GMEM-RUN: search_exit_value grid=1 block=1 args=buf:f32:512:zero buf:i32:512:randint:0:3 i32:300
__global__ void search_exit_value(float *out, const int *a, int n) {
  int k = 0;
  while (k < n && a[k] != 0)
    k++;
  out[k] = 5.0f;
}

// Grid-stride loop's exit value used as an index: k ends in [n, n + stride).
// GMEM-EXPECT: stride_exit_value idempotent
// GMEM-RUN: stride_exit_value grid=2 block=32 args=buf:f32:1024:zero i32:500
// GMEM-RUN: stride_exit_value grid=2 block=32 args=buf:f32:1024:zero i32:-3
__global__ void stride_exit_value(float *p, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  for (; k < n; k += blockDim.x * gridDim.x)
    ;
  p[k] = 6.0f;
}

// Exit value of a loop that counts down past zero.
// GMEM-EXPECT: countdown_exit idempotent
// GMEM-RUN: countdown_exit grid=1 block=32 args=buf:f32:1024:zero ptr:0+2048 i32:100 i32:7
__global__ void countdown_exit(float *base, float *p, int start, int step) {
  int k = start + (int)threadIdx.x;
  while (k >= 0)
    k -= step;
  p[k] = 7.0f;
}

// Counting matches: j is the number of positive elements seen (0..n).
// GMEM-EXPECT: count_index conditional
// GMEM-RUN: count_index grid=1 block=1 args=buf:f32:512:zero buf:f32:300:const:1 i32:300
// GMEM-RUN: count_index grid=1 block=1 args=buf:f32:512:zero buf:f32:300:rand i32:300
__global__ void count_index(float *out, const float *a, int n) {
  int j = 0;
  for (int k = 0; k < n; k++)
    if (a[k] > 0.0f)
      j++;
  out[j] = 8.0f;
}

// Data-dependent stride: k advances by 1 or 2 but stays below n.
// GMEM-EXPECT: data_stride conditional
// GMEM-RUN: data_stride grid=1 block=1 args=buf:f32:512:zero buf:i32:512:randint:0:2 i32:400
__global__ void data_stride(float *out, const int *a, int n) {
  for (int k = 0; k < n;) {
    out[k] = 9.0f;
    k += a[k] + 1;
  }
}

// Data-dependent jump that may go backwards: k = a[k] (a linked list).
// GMEM-EXPECT: linked_walk conditional
// GMEM-RUN: linked_walk grid=1 block=1 args=buf:f32:512:zero buf:i32:512:randint:0:512 i32:40
__global__ void linked_walk(float *out, const int *next, int steps) {
  int k = 0;
  for (int s = 0; s < steps; s++) {
    out[k] = (float)s;
    k = next[k];
  }
}

// break out of a loop at a second bound m (min(n, m) iterations).
// GMEM-EXPECT: break_at_m idempotent
// GMEM-RUN: break_at_m grid=1 block=32 args=buf:f32:1024:zero i32:900 i32:10
// GMEM-RUN: break_at_m grid=1 block=32 args=buf:f32:1024:zero i32:10 i32:900
__global__ void break_at_m(float *p, int n, int m) {
  for (int k = 0; k < n; k++) {
    if (k == m)
      break;
    p[k * 32 + threadIdx.x] = 10.0f;
  }
}

// goto loop: writes p[k] until k reaches n, testing after the store.
// GMEM-EXPECT: goto_loop idempotent
// GMEM-RUN: goto_loop grid=1 block=16 args=buf:f32:1024:zero i32:0
// GMEM-RUN: goto_loop grid=1 block=16 args=buf:f32:1024:zero i32:200
__global__ void goto_loop(float *p, int n) {
  int k = threadIdx.x * 8;
again:
  p[k] = 11.0f;
  k++;
  if (k < n)
    goto again;
}

// switch choosing an offset, one of them negative.
// GMEM-EXPECT: switch_offset idempotent
// GMEM-RUN: switch_offset grid=1 block=64 args=buf:f32:1024:zero ptr:0+1024 i32:300
__global__ void switch_offset(float *base, float *p, int far) {
  int t = threadIdx.x;
  int off;
  switch (t & 3) {
  case 0: off = 0; break;
  case 1: off = far; break;
  case 2: off = -200; break;
  default: off = 7; break;
  }
  p[t + off] = 12.0f;
}

// switch whose cases are dense (a lookup table after SimplifyCFG).
// GMEM-EXPECT: switch_table idempotent
// GMEM-RUN: switch_table grid=1 block=64 args=buf:f32:1024:zero ptr:0+2048
__global__ void switch_table(float *base, float *p) {
  int t = threadIdx.x;
  int off;
  switch (t % 6) {
  case 0: off = 13; break;
  case 1: off = -300; break;
  case 2: off = 250; break;
  case 3: off = -1; break;
  case 4: off = 99; break;
  default: off = -64; break;
  }
  p[t + off] = 13.0f;
}

// Early return in some threads, then a write past the guard's bound by others.
// GMEM-EXPECT: early_return_mix idempotent
// GMEM-RUN: early_return_mix grid=2 block=64 args=buf:f32:512:zero i32:40
__global__ void early_return_mix(float *p, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g < n)
    return;
  p[g + n] = 14.0f;
}

// Triangular nest: row r writes columns r..n-1 of an n x n matrix.
// GMEM-EXPECT: upper_tri idempotent
// GMEM-RUN: upper_tri grid=1 block=32 args=buf:f32:1024:zero i32:32
__global__ void upper_tri(float *m, int n) {
  int r = threadIdx.x;
  for (int c = r; c < n; c++)
    m[r * n + c] = 15.0f;
}

// Strided nest with a runtime inner stride and start.
// GMEM-EXPECT: strided_nest idempotent
// GMEM-RUN: strided_nest grid=1 block=8 args=buf:f32:4096:zero i32:3 i32:100 i32:7
__global__ void strided_nest(float *p, int step, int len, int rows) {
  for (int r = 0; r < rows; r++)
    for (int c = threadIdx.x; c < len; c += step)
      p[r * len + c] = 16.0f;
}

// Two-dimensional grid-stride loop.
// GMEM-EXPECT: grid_stride_2d idempotent
// GMEM-RUN: grid_stride_2d grid=3,2 block=32 args=buf:f32:2048:zero i64:2000
__global__ void grid_stride_2d(float *p, long long n) {
  size_t bid = (size_t)blockIdx.y * gridDim.x + blockIdx.x;
  size_t stride = (size_t)gridDim.x * gridDim.y * blockDim.x;
  for (size_t i = bid * blockDim.x + threadIdx.x; i < (size_t)n; i += stride)
    p[i] = 17.0f;
}

// Narrow unsigned char counter from a to b (wrapping past 255).
// GMEM-EXPECT: uchar_wrap_loop idempotent
// GMEM-RUN: uchar_wrap_loop grid=1 block=1 args=buf:f32:256:zero i32:250 i32:4
__global__ void uchar_wrap_loop(float *p, int a, int b) {
  for (unsigned char k = (unsigned char)a; k != (unsigned char)b; k++)
    p[k] = 18.0f;
}

// Pointer induction variable between two runtime offsets, stride 3.
// GMEM-EXPECT: pointer_iv idempotent
// GMEM-RUN: pointer_iv grid=1 block=3 args=buf:f32:1024:zero i32:10 i32:700
// GMEM-RUN: pointer_iv grid=1 block=3 args=buf:f32:1024:zero i32:700 i32:10
__global__ void pointer_iv(float *p, int lo, int hi) {
  for (float *q = p + lo + threadIdx.x; q < p + hi; q += 3)
    *q = 19.0f;
}

// Pointer walking backwards with a runtime end.
// GMEM-EXPECT: pointer_iv_back idempotent
// GMEM-RUN: pointer_iv_back grid=1 block=4 args=buf:f32:1024:zero i32:900 i32:100
__global__ void pointer_iv_back(float *p, int hi, int lo) {
  float *end = p + lo;
  for (float *q = p + hi - threadIdx.x; q >= end; q -= 4)
    *q = 20.0f;
}

// Loop whose index is a second variable advancing by 3 per trip.
// GMEM-EXPECT: second_iv idempotent
// GMEM-RUN: second_iv grid=1 block=2 args=buf:f32:1024:zero i32:200 i32:17
__global__ void second_iv(float *p, int n, int off) {
  int j = off + threadIdx.x;
  for (int k = 0; k < n; k++, j += 3)
    if (k % 2 == 0)
      p[j] = 21.0f;
}

// Loop with the test on k*k: k up to sqrt(m).
// GMEM-EXPECT: square_bound idempotent
// GMEM-RUN: square_bound grid=1 block=4 args=buf:f32:1024:zero i32:5000
__global__ void square_bound(float *p, int m) {
  for (int k = 0; k * k < m; k++)
    p[k * 4 + threadIdx.x] = 22.0f;
}

// Exit on a float accumulator: the trip count depends on floats.
// GMEM-EXPECT: float_exit idempotent
// GMEM-RUN: float_exit grid=1 block=4 args=buf:f32:1024:zero f32:0.3
__global__ void float_exit(float *p, float step) {
  float x = 0.0f;
  int k = 0;
  while (x < 50.0f) {
    p[k * 4 + threadIdx.x] = x;
    x += step;
    k++;
  }
}

// Nested loops with a runtime outer bound and a break in the inner one.
// GMEM-EXPECT: nest_break conditional
// GMEM-RUN: nest_break grid=1 block=1 args=buf:f32:1024:zero buf:i32:64:randint:0:20 i32:30 i32:30
__global__ void nest_break(float *out, const int *lim, int rows, int cols) {
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < cols; c++) {
      if (c > lim[r])
        break;
      out[r * cols + c] = 23.0f;
    }
}

// Loop counting down an unsigned index with a `k-- > 0` test.
// GMEM-EXPECT: unsigned_countdown idempotent
// GMEM-RUN: unsigned_countdown grid=1 block=4 args=buf:f32:1024:zero u32:250
// GMEM-RUN: unsigned_countdown grid=1 block=4 args=buf:f32:1024:zero u32:0
__global__ void unsigned_countdown(float *p, unsigned n) {
  for (unsigned k = n; k-- > 0;)
    p[k * 4 + threadIdx.x] = 24.0f;
}

// Loop whose step is the previous index (Fibonacci-like growth).
// GMEM-EXPECT: fib_idx idempotent
// GMEM-RUN: fib_idx grid=1 block=1 args=buf:f32:1024:zero i32:1000
__global__ void fib_idx(float *p, int n) {
  int a = 1, b = 1;
  while (b < n) {
    p[b] = 25.0f;
    int c = a + b;
    a = b;
    b = c;
  }
}

// Loop with an LCG-permuted index masked to 6 bits, in place.
// GMEM-EXPECT: lcg_rw non-idempotent
// GMEM-RUN: lcg_rw grid=1 block=1 args=buf:f32:64:rand i32:100
__global__ void lcg_rw(float *a, int n) {
  unsigned x = 1;
  for (int k = 0; k < n; k++) {
    x = (x * 5u + 1u) & 63u;
    a[x] += 1.0f;
  }
}

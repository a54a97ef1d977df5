// Two-loop (L1 stores, L2 reads back) shapes that break one premise of the
// covered-load rule, next to the rule's own positive shape.
// Per block one row of C floats (row = out + blockIdx.x * RS).

// GMEM-EXPECT: lp_softmax conditional
// GMEM-RUN: lp_softmax grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100
// GMEM-RUN: lp_softmax grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:16
__global__ void lp_softmax(const float *a, float *out, int C) {
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

// GMEM-EXPECT: lp_continue non-idempotent
// GMEM-RUN: lp_continue grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100
__global__ void lp_continue(const float *a, float *out, int C) {
  float *row = out + blockIdx.x * C;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    float e = a[blockIdx.x * C + c];
    if (e < 0.f) continue;
    row[c] = e;
  }
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = row[c] * 2.0f + 1.0f;
}

// GMEM-EXPECT: lp_break non-idempotent
// GMEM-RUN: lp_break grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100
__global__ void lp_break(const float *a, float *out, int C) {
  float *row = out + blockIdx.x * C;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    float e = a[blockIdx.x * C + c];
    row[c] = e;
    if (e > 0.9f) break;
  }
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = row[c] + 1.0f;
}

// GMEM-EXPECT: lp_break_before non-idempotent
// GMEM-RUN: lp_break_before grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100
__global__ void lp_break_before(const float *a, float *out, int C) {
  float *row = out + blockIdx.x * C;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    float e = a[blockIdx.x * C + c];
    if (e > 0.8f) break;
    row[c] = e;
  }
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = row[c] + 1.0f;
}

// GMEM-EXPECT: lp_return non-idempotent
// GMEM-RUN: lp_return grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100
__global__ void lp_return(const float *a, float *out, int C) {
  float *row = out + blockIdx.x * C;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    float e = a[blockIdx.x * C + c];
    if (e > 0.95f) { row[c] = 0.f; row[c + 1] = row[c + 1] + 1.0f; return; }
    row[c] = e;
  }
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = row[c] + 1.0f;
}

// GMEM-EXPECT: lp_longer non-idempotent
// GMEM-RUN: lp_longer grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100
// GMEM-RUN: lp_longer grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:96
__global__ void lp_longer(const float *a, float *out, int C) {
  float *row = out + blockIdx.x * (C + 1);
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = a[c];
  for (int c = threadIdx.x; c <= C; c += blockDim.x)
    row[c] = row[c] + 1.0f;
}

// L2 starts one stride before L1 (reads row[tid], never stored).
// GMEM-EXPECT: lp_shift_start non-idempotent
// GMEM-RUN: lp_shift_start grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100
__global__ void lp_shift_start(const float *a, float *out, int C) {
  float *row = out + blockIdx.x * C;
  for (int c = threadIdx.x + blockDim.x; c < C; c += blockDim.x)
    row[c] = a[c];
  for (int c = threadIdx.x; c < C - (int)blockDim.x; c += blockDim.x)
    row[c] = row[c] * 3.0f;
}

// GMEM-EXPECT: lp_other_bound non-idempotent
// GMEM-RUN: lp_other_bound grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:50 i32:100
// GMEM-RUN: lp_other_bound grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100 i32:50
__global__ void lp_other_bound(const float *a, float *out, int C, int D) {
  float *row = out + blockIdx.x * 128;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = a[c];
  for (int c = threadIdx.x; c < D; c += blockDim.x)
    row[c] = row[c] + 1.0f;
}

// Bound read from memory before each loop; the kernel writes the bound between.
// GMEM-EXPECT: lp_reloaded_bound non-idempotent
// GMEM-RUN: lp_reloaded_bound grid=1 block=32 args=buf:f32:2048:rand buf:i32:32:randint:1:20 ptr:1+0
// GMEM-RUN: lp_reloaded_bound grid=1 block=32 args=buf:f32:2048:rand buf:i32:32:randint:1:20 buf:i32:32:randint:1:40
__global__ void lp_reloaded_bound(float *out, const int *len1, int *len2) {
  int t = threadIdx.x;
  float *row = out + t * 64;
  int n1 = len1[t];
  for (int k = 0; k < n1; ++k)
    row[k] = (float)k;
  len2[t] = n1 + 3;
  int n2 = len1[t];
  for (int k = 0; k < n2; ++k)
    row[k] = row[k] * 2.0f;
}

// Index read from memory in each loop; idx overwritten in between.
// GMEM-EXPECT: lp_idx_reloaded non-idempotent
// GMEM-RUN: lp_idx_reloaded grid=1 block=32 args=buf:f32:1024:rand buf:i32:1024:randint:0:32
__global__ void lp_idx_reloaded(float *out, int *idx) {
  int t = threadIdx.x;
  float *row = out + t * 32;
  int *ix = idx + t * 32;
  for (int k = 0; k < 32; ++k)
    row[ix[k]] = 1.0f;
  for (int k = 0; k < 32; ++k)
    ix[k] = (ix[k] + 1) & 31;
  for (int k = 0; k < 32; ++k)
    row[ix[k]] = row[ix[k]] + 1.0f;
}

// Same guard value for both loops.
// GMEM-EXPECT: lp_same_guard conditional
// GMEM-RUN: lp_same_guard grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100 i32:1
// GMEM-RUN: lp_same_guard grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100 i32:0
__global__ void lp_same_guard(const float *a, float *out, int C, int go) {
  float *row = out + blockIdx.x * C;
  bool g = go != 0;
  if (g)
    for (int c = threadIdx.x; c < C; c += blockDim.x)
      row[c] = a[c];
  __syncthreads();
  if (g)
    for (int c = threadIdx.x; c < C; c += blockDim.x)
      row[c] = row[c] + 1.0f;
}

// Different guards for the two loops.
// GMEM-EXPECT: lp_diff_guard non-idempotent
// GMEM-RUN: lp_diff_guard grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100 i32:0 i32:1
// GMEM-RUN: lp_diff_guard grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100 i32:1 i32:1
__global__ void lp_diff_guard(const float *a, float *out, int C, int g1, int g2) {
  float *row = out + blockIdx.x * C;
  if (g1)
    for (int c = threadIdx.x; c < C; c += blockDim.x)
      row[c] = a[c];
  if (g2)
    for (int c = threadIdx.x; c < C; c += blockDim.x)
      row[c] = row[c] + 1.0f;
}

// Same guard value, but L2 also reachable from a path that skipped L1.
// GMEM-EXPECT: lp_guard_or non-idempotent
// GMEM-RUN: lp_guard_or grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100 i32:0 i32:1
// GMEM-RUN: lp_guard_or grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100 i32:1 i32:0
__global__ void lp_guard_or(const float *a, float *out, int C, int go, int other) {
  float *row = out + blockIdx.x * C;
  bool g = go != 0;
  if (g)
    for (int c = threadIdx.x; c < C; c += blockDim.x)
      row[c] = a[c];
  if (g || other)
    for (int c = threadIdx.x; c < C; c += blockDim.x)
      row[c] = row[c] + 1.0f;
}

// Negated guard: L2 entered exactly when L1 was not.
// GMEM-EXPECT: lp_guard_neg non-idempotent
// GMEM-RUN: lp_guard_neg grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100 i32:0
__global__ void lp_guard_neg(const float *a, float *out, int C, int go) {
  float *row = out + blockIdx.x * C;
  bool g = go != 0;
  if (g)
    for (int c = threadIdx.x; c < C; c += blockDim.x)
      row[c] = a[c];
  if (!g)
    for (int c = threadIdx.x; c < C; c += blockDim.x)
      row[c] = row[c] + 1.0f;
}

// do-while L1 (runs once even if C <= tid), while L2.
// GMEM-EXPECT: lp_dowhile conditional
// GMEM-RUN: lp_dowhile grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100
// GMEM-RUN: lp_dowhile grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:10
__global__ void lp_dowhile(const float *a, float *out, int C) {
  float *row = out + blockIdx.x * 128;
  int c = threadIdx.x;
  do {
    row[c] = a[c];
    c += blockDim.x;
  } while (c < C);
  for (int d = threadIdx.x; d < C; d += blockDim.x)
    row[d] = row[d] * 4.0f;
}

// do-while L2 reads once even when L1 ran zero times.
// GMEM-EXPECT: lp_dowhile2 non-idempotent
// GMEM-RUN: lp_dowhile2 grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:10
__global__ void lp_dowhile2(const float *a, float *out, int C) {
  float *row = out + blockIdx.x * 128;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = a[c];
  int d = threadIdx.x;
  do {
    row[d] = row[d] * 4.0f;
    d += blockDim.x;
  } while (d < C);
}

// Store in an inner loop of L1 (only when the inner loop runs).
// GMEM-EXPECT: lp_inner_store non-idempotent
// GMEM-RUN: lp_inner_store grid=1 block=32 args=buf:f32:1024:rand buf:i32:32:randint:0:3
__global__ void lp_inner_store(float *out, const int *reps) {
  int t = threadIdx.x;
  float *row = out + t * 32;
  for (int k = 0; k < 8; ++k)
    for (int r = 0; r < reps[t]; ++r)
      row[k] = (float)(k + r);
  for (int k = 0; k < 8; ++k)
    row[k] = row[k] + 1.0f;
}

// Outer loop: L2 (read) in iteration it reads what L1 wrote in it-1.
// GMEM-EXPECT: lp_outer_prev non-idempotent
// GMEM-RUN: lp_outer_prev grid=1 block=32 args=buf:f32:1024:rand buf:f32:1024:rand i32:3
__global__ void lp_outer_prev(float *out, const float *a, int iters) {
  int t = threadIdx.x;
  float *row = out + t * 32;
  for (int it = 0; it < iters; ++it) {
    for (int k = 0; k < 8; ++k)
      row[k] = row[k] + 1.0f;
    for (int k = 0; k < 8; ++k)
      row[k] = a[t * 32 + k] + (float)it;
  }
}

// Outer loop: L1 only on even outer iterations, L2 every iteration.
// GMEM-EXPECT: lp_outer_even non-idempotent
// GMEM-RUN: lp_outer_even grid=1 block=32 args=buf:f32:1024:rand buf:f32:1024:rand i32:1
// GMEM-RUN: lp_outer_even grid=1 block=32 args=buf:f32:1024:rand buf:f32:1024:rand i32:4
__global__ void lp_outer_even(float *out, const float *a, int iters) {
  int t = threadIdx.x;
  float *row = out + t * 32;
  for (int it = 0; it < iters; ++it) {
    if ((it & 1) == 0)
      for (int k = 0; k < 8; ++k)
        row[k] = a[t * 32 + k];
    for (int k = 0; k < 8; ++k)
      row[k] = row[k] * 2.0f;
  }
}

// Outer loop, L1 and L2 both every iteration but L2 reads at the next
// outer row (k + 8*(it+1)) that L1 writes only next iteration.
// GMEM-EXPECT: lp_outer_next non-idempotent
// GMEM-RUN: lp_outer_next grid=1 block=32 args=buf:f32:2048:rand buf:f32:2048:rand i32:3
__global__ void lp_outer_next(float *out, const float *a, int iters) {
  int t = threadIdx.x;
  float *row = out + t * 64;
  for (int it = 0; it < iters; ++it) {
    for (int k = 0; k < 8; ++k)
      row[8 * it + k] = a[t * 64 + k];
    for (int k = 0; k < 8; ++k)
      row[8 * it + 8 + k] = row[8 * it + 8 + k] + 1.0f;
  }
}

// switch in L1: one case stores nothing.
// GMEM-EXPECT: lp_switch non-idempotent
// GMEM-RUN: lp_switch grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand buf:i32:256:randint:0:3 i32:100
__global__ void lp_switch(const float *a, float *out, const int *sel, int C) {
  float *row = out + blockIdx.x * C;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    switch (sel[c]) {
    case 0: row[c] = a[c]; break;
    case 1: row[c] = -a[c]; break;
    default: break;
    }
  }
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = row[c] + 1.0f;
}

// switch in L1 where every case stores (should be fine, maybe unproven).
// GMEM-EXPECT: lp_switch_all conditional
// GMEM-RUN: lp_switch_all grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand buf:i32:256:randint:0:3 i32:100
__global__ void lp_switch_all(const float *a, float *out, const int *sel, int C) {
  float *row = out + blockIdx.x * C;
  for (int c = threadIdx.x; c < C; c += blockDim.x) {
    float v;
    switch (sel[c]) {
    case 0: v = a[c]; break;
    case 1: v = -a[c]; break;
    default: v = 0.f; break;
    }
    row[c] = v;
  }
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = row[c] + 1.0f;
}

// goto-built loops; the first can jump over its store.
// GMEM-EXPECT: lp_goto non-idempotent
// GMEM-RUN: lp_goto grid=1 block=32 args=buf:f32:1024:rand buf:f32:1024:rand
__global__ void lp_goto(float *out, const float *a) {
  int t = threadIdx.x;
  float *row = out + t * 32;
  int k = 0;
top:
  if (a[t * 32 + k] < -0.5f) goto skip;
  row[k] = a[t * 32 + k];
skip:
  if (++k < 16) goto top;
  k = 0;
again:
  row[k] = row[k] * 2.0f;
  if (++k < 16) goto again;
}

// Irreducible cycle around both loops, entered in the middle.
// GMEM-EXPECT: lp_irreducible non-idempotent
// GMEM-RUN: lp_irreducible grid=1 block=32 args=buf:f32:1024:rand buf:i32:32:randint:0:2 i32:3
__global__ void lp_irreducible(float *out, const int *mode, int rounds) {
  int t = threadIdx.x;
  float *row = out + t * 32;
  int r = 0;
  if (mode[t]) goto second;
first:
  for (int k = 0; k < 8; ++k)
    row[k] = (float)(k + r);
second:
  for (int k = 0; k < 8; ++k)
    row[k] = row[k] + 1.0f;
  if (++r < rounds) goto first;
}

// L1 steps with an unsigned index that wraps; L2 identical test.
// GMEM-EXPECT: lp_unsigned_wrap conditional
// GMEM-RUN: lp_unsigned_wrap grid=1 block=32 args=buf:f32:8192:rand buf:f32:8192:rand u32:4000 u32:4294967040
__global__ void lp_unsigned_wrap(float *out, const float *a, unsigned n, unsigned start) {
  float *row = out + threadIdx.x * 256;
  for (unsigned c = start; c != start + 64u; c += 1u)
    row[(unsigned char)c] = a[(unsigned char)c];
  for (unsigned c = start; c != start + 64u; c += 1u)
    row[(unsigned char)c] = row[(unsigned char)c] + 1.0f;
}

// 8-bit counter in L1 wraps (runs more), 32-bit in L2: offsets differ.
// GMEM-EXPECT: lp_narrow_iv non-idempotent
// GMEM-RUN: lp_narrow_iv grid=1 block=32 args=buf:f32:16384:rand buf:f32:512:rand i32:300
__global__ void lp_narrow_iv(float *out, const float *a, int n) {
  float *row = out + threadIdx.x * 512;
  unsigned char k = 0;
  for (int j = 0; j < n; ++j, ++k)
    row[k] = a[k];
  for (int j = 0; j < n; ++j)
    row[j] = row[j] * 2.0f;
}

// 64-bit index in L2, 32-bit in L1 (same values): should be accepted.
// GMEM-EXPECT: lp_idx64 conditional
// GMEM-RUN: lp_idx64 grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100
__global__ void lp_idx64(const float *a, float *out, int C) {
  float *row = out + blockIdx.x * C;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = a[c];
  for (long long c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = row[c] + 1.0f;
}

// Bound = a value the kernel computes from what it wrote (a prefix count).
// GMEM-EXPECT: lp_bound_from_data non-idempotent
// GMEM-RUN: lp_bound_from_data grid=1 block=32 args=buf:f32:2048:rand buf:f32:2048:rand
__global__ void lp_bound_from_data(float *out, const float *a) {
  int t = threadIdx.x;
  float *row = out + t * 64;
  int n = 0;
  for (int k = 0; k < 16; ++k) {
    row[k] = a[t * 64 + k];
    n += a[t * 64 + k] > 0.f;
  }
  for (int k = 0; k < n + 8; ++k)
    row[k] = row[k] + 1.0f;
}

// L2 bounded by min(C, D): at most L1's count.
// GMEM-EXPECT: lp_min_bound conditional
// GMEM-RUN: lp_min_bound grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:100 i32:40
// GMEM-RUN: lp_min_bound grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:60 i32:100
__global__ void lp_min_bound(const float *a, float *out, int C, int D) {
  float *row = out + blockIdx.x * 128;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = a[c];
  int m = C < D ? C : D;
  for (int c = threadIdx.x; c < m; c += blockDim.x)
    row[c] = row[c] + 1.0f;
}

// L2 bounded by max(C, D): may run longer.
// GMEM-EXPECT: lp_max_bound non-idempotent
// GMEM-RUN: lp_max_bound grid=2 block=32 args=buf:f32:256:rand buf:f32:256:rand i32:40 i32:100
__global__ void lp_max_bound(const float *a, float *out, int C, int D) {
  float *row = out + blockIdx.x * 128;
  for (int c = threadIdx.x; c < C; c += blockDim.x)
    row[c] = a[c];
  int m = C > D ? C : D;
  for (int c = threadIdx.x; c < m; c += blockDim.x)
    row[c] = row[c] + 1.0f;
}

// Adversarial corpus, session 55c: the OwnIndex operand (`m[i]` at the
// store's own index) where the store's pointer is a per-thread (or
// per-iteration) base plus that index, so threads sharing one element use
// different indices and so read different m words: their maps differ.

// Two rows of threads, row y works on p + y, element p[y + x]; row r acts
// in round r (barriers). Map: x == m[i] ? m[i] + 1 : x, i = threadIdx.x.
// m = {0, 1, ...}: p[1] gets row 0 (i = 1: 1 -> 2) then row 1 (i = 0:
// 0 -> 1). From 0: run 1 gives 1, run 2 gives 2.
// GMEM-EXPECT: oi_rows non-idempotent
// GMEM-RUN: oi_rows grid=1 block=2,2 args=buf:i32:3:zero buf:i32:2:iota i32:2
__global__ void oi_rows(int *p, const int *m, int rounds) {
  int *q = p + threadIdx.y;
  int i = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.y == r) {
      int x = q[i];
      q[i] = x == m[i] ? m[i] + 1 : x;
    }
    __syncthreads();
  }
}

// One thread, an outer loop over the base: p + s, inner index j.
// GMEM-EXPECT: oi_loop non-idempotent
// GMEM-RUN: oi_loop grid=1 block=1 args=buf:i32:3:zero buf:i32:2:iota i32:2
__global__ void oi_loop(int *p, const int *m, int n) {
  for (int s = 0; s < n; ++s) {
    int *q = p + s;
#pragma unroll 1
    for (int j = n - 1; j >= 0; --j) {
      int x = q[j];
      q[j] = x == m[j] ? m[j] + 1 : x;
    }
  }
}

// Byte offset base (char *), then an int index.
// GMEM-EXPECT: oi_bytes non-idempotent
// GMEM-RUN: oi_bytes grid=1 block=2,2 args=buf:i32:3:zero buf:i32:2:iota i32:2
__global__ void oi_bytes(int *p, const int *m, int rounds) {
  int *q = (int *)((char *)p + 4 * threadIdx.y);
  int i = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.y == r) {
      int x = q[i];
      q[i] = x == m[i] ? m[i] + 1 : x;
    }
    __syncthreads();
  }
}

// Base from a scalar loop in one thread (no barrier): s then j.
// GMEM-EXPECT: oi_seq non-idempotent
// GMEM-RUN: oi_seq grid=1 block=1 args=buf:i32:3:zero buf:i32:2:iota
__global__ void oi_seq(int *p, const int *m) {
  int *q0 = p;
  int x = q0[1];
  q0[1] = x == m[1] ? m[1] + 1 : x;
  __syncthreads();
  int *q1 = p + 1;
  int y = q1[0];
  q1[0] = y == m[0] ? m[0] + 1 : y;
}

// The guarded form (a branch on x storing m[i] + 1).
// GMEM-EXPECT: oi_guard non-idempotent
// GMEM-RUN: oi_guard grid=1 block=2,2 args=buf:i32:3:zero buf:i32:2:iota i32:2
__global__ void oi_guard(int *p, const int *m, int rounds) {
  int *q = p + threadIdx.y;
  int i = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.y == r) {
      int x = q[i];
      if (x == m[i]) q[i] = m[i] + 1;
    }
    __syncthreads();
  }
}

// Block base: p + blockIdx.x, own index threadIdx.x; blocks overlap by one.
// Races between CTAs are accepted, so this one only needs the two blocks
// ordered... they are not: informational.
// GMEM-EXPECT: oi_blocks non-idempotent
// GMEM-RUN: oi_blocks grid=2 block=2 args=buf:i32:3:zero buf:i32:2:iota
__global__ void oi_blocks(int *p, const int *m) {
  int *q = p + blockIdx.x;
  int i = threadIdx.x;
  int x = q[i];
  q[i] = x == m[i] ? m[i] + 1 : x;
}

// Control: the base is the same for every thread (own element).
// GMEM-EXPECT: oi_ctrl conditional
// GMEM-RUN: oi_ctrl grid=1 block=2,2 args=buf:i32:3:zero buf:i32:2:iota i32:2
__global__ void oi_ctrl(int *p, const int *m, int rounds) {
  int i = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.y == r) {
      int x = p[i];
      p[i] = x == m[i] ? m[i] + 1 : x;
    }
    __syncthreads();
  }
}

// Realistic: a row pointer with a scalar leading dimension; each column c
// replaces the value from[c] by to[c] (from = {0, 1}, to = {5, 5}: set
// below by the RUN as iota and randint:5:6, so to = {5, 5}; the unsound
// case needs to[0] == from[1]: see oi_lda2). With lda = 1 rows overlap
// (row r, column c is element r + c); with lda = 2 (the row width) they do
// not. Row r acts in round r.
// GMEM-EXPECT: oi_lda non-idempotent
// GMEM-RUN: oi_lda grid=1 block=2,2 args=buf:i32:4:zero i32:1 buf:i32:2:iota buf:i32:2:randint:5:6 i32:2
__global__ void oi_lda(int *a, int lda, const int *from, const int *to, int rounds) {
  int *row = a + threadIdx.y * lda;
  int c = threadIdx.x;
#pragma unroll 1
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.y == r) {
      int x = row[c];
      row[c] = x == from[c] ? to[c] : x;
    }
    __syncthreads();
  }
}

// The same with to = from + 1 (to[c] = from[c] + 1: 0 -> 1, 1 -> 2). lda
// = 1: element 1 is row 0 column 1 (1 -> 2) then row 1 column 0 (0 -> 1):
// from 0, run 1 gives 1 and run 2 gives 2. lda = 2: apart, idempotent.
// GMEM-EXPECT: oi_lda2 non-idempotent
// GMEM-RUN: oi_lda2 grid=1 block=2,2 args=buf:i32:4:zero i32:1 buf:i32:2:iota i32:2
// GMEM-RUN: oi_lda2 grid=1 block=2,2 args=buf:i32:4:zero i32:2 buf:i32:2:iota i32:2
__global__ void oi_lda2(int *a, int lda, const int *from, int rounds) {
  int *row = a + threadIdx.y * lda;
  int c = threadIdx.x;
#pragma unroll 1
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.y == r) {
      int x = row[c];
      row[c] = x == from[c] ? from[c] + 1 : x;
    }
    __syncthreads();
  }
}

// Segments: thread t works on v + start[1 - t] at own index t (start =
// iota: thread 0 on v + 1, thread 1 on v + 0): both on v[1], keys key[0]
// = 0 and key[1] = 1. Thread 1 acts first (round 0).
// GMEM-EXPECT: oi_segments non-idempotent
// GMEM-RUN: oi_segments grid=1 block=2 args=buf:i32:3:zero buf:i32:2:iota buf:i32:2:iota i32:2
__global__ void oi_segments(int *v, const int *start, const int *key, int rounds) {
  int t = threadIdx.x;
  int *seg = v + start[1 - t];
#pragma unroll 1
  for (int r = 0; r < rounds; ++r) {
    if (t == 1 - r) {
      int x = seg[t];
      seg[t] = x == key[t] ? key[t] + 1 : x;
    }
    __syncthreads();
  }
}

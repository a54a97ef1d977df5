// Adversarial corpus (session 55a), part 2: other attacks on the lattice
// rule (isLatticeMap): families mixed on one element by two stores, maps
// whose operands other threads wrote (shared memory, the updated buffer,
// an aliasing parameter), the guarded chain of gl_guarded.cu through the
// alias-pair rule and in 2-D, and controls. Expectations: the author's view.

// Two stores to one element: odd threads max, even threads or. Each pair
// alone is a lattice map; the cross pairs are not (refused). Phased by
// thread: thread r acts in round r. From 0, A = t: run 1: |0 -> 0, max 1
// -> 1, |2 -> 3, max 3 -> 3; run 2 the same: or-then-max is not a
// counterexample here, but the kernel must be refused by the cross pairs.
// GMEM-EXPECT: mx_max_or non-idempotent
// GMEM-RUN: mx_max_or grid=1 block=32 args=buf:i32:1:zero i32:4
__global__ void mx_max_or(int *p, int rounds) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int x = p[0];
      if (t & 1)
        p[0] = max(x, t);
      else
        p[0] = x | t;
    }
    __syncthreads();
  }
}

// Or then max (a real counterexample: 0 | 1 = 1, max(1, 2) = 2; run 2:
// 2 | 1 = 3, max(3, 2) = 3), as two loads and two stores in one thread.
// GMEM-EXPECT: mx_or_then_max non-idempotent
// GMEM-RUN: mx_or_then_max grid=1 block=1 args=buf:i32:1:zero
__global__ void mx_or_then_max(int *p) {
  int t = threadIdx.x;
  p[0] = p[0] | (t + 1);
  __syncthreads();
  p[0] = max(p[0], t + 2);
}

// Signed max and unsigned min in one chain: not one family (refused).
// GMEM-EXPECT: mx_smax_umin non-idempotent
// GMEM-RUN: mx_smax_umin grid=1 block=64 args=buf:i32:2:zero
__global__ void mx_smax_umin(int *p) {
  int t = threadIdx.x;
  int x = p[t & 1];
  p[t & 1] = (int)umin((unsigned)max(x, t - 32), 0x80000000u + t);
}

// The operand from shared memory another thread wrote: refused.
// GMEM-EXPECT: mx_shared_operand non-idempotent
// GMEM-RUN: mx_shared_operand grid=1 block=64 args=buf:i32:1:zero buf:i32:64:iota
__global__ void mx_shared_operand(int *p, const int *q) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = q[t] * 3;
  __syncthreads();
  p[0] = max(p[0], s[t ^ 1]);
}

// The operand from another element of the updated buffer: refused.
// GMEM-EXPECT: mx_self_operand non-idempotent
// GMEM-RUN: mx_self_operand grid=1 block=31 args=buf:i32:32:iota
__global__ void mx_self_operand(int *p) {
  int t = threadIdx.x;
  p[0] = p[0] | p[t + 1];
}

// Keep-or-replace on m[t], m another parameter: apart, fine; called with
// m == x (an int view of the same words) the condition reads x: the
// launch must be refused.
// GMEM-EXPECT: mx_select_alias conditional
// GMEM-RUN: mx_select_alias grid=1 block=32 args=buf:i32:32:zero buf:i32:32:iota
// GMEM-RUN: mx_select_alias grid=1 block=32 args=buf:i32:32:zero ptr:0+0
__global__ void mx_select_alias(int *x, const int *m) {
  int t = threadIdx.x;
  int v = x[t >> 2];
  x[t >> 2] = m[t] ? t : v;
}

// Keep-or-replace on a per-thread condition, shared element (control:
// the last replacing thread wins, idempotent).
// GMEM-EXPECT: mx_select_ctrl idempotent
// GMEM-RUN: mx_select_ctrl grid=2 block=64 args=buf:i32:8:zero
__global__ void mx_select_ctrl(int *x) {
  int t = threadIdx.x;
  int v = x[t >> 4];
  x[t >> 4] = (t & 3) == 1 ? (int)blockIdx.x : v;
}

// Shared max with geometry (control, the lit test's shape).
// GMEM-EXPECT: mx_max_ctrl idempotent
// GMEM-RUN: mx_max_ctrl grid=2 block=64 args=buf:i32:16:zero
__global__ void mx_max_ctrl(int *x) {
  int t = threadIdx.x;
  x[t >> 3] = max(x[t >> 3], t + (int)blockIdx.x);
}

// gl_andor_pos out of place, called in place (alias pair rule): out[0] =
// (x[0] & a_t) | b_t when x[0] > 0, thread r in round r. Out of place: x
// never changes, both threads store in order (1 then 2): no race.
// GMEM-EXPECT: ao_andor_pos conditional
// GMEM-RUN: ao_andor_pos grid=1 block=32 args=buf:i32:1:const:1 buf:i32:1:zero i32:2
// GMEM-RUN: ao_andor_pos grid=1 block=32 args=buf:i32:1:const:1 ptr:0+0 i32:2
__global__ void ao_andor_pos(const int *x, int *out, int rounds) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int v = x[0];
      if (v > 0)
        out[0] = (v & (t ^ 1)) | (t << 1);
    }
    __syncthreads();
  }
}

// 2-D: threadIdx.y picks the map, rows act in rounds; p[threadIdx.x].
// GMEM-EXPECT: gl_andor_2d non-idempotent
// GMEM-RUN: gl_andor_2d grid=1 block=32,2 args=buf:i32:32:const:1 i32:2
__global__ void gl_andor_2d(int *p, int rounds) {
  int y = threadIdx.y;
  for (int r = 0; r < rounds; ++r) {
    if (y == r) {
      int x = p[threadIdx.x];
      if (x > 0)
        p[threadIdx.x] = (x & (y ^ 1)) | (y << 1);
    }
    __syncthreads();
  }
}

// Guard as if-then-else whose other arm writes nothing but computes.
// GMEM-EXPECT: gl_andor_ifelse non-idempotent
// GMEM-RUN: gl_andor_ifelse grid=1 block=32 args=buf:i32:1:const:1 i32:2 buf:i32:32:zero
__global__ void gl_andor_ifelse(int *p, int rounds, int *dbg) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int x = p[0];
      if (x >= 1)
        p[0] = (x & (t ^ 1)) | (t << 1);
    }
    __syncthreads();
  }
  dbg[t] = t;
}

// Three threads, grid-stride-free: guard x != 0, maps keep bit 0 (t0),
// set bit 1 (t1), clear bit 1 (t2): from 1: 1 -> 1 -> 3 -> 1; run 2 the
// same (control: x never leaves the region here).
// GMEM-EXPECT: gl_andor_ne0 idempotent
// GMEM-RUN: gl_andor_ne0 grid=1 block=32 args=buf:i32:1:const:1 i32:3
__global__ void gl_andor_ne0(int *p, int rounds) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int x = p[0];
      if (x != 0)
        p[0] = (x & (t == 2 ? 1 : 3)) | (t == 1 ? 2 : 0);
    }
    __syncthreads();
  }
}

// Adversarial corpus (session 55a): the lattice-map rule of
// IdempotentUpdates.cpp (isLatticeMap), which lets a map's operands differ
// by thread when the map is a chain of min/max of one order, of and/or, or a
// keep-or-replace select. The attack: isIdempotentUpdate's use walk still
// lets a branch on the loaded value guard the store (guardsOnly, with a
// condition over x and thread-invariant values). A *guarded* lattice map
// `x != 1 ? clamp_t(x) : x` is idempotent for each thread, but guarded
// two-operation chains are not closed under composition: a later thread's
// map moves x into the region where an earlier thread's map applies, so a
// run again applies it. Expectations: the author's view.

// Phase r: thread r alone loads p[0] and, unless it is 1, clamps it to
// [2t, t + 1] (thread 0: min(x, 1); thread 1: the constant 2). Barriers
// order the phases, so out of place there is no race. In place, from 0:
// run 1: 0 -> 0 -> 2; run 2: 2 -> 1 (thread 0), then x == 1, thread 1 skips.
// GMEM-EXPECT: gl_clamp_ne non-idempotent
// GMEM-RUN: gl_clamp_ne grid=1 block=32 args=buf:i32:1:zero i32:2
__global__ void gl_clamp_ne(int *p, int rounds) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int x = p[0];
      if (x != 1)
        p[0] = min(max(x, 2 * t), t + 1);
    }
    __syncthreads();
  }
}

// The same with the bounds from tables the launch never writes.
// GMEM-EXPECT: gl_clamp_ne_table non-idempotent
// GMEM-RUN: gl_clamp_ne_table grid=1 block=32 args=buf:i32:1:zero buf:i32:2:randint:0:3 buf:i32:2:randint:0:3 i32:2
__global__ void gl_clamp_ne_table(int *p, const int *lo, const int *hi, int rounds) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int x = p[0];
      if (x != 1)
        p[0] = min(max(x, lo[t]), hi[t]);
    }
    __syncthreads();
  }
}

// Bits: guard x > 0, map (x & a_t) | b_t; thread 0 keeps bit 0, thread 1
// sets 2. From 1: run 1: 1 -> 1 -> 2; run 2: 2 -> 0, then x == 0 skips.
// GMEM-EXPECT: gl_andor_pos non-idempotent
// GMEM-RUN: gl_andor_pos grid=1 block=32 args=buf:i32:1:const:1 i32:2
__global__ void gl_andor_pos(int *p, int rounds) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int x = p[0];
      if (x > 0)
        p[0] = (x & (t ^ 1)) | (t << 1);
    }
    __syncthreads();
  }
}

// Float: guard x != 1.0f, fminf(fmaxf(x, lo_t), hi_t).
// GMEM-EXPECT: gl_fclamp_ne non-idempotent
// GMEM-RUN: gl_fclamp_ne grid=1 block=32 args=buf:f32:1:zero i32:2
__global__ void gl_fclamp_ne(float *p, int rounds) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      float x = p[0];
      if (x != 1.0f)
        p[0] = fminf(fmaxf(x, 2.0f * t), t + 1.0f);
    }
    __syncthreads();
  }
}

// One element per warp shared by the 32 lanes of warps 2w and 2w+1 ...
// simpler: element j = t & 31 shared by warp 0 (phase 0) and warp 1
// (phase 1), no loop: warp 0 acts before the barrier, warp 1 after, but it
// is one (load, store) pair executed in both phases through a two-trip loop
// the compiler keeps (rounds from an argument).
// GMEM-EXPECT: gl_clamp_ne_warps non-idempotent
// GMEM-RUN: gl_clamp_ne_warps grid=1 block=64 args=buf:i32:32:zero i32:2
__global__ void gl_clamp_ne_warps(int *p, int rounds) {
  int t = threadIdx.x, w = t >> 5, j = t & 31;
  for (int r = 0; r < rounds; ++r) {
    if (w == r) {
      int x = p[j];
      if (x != 1)
        p[j] = min(max(x, 2 * w), w + 1);
    }
    __syncthreads();
  }
}

// Guard then store without the loop: two lanes of one warp share p[0].
// Converged (lock), one lane's store wins and the launch is idempotent;
// run one lane after the other (fwd) it is not. Racy out of place.
// GMEM-EXPECT: gl_clamp_ne_lanes non-idempotent
// GMEM-RUN: gl_clamp_ne_lanes grid=1 block=2 args=buf:i32:1:zero
__global__ void gl_clamp_ne_lanes(int *p) {
  int t = threadIdx.x;
  int x = p[0];
  if (x != 1)
    p[0] = min(max(x, 2 * t), t + 1);
}

// ---- controls ----

// Unguarded clamp chain, per-thread bounds, phased: clamps compose.
// GMEM-EXPECT: gl_clamp_ctrl idempotent
// GMEM-RUN: gl_clamp_ctrl grid=1 block=32 args=buf:i32:1:zero i32:2
__global__ void gl_clamp_ctrl(int *p, int rounds) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int x = p[0];
      p[0] = min(max(x, 2 * t), t + 1);
    }
    __syncthreads();
  }
}

// Guarded single max (closed: only raises, and x leaves a `<` region only
// upwards).
// GMEM-EXPECT: gl_max_lt_ctrl idempotent
// GMEM-RUN: gl_max_lt_ctrl grid=1 block=32 args=buf:i32:1:zero i32:3
__global__ void gl_max_lt_ctrl(int *p, int rounds) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int x = p[0];
      if (x < 5)
        p[0] = max(x, 3 * t);
    }
    __syncthreads();
  }
}

// The guarded clamp as a select: not a lattice map (the select's arm reads
// x), so refused.
// GMEM-EXPECT: gl_clamp_ne_select non-idempotent
// GMEM-RUN: gl_clamp_ne_select grid=1 block=32 args=buf:i32:1:zero i32:2
__global__ void gl_clamp_ne_select(int *p, int rounds) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int x = p[0];
      p[0] = x != 1 ? min(max(x, 2 * t), t + 1) : x;
    }
    __syncthreads();
  }
}

// Guarded clamp with thread-invariant bounds (the old strict rule): one
// map for all threads, idempotent.
// GMEM-EXPECT: gl_clamp_ne_same idempotent
// GMEM-RUN: gl_clamp_ne_same grid=1 block=32 args=buf:i32:1:zero i32:2 i32:0 i32:1
__global__ void gl_clamp_ne_same(int *p, int rounds, int lo, int hi) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int x = p[0];
      if (x != 1)
        p[0] = min(max(x, lo), hi);
    }
    __syncthreads();
  }
}

// Bits with the per-thread operands from tables the launch never writes
// (A = {1, 0}, B = {0, 2}): from 1, run 1: 1 -> 1 -> 2; run 2: 2 -> 0, and
// thread 1 skips (x == 0).
// GMEM-EXPECT: gl_andor_table conditional
// GMEM-RUN: gl_andor_table grid=1 block=32 args=buf:i32:1:const:1 buf:i32:2:randint:0:3 buf:i32:2:randint:0:3 i32:2
__global__ void gl_andor_table(int *p, const int *A, const int *B, int rounds) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int x = p[0];
      if (x > 0)
        p[0] = (x & A[t]) | B[t];
    }
    __syncthreads();
  }
}

// Warp 0 acts in phase 0, warp 1 in phase 1 on p[j], j = lane: guard
// x > 0, map (x & (w ^ 1)) | (w << 1). One word per lane, 32 words differ.
// GMEM-EXPECT: gl_andor_warps non-idempotent
// GMEM-RUN: gl_andor_warps grid=1 block=64 args=buf:i32:32:const:1 i32:2
__global__ void gl_andor_warps(int *p, int rounds) {
  int t = threadIdx.x, w = t >> 5;
  for (int r = 0; r < rounds; ++r) {
    if (w == r) {
      int x = p[t & 31];
      if (x > 0)
        p[t & 31] = (x & (w ^ 1)) | (w << 1);
    }
    __syncthreads();
  }
}

// Control: guard on a bit of x, `if (x & 4)`, map (x & a_t) | b_t with
// (a, b) = (3, 0) for t = 0 and (7, 4) for t = 1. A search over 3-bit
// values finds no guard-bit and/or pair that fails to compose (the maps
// never move x into the region: thread 1 keeps bit 2, thread 0 clears it).
// GMEM-EXPECT: gl_andor_bit idempotent
// GMEM-RUN: gl_andor_bit grid=1 block=32 args=buf:i32:1:const:5 i32:2
__global__ void gl_andor_bit(int *p, int rounds) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int x = p[0];
      if (x & 4)
        p[0] = (x & (3 + 4 * t)) | (4 * t);
    }
    __syncthreads();
  }
}

// No loop, no barrier: lanes 0 and 1 of one warp share p[0] (guard x > 0,
// lane 0 keeps bit 0, lane 1 sets 2). Converged (lock) one store wins and
// a run again repeats it; one lane after the other (fwd) differs. Racy
// out of place (the two lanes store different values).
// GMEM-EXPECT: gl_andor_lanes non-idempotent
// GMEM-RUN: gl_andor_lanes grid=1 block=2 args=buf:i32:1:const:1 buf:i32:2:randint:0:3 buf:i32:2:randint:0:3
__global__ void gl_andor_lanes(int *p, const int *A, const int *B) {
  int t = threadIdx.x;
  int a = A[t], b = B[t];
  int x = p[0];
  if (x > 0)
    p[0] = (x & a) | b;
}

// Control: the unguarded and/or chain with the same per-thread operands
// (per bit keep / clear / set compose).
// GMEM-EXPECT: gl_andor_ctrl idempotent
// GMEM-RUN: gl_andor_ctrl grid=1 block=32 args=buf:i32:1:const:1 i32:2
__global__ void gl_andor_ctrl(int *p, int rounds) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int x = p[0];
      p[0] = (x & (t ^ 1)) | (t << 1);
    }
    __syncthreads();
  }
}

// Control: guarded and/or with thread-invariant operands (the old rule).
// GMEM-EXPECT: gl_andor_same idempotent
// GMEM-RUN: gl_andor_same grid=1 block=32 args=buf:i32:1:const:1 i32:2 i32:1 i32:2
__global__ void gl_andor_same(int *p, int rounds, int a, int b) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int x = p[0];
      if (x > 0)
        p[0] = (x & a) | b;
    }
    __syncthreads();
  }
}

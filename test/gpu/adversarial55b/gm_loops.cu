// Adversarial corpus (session 55b): guarded maps whose region holds a loop.
// FixpointCases::walk memoises every value it evaluates (Memo) and only
// re-sets the phis of a block it enters, so on a second trip through a loop
// body the values computed from the header's phis are the first trip's.
// A loop that exits on an i1 phi (`more`: true, then false) runs its body
// twice; the walk sees the exit (the phi is fresh) but the stored value of
// the first trip. Expectations: the author's view (the truth).

// y = x != 1 (for x < 2) after two trips of y = 5 - y: 0 -> 1, 1 -> 0 (a
// swap). The walk sees one trip: 0 -> 4, 1 -> 5, both kept.
// GMEM-EXPECT: stale_toggle non-idempotent
// GMEM-RUN: stale_toggle grid=4 block=256 args=buf:i32:1024:randint:0:2 i32:1024
__global__ void stale_toggle(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 2) {
      int y = (x == 1) ? 0 : 1;
      bool more = true;
#pragma unroll 1
      while (true) {
        y = 5 - y;
        if (!more) break;
        more = false;
      }
      v[i] = y;
    }
  }
}

// Control: x < 0 gives 7 after two trips of y = y + 7 from -7 (the walk
// sees 0, also kept). Truth idempotent: a stale value that does no harm.
// GMEM-EXPECT: stale_control idempotent
// GMEM-RUN: stale_control grid=4 block=256 args=buf:i32:1024:randint:-3:3 i32:1024
__global__ void stale_control(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 0) {
      int y = -7;
      bool more = true;
#pragma unroll 1
      while (true) {
        y = y + 7;
        if (!more) break;
        more = false;
      }
      v[i] = y;
    }
  }
}

// Chain: 0 <= x < 25, y0 = x == 0 ? 0 : 100, two trips of y += 10:
// 0 -> 20 -> 120. The walk sees 0 -> 10 and 10 -> 110 (10 moves):
// refused, a stale walk that still refuses.
// GMEM-EXPECT: stale_chain non-idempotent
// GMEM-RUN: stale_chain grid=4 block=256 args=buf:i32:1024:randint:0:2 i32:1024
__global__ void stale_chain(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 25 && x >= 0) {
      int y = (x == 0) ? 0 : 100;
      bool more = true;
#pragma unroll 1
      while (true) {
        y = y + 10;
        if (!more) break;
        more = false;
      }
      v[i] = y;
    }
  }
}

// Float (fp arithmetic is left out, so the step is a select):
// x < 2, y0 = x == 1 ? 0 : 3, two trips of y = y == 0 ? 4 : 0:
// truth 1 -> 0, other x < 2 -> 4 (1 -> 0 -> 4 moves on). The walk sees
// one trip: 1 -> 4, other x < 2 -> 0, both kept by its own stale walk.
// GMEM-EXPECT: stale_float non-idempotent
// GMEM-RUN: stale_float grid=4 block=256 args=buf:f32:1024:randint:0:2 i32:1024
__global__ void stale_float(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = v[i];
    if (x < 2.f) {
      float y = (x == 1.f) ? 0.f : 3.f;
      bool more = true;
#pragma unroll 1
      while (true) {
        y = (y == 0.f) ? 4.f : 0.f;
        if (!more) break;
        more = false;
      }
      v[i] = y;
    }
  }
}

// Three trips (two flags): y = 5 - y three times is one toggle, which is
// what the stale walk sees: x != 1 -> 4, x == 1 -> 5. Truth idempotent.
// GMEM-EXPECT: stale_three idempotent
// GMEM-RUN: stale_three grid=4 block=256 args=buf:i32:1024:randint:0:2 i32:1024
__global__ void stale_three(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 2) {
      int y = (x == 1) ? 0 : 1;
      bool a = true, b = true;
#pragma unroll 1
      while (true) {
        y = 5 - y;
        if (!a) break;
        a = b;
        b = false;
      }
      v[i] = y;
    }
  }
}

// Four trips (y = 5 - y four times: the identity on the init, x == 1 -> 0,
// else 1); truth a swap of 0 and 1 as in stale_toggle.
// GMEM-EXPECT: stale_four non-idempotent
// GMEM-RUN: stale_four grid=4 block=256 args=buf:i32:1024:randint:0:2 i32:1024
__global__ void stale_four(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 2) {
      int y = (x == 1) ? 0 : 1;
      bool a = true, b = true, c = true;
#pragma unroll 1
      while (true) {
        y = 5 - y;
        if (!a) break;
        a = b;
        b = c;
        c = false;
      }
      v[i] = y;
    }
  }
}

// A do-while toggling its flag: two trips of y = 3 - y from
// y0 = x == -1 ? 3 : -2 (x < 0): -1 -> 3, other negatives -> -2, which
// maps to -2 again. Truth idempotent (control).
// GMEM-EXPECT: stale_dowhile idempotent
// GMEM-RUN: stale_dowhile grid=4 block=256 args=buf:i32:1024:randint:-3:3 i32:1024
__global__ void stale_dowhile(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 0) {
      int y = (x == -1) ? 3 : -2;
      bool more = true;
#pragma unroll 1
      do {
        y = 3 - y;
        more = !more;
      } while (!more);
      v[i] = y;
    }
  }
}

// A test after the loop on its result: x < 2, y0 = x == 1 ? 2 : 0, two
// trips of y = 5 - y; stores 9 when the final y == 2 (x == 1). Truth
// 1 -> 9, 9 kept: idempotent (control).
// GMEM-EXPECT: stale_exit idempotent
// GMEM-RUN: stale_exit grid=4 block=256 args=buf:i32:1024:randint:0:2 i32:1024
__global__ void stale_exit(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 2) {
      int y = (x == 1) ? 2 : 0;
      bool more = true;
#pragma unroll 1
      while (true) {
        y = 5 - y;
        if (!more) break;
        more = false;
      }
      if (y == 2) v[i] = 9;
    }
  }
}

// As stale_exit: y0 = x == 1 ? 3 : 0, stores 1 when the final y == 0
// (x < 2, x != 1); 1 is then kept. Truth idempotent (control).
// GMEM-EXPECT: stale_exit2 idempotent
// GMEM-RUN: stale_exit2 grid=4 block=256 args=buf:i32:1024:randint:0:2 i32:1024
__global__ void stale_exit2(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 2) {
      int y = (x == 1) ? 3 : 0;
      bool more = true;
#pragma unroll 1
      while (true) {
        y = 5 - y;
        if (!more) break;
        more = false;
      }
      if (y == 0) v[i] = 1;
    }
  }
}

// The loop's result tested after it, two arms: y0 = x == 0 ? 0 : 3, the
// final y is y0; stores 1 when it is 0, 0 when it is 3: truth 0 -> 1,
// 1 -> 0, a swap. Refused: LLVM tests the header phi (fresh in the walk)
// with a switch, which the walk does not follow.
// GMEM-EXPECT: stale_exit_swap non-idempotent
// GMEM-RUN: stale_exit_swap grid=4 block=256 args=buf:i32:1024:randint:0:2 i32:1024
__global__ void stale_exit_swap(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 2) {
      int y = (x == 0) ? 0 : 3;
      bool more = true;
#pragma unroll 1
      while (true) {
        y = 5 - y;
        if (!more) break;
        more = false;
      }
      if (y == 0) v[i] = 1;
      else if (y == 3) v[i] = 0;
    }
  }
}

// The natural form: a counted loop of two trips. LLVM (-O2, unroll
// disabled by the pragma) rewrites `k < 2` into an i1 phi (true, then
// false), the same shape as stale_toggle: a swap, accepted.
// GMEM-EXPECT: counted_toggle non-idempotent
// GMEM-RUN: counted_toggle grid=4 block=256 args=buf:i32:1024:randint:0:2 i32:1024
__global__ void counted_toggle(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 2) {
      int y = (x == 1) ? 0 : 1;
#pragma unroll 1
      for (int k = 0; k < 2; ++k)
        y = 5 - y;
      v[i] = y;
    }
  }
}

// The step from a scalar argument (c - y) is not collected: refused.
// GMEM-EXPECT: stale_arg non-idempotent
// GMEM-RUN: stale_arg grid=4 block=256 args=buf:i32:1024:randint:0:2 i32:1024 i32:5
__global__ void stale_arg(int *v, int n, int c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 2) {
      int y = (x == 1) ? 0 : 1;
      bool more = true;
#pragma unroll 1
      while (true) {
        y = c - y;
        if (!more) break;
        more = false;
      }
      v[i] = y;
    }
  }
}

// Grid-stride loop around a stale inner loop: each word its own swap.
// GMEM-EXPECT: stale_grid_stride non-idempotent
// GMEM-RUN: stale_grid_stride grid=2 block=128 args=buf:i32:1024:randint:0:2 i32:1024
__global__ void stale_grid_stride(int *v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int x = v[i];
    if (x < 2) {
      int y = (x == 1) ? 0 : 1;
      bool more = true;
#pragma unroll 1
      while (true) {
        y = 5 - y;
        if (!more) break;
        more = false;
      }
      v[i] = y;
    }
  }
}

// counted_toggle with four trips (k < 4): LLVM keeps the counter, the
// walk's stale exit test never exits: refused (truth: a swap).
// GMEM-EXPECT: counted_four non-idempotent
// GMEM-RUN: counted_four grid=4 block=256 args=buf:i32:1024:randint:0:2 i32:1024
__global__ void counted_four(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 2) {
      int y = (x == 1) ? 0 : 1;
#pragma unroll 1
      for (int k = 0; k < 4; ++k)
        y = 5 - y;
      v[i] = y;
    }
  }
}

// Two trips of y = y == 0 ? 7 : 0 from y0 = x < 0 ? 0 : 9 (x < 10):
// truth x < 0 -> 0, 0..9 -> 7: -3 -> 0 -> 7 moves on. The stale walk's
// map (x < 0 -> 7, 0..9 -> 0) is not idempotent either: refused.
// GMEM-EXPECT: counted_state non-idempotent
// GMEM-RUN: counted_state grid=4 block=256 args=buf:i32:1024:randint:-3:10 i32:1024
__global__ void counted_state(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 10) {
      int y = x < 0 ? 0 : 9;
#pragma unroll 1
      for (int k = 0; k < 2; ++k)
        y = y == 0 ? 7 : 0;
      v[i] = y;
    }
  }
}

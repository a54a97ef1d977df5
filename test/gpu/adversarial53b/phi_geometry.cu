// Adversarial corpus (session 53b): `c ? v : x[i]` compiled as a branch
// around the load (isSelectLikePhi) and the thread's geometry as a fixed
// operand (RunInvariant), IdempotentUpdates.cpp. Expectations give the
// author's judgement of the true class.

// Diamond: one arm loads x, the other a stable bound. Idempotent apart
// from aliasing.
// GMEM-EXPECT: ph_diamond_stable conditional
// GMEM-RUN: ph_diamond_stable grid=4 block=256 args=buf:f32:1024:rand buf:u8:1024:randint:0:2 buf:f32:1024:rand i32:1024
__global__ void ph_diamond_stable(float *x, const unsigned char *m, const float *alt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v;
  if (m[i])
    v = alt[i];
  else
    v = x[i];
  x[i] = v;
}

// An arm that writes another array: the arm is not "only computes" (the
// analysis may be imprecise); truly idempotent apart from aliasing.
// GMEM-EXPECT: ph_arm_writes conditional
// GMEM-RUN: ph_arm_writes grid=4 block=256 args=buf:f32:1024:rand buf:u8:1024:randint:0:2 buf:f32:1024:zero i32:1024
__global__ void ph_arm_writes(float *x, const unsigned char *m, float *log, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v;
  if (m[i]) {
    v = 0.f;
    log[i] = 1.f;
  } else {
    v = x[i];
  }
  x[i] = v;
}

// The arm's value is another thread's element of x (a neighbour).
// GMEM-EXPECT: ph_neighbour_value non-idempotent
// GMEM-RUN: ph_neighbour_value grid=1 block=256 args=buf:i32:256:iota buf:u8:256:const:1
__global__ void ph_neighbour_value(int *x, const unsigned char *m) {
  int i = threadIdx.x;
  int v;
  if (m[i])
    v = x[(i + 1) & 255] + 0;
  else
    v = x[i];
  __syncthreads();
  x[i] = v;
}

// The arm's value comes from a warp shuffle of x (another lane's value).
// GMEM-EXPECT: ph_shuffle_value non-idempotent
// GMEM-RUN: ph_shuffle_value grid=1 block=256 args=buf:i32:256:iota buf:u8:256:const:1
__global__ void ph_shuffle_value(int *x, const unsigned char *m) {
  int i = threadIdx.x;
  int mine = x[i];
  int other = __shfl_sync(0xffffffffu, mine, (threadIdx.x + 1) & 31);
  x[i] = m[i] ? other : mine;
}

// Three outcomes at one join: x, a or b (a switch on a stable selector).
// Idempotent apart from aliasing.
// GMEM-EXPECT: ph_three_way conditional
// GMEM-RUN: ph_three_way grid=4 block=256 args=buf:i32:1024:randint:0:100 buf:i32:1024:randint:0:3 i32:1024
__global__ void ph_three_way(int *x, const int *sel, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int s = sel[i], v;
  if (s == 0)
    v = x[i];
  else if (s == 1)
    v = -1;
  else
    v = -2;
  x[i] = v;
}

// The condition reads memory the launch writes (a mark set by the update
// of another array): the mark is set after x's update, so the second run
// takes the other arm.
// GMEM-EXPECT: ph_cond_written non-idempotent
// GMEM-RUN: ph_cond_written grid=4 block=256 args=buf:i32:1024:randint:0:100 buf:i32:1024:zero i32:1024
__global__ void ph_cond_written(int *x, int *mark, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v;
  if (mark[i])
    v = x[i] + 1000;
  else
    v = x[i];
  x[i] = v;
  mark[i] = 1;
}

// The condition depends on x and another phi at the join records the
// path: the second run records the other path.
// GMEM-EXPECT: ph_x_cond_other_phi non-idempotent
// GMEM-RUN: ph_x_cond_other_phi grid=4 block=256 args=buf:i32:1024:randint:-50:50 buf:i32:1024:zero i32:1024
__global__ void ph_x_cond_other_phi(int *x, int *hit, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = x[i], h = 0;
  if (v < 0) {
    v = 0;
    h = 1;
  }
  x[i] = v;
  hit[i] = h;
}

// Stable condition, another phi records the path: the path is the same
// in both runs. Idempotent apart from aliasing.
// GMEM-EXPECT: ph_stable_cond_other_phi conditional
// GMEM-RUN: ph_stable_cond_other_phi grid=4 block=256 args=buf:i32:1024:randint:-50:50 buf:u8:1024:randint:0:2 buf:i32:1024:zero i32:1024
__global__ void ph_stable_cond_other_phi(int *x, const unsigned char *m, int *hit, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v, h;
  if (m[i]) {
    v = 0;
    h = 1;
  } else {
    v = x[i];
    h = 2;
  }
  x[i] = v;
  hit[i] = h;
}

// A per-lane fill: lanes below 16 get their lane id. Idempotent.
// GMEM-EXPECT: ph_lane_fill idempotent
// GMEM-RUN: ph_lane_fill grid=4 block=256 args=buf:i32:1024:randint:0:100 i32:1024
__global__ void ph_lane_fill(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = (threadIdx.x & 31) < 16 ? (int)(threadIdx.x & 31) : x[i];
}

// A floor by the SM the thread happens to run on: not fixed.
// GMEM-EXPECT: ph_smid_floor non-idempotent
// GMEM-RUN: ph_smid_floor grid=64 block=32 args=buf:i32:2048:zero i32:2048
__global__ void ph_smid_floor(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned sm;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  if (i < n)
    x[i] = max(x[i], (int)sm);
}

// A floor by the clock.
// GMEM-EXPECT: ph_clock_floor non-idempotent
// GMEM-RUN: ph_clock_floor grid=4 block=256 args=buf:i32:1024:zero i32:1024
__global__ void ph_clock_floor(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = max(x[i], (int)(clock() & 0xffff));
}

// A grid-stride loop with a floor by the thread's index: each element
// keeps its thread. Idempotent.
// GMEM-EXPECT: ph_gs_thread_floor idempotent
// GMEM-RUN: ph_gs_thread_floor grid=4 block=128 args=buf:i32:5000:randint:0:200 i32:5000
__global__ void ph_gs_thread_floor(int *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    x[i] = max(x[i], (int)threadIdx.x);
}

// Geometry that moves between two statements: the element is floored by
// threadIdx and then capped by blockIdx (a clamp with possibly crossed
// bounds: a constant then). Idempotent.
// GMEM-EXPECT: ph_geom_clamp idempotent
// GMEM-RUN: ph_geom_clamp grid=4 block=256 args=buf:i32:1024:randint:0:300 i32:1024
__global__ void ph_geom_clamp(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = max(x[i], (int)threadIdx.x);
    x[i] = min(x[i], (int)(blockIdx.x * 100 + 50));
  }
}

// Two maps of different kinds over two statements: floor by threadIdx,
// then keep the low bits: max(x, t) & 7 is not idempotent (x = 15, t = 9:
// 15 & 7 = 7, then max(7, 9) & 7 = 1).
// GMEM-EXPECT: ph_floor_then_mask non-idempotent
// GMEM-RUN: ph_floor_then_mask grid=1 block=32 args=buf:i32:32:const:15 i32:32
__global__ void ph_floor_then_mask(int *x, int n) {
  int i = threadIdx.x;
  if (i < n) {
    x[i] = max(x[i], (int)threadIdx.x);
    x[i] = x[i] & 7;
  }
}

// A select whose condition mixes x and geometry, replacing with geometry:
// cond(x) ? t : x is idempotent for any condition. Idempotent.
// GMEM-EXPECT: ph_cond_x_geom idempotent
// GMEM-RUN: ph_cond_x_geom grid=4 block=256 args=buf:i32:1024:randint:0:600 i32:1024
__global__ void ph_cond_x_geom(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = x[i];
    x[i] = (v > (int)threadIdx.x + 3) ? (int)blockIdx.x : v;
  }
}

// A replacement by x's value plus geometry (not a fixed operand).
// GMEM-EXPECT: ph_shift_by_geom non-idempotent
// GMEM-RUN: ph_shift_by_geom grid=4 block=256 args=buf:i32:1024:randint:0:600 buf:u8:1024:const:1 i32:1024
__global__ void ph_shift_by_geom(int *x, const unsigned char *m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v;
    if (m[i])
      v = x[i] + (int)threadIdx.x + 1;
    else
      v = x[i];
    x[i] = v;
  }
}

// A store that branches on the loaded value decide, through several arms:
// `if (x < 0) p[i] = 0; else if (x > 255) p[i] = 255;`. LLVM merges the arms
// into one block storing a phi; each path from the load either stores a
// literal or passes the store by. The map is idempotent when every literal
// it stores is one the same map keeps (FixpointCases::holdsOnPaths, walked
// path by path with the constant folder). Swaps, chains that move a stored
// value on, arms that write elsewhere and joins that remember the path are
// refused, as are bounds from arguments (`lo > hi` breaks the clamp).
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK-LABEL: kernel sat_u8(int*, int)
// CHECK:         class:  idempotent -- {{.*}}in-place updates of 'v'
__global__ void sat_u8(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 0)
      v[i] = 0;
    else if (x > 255)
      v[i] = 255;
  }
}

// CHECK-LABEL: kernel sat_unit(float*, int)
// CHECK:         class:  idempotent
__global__ void sat_unit(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = v[i];
    if (x > 1.f)
      v[i] = 1.f;
    else if (x < -1.f)
      v[i] = -1.f;
  }
}

// CHECK-LABEL: kernel sign_arms(int*, int)
// CHECK:         class:  idempotent
__global__ void sign_arms(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int x = v[i];
  if (x > 0)
    v[i] = 1;
  else if (x < 0)
    v[i] = -1;
}

// Three arms, one storing a value the map leaves alone (51 is in range).
// CHECK-LABEL: kernel three_arms(int*, int)
// CHECK:         class:  idempotent
__global__ void three_arms(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 0)
      v[i] = 0;
    else if (x > 100)
      v[i] = 100;
    else if (x == 50)
      v[i] = 51;
  }
}

// NaN becomes 0, values above 1 become 1.
// CHECK-LABEL: kernel nan_and_cap(float*, int)
// CHECK:         class:  idempotent
__global__ void nan_and_cap(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = v[i];
    if (x != x)
      v[i] = 0.f;
    else if (x > 1.f)
      v[i] = 1.f;
  }
}

// 0 and 1 swap: a second run undoes the first.
// CHECK-LABEL: kernel swap_01(int*, int)
// CHECK:         class:  non-idempotent
__global__ void swap_01(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x == 0)
      v[i] = 1;
    else if (x == 1)
      v[i] = 0;
  }
}

// -1 -> 5 -> 20: the first arm's value takes the second arm next time.
// CHECK-LABEL: kernel moves_on(int*, int)
// CHECK:         class:  non-idempotent
__global__ void moves_on(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 0)
      v[i] = 5;
    else if (x < 10)
      v[i] = 20;
  }
}

// The join remembers whether an arm ran: out[i] is 1 only the first time.
// CHECK-LABEL: kernel join_tells(int*, int*, int)
// CHECK:         class:  non-idempotent
__global__ void join_tells(int *v, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    int c = 0;
    if (x < 0) {
      v[i] = 0;
      c = 1;
    } else if (x > 255) {
      v[i] = 255;
      c = 1;
    }
    out[i] = c;
  }
}

// An arm that also counts: the count grows on every run.
// CHECK-LABEL: kernel arm_counts(int*, int*, int)
// CHECK:         class:  non-idempotent
__global__ void arm_counts(int *v, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 0)
      v[i] = 0;
    else if (x > 255) {
      v[i] = 255;
      atomicAdd(count, 1);
    }
  }
}

// Bounds from arguments: with lo > hi, x < lo stores lo, which the second
// run finds > hi and stores hi. Not proven (a guard lo <= hi would be).
// CHECK-LABEL: kernel sat_args(float*, float, float, int)
// CHECK:         class:  non-idempotent
__global__ void sat_args(float *v, float lo, float hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = v[i];
    if (x < lo)
      v[i] = lo;
    else if (x > hi)
      v[i] = hi;
  }
}

// The clamp with its value kept on the third arm, stored once after.
// CHECK-LABEL: kernel clamp_arms(int*, int)
// CHECK:         class:  idempotent
__global__ void clamp_arms(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    int y;
    if (x < -8)
      y = -8;
    else if (x > 8)
      y = 8;
    else
      y = x;
    v[i] = y;
  }
}

// In a grid-stride loop: each item is its own map.
// CHECK-LABEL: kernel sat_grid_stride(int*, int)
// CHECK:         class:  idempotent
__global__ void sat_grid_stride(int *v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int x = v[i];
    if (x < 0)
      v[i] = 0;
    else if (x > 255)
      v[i] = 255;
  }
}

// 0 -> 1 on the second arm, which the first arm then sends to 0.
// CHECK-LABEL: kernel zero_flips(int*, int)
// CHECK:         class:  non-idempotent
__global__ void zero_flips(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x > 0)
      v[i] = 0;
    else if (x == 0)
      v[i] = 1;
  }
}

// The arm's value is computed from x (-x for negatives): not a literal, so
// not decided by folding (abs is idempotent; this shape is not proven).
// CHECK-LABEL: kernel negate_arm(int*, int)
// CHECK:         class:  non-idempotent
__global__ void negate_arm(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 0)
      v[i] = -x;
  }
}

// A loop inside the guarded region toggles twice (0 -> 1, 1 -> 0): the path
// walk enters each block once, so it does not take one trip for two (the
// twelfth adversarial round).
// CHECK-LABEL: kernel counted_toggle(int*, int)
// CHECK:         class:  non-idempotent
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

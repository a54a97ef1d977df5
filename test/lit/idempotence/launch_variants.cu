// A branch on a scalar argument every thread of a launch shares (`beta ==
// 0`, `accumulate`, `bias == nullptr`) splits the kernel's launches: the
// analysis folds the comparison each way, analyses the kernel again, and
// keeps the copy whose class is better as a variant for the launches that
// meet its guard. Instance mode (as the runtime) decides with the variant
// the arguments select; a NaN beta, a bool byte other than 0/1 or an
// unrelated value select none.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel axpby --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --alloc 0x200000:4096 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x200000 --arg f32:2 --arg f32:0 --arg i32:1000 \
// RUN:   | FileCheck %s --check-prefix=BETA0
// RUN: %gmem-analyze %s --kernel axpby --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --alloc 0x200000:4096 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x200000 --arg f32:2 --arg f32:-0.0 --arg i32:1000 \
// RUN:   | FileCheck %s --check-prefix=BETA0
// RUN: %gmem-analyze %s --kernel axpby --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --alloc 0x200000:4096 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x200000 --arg f32:2 --arg f32:nan --arg i32:1000 \
// RUN:   | FileCheck %s --check-prefix=BETAX
// RUN: %gmem-analyze %s --kernel axpby --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --alloc 0x200000:4096 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x200000 --arg f32:2 --arg f32:0.5 --arg i32:1000 \
// RUN:   | FileCheck %s --check-prefix=BETAX
// RUN: %gmem-analyze %s --kernel axpby --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x100000 --arg f32:2 --arg f32:0 --arg i32:1000 \
// RUN:   | FileCheck %s --check-prefix=INPLACE
// RUN: %gmem-analyze %s --kernel accum_flag --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --alloc 0x200000:4096 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x200000 --arg i32:0 --arg i32:1000 \
// RUN:   | FileCheck %s --check-prefix=FLAG0
// RUN: %gmem-analyze %s --kernel accum_flag --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --alloc 0x200000:4096 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x200000 --arg i32:2 --arg i32:1000 \
// RUN:   | FileCheck %s --check-prefix=BETAX
// RUN: %gmem-analyze %s --kernel bincount --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --alloc 0x200000:4096 --alloc 0x300000:4096 --alloc 0x400000:4096 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x200000 --arg ptr:0x300000 --arg ptr:0x400000 \
// RUN:   --arg i32:0 --arg i32:1000 | FileCheck %s --check-prefix=NOWEIGHTS
// RUN: %gmem-analyze %s --kernel bincount --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --alloc 0x200000:4096 --alloc 0x300000:4096 --alloc 0x400000:4096 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x200000 --arg ptr:0x300000 --arg ptr:0x400000 \
// RUN:   --arg i32:7 --arg i32:1000 | FileCheck %s --check-prefix=BETAX

// BETA0:      launch variant: b == 0 holds at this launch
// BETA0:      idempotent: yes
// BETAX-NOT:  launch variant
// BETAX:      idempotent: no
// INPLACE:    launch variant: b == 0 holds at this launch
// INPLACE:    idempotent: no -- write of y overlaps read of x
// FLAG0:      launch variant: accumulate == 0 holds at this launch
// FLAG0:      idempotent: yes
// NOWEIGHTS:  launch variant: has_w == 0 holds at this launch
// NOWEIGHTS:  idempotent: yes

// CHECK:      kernel axpby(float const*, float*, float, float, int)
// CHECK-NEXT:   symbol:
// CHECK-NEXT:   class:  non-idempotent -- 'y' is read and written at the same offset
// CHECK-NEXT:   when b == 0: conditional -- reads 'x' and writes 'y': idempotent when they do not overlap
__global__ void axpby(const float *x, float *y, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if (b == 0.0f)
      y[i] = a * x[i];
    else
      y[i] = a * x[i] + b * y[i];
  }
}

// A bool parameter: the branch is on the i1 argument itself.
// CHECK:      kernel accum_flag(float const*, float*, bool, int)
// CHECK-NEXT:   symbol:
// CHECK-NEXT:   class:  non-idempotent
// CHECK-NEXT:   when accumulate == 0: conditional
__global__ void accum_flag(const float *x, float *y, bool accumulate, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = 2.0f * x[i];
  if (accumulate)
    y[i] += v;
  else
    y[i] = v;
}

// The atomic sum happens only with weights.
// CHECK:      kernel bincount(int const*, int*, float const*, float*, int, int)
// CHECK-NEXT:   symbol:
// CHECK-NEXT:   class:  non-idempotent -- atomic read-modify-write of 'wbins'
// CHECK-NEXT:   when has_w == 0: conditional -- reads 'in' and writes 'bins'
__global__ void bincount(const int *in, int *bins, const float *w, float *wbins, int has_w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (has_w)
    atomicAdd(&wbins[in[i]], w[i]);
  else
    bins[in[i]] = 1;
}

// A null pointer test: with no residual the output is only written.
// CHECK:      kernel add_residual(float const*, float const*, float*, int)
// CHECK-NEXT:   symbol:
// CHECK-NEXT:   class:  non-idempotent -- 'out' is read and written at the same offset
// CHECK-NEXT:   when residual == null: conditional
__global__ void add_residual(const float *x, const float *residual, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  if (residual != nullptr)
    v += residual[i] + out[i];
  out[i] = v;
}

// The guard decides other comparisons of the same parameter: mode == 2
// makes mode < 1 false, so the sum below never runs.
// CHECK:      kernel modes(float const*, float*, int, int)
// CHECK-NEXT:   symbol:
// CHECK-NEXT:   class:  non-idempotent
// CHECK-NEXT:   when mode == 0: conditional
// CHECK-NEXT:   when mode >= 1: conditional
__global__ void modes(const float *x, float *y, int mode, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (mode == 0)
    y[i] = x[i];
  else if (mode < 1)
    y[i] += x[i];
  else
    y[i] = 2.0f * x[i];
}

// Nothing to gain: a condition on a thread-dependent value, or a class
// that no value of the argument improves, gives no variant.
// CHECK:      kernel always_rmw(float const*, float*, int, int)
// CHECK-NEXT:   symbol:
// CHECK-NEXT:   class:  non-idempotent
// CHECK-NOT:    when
// CHECK:        #0 x
__global__ void always_rmw(const float *x, float *y, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (k > 3)
    y[i] += x[i];
  else
    y[i] -= x[i];
}

// A flag bit: (opts & 4) decides; the guard keeps the mask.
// RUN: %gmem-analyze %s --kernel flag_bit --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --alloc 0x200000:4096 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x200000 --arg i32:3 --arg i32:1000 \
// RUN:   | FileCheck %s --check-prefix=BITCLEAR
// RUN: %gmem-analyze %s --kernel flag_bit --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --alloc 0x200000:4096 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x200000 --arg i32:6 --arg i32:1000 \
// RUN:   | FileCheck %s --check-prefix=BETAX
// BITCLEAR:   launch variant: (opts & 0x4) == 0 holds at this launch
// BITCLEAR:   idempotent: yes
// CHECK:      kernel flag_bit(float const*, float*, int, int)
// CHECK-NEXT:   symbol:
// CHECK-NEXT:   class:  non-idempotent
// CHECK-NEXT:   when (opts & 0x4) == 0: conditional
__global__ void flag_bit(const float *x, float *y, int opts, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (opts & 4)
    y[i] += x[i];
  else
    y[i] = x[i];
}

// Two hazards on two flags: only both guards together leave a launch
// without either; neither alone is a variant.
// RUN: %gmem-analyze %s --kernel two_flags --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --alloc 0x200000:4096 --alloc 0x300000:4 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x200000 --arg ptr:0x300000 --arg i32:0 --arg i32:0 \
// RUN:   --arg i32:1000 | FileCheck %s --check-prefix=BOTH
// RUN: %gmem-analyze %s --kernel two_flags --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --alloc 0x200000:4096 --alloc 0x300000:4 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x200000 --arg ptr:0x300000 --arg i32:0 --arg i32:1 \
// RUN:   --arg i32:1000 | FileCheck %s --check-prefix=BETAX
// BOTH:       launch variant: accumulate == 0 and counting == 0 holds at this launch
// BOTH:       idempotent: yes
// CHECK:      kernel two_flags(float const*, float*, int*, int, int, int)
// CHECK-NEXT:   symbol:
// CHECK-NEXT:   class:  non-idempotent -- atomic read-modify-write of 'count'
// CHECK-NEXT:   when accumulate == 0 and counting == 0: conditional
// CHECK-NEXT:   #0 x
__global__ void two_flags(const float *x, float *y, int *count, int accumulate, int counting,
                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  if (accumulate)
    y[i] += x[i];
  else
    y[i] = x[i];
  if (counting)
    atomicAdd(count, 1);
}

// A conditional kernel whose variant touches less: at beta == 0, C is not
// read, so a launch whose C is the output D is idempotent there.
// RUN: %gmem-analyze %s --kernel epilogue --grid 4 --block 64 \
// RUN:   --alloc 0x100000:1024 --alloc 0x200000:1024 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x200000 --arg ptr:0x200000 --arg f32:1 --arg f32:0 \
// RUN:   --arg i32:256 | FileCheck %s --check-prefix=EPI0
// RUN: %gmem-analyze %s --kernel epilogue --grid 4 --block 64 \
// RUN:   --alloc 0x100000:1024 --alloc 0x200000:1024 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x200000 --arg ptr:0x200000 --arg f32:1 --arg f32:1 \
// RUN:   --arg i32:256 | FileCheck %s --check-prefix=BETAX
// EPI0:       launch variant: beta == 0 holds at this launch
// EPI0:       idempotent: yes
// CHECK:      kernel epilogue(float const*, float const*, float*, float, float, int)
// CHECK-NEXT:   symbol:
// CHECK-NEXT:   class:  conditional
// CHECK-NEXT:   when beta == 0: conditional
__global__ void epilogue(const float *acc, const float *C, float *D, float alpha, float beta,
                         int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = alpha * acc[i];
  if (beta != 0.f)
    v += beta * C[i];
  D[i] = fmaxf(v, 0.f);
}

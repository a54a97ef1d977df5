// printf is output, not memory the kernel reads back, but a block that is
// preempted and run again prints its lines again: a kernel that prints is
// never idempotent, so its launches stop only where no block runs twice.
// A failed assert prints and then aborts the launch: nothing runs again
// after it, so assert alone does not change the class.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel prints_first --grid 4 --block 128 \
// RUN:   --alloc 0x200000000:2048 --alloc 0x300000000:2048 \
// RUN:   --arg ptr:0x200000000 --arg ptr:0x300000000 --arg i32:512 | FileCheck %s --check-prefix=LAUNCH

// CHECK-LABEL: kernel prints_first
// CHECK:       class:  non-idempotent -- prints (printf): a block run again prints again
// CHECK-LABEL: kernel asserts
// CHECK:       class:  conditional
// LAUNCH:      idempotent: no

#include <assert.h>

__global__ void prints_first(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = 2.0f * x[i];
  if (i == 0) printf("x[0] = %f\n", x[0]);
}
__global__ void asserts(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  assert(x[i] < 10.0f);
  y[i] = 2.0f * x[i];
}

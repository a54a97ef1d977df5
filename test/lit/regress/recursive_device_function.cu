// A recursive __noinline__ device function, which the analysis inlines up
// to its budget: the clean-up after inlining ran LLVM 19's InstCombine with
// its fixpoint check, which aborted the whole device compile ("Instruction
// Combining did not reach a fixpoint") where plain clang builds the file
// (an adversarial round, session 49). Now one round without the check; the
// kernel is analysed (conservatively).
// RUN: %gmem-analyze %s | FileCheck %s
// CHECK-LABEL: kernel recursive_fill(float*, int)
// CHECK:         class:  {{unknown|non-idempotent}}
// CHECK:         #0 a : ptr  RW
__device__ __noinline__ void rec_fill(float *a, int i, int s, int depth) {
  if (depth <= 0)
    return;
  a[i] = (float)depth;
  rec_fill(a, i + s, s, depth - 1);
  a[i] += 0.0f; // keeps it from being a tail call
}

__global__ void recursive_fill(float *a, int depth) { rec_fill(a, threadIdx.x, 64, depth); }

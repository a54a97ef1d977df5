// Regression (found by test/fuzz/region_fuzz.py, seed 23): a loop nest
// whose innermost loop returns from the kernel. The nest got an unchecked
// copy for short entries, and its inner loop a copy of its own afterwards;
// the return path, an exit of both, then took the inner copy's values into
// phis they did not dominate. The clone failed verification, which stopped
// the build (report_fatal_error; the pass now drops such a clone with a
// warning). Such nests are no longer copied; their loops keep their checks.
// RUN: rm -rf %t.stub && mkdir -p %t.stub
// RUN: touch %t.stub/texture_fetch_functions.h %t.stub/texture_indirect_functions.h
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version \
// RUN:   --cuda-path=/usr/local/cuda -isystem %t.stub -fpass-plugin=%gmem_plugin -O2 -c \
// RUN:   -emit-llvm %s -o %t.bc 2>&1 | FileCheck %s --check-prefix=BUILD --allow-empty
// RUN: %gmem-analyze %t.bc | FileCheck %s

// BUILD-NOT: invalid clone
// CHECK: kernel nest_early_return(
// CHECK: preempt: in loops ({{[0-9]+}} loop checkpoints) and between CTAs; persistent forms: full
__global__ void nest_early_return(unsigned char *o, const float *a, int rows, long long stride) {
  float acc = 0.0f;
  for (unsigned v0 = 64; v0 != (unsigned)stride; ++v0) {
    for (int v1 = (int)v0 - 1; v1 >= rows; v1 -= 1) {
      for (int v2 = rows; v2 <= 2; v2 += 1) {
        if (stride + v0 >= 25)
          return;
        acc += a[3];
      }
    }
  }
  o[threadIdx.x] = (int)acc;
}

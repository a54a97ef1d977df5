// Regression (found by test/fuzz/region_fuzz.py, seed 8): the disjointness
// prover asks for the form of a guarded recurrence only for the rows it adds,
// and the recurrence of v0's loop here led back to itself through them: the
// plugin recursed until the stack overflowed (clang crashed at -O2). A
// recurrence now has no form inside its own cycle, which only leaves rows out.
// RUN: rm -rf %t.stub && mkdir -p %t.stub
// RUN: touch %t.stub/texture_fetch_functions.h %t.stub/texture_indirect_functions.h
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version \
// RUN:   --cuda-path=/usr/local/cuda -isystem %t.stub -fpass-plugin=%gmem_plugin -O2 -c \
// RUN:   -emit-llvm %s -o %t.bc
// RUN: %gmem-analyze %t.bc | FileCheck %s
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK-LABEL: kernel guarded_cycle(
// CHECK:         #0 {{arg0|o}} : ptr  RW
// CHECK-NEXT:        read:  [4*blockDim.x, 4*blockDim.x + 4)
// CHECK-NEXT:        write: [0, 4*blockDim.x*gridDim.x)
// CHECK:         preempt: in loops
__global__ void guarded_cycle(float *o, const float *a, float *b, int m) {
  float acc = 0.0f;
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int warp = tid >> 5;
  unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  acc += b[tid + 17];
  acc += o[blockDim.x];
  if ((int)a[tid] > 3) {
    acc += b[255];
  } else {
    for (int v0 = gridDim.x; v0 < (int)(33 + max(blockIdx.x, 5u)); v0 += 16) {
      for (int v1 = v0 - warp; v1 < (int)(blockDim.x << 3); v1 += m) {
        for (int v2 = max(32, v1); v2 <= (int)gridDim.x; v2 += 32) {
          b[(int)(v1 + v2 + blockDim.x * 7)] = acc;
          acc += a[v2 * 256];
        }
      }
    }
  }
  o[gid] = acc;
}

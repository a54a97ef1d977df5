// A grid-stride loop over size_t: the access's recurrence (bytes, 4 * i) is
// a multiple of the one the latch tests (i), and SCEV has no trip count for
// the symbolic step, so the region comes from the latch test through that
// multiple; a bound that would wrap the index at a launch widens it.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel gs --grid 2 --block 64 --alloc 0x100000:0x10000 \
// RUN:   --alloc 0x200000:0x10000 --arg u64:1000 --arg ptr:0x100000 --arg ptr:0x200000 \
// RUN:   | FileCheck %s --check-prefix=INST
// RUN: %gmem-analyze %s --kernel gs --grid 2 --block 64 --alloc 0x100000:0x10000 \
// RUN:   --alloc 0x200000:0x10000 --arg u64:0xffffffffffffffff --arg ptr:0x100000 \
// RUN:   --arg ptr:0x200000 | FileCheck %s --check-prefix=WRAP
#include <cstddef>

// CHECK: kernel gs(unsigned long, float*, float const*)
// CHECK: #1 out : ptr  W
// CHECK-NEXT: write: [0, 4*n)
// CHECK: #2 in : ptr  R
// CHECK-NEXT: read:  [0, 4*n)
// INST: instance gs(
// INST-NEXT: #1 out  write [0x100000, 0x100fa0)
// INST-NEXT: #2 in  read [0x200000, 0x200fa0)
// WRAP: instance gs(
// WRAP-NEXT: #1 out  write [0x100000, 0x110000)  (launch fails the no-wrap check
__global__ void gs(size_t n, float *out, const float *in) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i];
}

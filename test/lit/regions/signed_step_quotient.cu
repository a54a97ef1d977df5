// Regression (found by test/fuzz/region_fuzz.py, seed 105): the index
// u - v0 - blockDim.x falls by 2 per trip while the latch's counter v0 rises
// by 2. Splitting the index into F * counter + D took F from SCEV's exact
// division, which is unsigned: -2 / 2 in i32 is 2^31 - 1, and (2^31 - 1) * 2
// is -2 again modulo 2^32, so the split passed its check but gave the bounds
// 4294967294*blockDim.x + u. The region came out empty at this launch, which
// writes element u - 2*blockDim.x = -125. F is now the signed quotient.
// RUN: %gmem-analyze %s | FileCheck %s --check-prefix=STATIC
// RUN: %gmem-analyze %s --kernel falling_index --grid 1 --block 64 \
// RUN:   --alloc 0x100000000:0x800000 --arg ptr:0x100400000 --arg u32:3 | FileCheck %s

// STATIC:      write: [4*max(
// STATIC-NOT:  4294967294
// STATIC-SAME: -8*blockDim.x + 4*u + 4)
// The element written, 0x100400000 - 4*125 = 0x1003ffe0c, is in the range.
// CHECK: instance falling_index
// CHECK: #0 o  write [0x{{[0-9a-f]+}}, 0x1003ffe10)
__global__ void falling_index(float *o, unsigned u) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  int v0 = blockDim.x;
  do {
    o[(int)(u - v0 - blockDim.x)] = 1.5f;
    v0 += 2;
  } while (v0 < (tid << 4));
}

// Regressions (found by test/fuzz/region_fuzz.py, seed 17): increments
// through a masked lane index were called idempotent.
//  * SCEV writes (x & 31) ^ 31 as zext(trunc(-1 - x) to i5). The
//    disjointness prover read zero extensions as their operand, so the index
//    became y - 31 + ... with -1 - x in it, whose bounds [0, 31] then left
//    no solution: "reads and writes proven disjoint" for b[i] += 0.5. A zero
//    extension is now its operand only while that lies in [0, 2^K - 1]
//    (checked at the launch unless static; for a mask, the masked value).
//  * A proof resting on launch checks counted even where the regions were
//    whole allocations, which the runtime does not check per launch: the
//    unsigned index of rmw_wrapped_index left nothing to classify it, and
//    it was "idempotent". Such a proof now counts only on assumed checks.
//  * A check on geometry alone was assumed to hold (as blockDim.x*gridDim.x
//    - 1 <= INT32_MAX does) even as `blockDim.x - 1 <= 15` or a constant
//    outside its range. Only upper bounds of INT32_MAX or more are now.
// RUN: %gmem-analyze %s | FileCheck %s --check-prefix=STATIC
// RUN: %gmem-analyze %s --kernel rmw_masked_lane --grid 1 --block 8 \
// RUN:   --alloc 0x100000000:0x800000 --arg ptr:0x100400000 | FileCheck %s
// RUN: %gmem-analyze %s --kernel rmw_masked_lane --grid 1 --block 64,2 \
// RUN:   --alloc 0x100000000:0x800000 --arg ptr:0x100400000 | FileCheck %s
// RUN: %gmem-analyze %s --kernel rmw_wrapped_index --grid 2 --block 64,2 \
// RUN:   --alloc 0x100000000:0x800000 --arg ptr:0x100400000 --arg i32:1 | FileCheck %s

// STATIC-LABEL: kernel rmw_masked_lane(
// STATIC:       class:  conditional -- reads and writes of 'b' are proven apart only while
// STATIC-LABEL: kernel rmw_wrapped_index(
// STATIC:       class:  non-idempotent -- 'b' is read and written at the same offset
// CHECK: idempotent: no -- write of b overlaps read of b
__global__ void rmw_masked_lane(float *b) {
  b[(int)threadIdx.y - (31 - (int)(threadIdx.x & 31))] += 0.5f;
}

__global__ void rmw_wrapped_index(float *b, int n) {
  if ((unsigned)n < 3u)
    b[(signed char)threadIdx.y - (31 - (threadIdx.x & 31))] += 0.5f;
}

// Regression (found by the GPU run-twice truth): a parameter accessed only
// through one atomic had no (read, write) pair left for the prover and was
// marked "reads and writes proven disjoint", which exempted it at launch and
// made a histogram launch "idempotent". An atomic access always overlaps itself.
// RUN: %gmem-analyze %s --json | FileCheck %s --check-prefix=STATIC
// RUN: %gmem-analyze %s --kernel histogram --grid 240 --block 256 \
// RUN:   --alloc 0x100000000:1000000 --alloc 0x200000000:1024 \
// RUN:   --arg ptr:0x100000000 --arg ptr:0x200000000 --arg i32:1000000 | FileCheck %s

// STATIC: "class": "non-idempotent"
// STATIC: "name": "bins"
// STATIC-SAME: "atomic": true
// STATIC-SAME: "rw_disjoint_proven": false
// CHECK: idempotent: no -- write of bins overlaps read of bins
__global__ void histogram(const unsigned char *data, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[data[i]], 1u);
}

// The implicit kernel arguments hold the block counts (gridDim) only from
// code object v5 on; under v4 their first words are the global offsets.
// The analysis reads them as gridDim only where the module says v5.
// RUN: %gmem-analyze %s | FileCheck %s --check-prefix=V5
// RUN: %gmem-analyze %s -Xclang-arg -mcode-object-version=4 | FileCheck %s --check-prefix=V4
// V5: write: [4000*gridDim.x, 4*blockDim.x + 4000*gridDim.x)
// V4: write: whole allocation
#include <hip/hip_runtime.h>
__global__ void grid_indexed(float *out) {
  out[gridDim.x * 1000 + threadIdx.x] = 1.f;
}

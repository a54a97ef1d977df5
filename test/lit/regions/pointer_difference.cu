// An address computed from the integer value of a pointer into another
// object (`b + (a - b)`, `a + (b - a) * flag`, byte arithmetic through
// uintptr_t) reaches a's memory on the GPU though LLVM keeps b's
// provenance: such an access is unknown memory, never a region of b (an
// adversarial corpus on the H200, session 46, wrote outside b's predicted
// regions and updated a in place under an "idempotent" verdict). The
// address of the accessed object itself may take part (alignment).
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK-LABEL: kernel diff_index(float*, float*)
// CHECK-NOT:     write: [
// CHECK:         unknown memory write: address computed from another pointer's value
// CHECK-LABEL: kernel diff_inplace(float*, float*)
// CHECK:         class:  unknown
// CHECK:         unknown memory read:  address computed from another pointer's value
// CHECK:         unknown memory write: address computed from another pointer's value
// CHECK-LABEL: kernel diff_bytes(float*, float*)
// CHECK:         unknown memory write: address computed from another pointer's value
// CHECK-LABEL: kernel diff_flag(float*, float*, int)
// CHECK:         unknown memory write: address computed from another pointer's value
// CHECK-LABEL: kernel aligned_self(float*, int)
// CHECK:         write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 16)
// CHECK-NOT:     unknown memory
#include <cstdint>
__global__ void diff_index(float *a, float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  (b + (a - b))[i] = 1.0f;
}
__global__ void diff_inplace(float *a, float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = b + (a - b);
  p[i] = 2.0f * p[i] + 1.0f;
}
__global__ void diff_bytes(float *a, float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = (float *)((char *)b + ((uintptr_t)a - (uintptr_t)b));
  p[i] = 3.0f;
}
__global__ void diff_flag(float *a, float *b, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  (a + (b - a) * flag)[i] = 4.0f;
}
__global__ void aligned_self(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = a + ((16 - ((uintptr_t)a & 15)) & 15) / 4;
  if (i < n) p[i] = 5.0f;
}

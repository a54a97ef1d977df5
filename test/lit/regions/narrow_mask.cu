// Narrow indices are bounded by their type without any launch check:
// i & 15 is i mod 16 <= min(i, 15); (unsigned char)(7*i) is in [0, 255].
// RUN: %gmem-analyze %s | FileCheck %s
// CHECK: #1 lut : ptr  R
// CHECK-NEXT: read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1, 15) + 4) U [0, 1024)
__global__ void masked(float *out, const float *lut, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = lut[i & 15] + lut[(unsigned char)(i * 7)];
}

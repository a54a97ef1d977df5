// A 2D guard `r < M && c < N` (one branch on an `and` of two compares)
// bounds the row by M and the column by N: both show up as min() terms.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel scale2d(int, int, float const*, float*)  [nvptx]
// CHECK:      class:  conditional -- reads 'A' and writes 'B'
// CHECK:      #2 A : ptr  R
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, N - 1) + 4*min(blockDim.y*gridDim.y - 1, M - 1)*N + 4)
// CHECK-NEXT: #3 B : ptr  W
// CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, N - 1) + 4*min(blockDim.y*gridDim.y - 1, M - 1)*N + 4)
__global__ void scale2d(int M, int N, const float *A, float *B) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < M && c < N)
    B[r * N + c] = 2.0f * A[r * N + c];
}

// 2D tile indexing (row from the y dimension, column from x) of a row-major
// C[r*N + c] = sum_k A[r*K + k] * B[k*N + c] over an M x N output: the rows
// are bounded by M, the columns by N, and the k loop by K.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel matmul(int, int, int, float const*, float const*, float*)
// CHECK:      class:  conditional
// CHECK:      #3 A : ptr  R
// CHECK-NEXT:     read:  [0, 4*min(blockDim.y*gridDim.y - 1, M - 1)*K + 4*K)
// CHECK-NEXT: #4 B : ptr  R
// CHECK-NEXT:     read:  [0, -4*N + 4*min(blockDim.x*gridDim.x - 1, N - 1) + 4*N*K + 4)
// CHECK-NEXT: #5 C : ptr  W
// CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, N - 1) + 4*min(blockDim.y*gridDim.y - 1, M - 1)*N + 4)
__global__ void matmul(int M, int N, int K, const float *A, const float *B, float *C) {
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < M && c < N) {
    float s = 0.0f;
    for (int k = 0; k < K; ++k)
      s += A[r * K + k] * B[k * N + c];
    C[r * N + c] = s;
  }
}

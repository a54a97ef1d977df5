// CUDA's cache-operator loads and stores (__ldcs, __stcs, __ldcg, __ldlu,
// __ldcv, __stwt: nvcc declares them, clang 19 does not; llm.c uses them)
// compile under gmem and are analysed as the accesses they are: the hints
// as plain loads and stores, __ldcg / __ldcv / __stwt as volatile ones.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK: kernel stream_copy(float*, float const*, int)
// CHECK: class:  conditional
// CHECK: #0 out : ptr  W
// CHECK-NEXT: write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK: #1 in : ptr  R
// CHECK-NEXT: read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
__global__ void stream_copy(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __stcs(out + i, __ldcs(in + i));
}

// CHECK: kernel vec_copy(int4*, int4 const*, int)
// CHECK: #0 out : ptr  W
// CHECK-NEXT: write: [0, 16*min(blockDim.x*gridDim.x - 1, n - 1) + 16)
// CHECK: #1 in : ptr  R
// CHECK-NEXT: read:  [0, 16*min(blockDim.x*gridDim.x - 1, n - 1) + 16)
__global__ void vec_copy(int4 *out, const int4 *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __stcg(out + i, __ldlu(in + i));
}

// CHECK: kernel strong_copy(float*, float const*, int)
// CHECK: #0 out : ptr  W
// CHECK-NEXT: write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK: #1 in : ptr  R
// CHECK-NEXT: read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
__global__ void strong_copy(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __stwt(out + i, __ldcg(in + i) + __ldcv(in + i));
}

// Second .cu of the two-file program (see multi_main.cu).
#include "check.h"

#include <cuda_runtime.h>

template <typename T> __global__ void scale(T *p, int n, T s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] *= s;
}

void scale_on_device(float *d, int n, float s) {
  scale<float><<<(n + 255) / 256, 256>>>(d, n, s);
  GMEM_CUDA_CHECK("multi", cudaGetLastError());
}

// Two .cu translation units, each with its own kernels (no relocatable
// device code: nothing __device__ is shared across files). This one has
// main; multi_scale.cu has scale_on_device(). Prints PASS or FAIL.
#include "check.h"

#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

void scale_on_device(float *d, int n, float s); // multi_scale.cu

__global__ void add_one(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] += 1.0f;
}

int main() {
  const char *prog = "multi";
  const int n = 10000;
  std::vector<float> h(n), want(n);
  gmem_test_fill(h.data(), n, 4);
  for (int i = 0; i < n; ++i)
    want[i] = (h[i] + 1.0f) * 3.0f;
  int devices = 0;
  GMEM_CUDA_CHECK(prog, cudaGetDeviceCount(&devices));
  float *d;
  GMEM_CUDA_CHECK(prog, cudaMalloc(&d, n * sizeof(float)));
  GMEM_CUDA_CHECK(prog, cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  add_one<<<(n + 127) / 128, 128>>>(d, n);
  GMEM_CUDA_CHECK(prog, cudaGetLastError());
  scale_on_device(d, n, 3.0f);
  GMEM_CUDA_CHECK(prog, cudaDeviceSynchronize());
  GMEM_CUDA_CHECK(prog, cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  GMEM_CUDA_CHECK(prog, cudaFree(d));
  size_t bad = gmem_test_compare(prog, h.data(), want.data(), n, 0.0f);
  std::printf("%s %s\n", bad ? "FAIL" : "PASS", prog);
  return bad ? 1 : 0;
}

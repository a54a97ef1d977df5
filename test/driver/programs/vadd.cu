// Vector add: cudaMalloc / cudaMemcpy / <<<>>> / cudaDeviceSynchronize,
// checked against the CPU reference in check.cpp. Prints PASS or FAIL.
#include "check.h"

#include <cuda_runtime.h>
#include <cstdio>
#include <vector>

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

int main() {
  const char *prog = "vadd";
  const int n = (1 << 20) + 3; // not a multiple of the block size
  std::vector<float> a(n), b(n), c(n, -7.0f), ref(n);
  gmem_test_fill(a.data(), n, 1);
  gmem_test_fill(b.data(), n, 2);
  gmem_test_vadd_ref(a.data(), b.data(), ref.data(), n);

  int devices = 0;
  GMEM_CUDA_CHECK(prog, cudaGetDeviceCount(&devices));
  cudaDeviceProp prop;
  GMEM_CUDA_CHECK(prog, cudaGetDeviceProperties(&prop, 0));
  std::printf("  %s: device 0: %s (sm_%d%d)\n", prog, prop.name, prop.major,
              prop.minor);

  float *da, *db, *dc;
  size_t bytes = sizeof(float) * n;
  GMEM_CUDA_CHECK(prog, cudaMalloc(&da, bytes));
  GMEM_CUDA_CHECK(prog, cudaMalloc(&db, bytes));
  GMEM_CUDA_CHECK(prog, cudaMalloc(&dc, bytes));
  GMEM_CUDA_CHECK(prog, cudaMemcpy(da, a.data(), bytes, cudaMemcpyHostToDevice));
  GMEM_CUDA_CHECK(prog, cudaMemcpy(db, b.data(), bytes, cudaMemcpyHostToDevice));
  GMEM_CUDA_CHECK(prog, cudaMemset(dc, 0, bytes));
  const int block = 256;
  vadd<<<(n + block - 1) / block, block>>>(da, db, dc, n);
  GMEM_CUDA_CHECK(prog, cudaGetLastError());
  GMEM_CUDA_CHECK(prog, cudaDeviceSynchronize());
  GMEM_CUDA_CHECK(prog, cudaMemcpy(c.data(), dc, bytes, cudaMemcpyDeviceToHost));
  GMEM_CUDA_CHECK(prog, cudaFree(da));
  GMEM_CUDA_CHECK(prog, cudaFree(db));
  GMEM_CUDA_CHECK(prog, cudaFree(dc));

  size_t bad = gmem_test_compare(prog, c.data(), ref.data(), n, 0.0f);
#ifndef GMEM_TEST_NO_DESC
  // The descriptor gmem's plugin embedded, as the runtime will look it up.
  bad += gmem_test_check_descriptor(prog, (const void *)vadd, "__gmem_desc__Z4vaddPKfS0_Pfi");
#endif
  std::printf("%s %s\n", bad ? "FAIL" : "PASS", prog);
  return bad ? 1 : 0;
}

// 2D five-point Jacobi stencil on a 2D grid of 2D blocks, several
// iterations ping-ponging between two buffers, with a static (internal
// linkage) kernel and a __constant__ coefficient. Checked against the CPU
// reference in check.cpp. Prints PASS or FAIL.
#include "check.h"

#include <cuda_runtime.h>
#include <cstdio>
#include <utility>
#include <vector>

__constant__ float kCoef;

static __global__ void stencil(const float *__restrict__ in,
                               float *__restrict__ out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1)
    return;
  int i = y * nx + x;
  out[i] = kCoef * (in[i] + in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}

int main() {
  const char *prog = "stencil2d";
  const int nx = 513, ny = 259, iters = 20; // odd sizes: partial blocks
  const size_t n = (size_t)nx * ny, bytes = n * sizeof(float);
  std::vector<float> in(n), got(n), ref(n);
  gmem_test_fill(in.data(), n, 3);
  gmem_test_stencil_ref(in.data(), ref.data(), nx, ny, iters);

  int devices = 0;
  GMEM_CUDA_CHECK(prog, cudaGetDeviceCount(&devices));
  const float coef = 0.2f;
  GMEM_CUDA_CHECK(prog, cudaMemcpyToSymbol(kCoef, &coef, sizeof coef));
  float *d0, *d1;
  GMEM_CUDA_CHECK(prog, cudaMalloc(&d0, bytes));
  GMEM_CUDA_CHECK(prog, cudaMalloc(&d1, bytes));
  GMEM_CUDA_CHECK(prog, cudaMemcpy(d0, in.data(), bytes, cudaMemcpyHostToDevice));
  // Borders never change: both buffers start as the input.
  GMEM_CUDA_CHECK(prog, cudaMemcpy(d1, in.data(), bytes, cudaMemcpyHostToDevice));
  dim3 block(32, 8), grid((nx + 31) / 32, (ny + 7) / 8);
  for (int it = 0; it < iters; ++it) {
    stencil<<<grid, block>>>(d0, d1, nx, ny);
    GMEM_CUDA_CHECK(prog, cudaGetLastError());
    std::swap(d0, d1);
  }
  GMEM_CUDA_CHECK(prog, cudaDeviceSynchronize());
  GMEM_CUDA_CHECK(prog, cudaMemcpy(got.data(), d0, bytes, cudaMemcpyDeviceToHost));
  GMEM_CUDA_CHECK(prog, cudaFree(d0));
  GMEM_CUDA_CHECK(prog, cudaFree(d1));

  // The device may contract a*b+c into FMAs: allow a little rounding.
  size_t bad = gmem_test_compare(prog, got.data(), ref.data(), n, 1e-5f);
#ifndef GMEM_TEST_NO_DESC
  // The descriptor gmem's plugin embedded, as the runtime will look it up.
  bad += gmem_test_check_descriptor(prog, (const void *)stencil, "__gmem_desc__ZL7stencilPKfPfii");
#endif
  std::printf("%s %s\n", bad ? "FAIL" : "PASS", prog);
  return bad ? 1 : 0;
}

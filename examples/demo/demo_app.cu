// GPU demo of the main job: a small CUDA program built with gmem-clang++
// (descriptors embedded, libgmemrt linked first). Under GMEM_LOG=launches the
// runtime prints, per launch, the concrete regions' decision: the
// out-of-place launch is idempotent, the in-place one is not.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(float *out, const float *in, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = s * in[i];
}

int main() {
  const int n = 1 << 20;
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n * sizeof(float)) != cudaSuccess || cudaMalloc(&b, n * sizeof(float)) != cudaSuccess) {
    std::printf("demo: no usable GPU (%s)\n", cudaGetErrorString(cudaGetLastError()));
    return 77;
  }
  cudaMemset(a, 0, n * sizeof(float));
  scale<<<(n + 255) / 256, 256>>>(b, a, 2.0f, n); // separate buffers: idempotent
  scale<<<(n + 255) / 256, 256>>>(a, a, 2.0f, n); // in place: not idempotent
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("demo: %s\n", e == cudaSuccess ? "ok" : cudaGetErrorString(e));
  if (e == cudaSuccess)
    std::printf("PASS demo_app\n");
  cudaFree(a);
  cudaFree(b);
  return e == cudaSuccess ? 0 : 1;
}

// GPU demo of the main job: a small CUDA program built with gmem-clang++
// (descriptors embedded, libgmemrt linked first). Under GMEM_LOG=launches the
// runtime prints, per launch, the concrete regions' decision: the
// out-of-place launch is idempotent, the in-place one is not.
#include <cstdio>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include "gmem/gmem.h"

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
  // The runtime's C API, if this program runs under libgmemrt (looked up so
  // that the demo also runs, unchecked, without it).
  using GetInfo = int (*)(gmemLaunchInfo *);
  auto Get = reinterpret_cast<GetInfo>(dlsym(RTLD_DEFAULT, "gmemGetLastLaunchInfo"));
  int Expect[2] = {1, 0}, Bad = 0;
  cudaMemset(a, 0, n * sizeof(float));
  for (int L = 0; L < 2; ++L) {
    if (L == 0)
      scale<<<(n + 255) / 256, 256>>>(b, a, 2.0f, n); // separate buffers: idempotent
    else
      scale<<<(n + 255) / 256, 256>>>(a, a, 2.0f, n); // in place: not idempotent
    gmemLaunchInfo Info;
    if (Get && Get(&Info) == 0 && Info.instrumented) {
      std::printf("demo: launch %d decided %s (%s)\n", L, Info.idempotent ? "idempotent" : "not idempotent",
                  Info.reason);
      Bad |= Info.idempotent != Expect[L];
    } else {
      std::printf("demo: launch %d not seen by libgmemrt\n", L);
      Bad |= Get != nullptr; // under the runtime every launch must be instrumented
    }
  }
  cudaError_t e = cudaDeviceSynchronize();
  if (Bad)
    e = cudaErrorUnknown;
  std::printf("demo: %s\n", e == cudaSuccess ? "ok" : cudaGetErrorString(e));
  if (e == cudaSuccess)
    std::printf("PASS demo_app\n");
  cudaFree(a);
  cudaFree(b);
  return e == cudaSuccess ? 0 : 1;
}

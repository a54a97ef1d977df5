// Runs the gm_loops.cu kernels gmem calls idempotent on a real GPU: each
// launch twice on one buffer, memory compared after run 1 and run 2.
// Build (as gmem compiles, clang-19 at -O2):
//   clang++-19 -x cuda --cuda-gpu-arch=sm_90 -O2 -Wno-unknown-cuda-version \
//     --cuda-path=/usr/local/cuda gpu_check.cu -o gpu_check \
//     -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -pthread
#include "gm_loops.cu"
#include <cstdio>
#include <cstring>
#include <vector>

template <typename T, typename L>
static void check(const char *name, int n, L launch) {
  std::vector<T> h(n), a(n), b(n);
  unsigned s = 12345;
  for (auto &e : h) { s = s * 1103515245u + 12345u; e = T((s >> 8) % 2); }
  T *d;
  cudaMalloc(&d, n * sizeof(T));
  cudaMemcpy(d, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  launch(d);
  cudaMemcpy(a.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  launch(d);
  cudaMemcpy(b.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  cudaError_t e = cudaDeviceSynchronize();
  int diff = 0, first = -1;
  for (int i = 0; i < n; ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(T))) { if (first < 0) first = i; ++diff; }
  std::printf("%-18s %s: %d of %d words differ between run 1 and run 2", name, cudaGetErrorString(e), diff, n);
  if (first >= 0) std::printf("  (v[%d]: input %g, run 1 %g, run 2 %g)", first, double(h[first]), double(a[first]), double(b[first]));
  std::printf("\n");
  cudaFree(d);
}

int main() {
  const int n = 1024;
  check<int>("stale_toggle", n, [](int *d) { stale_toggle<<<4, 256>>>(d, n); });
  check<int>("counted_toggle", n, [](int *d) { counted_toggle<<<4, 256>>>(d, n); });
  check<float>("stale_float", n, [](float *d) { stale_float<<<4, 256>>>(d, n); });
  check<int>("stale_four", n, [](int *d) { stale_four<<<4, 256>>>(d, n); });
  check<int>("stale_grid_stride", n, [](int *d) { stale_grid_stride<<<2, 128>>>(d, n); });
  check<int>("stale_control", n, [](int *d) { stale_control<<<4, 256>>>(d, n); });
  check<int>("stale_three", n, [](int *d) { stale_three<<<4, 256>>>(d, n); });
  return 0;
}

// Runs the gmem-`yes` instances of gl_guarded.cu / gl_mixed.cu that the
// emulator shows non-idempotent on a real GPU: each launch twice on the
// same memory, printing the first word after run 1 and run 2 and the
// number of words that differ.
// Build: nvcc -arch=sm_90 -cudart static gpu_check.cu -o gpu_check
#include <cstdio>
#include <vector>
#include "gl_guarded.cu"
#include "gl_mixed.cu"

template <class F>
static void twice(const char *name, std::vector<int> init, F launch) {
  int n = init.size();
  int *p;
  cudaMalloc(&p, n * sizeof(int));
  cudaMemcpy(p, init.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  std::vector<int> a(n), b(n);
  launch(p);
  cudaMemcpy(a.data(), p, n * sizeof(int), cudaMemcpyDeviceToHost);
  launch(p);
  cudaMemcpy(b.data(), p, n * sizeof(int), cudaMemcpyDeviceToHost);
  int d = 0;
  for (int i = 0; i < n; ++i) d += a[i] != b[i];
  std::printf("%-18s run1 p[0]=%d run2 p[0]=%d  %d/%d words differ  (%s)\n", name, a[0], b[0], d, n,
              cudaGetErrorString(cudaGetLastError()));
  cudaFree(p);
}

int main() {
  int *A, *B, *dbg;
  int hA[2] = {1, 0}, hB[2] = {0, 2};
  cudaMalloc(&A, 8); cudaMalloc(&B, 8); cudaMalloc(&dbg, 32 * 4);
  cudaMemcpy(A, hA, 8, cudaMemcpyHostToDevice);
  cudaMemcpy(B, hB, 8, cudaMemcpyHostToDevice);
  twice("gl_andor_pos", {1}, [](int *p) { gl_andor_pos<<<1, 32>>>(p, 2); });
  twice("gl_andor_table", {1}, [&](int *p) { gl_andor_table<<<1, 32>>>(p, A, B, 2); });
  twice("gl_andor_warps", std::vector<int>(32, 1), [](int *p) { gl_andor_warps<<<1, 64>>>(p, 2); });
  twice("gl_andor_2d", std::vector<int>(32, 1), [](int *p) { gl_andor_2d<<<1, dim3(32, 2)>>>(p, 2); });
  twice("gl_andor_ifelse", {1}, [&](int *p) { gl_andor_ifelse<<<1, 32>>>(p, 2, dbg); });
  twice("ao_andor_pos", {1}, [](int *p) { ao_andor_pos<<<1, 32>>>(p, p, 2); });
  twice("gl_andor_ctrl", {1}, [](int *p) { gl_andor_ctrl<<<1, 32>>>(p, 2); });
  twice("gl_andor_same", {1}, [](int *p) { gl_andor_same<<<1, 32>>>(p, 2, 1, 2); });
  cudaDeviceSynchronize();
  return 0;
}

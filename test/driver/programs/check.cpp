// Host-only helpers of the driver's test programs (see check.h).
#include "check.h"

#include <cuda.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

void gmem_test_cuda_fail(const char *prog, const char *what, int code,
                         const char *name, const char *msg) {
  // cudaErrorNoDevice (100), cudaErrorInsufficientDriver (35),
  // cudaErrorStubLibrary (34), cudaErrorInitializationError (3) and the
  // like: nothing to run on.
  bool noDevice = code == 100 || code == 35 || code == 34 || code == 3 ||
                  (name && std::strstr(name, "NoDevice"));
  std::printf("%s %s: %s failed: %s (%d): %s\n", noDevice ? "SKIP" : "FAIL",
              prog, what, name ? name : "?", code, msg ? msg : "?");
  std::fflush(stdout);
  std::exit(noDevice ? GMEM_TEST_NO_DEVICE : 1);
}

void gmem_test_fill(float *p, size_t n, unsigned seed) {
  unsigned long long s = 0x9E3779B97F4A7C15ull ^ seed;
  for (size_t i = 0; i < n; ++i) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    p[i] = (float)((s >> 40) & 0xFFFFFF) / (float)0x800000 - 1.0f;
  }
}

size_t gmem_test_compare(const char *prog, const float *got, const float *want,
                         size_t n, float tol) {
  size_t bad = 0;
  double maxErr = 0;
  for (size_t i = 0; i < n; ++i) {
    double err = std::fabs((double)got[i] - (double)want[i]);
    double scale = std::fmax(1.0, std::fabs((double)want[i]));
    if (!(err <= tol * scale)) { // also catches NaN
      if (bad < 5)
        std::printf("  %s: mismatch at %zu: got %.9g want %.9g\n", prog, i,
                    got[i], want[i]);
      ++bad;
    }
    if (err > maxErr)
      maxErr = err;
  }
  std::printf("  %s: %zu elements, %zu mismatches, max abs error %.3g\n", prog,
              n, bad, maxErr);
  return bad;
}

void gmem_test_vadd_ref(const float *a, const float *b, float *c, size_t n) {
  for (size_t i = 0; i < n; ++i)
    c[i] = a[i] + b[i];
}

void gmem_test_stencil_ref(const float *in, float *out, int nx, int ny,
                           int iters) {
  float *cur = (float *)std::malloc(sizeof(float) * nx * ny);
  float *nxt = (float *)std::malloc(sizeof(float) * nx * ny);
  std::memcpy(cur, in, sizeof(float) * nx * ny);
  std::memcpy(nxt, in, sizeof(float) * nx * ny);
  for (int it = 0; it < iters; ++it) {
    for (int y = 1; y < ny - 1; ++y)
      for (int x = 1; x < nx - 1; ++x) {
        int i = y * nx + x;
        nxt[i] = 0.2f * (cur[i] + cur[i - 1] + cur[i + 1] + cur[i - nx] +
                         cur[i + nx]);
      }
    float *t = cur;
    cur = nxt;
    nxt = t;
  }
  std::memcpy(out, cur, sizeof(float) * nx * ny);
  std::free(cur);
  std::free(nxt);
}

int gmem_test_check_descriptor(const char *prog, const void *kernel,
                               const char *desc) {
  typedef CUresult (*FuncGetModule)(CUmodule *, CUfunction);
  typedef CUresult (*ModuleGetGlobal)(CUdeviceptr *, size_t *, CUmodule,
                                      const char *);
  void *p1 = nullptr, *p2 = nullptr;
  cudaDriverEntryPointQueryResult q1, q2;
  if (cudaGetDriverEntryPointByVersion("cuFuncGetModule", &p1, 12000,
                                       cudaEnableDefault, &q1) != cudaSuccess ||
      cudaGetDriverEntryPointByVersion("cuModuleGetGlobal", &p2, 12000,
                                       cudaEnableDefault, &q2) != cudaSuccess ||
      !p1 || !p2) {
    std::printf("  %s: descriptor check: driver entry points unavailable\n", prog);
    return 1;
  }
  cudaFunction_t fn = nullptr;
  cudaError_t e = cudaGetFuncBySymbol(&fn, kernel);
  if (e != cudaSuccess) {
    std::printf("  %s: descriptor check: cudaGetFuncBySymbol: %s\n", prog,
                cudaGetErrorString(e));
    return 1;
  }
  CUmodule mod = nullptr;
  CUresult r = ((FuncGetModule)p1)(&mod, (CUfunction)fn);
  if (r != CUDA_SUCCESS) {
    std::printf("  %s: descriptor check: cuFuncGetModule failed (%d)\n", prog, (int)r);
    return 1;
  }
  CUdeviceptr ptr = 0;
  size_t size = 0;
  r = ((ModuleGetGlobal)p2)(&ptr, &size, mod, desc);
  if (r != CUDA_SUCCESS) {
    std::printf("  %s: descriptor %s not found in the module (%d)\n", prog, desc,
                (int)r);
    return 1;
  }
  unsigned char head[4] = {0, 0, 0, 0};
  if (size < 4 || cudaMemcpy(head, (const void *)ptr, 4,
                             cudaMemcpyDeviceToHost) != cudaSuccess) {
    std::printf("  %s: descriptor %s: %zu bytes, unreadable\n", prog, desc, size);
    return 1;
  }
  bool ok = std::memcmp(head, "GMD1", 4) == 0;
  std::printf("  %s: descriptor %s: %zu bytes, magic %.4s%s\n", prog, desc, size,
              (const char *)head, ok ? "" : " (expected GMD1)");
  return ok ? 0 : 1;
}

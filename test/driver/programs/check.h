// Shared by the driver's test programs (test/driver/programs).
// Host-only helpers, defined in check.cpp (a plain C++ translation unit,
// compiled as host code by gmem-clang++), so every program links at least
// one .cu and one .cpp.
#pragma once
#include <cstddef>

// Exit status for "no usable CUDA device": the CPU test accepts it, the GPU
// runner (test/driver/gpu/run.sh) counts it as a failure.
enum { GMEM_TEST_NO_DEVICE = 77 };

// Reports a CUDA runtime error (code, name, message) and exits: 77 when the
// error means no usable device/driver, else 1. `what` names the call.
void gmem_test_cuda_fail(const char *prog, const char *what, int code,
                         const char *name, const char *msg);

// Fills `n` floats with a deterministic pseudo-random sequence in [-1, 1).
void gmem_test_fill(float *p, size_t n, unsigned seed);

// Compares got[] against want[]; prints the first mismatches and a summary.
// Returns the number of elements whose relative/absolute error exceeds tol.
size_t gmem_test_compare(const char *prog, const float *got, const float *want,
                         size_t n, float tol);

// Finds the descriptor global `desc` (gmem's __gmem_desc_<kernel>) in the
// module that holds `kernel` the way gmem's runtime does (CUfunction ->
// cuFuncGetModule -> cuModuleGetGlobal, driver entry points through the
// runtime, so no -lcuda), copies it back and checks its magic ("GMD1").
// Returns 0 when found and well-formed; prints a line either way. Programs
// built with -DGMEM_TEST_NO_DESC (e.g. --no-gmem builds) skip the check.
int gmem_test_check_descriptor(const char *prog, const void *kernel,
                               const char *desc);

// CPU references.
void gmem_test_vadd_ref(const float *a, const float *b, float *c, size_t n);
void gmem_test_stencil_ref(const float *in, float *out, int nx, int ny,
                           int iters);

#define GMEM_CUDA_CHECK(prog, call)                                            \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess)                                                     \
      gmem_test_cuda_fail(prog, #call, (int)e_, cudaGetErrorName(e_),          \
                          cudaGetErrorString(e_));                             \
  } while (0)

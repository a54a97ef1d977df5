// HIP hands a kernel's global pointer arguments to its code as flat
// pointers made by `inttoptr (ptrtoint p)`. In the kernel's own code
// InferAddressSpaces undoes that; in a noinline device function it does not,
// and once the analysis inlined the helper into its copy of the kernel the
// accesses went through the round trip, and were unknown ("a pointer
// difference"). The analysis folds an exact round trip between the global
// and flat spaces back to the pointer, so helpers bound as in CUDA; any
// arithmetic on the integer still makes the address unknown.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel helper_copy(float const*, float*)  [amdgpu]
// CHECK:      class:  conditional -- reads 'in' and writes 'out'
// CHECK:      #0 in : ptr  R
// CHECK-NEXT:     read:  [0, 4*blockDim.x)
// CHECK-NEXT: #1 out : ptr  W
// CHECK-NEXT:     write: [0, 4*blockDim.x)

// CHECK:      kernel helper_bump(float*)  [amdgpu]
// CHECK:      class:  non-idempotent
// CHECK:      #0 a : ptr  RW
// CHECK-NEXT:     read:  [0, 4*blockDim.x*gridDim.x)
// CHECK-NEXT:     write: [0, 4*blockDim.x*gridDim.x)

// CHECK:      kernel helper_shifted(float*)  [amdgpu]
// CHECK:      class:  unknown
// CHECK:      unknown memory write:
#include <hip/hip_runtime.h>
#include <stdint.h>

__device__ __noinline__ float load_at(const float *p, int i) { return p[i]; }
__device__ __noinline__ void store_at(float *p, int i, float v) { p[i] = v; }
__device__ __noinline__ void bump(float *p, int i) { p[i] += 1.0f; }
__device__ __noinline__ void store_shifted(float *p, int i, uintptr_t by) {
  ((float *)((uintptr_t)p + by))[i] += 1.0f;
}

__global__ void helper_copy(const float *in, float *out) {
  int t = threadIdx.x;
  float v = load_at(in, t);
  __syncthreads();
  store_at(out, t, v + 1.0f);
}

__global__ void helper_bump(float *a) { bump(a, blockIdx.x * blockDim.x + threadIdx.x); }

__global__ void helper_shifted(float *a) { store_shifted(a, threadIdx.x, 4096 * blockIdx.x); }

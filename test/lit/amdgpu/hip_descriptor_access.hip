// Memory an AMDGPU kernel reaches without a pointer operand the analysis can
// follow: a scalar buffer load through a resource descriptor (LLVM 19 marks
// llvm.amdgcn.s.buffer.load memory(none)), and inline asm without volatile
// or a memory clobber (clang marks it memory(none)) whose address is a
// <4 x i32> descriptor or a <2 x i32> register pair. Each kernel really adds
// 1 to what it reads; each was once called idempotent ("reads no global
// memory").
// RUN: %gmem-analyze %s | FileCheck %s
// CHECK-LABEL: kernel sbuf_inc
// CHECK-NEXT: symbol:
// CHECK-NEXT: class:  unknown -- reads memory it cannot bound ('llvm.amdgcn.s.buffer.load.i32' reaches memory through a resource descriptor)
// CHECK-LABEL: kernel asm_sbuf_inc
// CHECK-NEXT: symbol:
// CHECK-NEXT: class:  unknown -- writes memory it cannot bound (inline asm may touch any memory)
// CHECK-LABEL: kernel asm_gload_halves
// CHECK-NEXT: symbol:
// CHECK-NEXT: class:  unknown -- writes memory it cannot bound (inline asm may touch any memory)
#include <hip/hip_runtime.h>
typedef int i32x4 __attribute__((ext_vector_type(4)));
typedef int i32x2 __attribute__((ext_vector_type(2)));
// Declared the way composable_kernel declares its buffer intrinsics.
__device__ int amd_s_buffer_load_i32(i32x4 rsrc, int offset, int cpol) __asm("llvm.amdgcn.s.buffer.load.i32");

__device__ inline i32x4 make_rsrc(const void *p, unsigned bytes) {
  unsigned long long a = (unsigned long long)p;
  i32x4 r;
  r.x = (int)(unsigned)a;
  r.y = (int)(unsigned)(a >> 32);
  r.z = (int)bytes;
  r.w = 0x00020000;
  return r;
}
__global__ void sbuf_inc(float *a, int n) {
  i32x4 r = make_rsrc(a, (unsigned)n * 4u);
  int b = blockIdx.x;
  if (b < n) {
    float v = __int_as_float(amd_s_buffer_load_i32(r, b * 4, 0));
    if (threadIdx.x == 0)
      a[b] = v + 1.f;
  }
}
__global__ void asm_sbuf_inc(float *a, int n) {
  i32x4 r = make_rsrc(a, (unsigned)n * 4u);
  int b = blockIdx.x, v;
  if (b < n) {
    asm("s_buffer_load_dword %0, %1, %2\n s_waitcnt lgkmcnt(0)" : "=s"(v) : "s"(r), "s"(b * 4));
    if (threadIdx.x == 0)
      a[b] = __int_as_float(v) + 1.f;
  }
}
__global__ void asm_gload_halves(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned long long p = (unsigned long long)(a + i);
    i32x2 addr;
    addr.x = (int)(unsigned)p;
    addr.y = (int)(unsigned)(p >> 32);
    int v;
    asm("global_load_dword %0, %1, off\n s_waitcnt vmcnt(0)" : "=v"(v) : "v"(addr));
    a[i] = __int_as_float(v) + 1.f;
  }
}

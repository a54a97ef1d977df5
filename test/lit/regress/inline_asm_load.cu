// REGRESSION (fixed): a global load written as non-volatile inline PTX is not seen.
//
// clang marks an asm statement that has outputs, no "memory" clobber and no
// `volatile` as memory(none), and the analysis trusts that attribute
// (isMemoryNeutralCall -> doesNotAccessMemory), so the ld.global below is
// dropped: `in` gets no read region at all. Reading through ld.global.nc
// this way is common in hand-tuned kernels. Consequences:
//  * copy_nc: `in` is reported unaccessed and the class is "idempotent --
//    reads no global memory"; launched in place (in == out) the kernel reads
//    what it writes, so the truth is conditional.
//  * bump: a[i] = ld(a + i) + 1 is a read-modify-write (non-idempotent), but
//    the class is "idempotent".
// (asm volatile is handled: it is an unknown access.) The analysis should
// treat inline asm with ld./st./atom./red. in its text as touching memory
// (or at least as an unknown read/write).
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel copy_nc(int, float const*, float*)
// CHECK-NOT:  class:  idempotent
// CHECK:      class:  {{(conditional|unknown)}}
// CHECK:      #1 in : ptr  R
__global__ void copy_nc(int n, const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v;
    asm("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(in + i));
    out[i] = v;
  }
}

// CHECK:      kernel bump(float*)
// CHECK-NOT:  class:  idempotent
// CHECK:      class:  {{(non-idempotent|unknown)}}
__global__ void bump(float *a) {
  int i = threadIdx.x;
  float v;
  asm("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(a + i));
  a[i] = v + 1.0f;
}

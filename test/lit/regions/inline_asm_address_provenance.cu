// Inline PTX whose addresses the analysis cannot take at face value
// (found by an adversarial round in session 48):
// - wmma.load / wmma.store written as asm reach memory (wmma.mma does
//   not); more generally an opcode the scan does not know now counts as
//   reading and writing;
// - an input tied to an output (`"0"(p)`) is the output's register, which
//   the text may change before using it as an address: not the pointer's
//   value at that access;
// - an address the text builds from other operands (two 32-bit halves, a
//   double's bits) reaches memory no pointer operand names: unknown memory.
// An address derived from a pointer operand by arithmetic keeps that
// operand's whole allocation, as before.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel wmma_rmw --grid 1 --block 32 --alloc 0x100000000:1024 \
// RUN:   --arg ptr:0x100000000 | FileCheck %s --check-prefix=WMMA
// WMMA: idempotent: no
// RUN: %gmem-analyze %s --kernel tied_bump --grid 1 --block 32 --alloc 0x100000000:512 \
// RUN:   --arg ptr:0x100000000 --arg ptr:0x100000100 | FileCheck %s --check-prefix=TIED
// TIED: #0 p  write [0x100000000, 0x100000200)
// TIED: idempotent: no
#include <stdint.h>

// CHECK-LABEL: kernel wmma_rmw(float*)
// CHECK:         #0 c : ptr  RW
// CHECK-NEXT:      read:  whole allocation (passed to inline asm)
// CHECK-NEXT:      write: whole allocation (passed to inline asm)
// CHECK-NOT:     unknown memory
// CHECK-LABEL: kernel tied_bump
__global__ void wmma_rmw(float *c) {
  float d[8];
  asm volatile("wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, [%8], 16;"
               : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3]), "=f"(d[4]), "=f"(d[5]),
                 "=f"(d[6]), "=f"(d[7])
               : "l"(c));
  for (int i = 0; i < 8; i++)
    d[i] += 1.0f;
  asm volatile("wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%0], {%1,%2,%3,%4,%5,%6,%7,%8}, 16;"
               ::"l"(c), "f"(d[0]), "f"(d[1]), "f"(d[2]), "f"(d[3]), "f"(d[4]), "f"(d[5]),
                 "f"(d[6]), "f"(d[7])
               : "memory");
}

// The store goes to p + 256 bytes: the whole allocation of p, not [p, p+4).
// CHECK-SAME:    (int*, int const*)
// CHECK:         #0 p : ptr  W
// CHECK-NEXT:      write: whole allocation (passed to inline asm)
__global__ void tied_bump(int *p, const int *in) {
  int v = in[threadIdx.x] + 1;
  int *q;
  asm volatile("add.u64 %0, %1, 256;\n\tst.global.u32 [%1], %2;"
               : "=l"(q)
               : "0"(p + threadIdx.x), "r"(v)
               : "memory");
}

// CHECK-LABEL: kernel split_address_store(float const*, float*, float*)
// CHECK:         unknown memory write: inline asm may touch any memory
__global__ void split_address_store(const float *in, float *out, float *b) {
  unsigned t = threadIdx.x;
  float v = in[t] + 1.0f;
  uintptr_t a = (uintptr_t)(b + t);
  unsigned lo = (unsigned)a, hi = (unsigned)(a >> 32);
  int ok;
  asm("{\n\t.reg .b64 q;\n\tmov.b64 q, {%1, %2};\n\tst.global.f32 [q], %3;\n\tmov.u32 %0, 1;\n\t}"
      : "=r"(ok)
      : "r"(lo), "r"(hi), "f"(v));
  out[t] = (float)ok;
}

// CHECK-LABEL: kernel double_address_store(float const*, float*, float*)
// CHECK:         unknown memory write: inline asm may touch any memory
__global__ void double_address_store(const float *in, float *out, float *b) {
  unsigned t = threadIdx.x;
  float v = in[t] * 2.0f;
  double d = __longlong_as_double((long long)(uintptr_t)(b + t));
  int ok;
  asm("{\n\t.reg .b64 q;\n\tmov.b64 q, %1;\n\tst.global.f32 [q], %2;\n\tmov.u32 %0, 1;\n\t}"
      : "=r"(ok)
      : "d"(d), "f"(v));
  out[t] = (float)ok;
}

// CHECK-LABEL: kernel split_address_load(float const*, float*)
// CHECK:         unknown memory read: inline asm may touch any memory
__global__ void split_address_load(const float *src, float *out) {
  unsigned t = threadIdx.x;
  uintptr_t a = (uintptr_t)(src + t);
  float v;
  asm("{\n\t.reg .b64 q;\n\tmov.b64 q, {%1, %2};\n\tld.global.f32 %0, [q];\n\t}"
      : "=f"(v)
      : "r"((unsigned)a), "r"((unsigned)(a >> 32)));
  out[t] = v + 1.0f;
}

// Control: an address the text derives from a pointer operand and an
// index stays within that pointer's allocation.
// CHECK-LABEL: kernel derived_address_load(float const*, float*)
// CHECK:         #0 src : ptr  R
// CHECK-NEXT:      read:  whole allocation (passed to inline asm)
// CHECK-NOT:     unknown memory
__global__ void derived_address_load(const float *src, float *out) {
  float v;
  asm("{\n\t.reg .b64 q;\n\tmul.wide.u32 q, %2, 4;\n\tadd.s64 q, q, %1;\n\tld.global.f32 %0, [q];\n\t}"
      : "=f"(v)
      : "l"(src), "r"(threadIdx.x));
  out[threadIdx.x] = v;
}

// One asm access that both reads and writes a pointer's allocation (a load
// and a store through an address the text derives from it) overlaps itself:
// never idempotent by regions (the static class skipped such an access as
// if it were an atomic's).
// CHECK-LABEL: kernel asm_read_modify_write(float*)
// CHECK:         class:  unknown -- reads and writes of 'p' may overlap (one access does both)
__global__ void asm_read_modify_write(float *p) {
  asm volatile("{\n\t.reg .b64 q;\n\t.reg .f32 f;\n\tadd.s64 q, %0, 4;\n\tld.global.f32 f, [q];\n\t"
               "add.f32 f, f, 1.0;\n\tst.global.f32 [q], f;\n\t}" ::"l"(p + threadIdx.x));
}

// A loop in the text: a pointer chased through memory (`ld q, [q]`) is a
// loaded value at the loop's second trip, although it was the operand at
// the first. Text that branches needs every write of an address register
// to derive it.
// CHECK-LABEL: kernel asm_pointer_chase(unsigned long long*, int)
// CHECK:         unknown memory read:  inline asm may touch any memory
__global__ void asm_pointer_chase(unsigned long long *head, int v) {
  asm volatile("{\n\t.reg .b64 q;\n\t.reg .pred p;\n\tmov.b64 q, %0;\n"
               "CHASE:\n\tld.global.u64 q, [q];\n\tsetp.ne.u64 p, q, 0;\n\t@p bra CHASE;\n\t"
               "st.global.u32 [%0], %1;\n\t}" ::"l"(head), "r"(v));
}

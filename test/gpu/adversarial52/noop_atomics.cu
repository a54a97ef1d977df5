// Adversarial round 6: atomics that look like no-ops (signedness, width,
// float zero, runtime operands), atomicExch whose old value is used on some
// paths, atomicCAS sequences, atomicInc/Dec.
typedef unsigned long long u64;

// Attacks: unsigned max with 0x80000000 (INT_MIN's bit pattern): a no-op for signed max only.
// GMEM-EXPECT: na_umax_intmin idempotent
// GMEM-RUN: na_umax_intmin grid=1 block=64 args=buf:u32:64:rand
__global__ void na_umax_intmin(unsigned *p) {
  int i = threadIdx.x;
  atomicMax(&p[i], 0x80000000u);
}

// Attacks: unsigned min with 0x7fffffff (INT_MAX): a no-op for signed min only.
// GMEM-EXPECT: na_umin_intmax idempotent
// GMEM-RUN: na_umin_intmax grid=1 block=64 args=buf:u32:64:const:-1
__global__ void na_umin_intmax(unsigned *p) {
  int i = threadIdx.x;
  atomicMin(&p[i], 0x7fffffffu);
}

// Attacks: signed min with 0xffffffff as int (-1): UINT_MAX would be the unsigned no-op.
// GMEM-EXPECT: na_smin_uintmax idempotent
// GMEM-RUN: na_smin_uintmax grid=1 block=64 args=buf:i32:64:rand
__global__ void na_smin_uintmax(int *p) {
  int i = threadIdx.x;
  atomicMin(&p[i], (int)0xffffffffu);
}

// Attacks: 64-bit and with a zero-extended 32-bit all-ones mask.
// GMEM-EXPECT: na_and64_lo idempotent
// GMEM-RUN: na_and64_lo grid=1 block=32 args=buf:u64:32:const:-1
__global__ void na_and64_lo(u64 *p) {
  int i = threadIdx.x;
  atomicAnd(&p[i], (u64)0xffffffffu);
}

// Attacks: 64-bit signed max with (long long)INT_MIN (a no-op only at 32 bits).
// GMEM-EXPECT: na_max64_intmin idempotent
// GMEM-RUN: na_max64_intmin grid=1 block=32 args=buf:i64:32:const:-3000000000
__global__ void na_max64_intmin(long long *p) {
  int i = threadIdx.x;
  atomicMax(&p[i], (long long)INT_MIN);
}

// Attacks: float add of +0.0 (turns -0.0 into +0.0: a write).
// GMEM-EXPECT: na_fadd_pzero idempotent
// GMEM-RUN: na_fadd_pzero grid=1 block=64 args=buf:f32:64:const:-0.0
__global__ void na_fadd_pzero(float *p) {
  int i = threadIdx.x;
  atomicAdd(&p[i], 0.0f);
}

// Attacks: float add of a scalar that is +0.0 at the launch.
// GMEM-EXPECT: na_fadd_scalar conditional
// GMEM-RUN: na_fadd_scalar grid=1 block=64 args=buf:f32:64:const:-0.0 f32:0.0
// GMEM-RUN: na_fadd_scalar grid=1 block=64 args=buf:f32:64:const:-0.0 f32:-0.0
__global__ void na_fadd_scalar(float *p, float s) {
  int i = threadIdx.x;
  atomicAdd(&p[i], s);
}

// Attacks: double add of +0.0 (same as above at 64 bits).
// GMEM-EXPECT: na_dadd_pzero idempotent
// GMEM-RUN: na_dadd_pzero grid=1 block=32 args=buf:f64:32:const:-0.0
__global__ void na_dadd_pzero(double *p) {
  int i = threadIdx.x;
  atomicAdd(&p[i], 0.0);
}

// Attacks: float sub-like add of -0.0 on +0.0 (a true no-op) next to a store.
// GMEM-EXPECT: na_fadd_nzero idempotent
// GMEM-RUN: na_fadd_nzero grid=1 block=64 args=buf:f32:64:rand buf:f32:64:zero
__global__ void na_fadd_nzero(float *p, float *q) {
  int i = threadIdx.x;
  atomicAdd(&p[i], -0.0f);
  q[i] = 1.0f;
}

// Attacks: or with a runtime scalar (0 at one launch: read-only; 1 at another).
// GMEM-EXPECT: na_or_scalar idempotent
// GMEM-RUN: na_or_scalar grid=1 block=64 args=buf:u32:64:rand u32:0
// GMEM-RUN: na_or_scalar grid=1 block=64 args=buf:u32:64:rand u32:128
__global__ void na_or_scalar(unsigned *p, unsigned m) {
  int i = threadIdx.x;
  atomicOr(&p[i], m);
}

// Attacks: or with a mask loaded from memory that is zero except one slot.
// GMEM-EXPECT: na_or_loaded conditional
// GMEM-RUN: na_or_loaded grid=1 block=64 args=buf:u32:64:rand buf:u32:64:iota
__global__ void na_or_loaded(unsigned *p, const unsigned *m) {
  int i = threadIdx.x;
  atomicOr(&p[i], m[i] & 0x100u ? 0u : m[i] << 8);
}

// Attacks: signed min with an unsigned scalar cast to int (u32 0xffffffff is -1).
// GMEM-EXPECT: na_smin_uscalar idempotent
// GMEM-RUN: na_smin_uscalar grid=1 block=64 args=buf:i32:64:rand u32:4294967295
// GMEM-RUN: na_smin_uscalar grid=1 block=64 args=buf:i32:64:rand u32:2147483647
__global__ void na_smin_uscalar(int *p, unsigned s) {
  int i = threadIdx.x;
  atomicMin(&p[i], (int)s);
}

// Attacks: 64-bit and with a zero-extended unsigned scalar (-1 at 32 bits).
// GMEM-EXPECT: na_and64_uscalar idempotent
// GMEM-RUN: na_and64_uscalar grid=1 block=32 args=buf:u64:32:const:-1 u32:4294967295
__global__ void na_and64_uscalar(u64 *p, unsigned s) {
  int i = threadIdx.x;
  atomicAnd(&p[i], (u64)s);
}

// Attacks: 64-bit and with a sign-extended int scalar (-1 is all ones: a no-op).
// GMEM-EXPECT: na_and64_sscalar idempotent
// GMEM-RUN: na_and64_sscalar grid=1 block=32 args=buf:u64:32:const:-1 i32:-1
// GMEM-RUN: na_and64_sscalar grid=1 block=32 args=buf:u64:32:const:-1 i32:-2
__global__ void na_and64_sscalar(u64 *p, int s) {
  int i = threadIdx.x;
  atomicAnd(&p[i], (u64)(long long)s);
}

// Attacks: 64-bit signed max with a sign-extended INT_MIN scalar.
// GMEM-EXPECT: na_max64_sscalar idempotent
// GMEM-RUN: na_max64_sscalar grid=1 block=32 args=buf:i64:32:const:-3000000000 i32:-2147483648
__global__ void na_max64_sscalar(long long *p, int s) {
  int i = threadIdx.x;
  atomicMax(&p[i], (long long)s);
}

// Attacks: unsigned max with an int scalar INT_MIN.
// GMEM-EXPECT: na_umax_sscalar idempotent
// GMEM-RUN: na_umax_sscalar grid=1 block=64 args=buf:u32:64:rand i32:-2147483648
// GMEM-RUN: na_umax_sscalar grid=1 block=64 args=buf:u32:64:rand i32:0
__global__ void na_umax_sscalar(unsigned *p, int s) {
  int i = threadIdx.x;
  atomicMax(&p[i], (unsigned)s);
}

// Attacks: integer add of a scalar 0 (no-op) vs 1 (counter).
// GMEM-EXPECT: na_add_scalar conditional
// GMEM-RUN: na_add_scalar grid=1 block=64 args=buf:i32:64:rand i32:0
// GMEM-RUN: na_add_scalar grid=1 block=64 args=buf:i32:64:rand i32:1
__global__ void na_add_scalar(int *p, int s) {
  int i = threadIdx.x;
  atomicAdd(&p[i], s);
}

// Attacks: add of s*(i&1): zero for even threads only.
// GMEM-EXPECT: na_add_mixed conditional
// GMEM-RUN: na_add_mixed grid=1 block=64 args=buf:i32:64:rand i32:3
// GMEM-RUN: na_add_mixed grid=1 block=64 args=buf:i32:64:rand i32:0
__global__ void na_add_mixed(int *p, int s) {
  int i = threadIdx.x;
  atomicAdd(&p[i], s * (i & 1));
}

// Attacks: xor with s then xor with s again by the same thread (cancels).
// GMEM-EXPECT: na_xor_twice idempotent
// GMEM-RUN: na_xor_twice grid=1 block=64 args=buf:u32:64:rand u32:77
__global__ void na_xor_twice(unsigned *p, unsigned s) {
  int i = threadIdx.x;
  atomicXor(&p[i], s);
  atomicXor(&p[i], s);
}

// Attacks: xor with 0 at one index, with s at others.
// GMEM-EXPECT: na_xor_some non-idempotent
// GMEM-RUN: na_xor_some grid=1 block=64 args=buf:u32:64:rand u32:5
__global__ void na_xor_some(unsigned *p, unsigned s) {
  int i = threadIdx.x;
  atomicXor(&p[i], i == 7 ? s : 0u);
}

// Attacks: CAS sequence (1->2 then 0->1): not idempotent on zero memory.
// GMEM-EXPECT: na_cas_seq non-idempotent
// GMEM-RUN: na_cas_seq grid=1 block=64 args=buf:i32:64:zero
__global__ void na_cas_seq(int *p) {
  int i = threadIdx.x;
  atomicCAS(&p[i], 1, 2);
  atomicCAS(&p[i], 0, 1);
}

// Attacks: CAS with scalar compare/new (c -> v then v -> c+... ) .
// GMEM-EXPECT: na_cas_scalar conditional
// GMEM-RUN: na_cas_scalar grid=1 block=64 args=buf:i32:64:zero i32:0 i32:5
// GMEM-RUN: na_cas_scalar grid=1 block=64 args=buf:i32:64:zero i32:5 i32:0
__global__ void na_cas_scalar(int *p, int c, int v) {
  int i = threadIdx.x;
  atomicCAS(&p[i], v, c + 1);
  atomicCAS(&p[i], c, v);
}

// Attacks: CAS with compare == new (a no-op) and one real CAS.
// GMEM-EXPECT: na_cas_same idempotent
// GMEM-RUN: na_cas_same grid=1 block=64 args=buf:i32:64:zero buf:i32:64:zero
__global__ void na_cas_same(int *p, int *q) {
  int i = threadIdx.x;
  atomicCAS(&p[i], 0, 0);
  atomicCAS(&q[i], 0, 9);
}

// Attacks: CAS on a float slot through int (write once if +0.0).
// GMEM-EXPECT: na_cas_float idempotent
// GMEM-RUN: na_cas_float grid=1 block=64 args=buf:f32:64:const:-0.0
__global__ void na_cas_float(float *p) {
  int i = threadIdx.x;
  atomicCAS((int *)&p[i], 0, __float_as_int(1.0f));
}

// Attacks: atomicInc with limit 0 (always stores 0) and a real atomicInc.
// GMEM-EXPECT: na_inc non-idempotent
// GMEM-RUN: na_inc grid=1 block=64 args=buf:u32:64:rand buf:u32:64:rand u32:1000
__global__ void na_inc(unsigned *p, unsigned *q, unsigned lim) {
  int i = threadIdx.x;
  atomicInc(&p[i], 0u);
  atomicInc(&q[i], lim);
}

// Attacks: atomicDec with limit 0 (stores 0 from any value) .
// GMEM-EXPECT: na_dec0 idempotent
// GMEM-RUN: na_dec0 grid=1 block=64 args=buf:u32:64:rand
__global__ void na_dec0(unsigned *p) {
  int i = threadIdx.x;
  atomicDec(&p[i], 0u);
}

// Attacks: sub of a scalar INT_MIN (equals add INT_MIN: not a no-op).
// GMEM-EXPECT: na_sub_intmin conditional
// GMEM-RUN: na_sub_intmin grid=1 block=64 args=buf:u32:64:rand u32:2147483648
// GMEM-RUN: na_sub_intmin grid=1 block=64 args=buf:u32:64:rand u32:0
__global__ void na_sub_intmin(unsigned *p, unsigned s) {
  int i = threadIdx.x;
  atomicSub(&p[i], s);
}

// Attacks: and with a mask that is -1 only in its low 16 bits after a short cast.
// GMEM-EXPECT: na_and_short idempotent
// GMEM-RUN: na_and_short grid=1 block=64 args=buf:u32:64:const:-1
__global__ void na_and_short(unsigned *p) {
  int i = threadIdx.x;
  unsigned short m = 0xffff;
  atomicAnd(&p[i], (unsigned)m);
}

// Attacks: max with INT_MIN through a select on a scalar (INT_MIN or INT_MIN+1).
// GMEM-EXPECT: na_max_select idempotent
// GMEM-RUN: na_max_select grid=1 block=64 args=buf:i32:64:const:-2147483648 i32:0
// GMEM-RUN: na_max_select grid=1 block=64 args=buf:i32:64:const:-2147483648 i32:1
__global__ void na_max_select(int *p, int f) {
  int i = threadIdx.x;
  atomicMax(&p[i], f ? INT_MIN + 1 : INT_MIN);
}

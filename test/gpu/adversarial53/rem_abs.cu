// Adversarial round (session 53): remainder chains by literal divisors and
// integer abs (IdempotentUpdates.cpp: isRemChain, llvm.abs), at INT_MIN,
// with negative and mixed divisors, narrow types, and compositions with
// other steps (some idempotent, some not).

// Negative divisor: the remainder keeps x's sign, |r| < 7.
// GMEM-EXPECT: ra_srem_negdiv idempotent
// GMEM-RUN: ra_srem_negdiv grid=1 block=64 args=buf:i32:64:randint:-1000:1000
__global__ void ra_srem_negdiv(int *x) {
  int i = threadIdx.x;
  x[i] %= -7;
}

// Mixed divisors, larger after smaller: |r| < 3 whatever the second.
// GMEM-EXPECT: ra_srem_chain_mixed idempotent
// GMEM-RUN: ra_srem_chain_mixed grid=1 block=64 args=buf:i32:64:randint:-1000:1000
__global__ void ra_srem_chain_mixed(int *x) {
  int i = threadIdx.x;
  x[i] = x[i] % -3 % 100;
}

// INT_MIN as the divisor: INT_MIN % INT_MIN == 0, everything else kept.
// GMEM-EXPECT: ra_srem_intmin_div idempotent
// GMEM-RUN: ra_srem_intmin_div grid=1 block=64 args=buf:i32:64:randint:-2147483648:-2147483600
__global__ void ra_srem_intmin_div(int *x) {
  int i = threadIdx.x;
  x[i] = x[i] % (-2147483647 - 1);
}

// INT_MIN as the dividend of a small divisor.
// GMEM-EXPECT: ra_srem_intmin_data idempotent
// GMEM-RUN: ra_srem_intmin_data grid=1 block=64 args=buf:i32:64:randint:-2147483648:-2147483600
__global__ void ra_srem_intmin_data(int *x) {
  int i = threadIdx.x;
  x[i] = x[i] % 5;
}

// Unsigned remainder by a divisor above INT_MAX.
// GMEM-EXPECT: ra_urem_big idempotent
// GMEM-RUN: ra_urem_big grid=1 block=64 args=buf:u32:64:randint:0:4294967295
__global__ void ra_urem_big(unsigned *x) {
  int i = threadIdx.x;
  x[i] = x[i] % 3000000000u;
}

// Signed then unsigned: -6..6 reinterpreted as unsigned and reduced mod 5:
// lands in 0..4, kept by both steps. Idempotent (not of one opcode).
// GMEM-EXPECT: ra_srem_then_urem idempotent
// GMEM-RUN: ra_srem_then_urem grid=1 block=64 args=buf:i32:64:randint:-1000:1000
__global__ void ra_srem_then_urem(int *x) {
  int i = threadIdx.x;
  x[i] = (int)((unsigned)(x[i] % 7) % 5u);
}

// Unsigned then signed: urem by 0x90000000 leaves x < 0x90000000 (a
// negative int for 0x80000000..0x8fffffff), srem by 3 leaves -2..2; but -1
// read back unsigned is 0xffffffff, whose urem is 0x6fffffff, a multiple of
// 3: -1 -> 0. Not idempotent (the chain mixes opcodes).
// GMEM-EXPECT: ra_urem_then_srem non-idempotent
// GMEM-RUN: ra_urem_then_srem grid=1 block=64 args=buf:u32:64:randint:2147483648:2415919104
__global__ void ra_urem_then_srem(unsigned *x) {
  int i = threadIdx.x;
  x[i] = (unsigned)((int)(x[i] % 0x90000000u) % 3);
}

// char remainder (promoted to int): -127..127 % 10 fits a char, kept.
// GMEM-EXPECT: ra_char_rem idempotent
// GMEM-RUN: ra_char_rem grid=1 block=64 args=buf:i8:64:randint:-128:127
__global__ void ra_char_rem(signed char *x) {
  int i = threadIdx.x;
  x[i] = x[i] % 10;
}

// Remainder of a sign-extended char taken unsigned: -1 -> 0xffffffff % 7 =
// 3; results 0..6, kept. Idempotent.
// GMEM-EXPECT: ra_char_sext_urem idempotent
// GMEM-RUN: ra_char_sext_urem grid=1 block=64 args=buf:i8:64:randint:-128:127
__global__ void ra_char_sext_urem(signed char *x) {
  int i = threadIdx.x;
  x[i] = (signed char)((unsigned)(int)x[i] % 7u);
}

// Remainder then an offset: moves.
// GMEM-EXPECT: ra_rem_plus non-idempotent
// GMEM-RUN: ra_rem_plus grid=1 block=64 args=buf:i32:64:randint:0:1000
__global__ void ra_rem_plus(int *x) {
  int i = threadIdx.x;
  x[i] = x[i] % 7 + 1;
}

// Remainder by a launch scalar: idempotent for every nonzero d, but d == 0
// leaves the hardware's unspecified value (PTX rem by 0): at best
// conditional on d.
// GMEM-EXPECT: ra_rem_by_arg conditional
// GMEM-RUN: ra_rem_by_arg grid=1 block=64 args=buf:i32:64:randint:-1000:1000 i32:7
__global__ void ra_rem_by_arg(int *x, int d) {
  int i = threadIdx.x;
  x[i] %= d;
}

// abs over INT_MIN data: abs(INT_MIN) == INT_MIN on the GPU.
// GMEM-EXPECT: ra_abs_intmin idempotent
// GMEM-RUN: ra_abs_intmin grid=1 block=64 args=buf:i32:64:randint:-2147483648:-2147483600
__global__ void ra_abs_intmin(int *x) {
  int i = threadIdx.x;
  x[i] = abs(x[i]);
}

// 64-bit abs.
// GMEM-EXPECT: ra_llabs idempotent
// GMEM-RUN: ra_llabs grid=1 block=64 args=buf:i64:64:randint:-9223372036854775808:-9223372036854775800
__global__ void ra_llabs(long long *x) {
  int i = threadIdx.x;
  x[i] = llabs(x[i]);
}

// abs then remainder: INT_MIN stays negative through abs, and
// INT_MIN % 5 == -3, whose abs is 3: -3 -> 3. Not idempotent.
// GMEM-EXPECT: ra_abs_then_rem non-idempotent
// GMEM-RUN: ra_abs_then_rem grid=1 block=64 args=buf:i32:64:const:-2147483648
__global__ void ra_abs_then_rem(int *x) {
  int i = threadIdx.x;
  x[i] = abs(x[i]) % 5;
}

// remainder then abs: |x % 5| in 0..4, kept.
// GMEM-EXPECT: ra_rem_then_abs idempotent
// GMEM-RUN: ra_rem_then_abs grid=1 block=64 args=buf:i32:64:randint:-2147483648:2147483647
__global__ void ra_rem_then_abs(int *x) {
  int i = threadIdx.x;
  x[i] = abs(x[i] % 5);
}

// abs then a clamp: min(|x|, 100); INT_MIN stays INT_MIN. Idempotent.
// GMEM-EXPECT: ra_abs_clamp idempotent
// GMEM-RUN: ra_abs_clamp grid=1 block=64 args=buf:i32:64:randint:-2147483648:-2147483600
__global__ void ra_abs_clamp(int *x) {
  int i = threadIdx.x;
  x[i] = min(abs(x[i]), 100);
}

// negated abs: -|x|; -|-5| = -5 kept... -|x| of a negative is itself, of a
// positive its negation, of INT_MIN INT_MIN: idempotent.
// GMEM-EXPECT: ra_neg_abs idempotent
// GMEM-RUN: ra_neg_abs grid=1 block=64 args=buf:i32:64:randint:-100:100
__global__ void ra_neg_abs(int *x) {
  int i = threadIdx.x;
  x[i] = -abs(x[i]);
}

// abs of a char promoted: |-128| = 128 truncates back to -128: kept.
// GMEM-EXPECT: ra_char_abs idempotent
// GMEM-RUN: ra_char_abs grid=1 block=64 args=buf:i8:64:randint:-128:-120
__global__ void ra_char_abs(signed char *x) {
  int i = threadIdx.x;
  x[i] = abs(x[i]);
}

// abs of the low short of a word written back as a word: |(short)x| as int
// differs from x whenever the high half is set: 0x10005 -> 5 -> 5. That is
// idempotent; and 0x1fffb (low -5) -> 5 too. Idempotent.
// GMEM-EXPECT: ra_abs_short_of_word idempotent
// GMEM-RUN: ra_abs_short_of_word grid=1 block=64 args=buf:i32:64:randint:65536:131072
__global__ void ra_abs_short_of_word(int *x) {
  int i = threadIdx.x;
  x[i] = abs((short)x[i]);
}

// abs of a word stored to its low short (a narrower store over the word
// read): -5 (0xfffffffb) -> low short 5 -> word 0xffff0005 -> |.| = 65531
// -> low short 0xfffb -> word -5 again. Not idempotent.
// GMEM-EXPECT: ra_abs_via_short_store non-idempotent
// GMEM-RUN: ra_abs_via_short_store grid=1 block=64 args=buf:i32:64:randint:-100000:100000
// GMEM-RUN: ra_abs_via_short_store grid=1 block=64 args=buf:i32:64:const:-5
__global__ void ra_abs_via_short_store(int *xw) {
  short *x = (short *)xw;
  int i = threadIdx.x;
  x[2 * i] = (short)abs(xw[i]);
}

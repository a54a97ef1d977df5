// Adversarial round (session 53): maps with few outcomes over integers at
// their edges: INT_MIN, wrapping arithmetic on the compared value, signed
// vs unsigned comparisons, narrow types (char, short, bool), shifts, and
// outcomes that a narrowing store changes.

// Sign of an int by comparisons: (x > 0) - (x < 0); INT_MIN -> -1 -> -1.
// GMEM-EXPECT: fi_sign_int idempotent
// GMEM-RUN: fi_sign_int grid=1 block=64 args=buf:i32:64:randint:-2147483648:-2147483600
// GMEM-RUN: fi_sign_int grid=1 block=64 args=buf:i32:64:randint:-3:4
__global__ void fi_sign_int(int *x) {
  int i = threadIdx.x;
  int v = x[i];
  x[i] = (v > 0) - (v < 0);
}

// The compared value wraps: x + 1 overflows at INT_MAX (unsigned, so it is
// defined); 0xffffffff + 1 == 0 picks 5, and 5 + 1 != 0 keeps 5.
// GMEM-EXPECT: fi_wrap_cmp idempotent
// GMEM-RUN: fi_wrap_cmp grid=1 block=64 args=buf:u32:64:randint:4294967280:4294967296
__global__ void fi_wrap_cmp(unsigned *x) {
  int i = threadIdx.x;
  unsigned v = x[i];
  x[i] = (v + 1u == 0u) ? 5u : v;
}

// Wrapping product compared: x * 3 == 1 only for 0xaaaaaaab (3's inverse
// mod 2^32), which goes to 1; 1 * 3 != 1 keeps 1. Idempotent.
// GMEM-EXPECT: fi_mul_inverse idempotent
// GMEM-RUN: fi_mul_inverse grid=1 block=64 args=buf:u32:64:const:2863311531
__global__ void fi_mul_inverse(unsigned *x) {
  int i = threadIdx.x;
  unsigned v = x[i];
  x[i] = (v * 3u == 1u) ? 1u : v;
}

// The same shape where the literal is moved: x * 3 == 3 (x = 1 or the
// others congruent) -> 0xaaaaaaab, whose product is 1, not 3: kept? no:
// 0xaaaaaaab * 3 == 1 != 3, so the map keeps 0xaaaaaaab. Idempotent.
// And a map that moves its own literal: x*3 == 1 -> 3, 3*3 == 9 -> 9? The
// else arm keeps x: 3 stays. Both idempotent; the next one is not.
// GMEM-EXPECT: fi_mul_moves non-idempotent
// GMEM-RUN: fi_mul_moves grid=1 block=64 args=buf:u32:64:const:2863311531
__global__ void fi_mul_moves(unsigned *x) {
  int i = threadIdx.x;
  unsigned v = x[i];
  x[i] = (v * 3u == 1u) ? 3u : ((v * 3u == 9u) ? 1u : v);
}

// Unsigned view of a signed value: negative ints are huge unsigned; > 5u
// sends them and big positives to -1, which is itself > 5u: kept.
// GMEM-EXPECT: fi_unsigned_view idempotent
// GMEM-RUN: fi_unsigned_view grid=1 block=64 args=buf:i32:64:randint:-10:10
__global__ void fi_unsigned_view(int *x) {
  int i = threadIdx.x;
  int v = x[i];
  x[i] = ((unsigned)v > 5u) ? -1 : v;
}

// Signed and unsigned disagreeing about the outcome: x < 0 -> 7, but 7 is
// > 5u -> -1: 7 moves.
// GMEM-EXPECT: fi_sign_unsigned_mix non-idempotent
// GMEM-RUN: fi_sign_unsigned_mix grid=1 block=64 args=buf:i32:64:const:-3
__global__ void fi_sign_unsigned_mix(int *x) {
  int i = threadIdx.x;
  int v = x[i];
  x[i] = (v >= 0 && (unsigned)v > 5u) ? -1 : ((v < 0) ? 7 : v);
}

// Signed char: 250 stored into a signed char is -6, which is not > 5: the
// map sends 6..127 to -6 and -6 to 0. Not idempotent.
// GMEM-EXPECT: fi_char_wrap_outcome non-idempotent
// GMEM-RUN: fi_char_wrap_outcome grid=1 block=64 args=buf:i8:64:randint:6:100
__global__ void fi_char_wrap_outcome(signed char *x) {
  int i = threadIdx.x;
  int v = x[i];
  x[i] = (signed char)(v > 5 ? 250 : (v < 0 ? 0 : v));
}

// Unsigned char: 250 is 250, > 5: kept. Idempotent.
// GMEM-EXPECT: fi_uchar_wrap_outcome idempotent
// GMEM-RUN: fi_uchar_wrap_outcome grid=1 block=64 args=buf:u8:64:randint:0:100
__global__ void fi_uchar_wrap_outcome(unsigned char *x) {
  int i = threadIdx.x;
  int v = x[i];
  x[i] = (unsigned char)(v > 5 ? 250 : v);
}

// A char flag normalised through int: c != 0 -> 1.
// GMEM-EXPECT: fi_char_flag_norm idempotent
// GMEM-RUN: fi_char_flag_norm grid=1 block=64 args=buf:i8:64:randint:-5:5
__global__ void fi_char_flag_norm(char *x) {
  int i = threadIdx.x;
  x[i] = x[i] != 0;
}

// A short through a word buffer: x < -100 -> -32768, kept (< -100).
// GMEM-EXPECT: fi_short_floor idempotent
// GMEM-RUN: fi_short_floor grid=1 block=64 args=buf:i32:32:randint:-2147483648:2147483647
__global__ void fi_short_floor(int *xw) {
  short *x = (short *)xw;
  int i = threadIdx.x;
  short v = x[i];
  x[i] = (v < -100) ? (short)-32768 : v;
}

// A short whose outcome only fits after truncation: x > 100 -> 40000
// stored as -25536, which is not > 100 and is < 0 -> 0. Not idempotent.
// GMEM-EXPECT: fi_short_trunc_outcome non-idempotent
// GMEM-RUN: fi_short_trunc_outcome grid=1 block=64 args=buf:i32:32:const:13107400
__global__ void fi_short_trunc_outcome(int *xw) {
  short *x = (short *)xw;
  int i = threadIdx.x;
  int v = x[i];
  x[i] = (short)(v > 100 ? 40000 : (v < 0 ? 0 : v));
}

// bool toggled: not idempotent.
// GMEM-EXPECT: fi_bool_toggle non-idempotent
// GMEM-RUN: fi_bool_toggle grid=1 block=64 args=buf:u8:64:randint:0:2
__global__ void fi_bool_toggle(bool *b) {
  int i = threadIdx.x;
  b[i] = !b[i];
}

// bool set where an int says so, otherwise kept; the int buffer is only
// read (conditional: b and c may overlap at a launch).
// GMEM-EXPECT: fi_bool_set conditional
// GMEM-RUN: fi_bool_set grid=1 block=64 args=buf:u8:64:randint:0:2 buf:i32:64:randint:0:3
__global__ void fi_bool_set(bool *b, const int *c) {
  int i = threadIdx.x;
  if (c[i] == 1)
    b[i] = true;
}

// Shifted value compared: (x << 4) == 0 (top nibble only) -> 0; 0 << 4 == 0
// keeps 0. Idempotent.
// GMEM-EXPECT: fi_shl_cmp idempotent
// GMEM-RUN: fi_shl_cmp grid=1 block=64 args=buf:u32:64:randint:4026531840:4294967295
__global__ void fi_shl_cmp(unsigned *x) {
  int i = threadIdx.x;
  unsigned v = x[i];
  x[i] = ((v << 4) == 0u) ? 0u : v;
}

// Arithmetic shift sign test with an outcome whose sign flips the test:
// x >> 31 == -1 (negative) -> 0x7fffffff, which is positive -> kept. And
// nonnegative x whose top bit... is none: idempotent.
// GMEM-EXPECT: fi_ashr_sign idempotent
// GMEM-RUN: fi_ashr_sign grid=1 block=64 args=buf:i32:64:randint:-100:100
__global__ void fi_ashr_sign(int *x) {
  int i = threadIdx.x;
  int v = x[i];
  x[i] = ((v >> 31) == -1) ? 0x7fffffff : v;
}

// Two comparisons that cannot both hold, plus an outcome that the first
// one catches: x < 10 -> 20, x > 15 -> 5. 20 -> 5 -> 20.
// GMEM-EXPECT: fi_ping_pong non-idempotent
// GMEM-RUN: fi_ping_pong grid=1 block=64 args=buf:i32:64:randint:0:30
__global__ void fi_ping_pong(int *x) {
  int i = threadIdx.x;
  int v = x[i];
  x[i] = (v < 10) ? 20 : ((v > 15) ? 5 : v);
}

// INT_MIN through negation inside a comparison: -x > 0 for negative x but
// not for INT_MIN (-INT_MIN == INT_MIN). x < 0 && -x > 0 -> 1; INT_MIN is
// kept. Unsigned negation, defined.
// GMEM-EXPECT: fi_neg_intmin idempotent
// GMEM-RUN: fi_neg_intmin grid=1 block=64 args=buf:i32:64:randint:-2147483648:-2147483630
__global__ void fi_neg_intmin(int *x) {
  int i = threadIdx.x;
  int v = x[i];
  int n = (int)(0u - (unsigned)v);
  x[i] = (v < 0 && n > 0) ? 1 : v;
}

// 64-bit: x > 2^40 -> 2^40 + 1? That moves nothing: 2^40+1 > 2^40 -> kept.
// And the 32-bit truncation compared: (int)x < 0 -> 0x80000000 (as i64,
// positive, truncates to INT_MIN < 0) -> kept.
// GMEM-EXPECT: fi_i64_trunc_cmp idempotent
// GMEM-RUN: fi_i64_trunc_cmp grid=1 block=64 args=buf:i64:64:randint:2147483000:2147484000
__global__ void fi_i64_trunc_cmp(long long *x) {
  int i = threadIdx.x;
  long long v = x[i];
  x[i] = ((int)v < 0) ? 0x80000000LL : v;
}

// Truncation compare whose outcome truncates to a positive: (int)x < 0 ->
// 2^32 + 5 (truncates to 5): 2^32 + 5 is kept (5 >= 0); first run moves
// 0x80000000 to 2^32+5, which stays. Idempotent too.
// And the one that moves: (int)x < 0 -> 0x180000000 ... truncates to
// INT_MIN (< 0): kept. Idempotent. Non-idempotent variant: (short)x < 0 ->
// 0x18000, (short)0x18000 = -32768 < 0: kept. All fine; this one moves:
// (short)x == 5 -> 0x10005 and x == 0x10005 -> 6.
// GMEM-EXPECT: fi_trunc_moves non-idempotent
// GMEM-RUN: fi_trunc_moves grid=1 block=64 args=buf:i32:64:const:5
__global__ void fi_trunc_moves(int *x) {
  int i = threadIdx.x;
  int v = x[i];
  x[i] = (v == 0x10005) ? 6 : (((short)v == 5) ? 0x10005 : v);
}

// Adversarial corpus (session 55b): guarded maps without loops: NaN and
// signed zero, wrap, signed vs unsigned compares, truncation, switch,
// arms that write elsewhere, escapes, second loads, shared or shuffled
// guards, volatile, goto, early return, threads sharing a word.
// Expectations: the author's view (the truth).

// -0.0 < 0 is false: -0.0 kept, others below 0 -> -0.0 (kept next time).
// GMEM-EXPECT: negzero idempotent
// GMEM-RUN: negzero grid=1 block=256 args=buf:f32:256:rand i32:256
__global__ void negzero(float *v, int n) {
  int i = threadIdx.x;
  if (i < n) {
    float x = v[i];
    if (x < 0.f) v[i] = -0.f;
    else if (x > 1.f) v[i] = 0.f;
  }
}

// Unordered compare: !(x >= 0) takes NaN and negatives to 1, which the
// second arm (x > 0.5) sends to 0.5: 1 -> 0.5 moves on.
// GMEM-EXPECT: unordered_moves non-idempotent
// GMEM-RUN: unordered_moves grid=1 block=256 args=buf:f32:256:rand i32:256
__global__ void unordered_moves(float *v, int n) {
  int i = threadIdx.x;
  if (i < n) {
    float x = v[i];
    if (!(x >= 0.f)) v[i] = 1.f;
    else if (x > 0.5f) v[i] = 0.5f;
  }
}

// Signed and unsigned on one value: x < 0 -> 300, (unsigned)x > 255 -> -1.
// -1 is < 0 -> 300 -> -1: a swap of 300 and -1.
// GMEM-EXPECT: sign_unsigned non-idempotent
// GMEM-RUN: sign_unsigned grid=1 block=256 args=buf:i32:256:randint:-300:300 i32:256
__global__ void sign_unsigned(int *v, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 0) v[i] = 300;
    else if ((unsigned)x > 255u) v[i] = -1;
  }
}

// Truncation in the guard: (char)x < 0 -> 200; (char)200 = -56 < 0: 200 is
// stored again (kept). x = 128 -> 200 -> 200. Idempotent.
// GMEM-EXPECT: trunc_guard idempotent
// GMEM-RUN: trunc_guard grid=1 block=256 args=buf:i32:256:randint:0:256 i32:256
__global__ void trunc_guard(int *v, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int x = v[i];
    if ((signed char)x < 0) v[i] = 200;
    else if (x > 1000) v[i] = 0;
  }
}

// Truncation moving on: (char)x < 0 -> 256 (char 0), x > 255 -> 128
// ((char)128 < 0 -> 256): 256 -> 128 -> 256, a swap.
// GMEM-EXPECT: trunc_swap non-idempotent
// GMEM-RUN: trunc_swap grid=1 block=256 args=buf:i32:256:randint:0:300 i32:256
__global__ void trunc_swap(int *v, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int x = v[i];
    if ((signed char)x < 0) v[i] = 256;
    else if (x > 255) v[i] = 128;
  }
}

// Wrap: x + 100 < 50 (wraps for large x) -> INT_MAX; INT_MAX + 100 wraps
// negative: < 50 -> INT_MAX again (kept). x = -60 -> INT_MAX. Idempotent.
// GMEM-EXPECT: wrap_guard idempotent
// GMEM-RUN: wrap_guard grid=1 block=256 args=buf:i32:256:randint:-300:300 i32:256
__global__ void wrap_guard(int *v, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int x = v[i];
    unsigned u = (unsigned)x + 100u;
    if ((int)u < 50) v[i] = 2147483647;
    else if (x > 1000) v[i] = 7;
  }
}

// A switch on x: 0 -> 1, 1 -> 2 (moves on), 5 -> 5.
// GMEM-EXPECT: switch_moves non-idempotent
// GMEM-RUN: switch_moves grid=1 block=256 args=buf:i32:256:randint:0:3 i32:256
__global__ void switch_moves(int *v, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int x = v[i];
    switch (x) {
    case 0: v[i] = 1; break;
    case 1: v[i] = 2; break;
    case 7: v[i] = 9; break;
    default: break;
    }
  }
}

// A switch whose arms are fixed points: 0, 1 -> 5; 7 -> 9. Idempotent.
// GMEM-EXPECT: switch_fixed idempotent
// GMEM-RUN: switch_fixed grid=1 block=256 args=buf:i32:256:randint:0:8 i32:256
__global__ void switch_fixed(int *v, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int x = v[i];
    switch (x) {
    case 0: v[i] = 5; break;
    case 1: v[i] = 5; break;
    case 7: v[i] = 9; break;
    default: break;
    }
  }
}

// An arm also writes another buffer (a flag): out[i] = 1 only when a
// clamp happened; run 2 leaves out as it was (the flag stays), but with
// out pre-zeroed by... the kernel never clears it: run 1 sets, run 2 keeps.
// Idempotent in fact; refused or accepted either way is sound.
// GMEM-EXPECT: arm_flag idempotent
// GMEM-RUN: arm_flag grid=1 block=256 args=buf:i32:256:randint:-300:300 buf:i32:256:zero i32:256
__global__ void arm_flag(int *v, int *out, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 0) { v[i] = 0; out[i] = 1; }
    else if (x > 255) v[i] = 255;
  }
}

// The arm's path told through a value stored elsewhere after the join:
// out[i] = x < 0 (computed before the branches, so a use of x off the
// paths).
// GMEM-EXPECT: escape_after non-idempotent
// GMEM-RUN: escape_after grid=1 block=256 args=buf:i32:256:randint:-300:300 buf:i32:256:zero i32:256
__global__ void escape_after(int *v, int *out, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int x = v[i];
    bool neg = x < 0;
    if (neg) v[i] = 0;
    else if (x > 255) v[i] = 255;
    out[i] = neg;
  }
}

// The loaded value picks an address: out[x & 255] written after the map.
// (The emulator: idempotent after all: x > 100 survives the clamp.)
// GMEM-EXPECT: escape_addr idempotent
// GMEM-RUN: escape_addr grid=1 block=256 args=buf:i32:256:randint:-300:300 buf:i32:256:zero i32:256
__global__ void escape_addr(int *v, int *out, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 0) v[i] = 0;
    else if (x > 255) v[i] = 255;
    out[i] = x > 100 ? 1 : 2;
  }
}

// The guard reads a neighbour's word of the same buffer (shared memory
// copy): v[i] = 0 when the left neighbour is negative; run 2 sees the
// neighbour already 0.
// (The emulator: idempotent for this map: a zeroed neighbour zeroes again.)
// GMEM-EXPECT: smem_guard idempotent
// GMEM-RUN: smem_guard grid=1 block=256 args=buf:i32:256:randint:-3:3 i32:256
__global__ void smem_guard(int *v, int n) {
  __shared__ int s[256];
  int i = threadIdx.x;
  int x = i < n ? v[i] : 0;
  s[i] = x;
  __syncthreads();
  int l = s[(i + 255) & 255];
  if (i < n) {
    if (l < 0) v[i] = 0;
    else if (x > 1) v[i] = 1;
  }
}

// The guard on a shuffled neighbour value.
// (The emulator: idempotent for this map.)
// GMEM-EXPECT: shfl_guard idempotent
// GMEM-RUN: shfl_guard grid=1 block=256 args=buf:i32:256:randint:-3:3 i32:256
__global__ void shfl_guard(int *v, int n) {
  int i = threadIdx.x;
  int x = v[i];
  int l = __shfl_sync(0xffffffffu, x, (i + 1) & 31);
  if (l < 0) v[i] = 0;
  else if (x > 1) v[i] = 1;
}

// A second load of the word inside the region (volatile: not merged).
// GMEM-EXPECT: volatile_second idempotent
// GMEM-RUN: volatile_second grid=1 block=256 args=buf:i32:256:randint:-300:300 i32:256
__global__ void volatile_second(int *v, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 0) v[i] = 0;
    else if (((volatile int *)v)[i] > 255) v[i] = 255;
  }
}

// Goto into the arms, early return inside the region.
// GMEM-EXPECT: goto_arms idempotent
// GMEM-RUN: goto_arms grid=1 block=256 args=buf:i32:256:randint:-300:300 i32:256
__global__ void goto_arms(int *v, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  int x = v[i];
  if (x == 1000) return;
  if (x < 0) goto low;
  if (x > 255) goto high;
  return;
low:
  v[i] = 0;
  return;
high:
  v[i] = 255;
}

// Threads sharing one word (j = i / 2) with one map: idempotent.
// GMEM-EXPECT: shared_word idempotent
// GMEM-RUN: shared_word grid=2 block=256 args=buf:i32:256:randint:-300:300 i32:512
__global__ void shared_word(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, j = i >> 1;
  if (i < n) {
    int x = v[j];
    if (x < 0) v[j] = 0;
    else if (x > 255) v[j] = 255;
  }
}

// A thread updating its word twice in a loop (k = 0, 1, same word): the
// same map twice.
// GMEM-EXPECT: twice_loop idempotent
// GMEM-RUN: twice_loop grid=1 block=256 args=buf:i32:256:randint:-300:300 i32:256
__global__ void twice_loop(int *v, int n) {
  int i = threadIdx.x;
#pragma unroll 1
  for (int k = 0; k < n; k += 128) {
    int j = (i + k) & 255;
    int x = v[j];
    if (x < 0) v[j] = 0;
    else if (x > 255) v[j] = 255;
  }
}

// Grid stride with a stride that wraps onto earlier words, literal by
// iteration parity (two arms on k & 1 are not on x: refused).
// (The emulator: idempotent: one thread runs 0 -> 1 then 1 -> 2 in order.)
// GMEM-EXPECT: stride_parity idempotent
// GMEM-RUN: stride_parity grid=1 block=128 args=buf:i32:128:randint:0:3 i32:256
__global__ void stride_parity(int *v, int n) {
  int i = threadIdx.x;
#pragma unroll 1
  for (int k = i; k < n; k += 128) {
    int j = k & 127;
    int x = v[j];
    if (x == (k >> 7)) v[j] = (k >> 7) + 1;
  }
}

// Store of a narrower width: the low byte written with 0 when x < 0.
// GMEM-EXPECT: narrow_store idempotent
// GMEM-RUN: narrow_store grid=1 block=256 args=buf:i32:256:randint:-300:300 i32:256
__global__ void narrow_store(int *v, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int x = v[i];
    if (x < 0) ((unsigned char *)v)[4 * i] = 0;
    else if (x > 255) v[i] = 255;
  }
}

// Bits of a float compared as an int, literal stored as float: the sign
// bit set -> 1.0f; 1.0f has bits 0x3f800000 > 0x3f000000 -> -2.0f, whose
// sign bit is set -> 1.0f: a swap.
// GMEM-EXPECT: bits_swap non-idempotent
// GMEM-RUN: bits_swap grid=1 block=256 args=buf:f32:256:rand i32:256
__global__ void bits_swap(float *v, int n) {
  int i = threadIdx.x;
  if (i < n) {
    float x = v[i];
    int b = __float_as_int(x);
    if (b < 0) v[i] = 1.f;
    else if (b > 0x3f000000) v[i] = -2.f;
  }
}

// double compare of a float (fpext): x > 0.1 (double) stores 0.1f, whose
// double is 0.100000001490116 > 0.1: stored again (kept).
// GMEM-EXPECT: fpext_guard idempotent
// GMEM-RUN: fpext_guard grid=1 block=256 args=buf:f32:256:rand i32:256
__global__ void fpext_guard(float *v, int n) {
  int i = threadIdx.x;
  if (i < n) {
    float x = v[i];
    if ((double)x > 0.1) v[i] = 0.1f;
    else if (x < -1.f) v[i] = -1.f;
  }
}

// fpext moving on: (double)x > 0.1 -> 0.1f; x < 0.1f (float) -> ... 0.1f
// is not < 0.1f. Then (double)x == 0.1f's double ... a three-way chain:
// x > 0.1 (double) -> 0.1f; x == 0.1f -> 0.2f; 0.2f > 0.1 -> 0.1f: swap.
// GMEM-EXPECT: fpext_swap non-idempotent
// GMEM-RUN: fpext_swap grid=1 block=256 args=buf:f32:256:rand i32:256
__global__ void fpext_swap(float *v, int n) {
  int i = threadIdx.x;
  if (i < n) {
    float x = v[i];
    if (x == 0.1f) v[i] = 0.2f;
    else if ((double)x > 0.1) v[i] = 0.1f;
  }
}

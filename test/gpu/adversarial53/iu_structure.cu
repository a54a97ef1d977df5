// Adversarial round (session 53): the in-place update rule around the map
// itself: aliasing parameters that apply two maps to one element, the
// loaded value escaping, reloads after barriers, stores of another width or
// type over the word read, guards combined with the few-outcomes rule,
// launch scalars as outcomes, and several threads/CTAs on one element.

// Two replacement maps on two parameters; each is idempotent, their
// composition in this order is not (1 -> 2 by the second, then 2 -> 3 by
// the first on the next run). Aliased at one launch.
// GMEM-EXPECT: st_alias_two_maps conditional
// GMEM-RUN: st_alias_two_maps grid=1 block=64 args=buf:i32:64:const:1 ptr:0+0
// GMEM-RUN: st_alias_two_maps grid=1 block=64 args=buf:i32:64:const:1 buf:i32:64:const:1
__global__ void st_alias_two_maps(int *a, int *b) {
  int i = threadIdx.x;
  int u = a[i];
  a[i] = (u == 2) ? 3 : u;
  int v = b[i];
  b[i] = (v == 1) ? 2 : v;
}

// The same with the second parameter one element further: thread i's
// second map hits thread i+1's element.
// GMEM-EXPECT: st_alias_shifted conditional
// GMEM-RUN: st_alias_shifted grid=1 block=64 args=buf:i32:65:const:1 ptr:0+4
__global__ void st_alias_shifted(int *a, int *b) {
  int i = threadIdx.x;
  int u = a[i];
  a[i] = (u == 2) ? 3 : u;
  int v = b[i];
  b[i] = (v == 1) ? 2 : v;
}

// The loaded value copied out before the ReLU: the copy sees the ReLU's
// output on the next run (negative x: b gets x, then 0).
// GMEM-EXPECT: st_escape_copy non-idempotent
// GMEM-RUN: st_escape_copy grid=1 block=64 args=buf:i32:64:randint:-50:50 buf:i32:64:zero
__global__ void st_escape_copy(int *a, int *b) {
  int i = threadIdx.x;
  int x = a[i];
  b[i] = x;
  a[i] = max(x, 0);
}

// The loaded value escaping as a flag that the map preserves (x > 0 is the
// same before and after a ReLU): idempotent, unless a and b overlap.
// GMEM-EXPECT: st_escape_flag_kept conditional
// GMEM-RUN: st_escape_flag_kept grid=1 block=64 args=buf:i32:64:randint:-50:50 buf:i32:64:zero
__global__ void st_escape_flag_kept(int *a, int *b) {
  int i = threadIdx.x;
  int x = a[i];
  b[i] = x > 0;
  a[i] = max(x, 0);
}

// One thread, two maps separated by a barrier (no store-to-load forwarding
// across it): 2 -> 3 first, then 1 -> 2. The first run turns 1 into 2, the
// second turns that 2 into 3.
// GMEM-EXPECT: st_barrier_two_maps non-idempotent
// GMEM-RUN: st_barrier_two_maps grid=1 block=64 args=buf:i32:64:const:1
__global__ void st_barrier_two_maps(int *a) {
  int i = threadIdx.x;
  int u = a[i];
  a[i] = (u == 2) ? 3 : u;
  __syncthreads();
  int v = a[i];
  a[i] = (v == 1) ? 2 : v;
}

// The compared value loaded before a barrier, the kept value after it,
// where another thread's store lands between: thread i+32 stores 9 into
// a[i] (i < 32) after its own read; thread i keeps a[i] as reloaded.
// GMEM-EXPECT: st_two_loads_other_writer non-idempotent
// GMEM-RUN: st_two_loads_other_writer grid=1 block=64 args=buf:i32:64:const:1
__global__ void st_two_loads_other_writer(int *a) {
  int i = threadIdx.x;
  int x = a[i];
  __syncthreads();
  if (i >= 32)
    a[i - 32] = a[i - 32] + 8;
  __syncthreads();
  if (i < 32) {
    int y = a[i];
    a[i] = (x > 5) ? 5 : y;
  }
}

// Many threads, one element, one map (idempotent whatever the order).
// GMEM-EXPECT: st_shared_elem_one_map idempotent
// GMEM-RUN: st_shared_elem_one_map grid=4 block=128 args=buf:i32:8:randint:-100:100
__global__ void st_shared_elem_one_map(int *a) {
  int j = threadIdx.x & 7;
  int v = a[j];
  a[j] = (v < 0) ? 0 : ((v > 50) ? 50 : v);
}

// Two CTAs, one element, two replacement maps: order-dependent.
// GMEM-EXPECT: st_ctas_two_maps non-idempotent
// GMEM-RUN: st_ctas_two_maps grid=2 block=64 args=buf:i32:64:const:1
__global__ void st_ctas_two_maps(int *a) {
  int j = threadIdx.x;
  int v = a[j];
  if (blockIdx.x == 0)
    a[j] = (v == 2) ? 3 : v;
  else
    a[j] = (v == 1) ? 2 : v;
}

// Guard plus a few-outcome map in the guarded block: x > 0 -> (x >= 10 ?
// 10 : 0); 10 -> 10, 0 not guarded. Idempotent.
// GMEM-EXPECT: st_guard_cases_ok idempotent
// GMEM-RUN: st_guard_cases_ok grid=1 block=64 args=buf:i32:64:randint:-20:20
__global__ void st_guard_cases_ok(int *a) {
  int i = threadIdx.x;
  int x = a[i];
  if (x > 0)
    a[i] = (x >= 10) ? 10 : 0;
}

// Guard plus a map that moves its own outcome: 10 -> 0 (10 > 10 fails).
// GMEM-EXPECT: st_guard_cases_bad non-idempotent
// GMEM-RUN: st_guard_cases_bad grid=1 block=64 args=buf:i32:64:randint:11:20
__global__ void st_guard_cases_bad(int *a) {
  int i = threadIdx.x;
  int x = a[i];
  if (x > 0)
    a[i] = (x > 10) ? 10 : 0;
}

// Guard on a different comparison than the map: x < 100 guards "x > 5 ? 5
// : 0": 5 -> 0? 5 > 5 fails -> 0. Not idempotent.
// GMEM-EXPECT: st_guard_other_cmp non-idempotent
// GMEM-RUN: st_guard_other_cmp grid=1 block=64 args=buf:i32:64:randint:6:50
__global__ void st_guard_other_cmp(int *a) {
  int i = threadIdx.x;
  int x = a[i];
  if (x < 100)
    a[i] = (x > 5) ? 5 : 0;
}

// Launch scalars as both outcomes: x > t ? m : 0; with m <= t, m -> 0.
// GMEM-EXPECT: st_arg_outcomes non-idempotent
// GMEM-RUN: st_arg_outcomes grid=1 block=64 args=buf:i32:64:randint:20:40 i32:10 i32:7
__global__ void st_arg_outcomes(int *a, int t, int m) {
  int i = threadIdx.x;
  int x = a[i];
  a[i] = (x > t) ? m : 0;
}

// Launch scalar outcome, the other arm the value itself: idempotent for
// every t and m (m is mapped to m either way).
// GMEM-EXPECT: st_arg_replace idempotent
// GMEM-RUN: st_arg_replace grid=1 block=64 args=buf:i32:64:randint:0:40 i32:10 i32:7
__global__ void st_arg_replace(int *a, int t, int m) {
  int i = threadIdx.x;
  int x = a[i];
  a[i] = (x > t) ? m : x;
}

// Launch scalar inside the comparison, literal outcomes: x > t ? 5 : (x <
// 0 ? 9 : x). 5 is kept whatever t, but 9 is caught by x > t when t < 9:
// -1 -> 9 -> 5. Not idempotent (no literal-only proof can see t).
// GMEM-EXPECT: st_arg_cmp_literal non-idempotent
// GMEM-RUN: st_arg_cmp_literal grid=1 block=64 args=buf:i32:64:randint:-40:40 i32:3
__global__ void st_arg_cmp_literal(int *a, int t) {
  int i = threadIdx.x;
  int x = a[i];
  a[i] = (x > t) ? 5 : ((x < 0) ? 9 : x);
}

// Read as int, written as float bits at the same address: x < 100 -> 1.0f
// (0x3f800000, which is >= 100 as an int) -> 0.0f -> 1.0f ...
// GMEM-EXPECT: st_int_read_float_write non-idempotent
// GMEM-RUN: st_int_read_float_write grid=1 block=64 args=buf:i32:64:randint:0:50
__global__ void st_int_read_float_write(int *a) {
  int i = threadIdx.x;
  float *f = (float *)a;
  int x = a[i];
  f[i] = (x < 100) ? 1.0f : 0.0f;
}

// Read a word, write its low byte: x > 5 -> byte 0 := 0; the word keeps its
// high bytes; (0x100 + 9 -> 0x100 -> 0x100 > 5 -> 0x100): idempotent.
// GMEM-EXPECT: st_word_read_byte_write idempotent
// GMEM-RUN: st_word_read_byte_write grid=1 block=64 args=buf:i32:64:randint:0:1000
__global__ void st_word_read_byte_write(int *a) {
  int i = threadIdx.x;
  unsigned char *b = (unsigned char *)a;
  int x = a[i];
  if (x > 5)
    b[4 * i] = 0;
}

// Same, but the byte written is 9, which flips the word's test: word 3 -> no
// store; word 0x100 -> 0x109; word 1 -> ... only > 5 are written: 0x100 ->
// 0x109 -> 0x109. Byte 9 on a word <= 5? Not written. Idempotent; this one
// writes when x < 0x100: 6 -> 9?? 9 < 0x100 -> 9: idempotent too. The
// moving one: x is even -> low byte := 1 (odd): 4 -> 1 -> kept; odd -> low
// byte := 2: 1 -> 2 -> 1 ...
// GMEM-EXPECT: st_word_read_byte_flip non-idempotent
// GMEM-RUN: st_word_read_byte_flip grid=1 block=64 args=buf:i32:64:randint:0:1000
__global__ void st_word_read_byte_flip(int *a) {
  int i = threadIdx.x;
  unsigned char *b = (unsigned char *)a;
  int x = a[i];
  b[4 * i] = (x & 1) ? 2 : 1;
}

// Vector lanes clamped (float2 load and store): idempotent.
// GMEM-EXPECT: st_float2_clamp idempotent
// GMEM-RUN: st_float2_clamp grid=1 block=64 args=buf:f32:128:rand
__global__ void st_float2_clamp(float2 *a) {
  int i = threadIdx.x;
  float2 v = a[i];
  v.x = fminf(fmaxf(v.x, -0.5f), 0.5f);
  v.y = v.y > 0.25f ? 1.f : 0.f;
  a[i] = v;
}

// Index array aliasing the data: j = idx[i], then a[j] clamped. When idx is
// a, the clamp rewrites the indices the next run reads.
// GMEM-EXPECT: st_index_alias conditional
// GMEM-RUN: st_index_alias grid=1 block=64 args=buf:i32:64:randint:0:64 ptr:0+0
// GMEM-RUN: st_index_alias grid=1 block=64 args=buf:i32:64:randint:0:64 buf:i32:64:randint:0:64
__global__ void st_index_alias(int *a, const int *idx) {
  int i = threadIdx.x;
  int j = idx[i];
  int v = a[j];
  a[j] = (v > 5) ? 5 : v;
}

// Grid-stride loop where the stride is a launch scalar smaller than the
// grid: threads share elements, one map. Idempotent.
// GMEM-EXPECT: st_gs_overlap idempotent
// GMEM-RUN: st_gs_overlap grid=2 block=64 args=buf:i32:300:randint:-100:100 i32:300 i32:17
__global__ void st_gs_overlap(int *a, int n, int stride) {
  for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += stride) {
    int v = a[j];
    a[j] = (v < 0) ? -1 : ((v > 10) ? 10 : v);
  }
}

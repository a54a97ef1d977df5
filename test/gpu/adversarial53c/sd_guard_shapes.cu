// Adversarial corpus (session 53c): the self-disabling flag rule with
// other guard shapes, flag types and guarded-block contents (per-thread
// flags). Expectations give the author's judgement of the true class.

// Float flag cleared to -0.0f: `m != 0.0f` is false for -0.0, skipped
// again. Idempotent.
// GMEM-EXPECT: sg_float_negzero conditional
// GMEM-RUN: sg_float_negzero grid=4 block=256 args=buf:f32:1024:rand buf:i32:1024:zero i32:1024
__global__ void sg_float_negzero(float *m, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && m[i] != 0.0f) {
    out[i] = out[i] + 1;
    m[i] = -0.0f;
  }
}

// The flag's bits tested as an integer, cleared to -0.0f (0x80000000):
// still set. Not idempotent.
// GMEM-EXPECT: sg_float_bits_negzero non-idempotent
// GMEM-RUN: sg_float_bits_negzero grid=4 block=256 args=buf:f32:1024:rand buf:i32:1024:zero i32:1024
__global__ void sg_float_bits_negzero(float *m, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && __float_as_int(m[i]) != 0) {
    out[i] = out[i] + 1;
    m[i] = -0.0f;
  }
}

// Cleared to NaN, guarded by `m == m` style test (not NaN): skipped again.
// GMEM-EXPECT: sg_float_nan_clear conditional
// GMEM-RUN: sg_float_nan_clear grid=4 block=256 args=buf:f32:1024:rand buf:i32:1024:zero i32:1024
__global__ void sg_float_nan_clear(float *m, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && m[i] > -2.0f) {
    out[i] = out[i] + 1;
    m[i] = __int_as_float(0x7fc00000);
  }
}

// Cleared to NaN, guarded by `!(m <= 0)` (true for NaN): runs again.
// GMEM-EXPECT: sg_float_nan_unordered non-idempotent
// GMEM-RUN: sg_float_nan_unordered grid=4 block=256 args=buf:f32:1024:rand buf:i32:1024:zero i32:1024
__global__ void sg_float_nan_unordered(float *m, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && !(m[i] <= 0.0f)) {
    out[i] = out[i] + 1;
    m[i] = __int_as_float(0x7fc00000);
  }
}

// The guard compares the flag with a kernel argument: clearing to 0 only
// turns it off when key != 0. Not idempotent (key = 0 runs it again).
// GMEM-EXPECT: sg_eq_arg non-idempotent
// GMEM-RUN: sg_eq_arg grid=4 block=256 args=buf:i32:1024:randint:0:2 buf:i32:1024:zero i32:1024 i32:0
__global__ void sg_eq_arg(int *m, int *out, int n, int key) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && m[i] == key) {
    out[i] = out[i] + 1;
    m[i] = 0;
  }
}

// Flag AND a kernel argument: cleared, the guard is off whatever the
// argument. Idempotent.
// GMEM-EXPECT: sg_and_arg conditional
// GMEM-RUN: sg_and_arg grid=4 block=256 args=buf:i32:1024:randint:0:4 buf:i32:1024:zero i32:1024 i32:3
__global__ void sg_and_arg(int *m, int *out, int n, int mask) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (m[i] & mask)) {
    out[i] = out[i] + 1;
    m[i] = 0;
  }
}

// Flag shifted by a kernel argument: `(m >> s) & 1`, cleared to 1 (bit 0):
// skipped again only when s != 0. Not idempotent at s = 0.
// GMEM-EXPECT: sg_shift_arg non-idempotent
// GMEM-RUN: sg_shift_arg grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:1024:zero i32:1024 i32:0
__global__ void sg_shift_arg(int *m, int *out, int n, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && ((m[i] >> s) & 1)) {
    out[i] = out[i] + 1;
    m[i] = 1;
  }
}

// A byte flag with values 2..255 tested by its low bit, cleared to 2.
// Idempotent.
// GMEM-EXPECT: sg_u8_lowbit conditional
// GMEM-RUN: sg_u8_lowbit grid=4 block=256 args=buf:u8:1024:randint:0:256 buf:i32:1024:zero i32:1024
__global__ void sg_u8_lowbit(unsigned char *m, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && (m[i] & 1)) {
    out[i] = out[i] + 1;
    m[i] = 2;
  }
}

// A byte flag tested as signed (> 0), cleared to 200 (-56 as signed char):
// skipped again. Idempotent.
// GMEM-EXPECT: sg_s8_clear200 conditional
// GMEM-RUN: sg_s8_clear200 grid=4 block=256 args=buf:i8:1024:randint:0:256 buf:i32:1024:zero i32:1024
__global__ void sg_s8_clear200(signed char *m, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && m[i] > 0) {
    out[i] = out[i] + 1;
    m[i] = (signed char)200;
  }
}

// The same byte tested as unsigned (> 0): 200 stays set. Not idempotent.
// GMEM-EXPECT: sg_u8_clear200 non-idempotent
// GMEM-RUN: sg_u8_clear200 grid=4 block=256 args=buf:u8:1024:randint:0:256 buf:i32:1024:zero i32:1024
__global__ void sg_u8_clear200(unsigned char *m, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && m[i] > 0) {
    out[i] = out[i] + 1;
    m[i] = 200;
  }
}

// A switch on the flag: case 1 clears to 0 and does the work, case 2 sets
// it to 1 (the next run does case 1's work). Not idempotent.
// GMEM-EXPECT: sg_switch_chain non-idempotent
// GMEM-RUN: sg_switch_chain grid=4 block=256 args=buf:i32:1024:randint:0:3 buf:i32:1024:zero i32:1024
__global__ void sg_switch_chain(int *m, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  switch (m[i]) {
  case 1: out[i] = out[i] + 1; m[i] = 0; break;
  case 2: out[i] = out[i] + 10; m[i] = 1; break;
  default: break;
  }
}

// Two flags on one word: `== 2` stores 1, then (after a barrier, a fresh
// load) `== 1` stores 0. Idempotent: 2 -> 1 -> 0, run again nothing.
// GMEM-EXPECT: sg_two_stage conditional
// GMEM-RUN: sg_two_stage grid=4 block=256 args=buf:i32:1024:randint:0:3 buf:i32:1024:zero buf:i32:1024:zero i32:1024
__global__ void sg_two_stage(int *m, int *a, int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (m[i] == 2) {
    a[i] = a[i] + 1;
    m[i] = 1;
  }
  __syncthreads();
  if (m[i] == 1) {
    b[i] = b[i] + 1;
    m[i] = 0;
  }
}

// Two flags, stage two re-arms stage one: `== 1` stores 2, `== 2` stores 1
// (each a self-disabling pair on its own). Run again, it runs again.
// GMEM-EXPECT: sg_two_stage_cycle non-idempotent
// GMEM-RUN: sg_two_stage_cycle grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:1024:zero buf:i32:1024:zero i32:1024
__global__ void sg_two_stage_cycle(int *m, int *a, int *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (m[i] == 1) {
    a[i] = a[i] + 1;
    m[i] = 2;
  }
  __syncthreads();
  if (m[i] == 2) {
    b[i] = b[i] + 1;
    m[i] = 1;
  }
}

// Nested flags: the inner block is a self-disabling pair of flag b, the
// outer flag a is cleared after it. Idempotent.
// GMEM-EXPECT: sg_nested conditional
// GMEM-RUN: sg_nested grid=4 block=256 args=buf:i32:1024:randint:0:2 buf:i32:1024:randint:0:2 buf:i32:1024:zero i32:1024
__global__ void sg_nested(int *fa, int *fb, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (fa[i]) {
    if (fb[i]) {
      out[i] = out[i] + 1;
      fb[i] = 0;
    }
    fa[i] = 0;
  }
}

// The guarded block stores through inline asm (st.global): a call in the
// block. Run again it is skipped anyway: idempotent, but refused is fine.
// GMEM-EXPECT: sg_asm_store conditional
// GMEM-RUN: sg_asm_store grid=4 block=256 args=buf:i32:1024:randint:0:2 buf:i32:1024:zero i32:1024
__global__ void sg_asm_store(int *m, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && m[i]) {
    int v = out[i] + 1;
    asm volatile("st.global.u32 [%0], %1;" ::"l"(out + i), "r"(v) : "memory");
    m[i] = 0;
  }
}

// The guarded block does an atomicAdd whose old value it stores: once per
// set flag. Idempotent (nondeterministic slots, written once).
// GMEM-EXPECT: sg_atomic_ticket non-idempotent
// GMEM-RUN: sg_atomic_ticket grid=4 block=256 args=buf:i32:1024:randint:0:2 buf:i32:1:zero buf:i32:1024:zero i32:1024
__global__ void sg_atomic_ticket(int *m, int *ctr, int *slot, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && m[i]) {
    slot[i] = atomicAdd(ctr, 1) + 1;
    m[i] = 0;
  }
}

// The guarded block re-arms the flag with an atomic: cleared by the plain
// store, set again by atomicExch after it. Not idempotent.
// GMEM-EXPECT: sg_atomic_rearm non-idempotent
// GMEM-RUN: sg_atomic_rearm grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:1024:zero i32:1024
__global__ void sg_atomic_rearm(int *m, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && m[i]) {
    out[i] = out[i] + 1;
    m[i] = 0;
    atomicExch(&m[i], 1);
  }
}

// Volatile store of the clear: not a plain pair. Idempotent, refused ok.
// GMEM-EXPECT: sg_volatile_clear conditional
// GMEM-RUN: sg_volatile_clear grid=4 block=256 args=buf:i32:1024:randint:0:2 buf:i32:1024:zero i32:1024
__global__ void sg_volatile_clear(int *m, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && m[i]) {
    out[i] = out[i] + 1;
    ((volatile int *)m)[i] = 0;
  }
}

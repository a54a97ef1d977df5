// Adversarial round 6: atomicExch whose old value is used on some paths, in
// noinline functions, through inline asm; exchanges next to combines and
// loads of the exchanged word; CAS patterns.

// Attacks: old value stored only when a launch flag is set.
// GMEM-EXPECT: xp_flag_use non-idempotent
// GMEM-RUN: xp_flag_use grid=1 block=32 args=buf:i32:32:rand buf:i32:32:randint:100:200 buf:i32:32:zero i32:0
// GMEM-RUN: xp_flag_use grid=1 block=32 args=buf:i32:32:rand buf:i32:32:randint:100:200 buf:i32:32:zero i32:1
__global__ void xp_flag_use(int *a, const int *v, int *b, int flag) {
  int i = threadIdx.x;
  int o = atomicExch(&a[i], v[i]);
  if (flag) b[i] = o;
}

// Attacks: old value used only when it is negative (data never negative: no write to b).
// GMEM-EXPECT: xp_rare_use non-idempotent
// GMEM-RUN: xp_rare_use grid=1 block=32 args=buf:i32:32:rand buf:i32:32:randint:100:200 buf:i32:32:zero
__global__ void xp_rare_use(int *a, const int *v, int *b) {
  int i = threadIdx.x;
  int o = atomicExch(&a[i], v[i]);
  if (o < 0) b[i] = 1;
}

__device__ __noinline__ void xp_sink_store(int *b, int o) { b[threadIdx.x] = o; }
__device__ __noinline__ void xp_sink_ignore(int o) { (void)o; }
// Attacks: old value handed to a noinline function that stores it.
// GMEM-EXPECT: xp_noinline_store non-idempotent
// GMEM-RUN: xp_noinline_store grid=1 block=32 args=buf:i32:32:rand buf:i32:32:randint:100:200 buf:i32:32:zero
__global__ void xp_noinline_store(int *a, const int *v, int *b) {
  int i = threadIdx.x;
  xp_sink_store(b, atomicExch(&a[i], v[i]));
}

// Attacks: old value handed to a noinline function that ignores it (a store in effect).
// GMEM-EXPECT: xp_noinline_ignore conditional
// GMEM-RUN: xp_noinline_ignore grid=1 block=32 args=buf:i32:32:rand buf:i32:32:randint:100:200
__global__ void xp_noinline_ignore(int *a, const int *v) {
  int i = threadIdx.x;
  xp_sink_ignore(atomicExch(&a[i], v[i]));
}

// Attacks: old value moved through inline asm (mov) and then stored.
// GMEM-EXPECT: xp_asm_use non-idempotent
// GMEM-RUN: xp_asm_use grid=1 block=32 args=buf:i32:32:rand buf:i32:32:randint:100:200 buf:i32:32:zero
__global__ void xp_asm_use(int *a, const int *v, int *b) {
  int i = threadIdx.x;
  int o = atomicExch(&a[i], v[i]), w;
#ifdef __CUDA_ARCH__
  asm("mov.b32 %0, %1;" : "=r"(w) : "r"(o));
#else
  w = o;
#endif
  b[i] = w;
}

// Attacks: exchange value computed from the exchanged word itself (a[i] + 1).
// GMEM-EXPECT: xp_self_value non-idempotent
// GMEM-RUN: xp_self_value grid=1 block=32 args=buf:i32:32:rand
__global__ void xp_self_value(int *a) {
  int i = threadIdx.x;
  atomicExch(&a[i], a[i] + 1);
}

// Attacks: exchange value from a neighbour's slot (a[i+1]), which that thread exchanges too.
// GMEM-EXPECT: xp_neighbour_value non-idempotent
// GMEM-RUN: xp_neighbour_value grid=1 block=32 args=buf:i32:33:rand
__global__ void xp_neighbour_value(int *a) {
  int i = threadIdx.x;
  int n = a[i + 1];
  __syncthreads();
  atomicExch(&a[i], n);
}

// Attacks: exchange in CTA 0, max in CTA 1 on the same words (a store and a combine on one word).
// GMEM-EXPECT: xp_exch_max non-idempotent
// GMEM-RUN: xp_exch_max grid=2 block=32 args=buf:i32:32:rand buf:i32:32:randint:0:100
__global__ void xp_exch_max(int *a, const int *v) {
  int i = threadIdx.x;
  if (blockIdx.x == 0) atomicExch(&a[i], 0);
  else atomicMax(&a[i], v[i]);
}

// Attacks: exchange then a load of the same word by the same thread (covered), stored elsewhere.
// GMEM-EXPECT: xp_exch_covered conditional
// GMEM-RUN: xp_exch_covered grid=1 block=32 args=buf:i32:32:rand buf:i32:32:randint:0:100 buf:i32:32:zero
__global__ void xp_exch_covered(int *a, const int *v, int *b) {
  int i = threadIdx.x;
  atomicExch(&a[i], v[i]);
  b[i] = a[i] * 2;
}

// Attacks: exchange then a load of a neighbour's word after a barrier.
// GMEM-EXPECT: xp_exch_neighbour_load conditional
// GMEM-RUN: xp_exch_neighbour_load grid=1 block=32 args=buf:i32:32:rand buf:i32:32:randint:0:100 buf:i32:32:zero
__global__ void xp_exch_neighbour_load(int *a, const int *v, int *b) {
  int i = threadIdx.x;
  atomicExch(&a[i], v[i]);
  __syncthreads();
  b[i] = a[i ^ 1];
}

// Attacks: load of the neighbour's word BEFORE the exchanges (read then overwritten).
// GMEM-EXPECT: xp_load_then_exch non-idempotent
// GMEM-RUN: xp_load_then_exch grid=1 block=32 args=buf:i32:32:rand buf:i32:32:randint:0:100 buf:i32:32:zero
__global__ void xp_load_then_exch(int *a, const int *v, int *b) {
  int i = threadIdx.x;
  b[i] = a[i ^ 1];
  __syncthreads();
  atomicExch(&a[i], v[i]);
}

// Attacks: two exchanges on one slot, the second's old value (the first's value) stored.
// GMEM-EXPECT: xp_double_exch idempotent
// GMEM-RUN: xp_double_exch grid=1 block=32 args=buf:i32:32:rand buf:i32:32:zero
__global__ void xp_double_exch(int *a, int *b) {
  int i = threadIdx.x;
  atomicExch(&a[i], 5);
  b[i] = atomicExch(&a[i], 7);
}

// Attacks: 64-bit exchange over two 32-bit words that 32-bit max combines touch in another CTA.
// GMEM-EXPECT: xp_exch64_max32 non-idempotent
// GMEM-RUN: xp_exch64_max32 grid=2 block=16 args=buf:u32:32:rand buf:u32:32:randint:0:1000
__global__ void xp_exch64_max32(unsigned *a, const unsigned *v) {
  int i = threadIdx.x;
  if (blockIdx.x == 0) atomicExch((unsigned long long *)a + i, 0ull);
  else atomicMax(&a[2 * i + 1], v[i]);
}

// Attacks: float exchange (bits of -0.0f) then a float add on the same word in another CTA.
// GMEM-EXPECT: xp_fexch_fadd non-idempotent
// GMEM-RUN: xp_fexch_fadd grid=2 block=32 args=buf:f32:32:rand
__global__ void xp_fexch_fadd(float *a) {
  int i = threadIdx.x;
  if (blockIdx.x == 0) atomicExch(&a[i], -0.0f);
  else atomicAdd(&a[i], 0.0f);
}

// Attacks: CAS-claim then write the payload (write-once per slot, idempotent without races).
// GMEM-EXPECT: xp_cas_claim non-idempotent
// GMEM-RUN: xp_cas_claim grid=1 block=32 args=buf:i32:32:const:-1 buf:f32:32:zero buf:f32:32:rand
__global__ void xp_cas_claim(int *owner, float *data, const float *x) {
  int i = threadIdx.x;
  if (atomicCAS(&owner[i], -1, i) == -1) data[i] = x[i];
}

// Attacks: CAS-loop float max (idempotent in effect: a max).
// GMEM-EXPECT: xp_cas_fmax non-idempotent
// GMEM-RUN: xp_cas_fmax grid=2 block=32 args=buf:f32:1:const:-100.0 buf:f32:64:rand
__global__ void xp_cas_fmax(float *m, const float *x) {
  float v = x[blockIdx.x * 32 + threadIdx.x];
  int *p = (int *)m;
  int old = *p, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= v) break;
    old = atomicCAS(p, assumed, __float_as_int(v));
  } while (old != assumed);
}

// Attacks: exchange of a per-CTA value into one slot (different CTAs, different values: a race by the rules).
// GMEM-EXPECT: xp_exch_race non-idempotent
// GMEM-RUN: xp_exch_race grid=4 block=1 args=buf:i32:1:zero
__global__ void xp_exch_race(int *slot) {
  atomicExch(slot, (int)blockIdx.x + 1);
}

// Attacks: exchange of one value into one slot from every CTA (no race: idempotent).
// GMEM-EXPECT: xp_exch_same idempotent
// GMEM-RUN: xp_exch_same grid=4 block=32 args=buf:i32:1:zero
__global__ void xp_exch_same(int *slot) {
  atomicExch(slot, 42);
}

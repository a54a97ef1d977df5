// Adversarial round 50: unions and type punning between integers and
// pointers, local arrays indexed by loaded data, atomicCAS spin locks that
// protect a read-modify-write, and stateful functors / lambdas / templates.

union PtrBits { int *p; unsigned long long u; unsigned int w[2]; };

// Attacks: pointer moved through a union's integer view (offset added to the low word).
// GMEM-EXPECT: pn_union_offset conditional
// GMEM-RUN: pn_union_offset grid=1 block=64 args=buf:i32:64:rand buf:i32:256:zero i32:100
// GMEM-RUN: pn_union_offset grid=1 block=64 args=buf:i32:256:rand ptr:0+0 i32:100
__global__ void pn_union_offset(const int *in, int *out, int off) {
  PtrBits b;
  b.p = out;
  b.u += (unsigned long long)(off + threadIdx.x) * sizeof(int);
  *b.p = in[threadIdx.x];
}

// Attacks: pointer rebuilt from two 32-bit halves with a carry into the high word.
// GMEM-EXPECT: pn_union_halves conditional
// GMEM-RUN: pn_union_halves grid=1 block=32 args=buf:i32:32:rand buf:i32:1024:zero u32:2000
__global__ void pn_union_halves(const int *in, int *out, unsigned boff) {
  PtrBits b;
  b.p = out;
  unsigned lo = b.w[0], add = boff + threadIdx.x * 4;
  unsigned nlo = lo + add;
  b.w[1] += (nlo < lo);
  b.w[0] = nlo;
  *b.p = in[threadIdx.x];
}

// Attacks: int<->pointer through uintptr arithmetic with a mask (align down to 256 bytes).
// GMEM-EXPECT: pn_align_down conditional
// GMEM-RUN: pn_align_down grid=1 block=64 args=buf:f32:64:rand buf:f32:1024:zero i32:300
// GMEM-RUN: pn_align_down grid=1 block=64 args=buf:f32:1024:rand ptr:0+1200 i32:300
__global__ void pn_align_down(const float *in, float *out, int off) {
  unsigned long long a = (unsigned long long)(out + off + threadIdx.x);
  float *p = (float *)(a & ~0xffull);
  p[threadIdx.x & 63] = in[threadIdx.x];
}

// Attacks: float bits reinterpreted as the index (__float_as_int of a loaded float).
// GMEM-EXPECT: pn_float_bits_index conditional
// GMEM-RUN: pn_float_bits_index grid=1 block=64 args=buf:f32:64:rand buf:i32:256:zero
__global__ void pn_float_bits_index(const float *in, int *out) {
  int b = __float_as_int(in[threadIdx.x]);
  out[(b >> 23) & 255] = threadIdx.x;
}

// Attacks: local array filled with offsets, indexed by a loaded selector.
// GMEM-EXPECT: pn_local_offsets conditional
// GMEM-RUN: pn_local_offsets grid=1 block=64 args=buf:i32:64:randint:0:4 buf:f32:64:rand buf:f32:4096:zero i32:1000
// GMEM-RUN: pn_local_offsets grid=1 block=64 args=buf:i32:64:randint:0:4 buf:f32:4096:rand ptr:1+4000 i32:700
__global__ void pn_local_offsets(const int *sel, const float *in, float *out, int stride) {
  int offs[4] = {0, stride, 2 * stride, 3 * stride + 7};
  int t = threadIdx.x;
  out[offs[sel[t] & 3] + t] = in[t];
}

// Attacks: local histogram indexed by data then written out per thread.
// GMEM-EXPECT: pn_local_hist conditional
// GMEM-RUN: pn_local_hist grid=1 block=32 args=buf:i32:1024:randint:0:16 buf:i32:512:zero
__global__ void pn_local_hist(const int *in, int *out) {
  int h[16];
  for (int k = 0; k < 16; ++k) h[k] = 0;
  for (int k = 0; k < 32; ++k) h[in[threadIdx.x * 32 + k] & 15]++;
  for (int k = 0; k < 16; ++k) out[threadIdx.x * 16 + k] = h[k];
}

// Attacks: local array of pointers (to two parameters) chosen by loaded data.
// GMEM-EXPECT: pn_local_ptrs conditional
// GMEM-RUN: pn_local_ptrs grid=1 block=64 args=buf:i32:64:randint:0:2 buf:i32:64:zero buf:i32:64:zero
// GMEM-RUN: pn_local_ptrs grid=1 block=64 args=buf:i32:128:randint:0:2 buf:i32:64:zero ptr:0+256
__global__ void pn_local_ptrs(const int *sel, int *a, int *b) {
  int *tab[2] = {a, b};
  int t = threadIdx.x;
  tab[sel[t] & 1][t] = t + 1;
}

// Attacks: CAS spin lock protecting a shared counter's read-modify-write.
// GMEM-EXPECT: pn_cas_lock_counter non-idempotent
// GMEM-RUN: pn_cas_lock_counter grid=2 block=32 args=buf:i32:1:zero buf:i32:1:zero
__global__ void pn_cas_lock_counter(int *lock, int *counter) {
  for (int lane = 0; lane < 32; ++lane) {
    if ((threadIdx.x & 31) != lane) continue;
    while (atomicCAS(lock, 0, 1) != 0) {}
    __threadfence();
    *(volatile int *)counter = *(volatile int *)counter + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}

// Attacks: CAS lock protecting a max-update (idempotent effect, but the lock word is touched).
// GMEM-EXPECT: pn_cas_lock_max non-idempotent
// GMEM-RUN: pn_cas_lock_max grid=1 block=32 args=buf:i32:1:zero buf:f32:1:const:-5 buf:f32:32:rand
__global__ void pn_cas_lock_max(int *lock, float *m, const float *v) {
  for (int lane = 0; lane < 32; ++lane) {
    if ((threadIdx.x & 31) != lane) continue;
    while (atomicCAS(lock, 0, 1) != 0) {}
    float cur = *(volatile float *)m;
    if (v[threadIdx.x] > cur) *(volatile float *)m = v[threadIdx.x];
    atomicExch(lock, 0);
  }
}

struct Counter {
  int *dst;
  int n;
  __device__ void operator()(int v) { dst[n++] = v; }
};
// Attacks: stateful functor whose internal position advances per call (writes n .. n+k).
// GMEM-EXPECT: pn_stateful_functor conditional
// GMEM-RUN: pn_stateful_functor grid=1 block=16 args=buf:i32:256:rand buf:i32:1024:zero i32:8
// GMEM-RUN: pn_stateful_functor grid=1 block=16 args=buf:i32:1024:rand ptr:0+512 i32:8
__global__ void pn_stateful_functor(const int *in, int *out, int k) {
  Counter c{out + threadIdx.x * 40, 3};
  for (int j = 0; j < k; ++j)
    if (in[threadIdx.x * 16 + j] & 1) c(in[threadIdx.x * 16 + j]);
  c(-1);
}

// Attacks: lambda capturing by reference and mutating the captured index.
// GMEM-EXPECT: pn_mutating_lambda conditional
// GMEM-RUN: pn_mutating_lambda grid=1 block=32 args=buf:i32:1024:randint:0:4 buf:i32:2048:zero
__global__ void pn_mutating_lambda(const int *in, int *out) {
  int pos = threadIdx.x * 64;
  auto emit = [&](int v) { out[pos] = v; pos += v + 1; };
  for (int j = 0; j < 8; ++j) emit(in[threadIdx.x * 8 + j]);
}

template <int STEP>
__device__ void scatter_step(const int *in, int *out, int n) {
  for (int j = 0; j < n; ++j) out[j * STEP + threadIdx.x] = in[j];
}
// Attacks: template stride parameter vs runtime count (writes j*STEP + t for j < n).
// GMEM-EXPECT: pn_template_step conditional
// GMEM-RUN: pn_template_step grid=1 block=8 args=buf:i32:64:rand buf:i32:1024:zero i32:50
// GMEM-RUN: pn_template_step grid=1 block=8 args=buf:i32:1024:rand ptr:0+256 i32:50
__global__ void pn_template_step(const int *in, int *out, int n) { scatter_step<17>(in, out, n); }

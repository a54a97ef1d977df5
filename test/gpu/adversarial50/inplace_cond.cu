// Adversarial round 50: in-place kernels that are idempotent only for some
// argument values (x = max(x, y) always; x *= s only for s == 1; x ^= k only
// for k == 0; x >>= k only for k == 0 ...), with instances on both sides and
// aliasing instances that break the always-idempotent ones.

// Attacks: x[i] = max(x[i], y[i]) (idempotent unless y aliases x at a shift).
// GMEM-EXPECT: ic_max non-idempotent
// GMEM-RUN: ic_max grid=2 block=64 args=buf:f32:128:rand buf:f32:128:rand i32:128
// GMEM-RUN: ic_max grid=2 block=64 args=buf:f32:129:rand ptr:0+4 i32:128
// GMEM-RUN: ic_max grid=2 block=64 args=buf:f32:128:rand ptr:0+0 i32:128
__global__ void ic_max(float *x, const float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = fmaxf(x[i], y[i]);
}

// Attacks: x[i] *= s (idempotent only for s == 1 or s == 0).
// GMEM-EXPECT: ic_scale non-idempotent
// GMEM-RUN: ic_scale grid=2 block=64 args=buf:f32:128:rand f32:1.0 i32:128
// GMEM-RUN: ic_scale grid=2 block=64 args=buf:f32:128:rand f32:2.0 i32:128
// GMEM-RUN: ic_scale grid=2 block=64 args=buf:f32:128:rand f32:0.0 i32:128
__global__ void ic_scale(float *x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * s;
}

// Attacks: x[i] ^= k (idempotent only for k == 0).
// GMEM-EXPECT: ic_xor non-idempotent
// GMEM-RUN: ic_xor grid=1 block=128 args=buf:u32:128:rand u32:0
// GMEM-RUN: ic_xor grid=1 block=128 args=buf:u32:128:rand u32:5
__global__ void ic_xor(unsigned *x, unsigned k) { x[threadIdx.x] ^= k; }

// Attacks: clamp into [lo, hi] in place (idempotent for any lo, hi: with lo > hi it is the constant hi).
// GMEM-EXPECT: ic_clamp non-idempotent
// GMEM-RUN: ic_clamp grid=1 block=128 args=buf:i32:128:rand i32:10 i32:50
// GMEM-RUN: ic_clamp grid=1 block=128 args=buf:i32:128:rand i32:50 i32:10
__global__ void ic_clamp(int *x, int lo, int hi) {
  int t = threadIdx.x;
  x[t] = min(max(x[t], lo), hi);
}

// Attacks: shift right by k (idempotent only for k == 0; k >= 32 masked by the hardware).
// GMEM-EXPECT: ic_shift non-idempotent
// GMEM-RUN: ic_shift grid=1 block=128 args=buf:u32:128:rand u32:0
// GMEM-RUN: ic_shift grid=1 block=128 args=buf:u32:128:rand u32:1
__global__ void ic_shift(unsigned *x, unsigned k) { x[threadIdx.x] = x[threadIdx.x] >> (k & 31); }

// Attacks: lookup-table map in place (idempotent iff lut restricted to the values is a projection).
// GMEM-EXPECT: ic_lut non-idempotent
// GMEM-RUN: ic_lut grid=1 block=256 args=buf:u8:256:rand buf:u8:256:iota
// GMEM-RUN: ic_lut grid=1 block=256 args=buf:u8:256:rand buf:u8:256:randint:0:256
// GMEM-RUN: ic_lut grid=1 block=256 args=buf:u8:256:rand buf:u8:256:const:7
__global__ void ic_lut(unsigned char *x, const unsigned char *lut) { x[threadIdx.x] = lut[x[threadIdx.x]]; }

// Attacks: conditional overwrite x[i] = v where x[i] < 0 (idempotent iff v >= 0).
// GMEM-EXPECT: ic_fix_negative non-idempotent
// GMEM-RUN: ic_fix_negative grid=1 block=128 args=buf:i32:128:randint:-50:50 i32:0
// GMEM-RUN: ic_fix_negative grid=1 block=128 args=buf:i32:128:randint:-50:50 i32:-1
__global__ void ic_fix_negative(int *x, int v) {
  int t = threadIdx.x;
  if (x[t] < 0) x[t] = v + x[t] * (v < 0 ? 1 : 0);
}

// Attacks: round to a multiple of q in place (idempotent for q >= 1; q == 0 divides by zero guarded to identity).
// GMEM-EXPECT: ic_round_multiple non-idempotent
// GMEM-RUN: ic_round_multiple grid=1 block=128 args=buf:i32:128:rand i32:8
// GMEM-RUN: ic_round_multiple grid=1 block=128 args=buf:i32:128:rand i32:0
__global__ void ic_round_multiple(int *x, int q) {
  int t = threadIdx.x;
  if (q > 0) x[t] = (x[t] / q) * q + (q == 8 ? 0 : 1);
}

// Attacks: in-place normalisation by a value read from the same buffer (x[i] /= x[0]).
// GMEM-EXPECT: ic_normalize_by_first non-idempotent
// GMEM-RUN: ic_normalize_by_first grid=1 block=64 args=buf:f32:64:const:1.0
// GMEM-RUN: ic_normalize_by_first grid=1 block=64 args=buf:f32:64:rand
__global__ void ic_normalize_by_first(float *x) {
  float d = x[0];
  __syncthreads();
  x[threadIdx.x] = x[threadIdx.x] / d;
}

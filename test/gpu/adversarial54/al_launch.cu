// Adversarial corpus (session 54): the launch side of alias pairs
// (InstanceCheck.h launchAlias, InstanceCheck.cpp): launch variants,
// several coincidences, pointers the kernel only compares, loops with
// checkpoints, pair kernels with a second in-place object. Expectations:
// the author's view.

// beta == 0 picks a launch variant (no alias pairs there); beta != 0 reads
// out (a read-modify-write at every launch with beta != 0).
// GMEM-EXPECT: al_beta non-idempotent
// GMEM-RUN: al_beta grid=1 block=256 args=buf:f32:256:rand ptr:0+0 f32:0
// GMEM-RUN: al_beta grid=1 block=256 args=buf:f32:256:rand ptr:0+0 f32:0.5
__global__ void al_beta(const float *x, float *out, float beta) {
  int i = threadIdx.x;
  float v = fmaxf(x[i], 0.f);
  out[i] = beta == 0.f ? v : v + beta * out[i];
}

// The kernel tests the pointers: in place it takes a path that doubles.
// GMEM-EXPECT: al_ptr_test conditional
// GMEM-RUN: al_ptr_test grid=1 block=256 args=buf:f32:256:rand ptr:0+0
// GMEM-RUN: al_ptr_test grid=1 block=256 args=buf:f32:256:rand buf:f32:256:zero
__global__ void al_ptr_test(const float *x, float *out) {
  int i = threadIdx.x;
  if ((const float *)out == x)
    out[i] = 2.f * x[i];
  else
    out[i] = fmaxf(x[i], 0.f);
}

// An unaccessed pointer equal to the pair (not a coincidence that counts)
// and a second accessed pair of reads.
// GMEM-EXPECT: al_two_pairs conditional
// GMEM-RUN: al_two_pairs grid=1 block=256 args=buf:f32:256:rand ptr:0+0 buf:f32:256:rand ptr:2+0 ptr:0+0
// GMEM-RUN: al_two_pairs grid=1 block=256 args=buf:f32:256:rand ptr:0+0 buf:f32:256:rand buf:f32:256:rand ptr:0+0
__global__ void al_two_pairs(const float *x, float *out, const float *a, const float *b,
                             const float *unused) {
  int i = threadIdx.x;
  out[i] = fmaxf(x[i], fminf(a[i], b[i]));
  (void)unused;
}

// In place over rows with a loop checkpoint (idempotent; a cut block
// re-run recomputes relu of relu).
// GMEM-EXPECT: al_rows_loop conditional
// GMEM-RUN: al_rows_loop grid=2 block=64 args=buf:f32:2048:rand ptr:0+0 i32:16
__global__ void al_rows_loop(const float *x, float *out, int rows) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < rows; ++r)
    out[r * 128 + c] = fmaxf(x[r * 128 + c], 0.f);
}

// The pair plus a second object updated in place with an operand loaded
// from the pair (stable only while x is not written).
// GMEM-EXPECT: al_second_update conditional
// GMEM-RUN: al_second_update grid=1 block=256 args=buf:f32:256:rand ptr:0+0 buf:f32:256:rand
__global__ void al_second_update(const float *x, float *out, float *acc) {
  int i = threadIdx.x;
  acc[i] = fmaxf(acc[i], x[i]);
  out[i] = fmaxf(x[i], 0.f);
}

// The pair plus a second object updated with a far part of x (never
// written: idempotent in place).
// GMEM-EXPECT: al_second_far conditional
// GMEM-RUN: al_second_far grid=1 block=256 args=buf:f32:512:rand ptr:0+0 buf:f32:256:rand
__global__ void al_second_far(const float *x, float *out, float *acc) {
  int i = threadIdx.x;
  acc[i] = fmaxf(acc[i], x[i + 256]);
  out[i] = fmaxf(x[i], 0.f);
}

// out written twice: relu then the negated magnitude (in place: the second
// store's load reads the first's result).
// GMEM-EXPECT: al_two_stores conditional
// GMEM-RUN: al_two_stores grid=1 block=256 args=buf:f32:256:rand ptr:0+0
__global__ void al_two_stores(const float *x, float *out) {
  int i = threadIdx.x;
  out[i] = fmaxf(x[i], 0.f);
  out[i] = -fabsf(x[i]);
}

// A read of out before the store, guarding it (idempotent in place, but
// the guard is not a map of x).
// GMEM-EXPECT: al_out_guard conditional
// GMEM-RUN: al_out_guard grid=1 block=256 args=buf:f32:256:rand ptr:0+0
__global__ void al_out_guard(const float *x, float *out) {
  int i = threadIdx.x;
  if (out[i] != 0.f)
    out[i] = fmaxf(x[i], 0.f);
}

// The in-place result read back and stored elsewhere (y = out after the
// store): in place y gets relu(x) both runs.
// GMEM-EXPECT: al_readback conditional
// GMEM-RUN: al_readback grid=1 block=256 args=buf:f32:256:rand ptr:0+0 buf:f32:256:zero
__global__ void al_readback(const float *x, float *out, float *y) {
  int i = threadIdx.x;
  out[i] = fmaxf(x[i], 0.f);
  y[i] = out[i];
}

// The value loaded before the store goes to y too (y = x + relu(x)).
// GMEM-EXPECT: al_value_escapes conditional
// GMEM-RUN: al_value_escapes grid=1 block=256 args=buf:f32:256:rand ptr:0+0 buf:f32:256:zero
__global__ void al_value_escapes(const float *x, float *out, float *y) {
  int i = threadIdx.x;
  float v = x[i];
  out[i] = fmaxf(v, 0.f);
  y[i] = v;
}

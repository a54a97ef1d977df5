// A kernel that writes what a clock, the global timer or the id of its SM
// or warp slot decides writes something else at every run: run again on its
// own output it does not reproduce it, so it is never idempotent, whatever
// its regions (NondeterministicOutput.cpp; found by an adversarial round in
// session 48, whose run_twice would have called such launches
// FALSE-IDEMPOTENT). Waiting on a clock and writing what does not depend
// on it is not affected; neither are ids that are the same at every run.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel stamp --grid 2 --block 64 --alloc 0x200000000:1024 \
// RUN:   --arg ptr:0x200000000 | FileCheck %s --check-prefix=LAUNCH
// LAUNCH: idempotent: no

// CHECK-LABEL: kernel stamp(long long*)
// CHECK:         class:  non-idempotent -- writes what a clock, timer, counter or hardware id decides
__global__ void stamp(long long *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = clock64(); }

// CHECK-LABEL: kernel globaltimer_asm(unsigned long long*)
// CHECK:         class:  non-idempotent -- writes what a clock
__global__ void globaltimer_asm(unsigned long long *out) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  out[threadIdx.x] = t;
}

// The address: which element is written depends on the SM.
// CHECK-LABEL: kernel smid_index(float*)
// CHECK:         class:  non-idempotent -- writes what a clock
__global__ void smid_index(float *out) {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  out[s] = 1.0f;
}

// Control: whether it writes.
// CHECK-LABEL: kernel write_if_late(float*, long long)
// CHECK:         class:  non-idempotent -- writes what a clock
__global__ void write_if_late(float *out, long long d) {
  long long t0 = clock64();
  if (clock64() - t0 > d)
    out[threadIdx.x] = 1.0f;
}

// A value merged from paths a clock chose: the number of spins.
// CHECK-LABEL: kernel count_spins(int*, long long)
// CHECK:         class:  non-idempotent -- writes what a clock
__global__ void count_spins(int *out, long long d) {
  long long t0 = clock64();
  int n = 0;
  while (clock64() - t0 < d)
    ++n;
  out[threadIdx.x] = n;
}

// CHECK-LABEL: kernel select_by_clock(float*, float, float)
// CHECK:         class:  non-idempotent -- writes what a clock
__global__ void select_by_clock(float *out, float a, float b) {
  out[threadIdx.x] = (clock() & 1) ? a : b;
}

// Through a helper that is not inlined.
// CHECK-LABEL: kernel helper_stamp(long long*)
// CHECK:         class:  non-idempotent
__device__ __noinline__ long long read_stamp() { return clock64(); }
__global__ void helper_stamp(long long *out) { out[threadIdx.x] = read_stamp(); }

// CHECK-LABEL: kernel warpid_asm(unsigned int*)
// CHECK:         class:  non-idempotent -- writes what a clock
__global__ void warpid_asm(unsigned *out) {
  unsigned w;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
  out[threadIdx.x] = w;
}

// Not affected: a wait, then a copy that does not depend on it.
// CHECK-LABEL: kernel spin_then_copy(float*, float const*, long long)
// CHECK:         class:  conditional
__global__ void spin_then_copy(float *out, const float *in, long long d) {
  long long t0 = clock64();
  while (clock64() - t0 < d) {
  }
  out[threadIdx.x] = in[threadIdx.x];
}

// Not affected: %nwarpid and %laneid are the same at every run.
// CHECK-LABEL: kernel fixed_ids(unsigned int*)
// CHECK:         class:  idempotent
__global__ void fixed_ids(unsigned *out) {
  unsigned n, l;
  asm("mov.u32 %0, %%nwarpid;" : "=r"(n));
  asm("mov.u32 %0, %%laneid;" : "=r"(l));
  out[threadIdx.x] = n + l;
}

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
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void stamp(long long *out) { out[blockIdx.x * blockDim.x + threadIdx.x] = clock64(); }

// CHECK-LABEL: kernel globaltimer_asm(unsigned long long*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void globaltimer_asm(unsigned long long *out) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  out[threadIdx.x] = t;
}

// The address: which element is written depends on the SM.
// CHECK-LABEL: kernel smid_index(float*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void smid_index(float *out) {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  out[s] = 1.0f;
}

// Control: whether it writes.
// CHECK-LABEL: kernel write_if_late(float*, long long)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void write_if_late(float *out, long long d) {
  long long t0 = clock64();
  if (clock64() - t0 > d)
    out[threadIdx.x] = 1.0f;
}

// A value merged from paths a clock chose: the number of spins.
// CHECK-LABEL: kernel count_spins(int*, long long)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void count_spins(int *out, long long d) {
  long long t0 = clock64();
  int n = 0;
  while (clock64() - t0 < d)
    ++n;
  out[threadIdx.x] = n;
}

// CHECK-LABEL: kernel select_by_clock(float*, float, float)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void select_by_clock(float *out, float a, float b) {
  out[threadIdx.x] = (clock() & 1) ? a : b;
}

// Through a helper that is not inlined.
// CHECK-LABEL: kernel helper_stamp(long long*)
// CHECK:         class:  non-idempotent
__device__ __noinline__ long long read_stamp() { return clock64(); }
__global__ void helper_stamp(long long *out) { out[threadIdx.x] = read_stamp(); }

// CHECK-LABEL: kernel warpid_asm(unsigned int*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
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

// The launch's number (%gridid), a heap address, which lanes arrived
// together, and the order of atomics on shared memory decide values too.
// CHECK-LABEL: kernel gridid_stamp(unsigned long long*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void gridid_stamp(unsigned long long *out) {
  unsigned long long g;
  asm volatile("mov.u64 %0, %%gridid;" : "=l"(g));
  out[threadIdx.x] = g;
}

// CHECK-LABEL: kernel heap_address(unsigned long long*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void heap_address(unsigned long long *out) {
  void *p = malloc(16);
  out[threadIdx.x] = (unsigned long long)p;
}

// CHECK-LABEL: kernel active_lanes(unsigned int*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void active_lanes(unsigned *out) {
  if (threadIdx.x & 1)
    out[threadIdx.x] = __activemask();
}

// A ticket from a shared-memory atomic decides where each thread writes.
// CHECK-LABEL: kernel shared_ticket(int*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void shared_ticket(int *out) {
  __shared__ int c;
  if (threadIdx.x == 0)
    c = 0;
  __syncthreads();
  int s = atomicAdd(&c, 1);
  out[blockIdx.x * blockDim.x + s] = threadIdx.x;
}

// A float sum by atomics on shared memory rounds in the threads' order.
// CHECK-LABEL: kernel shared_float_sum(float const*, float*)
// CHECK:         class:  non-idempotent -- writes what differs from run to run
__global__ void shared_float_sum(const float *in, float *out) {
  __shared__ float s;
  if (threadIdx.x == 0)
    s = 0.0f;
  __syncthreads();
  atomicAdd(&s, in[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = s;
}

// Not affected: an integer histogram in shared memory (its counts do not
// depend on the order), copied out.
// CHECK-LABEL: kernel shared_histogram(int const*, int*)
// CHECK:         class:  conditional
__global__ void shared_histogram(const int *keys, int *hist) {
  __shared__ int h[16];
  if (threadIdx.x < 16)
    h[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&h[keys[blockIdx.x * blockDim.x + threadIdx.x] & 15], 1);
  __syncthreads();
  if (threadIdx.x < 16)
    hist[blockIdx.x * 16 + threadIdx.x] = h[threadIdx.x];
}

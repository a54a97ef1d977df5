// Atomics and plain loads in a loop's exit test (CheckpointSpinWait.cpp):
// which wait for other CTAs (no clone: a stop at CTA entry could leave a
// started CTA spinning for one that never starts) and which do not (their
// retry only depends on threads that are running).
// RUN: %gmem-analyze %s | FileCheck %s

// A counting barrier: arrive, then try to reset the count once every CTA
// has arrived. The CAS expects the CTA count, which only others' arrivals
// produce.
// CHECK-LABEL: kernel count_barrier(
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write
__global__ void count_barrier(unsigned *arrived, float *out) {
  if (threadIdx.x == 0) {
    atomicAdd(arrived, 1u);
    while (atomicCAS(arrived, gridDim.x, 0u) != 0u) {
    }
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

// The same barrier tried by thread 0 and told to the CTA through shared
// memory.
// CHECK-LABEL: kernel count_barrier_relay(
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write
__global__ void count_barrier_relay(unsigned *arrived, float *out) {
  __shared__ int passed;
  if (threadIdx.x == 0) {
    passed = 0;
    atomicAdd(arrived, 1u);
  }
  __syncthreads();
  while (!passed) {
    if (threadIdx.x == 0 && atomicCAS(arrived, gridDim.x, 0u) == gridDim.x)
      passed = 1;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f;
}

// A token taken with an exchange and passed on to the next CTA's word: the
// CTA waits for its predecessor, which may not have started.
// CHECK-LABEL: kernel pass_token(
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write
__global__ void pass_token(int *token, float *out) {
  if (threadIdx.x == 0) {
    if (blockIdx.x > 0)
      while (atomicExch(&token[blockIdx.x], 0) == 0) {
      }
    atomicExch(&token[blockIdx.x + 1], 1);
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 3.0f;
}

// Plain loads polled in a loop that a fence keeps reading them, of a word
// the kernel itself publishes.
// CHECK-LABEL: kernel plain_poll_fence(
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write
__global__ void plain_poll_fence(int *ready, float *out) {
  if (threadIdx.x == 0) {
    if (blockIdx.x > 0)
      while (ready[blockIdx.x] == 0)
        __threadfence();
    ready[blockIdx.x + 1] = 1;
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 4.0f;
}

// The poll in a helper that is not inlined.
// CHECK-LABEL: kernel poll_in_helper(
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write
__noinline__ __device__ int peek_flag(volatile int *p) { return *p; }
__global__ void poll_in_helper(int *ready, float *out) {
  if (threadIdx.x == 0) {
    if (blockIdx.x > 0)
      while (!peek_flag(&ready[blockIdx.x])) {
      }
    ready[blockIdx.x + 1] = 1;
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 5.0f;
}

// A float maximum by compare-and-swap: the expected value is what the last
// try read, so it retries only while running threads change the word.
// CHECK-LABEL: kernel float_max(
// CHECK:         preempt: in loops
__global__ void float_max(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int *word = (int *)out;
    int old = *word, seen;
    do {
      seen = old;
      old = atomicCAS(word, seen, __float_as_int(fmaxf(in[i], __int_as_float(seen))));
    } while (old != seen);
  }
}

// Union-find hooking: the CAS expects a root found by reading the parent
// array; it fails only where another running thread hooked that root first.
// CHECK-LABEL: kernel hook_roots(
// CHECK:         preempt: in loops
__global__ void hook_roots(const int *edge_a, const int *edge_b, int *parent, int m) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= m)
    return;
  int a = edge_a[e], b = edge_b[e];
  while (true) {
    while (parent[a] != a)
      a = parent[a];
    while (parent[b] != b)
      b = parent[b];
    if (a == b)
      break;
    int hi = a > b ? a : b, lo = a > b ? b : a;
    if (atomicCAS(&parent[hi], hi, lo) == hi)
      break;
    a = hi;
    b = lo;
  }
}

// A mutex: acquired by a CAS of constants, released by the same thread; the
// holder is a running CTA.
// CHECK-LABEL: kernel locked_sum(
// CHECK:         preempt: {{in loops|between CTAs}}
__global__ void locked_sum(int *lock, float *sum, const float *in) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    *sum += in[blockIdx.x];
    __threadfence();
    atomicExch(lock, 0);
  }
}

// A loop bound read from an input the kernel never writes, in a loop with
// barriers: not a poll.
// CHECK-LABEL: kernel bound_from_input(
// CHECK:         preempt: in loops
__global__ void bound_from_input(const int *count, const float *in, float *out) {
  __shared__ float tile[256];
  float acc = 0.f;
  for (int k = 0; k < count[blockIdx.x]; ++k) {
    tile[threadIdx.x] = in[k * blockDim.x + threadIdx.x];
    __syncthreads();
    acc += tile[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// A retry loop over a volatile __shared__ array (a tagged histogram update):
// only the CTA's own threads write it.
// CHECK-LABEL: kernel tagged_shared_hist(
// CHECK:         preempt: in loops
__global__ void tagged_shared_hist(const unsigned *in, unsigned *out, int n) {
  volatile __shared__ unsigned hist[256];
  hist[threadIdx.x % 256] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned bin = in[i] & 255u, tag = threadIdx.x << 27, c;
    do {
      c = tag | ((hist[bin] & 0x07FFFFFFu) + 1);
      hist[bin] = c;
    } while (hist[bin] != c);
  }
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x % 256] = hist[threadIdx.x % 256];
}

// A fence makes any plain load the exit test depends on a poll: here the
// flag is published through a second pointer that may alias the first.
// CHECK-LABEL: kernel poll_other_pointer(
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write
__global__ void poll_other_pointer(const int *seen, int *publish, float *out) {
  if (threadIdx.x == 0 && blockIdx.x > 0)
    while (seen[blockIdx.x - 1] == 0)
      __threadfence();
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 6.0f;
  if (threadIdx.x == 0)
    publish[blockIdx.x] = 1;
}

// A call that writes memory keeps the plain load in the loop, as a fence
// would.
// CHECK-LABEL: kernel poll_with_call(
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write
__noinline__ __device__ void count_spin(int *spins) { spins[threadIdx.x] += 1; }
__global__ void poll_with_call(int *ready, int *spins, float *out) {
  if (threadIdx.x == 0 && blockIdx.x > 0)
    while (ready[blockIdx.x - 1] == 0)
      count_spin(spins);
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 7.0f;
  if (threadIdx.x == 0)
    ready[blockIdx.x] = 1;
}

// A look-back written with plain loads: thread 0 walks back over its
// predecessors' flags, waiting at each until it is set.
// CHECK-LABEL: kernel plain_lookback(
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write
__global__ void plain_lookback(int *ready, float *total, const float *in) {
  if (threadIdx.x == 0) {
    float prefix = 0.f;
    int k = blockIdx.x - 1;
    while (k >= 0) {
      if (ready[k] == 0) {
        __threadfence();
        continue;
      }
      prefix += total[k];
      --k;
    }
    total[blockIdx.x] = prefix + in[blockIdx.x];
    __threadfence();
    ready[blockIdx.x] = 1;
  }
}

// A hand-off in a lock's shape (found by a blind run): the host leaves the
// word taken, CTA 0 publishes and sets it free without ever taking it, the
// others take it with atomicCAS(lock, 0, 1) and give it back. The takers
// wait for CTA 0: a release that no acquire of the word dominates makes the
// loop a wait, not a mutex.
// CHECK-LABEL: kernel lock_shaped_handoff(
// CHECK:         preempt: not preemptible (no clone{{.*}}waits on memory other threads write
__global__ void lock_shaped_handoff(int *lock, float *data, float *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 42.0f;
    __threadfence();
    atomicExch(lock, 0);
  } else {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    out[blockIdx.x] = data[0];
    __threadfence();
    atomicExch(lock, 0);
  }
}

// A try-lock retried around its critical section: the release follows the
// successful acquire, so it stays a mutex and keeps its clone.
// CHECK-LABEL: kernel try_lock_sum(
// CHECK:         preempt: in loops
__global__ void try_lock_sum(int *lock, float *sum, const float *x) {
  if (threadIdx.x != 0)
    return;
  bool done = false;
  while (!done) {
    if (atomicCAS(lock, 0, 1) == 0) {
      *sum += x[blockIdx.x];
      __threadfence();
      atomicExch(lock, 0);
      done = true;
    }
  }
}

// A wait written inside one inline-asm statement: the loop is in the asm,
// not in the IR. Inline asm that branches and reads global memory
// coherently is taken for a wait.
// CHECK-LABEL: kernel asm_internal_wait(
// CHECK:         preempt: not preemptible (no clone{{.*}}inline asm{{.*}}branches around a load of global memory
__global__ void asm_internal_wait(int *flag, float *out) {
  if (threadIdx.x == 0 && blockIdx.x > 0) {
    int *p = &flag[blockIdx.x - 1];
    asm volatile("{\n .reg .pred P1;\n .reg .b32 r;\n WAIT_%=:\n ld.acquire.gpu.global.b32 r, [%0];\n"
                 " setp.eq.u32 P1, r, 0;\n @P1 bra WAIT_%=;\n}\n" ::"l"(p)
                 : "memory");
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
  if (threadIdx.x == 0) {
    __threadfence();
    atomicExch(&flag[blockIdx.x], 1);
  }
}

// Register-only asm with a branch (a software clamp) is no wait.
// CHECK-LABEL: kernel asm_branch_no_load(
// CHECK:         preempt: {{in loops|between CTAs}}
__global__ void asm_branch_no_load(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v;
  asm("{\n .reg .pred p;\n mov.u32 %0, %1;\n setp.lt.s32 p, %0, 0;\n @!p bra DONE_%=;\n mov.u32 %0, 0;\n"
      " DONE_%=:\n}\n"
      : "=r"(v)
      : "r"(i));
  if (i < n)
    out[i] = (float)v;
}

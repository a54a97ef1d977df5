// Maps that differ by thread, applied to one element by several threads
// (the eleventh adversarial round). `if (x == key) x = key + 1` is
// idempotent for one key, but with key 0 in one thread and 1 in another
// 0 -> 1 -> 2: conditional maps compose into non-idempotent ones. So a map
// may use the thread's geometry or loads at thread-dependent addresses only
// where it belongs to a family closed under composition (min/max of one
// order, and/or, keep-or-replace on a condition not reading the value), or
// where it reads its own index (`m[i] ? v : x[i]`).
// A pointer chosen per thread (`p = c ? y : x` read, `q = c ? x : y`
// written) is an access of each buffer at one offset, never the same bytes.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel pair_key_oop --grid 2 --block 256 \
// RUN:   --alloc 0x100000:1024 --arg ptr:0x100000 --arg ptr:0x100000 --arg i32:512 \
// RUN:   | FileCheck %s --check-prefix=INPLACE
// RUN: %gmem-analyze %s --kernel pair_key_oop --grid 2 --block 256 \
// RUN:   --alloc 0x100000:1024 --alloc 0x200000:1024 --arg ptr:0x100000 --arg ptr:0x200000 \
// RUN:   --arg i32:512 | FileCheck %s --check-prefix=APART

// CHECK-LABEL: kernel pair_key(int*, int)
// CHECK:         class:  non-idempotent
__global__ void pair_key(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i >> 1;
  int key = i - j;
  if (i < n && x[j] == key)
    x[j] = key + 1;
}

// Keys from stable tables at the thread's index, the element at i % m.
// CHECK-LABEL: kernel table_relabel(int*, int const*, int const*, int, int)
// CHECK:         class:  non-idempotent
__global__ void table_relabel(int *x, const int *from, const int *to, int n, int m) {
  int i = threadIdx.x;
  if (i < n && m > 0) {
    int j = i % m;
    if (x[j] == from[i])
      x[j] = to[i];
  }
}

// Out of place the same kernel has no race and no in-place update; called
// with out == x its threads' maps compose, so the launch is not idempotent.
// CHECK-LABEL: kernel pair_key_oop(int const*, int*, int)
// CHECK:         class:  conditional
// CHECK-NOT:     proven as one buffer
// INPLACE: idempotent: no
// APART: idempotent: yes
__global__ void pair_key_oop(const int *x, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i >> 1;
  int key = i - j;
  if (i < n && x[j] == key)
    out[j] = key + 1;
}

// A max with each sharing thread's own operand: clamps compose.
// CHECK-LABEL: kernel shared_floor(int*, int)
// CHECK:         class:  idempotent
__global__ void shared_floor(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i >> 1] = max(x[i >> 1], (int)threadIdx.x);
}

// Per-channel bounds from tensors the launch does not write where they
// are apart from x: the in-place update holds, only aliasing remains.
// CHECK-LABEL: kernel channel_clamp(float*, float const*, float const*, int, int)
// CHECK:         class:  conditional -- reads 'lo' and writes 'x'
__global__ void channel_clamp(float *x, const float *lo, const float *hi, int n, int hw) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int c = i / hw;
    x[i] = fminf(fmaxf(x[i], lo[c]), hi[c]);
  }
}

// Keep or replace on a per-thread condition not reading the value.
// CHECK-LABEL: kernel masked_fill_shared(float*, unsigned char const*, float, int)
// CHECK:         class:  conditional -- reads 'm' and writes 'x'
__global__ void masked_fill_shared(float *x, const unsigned char *m, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i / 4] = m[i] ? v : x[i / 4];
}

// A relu swapping two buffers, each thread's direction by its parity.
// CHECK-LABEL: kernel swap_relu(float*, float*)
// CHECK:         class:  non-idempotent
__global__ void swap_relu(float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = i >> 1;
  float *p = (i & 1) ? y : x;
  float *q = (i & 1) ? x : y;
  float v = p[j];
  __syncthreads();
  q[j] = fmaxf(v, 0.f);
}

// A composing map under a branch on the value no longer composes: thread 0
// keeps bit 0, thread 1 sets 2 (run 1: 1 -> 1 -> 2); run again, thread 0
// maps 2 -> 0, which thread 1's guard then skips (the twelfth round).
// CHECK-LABEL: kernel guarded_bits(int*, int)
// CHECK:         class:  non-idempotent
__global__ void guarded_bits(int *p, int rounds) {
  int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (t == r) {
      int x = p[0];
      if (x > 0)
        p[0] = (x & (t ^ 1)) | (t << 1);
    }
    __syncthreads();
  }
}

// The store's own index names one element only from a base every thread
// computes the same: here rows of threadIdx.y overlap, so threads with
// different threadIdx.x store to p[1] with different keys (0 -> 1 in the
// first round, 1 -> 2 in a run again: the thirteenth round).
// CHECK-LABEL: kernel row_keys(int*, int const*, int)
// CHECK:         class:  non-idempotent
__global__ void row_keys(int *p, const int *m, int rounds) {
  int *q = p + threadIdx.y;
  int i = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    if (threadIdx.y == r) {
      int x = q[i];
      q[i] = x == m[i] ? m[i] + 1 : x;
    }
    __syncthreads();
  }
}

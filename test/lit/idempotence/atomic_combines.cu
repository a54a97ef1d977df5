// An atomic integer max, min, and or or whose old value the kernel never
// uses leaves the same bytes however the threads are ordered and however
// often a restarted CTA applies it again: max(max(m, v), v) = max(m, v). It
// counts as a write for idempotence (its bytes stay in the may-read region:
// the result depends on what was there). A sum, an exchange, a returned old
// value, two operations on one buffer, or a plain read of the combined
// bytes keep the kernel non-idempotent.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel block_max --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --alloc 0x200000:64 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x200000 --arg i32:1024 | FileCheck %s --check-prefix=APART
// RUN: %gmem-analyze %s --kernel block_max --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 \
// RUN:   --arg ptr:0x100000 --arg ptr:0x100000 --arg i32:1024 | FileCheck %s --check-prefix=ALIAS

// CHECK:      kernel block_max(int const*, int*, int)
// CHECK:      class:  conditional -- reads 'in' and writes 'out'
// CHECK:      #1 out : ptr  RW
// CHECK-NEXT:     read:  [0, 4*gridDim.x)
// CHECK-NEXT:     write: [0, 4*gridDim.x)
// CHECK-NEXT:     reads and writes proven disjoint
// APART:      idempotent: yes
// ALIAS:      idempotent: no
__global__ void block_max(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMax(&out[blockIdx.x], in[i]);
}

// CHECK:      kernel flag_bits(int const*, unsigned int*, int)
// CHECK:      class:  conditional -- reads 'keys' and writes 'bits'
__global__ void flag_bits(const int *keys, unsigned *bits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicOr(&bits[i >> 5], 1u << (keys[i] & 31));
}

// CHECK:      kernel global_min(float const*, unsigned int*, int)
// CHECK:      class:  conditional -- reads 'in' and writes 'out'
__global__ void global_min(const float *in, unsigned *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMin(out, __float_as_uint(in[i]) & 0x7fffffffu);
}

// CHECK:      kernel block_sum(int const*, int*, int)
// CHECK:      class:  non-idempotent -- atomic read-modify-write of 'out'
__global__ void block_sum(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&out[blockIdx.x], in[i]);
}

// An exchange whose old value is unused is a store (threads exchanging
// different values into one word race as stores would); one whose old
// value is used is a read-modify-write.
// CHECK:      kernel exchange_flag(int*, int)
// CHECK:      class:  idempotent -- reads no global memory
// CHECK:      #0 flag : ptr  W
__global__ void exchange_flag(int *flag, int n) {
  if (blockIdx.x * blockDim.x + threadIdx.x < n)
    atomicExch(flag, 1);
}

// CHECK:      kernel exchange_taken(int*, int*, int)
// CHECK:      class:  non-idempotent -- atomic read-modify-write of 'flag'
__global__ void exchange_taken(int *flag, int *old, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    old[i] = atomicExch(flag, i);
}

// CHECK:      kernel max_and_old(int const*, int*, int*, int)
// CHECK:      class:  non-idempotent
__global__ void max_and_old(const int *in, int *out, int *old, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    old[i] = atomicMax(out, in[i]);
}

// CHECK:      kernel max_then_min(int const*, int*, int)
// CHECK:      class:  non-idempotent -- atomics of different operations or widths on 'out'
__global__ void max_then_min(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicMax(&out[0], in[i]);
    atomicMin(&out[1], in[i]);
  }
}

// CHECK:      kernel max_then_read(int const*, int*, int*, int)
// CHECK:      class:  {{non-idempotent|unknown}}
__global__ void max_then_read(const int *in, int *out, int *copy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMax(&out[blockIdx.x], in[i]);
  __syncthreads();
  if (threadIdx.x == 0)
    copy[blockIdx.x] = out[blockIdx.x];
}

// One operation at two widths on the same bytes: a 64-bit max can lower the
// low half that a 32-bit max raises again (a helper's round, session 51).
// CHECK:      kernel max_two_widths(unsigned long long*)
// CHECK:      class:  non-idempotent -- atomics of different operations or widths on 'p'
__global__ void max_two_widths(unsigned long long *p) {
  atomicMax((unsigned *)p, 9u);
  atomicMax(p, 1ull << 32);
}

// A plain store into part of a combined word between two runs' maxima.
// CHECK:      kernel byte_then_max(unsigned int*)
// CHECK:      class:  non-idempotent -- 'p' is written and atomically combined at places not proven apart
__global__ void byte_then_max(unsigned *p) {
  ((unsigned char *)p)[0] = 0xff;
  atomicMax(p, 0x100u);
}

// A maximum folded over a fixed trip count: LLVM turns the empty case
// atomicMax(p, INT_MIN) into `atomicrmw or p, 0`, which changes nothing; and
// max and min into two buffers (generic pointers of kernel parameters are
// never shared memory, so their order matters to nothing).
// CHECK:      kernel unrolled_max(int const*, int, int*)
// CHECK:      class:  conditional -- reads 'data' and writes 'bmax'
__global__ void unrolled_max(const int *data, int n, int *bmax) {
  for (int rd = 0; rd < 4; rd++) {
    int mx = -2147483647 - 1;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      mx = max(mx, data[i + rd * n]);
    atomicMax(&bmax[blockIdx.x], mx);
  }
}

// CHECK:      kernel max_and_min(int const*, int*, int*)
// CHECK:      class:  conditional -- reads 'data' and writes 'bmax'
__global__ void max_and_min(const int *data, int *bmax, int *bmin) {
  atomicMax(&bmax[blockIdx.x], data[threadIdx.x]);
  atomicMin(&bmin[blockIdx.x], data[threadIdx.x]);
}

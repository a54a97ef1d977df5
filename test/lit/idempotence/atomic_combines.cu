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

// CHECK:      kernel exchange_flag(int*, int)
// CHECK:      class:  non-idempotent -- atomic read-modify-write of 'flag'
__global__ void exchange_flag(int *flag, int n) {
  if (blockIdx.x * blockDim.x + threadIdx.x < n)
    atomicExch(flag, 1);
}

// CHECK:      kernel max_and_old(int const*, int*, int*, int)
// CHECK:      class:  non-idempotent
__global__ void max_and_old(const int *in, int *out, int *old, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    old[i] = atomicMax(out, in[i]);
}

// CHECK:      kernel max_then_min(int const*, int*, int)
// CHECK:      class:  non-idempotent -- atomics of different operations on 'out'
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

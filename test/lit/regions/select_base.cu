// A pointer chosen among objects (a select, or a web of phis: buffers
// swapped in a loop) and then offset: the access lies at that offset from
// whichever object was chosen, so each candidate gets the offset's region,
// not its whole allocation. Only where every value entering the choice is
// one of the objects itself; a candidate with an offset of its own keeps
// the whole allocation, and an address that also uses another pointer's
// value (`p + (c - p)` reaches c) is unknown memory, as with one object.
// RUN: %gmem-analyze %s | FileCheck %s
//
// Concrete launches against the bytes the kernels touch (n = 100 floats,
// 128 threads: whichever object is chosen, thread i < 100 writes bytes
// [4i, 4i + 4) of it, so the truth is within [base, base + 0x190) of a or
// of b, or of both when chosen per thread; ping_pong reads and writes
// [0, 0x190) of both over its steps). Each region must cover that.
// RUN: %gmem-analyze %s --kernel select_ptr --grid 2 --block 64 --alloc 0x100000:0x1000 \
// RUN:   --alloc 0x200000:0x1000 --alloc 0x300000:0x1000 --arg ptr:0x100000 --arg ptr:0x200000 \
// RUN:   --arg ptr:0x300000 --arg i32:100 --arg i32:1 | FileCheck %s --check-prefix=SEL
// The flag is a launch guard: at flag != 0 the launch is decided with the
// copy in which only a is written (launch variants, session 52); the
// kernel's own regions are the CHECK lines below.
// SEL: launch variant: flag != 0 holds at this launch
// SEL: #0 a  write [0x100000, 0x100190){{$}}
// SEL-NOT: #1 b
// RUN: %gmem-analyze %s --kernel select_per_thread --grid 2 --block 64 --alloc 0x100000:0x1000 \
// RUN:   --alloc 0x200000:0x1000 --alloc 0x300000:0x1000 --arg ptr:0x100000 --arg ptr:0x200000 \
// RUN:   --arg ptr:0x300000 --arg i32:100 | FileCheck %s --check-prefix=TID
// TID: #0 a  write [0x100000, 0x100190){{$}}
// TID: #1 b  write [0x200000, 0x200190){{$}}
// RUN: %gmem-analyze %s --kernel ping_pong --grid 1 --block 128 --alloc 0x100000:0x1000 \
// RUN:   --alloc 0x200000:0x1000 --arg ptr:0x100000 --arg ptr:0x200000 --arg i32:100 --arg i32:3 \
// RUN:   | FileCheck %s --check-prefix=PING
// PING: #0 a  read [0x100000, 0x100190)  write [0x100000, 0x100190)
// PING: #1 b  read [0x200000, 0x200190)  write [0x200000, 0x200190)
// PING: idempotent: no

// CHECK-LABEL: kernel select_ptr(float*, float*, float const*, int, int)
// CHECK:         #0 a : ptr  W
// CHECK-NEXT:      write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK:         #1 b : ptr  W
// CHECK-NEXT:      write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
__global__ void select_ptr(float *a, float *b, const float *in, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = flag ? a : b;
  if (i < n)
    p[i] = in[i];
}

// Chosen per thread: the union over threads, per object.
// CHECK-LABEL: kernel select_per_thread(float*, float*, float const*, int)
// CHECK:         #0 a : ptr  W
// CHECK-NEXT:      write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK:         #1 b : ptr  W
// CHECK-NEXT:      write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
__global__ void select_per_thread(float *a, float *b, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = (i & 1) ? a : b;
  if (i < n)
    p[i] = in[i];
}

// Buffers swapped in a loop: both read and written in the same range, at
// the same offsets (not idempotent).
// CHECK-LABEL: kernel ping_pong(float*, float*, int, int)
// CHECK:         class:  non-idempotent
// CHECK:         #0 a : ptr  RW
// CHECK-NEXT:      read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT:      write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK:         #1 b : ptr  RW
// CHECK-NEXT:      read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT:      write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
__global__ void ping_pong(float *a, float *b, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *src = a, *dst = b;
  for (int s = 0; s < steps; ++s) {
    if (i < n)
      dst[i] = src[i] * 0.5f;
    float *t = src;
    src = dst;
    dst = t;
  }
}

// A candidate with an offset of its own: whole allocations, as before.
// CHECK-LABEL: kernel select_own_offset(float*, float*, float const*, int, int)
// CHECK:         write: whole allocation (pointer may point into one of several objects)
// CHECK:         write: whole allocation (pointer may point into one of several objects)
__global__ void select_own_offset(float *a, float *b, const float *in, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = flag ? a + 8 : b;
  if (i < n)
    p[i] = in[i];
}

// The chosen pointer plus a difference to a third object reaches that
// object: unknown memory, never regions of a and b alone.
// CHECK-LABEL: kernel select_difference(float*, float*, float*, int, int)
// CHECK-NOT:     write: [
// CHECK-NOT:     write: whole
// CHECK:         unknown memory write: address computed from another pointer's value
__global__ void select_difference(float *a, float *b, float *c, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float *p = flag ? a : b;
  if (i < n)
    p[(c - p) + i] = 1.0f;
}

// Out-of-place kernels called in place: `relu(x, x, n)`. The analysis
// proves the reads and writes through two pointer parameters as if they
// were one buffer (an idempotent in-place map at one offset from it); the
// descriptor lists the pair, and a launch passing one address for both is
// idempotent where that is its only coincidence and everything else stays
// apart. A scale, a shifted read, or a map whose operand comes from the
// other parameter list nothing.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --json | FileCheck %s --check-prefix=JSON
// RUN: %gmem-analyze %s --kernel relu_oop --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --arg ptr:0x100000 --arg ptr:0x100000 --arg i32:1024 \
// RUN:   | FileCheck %s --check-prefix=SAME
// RUN: %gmem-analyze %s --kernel relu_oop --grid 4 --block 256 \
// RUN:   --alloc 0x100000:8192 --arg ptr:0x100000 --arg ptr:0x100004 --arg i32:1024 \
// RUN:   | FileCheck %s --check-prefix=SHIFTED
// RUN: %gmem-analyze %s --kernel scale_oop --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --arg ptr:0x100000 --arg ptr:0x100000 --arg i32:1024 \
// RUN:   | FileCheck %s --check-prefix=SCALE
// RUN: %gmem-analyze %s --kernel masked_oop --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --alloc 0x200000:1024 --arg ptr:0x100000 --arg ptr:0x100000 \
// RUN:   --arg ptr:0x200000 --arg i32:1024 | FileCheck %s --check-prefix=MASKED
// RUN: %gmem-analyze %s --kernel masked_oop --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --arg ptr:0x100000 --arg ptr:0x100000 \
// RUN:   --arg ptr:0x100000 --arg i32:1024 | FileCheck %s --check-prefix=ALLTHREE

// SAME: idempotent: yes
// SHIFTED: idempotent: no
// SCALE: idempotent: no
// MASKED: idempotent: yes
// ALLTHREE: idempotent: no

// CHECK-LABEL: kernel relu_oop(float const*, float*, int)
// CHECK:         class:  conditional -- reads 'in' and writes 'out'
// CHECK-NEXT:    when in == out (called in place): proven as one buffer
// JSON:          "alias_ok": {{\[\[}}0, 1{{\]\]}},
__global__ void relu_oop(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = fmaxf(in[i], 0.f);
}

// CHECK-LABEL: kernel scale_oop(float const*, float*, int)
// CHECK:         class:  conditional
// CHECK-NOT:     called in place
// CHECK:         #0 in
__global__ void scale_oop(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.f * in[i];
}

// CHECK-LABEL: kernel shift_oop(float const*, float*, int)
// CHECK:         class:  conditional
// CHECK-NOT:     called in place
// CHECK:         #0 in
__global__ void shift_oop(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    out[i] = fmaxf(in[i + 1], 0.f);
}

// The mask stays a fixed operand while it is apart from in and out.
// CHECK-LABEL: kernel masked_oop(float const*, float*, bool const*, int)
// CHECK:         when in == out (called in place)
__global__ void masked_oop(const float *in, float *out, const bool *mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = mask[i] ? 0.f : in[i];
}

// out = max(a, b): with a == out it is max(out, b), idempotent; but b is
// the other operand, so b == out is too; a == b == out is two coincidences.
// CHECK-LABEL: kernel max_oop(float const*, float const*, float*, int)
// CHECK:         when a == out (called in place)
// CHECK:         when b == out (called in place)
__global__ void max_oop(const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = fmaxf(a[i], b[i]);
}

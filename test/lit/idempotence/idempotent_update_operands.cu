// In-place maps whose fixed operands are read from memory: the same for the
// thread in a run again when the launch never writes that memory (the
// runtime checks per launch that it does not alias what the launch
// writes). PyTorch's masked_fill_ with a mask tensor (its select compiled
// as a branch around the load: a phi), threshold_backward in place, clamp_
// with tensor bounds, a functor's fields. Refused: an operand looked up by
// the value, a mask the launch also writes, shared memory that threads
// fill, an address that depends on the value.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel masked_fill --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --alloc 0x200000:1024 --arg ptr:0x100000 --arg ptr:0x200000 \
// RUN:   --arg f32:-1 --arg i32:1024 | FileCheck %s --check-prefix=APART
// RUN: %gmem-analyze %s --kernel masked_fill --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --arg ptr:0x100000 --arg ptr:0x100000 \
// RUN:   --arg f32:-1 --arg i32:1024 | FileCheck %s --check-prefix=ALIASED

// APART: idempotent: yes
// ALIASED: idempotent: no
// CHECK-LABEL: kernel masked_fill(float*, bool const*, float, int)
// CHECK:         class:  conditional -- reads 'mask' and writes 'x'
__global__ void masked_fill(float *x, const bool *mask, float value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = mask[i] ? value : x[i];
}

// CHECK-LABEL: kernel threshold_backward_(float*, float const*, float, int)
// CHECK:         class:  conditional -- reads 'out' and writes 'grad'
__global__ void threshold_backward_(float *grad, const float *out, float t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    grad[i] = out[i] <= t ? 0.f : grad[i];
}

// CHECK-LABEL: kernel clamp_tensor(float*, float const*, float const*, int)
// CHECK:         class:  conditional -- reads 'lo' and writes 'x'
__global__ void clamp_tensor(float *x, const float *lo, const float *hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = fminf(fmaxf(x[i], lo[i]), hi[i]);
}

struct ClampOp {
  float lo, hi;
};
// CHECK-LABEL: kernel clamp_functor(float*, ClampOp, int)
// CHECK:         class:  idempotent
__global__ void clamp_functor(float *x, ClampOp op, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = fminf(fmaxf(x[i], op.lo), op.hi);
}

// CHECK-LABEL: kernel table_by_value(int*, int const*, int)
// CHECK:         class:  non-idempotent
__global__ void table_by_value(int *x, const int *table, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = table[x[i] & 255];
}

// CHECK-LABEL: kernel mask_written(float*, int*, float, int)
// CHECK:         class:  non-idempotent
__global__ void mask_written(float *x, int *mask, float value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] = mask[i] ? value : x[i];
    mask[n + i] = 0;
  }
}

// CHECK-LABEL: kernel mask_by_value(float*, bool const*, int)
// CHECK:         class:  non-idempotent
__global__ void mask_by_value(float *x, const bool *mask, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    x[i] = mask[(int)v & 7] ? 0.f : v;
  }
}

// CHECK-LABEL: kernel mask_in_shared(float*, int)
// CHECK:         class:  non-idempotent
__global__ void mask_in_shared(float *x, int n) {
  __shared__ bool m[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  m[threadIdx.x] = (i & 1) != 0;
  __syncthreads();
  if (i < n)
    x[i] = m[255 - threadIdx.x] ? 0.f : x[i];
}

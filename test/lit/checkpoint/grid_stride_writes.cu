// Grid-stride kernels whose items write the same bytes are not flagged
// (GridStride): the survivor of a byte two items write is whichever ran
// last, which a thread's trip order decides on the launch's own grid and
// nothing decides on a larger one. Every store and memory intrinsic of the
// loop must write at one base plus a constant stride times the index, all
// of an item's bytes within one stride (the fourth adversarial round,
// session 50: out[threadIdx.x], out[i % m], a fixed slot, overlapping
// memsets were flagged and changed under a regrid).
// RUN: rm -rf %t.stub && mkdir -p %t.stub
// RUN: touch %t.stub/texture_fetch_functions.h %t.stub/texture_indirect_functions.h
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version \
// RUN:   --cuda-path=/usr/local/cuda -isystem %t.stub -fpass-plugin=%gmem_plugin -O2 -S \
// RUN:   -emit-llvm -Rpass-analysis=gmem-checkpoint %s -o %t.ll 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

#include <cstring>

// Every item of a thread writes the thread's slot.
// REMARK-DAG: grid_stride_writes.cu:[[@LINE+1]]:1: remark: grid stays the launch's: a write at an address that is not a fixed stride times the index
__global__ void tid_slot(const int *in, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[threadIdx.x] = in[i];
}

// Slots reused every m items.
// REMARK-DAG: grid_stride_writes.cu:[[@LINE+1]]:1: remark: grid stays the launch's: a write at an address that is not a fixed stride times the index
__global__ void mod_slot(const int *in, int *out, int n, int m) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i % m] = in[i];
}

// The last match wins: one fixed slot.
// REMARK-DAG: grid_stride_writes.cu:[[@LINE+1]]:1: remark: grid stays the launch's: a write at an address that is not a fixed stride times the index
__global__ void last_match(const int *in, int *pos, int key, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    if (in[i] == key)
      *pos = i;
}

// Two items per slot.
// REMARK-DAG: grid_stride_writes.cu:[[@LINE+1]]:1: remark: grid stays the launch's: a write at an address that is not a fixed stride times the index
__global__ void half_slot(const int *in, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i >> 1] = in[i];
}

// A slot from memory.
// REMARK-DAG: grid_stride_writes.cu:[[@LINE+1]]:1: remark: grid stays the launch's: a write at an address that is not a fixed stride times the index
__global__ void scatter(const int *idx, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[idx[i]] = i;
}

// Item i also clears item i + 1's element.
// REMARK-DAG: grid_stride_writes.cu:[[@LINE+1]]:1: remark: grid stays the launch's: an item writes more bytes than its index moves the address (items overlap)
__global__ void neighbor_clear(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i + 1] = 0.f;
    out[i] = in[i];
  }
}

// Eight bytes set at a four-byte stride.
// REMARK-DAG: grid_stride_writes.cu:[[@LINE+1]]:1: remark: grid stays the launch's: an item writes more bytes than its index moves the address (items overlap)
__global__ void memset_overlap(int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    memset(out + i, i & 0xff, 8);
}

// Two outputs: their arguments may overlap at a launch.
// REMARK-DAG: grid_stride_writes.cu:[[@LINE+1]]:1: remark: grid stays the launch's: writes through more than one base pointer
__global__ void two_outputs(const float *in, float *a, float *b, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    a[i] = in[i];
    b[i] = 2.f * in[i];
  }
}

// Flagged: two fields of an item's own pair, within its stride.
// REMARK-DAG: grid_stride_writes.cu:[[@LINE+1]]:1: remark: grid-stride loop over parameter #2
__global__ void pairs(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[2 * (size_t)i] = in[i];
    out[2 * (size_t)i + 1] = -in[i];
  }
}

// The same pair in 32-bit arithmetic (2 * i, whose step is not the
// index's): refused, though its items are apart (a limitation).
// REMARK-DAG: grid_stride_writes.cu:[[@LINE+1]]:1: remark: grid stays the launch's: a write at an address that is not a fixed stride times the index
__global__ void pairs32(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[2 * i] = in[i];
    out[2 * i + 1] = -in[i];
  }
}

// Flagged: a 16-byte record copied per item, 16 bytes apart.
struct Rec {
  int a, b, c, d;
};
// REMARK-DAG: grid_stride_writes.cu:[[@LINE+1]]:1: remark: grid-stride loop over parameter #2
__global__ void copy_records(const Rec *in, Rec *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    memcpy(out + i, in + i, sizeof(Rec));
}

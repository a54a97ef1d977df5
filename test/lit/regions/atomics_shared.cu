// Atomics on __shared__ memory only (a per-block histogram) are not global
// side effects: the kernel stays conditional (reads keys, writes out), no
// parameter gets the A flag.
// RUN: %gmem-analyze %s | FileCheck %s --implicit-check-not=RWA --implicit-check-not=non-idempotent

// CHECK:      kernel block_hist(int, int const*, int*)
// CHECK:      class:  conditional -- reads 'keys' and writes 'out'
// CHECK:      #1 keys : ptr  R
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT: #2 out : ptr  W
// CHECK-NEXT:     write: [0, 1024*gridDim.x + 4*min(blockDim.x - 1, 255) - 1020)
__global__ void block_hist(int n, const int *keys, int *out) {
  __shared__ int cnt[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 256)
    cnt[threadIdx.x] = 0;
  __syncthreads();
  if (i < n)
    atomicAdd(&cnt[keys[i] & 255], 1);
  __syncthreads();
  if (threadIdx.x < 256)
    out[blockIdx.x * 256 + threadIdx.x] = cnt[threadIdx.x];
}

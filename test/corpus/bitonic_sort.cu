// Bitonic sort: one global compare-exchange step over a power-of-two array
// (the classic bitonic_sort_step kernel launched for every (k, j)), and a
// whole-block sort of 256-key chunks in shared memory.

// Launch with gridDim.x * blockDim.x == n (a power of two) and j < k <= n.
// GMEM-EXPECT: bitonic_step non-idempotent
// GMEM-RUN: bitonic_step grid=256 block=256 args=buf:f32:65536:rand i32:8 i32:16
// GMEM-RUN: bitonic_step grid=256 block=256 args=buf:f32:65536:rand i32:1024 i32:65536
__global__ void bitonic_step(float *vals, int j, int k) {
  unsigned int i = threadIdx.x + blockDim.x * blockIdx.x;
  unsigned int ixj = i ^ (unsigned int)j;
  if (ixj > i) {
    float a = vals[i];
    float b = vals[ixj];
    if ((i & (unsigned int)k) == 0) {
      if (a > b) { vals[i] = b; vals[ixj] = a; }
    } else {
      if (a < b) { vals[i] = b; vals[ixj] = a; }
    }
  }
}

#define SORT_BLOCK 256

// Sorts each 256-key chunk ascending in place. Launch with blockDim.x == 256.
// GMEM-EXPECT: bitonic_sort_shared non-idempotent
// GMEM-RUN: bitonic_sort_shared grid=391 block=256 args=buf:i32:100000:randint:0:1000000 i32:100000
__global__ void bitonic_sort_shared(int *keys, int n) {
  __shared__ int s[SORT_BLOCK];
  int tid = threadIdx.x;
  int gi = blockIdx.x * SORT_BLOCK + tid;
  s[tid] = gi < n ? keys[gi] : 0x7fffffff;
  __syncthreads();

  for (int k = 2; k <= SORT_BLOCK; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      int ixj = tid ^ j;
      if (ixj > tid) {
        int a = s[tid], b = s[ixj];
        bool ascending = (tid & k) == 0;
        if ((a > b) == ascending) {
          s[tid] = b;
          s[ixj] = a;
        }
      }
      __syncthreads();
    }
  }
  if (gi < n) keys[gi] = s[tid];
}

// A pointer loaded from memory (float **ptrs) can point anywhere: accesses
// through it go to "unknown memory" (region kind "anything"), and a kernel
// that also reads/writes elsewhere gets class unknown. The pointer table
// itself is an ordinary bounded read. (JSON: json/unknown_memory.ll.)
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel load_through(int, float**, float*)
// CHECK:      class:  unknown -- reads memory it cannot bound (pointer loaded from memory)
// CHECK:      #1 ptrs : ptr  R
// CHECK-NEXT:     read:  [0, 8*min(blockDim.x*gridDim.x - 1, n - 1) + 8)
// CHECK-NEXT: #2 out : ptr  W
// CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT: unknown memory read:  pointer loaded from memory
// CHECK-NEXT: preempt: between CTAs (no loop checkpoints); persistent forms: full light free
// CHECK-EMPTY:
__global__ void load_through(int n, float **ptrs, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = ptrs[i][0];
}

// CHECK:      kernel store_through(int, float**, float const*)
// CHECK:      class:  unknown -- writes memory it cannot bound (pointer loaded from memory)
// CHECK:      unknown memory write: pointer loaded from memory
__global__ void store_through(int n, float **ptrs, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    ptrs[i][0] = in[i];
}

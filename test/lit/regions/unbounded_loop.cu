// Loops whose trip count depends on data (a while loop that runs until it
// finds a zero) cannot be bounded: the accesses inside widen to the whole
// allocation with a reason naming the loop.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel until_zero(float const*, float*)
// CHECK:      class:  conditional -- reads 'in' and writes 'out'
// CHECK:      #0 in : ptr  R
// CHECK-NEXT:     read:  whole allocation (loop trip count the analysis cannot bound)
// CHECK-NEXT: #1 out : ptr  W
// CHECK-NEXT:     write: whole allocation (loop trip count the analysis cannot bound)
__global__ void until_zero(const float *in, float *out) {
  int k = threadIdx.x;
  while (in[k] != 0.0f) {
    out[k] = in[k] * 2.0f;
    k += blockDim.x;
  }
}

// Pointer chasing: j = next[j] is no induction. Here the `j >= 0` test
// still bounds j to the non-negative ints, so the region is the int range:
// [0, 4 * 2^31) (sound, if not useful).
// CHECK:      kernel walk_list(int const*, int*, int)
// CHECK:      #0 next : ptr  R
// CHECK-NEXT:     read:  [0, 8589934592)
// CHECK-NEXT: #1 visited : ptr  W
// CHECK-NEXT:     write: [0, 8589934592)
__global__ void walk_list(const int *next, int *visited, int start) {
  int j = start + threadIdx.x;
  while (j >= 0) {
    visited[j] = 1;
    j = next[j];
  }
}

// a[idx[i]]: the index is a value loaded from memory, so a's read widens to
// the whole allocation with a reason that says so; idx itself is read at
// [0, 4*min(...)+4) like any guarded direct access. (JSON kind "allocation":
// instance/outside_alloc.test.)
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK:      kernel gather(int, int const*, float const*, float*)
// CHECK:      class:  conditional
// CHECK:      #1 idx : ptr  R
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT: #2 a : ptr  R
// CHECK-NEXT:     read:  whole allocation (index depends on a value loaded from memory)
// CHECK-NEXT: #3 out : ptr  W
// CHECK-NEXT:     write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
__global__ void gather(int n, const int *idx, const float *a, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a[idx[i]];
}

// A scatter into the array it also reads directly: the write is the whole
// allocation, and nothing proves it apart from the read, so the class is
// unknown (never idempotent or conditional).
// CHECK:      kernel scatter_add(int, int const*, float*)
// CHECK:      class:  unknown -- reads and writes of 'a' may overlap (not proven apart)
// CHECK:      #2 a : ptr  RW
// CHECK-NEXT:     read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT:     write: whole allocation (index depends on a value loaded from memory)
__global__ void scatter_add(int n, const int *idx, float *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[idx[i]] = a[i] + 1.0f;
}

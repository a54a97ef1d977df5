// An index computed from a loaded value is bounded by what is applied to it:
// a right shift or mask (SCEV's range of the machine value), or an unsigned
// remainder by a parameter or a constant (x - (x /u m) * m, m >= 1). A
// loaded value used as it is, or only clamped from above, stays unbounded.
// RUN: %gmem-analyze %s | FileCheck %s
// CHECK-LABEL: kernel bucket_of_hash
// CHECK: #1 tab : ptr  R
// CHECK-NEXT: read:  [-512, 4096)
// CHECK-LABEL: kernel bucket_mod
// CHECK: #1 tab : ptr  R
// CHECK-NEXT: read:  [0, 4*m) U [0, 400)
// CHECK-LABEL: kernel raw_index
// CHECK: #1 tab : ptr  R
// CHECK-NEXT: read:  whole allocation (index depends on a value loaded from memory)
__global__ void bucket_of_hash(float *out, const float *tab, const unsigned *h, const int *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tab[h[i] >> 22] + tab[s[i] >> 24];
}
__global__ void bucket_mod(float *out, const float *tab, const unsigned *h, int n, unsigned m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tab[h[i] % m] + tab[h[i] % 100u];
}
__global__ void raw_index(float *out, const float *tab, const int *h, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = tab[h[i] < v ? h[i] : v - 1];
}

// Each arm of a select is bounded under its side of the condition: the
// border clamp `t < 0 ? 0 : (t < v ? t : v - 1)` of a loaded t bounds the
// read by [0, v - 1] (the hull with v - 1 itself covers v <= 0). And a
// "not found" fix-up `idx == -1 ? n - 1 : idx` must not read the constant
// -1 as unsigned (it once failed a launch check and gave the whole
// allocation).
// RUN: %gmem-analyze %s | FileCheck %s
// CHECK-LABEL: kernel clamped_lookup
// CHECK: #1 tab : ptr  R
// CHECK-NEXT: read:  [4*min(v - 1, 0), 4*max(v - 1, 0) + 4)
// CHECK-LABEL: kernel first_at_least
// CHECK: #1 vals : ptr  R
// CHECK-NEXT: read:  [8*min(max(1, n) - 1, -1), 8*max(n - 1, -1) + 8)
__global__ void clamped_lookup(float *out, const float *tab, const int *h, int n, int v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int t = h[i];
    out[i] = tab[t < 0 ? 0 : (t < v ? t : v - 1)];
  }
}
__global__ void first_at_least(double *out, const double *vals, const double *cdf, const double *u,
                               int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int idx = -1;
  for (int x = 0; x < n; ++x)
    if (cdf[x] >= u[i]) {
      idx = x;
      break;
    }
  if (idx == -1)
    idx = n - 1;
  out[i] = vals[idx];
}

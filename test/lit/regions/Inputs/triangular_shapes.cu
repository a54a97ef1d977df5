// Kernels for triangular_exhaustive.test: loops whose start or trip count
// depends on the thread, with and without a guard, signed and unsigned.
// touched_bytes.py holds a Python model of each; keep the two in step.
#define GID (blockIdx.x * blockDim.x + threadIdx.x)

__global__ void tri(int m, float *a) {
  int j1 = GID;
  if (j1 < m - 1)
    for (int j2 = j1 + 1; j2 < m; j2++) a[j1 * m + j2] = 0;
}
__global__ void tri_noguard(int m, float *a) {
  int j1 = GID;
  for (int j2 = j1 + 1; j2 < m; j2++) a[j1 * m + j2] = 0;
}
__global__ void tri_col(int m, float *a) {
  int j1 = GID;
  if (j1 < m - 1)
    for (int j2 = j1 + 1; j2 < m; j2++) a[j2 * m + j1] = 0;
}
__global__ void tri_stride(int m, int ld, float *a) {
  int j1 = GID;
  if (j1 < m - 3)
    for (int j2 = j1 + 3; j2 < m; j2 += 2) a[j1 * ld + j2] = 0;
}
__global__ void tri_down(int m, float *a) {
  int j1 = GID;
  if (j1 < m)
    for (int j2 = m - 1; j2 > j1; j2--) a[j1 * m + j2] = 0;
}
__global__ void tri_seq(int m, float *a) {
  if (GID == 0)
    for (int i = 0; i < m; i++)
      for (int j = i + 1; j < m; j++) a[i * m + j] = 0;
}
__global__ void tri_unsigned(unsigned m, float *a) {
  unsigned j1 = GID;
  if (j1 + 1 < m)
    for (unsigned j2 = j1 + 1; j2 < m; j2++) a[j1 * m + j2] = 0;
}
__global__ void tri_offset(int m, int off, float *a) {
  int j1 = GID + off;
  if (j1 < m - 1)
    for (int j2 = j1 + 1; j2 < m; j2++) a[j1 * m + j2] = 0;
}
__global__ void tri_long(int m, float *a) {
  int j1 = GID;
  if (j1 < m - 1)
    for (int j2 = j1 + 1; j2 < m; j2++) a[(long)j1 * m + j2] = 0;
}
__global__ void rev_offset(int n, float *a) {
  int i = GID;
  if (i + 1 < n) a[n - 2 - i] = 0;
}
__global__ void rev_loop(int n, float *a) {
  int i = GID;
  if (i < n)
    for (int k = 0; k < n - i; k++) a[n - 1 - i - k] = 0;
}
// Threads j1 > k0 see a huge unsigned trip count and do run (3000 times):
// a bound that took their trip count as 0 would end at a[k0 - 1].
__global__ void wrap_trip(unsigned k0, float *a) {
  unsigned j1 = GID;
  unsigned k = k0 - j1;
  if (j1 < 64)
    for (unsigned i = 0; i != k && i < 3000; i++) a[i] = 0;
}
__global__ void guarded_trip(int k0, float *a) {
  int j1 = GID;
  if (j1 < k0)
    for (int i = 0; i < k0 - j1; i++) a[j1 * 64 + i] = 0;
}
__global__ void corr(int m, int n, float *symmat, const float *data) {
  int j1 = GID;
  if (j1 < m - 1) {
    symmat[j1 * m + j1] = 1.0f;
    for (int j2 = j1 + 1; j2 < m; j2++) {
      float s = 0.0f;
      for (int i = 0; i < n; i++) s += data[i * m + j1] * data[i * m + j2];
      symmat[j1 * m + j2] = s;
      symmat[j2 * m + j1] = s;
    }
  }
}

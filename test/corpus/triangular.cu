// Triangular loops whose start is the thread's index: PolyBench/GPU CORR's
// last kernel (the correlation matrix: each thread j1 < m - 1 sets its
// diagonal entry and fills row j1 right of it and column j1 below it), and
// the bare upper-triangle fill. Threads past the guard never enter the
// loop, and the grid covers more (grid*block > m) or fewer rows than m.

// symmat[j1][j2] = symmat[j2][j1] = sum over i of data[i][j1] * data[i][j2]
// for j2 > j1; data is n x m, symmat m x m, both row-major.
// GMEM-EXPECT: corr_symmat conditional
// GMEM-RUN: corr_symmat grid=2 block=128 args=i32:200 i32:64 buf:f32:40000:zero buf:f32:12800:rand
// GMEM-RUN: corr_symmat grid=1 block=64 args=i32:200 i32:64 buf:f32:40000:zero buf:f32:12800:rand
// GMEM-RUN: corr_symmat grid=4 block=32 args=i32:2 i32:3 buf:f32:4:zero buf:f32:6:rand
__global__ void corr_symmat(int m, int n, float *symmat, const float *data) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m - 1) {
    symmat[j1 * m + j1] = 1.0f;
    for (int j2 = j1 + 1; j2 < m; j2++) {
      float s = 0.0f;
      for (int i = 0; i < n; i++)
        s += data[i * m + j1] * data[i * m + j2];
      symmat[j1 * m + j2] = s;
      symmat[j2 * m + j1] = s;
    }
  }
}

// Clears the strict upper triangle of an m x m matrix, row j1 per thread.
// GMEM-EXPECT: triu_clear idempotent
// GMEM-RUN: triu_clear grid=3 block=128 args=i32:300 buf:f32:90000:rand
// GMEM-RUN: triu_clear grid=2 block=64 args=i32:300 buf:f32:90000:rand
__global__ void triu_clear(int m, float *a) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m - 1)
    for (int j2 = j1 + 1; j2 < m; j2++)
      a[j1 * m + j2] = 0.0f;
}

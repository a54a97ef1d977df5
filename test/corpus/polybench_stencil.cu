// PolyBench/GPU stencil-like kernels not covered elsewhere: FDTD-2D's three
// field updates (ey with row 0 set from the _fict_ source, ex, hz), ADI's
// row sweeps (one thread walks a row, each step depending on the previous
// one, in place), DOITGEN (sum over s into a temporary, then copied back;
// also fused in one kernel) and a 2DCONV variant whose nine coefficients
// are kernel arguments and which also clears the border. Row-major.

// FDTD-2D, ey update (ey and hz nx x ny): row 0 takes the source value
// fict[t], the other rows are updated in place from hz.
// GMEM-EXPECT: fdtd_step1 non-idempotent
// GMEM-RUN: fdtd_step1 grid=4,16 block=32,8 args=i32:128 i32:128 i32:3 buf:f32:64:rand buf:f32:16384:rand buf:f32:16384:rand
__global__ void fdtd_step1(int nx, int ny, int t, const float *fict, float *ey, const float *hz) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny) {
    if (i == 0)
      ey[j] = fict[t];
    else
      ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
  }
}

// FDTD-2D, ex update (ex nx x (ny + 1), hz nx x ny), columns 1 .. ny - 1.
// GMEM-EXPECT: fdtd_step2 non-idempotent
// GMEM-RUN: fdtd_step2 grid=4,16 block=32,8 args=i32:128 i32:128 buf:f32:16512:rand buf:f32:16384:rand
__global__ void fdtd_step2(int nx, int ny, float *ex, const float *hz) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j > 0 && j < ny)
    ex[i * (ny + 1) + j] = ex[i * (ny + 1) + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
}

// FDTD-2D, hz update from ex (nx x (ny + 1)) and ey ((nx + 1) x ny).
// GMEM-EXPECT: fdtd_step3 non-idempotent
// GMEM-RUN: fdtd_step3 grid=4,16 block=32,8 args=i32:128 i32:128 buf:f32:16512:rand buf:f32:16512:rand buf:f32:16384:rand
__global__ void fdtd_step3(int nx, int ny, const float *ex, const float *ey, float *hz) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny)
    hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * (ny + 1) + (j + 1)] - ex[i * (ny + 1) + j] +
                                              ey[(i + 1) * ny + j] - ey[i * ny + j]);
}

// ADI, forward row sweep: thread i walks row i of X and B (n x n) left to
// right; each step uses the value the previous step just wrote.
// GMEM-EXPECT: adi_row_forward non-idempotent
// GMEM-RUN: adi_row_forward grid=1 block=128 args=i32:128 buf:f32:16384:rand buf:f32:16384:const:4.0 buf:f32:16384:rand
// GMEM-RUN: adi_row_forward grid=3 block=32 args=i32:70 buf:f32:4900:rand buf:f32:4900:const:4.0 buf:f32:4900:rand
__global__ void adi_row_forward(int n, const float *A, float *B, float *X) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 1; j < n; ++j) {
      X[i * n + j] = X[i * n + j] - X[i * n + j - 1] * A[i * n + j] / B[i * n + j - 1];
      B[i * n + j] = B[i * n + j] - A[i * n + j] * A[i * n + j] / B[i * n + j - 1];
    }
  }
}

// ADI, backward row sweep: thread i walks row i of X right to left from
// column n - 2, reading the column to its left.
// GMEM-EXPECT: adi_row_backward non-idempotent
// GMEM-RUN: adi_row_backward grid=1 block=128 args=i32:128 buf:f32:16384:rand buf:f32:16384:const:4.0 buf:f32:16384:rand
__global__ void adi_row_backward(int n, const float *A, const float *B, float *X) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n - 2; ++j) {
      int c = n - 2 - j;
      X[i * n + c] = (X[i * n + c] - X[i * n + c - 1] * A[i * n + c - 1]) / B[i * n + c - 1];
    }
  }
}

// DOITGEN for one r: sum[r][q][p] = sum over s of A[r][q][s] * C4[s][p]
// (A and sum nr x nq x np, C4 np x np), accumulated in global memory by
// the thread that owns the entry after clearing it.
// GMEM-EXPECT: doitgen_sum conditional
// GMEM-RUN: doitgen_sum grid=2,8 block=32,8 args=i32:16 i32:64 i32:64 i32:5 buf:f32:65536:rand buf:f32:4096:rand buf:f32:65536:rand
// GMEM-RUN: doitgen_sum grid=1,3 block=32,8 args=i32:4 i32:20 i32:30 i32:3 buf:f32:2400:rand buf:f32:900:rand buf:f32:2400:zero
__global__ void doitgen_sum(int nr, int nq, int np, int r, const float *A, const float *C4, float *sum) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  int q = blockIdx.y * blockDim.y + threadIdx.y;
  if (p < np && q < nq) {
    int row = (r * nq + q) * np;
    sum[row + p] = 0.0f;
    for (int s = 0; s < np; ++s)
      sum[row + p] += A[row + s] * C4[s * np + p];
  }
}

// DOITGEN for one r: A[r][q][p] = sum[r][q][p].
// GMEM-EXPECT: doitgen_copy conditional
// GMEM-RUN: doitgen_copy grid=2,8 block=32,8 args=i32:16 i32:64 i32:64 i32:5 buf:f32:65536:rand buf:f32:65536:rand
__global__ void doitgen_copy(int nr, int nq, int np, int r, const float *sum, float *A) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  int q = blockIdx.y * blockDim.y + threadIdx.y;
  if (p < np && q < nq)
    A[(r * nq + q) * np + p] = sum[(r * nq + q) * np + p];
}

// DOITGEN fused: thread (r, q) computes its whole row of sums into the
// temporary and then copies the row back over A's row, which it read.
// Non-idempotent in truth; expected `unknown` because the reads (index s)
// and writes (index p) of A sit in different loops, so the analysis sees
// overlapping ranges but no read-modify-write of one offset.
// GMEM-EXPECT: doitgen_fused unknown
// GMEM-RUN: doitgen_fused grid=2,4 block=32,4 args=i32:16 i32:64 i32:32 buf:f32:32768:rand buf:f32:1024:rand buf:f32:32768:zero
__global__ void doitgen_fused(int nr, int nq, int np, float *A, const float *C4, float *sum) {
  int q = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < nr && q < nq) {
    int row = (r * nq + q) * np;
    for (int p = 0; p < np; ++p) {
      float acc = 0.0f;
      for (int s = 0; s < np; ++s)
        acc += A[row + s] * C4[s * np + p];
      sum[row + p] = acc;
    }
    for (int p = 0; p < np; ++p)
      A[row + p] = sum[row + p];
  }
}

// 2DCONV with the nine coefficients passed by value; interior points get
// the 3x3 weighted sum of A, border points of B are cleared.
// GMEM-EXPECT: conv2d_coeffs conditional
// GMEM-RUN: conv2d_coeffs grid=8,40 block=32,8 args=i32:320 i32:250 f32:0.2 f32:0.5 f32:-0.8 f32:-0.3 f32:0.6 f32:-0.9 f32:0.4 f32:0.7 f32:0.1 buf:f32:80000:rand buf:f32:80000:rand
// GMEM-RUN: conv2d_coeffs grid=1,1 block=32,8 args=i32:5 i32:3 f32:0.2 f32:0.5 f32:-0.8 f32:-0.3 f32:0.6 f32:-0.9 f32:0.4 f32:0.7 f32:0.1 buf:f32:15:rand buf:f32:15:rand
__global__ void conv2d_coeffs(int ni, int nj, float c11, float c12, float c13, float c21, float c22, float c23,
                              float c31, float c32, float c33, const float *A, float *B) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= ni || j >= nj) return;
  if (i == 0 || j == 0 || i == ni - 1 || j == nj - 1) {
    B[i * nj + j] = 0.0f;
    return;
  }
  B[i * nj + j] = c11 * A[(i - 1) * nj + (j - 1)] + c12 * A[(i - 1) * nj + j] + c13 * A[(i - 1) * nj + (j + 1)] +
                  c21 * A[i * nj + (j - 1)] + c22 * A[i * nj + j] + c23 * A[i * nj + (j + 1)] +
                  c31 * A[(i + 1) * nj + (j - 1)] + c32 * A[(i + 1) * nj + j] + c33 * A[(i + 1) * nj + (j + 1)];
}

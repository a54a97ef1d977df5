// PolyBench/GPU linear-algebra kernels not covered elsewhere: 2MM and 3MM
// (chained matrix products, one kernel per product), SYRK and SYR2K (lower
// triangle only, j <= i, updated in place), COVARIANCE's three kernels
// (column means, centring the data in place, the symmetric covariance
// matrix) and GRAMSCHMIDT's kernels (column norm by one thread, column
// scaling, projection update). All matrices are row-major.

// 2MM, first product: tmp = alpha * A * B (A ni x nk, B nk x nj), sum kept
// in a register.
// GMEM-EXPECT: mm2_kernel1 conditional
// GMEM-RUN: mm2_kernel1 grid=3,16 block=32,8 args=i32:128 i32:96 i32:64 f32:1.5 buf:f32:8192:rand buf:f32:6144:rand buf:f32:12288:zero
// GMEM-RUN: mm2_kernel1 grid=3,13 block=32,8 args=i32:100 i32:70 i32:33 f32:0.5 buf:f32:3300:rand buf:f32:2310:rand buf:f32:7000:rand
__global__ void mm2_kernel1(int ni, int nj, int nk, float alpha, const float *A, const float *B, float *tmp) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    float acc = 0.0f;
    for (int k = 0; k < nk; ++k)
      acc += A[i * nk + k] * B[k * nj + j];
    tmp[i * nj + j] = alpha * acc;
  }
}

// 2MM, second product: D = beta * D + tmp * C (tmp ni x nj, C nj x nl,
// D ni x nl); D is scaled and accumulated in place.
// GMEM-EXPECT: mm2_kernel2 non-idempotent
// GMEM-RUN: mm2_kernel2 grid=2,16 block=32,8 args=i32:128 i32:64 i32:96 f32:1.2 buf:f32:12288:rand buf:f32:6144:rand buf:f32:8192:rand
__global__ void mm2_kernel2(int ni, int nl, int nj, float beta, const float *tmp, const float *C, float *D) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nl) {
    D[i * nl + j] *= beta;
    for (int k = 0; k < nj; ++k)
      D[i * nl + j] += tmp[i * nj + k] * C[k * nl + j];
  }
}

// 3MM, first product E = A * B (A ni x nk, B nk x nj): E[i][j] is cleared
// and then accumulated in global memory by the thread that owns it, so the
// reads of E only see the thread's own writes.
// GMEM-EXPECT: mm3_kernel1 conditional
// GMEM-RUN: mm3_kernel1 grid=4,8 block=32,8 args=i32:64 i32:128 i32:48 buf:f32:3072:rand buf:f32:6144:rand buf:f32:8192:rand
// GMEM-RUN: mm3_kernel1 grid=2,9 block=32,8 args=i32:65 i32:50 i32:7 buf:f32:455:rand buf:f32:350:rand buf:f32:3250:rand
__global__ void mm3_kernel1(int ni, int nj, int nk, const float *A, const float *B, float *E) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    E[i * nj + j] = 0.0f;
    for (int k = 0; k < nk; ++k)
      E[i * nj + j] += A[i * nk + k] * B[k * nj + j];
  }
}

// 3MM, last product G = E * F (E ni x nj, F nj x nl) over a 1-D grid: the
// flat output index is split into row and column by division.
// GMEM-EXPECT: mm3_kernel3 conditional
// GMEM-RUN: mm3_kernel3 grid=40 block=256 args=i32:80 i32:48 i32:128 buf:f32:3840:rand buf:f32:6144:rand buf:f32:10240:zero
// GMEM-RUN: mm3_kernel3 grid=8 block=128 args=i32:31 i32:9 i32:29 buf:f32:279:rand buf:f32:261:rand buf:f32:899:zero
__global__ void mm3_kernel3(int ni, int nj, int nl, const float *E, const float *F, float *G) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < ni * nl) {
    int i = idx / nl;
    int j = idx - i * nl;
    float acc = 0.0f;
    for (int k = 0; k < nj; ++k)
      acc += E[i * nj + k] * F[k * nl + j];
    G[idx] = acc;
  }
}

// SYRK on the lower triangle: C = beta * C + alpha * A * A^T for j <= i
// (A n x m, C n x n).
// GMEM-EXPECT: syrk_lower non-idempotent
// GMEM-RUN: syrk_lower grid=4,16 block=32,8 args=i32:128 i32:64 f32:1.5 f32:1.2 buf:f32:8192:rand buf:f32:16384:rand
__global__ void syrk_lower(int n, int m, float alpha, float beta, const float *A, float *C) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j <= i) {
    float acc = 0.0f;
    for (int k = 0; k < m; ++k)
      acc += A[i * m + k] * A[j * m + k];
    C[i * n + j] = beta * C[i * n + j] + alpha * acc;
  }
}

// SYR2K on the lower triangle: C = beta * C + alpha * (A B^T + B A^T) for
// j <= i (A, B n x m, C n x n), accumulated in C.
// GMEM-EXPECT: syr2k_lower non-idempotent
// GMEM-RUN: syr2k_lower grid=3,12 block=32,8 args=i32:96 i32:40 f32:0.7 f32:1.1 buf:f32:3840:rand buf:f32:3840:rand buf:f32:9216:rand
__global__ void syr2k_lower(int n, int m, float alpha, float beta, const float *A, const float *B, float *C) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j <= i) {
    C[i * n + j] *= beta;
    for (int k = 0; k < m; ++k)
      C[i * n + j] += alpha * A[i * m + k] * B[j * m + k] + alpha * B[i * m + k] * A[j * m + k];
  }
}

// COVARIANCE, column means of data (n rows x m columns); the mean is
// cleared, accumulated and divided in global memory by its own thread.
// GMEM-EXPECT: covar_mean conditional
// GMEM-RUN: covar_mean grid=1 block=256 args=i32:200 i32:150 f32:150.0 buf:f32:30000:rand buf:f32:200:rand
// GMEM-RUN: covar_mean grid=3 block=64 args=i32:130 i32:20 f32:20.0 buf:f32:2600:rand buf:f32:192:rand
__global__ void covar_mean(int m, int n, float float_n, const float *data, float *mean) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    mean[j] = 0.0f;
    for (int i = 0; i < n; ++i)
      mean[j] += data[i * m + j];
    mean[j] /= float_n;
  }
}

// COVARIANCE, centring: data[i][j] -= mean[j], in place.
// GMEM-EXPECT: covar_center non-idempotent
// GMEM-RUN: covar_center grid=7,19 block=32,8 args=i32:200 i32:150 buf:f32:200:rand buf:f32:30000:rand
__global__ void covar_center(int m, int n, const float *mean, float *data) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < m)
    data[i * m + j] -= mean[j];
}

// COVARIANCE, symmetric matrix: thread j1 fills row j1 from the diagonal
// rightwards, accumulating in symmat, and mirrors each entry into column
// j1 by reading it back. Every entry is written by one thread only, and
// the reads of symmat only see that thread's own writes.
// GMEM-EXPECT: covar_symmat conditional
// GMEM-RUN: covar_symmat grid=1 block=256 args=i32:200 i32:150 buf:f32:30000:rand buf:f32:40000:rand
// GMEM-RUN: covar_symmat grid=2 block=32 args=i32:100 i32:10 buf:f32:1000:rand buf:f32:10000:rand
__global__ void covar_symmat(int m, int n, const float *data, float *symmat) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 < m) {
    for (int j2 = j1; j2 < m; ++j2) {
      symmat[j1 * m + j2] = 0.0f;
      for (int i = 0; i < n; ++i)
        symmat[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
      symmat[j2 * m + j1] = symmat[j1 * m + j2];
    }
  }
}

// GRAMSCHMIDT, norm of column k, computed by thread 0 alone:
// R[k][k] = sqrt(sum_i A[i][k]^2) (A ni x nj, R nj x nj). With R == A the
// entry written, A[k][k], is one thread 0 also reads.
// GMEM-EXPECT: gramschmidt_kernel1 conditional
// GMEM-RUN: gramschmidt_kernel1 grid=1 block=256 args=i32:128 i32:96 i32:5 buf:f32:12288:rand buf:f32:9216:zero
// GMEM-RUN: gramschmidt_kernel1 grid=2 block=1 args=i32:50 i32:40 i32:39 buf:f32:2000:rand buf:f32:1600:rand
// GMEM-RUN: gramschmidt_kernel1 grid=1 block=64 args=i32:128 i32:96 i32:5 buf:f32:12288:rand ptr:3+0
__global__ void gramschmidt_kernel1(int ni, int nj, int k, const float *A, float *R) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid == 0) {
    float nrm = 0.0f;
    for (int i = 0; i < ni; ++i)
      nrm += A[i * nj + k] * A[i * nj + k];
    R[k * nj + k] = sqrtf(nrm);
  }
}

// GRAMSCHMIDT, Q[i][k] = A[i][k] / R[k][k]. With Q == A thread i divides
// its own A[i][k] again on a re-run.
// GMEM-EXPECT: gramschmidt_kernel2 conditional
// GMEM-RUN: gramschmidt_kernel2 grid=1 block=128 args=i32:128 i32:96 i32:5 buf:f32:12288:rand buf:f32:9216:const:2.0 buf:f32:12288:zero
// GMEM-RUN: gramschmidt_kernel2 grid=1 block=128 args=i32:128 i32:96 i32:5 buf:f32:12288:rand buf:f32:9216:const:2.0 ptr:3+0
__global__ void gramschmidt_kernel2(int ni, int nj, int k, const float *A, const float *R, float *Q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < ni)
    Q[i * nj + k] = A[i * nj + k] / R[k * nj + k];
}

// GRAMSCHMIDT, projection: for each column j > k, R[k][j] = Q[:,k] . A[:,j]
// (accumulated in R) and A[:,j] -= Q[:,k] * R[k][j], in place.
// GMEM-EXPECT: gramschmidt_kernel3 non-idempotent
// GMEM-RUN: gramschmidt_kernel3 grid=1 block=128 args=i32:128 i32:96 i32:5 buf:f32:12288:rand buf:f32:9216:zero buf:f32:12288:rand
__global__ void gramschmidt_kernel3(int ni, int nj, int k, float *A, float *R, const float *Q) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j > k && j < nj) {
    R[k * nj + j] = 0.0f;
    for (int i = 0; i < ni; ++i)
      R[k * nj + j] += Q[i * nj + k] * A[i * nj + j];
    for (int i = 0; i < ni; ++i)
      A[i * nj + j] -= Q[i * nj + k] * R[k * nj + j];
  }
}

// Sparse matrix-vector product y = A x: CSR scalar kernel (one thread per
// row, as in Bell & Garland / SHOC spmv) and ELLPACK (column-major padded
// storage, as in cuSPARSE/Parboil-style ELL kernels; col < 0 marks padding).

// GMEM-EXPECT: spmv_csr_scalar conditional
// GMEM-RUN: spmv_csr_scalar grid=391 block=256 args=i32:100000 buf:i32:100001:iota buf:i32:100000:randint:0:50000 buf:f32:100000:rand buf:f32:50000:rand buf:f32:100000:zero
__global__ void spmv_csr_scalar(int num_rows, const int *row_ptr, const int *col_idx,
                                const float *vals, const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < num_rows) {
    float dot = 0.0f;
    int start = row_ptr[row];
    int end = row_ptr[row + 1];
    for (int jj = start; jj < end; jj++)
      dot += vals[jj] * x[col_idx[jj]];
    y[row] = dot;
  }
}

// GMEM-EXPECT: spmv_ell conditional
// GMEM-RUN: spmv_ell grid=128 block=256 args=i32:32768 i32:16 buf:i32:524288:randint:0:32768 buf:f32:524288:rand buf:f32:32768:rand buf:f32:32768:zero
__global__ void spmv_ell(int num_rows, int max_cols, const int *col_idx, const float *vals,
                         const float *x, float *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < num_rows) {
    float dot = 0.0f;
    for (int k = 0; k < max_cols; k++) {
      int c = col_idx[k * num_rows + row];
      if (c >= 0) dot += vals[k * num_rows + row] * x[c];
    }
    y[row] = dot;
  }
}

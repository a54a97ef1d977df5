// Caffe's im2col_gpu_kernel: unfold image patches into columns for a
// GEMM-based convolution.  n = channels * height_col * width_col.

// GMEM-EXPECT: im2col conditional
// GMEM-RUN: im2col grid=64 block=256 args=i32:16384 buf:f32:16384:rand i32:32 i32:32 i32:3 i32:1 i32:1 i32:32 i32:32 buf:f32:147456:zero
__global__ void im2col(int n, const float *data_im, int height, int width, int ksize, int pad,
                       int stride, int height_col, int width_col, float *data_col) {
  for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < n; index += blockDim.x * gridDim.x) {
    int w_out = index % width_col;
    int h_index = index / width_col;
    int h_out = h_index % height_col;
    int channel_in = h_index / height_col;
    int channel_out = channel_in * ksize * ksize;
    int h_in = h_out * stride - pad;
    int w_in = w_out * stride - pad;
    float *col_ptr = data_col + (channel_out * height_col + h_out) * width_col + w_out;
    for (int i = 0; i < ksize; ++i) {
      for (int j = 0; j < ksize; ++j) {
        int h = h_in + i;
        int w = w_in + j;
        *col_ptr = (h >= 0 && w >= 0 && h < height && w < width)
                       ? data_im[(channel_in * height + h) * width + w]
                       : 0.0f;
        col_ptr += height_col * width_col;
      }
    }
  }
}

// Loop nests whose trip counts are kernel arguments, the shapes the
// checkpoint pass copies for short entries (CheckpointLoopNest.cpp): a
// direct convolution with a runtime filter size (cuDNN's reference
// "implicit" loop order), a search nest left through a goto, and a nest
// whose inner bound grows with the outer index (not copied).

// out[n][k] = sum over c, r, s of in[n][c][r][s] * w[k][c][r][s]
// GMEM-EXPECT: conv_direct conditional
// GMEM-RUN: conv_direct grid=16 block=128 args=buf:f32:73728:rand buf:f32:288:rand buf:f32:16384:zero i32:2048 i32:4 i32:8 i32:3 i32:3
// GMEM-RUN: conv_direct grid=4 block=64 args=buf:f32:102400:rand buf:f32:4000:rand buf:f32:2560:zero i32:256 i32:16 i32:10 i32:5 i32:5
__global__ void conv_direct(const float *in, const float *w, float *out, int N, int C, int K, int R,
                            int S) {
  int n = blockIdx.x * blockDim.x + threadIdx.x;
  if (n >= N) return;
  for (int k = 0; k < K; ++k) {
    float acc = 0.f;
    for (int c = 0; c < C; ++c)
      for (int r = 0; r < R; ++r)
        for (int s = 0; s < S; ++s)
          acc += in[((n * C + c) * R + r) * S + s] * w[((k * C + c) * R + r) * S + s];
    out[n * K + k] = acc;
  }
}

// First column j of each row i holding one of the values 7..10; -1 if none.
// GMEM-EXPECT: first_match conditional
// GMEM-RUN: first_match grid=8 block=128 args=buf:i32:65536:randint:0:200 buf:i32:4096:zero i32:4096 i32:16
__global__ void first_match(const int *a, int *out, int n, int m) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int found = -1;
    for (int j = 0; j < m; ++j)
      for (int q = 0; q < 4; ++q)
        if (a[i * m + j] == q + 7) {
          found = j;
          goto done;
        }
  done:
    out[i] = found;
  }
}

// Row i of a lower-triangular sum: out[i][j] = sum of a[i][0..j].
// GMEM-EXPECT: prefix_rows conditional
// GMEM-RUN: prefix_rows grid=8 block=64 args=buf:f32:32768:rand buf:f32:32768:zero i32:512 i32:64
__global__ void prefix_rows(const float *a, float *out, int n, int m) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    for (int j = 0; j < m; ++j) {
      float s = 0.f;
      for (int l = 0; l <= j; ++l)
        s += a[i * m + l];
      out[i * m + j] = s;
    }
}

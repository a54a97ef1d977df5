// Tensor layout changes and column reductions of transformer training code
// (llm.c-style attention permutes, PyTorch channels-last conversion, the
// bias gradient of a linear layer): flat indices split into coordinates by
// division and remainder by launch sizes, and column walks whose row stride
// is a parameter.

// Coordinates (b, h, n, c) of flat index idx of a (B, NH, N, d) tensor.
__device__ __forceinline__ void split_bhnd(int idx, int N, int NH, int d, int &b, int &h, int &n,
                                           int &c) {
  b = idx / (NH * N * d);
  int rest = idx % (NH * N * d);
  h = rest / (N * d);
  rest %= N * d;
  n = rest / d;
  c = rest % d;
}

// qkv is (B, N, 3, NH, d); q, k and v are (B, NH, N, d). One thread per
// element of q.
// GMEM-EXPECT: attention_permute conditional
// GMEM-RUN: attention_permute grid=32 block=256 args=buf:f32:8192:zero buf:f32:8192:zero buf:f32:8192:zero buf:f32:24576:rand i32:2 i32:32 i32:4 i32:32
// GMEM-RUN: attention_permute grid=7 block=100 args=buf:f32:630:zero buf:f32:630:zero buf:f32:630:zero buf:f32:1890:rand i32:3 i32:7 i32:5 i32:6
__global__ void attention_permute(float *q, float *k, float *v, const float *qkv, int B, int N,
                                  int NH, int d) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= B * NH * N * d)
    return;
  int b, h, n, c;
  split_bhnd(idx, N, NH, d, b, h, n, c);
  int src = ((b * N + n) * 3 * NH + h) * d + c;
  q[idx] = qkv[src];
  k[idx] = qkv[src + NH * d];
  v[idx] = qkv[src + 2 * NH * d];
}

// (B, NH, N, d) back to (B, N, NH, d): the heads' outputs side by side.
// GMEM-EXPECT: attention_unpermute conditional
// GMEM-RUN: attention_unpermute grid=32 block=256 args=buf:f32:8192:zero buf:f32:8192:rand i32:2 i32:32 i32:4 i32:32
// GMEM-RUN: attention_unpermute grid=5 block=128 args=buf:f32:630:zero buf:f32:630:rand i32:3 i32:7 i32:5 i32:6
__global__ void attention_unpermute(float *out, const float *in, int B, int N, int NH, int d) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= B * NH * N * d)
    return;
  int b, h, n, c;
  split_bhnd(idx, N, NH, d, b, h, n, c);
  out[((b * N + n) * NH + h) * d + c] = in[idx];
}

// NCHW -> NHWC over a grid-stride loop.
// GMEM-EXPECT: nchw_to_nhwc conditional
// GMEM-RUN: nchw_to_nhwc grid=16 block=128 args=buf:f32:24576:zero buf:f32:24576:rand i32:2 i32:3 i32:64 i32:64
// GMEM-RUN: nchw_to_nhwc grid=3 block=64 args=buf:f32:1155:zero buf:f32:1155:rand i32:1 i32:5 i32:11 i32:21
__global__ void nchw_to_nhwc(float *out, const float *in, int n, int c, int h, int w) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n * c * h * w;
       i += gridDim.x * blockDim.x) {
    int x = i % w, y = (i / w) % h, ch = (i / (w * h)) % c, img = i / (w * h * c);
    out[((img * h + y) * w + x) * c + ch] = in[i];
  }
}

// dbias[o] = sum over rows of dout[:, o] (rows x oc, row stride oc): one
// block per column, its threads striding down the rows, a shared tree.
// GMEM-EXPECT: bias_grad_columns conditional
// GMEM-RUN: bias_grad_columns grid=96 block=128 args=buf:f32:96:zero buf:f32:49152:rand i32:512 i32:96
// GMEM-RUN: bias_grad_columns grid=10 block=64 args=buf:f32:10:zero buf:f32:300:rand i32:30 i32:10
__global__ void bias_grad_columns(float *dbias, const float *dout, int rows, int oc) {
  __shared__ float part[128];
  int o = blockIdx.x;
  float s = 0.f;
  for (int r = threadIdx.x; r < rows; r += blockDim.x)
    s += dout[r * oc + o];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half)
      part[threadIdx.x] += part[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    dbias[o] = part[0];
}

// Back-propagation layer kernels shaped after Rodinia backprop: the forward
// pass of one layer (each 16x16 block scales a tile of the weight matrix by
// the input units, sums the tile's columns with a shared-memory tree, and
// emits one partial sum per hidden unit and row block) and the weight update
// with momentum.  The weight matrix has (n_in + 1) rows and (n_hid + 1)
// columns; row 0 and column 0 belong to the bias unit.  Launch with
// block=16,16 and grid=n_hid/16,n_in/16.

#define NN_TILE 16
#define NN_ETA 0.3f
#define NN_MOMENTUM 0.3f

// Forward pass that, like the benchmark, stores the scaled tile back into the
// weight matrix in place before the reduction consumes it: a second launch
// scales the weights again.
// GMEM-EXPECT: nn_layerforward non-idempotent
// GMEM-RUN: nn_layerforward grid=4,8 block=16,16 args=buf:f32:129:rand buf:f32:8385:rand buf:f32:512:zero i32:128 i32:64
__global__ void nn_layerforward(const float *units, float *weights, float *partial, int n_in,
                                int n_hid) {
  __shared__ float node[NN_TILE];
  __shared__ float tile[NN_TILE][NN_TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int in_row = blockIdx.y * NN_TILE + ty + 1;
  int hid_col = blockIdx.x * NN_TILE + tx + 1;
  int w = in_row * (n_hid + 1) + hid_col;

  if (tx == 0) node[ty] = units[in_row];
  __syncthreads();
  float scaled = weights[w] * node[ty];
  weights[w] = scaled;
  tile[ty][tx] = scaled;
  __syncthreads();

  // Tree over the rows of the tile: after log2(16) steps row 0 holds the sums.
  for (int step = 1; step <= (int)log2f((float)NN_TILE); ++step) {
    int span = (int)exp2f((float)step);
    if (ty % span == 0) tile[ty][tx] += tile[ty + span / 2][tx];
    __syncthreads();
  }
  // Transposed read of row 0: thread (0, ty) writes hidden unit ty's sum.
  if (tx == 0) partial[blockIdx.y * n_hid + blockIdx.x * NN_TILE + ty] = tile[0][ty];
}

// Same reduction without the in-place store: the weights are only read.
// GMEM-EXPECT: nn_layerforward_ro conditional
// GMEM-RUN: nn_layerforward_ro grid=4,8 block=16,16 args=buf:f32:129:rand buf:f32:8385:rand buf:f32:512:zero i32:128 i32:64
__global__ void nn_layerforward_ro(const float *units, const float *weights, float *partial,
                                   int n_in, int n_hid) {
  __shared__ float node[NN_TILE];
  __shared__ float tile[NN_TILE][NN_TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int in_row = blockIdx.y * NN_TILE + ty + 1;
  int hid_col = blockIdx.x * NN_TILE + tx + 1;

  if (tx == 0) node[ty] = units[in_row];
  __syncthreads();
  tile[ty][tx] = weights[in_row * (n_hid + 1) + hid_col] * node[ty];
  __syncthreads();
  for (int half = NN_TILE / 2; half > 0; half >>= 1) {
    if (ty < half) tile[ty][tx] += tile[ty + half][tx];
    __syncthreads();
  }
  if (ty == 0) partial[blockIdx.y * n_hid + hid_col - 1] = tile[0][tx];
}

// w += eta * delta * ly + momentum * oldw; oldw = that same change.  Row 0
// (the bias weights) is updated by the threads of row block 0 with ty == 0.
// GMEM-EXPECT: nn_adjust_weights non-idempotent
// GMEM-RUN: nn_adjust_weights grid=4,8 block=16,16 args=buf:f32:65:rand buf:f32:129:rand buf:f32:8385:rand buf:f32:8385:rand i32:128 i32:64
__global__ void nn_adjust_weights(const float *delta, const float *ly, float *w, float *oldw,
                                  int n_in, int n_hid) {
  int tx = threadIdx.x, ty = threadIdx.y;
  int j = blockIdx.x * NN_TILE + tx + 1;  // hidden unit
  int k = blockIdx.y * NN_TILE + ty + 1;  // input unit
  int idx = k * (n_hid + 1) + j;

  float dw = NN_ETA * delta[j] * ly[k] + NN_MOMENTUM * oldw[idx];
  w[idx] += dw;
  oldw[idx] = dw;
  __syncthreads();
  if (ty == 0 && blockIdx.y == 0) {
    float db = NN_ETA * delta[j] + NN_MOMENTUM * oldw[j];
    w[j] += db;
    oldw[j] = db;
  }
}

// Out-of-place variant: the new weights and the new momentum terms go to
// separate arrays.  Aliasing w_new with w (each element read and written by
// the same thread) makes a second launch add the change once more.
// GMEM-EXPECT: nn_adjust_weights_split conditional
// GMEM-RUN: nn_adjust_weights_split grid=4,8 block=16,16 args=buf:f32:65:rand buf:f32:129:rand buf:f32:8385:rand buf:f32:8385:rand buf:f32:8385:zero buf:f32:8385:zero i32:128 i32:64
// GMEM-RUN: nn_adjust_weights_split grid=4,8 block=16,16 args=buf:f32:65:rand buf:f32:129:rand buf:f32:8385:rand buf:f32:8385:rand ptr:2+0 buf:f32:8385:zero i32:128 i32:64
__global__ void nn_adjust_weights_split(const float *delta, const float *ly, const float *w,
                                        const float *oldw, float *w_new, float *oldw_new,
                                        int n_in, int n_hid) {
  int j = blockIdx.x * NN_TILE + threadIdx.x + 1;
  int k = blockIdx.y * NN_TILE + threadIdx.y + 1;
  if (j > n_hid || k > n_in) return;
  int idx = k * (n_hid + 1) + j;
  float dw = NN_ETA * delta[j] * ly[k] + NN_MOMENTUM * oldw[idx];
  w_new[idx] = w[idx] + dw;
  oldw_new[idx] = dw;
}

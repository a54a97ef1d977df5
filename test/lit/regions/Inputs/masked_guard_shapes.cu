// Range tests on a thread index in the forms LLVM leaves them in:
// `t >= 32 && t < 64` becomes `(t & 992) == 32` (an aligned block below
// the index's 1024 range), `lane == 0` becomes `(t & 31) == 0`, and an
// else-if after `t < 32` leaves `t >=u 32` (a machine value below 2^31,
// so its signed reading is the unsigned one). Warp-specialized kernels
// write with `t - 32` as the consumer warp's lane.

__global__ void second_warp(int n, float *out) {
  if (threadIdx.x >= 32 && threadIdx.x < 64)
    out[blockIdx.x * 32 + threadIdx.x - 32] = 2.f;
}

__global__ void else_if_warp(int n, float *out) {
  if (threadIdx.x < 32)
    out[blockIdx.x * 32 + threadIdx.x] = 1.f;
  else if (threadIdx.x < 64)
    out[blockIdx.x * 32 + threadIdx.x - 32] = 2.f;
}

__global__ void tiles_second_warp(int tiles, float *out) {
  for (int t = 0; t < tiles; t++)
    if (threadIdx.x >= 32 && threadIdx.x < 64)
      out[(blockIdx.x * tiles + t) * 32 + threadIdx.x - 32] = 2.f;
}

// Lane 0 of each warp writes its warp's slot; the block of 128 threads
// from 128 on in a wider mask.
__global__ void lane0_slot(int n, float *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if ((threadIdx.x & 31) == 0 && t / 32 < n)
    out[t / 32] = 1.f;
  if ((threadIdx.x & ~127u) == 128)
    out[threadIdx.x - 128] = 3.f;
}

// A kernel with exactly the 48 KB of static shared memory a kernel may
// have: it must build under gmem-clang++ (its clones would not fit, so it
// gets none; test/driver/run_tests.sh).
__global__ void reverse_tile(const float *in, float *out) {
  __shared__ float buf[12288];
  for (int i = threadIdx.x; i < 12288; i += blockDim.x)
    buf[i] = in[blockIdx.x * 12288 + i];
  __syncthreads();
  for (int i = threadIdx.x; i < 12288; i += blockDim.x)
    out[blockIdx.x * 12288 + i] = buf[12287 - i];
}

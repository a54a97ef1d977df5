// Indirect read: in[idx[i]] can be anywhere in `in` -> whole allocation.
__global__ void gather(float *out, const float *in, const int *idx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[idx[i]];
}

// Global atomics read and write the same bins: non-idempotent.
__global__ void histogram(unsigned *bins, const unsigned char *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(&bins[data[i]], 1u);
}

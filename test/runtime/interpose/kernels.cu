// Kernels for libgmemrt's interposition tests (test/runtime/interpose).
// Built to PTX with clang++-19 and the gmem plugin (descriptors embedded) and
// without it (no descriptors); the tests load them into the fake driver
// (test/runtime/fakecuda) and, in the GPU suite, into the real one.

// conditional: idempotent unless C overlaps A or B.
__global__ void vec_add(const float *A, const float *B, float *C, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    C[i] = A[i] + B[i];
}

// non-idempotent: read-modify-write.
__global__ void increment(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] += 1.0f;
}

// Reads a module global, writes an argument.
__device__ float table[256];
__global__ void lookup(const int *idx, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = table[idx[i] & 255];
}

// 2D launch with several pointers: out-of-place scaled copy of a matrix.
__global__ void scale2d(const float *in, float *out, float s, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
    out[r * cols + c] = s * in[r * cols + c];
}

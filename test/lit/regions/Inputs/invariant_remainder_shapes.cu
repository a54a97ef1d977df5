// Remainders of launch values (SymbolicRange::signedDivision): a row pitch
// rounded up to an alignment, as SHOC's Stencil2D and image libraries
// compute it, a signed remainder that may be negative, and a remainder
// whose divisor may be zero or negative at a launch.

// Pitch = n rounded up to a multiple of a: rows of pitched 2-D data.
__global__ void pitch_rows(int n, int a, float *out) {
  int pitch = n + a - 1 - ((n + a - 1) % a);
  int row = blockIdx.x, col = threadIdx.x;
  if (col < n)
    out[row * pitch + col] = 1.0f;
}

// The remainder itself as an offset: its sign is the dividend's.
__global__ void rem_offset(int off, int a, float *out) {
  out[off % a + (int)threadIdx.x] = 1.0f;
}

// A remainder inside a loop's bound and stride (a tail length).
__global__ void rem_tail(int n, int w, float *out) {
  int tail = n % w;
  for (int i = threadIdx.x; i < tail; i += blockDim.x)
    out[n - tail + i] = 2.0f;
}

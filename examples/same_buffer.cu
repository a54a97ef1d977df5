// Reads and writes ONE buffer, at offsets proven disjoint for every launch
// (exact integer reasoning with MLIR's Presburger library): idempotent.
__global__ void shift_copy(float *buf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    buf[i + n] = buf[i];
}

// Reads even elements, writes odd ones: interval hulls overlap, integer
// parity does not. Idempotent.
__global__ void even_to_odd(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[2 * i + 1] = 2.0f * a[2 * i];
}

// A neighbour dependence: thread i writes what thread i+1 reads.
__global__ void smooth_inplace(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1)
    a[i] = 0.5f * (a[i - 1] + a[i + 1]);
}

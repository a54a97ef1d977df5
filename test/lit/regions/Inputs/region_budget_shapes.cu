// Regions whose bounds repeat their operands: nested mins and maxes of a
// `<=` loop from -1 over a row pitch (SHOC Stencil2D's halo rows), 50
// distinct expression nodes in 1,406 tree nodes. Past the tree budget, the
// region is kept if its distinct nodes fit (SymbolicRange::regionOf).

// Rows -1 .. strip of a strip of rows starting at row 1 + blockIdx.x * strip
// (the column's halo included), inlined into each kernel.
__device__ __forceinline__ void strip_sum(int pitch, int strip, const float *data, float *out) {
  int gRow = blockIdx.x * (blockDim.x * strip) + 1;
  int gCol = blockIdx.y * blockDim.x + threadIdx.x + 1;
  float s = 0;
  for (int i = -1; i <= strip; i++)
    s += data[(gRow + i) * pitch + gCol];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// A pitch parameter of either sign.
__global__ void strip_rows(int pitch, int strip, const float *data, float *out) {
  strip_sum(pitch, strip, data, out);
}

// Stencil2D's pitch: the row length rounded up to an alignment (a launch
// value, SymbolicRange::signedDivision).
__global__ void strip_rows_aligned(int align, int strip, const float *data, float *out) {
  int nCols = gridDim.y * blockDim.x + 2;
  strip_sum(nCols + align - 1 - ((nCols + align - 1) % align), strip, data, out);
}

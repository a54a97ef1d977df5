// Device-side memcpy/memset of whole rows (row gathers in data loaders,
// per-row clears, broadcast of a prototype block).

// dst row r = src row rows[r]
// GMEM-EXPECT: gather_rows_memcpy conditional
// GMEM-RUN: gather_rows_memcpy grid=20 block=256 args=buf:f32:64000:rand buf:i32:5000:randint:0:1000 buf:f32:320000:zero i32:5000 i32:64
__global__ void gather_rows_memcpy(const float *src, const int *rows, float *dst, int nrows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < nrows)
    memcpy(dst + (size_t)r * cols, src + (size_t)rows[r] * cols, cols * sizeof(float));
}

// GMEM-EXPECT: clear_rows_memset idempotent
// GMEM-RUN: clear_rows_memset grid=8 block=128 args=buf:f32:128000:rand i32:128 i32:1000
__global__ void clear_rows_memset(float *buf, int cols, int nrows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < nrows) memset(buf + (size_t)r * cols, 0, cols * sizeof(float));
}

// Copies chunk [0, chunk) to chunks 1..ncopies of the same buffer: the read
// and written byte ranges of `buf` are disjoint.
// GMEM-EXPECT: replicate_chunk_memcpy idempotent
// GMEM-RUN: replicate_chunk_memcpy grid=1 block=256 args=buf:f32:262144:rand i32:1024 i32:255
__global__ void replicate_chunk_memcpy(float *buf, int chunk, int ncopies) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < ncopies && chunk > 0)
    memcpy(buf + (size_t)(k + 1) * chunk, buf, chunk * sizeof(float));
}

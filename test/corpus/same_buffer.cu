// Kernels that read and write one buffer at provably disjoint offsets
// (ping-pong halves of one allocation, even/odd interleaving, mirrored row
// blocks).  No other pointer is read, so re-running them is always safe.

// buf[n + i] = 2 * buf[i] for i < n
// GMEM-EXPECT: duplicate_half idempotent
// GMEM-RUN: duplicate_half grid=1024 block=256 args=buf:f32:524288:rand i32:262144
__global__ void duplicate_half(float *buf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) buf[n + i] = 2.0f * buf[i];
}

// a[2i+1] = f(a[2i]): reads even elements, writes odd ones.
// GMEM-EXPECT: even_to_odd idempotent
// GMEM-RUN: even_to_odd grid=391 block=256 args=buf:f32:200000:rand i32:100000
__global__ void even_to_odd(float *a, int npairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < npairs) a[2 * i + 1] = 0.5f * a[2 * i] + 1.0f;
}

// Rows [0, rows) are mirrored into rows [rows, 2*rows) of the same matrix.
// GMEM-EXPECT: mirror_rows idempotent
// GMEM-RUN: mirror_rows grid=10,50 block=32,8 args=buf:f32:256000:rand i32:400 i32:320
__global__ void mirror_rows(float *m, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) {
    m[(2 * rows - 1 - r) * cols + c] = m[r * cols + c];
  }
}

// 1D 3-point Jacobi from the first half of buf into the second half.
// GMEM-EXPECT: jacobi1d_pingpong idempotent
// GMEM-RUN: jacobi1d_pingpong grid=391 block=256 args=buf:f32:200000:rand i32:100000
__global__ void jacobi1d_pingpong(float *buf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 1 && i < n - 1) {
    buf[n + i] = 0.33333f * (buf[i - 1] + buf[i] + buf[i + 1]);
  }
}

// Sequence generators (thrust::sequence / torch.arange style).

// Grid-stride iota.
// GMEM-EXPECT: iota_i32 idempotent
// GMEM-RUN: iota_i32 grid=64 block=128 args=buf:i32:500000:rand i32:7 i32:500000
__global__ void iota_i32(int *out, int start, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = start + i;
  }
}

// torch.arange-like with 64-bit indexing.
// GMEM-EXPECT: arange_f64 idempotent
// GMEM-RUN: arange_f64 grid=391 block=256 args=buf:f64:100000:zero f64:1.5 f64:0.25 i64:100000
__global__ void arange_f64(double *out, double start, double step, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = start + step * (double)i;
}

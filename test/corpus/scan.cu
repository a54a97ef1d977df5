// Block-level inclusive prefix sums (GPU Gems 3 ch. 39 naive Hillis-Steele
// scan): an out-of-place double-buffered version, an in-place version that
// also emits per-block totals, and the uniform-add pass of a multi-block scan.
// Launch with blockDim.x <= 1024.

// GMEM-EXPECT: scan_hillis_steele conditional
// GMEM-RUN: scan_hillis_steele grid=245 block=512 args=buf:f32:125000:rand buf:f32:125000:zero i32:125000
// GMEM-RUN: scan_hillis_steele grid=245 block=512 args=buf:f32:125000:rand ptr:0+0 i32:125000
__global__ void scan_hillis_steele(const float *in, float *out, int n) {
  __shared__ float temp[2][1024];
  int tid = threadIdx.x;
  int gi = blockIdx.x * blockDim.x + tid;
  int pout = 0, pin = 1;

  temp[pout][tid] = gi < n ? in[gi] : 0.0f;
  __syncthreads();
  for (int offset = 1; offset < (int)blockDim.x; offset <<= 1) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (tid >= offset)
      temp[pout][tid] = temp[pin][tid] + temp[pin][tid - offset];
    else
      temp[pout][tid] = temp[pin][tid];
    __syncthreads();
  }
  if (gi < n) out[gi] = temp[pout][tid];
}

// In-place block scan of data; block b's total goes to block_sums[b].
// GMEM-EXPECT: scan_inplace_block non-idempotent
// GMEM-RUN: scan_inplace_block grid=123 block=1024 args=buf:i32:125000:randint:0:10 buf:i32:123:zero i32:125000
__global__ void scan_inplace_block(int *data, int *block_sums, int n) {
  __shared__ int s[1024];
  int tid = threadIdx.x;
  int gi = blockIdx.x * blockDim.x + tid;

  s[tid] = gi < n ? data[gi] : 0;
  __syncthreads();
  for (int offset = 1; offset < (int)blockDim.x; offset <<= 1) {
    int v = tid >= offset ? s[tid - offset] : 0;
    __syncthreads();
    s[tid] += v;
    __syncthreads();
  }
  if (gi < n) data[gi] = s[tid];
  if (tid == blockDim.x - 1) block_sums[blockIdx.x] = s[tid];
}

// data[gi] += scanned_sums[blockIdx.x - 1] for every block but the first.
// GMEM-EXPECT: scan_add_block_sums non-idempotent
// GMEM-RUN: scan_add_block_sums grid=123 block=1024 args=buf:i32:125000:randint:0:1000 buf:i32:123:randint:0:1000 i32:125000
__global__ void scan_add_block_sums(int *data, const int *scanned_sums, int n) {
  int gi = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x > 0 && gi < n) data[gi] += scanned_sums[blockIdx.x - 1];
}

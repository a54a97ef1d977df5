// Index-driven data movement (torch.gather / index_select / index_put_ /
// index_add_ shapes).

// out[i] = in[idx[i]]
// GMEM-EXPECT: gather conditional
// GMEM-RUN: gather grid=3907 block=256 args=buf:f32:100000:rand buf:i32:1000000:randint:0:100000 buf:f32:1000000:zero i32:1000000
__global__ void gather(const float *in, const int *idx, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[idx[i]];
}

// out[idx[i]] = in[i]; idx must be a permutation (or injective) for a
// deterministic result.
// GMEM-EXPECT: scatter conditional
// GMEM-RUN: scatter grid=3907 block=256 args=buf:f32:1000000:rand buf:i32:1000000:iota buf:f32:1000000:zero i32:1000000
__global__ void scatter(const float *in, const int *idx, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[idx[i]] = in[i];
}

// out[idx[i]] += in[i] with atomics (index_add_ / segment sum).
// GMEM-EXPECT: scatter_add non-idempotent
// GMEM-RUN: scatter_add grid=3907 block=256 args=buf:f32:1000000:rand buf:i32:1000000:randint:0:1000 buf:f32:1000:zero i32:1000000
__global__ void scatter_add(const float *in, const int *idx, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&out[idx[i]], in[i]);
}

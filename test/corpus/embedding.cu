// Embedding lookup (torch.nn.Embedding forward): one block row per token,
// threads over the embedding dimension.

// out[t][d] = table[ids[t]][d]
// GMEM-EXPECT: embedding_lookup conditional
// GMEM-RUN: embedding_lookup grid=2048 block=128 args=buf:i32:2048:randint:0:5000 buf:f32:640000:rand buf:f32:262144:zero i32:2048 i32:128
__global__ void embedding_lookup(const int *ids, const float *table, float *out, int ntokens, int dim) {
  int t = blockIdx.x;
  if (t >= ntokens) return;
  int row = ids[t];
  for (int d = threadIdx.x; d < dim; d += blockDim.x)
    out[(size_t)t * dim + d] = table[(size_t)row * dim + d];
}

// The same with the index checked first, as PyTorch's CUDA_KERNEL_ASSERT
// does: a bad id stops the kernel, so the table's rows below vocab are all
// it may read. The second instance writes out into the same allocation,
// past those rows.
// GMEM-EXPECT: embedding_lookup_checked conditional
// GMEM-RUN: embedding_lookup_checked grid=512 block=128 args=buf:i32:512:randint:0:1000 buf:f32:128000:rand buf:f32:65536:zero i32:512 i32:128 i32:1000
// GMEM-RUN: embedding_lookup_checked grid=40 block=32 args=buf:i32:40:randint:0:50 buf:f32:6000:rand ptr:1+12800 i32:40 i32:64 i32:50
__global__ void embedding_lookup_checked(const int *ids, const float *table, float *out, int ntokens,
                                         int dim, int vocab) {
  int t = blockIdx.x;
  if (t >= ntokens) return;
  int row = ids[t];
  if (row < 0 || row >= vocab) __trap();
  for (int d = threadIdx.x; d < dim; d += blockDim.x)
    out[(size_t)t * dim + d] = table[(size_t)row * dim + d];
}

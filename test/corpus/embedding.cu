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

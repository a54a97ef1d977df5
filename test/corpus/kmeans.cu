// k-means in the shape of Rodinia kmeans: nearest-centre assignment over a
// feature-major ("flipped") point array, and the centre accumulation step
// done with atomics.

// features[f * npoints + p], clusters[c * nfeatures + f]
// GMEM-EXPECT: kmeans_assign conditional
// GMEM-RUN: kmeans_assign grid=256 block=256 args=buf:f32:1048576:rand buf:f32:128:rand buf:i32:65536:zero i32:65536 i32:8 i32:16
__global__ void kmeans_assign(const float *features, const float *clusters, int *membership,
                              int npoints, int nclusters, int nfeatures) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npoints) return;
  int best = 0;
  float best_dist = 3.402823466e38f;
  for (int c = 0; c < nclusters; c++) {
    float dist = 0.0f;
    for (int f = 0; f < nfeatures; f++) {
      float d = features[f * npoints + p] - clusters[c * nfeatures + f];
      dist += d * d;
    }
    if (dist < best_dist) {
      best_dist = dist;
      best = c;
    }
  }
  membership[p] = best;
}

// GMEM-EXPECT: kmeans_accumulate non-idempotent
// GMEM-RUN: kmeans_accumulate grid=256 block=256 args=buf:f32:1048576:rand buf:i32:65536:randint:0:8 buf:f32:128:zero buf:i32:8:zero i32:65536 i32:16
__global__ void kmeans_accumulate(const float *features, const int *membership, float *new_centers,
                                  int *counts, int npoints, int nfeatures) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npoints) return;
  int c = membership[p];
  atomicAdd(&counts[c], 1);
  for (int f = 0; f < nfeatures; f++)
    atomicAdd(&new_centers[c * nfeatures + f], features[f * npoints + p]);
}

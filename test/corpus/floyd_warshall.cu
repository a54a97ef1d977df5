// One k-step of Floyd-Warshall all-pairs shortest paths, in place (the
// usual one-thread-per-(i,j) GPU formulation, cf. PolyBench floyd-warshall).

// GMEM-EXPECT: floyd_warshall_step non-idempotent
// GMEM-RUN: floyd_warshall_step grid=16,64 block=32,8 args=buf:i32:262144:randint:1:1000 i32:512 i32:7
__global__ void floyd_warshall_step(int *dist, int n, int k) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) {
    int via = dist[i * n + k] + dist[k * n + j];
    if (via < dist[i * n + j]) dist[i * n + j] = via;
  }
}

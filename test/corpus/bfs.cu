// Level-synchronous BFS in the shape of Rodinia bfs (Kernel / Kernel2 with
// mask, updating-mask, visited and cost arrays).  The graph has a fixed
// out-degree: the neighbours of node v are adj[v*degree .. v*degree+degree).

// Set up the arrays for a search from `source`; reads nothing.
// GMEM-EXPECT: bfs_init idempotent
// GMEM-RUN: bfs_init grid=256 block=256 args=buf:u8:65536:rand buf:u8:65536:rand buf:u8:65536:rand buf:i32:65536:rand i32:17 i32:65536
__global__ void bfs_init(bool *mask, bool *updating_mask, bool *visited, int *cost, int source, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n) {
    bool is_src = (tid == source);
    mask[tid] = is_src;
    updating_mask[tid] = false;
    visited[tid] = is_src;
    cost[tid] = is_src ? 0 : 0x7fffffff;
  }
}

// Expand the frontier: clear own mask bit, mark unvisited neighbours.
// GMEM-EXPECT: bfs_expand non-idempotent
// GMEM-RUN: bfs_expand grid=256 block=256 args=buf:i32:524288:randint:0:65536 i32:8 buf:u8:65536:randint:0:2 buf:u8:65536:zero buf:u8:65536:randint:0:2 buf:i32:65536:zero i32:3 i32:65536
__global__ void bfs_expand(const int *adj, int degree, bool *mask, bool *updating_mask,
                           const bool *visited, int *cost, int level, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n && mask[tid]) {
    mask[tid] = false;
    for (int e = tid * degree; e < (tid + 1) * degree; e++) {
      int id = adj[e];
      if (!visited[id]) {
        cost[id] = level + 1;
        updating_mask[id] = true;
      }
    }
  }
}

// Promote the updating mask to the next frontier and raise the `over` flag.
// Idempotent when the masks do not overlap (session 53): the flag it clears
// turns its own block off, so a run again skips it.
// GMEM-EXPECT: bfs_update conditional
// GMEM-RUN: bfs_update grid=256 block=256 args=buf:u8:65536:zero buf:u8:65536:randint:0:2 buf:u8:65536:zero buf:i32:1:zero i32:65536
__global__ void bfs_update(bool *mask, bool *updating_mask, bool *visited, int *over, int n) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < n && updating_mask[tid]) {
    mask[tid] = true;
    visited[tid] = true;
    *over = 1;
    updating_mask[tid] = false;
  }
}

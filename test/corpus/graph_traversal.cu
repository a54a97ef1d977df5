// Graph analytics operators in the shape of Gunrock / Lonestar-GPU /
// GraphBLAST kernels: single-source shortest paths (push relaxation with
// atomicMin, frontier-driven relaxation, pull-style Jacobi Bellman-Ford),
// PageRank (pull over in-edges and push with atomicAdd), label-propagation
// connected components (out of place, in place, pointer jumping), per-edge
// triangle counting by merging two sorted adjacency lists, and a masked
// pull BFS step (GraphBLAST mxv with a complemented visited mask).
//
// Graphs are either CSR (row pointer array of n+1 entries, column index
// array of row_ptr[n] entries) or have a fixed degree d, with the
// neighbours of v at adj[v*d .. v*d+d).  The RUN lines use `iota` row
// pointers (a CSR with exactly one edge per vertex) and column indices from
// `randint:0:N`, so every structure is valid.

// Push-style Bellman-Ford relaxation: every vertex with a finite distance
// lowers the distance of each out-neighbour with atomicMin.
// GMEM-EXPECT: sssp_push_relax non-idempotent
// GMEM-RUN: sssp_push_relax grid=256 block=256 args=buf:i32:524288:randint:0:65536 buf:i32:524288:randint:1:100 i32:8 buf:i32:65536:randint:0:5000 i32:65536
__global__ void sssp_push_relax(const int *adj, const int *weight, int degree, int *dist, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int dv = dist[v];
  if (dv >= 0x3fffffff) return;
  for (int e = v * degree; e < v * degree + degree; e++)
    atomicMin(&dist[adj[e]], dv + weight[e]);
}

// Gunrock-style advance over a vertex frontier: relax the out-edges of each
// frontier vertex and flag the neighbours whose distance went down.
// GMEM-EXPECT: sssp_frontier_relax non-idempotent
// GMEM-RUN: sssp_frontier_relax grid=40 block=256 args=buf:i32:10000:randint:0:65536 i32:10000 buf:i32:65537:iota buf:i32:65536:randint:0:65536 buf:i32:65536:randint:1:50 buf:i32:65536:randint:0:10000 buf:i32:65536:zero
__global__ void sssp_frontier_relax(const int *frontier, int frontier_len, const int *row_ptr,
                                    const int *col_idx, const int *weight, int *dist,
                                    int *next_flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= frontier_len) return;
  int u = frontier[i];
  int du = dist[u];
  int e_end = row_ptr[u + 1];
  for (int e = row_ptr[u]; e < e_end; e++) {
    int v = col_idx[e];
    int nd = du + weight[e];
    if (atomicMin(&dist[v], nd) > nd) next_flag[v] = 1;
  }
}

// Pull-style (Jacobi) Bellman-Ford step over in-edges: the new distance is
// the minimum of the old one and every in-neighbour's distance plus the
// edge weight, written to a separate array.  The aliasing instance (one
// self-loop per vertex, negative weights, dist_out == dist) lowers every
// distance again on each launch, and each element is read and written by
// its own thread.
// GMEM-EXPECT: sssp_pull_jacobi conditional
// GMEM-RUN: sssp_pull_jacobi grid=256 block=256 args=i32:65536 buf:i32:65537:iota buf:i32:65536:randint:0:65536 buf:i32:65536:randint:1:100 buf:i32:65536:randint:0:10000 buf:i32:65536:zero
// GMEM-RUN: sssp_pull_jacobi grid=256 block=256 args=i32:65536 buf:i32:65537:iota buf:i32:65536:iota buf:i32:65536:randint:-50:0 buf:i32:65536:randint:0:10000 ptr:4+0
__global__ void sssp_pull_jacobi(int n, const int *in_ptr, const int *in_src, const int *weight,
                                 const int *dist, int *dist_out) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    int best = dist[v];
    for (int e = in_ptr[v]; e < in_ptr[v + 1]; e++) {
      int cand = dist[in_src[e]] + weight[e];
      if (cand < best) best = cand;
    }
    dist_out[v] = best;
  }
}

// PageRank, pull direction: each vertex sums rank[src] / outdeg[src] over
// its in-edges (CSR by destination) into a new rank array.  In the
// aliasing instance every vertex's only in-edge is a self-loop and
// rank_new == rank, so each thread rescales its own element.
// GMEM-EXPECT: pagerank_pull conditional
// GMEM-RUN: pagerank_pull grid=256 block=256 args=i32:65536 buf:i32:65537:iota buf:i32:65536:randint:0:65536 buf:f32:65536:rand buf:i32:65536:randint:1:9 f32:0.85 buf:f32:65536:zero
// GMEM-RUN: pagerank_pull grid=256 block=256 args=i32:65536 buf:i32:65537:iota buf:i32:65536:iota buf:f32:65536:rand buf:i32:65536:randint:1:9 f32:0.85 ptr:3+0
__global__ void pagerank_pull(int n, const int *in_ptr, const int *in_src, const float *rank,
                              const int *out_deg, float damping, float *rank_new) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  float sum = 0.0f;
  int e_end = in_ptr[v + 1];
  for (int e = in_ptr[v]; e < e_end; e++) {
    int u = in_src[e];
    sum += rank[u] / (float)out_deg[u];
  }
  rank_new[v] = (1.0f - damping) / (float)n + damping * sum;
}

// PageRank, push direction: each vertex scatters its damped share to its
// out-neighbours with atomicAdd (fixed out-degree).
// GMEM-EXPECT: pagerank_push non-idempotent
// GMEM-RUN: pagerank_push grid=64 block=256 args=i32:16384 i32:4 buf:i32:65536:randint:0:16384 buf:f32:16384:rand f32:0.85 buf:f32:16384:zero
__global__ void pagerank_push(int n, int degree, const int *adj, const float *rank, float damping,
                              float *rank_next) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  float share = damping * rank[v] / (float)degree;
  for (int k = 0; k < degree; k++)
    atomicAdd(&rank_next[adj[v * degree + k]], share);
}

// Label propagation for connected components, out of place: the new label
// of v is the minimum of its own label and its neighbours' labels.
// GMEM-EXPECT: cc_label_prop conditional
// GMEM-RUN: cc_label_prop grid=256 block=256 args=i32:65536 i32:4 buf:i32:262144:randint:0:65536 buf:i32:65536:iota buf:i32:65536:zero
// GMEM-RUN: cc_label_prop grid=4 block=256 args=i32:1000 i32:3 buf:i32:3000:randint:0:1000 buf:i32:1000:randint:0:1000 buf:i32:1000:zero
__global__ void cc_label_prop(int n, int degree, const int *adj, const int *label, int *label_next) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    int m = label[v];
    const int *nbr = adj + (long long)v * degree;
    for (int k = 0; k < degree; k++) {
      int l = label[nbr[k]];
      m = l < m ? l : m;
    }
    label_next[v] = m;
  }
}

// Label propagation in place (Lonestar-style asynchronous update): labels
// are read from and written to the same array, and a flag records a change.
// GMEM-EXPECT: cc_label_prop_inplace non-idempotent
// GMEM-RUN: cc_label_prop_inplace grid=256 block=256 args=i32:65536 buf:i32:65537:iota buf:i32:65536:randint:0:65536 buf:i32:65536:iota buf:i32:1:zero
__global__ void cc_label_prop_inplace(int n, const int *row_ptr, const int *col_idx, int *label,
                                      int *changed) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  int mine = label[v];
  int m = mine;
  for (int e = row_ptr[v]; e < row_ptr[v + 1]; e++) {
    int l = label[col_idx[e]];
    if (l < m) m = l;
  }
  if (m < mine) {
    label[v] = m;
    *changed = 1;
  }
}

// Pointer jumping (shortcutting) of a parent forest, as in Shiloach-Vishkin
// / afforest connected components: parent[v] = parent[parent[v]].
// GMEM-EXPECT: cc_pointer_jump non-idempotent
// GMEM-RUN: cc_pointer_jump grid=256 block=256 args=i32:65536 buf:i32:65536:randint:0:65536
__global__ void cc_pointer_jump(int n, int *parent) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    int p = parent[v];
    int gp = parent[p];
    if (gp != p) parent[v] = gp;
  }
}

// Triangle counting per edge: one thread per edge (u,v) of a CSR with
// sorted adjacency lists.  The source u is found by a binary search of the
// row pointers; the count is the size of the intersection of adj(u) and
// adj(v), computed with a merge loop.
// GMEM-EXPECT: tc_edge_intersect conditional
// GMEM-RUN: tc_edge_intersect grid=256 block=256 args=i32:65536 i32:65536 buf:i32:65537:iota buf:i32:65536:randint:0:65536 buf:i32:65536:zero
// GMEM-RUN: tc_edge_intersect grid=4 block=256 args=i32:1000 i32:1000 buf:i32:1001:iota buf:i32:1000:randint:0:4 buf:i32:1000:zero
__global__ void tc_edge_intersect(int n, int nnz, const int *row_ptr, const int *col_idx, int *tri) {
  int e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e >= nnz) return;
  // invariant: row_ptr[lo] <= e < row_ptr[hi]
  int lo = 0, hi = n;
  while (hi - lo > 1) {
    int mid = (lo + hi) >> 1;
    if (row_ptr[mid] <= e) lo = mid;
    else hi = mid;
  }
  int u = lo;
  int v = col_idx[e];
  int i = row_ptr[u], i_end = row_ptr[u + 1];
  int j = row_ptr[v], j_end = row_ptr[v + 1];
  int count = 0;
  while (i < i_end && j < j_end) {
    int a = col_idx[i];
    int b = col_idx[j];
    if (a < b) {
      i++;
    } else if (a > b) {
      j++;
    } else {
      count++;
      i++;
      j++;
    }
  }
  tri[e] = count;
}

// One BFS level in the pull direction with a complemented mask (GraphBLAST
// mxv over the Boolean semiring): an unvisited vertex joins the next
// frontier if any in-neighbour is in the current one; the search over the
// in-neighbours stops at the first hit.
// GMEM-EXPECT: bfs_pull_masked conditional
// GMEM-RUN: bfs_pull_masked grid=256 block=256 args=i32:65536 i32:8 buf:i32:524288:randint:0:65536 buf:u8:65536:randint:0:2 buf:u8:65536:randint:0:2 buf:u8:65536:zero buf:i32:65536:const:-1 i32:5
__global__ void bfs_pull_masked(int n, int degree, const int *in_adj, const unsigned char *frontier,
                                const unsigned char *visited, unsigned char *next, int *depth,
                                int level) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  if (visited[v]) {
    next[v] = 0;
    return;
  }
  unsigned char hit = 0;
  for (int k = 0; k < degree; k++) {
    if (frontier[in_adj[v * degree + k]]) {
      hit = 1;
      break;
    }
  }
  next[v] = hit;
  if (hit) depth[v] = level;
}

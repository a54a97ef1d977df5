// Adversarial corpus (session 53c): the self-disabling flag rule and
// aliasing parameters, control flow shapes (goto), reads before the guard.
// Expectations give the author's judgement of the true class.

// The guarded block writes y; after the join the thread reads x, which the
// aliasing RUN line places on y: run again, out differs. Conditional, and
// the aliasing instance must be refused.
// GMEM-EXPECT: sa_out_alias_after conditional
// GMEM-RUN: sa_out_alias_after grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:1024:zero buf:i32:1024:iota buf:i32:1024:zero i32:1024
// GMEM-RUN: sa_out_alias_after grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:1024:zero ptr:1+0 buf:i32:1024:zero i32:1024
__global__ void sa_out_alias_after(int *m, int *y, const int *x, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (m[i]) {
    y[i] = 5;
    m[i] = 0;
  }
  out[i] = x[i] + 1;
}

// The flag is cleared through a second pointer that aliases the first at
// the launch (m2 = m): not a pair of one object. With m2 apart from m the
// flag never clears and out counts up: non-idempotent.
// GMEM-EXPECT: sa_flag_two_ptrs non-idempotent
// GMEM-RUN: sa_flag_two_ptrs grid=4 block=256 args=buf:i32:1024:const:1 ptr:0+0 buf:i32:1024:zero i32:1024
__global__ void sa_flag_two_ptrs(const int *m, int *m2, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && m[i]) {
    out[i] = out[i] + 1;
    m2[i] = 0;
  }
}

// The flag's neighbour word set through another pointer aliasing m one word
// further: thread i re-arms thread i+1's flag. Conditional (refused when
// aliased).
// GMEM-EXPECT: sa_rearm_alias conditional
// GMEM-RUN: sa_rearm_alias grid=1 block=256 args=buf:i32:257:const:1 ptr:0+4 buf:i32:256:zero i32:256
__global__ void sa_rearm_alias(int *m, int *next, int *cnt, int n) {
  int i = threadIdx.x;
  if (i < n && m[i]) {
    cnt[i] = cnt[i] + 1;
    m[i] = 0;
  }
  __syncthreads();
  if (i < n) next[i] = 1;
}

// Code before the guard reads what the neighbour's guarded block writes
// (after a barrier ordering): the second run reads the stored values.
// GMEM-EXPECT: sa_read_neighbour_before non-idempotent
// GMEM-RUN: sa_read_neighbour_before grid=1 block=256 args=buf:i32:256:const:1 buf:i32:256:iota buf:i32:256:zero
__global__ void sa_read_neighbour_before(int *m, int *y, int *out) {
  int i = threadIdx.x;
  out[i] = y[i ^ 1];
  __syncthreads();
  if (m[i]) {
    y[i] = 1000;
    m[i] = 0;
  }
}

// Irreducible control flow: a goto into the middle of a loop whose body
// holds the guarded block, the flag loaded before the loop. Cut at the
// back-edge after one trip, the block runs again with the flag cleared.
// GMEM-EXPECT: sa_goto_loop non-idempotent
// GMEM-RUN: sa_goto_loop grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:1024:zero i32:1024 i32:8 i32:1
__global__ void sa_goto_loop(int *m, int *cnt, int n, int iters, int jump) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int f = m[i];
  int k = 0;
  if (jump) goto mid;
top:
  cnt[i * 0 + (k % n)] += 0; // keeps the loop's head a block of its own
mid:
  if (f) {
    cnt[i] = cnt[i] + 1;
    m[i] = 0;
  }
  if (++k < iters) goto top;
}

// Idempotent control: the usual BFS-style mask, several outputs in the
// block, one of them a constant the later code overwrites.
// GMEM-EXPECT: sa_bfs_mask conditional
// GMEM-RUN: sa_bfs_mask grid=4 block=256 args=buf:u8:1024:randint:0:2 buf:u8:1024:zero buf:u8:1024:zero buf:i32:1:zero i32:1024
__global__ void sa_bfs_mask(bool *upd, bool *mask, bool *visited, int *over, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && upd[i]) {
    mask[i] = true;
    visited[i] = true;
    *over = 1;
    upd[i] = false;
  }
}

// Adversarial corpus (session 53c): the self-disabling flag rule
// (selfDisabledBlock, passes/lib/Analysis/IdempotentUpdates.cpp) where one
// flag word is shared by several threads. The pair (flag load, flag clear)
// needs no proof at all, also not between different threads: one thread's
// clear decides whether another thread runs its guarded block. A plain run
// twice still agrees (every thread that saw the flag set cleared it), but a
// block cut at a loop checkpoint and run again from its start finds the
// flag already cleared by a faster thread and skips the work of the
// threads that were cut before their guarded block.
// Expectations give the author's judgement of the true class.

// Per-block dirty flag, read by every thread before a barrier (so the
// uninterrupted run is deterministic: every thread sees it set), then a
// per-thread loop of tid-dependent length, then the guarded store. Thread
// 0 leaves the loop at once, stores and clears the flag; a thread cut at
// the loop's back-edge is run again, reads 0 and never stores out[i].
// GMEM-EXPECT: sc_block_flag_loop non-idempotent
// GMEM-RUN: sc_block_flag_loop grid=4 block=256 args=buf:i32:4:const:1 buf:f32:1024:rand buf:f32:1024:zero i32:1024
__global__ void sc_block_flag_loop(int *flag, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int f = flag[blockIdx.x];
  __syncthreads();
  float acc = 0.f;
  for (int k = 0; k <= (int)threadIdx.x; k++)
    acc += in[(blockIdx.x * blockDim.x + k) % n];
  if (f) {
    out[i % n] = acc;
    flag[blockIdx.x] = 0;
  }
}

// The same without the barrier: the first run already races (a thread may
// load the flag after a faster thread cleared it). Reported for the race
// note; the preempted run loses work the same way.
// GMEM-EXPECT: sc_block_flag_loop_nobar non-idempotent
// GMEM-RUN: sc_block_flag_loop_nobar grid=4 block=256 args=buf:i32:4:const:1 buf:f32:1024:rand buf:f32:1024:zero i32:1024
__global__ void sc_block_flag_loop_nobar(int *flag, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc = 0.f;
  for (int k = 0; k <= (int)threadIdx.x; k++)
    acc += in[(blockIdx.x * blockDim.x + k) % n];
  if (flag[blockIdx.x]) {
    out[i % n] = acc;
    flag[blockIdx.x] = 0;
  }
}

// One flag per warp, ordered by __syncwarp (deterministic per warp).
// GMEM-EXPECT: sc_warp_flag_loop non-idempotent
// GMEM-RUN: sc_warp_flag_loop grid=4 block=256 args=buf:i32:32:const:1 buf:i32:1024:iota buf:i32:1024:zero i32:1024
__global__ void sc_warp_flag_loop(int *flag, const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int w = i / 32;
  int f = flag[w];
  __syncwarp();
  int acc = 0;
  for (int k = 0; k < (i & 31) * 4; k++)
    acc += in[(i + k) % n];
  if (f) {
    out[i % n] = acc + 1;
    flag[w] = 0;
  }
}

// Two threads share one flag (i / 2); the odd thread loops longer.
// GMEM-EXPECT: sc_pair_flag_loop non-idempotent
// GMEM-RUN: sc_pair_flag_loop grid=4 block=256 args=buf:i32:512:const:1 buf:i32:1024:zero i32:1024 i32:200
__global__ void sc_pair_flag_loop(int *flag, int *out, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int f = flag[i / 2];
  __syncthreads();
  int acc = 0;
  for (int k = 0; k < (i & 1) * iters; k++)
    acc += k ^ i;
  if (f) {
    out[i] = acc + 1;
    flag[i / 2] = 0;
  }
}

// The flag index comes from memory the launch never writes (a stable
// load): several threads may share one flag word.
// GMEM-EXPECT: sc_indexed_flag_loop non-idempotent
// GMEM-RUN: sc_indexed_flag_loop grid=4 block=256 args=buf:i32:16:const:1 buf:i32:1024:randint:0:4 buf:i32:1024:zero i32:1024
__global__ void sc_indexed_flag_loop(int *flag, const int *grp, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int g = grp[i] + 4 * blockIdx.x;
  int f = flag[g];
  __syncthreads();
  int acc = 1;
  for (int k = 0; k < (int)threadIdx.x; k++)
    acc = acc * 3 + k * g;
  if (f) {
    out[i] = acc + 1;
    flag[g] = 0;
  }
}

// A grid-wide "first time" flag in a __device__ global: every thread of
// every block tests it. Racy in the first run already (which threads see
// it set depends on timing); a preempted block loses its work.
__device__ int sc_g_pending = 1;
// GMEM-EXPECT: sc_global_flag non-idempotent
// GMEM-RUN: sc_global_flag grid=8 block=128 args=buf:i32:1024:zero i32:1024
__global__ void sc_global_flag(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int acc = 1;
  for (int k = 0; k < (int)threadIdx.x; k++)
    acc = acc * 3 + k;
  if (sc_g_pending) {
    out[i % n] = acc + 1;
    sc_g_pending = 0;
  }
}

// Control: a per-thread flag with the same loop between its load and the
// guarded block. A thread cut in the loop has not cleared its own flag and
// runs the block when run again. Idempotent (conditional on the params).
// GMEM-EXPECT: sc_own_flag_loop conditional
// GMEM-RUN: sc_own_flag_loop grid=4 block=256 args=buf:i32:1024:randint:0:2 buf:f32:1024:rand buf:f32:1024:zero i32:1024
__global__ void sc_own_flag_loop(int *flag, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int f = flag[i];
  float acc = 0.f;
  for (int k = 0; k <= (int)threadIdx.x; k++)
    acc += in[(blockIdx.x * blockDim.x + k) % n];
  if (f) {
    out[i] = acc;
    flag[i] = 0;
  }
}

// Control: a grid-stride loop whose flag word is the thread's own on every
// trip (m[j % stride] == m[i]): only the first trip's work, once.
// GMEM-EXPECT: sc_gs_own_flag conditional
// GMEM-RUN: sc_gs_own_flag grid=4 block=256 args=buf:i32:1024:randint:0:2 buf:i32:8192:zero i32:8192
__global__ void sc_gs_own_flag(int *flag, int *out, int n) {
  int stride = gridDim.x * blockDim.x;
  for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += stride) {
    if (flag[j % stride]) {
      out[j] = j + 1;
      flag[j % stride] = 0;
    }
  }
}

// A grid-stride loop whose flag word is shared by the threads of other
// blocks (j % 64): which thread runs the guarded block first is a race;
// preempted, a block may skip what it did uninterrupted.
// GMEM-EXPECT: sc_gs_shared_flag non-idempotent
// GMEM-RUN: sc_gs_shared_flag grid=4 block=256 args=buf:i32:64:const:1 buf:i32:8192:zero i32:8192
__global__ void sc_gs_shared_flag(int *flag, int *out, int n) {
  int stride = gridDim.x * blockDim.x;
  for (int j = blockIdx.x * blockDim.x + threadIdx.x; j < n; j += stride) {
    if (flag[j % 64]) {
      out[j] = j + 1;
      flag[j % 64] = 0;
    }
  }
}

// Per-block flag, all threads load it before a barrier; thread 0 alone
// does a long loop before its guarded store, the others none. Thread 0 cut
// in its loop: the others cleared the flag, thread 0 never stores.
// GMEM-EXPECT: sc_block_flag_leader non-idempotent
// GMEM-RUN: sc_block_flag_leader grid=4 block=128 args=buf:i32:4:const:1 buf:i32:512:zero i32:512 i32:1000
__global__ void sc_block_flag_leader(int *flag, int *out, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int f = flag[blockIdx.x];
  __syncthreads();
  int acc = 7;
  if (threadIdx.x == 0)
    for (int k = 0; k < iters; k++)
      acc = acc * 3 + k;
  if (f) {
    out[i % n] = acc;
    flag[blockIdx.x] = 0;
  }
}

// Adversarial corpus (session 53b): the self-disabling flag rule,
// selfDisabledBlock in passes/lib/Analysis/IdempotentUpdates.cpp, and the
// exemption of the guarded block's loads in KernelAnalysis.cpp.
// Expectations give the author's judgement of the true class.

// The flag is read once before a loop; the guarded block sits in the loop
// and runs on every iteration. A block stopped at the loop's back-edge
// (a checkpoint) after some iterations has cleared the flag: run again, it
// skips the remaining iterations' work. Not idempotent under preemption
// (a plain run twice agrees: the second run skips everything).
// GMEM-EXPECT: sd_flag_hoisted_loop non-idempotent
// GMEM-RUN: sd_flag_hoisted_loop grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:1024:zero i32:1024 i32:64
__global__ void sd_flag_hoisted_loop(int *flag, int *cnt, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int f = flag[i];
  for (int k = 0; k < iters; k++) {
    if (f) {
      cnt[i] = cnt[i] + 1;
      flag[i] = 0;
    }
  }
}

// Same, the work writes one output per iteration (no read of the output).
// GMEM-EXPECT: sd_flag_hoisted_rows non-idempotent
// GMEM-RUN: sd_flag_hoisted_rows grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:65536:zero buf:i32:1024:iota i32:1024 i32:64
__global__ void sd_flag_hoisted_rows(int *flag, int *out, const int *src, int n, int rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int f = flag[i];
  for (int k = 0; k < rows; k++) {
    if (f) {
      out[k * n + i] = src[i] + k;
      flag[i] = 0;
    }
  }
}

// The flag re-read in the loop: each later iteration sees it cleared.
// Idempotent (the first iteration's work, once).
// GMEM-EXPECT: sd_flag_in_loop conditional
// GMEM-RUN: sd_flag_in_loop grid=4 block=256 args=buf:i32:1024:randint:0:2 buf:i32:1024:zero i32:1024 i32:64
__global__ void sd_flag_in_loop(int *flag, int *cnt, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int k = 0; k < iters; k++) {
    if (flag[i]) {
      cnt[i] = cnt[i] + 1;
      flag[i] = 0;
    }
  }
}

// One flag per block, read by every thread; thread 0's clear may or may not
// be seen by the others in the first run (a read/write race on the flag),
// but whoever saw it set did its own element's work once; run again,
// everyone sees it cleared. Idempotent (nondeterministic first run).
// GMEM-EXPECT: sd_block_flag conditional
// GMEM-RUN: sd_block_flag grid=4 block=256 args=buf:i32:4:const:1 buf:i32:1024:zero i32:1024
__global__ void sd_block_flag(int *flag, int *cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag[blockIdx.x]) {
    cnt[i] = cnt[i] + 5;
    flag[blockIdx.x] = 0;
  }
}

// The block re-arms its neighbour's flag: the neighbour, run again, does
// its work again.
// GMEM-EXPECT: sd_rearm_neighbour non-idempotent
// GMEM-RUN: sd_rearm_neighbour grid=1 block=256 args=buf:i32:257:const:1 buf:i32:256:zero i32:256
__global__ void sd_rearm_neighbour(int *flag, int *cnt, int n) {
  int i = threadIdx.x;
  if (i < n && flag[i]) {
    cnt[i] = cnt[i] + 1;
    flag[i] = 0;
    flag[i + 1] = 1;
  }
}

// Another statement re-arms the thread's own flag after the join.
// GMEM-EXPECT: sd_rearm_after non-idempotent
// GMEM-RUN: sd_rearm_after grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:1024:zero i32:1024
__global__ void sd_rearm_after(int *flag, int *cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (flag[i]) {
    cnt[i] = cnt[i] + 1;
    flag[i] = 0;
  }
  flag[i] = 1;
}

// Clears a byte of an int flag: the word stays nonzero when a higher byte
// is set (flags 256..).
// GMEM-EXPECT: sd_clear_low_byte non-idempotent
// GMEM-RUN: sd_clear_low_byte grid=4 block=256 args=buf:i32:1024:const:257 buf:i32:1024:zero i32:1024
__global__ void sd_clear_low_byte(int *flag, int *cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag[i]) {
    cnt[i] = cnt[i] + 1;
    ((unsigned char *)flag)[4 * i] = 0;
  }
}

// The guard tests == 1 and the block stores 2: skipped again. Idempotent.
// GMEM-EXPECT: sd_eq1_store2 conditional
// GMEM-RUN: sd_eq1_store2 grid=4 block=256 args=buf:i32:1024:randint:0:3 buf:i32:1024:zero i32:1024
__global__ void sd_eq1_store2(int *flag, int *cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag[i] == 1) {
    cnt[i] = cnt[i] + 1;
    flag[i] = 2;
  }
}

// The guard tests != 2 and the block stores 1: run again, it runs again.
// GMEM-EXPECT: sd_ne2_store1 non-idempotent
// GMEM-RUN: sd_ne2_store1 grid=4 block=256 args=buf:i32:1024:randint:0:3 buf:i32:1024:zero i32:1024
__global__ void sd_ne2_store1(int *flag, int *cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag[i] != 2) {
    cnt[i] = cnt[i] + 1;
    flag[i] = 1;
  }
}

// The block's load reads what the thread writes after the join: run
// again, the block is skipped, so what it read does not matter. Idempotent.
// GMEM-EXPECT: sd_reads_later_write conditional
// GMEM-RUN: sd_reads_later_write grid=4 block=256 args=buf:i32:1024:randint:0:2 buf:i32:1024:randint:0:50 buf:i32:1024:zero i32:1024
__global__ void sd_reads_later_write(int *flag, int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (flag[i]) {
    y[i] = x[i] * 3;
    flag[i] = 0;
  }
  x[i] = 7;
}

// Code before the guard reads what the block writes: the second run reads
// the block's output.
// GMEM-EXPECT: sd_read_before_guard non-idempotent
// GMEM-RUN: sd_read_before_guard grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:1024:randint:0:50 buf:i32:1024:zero i32:1024
__global__ void sd_read_before_guard(int *flag, int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int old = x[i];
  if (flag[i]) {
    x[i] = old + 1;
    flag[i] = 0;
  }
  y[i] = old;
}

// After the join the thread reads what the block wrote, and stores it:
// the same in both runs (the block left it). Idempotent.
// GMEM-EXPECT: sd_read_after_join conditional
// GMEM-RUN: sd_read_after_join grid=4 block=256 args=buf:i32:1024:randint:0:2 buf:i32:1024:randint:0:50 buf:i32:1024:zero i32:1024
__global__ void sd_read_after_join(int *flag, int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (flag[i]) {
    x[i] = 9;
    flag[i] = 0;
  }
  y[i] = x[i];
}

// The block reads a neighbour's element that the neighbour overwrites
// after a barrier: the first run reads the old value, and a thread that
// took the block skips it when run again. Idempotent.
// GMEM-EXPECT: sd_barrier_neighbour conditional
// GMEM-RUN: sd_barrier_neighbour grid=1 block=256 args=buf:i32:256:randint:0:2 buf:i32:256:randint:0:50 buf:i32:256:zero
__global__ void sd_barrier_neighbour(int *flag, int *x, int *y) {
  int i = threadIdx.x;
  if (flag[i]) {
    y[i] = x[(i + 1) & 255];
    flag[i] = 0;
  }
  __syncthreads();
  x[i] = 100 + i;
}

// A second load of the flag after the join sees the cleared value, which
// is what a second run sees too (a skipped block means the flag was 0).
// Idempotent.
// GMEM-EXPECT: sd_flag_reread conditional
// GMEM-RUN: sd_flag_reread grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:1024:zero buf:i32:1024:zero i32:1024
__global__ void sd_flag_reread(int *flag, int *cnt, int *seen, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (flag[i]) {
    cnt[i] = cnt[i] + 1;
    flag[i] = 0;
  }
  seen[i] = flag[i] + 10;
}

// The block writes a sentinel into memory that the thread then tests:
// what the thread stores after the join tells whether the block ran in
// this run, through memory.
// GMEM-EXPECT: sd_leak_via_memory non-idempotent
// GMEM-RUN: sd_leak_via_memory grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:1024:zero buf:i32:1024:zero i32:1024
__global__ void sd_leak_via_memory(int *flag, int *tmp, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  tmp[i] = 0;
  if (flag[i]) {
    tmp[i] = 1;
    flag[i] = 0;
  }
  out[i] = tmp[i];
}

// Two flags re-arming each other.
// GMEM-EXPECT: sd_ping_pong non-idempotent
// GMEM-RUN: sd_ping_pong grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:1024:zero buf:i32:1024:zero i32:1024
__global__ void sd_ping_pong(int *a, int *b, int *cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (a[i]) {
    cnt[i] = cnt[i] + 1;
    a[i] = 0;
    b[i] = 1;
  }
  if (b[i]) {
    cnt[i] = cnt[i] + 100;
    b[i] = 0;
    a[i] = 1;
  }
}

// Two flags in one array (a[i] and a[i + n]), the second re-arming the first.
// GMEM-EXPECT: sd_two_halves non-idempotent
// GMEM-RUN: sd_two_halves grid=4 block=256 args=buf:i32:2048:const:1 buf:i32:1024:zero i32:1024
__global__ void sd_two_halves(int *a, int *cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (a[i]) {
    cnt[i] = cnt[i] + 1;
    a[i] = 0;
  }
  if (a[i + n]) {
    a[i + n] = 0;
    a[i] = 1;
  }
}

// The flag shared at the block and cleared by thread 0 only; other
// threads keep taking the block. The flag is cleared in another block.
// GMEM-EXPECT: sd_clear_by_thread0 non-idempotent
// GMEM-RUN: sd_clear_by_thread0 grid=4 block=256 args=buf:i32:4:const:1 buf:i32:1024:zero i32:1024
__global__ void sd_clear_by_thread0(int *flag, int *cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag[blockIdx.x]) {
    cnt[i] = cnt[i] + 1;
  }
  __syncthreads();
  if (threadIdx.x == 0)
    flag[blockIdx.x] = 0;
}

// The flag read before the guard by a separate load (an aliasing store in
// between keeps the two loads apart) and stored: the second run stores 0.
// GMEM-EXPECT: sd_flag_copied_before non-idempotent
// GMEM-RUN: sd_flag_copied_before grid=4 block=256 args=buf:i32:1024:const:1 buf:i32:1024:zero i32:1024
__global__ void sd_flag_copied_before(int *flag, int *copy, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  copy[i] = flag[i];
  if (flag[i]) {
    flag[i] = 0;
  }
}

// Per-block dirty flag read once by every thread before a grid-stride
// style loop over the block's tile; the guarded block (in the loop)
// clears it. A checkpoint at the loop's back-edge after the first
// iteration leaves the flag cleared and the later tiles unwritten: the
// block run again skips them.
// GMEM-EXPECT: sd_dirty_tile_loop non-idempotent
// GMEM-RUN: sd_dirty_tile_loop grid=4 block=128 args=buf:i32:4:const:1 buf:f32:8192:zero buf:f32:8192:rand i32:2048
__global__ void sd_dirty_tile_loop(int *dirty, float *out, const float *in, int per_block) {
  int f = dirty[blockIdx.x];
  __syncthreads();
  for (int j = threadIdx.x; j < per_block; j += blockDim.x) {
    int e = blockIdx.x * per_block + j;
    if (f) {
      out[e] = 2.f * in[e];
      dirty[blockIdx.x] = 0;
    }
  }
}

// The flag read before an outer loop, the guarded block in the inner one.
// GMEM-EXPECT: sd_flag_nested_loops non-idempotent
// GMEM-RUN: sd_flag_nested_loops grid=2 block=128 args=buf:i32:256:const:1 buf:i32:4096:zero i32:256 i32:4 i32:4
__global__ void sd_flag_nested_loops(int *flag, int *out, int n, int a, int b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int f = flag[i];
  for (int p = 0; p < a; p++)
    for (int q = 0; q < b; q++)
      if (f) {
        out[(p * b + q) * n + i] = p * 100 + q + 1;
        flag[i] = 0;
      }
}

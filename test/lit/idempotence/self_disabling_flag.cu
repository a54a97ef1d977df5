// A flag that turns its own work off: `if (m[i]) { ...; m[i] = 0; }`
// (Rodinia BFS's second kernel). Run again, a thread whose first run took
// the block finds its flag off and skips it, so the block's stores stay as
// the first run left them and its loads are not read again. The flag must
// be the thread's own (`m[blockIdx.x * blockDim.x + threadIdx.x]`), so the
// launch must be one-dimensional: a condition decided per launch. Refused: a
// flag stored that keeps the block on, a block with a barrier (it may
// carry a loop's checkpoint), a value of the block used after it, a join
// that tells whether the block ran, a skip path that does other work, the
// flag's value used elsewhere; and, from the ninth adversarial round, a
// block that tells through shared memory, and a flag loaded once before a
// loop whose body holds the block (a thread stopped after one trip has
// cleared it); from the tenth, a flag several threads share.
// RUN: %gmem-analyze %s | FileCheck %s

// CHECK-LABEL: kernel bfs_kernel2(bool*, bool*, bool*, bool*, int)
// CHECK:         class:  conditional -- reads and writes of 'g_updating_graph_mask' are proven apart only while blockDim.y stays in [1, 1]
__global__ void bfs_kernel2(bool *g_graph_mask, bool *g_updating_graph_mask, bool *g_graph_visited,
                            bool *g_over, int no_of_nodes) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
    g_graph_mask[tid] = true;
    g_graph_visited[tid] = true;
    *g_over = true;
    g_updating_graph_mask[tid] = false;
  }
}

// The count in the block is not counted again: the flag is off by then.
// CHECK-LABEL: kernel clear_and_count(int*, int*, int)
// CHECK:         class:  conditional -- reads and writes of 'flag' are proven apart only while blockDim.y stays in [1, 1]
__global__ void clear_and_count(int *flag, int *cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag[i] == 3) {
    cnt[i] = cnt[i] + 1;
    flag[i] = 0;
  }
}

// CHECK-LABEL: kernel flag_kept_on(int*, int*, int)
// CHECK:         class:  non-idempotent
__global__ void flag_kept_on(int *flag, int *cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag[i]) {
    cnt[i] = cnt[i] + 1;
    flag[i] = 1;
  }
}

// CHECK-LABEL: kernel clear_with_barrier(int*, int*, int)
// CHECK:         class:  non-idempotent
__global__ void clear_with_barrier(int *flag, int *cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (flag[blockIdx.x]) {
    flag[blockIdx.x] = 0;
    __syncthreads();
    cnt[i] = cnt[i] + 1;
  }
}

// CHECK-LABEL: kernel join_tells(int*, int*, int)
// CHECK:         class:  non-idempotent
__global__ void join_tells(int *flag, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int ran = 0;
    if (flag[i]) {
      flag[i] = 0;
      ran = 1;
    }
    out[i] = ran;
  }
}

// CHECK-LABEL: kernel skip_does_work(int*, int*, int)
// CHECK:         class:  non-idempotent
__global__ void skip_does_work(int *flag, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    if (flag[i]) {
      flag[i] = 0;
    } else {
      out[i] = out[i] + 1;
    }
  }
}

// CHECK-LABEL: kernel flag_value_escapes(int*, int*, int)
// CHECK:         class:  non-idempotent
__global__ void flag_value_escapes(int *flag, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int f = flag[i];
    if (f) {
      flag[i] = 0;
      out[n + i] = 5;
    }
    out[i] = f;
  }
}

// One buffer: the flags in its first half, the counts in its second.
// CHECK-LABEL: kernel one_buffer(int*, int)
// CHECK:         class:  conditional -- reads and writes of 'buf' are proven apart only while blockDim.y stays in [1, 1]
__global__ void one_buffer(int *buf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && buf[i] == 3) {
    buf[n + i] = buf[n + i] + 1;
    buf[i] = 0;
  }
}

// CHECK-LABEL: kernel shared_tells(int*, int*, int)
// CHECK:         class:  non-idempotent
__global__ void shared_tells(int *flag, int *out, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = 0;
  if (i < n && flag[i]) {
    s[t] = 1;
    flag[i] = 0;
  }
  __syncthreads();
  if (i < n)
    out[i] = s[t ^ 1];
}

// CHECK-LABEL: kernel flag_before_loop(int*, int*, int, int)
// CHECK:         class:  non-idempotent
__global__ void flag_before_loop(int *flag, int *cnt, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int f = flag[i];
  for (int k = 0; k < iters; k++) {
    if (f) {
      cnt[i] = cnt[i] + 1;
      flag[i] = 0;
    }
  }
}

// Every thread of a block reads the block's flag before a barrier; the
// block's threads clear it after their loops. Cut in a loop after some
// cleared it, the block's run again skips the work of the others.
// CHECK-LABEL: kernel shared_flag(int*, float const*, float*, int)
// CHECK:         class:  non-idempotent
__global__ void shared_flag(int *flag, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int f = flag[blockIdx.x];
  __syncthreads();
  float acc = 0.f;
  for (int k = 0; k <= (int)threadIdx.x; ++k)
    acc += in[k];
  if (f) {
    out[i] = acc;
    flag[blockIdx.x] = 0;
  }
}

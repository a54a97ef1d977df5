// A store back, at the address just loaded, of an idempotent function of
// the loaded value leaves the same bytes when run again on its own result:
// in-place ReLU (fmaxf and the select form), clamps, saturations, masks,
// fabsf, and a guarded store of a fixed value (a BFS level). The function
// must be the same for every thread and run (constants and scalar
// arguments only), and the loaded value may go nowhere else.
// RUN: %gmem-analyze %s | FileCheck %s
// RUN: %gmem-analyze %s --kernel relu_inplace --grid 4 --block 256 \
// RUN:   --alloc 0x100000:4096 --arg ptr:0x100000 --arg i32:1024 | FileCheck %s --check-prefix=RELU

// RELU: idempotent: yes
// CHECK-LABEL: kernel relu_inplace(float*, int)
// CHECK:         class:  idempotent -- every location it reads is proven apart from every location it writes, but for in-place updates of 'x' to values a run again keeps
// CHECK:         #0 x : ptr  RW
// CHECK-NEXT:      read:  [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT:      write: [0, 4*min(blockDim.x*gridDim.x - 1, n - 1) + 4)
// CHECK-NEXT:      reads and writes proven disjoint
__global__ void relu_inplace(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = fmaxf(x[i], 0.f);
}

// CHECK-LABEL: kernel relu_select(float*, int)
// CHECK:         class:  idempotent
__global__ void relu_select(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    x[i] = v <= 0.f ? 0.f : v;
  }
}

// CHECK-LABEL: kernel clamp_inplace(float*, float, float, int)
// CHECK:         class:  idempotent
__global__ void clamp_inplace(float *x, float lo, float hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = fminf(fmaxf(x[i], lo), hi);
}

// CHECK-LABEL: kernel saturate(int*, int)
// CHECK:         class:  idempotent
__global__ void saturate(int *h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && h[i] > 255)
    h[i] = 255;
}

// CHECK-LABEL: kernel bfs_level(unsigned int*, int const*, int, unsigned int)
// CHECK:         class:  conditional -- reads 'frontier' and writes 'level'
__global__ void bfs_level(unsigned *level, const int *frontier, int nf, unsigned depth) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nf) {
    int v = frontier[i];
    if (level[v] == 0xffffffffu)
      level[v] = depth + 1;
  }
}

// CHECK-LABEL: kernel mask_inplace(unsigned int*, unsigned int, int)
// CHECK:         class:  idempotent
__global__ void mask_inplace(unsigned *x, unsigned m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = (x[i] & m) | 1u;
}

// CHECK-LABEL: kernel abs_inplace(float*, int)
// CHECK:         class:  idempotent
__global__ void abs_inplace(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = fabsf(x[i]);
}

// Not idempotent: a scale; the loaded value also decides another store;
// two replacements composed (1 -> 2 -> 1); an operand that depends on the
// thread (a regridded launch gives the element another one); a store of
// something else on the other arm.
// CHECK-LABEL: kernel scale_inplace(float*, int)
// CHECK:         class:  non-idempotent
__global__ void scale_inplace(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = 2.f * x[i];
}

// CHECK-LABEL: kernel flag_and_count(int*, int*, int)
// CHECK:         class:  non-idempotent
__global__ void flag_and_count(int *h, int *cnt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = h[i];
    if (v > 255)
      h[i] = 255;
    cnt[i] = v > 255;
  }
}

// CHECK-LABEL: kernel swap_replace(int*, int)
// CHECK:         class:  non-idempotent
__global__ void swap_replace(int *h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = h[i];
    h[i] = v == 1 ? 2 : (v == 2 ? 1 : v);
  }
}

// A floor per thread: run again, the same thread applies the same floor to
// its own element (session 53; the map may take the thread's geometry).
// CHECK-LABEL: kernel thread_threshold(int*, int)
// CHECK:         class:  idempotent
__global__ void thread_threshold(int *h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    h[i] = max(h[i], (int)threadIdx.x);
}

// CHECK-LABEL: kernel ifelse_two(int*, int)
// CHECK:         class:  non-idempotent
__global__ void ifelse_two(int *h, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = h[i];
    if (v > 255)
      h[i] = 255;
    else
      h[i] = v + 1;
  }
}

// A narrower store over the loaded word is another function of its bytes.
// CHECK-LABEL: kernel byte_of_word(unsigned int*, int)
// CHECK:         class:  unknown -- reads and writes of 'x' may overlap
__global__ void byte_of_word(unsigned *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned v = x[i];
    ((unsigned char *)x)[4 * i] = (unsigned char)(v >> 8);
  }
}

// The guarded store's test must not leave its block: a value chosen beside
// the store and stored after the join carries which path ran (an
// adversarial round, session 52: run again, the flag is set and g is 3).
// CHECK-LABEL: kernel join_leak(int*, int)
// CHECK:         class:  non-idempotent -- 'buf' is read and written at the same offset
__global__ void join_leak(int *buf, int n) {
  int i = threadIdx.x;
  if (i < n) {
    int g = 3;
    if (buf[i] == 0) {
      buf[i] = 1;
      g = 9;
    }
    buf[n + i] = g;
  }
}

// CHECK-LABEL: kernel join_leak_else(int*, float*)
// CHECK:         class:  non-idempotent -- 'flag' is read and written at the same offset
__global__ void join_leak_else(int *flag, float *out) {
  int i = threadIdx.x;
  float g;
  if (flag[i] == 0) {
    flag[i] = 1;
    g = 7.5f;
  } else {
    g = 2.5f;
  }
  out[i] = g;
}

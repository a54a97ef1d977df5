// Grid-stride kernels (flag GridStride, bit 13, and the info global's sixth
// word): only a kernel that is one grid-stride loop whose effects depend on
// its index alone gets the flag; every construct that makes the result
// depend on the grid, or that the proof does not cover, leaves it out and
// says why.
// RUN: rm -rf %t.stub && mkdir -p %t.stub
// RUN: touch %t.stub/texture_fetch_functions.h %t.stub/texture_indirect_functions.h
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version \
// RUN:   --cuda-path=/usr/local/cuda -isystem %t.stub -fpass-plugin=%gmem_plugin -O2 -S \
// RUN:   -emit-llvm -Rpass-analysis=gmem-checkpoint %s -o %t.ll 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: FileCheck %s --check-prefix=INFO < %t.ll
// RUN: %gmem-analyze %s | FileCheck %s --check-prefix=TOOL
// GMEM_CHECKPOINT_GRID_STRIDE=0 leaves the flag out.
// RUN: env GMEM_CHECKPOINT_GRID_STRIDE=0 %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version --cuda-path=/usr/local/cuda -isystem %t.stub \
// RUN:   -fpass-plugin=%gmem_plugin -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF

// Word 5: bits 0..15 the bound's parameter, 16 unsigned, 17 inclusive,
// 18 64-bit index, 19 the bound sign-extended, 20 (always) a thread's
// items write apart.
// INFO-DAG: @__gmem_pre_info__Z4iotaPiii = {{.*}} [6 x i32] [i32 827346247, i32 2, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 1572866]
// INFO-DAG: @__gmem_pre_info__Z9copy_sizePfPKfm = {{.*}} [6 x i32] [i32 827346247, i32 2, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 1376258]
// INFO-DAG: @__gmem_pre_info__Z12scale_rows_yPfPKfii = {{.*}} [6 x i32] [i32 827346247, i32 2, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 1572867]
// INFO-DAG: @__gmem_pre_info__Z12inclusive_ubPfj = {{.*}} [6 x i32] [i32 827346247, i32 2, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 1245185]
// INFO-DAG: @__gmem_pre_info__Z10accumulatePfPKfi = {{.*}} [5 x i32]
// INFO-DAG: @__gmem_pre_info__Z9block_tagPiS_i = {{.*}} [5 x i32]
// OFF-NOT: [6 x i32]

// REMARK-DAG: grid_stride.cu:[[@LINE+3]]:1: remark: grid-stride loop over parameter #2: the runtime may run it on a larger grid
// TOOL-LABEL: kernel iota(
// TOOL: one grid-stride loop up to 'n': an idempotent launch may run on a larger grid
__global__ void iota(int *out, int start, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = start + i;
}

// A 64-bit index (unsigned compare, size_t bound): word 5 = 2 | unsigned | wide.
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid-stride loop over parameter #2
__global__ void copy_size(float *y, const float *x, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x)
    y[i] = 2.0f * x[i];
}

// Other block coordinates and early returns before the loop are fine: a
// larger grid in x does not change them.
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid-stride loop over parameter #3
__global__ void scale_rows_y(float *y, const float *x, int rows, int len) {
  int r = blockIdx.y;
  if (r >= rows)
    return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < len; i += blockDim.x * gridDim.x)
    y[r * len + i] = x[r * len + i] * (float)threadIdx.y;
}

// i <= n, unsigned: word 5 = 1 | unsigned | inclusive.
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid-stride loop over parameter #1
__global__ void inclusive_ub(float *y, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += blockDim.x * gridDim.x)
    y[i] = 1.0f;
}

// A sum carried from trip to trip: which items a thread adds depends on the grid.
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid stays the launch's: {{a memory write outside the loop|the loop carries more than its index}}
__global__ void accumulate(float *partial, const float *x, int n) {
  float s = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    s += x[i];
  partial[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// A running value written every trip: carried.
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid stays the launch's: the loop carries more than its index
__global__ void running(float *y, const float *x, int n) {
  float s = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    s += x[i];
    y[i] = s;
  }
}

// blockIdx.x itself stored: differs with the grid.
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid stays the launch's: blockIdx.x or gridDim.x is used besides the grid-stride index
__global__ void block_tag(int *tag, int *unused, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    tag[i] = blockIdx.x;
}

// gridDim.x in the body.
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid stays the launch's: blockIdx.x or gridDim.x is used besides the grid-stride index
__global__ void grid_size_stored(int *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = gridDim.x;
}

// The next index read in the body (y[i + stride]).
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid stays the launch's: {{the loop carries more than its index|blockIdx.x or gridDim.x is used besides the grid-stride index}}
__global__ void ahead(float *y, const float *x, int n) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i + stride < n; i += stride)
    y[i] = x[i + stride];
}

// A data-dependent break: the items after it depend on which thread ran them.
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid stays the launch's: the loop has more than one exit
__global__ void stop_at_zero(float *y, const float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    if (x[i] == 0.f)
      break;
    y[i] = 1.f / x[i];
  }
}

// i != n: with another stride a thread may step over n.
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid stays the launch's: the loop does not run while its index is below a bound
__global__ void not_equal(float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i != n; i += blockDim.x * gridDim.x)
    y[i] = 0.f;
}

// A bound the runtime cannot read as one parameter.
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid stays the launch's: the bound is not a kernel parameter
__global__ void product_bound(float *y, int rows, int cols) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows * cols; i += blockDim.x * gridDim.x)
    y[i] = 0.f;
}

// A fixed block size in the index: items repeat or go missing for other blocks.
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid stays the launch's: the index does not start at blockIdx.x * blockDim.x + threadIdx.x
__global__ void fixed_block(float *y, int n) {
  for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += 256 * gridDim.x)
    y[i] = 0.f;
}

// Twice the grid's stride: half the items.
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid stays the launch's: the index does not step by blockDim.x * gridDim.x
__global__ void double_stride(float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += 2 * blockDim.x * gridDim.x)
    y[i] = 0.f;
}

// The first index runs without a test (do-while).
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid stays the launch's: the loop is entered without testing its first index
__global__ void first_untested(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  do {
    y[i] = 0.f;
    i += blockDim.x * gridDim.x;
  } while (i < n);
}

// A store before the loop runs once per thread: how many threads depends on the grid.
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid stays the launch's: a memory write outside the loop
__global__ void flag_first(int *count, float *y, int n) {
  if (threadIdx.x == 0)
    count[0] = 1;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = 0.f;
}

// Shared memory and barriers: items meet other items there (the clone is
// not even persistent).
// INFO-DAG: @__gmem_pre_info__Z6stagedPfPKfi = {{.*}} [5 x i32]
__global__ void staged(float *y, const float *x, int n) {
  __shared__ float t[256];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    t[threadIdx.x] = x[i];
    __syncthreads();
    y[i] = t[255 - threadIdx.x];
    __syncthreads();
  }
}

// A warp collective.
// INFO-DAG: @__gmem_pre_info__Z8warp_maxPfPKfi = {{.*}} [5 x i32]
__global__ void warp_max(float *y, const float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = __shfl_xor_sync(0xffffffffu, x[i], 1);
}

// An atomic counter.
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid stays the launch's: an atomic or fence
__global__ void count_pos(int *count, const float *x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    if (x[i] > 0.f)
      atomicAdd(count, 1);
}

// A clock is no thread coordinate; nor is anything inline asm reads.
// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid stays the launch's: a special register other than thread and block coordinates
__global__ void clock_stamp(long long *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = clock64();
}

// REMARK-DAG: grid_stride.cu:[[@LINE+1]]:1: remark: grid stays the launch's: inline asm
__global__ void sm_stamp(unsigned *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    unsigned s;
    asm("mov.u32 %0, %%smid;" : "=r"(s));
    y[i] = s;
  }
}

// Kernels built from CUB's block-level primitives and cache-modified loads
// and stores, as library code (CUB's own device-wide kernels, PyTorch's
// reductions) is. CUB reaches global memory through inline PTX here:
// ThreadLoad<LOAD_LDG> is `ld.global.nc`, LOAD_CG `ld.global.cg`,
// ThreadStore<STORE_CG> `st.global.cg`; the analysis reads the asm's text.
#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_store.cuh>
#include <cub/iterator/cache_modified_input_iterator.cuh>
#include <cub/thread/thread_load.cuh>
#include <cub/thread/thread_store.cuh>

// One partial sum per CTA: a tile of 4 items per thread through LOAD_LDG
// (a guarded load of the last partial tile), then BlockReduce. The aliasing
// instance is one CTA writing its sum over its own first input.
// GMEM-EXPECT: cub_block_sum conditional
// GMEM-RUN: cub_block_sum grid=8 block=128 args=buf:f32:4000:rand buf:f32:8:zero i32:4000
// GMEM-RUN: cub_block_sum grid=1 block=128 args=buf:f32:512:rand ptr:0+0 i32:512
__global__ void cub_block_sum(const float *in, float *partial, int n) {
  using Load = cub::BlockLoad<float, 128, 4, cub::BLOCK_LOAD_DIRECT>;
  using Reduce = cub::BlockReduce<float, 128>;
  __shared__ typename Reduce::TempStorage tmp;
  int base = blockIdx.x * 512;
  float items[4];
  cub::CacheModifiedInputIterator<cub::LOAD_LDG, float> it(in + base);
  Load().Load(it, items, n - base, 0.0f);
  float s = Reduce(tmp).Sum(items);
  if (threadIdx.x == 0)
    partial[blockIdx.x] = s;
}

// y[i] = a * x[i] with LOAD_CG and STORE_CG (streaming through L2).
// GMEM-EXPECT: cub_cg_scale conditional
// GMEM-RUN: cub_cg_scale grid=16 block=256 args=buf:f32:4096:rand buf:f32:4096:zero f32:3 i32:4096
// GMEM-RUN: cub_cg_scale grid=16 block=256 args=buf:f32:4096:rand ptr:0+0 f32:3 i32:4096
__global__ void cub_cg_scale(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    cub::ThreadStore<cub::STORE_CG>(y + i, a * cub::ThreadLoad<cub::LOAD_CG>(x + i));
}

// A 16-byte vector through hand-written PTX (`ld.global.nc.v4.f32`,
// `st.global.cs.v4.f32`), PyTorch's vectorized elementwise path, with the
// scalar tail in C++.
// GMEM-EXPECT: vec4_asm_relu conditional
// GMEM-RUN: vec4_asm_relu grid=4 block=256 args=buf:f32:4098:rand buf:f32:4098:zero i32:4098
// GMEM-RUN: vec4_asm_relu grid=5 block=256 args=buf:f32:4099:rand buf:f32:4099:zero i32:4099
__global__ void vec4_asm_relu(const float *x, float *y, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (4 * v + 3 < n) {
    float a, b, c, d;
    asm volatile("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(a), "=f"(b), "=f"(c), "=f"(d)
                 : "l"(x + 4 * v));
    asm volatile("st.global.cs.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(y + 4 * v), "f"(fmaxf(a, 0.f)),
                 "f"(fmaxf(b, 0.f)), "f"(fmaxf(c, 0.f)), "f"(fmaxf(d, 0.f))
                 : "memory");
  } else if (v == n / 4) {
    for (int i = 4 * v; i < n; ++i)
      y[i] = fmaxf(x[i], 0.f);
  }
}

// A histogram through `red.global.add.u32`: atomics in asm are still
// atomics, never idempotent.
// GMEM-EXPECT: asm_red_histogram non-idempotent
// GMEM-RUN: asm_red_histogram grid=8 block=256 args=buf:i32:2048:randint:0:64 buf:u32:64:zero i32:2048
__global__ void asm_red_histogram(const int *keys, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    asm volatile("red.global.add.u32 [%0], 1;" ::"l"(bins + (keys[i] & 63)) : "memory");
}

// Adversarial round 49: CUB block/warp primitives inside user kernels.
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cub/thread/thread_load.cuh>
#include <cub/thread/thread_store.cuh>
#include <cuda/functional>
#include <cuda/std/functional>
#include <climits>

// Striped load, blocked (direct) store: a permutation inside each 512-item
// tile, guarded by n. Truth: reads in[0,n), writes out[0,n). ptr:0+0 is an
// in-place permutation (not idempotent).
// GMEM-EXPECT: cub_striped_to_blocked conditional
// GMEM-RUN: cub_striped_to_blocked grid=4 block=128 args=buf:i32:2048:iota buf:i32:2048:zero i32:2000
// GMEM-RUN: cub_striped_to_blocked grid=4 block=128 args=buf:i32:2048:iota ptr:0+0 i32:2048
// GMEM-RUN: cub_striped_to_blocked grid=6 block=128 args=buf:i32:2048:iota buf:i32:2048:zero i32:1500
__global__ void cub_striped_to_blocked(const int *in, int *out, int n) {
  using L = cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_STRIPED>;
  using S = cub::BlockStore<int, 128, 4, cub::BLOCK_STORE_DIRECT>;
  int base = blockIdx.x * 512;
  int items[4];
  L().Load(in + base, items, n - base, -1);
  S().Store(out + base, items, n - base);
}

// Vectorized full-tile load (falls back to direct when in is misaligned).
// Truth: reads in[b*1024, +1024), writes out[b*1024,+1024) = 2*in.
// GMEM-EXPECT: cub_vectorized conditional
// GMEM-RUN: cub_vectorized grid=2 block=256 args=buf:f32:2048:rand buf:f32:2048:zero
// GMEM-RUN: cub_vectorized grid=2 block=256 args=buf:f32:2056:rand ptr:0+16
// GMEM-RUN: cub_vectorized grid=1 block=256 args=buf:f32:2056:rand ptr:0+4096
__global__ void cub_vectorized(const float *in, float *out) {
  using L = cub::BlockLoad<float, 256, 4, cub::BLOCK_LOAD_VECTORIZE>;
  using S = cub::BlockStore<float, 256, 4, cub::BLOCK_STORE_VECTORIZE>;
  float items[4];
  L().Load(in + blockIdx.x * 1024, items);
  for (int i = 0; i < 4; ++i) items[i] *= 2.0f;
  S().Store(out + blockIdx.x * 1024, items);
}

// Warp-transpose load and store (shared-memory exchange inside).
// Truth: out[base + j] = in[base + j] + 1 for j < valid (positions kept).
// GMEM-EXPECT: cub_warp_transpose conditional
// GMEM-RUN: cub_warp_transpose grid=2 block=64 args=buf:f32:512:rand buf:f32:512:zero i32:500
// GMEM-RUN: cub_warp_transpose grid=2 block=64 args=buf:f32:512:rand ptr:0+0 i32:512
__global__ void cub_warp_transpose(const float *in, float *out, int n) {
  using L = cub::BlockLoad<float, 64, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using S = cub::BlockStore<float, 64, 4, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  __shared__ union { typename L::TempStorage l; typename S::TempStorage s; } tmp;
  int base = blockIdx.x * 256;
  float items[4];
  L(tmp.l).Load(in + base, items, n - base, 0.0f);
  for (int i = 0; i < 4; ++i) items[i] += 1.0f;
  __syncthreads();
  S(tmp.s).Store(out + base, items, n - base);
}

// BlockReduce max into out[blockIdx]. Aliasing out=in: block b overwrites
// in[b], which block 0 reads (cross-block race, not idempotent).
// GMEM-EXPECT: cub_block_max conditional
// GMEM-RUN: cub_block_max grid=4 block=128 args=buf:i32:2048:rand buf:i32:4:zero i32:2048
// GMEM-RUN: cub_block_max grid=4 block=128 args=buf:i32:2048:rand ptr:0+0 i32:2048
// GMEM-RUN: cub_block_max grid=4 block=128 args=buf:i32:2048:rand ptr:0+8176 i32:2044
__global__ void cub_block_max(const int *in, int *out, int n) {
  using R = cub::BlockReduce<int, 128>;
  __shared__ typename R::TempStorage tmp;
  int base = blockIdx.x * 512;
  int items[4];
  cub::LoadDirectBlocked(threadIdx.x, in + base, items, n - base, INT_MIN);
  int m = R(tmp).Reduce(items, cuda::maximum<>{});
  if (threadIdx.x == 0) out[blockIdx.x] = m;
}

// Running prefix kept in global memory by the scan's prefix callback (read
// and written by lane 0 of warp 0 once per tile).
struct GlobalPrefix {
  int *total;
  __device__ int operator()(int block_aggregate) {
    int old = *total;
    *total = old + block_aggregate;
    return old;
  }
};
// Truth: total[0] RMW (not idempotent), out[0,n) exclusive scan.
// GMEM-EXPECT: cub_scan_global_prefix non-idempotent
// GMEM-RUN: cub_scan_global_prefix grid=1 block=128 args=buf:i32:1024:randint:0:5 buf:i32:1024:zero buf:i32:1:zero i32:1024
__global__ void cub_scan_global_prefix(const int *in, int *out, int *total, int n) {
  using Sc = cub::BlockScan<int, 128>;
  __shared__ typename Sc::TempStorage tmp;
  GlobalPrefix p{total};
  for (int base = 0; base < n; base += 128) {
    int i = base + threadIdx.x;
    int x = i < n ? in[i] : 0, y;
    Sc(tmp).ExclusiveSum(x, y, p);
    __syncthreads();
    if (i < n) out[i] = y;
  }
}

// Prefix kept in a register (the classic callback): inclusive scan of a
// long row by one block. Truth: reads in[0,n), writes out[0,n).
struct RegPrefix {
  int run;
  __device__ int operator()(int agg) { int o = run; run += agg; return o; }
};
// GMEM-EXPECT: cub_scan_reg_prefix conditional
// GMEM-RUN: cub_scan_reg_prefix grid=1 block=128 args=buf:i32:1000:randint:0:9 buf:i32:1000:zero i32:1000
// GMEM-RUN: cub_scan_reg_prefix grid=1 block=128 args=buf:i32:1000:randint:0:9 ptr:0+0 i32:1000
// GMEM-RUN: cub_scan_reg_prefix grid=1 block=128 args=buf:i32:1200:randint:0:9 ptr:0+400 i32:1000
__global__ void cub_scan_reg_prefix(const int *in, int *out, int n) {
  using Sc = cub::BlockScan<int, 128, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename Sc::TempStorage tmp;
  RegPrefix p{0};
  for (int base = 0; base < n; base += 128) {
    int i = base + threadIdx.x;
    int x = i < n ? in[i] : 0, y;
    Sc(tmp).InclusiveScan(x, y, cuda::std::plus<>{}, p);
    __syncthreads();
    if (i < n) out[i] = y;
  }
}

// Scan-based compaction: the scatter index comes from an exclusive scan of
// flags. Truth: writes out[0, count) (count <= 256 per block) and
// count_out[blockIdx]; reads in[tile].
// GMEM-EXPECT: cub_compact conditional
// GMEM-RUN: cub_compact grid=2 block=256 args=buf:i32:512:randint:0:100 buf:i32:512:zero buf:i32:2:zero
// GMEM-RUN: cub_compact grid=1 block=256 args=buf:i32:256:randint:0:100 ptr:0+0 buf:i32:1:zero
__global__ void cub_compact(const int *in, int *out, int *count_out) {
  using Sc = cub::BlockScan<int, 256>;
  __shared__ typename Sc::TempStorage tmp;
  int i = blockIdx.x * 256 + threadIdx.x;
  int v = in[i];
  int flag = v >= 50, pos, total;
  Sc(tmp).ExclusiveSum(flag, pos, total);
  __syncthreads();
  if (flag) out[blockIdx.x * 256 + pos] = v;
  if (threadIdx.x == 0) count_out[blockIdx.x] = total;
}

// Block radix sort of a 512-key tile. ptr:0+0 sorts in place (reads what it
// writes: not idempotent by definition even though sorted data stays sorted).
// GMEM-EXPECT: cub_radix_sort conditional
// GMEM-RUN: cub_radix_sort grid=2 block=128 args=buf:i32:1024:rand buf:i32:1024:zero
// GMEM-RUN: cub_radix_sort grid=2 block=128 args=buf:i32:1024:rand ptr:0+0
// GMEM-RUN: cub_radix_sort grid=1 block=128 args=buf:i32:1024:rand ptr:0+2048
__global__ void cub_radix_sort(const int *keys, int *out) {
  using RS = cub::BlockRadixSort<int, 128, 4>;
  __shared__ typename RS::TempStorage tmp;
  int items[4];
  cub::LoadDirectBlocked(threadIdx.x, keys + blockIdx.x * 512, items);
  RS(tmp).Sort(items);
  cub::StoreDirectBlocked(threadIdx.x, out + blockIdx.x * 512, items);
}

// Radix sort of keys with values = original position, values written to a
// second output indexed by the sorted rank. Truth: writes vals[tile], keys_out[tile].
// GMEM-EXPECT: cub_radix_sort_pairs conditional
// GMEM-RUN: cub_radix_sort_pairs grid=1 block=64 args=buf:u32:256:rand buf:u32:256:zero buf:i32:256:zero
__global__ void cub_radix_sort_pairs(const unsigned *keys, unsigned *keys_out, int *vals) {
  using RS = cub::BlockRadixSort<unsigned, 64, 4, int>;
  __shared__ typename RS::TempStorage tmp;
  unsigned k[4];
  int v[4];
  for (int i = 0; i < 4; ++i) { k[i] = keys[threadIdx.x * 4 + i]; v[i] = threadIdx.x * 4 + i; }
  RS(tmp).SortBlockedToStriped(k, v);
  for (int i = 0; i < 4; ++i) {
    keys_out[i * 64 + threadIdx.x] = k[i];
    vals[i * 64 + threadIdx.x] = v[i];
  }
}

// BlockHistogram to shared memory, then stored per block (no atomics on
// global). Truth: reads in (u8) tile of 512, writes hist[b*256, +256).
// GMEM-EXPECT: cub_histogram_store conditional
// GMEM-RUN: cub_histogram_store grid=2 block=128 args=buf:u8:1024:rand buf:u32:512:zero
__global__ void cub_histogram_store(const unsigned char *in, unsigned *hist) {
  using H = cub::BlockHistogram<unsigned char, 128, 4, 256>;
  __shared__ typename H::TempStorage tmp;
  __shared__ unsigned sh[256];
  unsigned char items[4];
  cub::LoadDirectStriped<128>(threadIdx.x, in + blockIdx.x * 512, items);
  H(tmp).Histogram(items, sh);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += 128) hist[blockIdx.x * 256 + b] = sh[b];
}

// Histogram merged into global with atomics (not idempotent).
// GMEM-EXPECT: cub_histogram_atomic non-idempotent
// GMEM-RUN: cub_histogram_atomic grid=2 block=128 args=buf:u8:1024:rand buf:u32:256:zero
__global__ void cub_histogram_atomic(const unsigned char *in, unsigned *hist) {
  using H = cub::BlockHistogram<unsigned char, 128, 4, 256, cub::BLOCK_HISTO_ATOMIC>;
  __shared__ typename H::TempStorage tmp;
  __shared__ unsigned sh[256];
  unsigned char items[4];
  cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * 512, items);
  H(tmp).Histogram(items, sh);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += 128) atomicAdd(&hist[b], sh[b]);
}

// WarpReduce sum per warp of 32 -> out[warp]; with out aliasing in at +K,
// warp w writes in[K/4 + w] that warp (K/4+w)/32 reads.
// GMEM-EXPECT: cub_warp_reduce conditional
// GMEM-RUN: cub_warp_reduce grid=2 block=128 args=buf:f32:256:rand buf:f32:8:zero
// GMEM-RUN: cub_warp_reduce grid=2 block=128 args=buf:f32:256:rand ptr:0+512
__global__ void cub_warp_reduce(const float *in, float *out) {
  using WR = cub::WarpReduce<float>;
  __shared__ typename WR::TempStorage tmp[4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int w = threadIdx.x / 32;
  float s = WR(tmp[w]).Sum(in[i]);
  if (threadIdx.x % 32 == 0) out[i / 32] = s;
}

// Logical warps of 8: WarpScan inclusive max, written at a lane-reversed spot.
// Truth: out[g*8 + 7 - l] for every thread; reads in[i].
// GMEM-EXPECT: cub_warp_scan8 conditional
// GMEM-RUN: cub_warp_scan8 grid=1 block=64 args=buf:i32:64:rand buf:i32:64:zero
// GMEM-RUN: cub_warp_scan8 grid=1 block=64 args=buf:i32:64:rand ptr:0+0
__global__ void cub_warp_scan8(const int *in, int *out) {
  using WS = cub::WarpScan<int, 8>;
  __shared__ typename WS::TempStorage tmp[8];
  int i = threadIdx.x, g = i / 8, l = i % 8;
  int y;
  WS(tmp[g]).InclusiveScan(in[i], y, cuda::maximum<>{});
  out[g * 8 + 7 - l] = y;
}

// ThreadLoad / ThreadStore with several cache modifiers at shifted offsets.
// Truth: reads in[i+1] (CV), in[i] (CS); writes out[i] (WT), out[n+i] (CS).
// GMEM-EXPECT: cub_cache_modifiers conditional
// GMEM-RUN: cub_cache_modifiers grid=1 block=128 args=buf:f32:129:rand buf:f32:256:zero i32:128
// GMEM-RUN: cub_cache_modifiers grid=1 block=128 args=buf:f32:512:rand ptr:0+4 i32:128
__global__ void cub_cache_modifiers(const float *in, float *out, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  float a = cub::ThreadLoad<cub::LOAD_CV>(const_cast<float *>(in) + i + 1);
  float b = cub::ThreadLoad<cub::LOAD_CS>(const_cast<float *>(in) + i);
  cub::ThreadStore<cub::STORE_WT>(out + i, a + b);
  cub::ThreadStore<cub::STORE_CS>(out + n + i, a - b);
}

// ThreadLoad/Store of vector and 64-bit types (v2/v4 asm forms).
// Truth: reads in4[i] (16 B) and in2[i] (16 B as longlong2 at index i),
// writes out4[i], out2[i].
// GMEM-EXPECT: cub_thread_vec conditional
// GMEM-RUN: cub_thread_vec grid=1 block=64 args=buf:f32:256:rand buf:f32:256:zero buf:i64:128:rand buf:i64:128:zero
// GMEM-RUN: cub_thread_vec grid=1 block=64 args=buf:f32:512:rand ptr:0+1024 buf:i64:256:rand ptr:2+16
__global__ void cub_thread_vec(float4 *in4, float4 *out4, long long *in2, long long *out2) {
  int i = threadIdx.x;
  float4 v = cub::ThreadLoad<cub::LOAD_CG>(in4 + i);
  v.x += 1.f;
  cub::ThreadStore<cub::STORE_CG>(out4 + i, v);
  longlong2 w = cub::ThreadLoad<cub::LOAD_LDG>(reinterpret_cast<longlong2 *>(in2) + i);
  w.y += 1;
  cub::ThreadStore<cub::STORE_WB>(reinterpret_cast<longlong2 *>(out2) + i, w);
}

// BlockExchange ScatterToStriped with data-dependent ranks (inside shared
// memory), then a striped store. Truth: writes out[tile] fully.
// GMEM-EXPECT: cub_exchange_scatter conditional
// GMEM-RUN: cub_exchange_scatter grid=1 block=64 args=buf:i32:128:iota buf:i32:128:zero
__global__ void cub_exchange_scatter(const int *in, int *out) {
  using E = cub::BlockExchange<int, 64, 2>;
  __shared__ typename E::TempStorage tmp;
  int items[2], ranks[2];
  for (int k = 0; k < 2; ++k) {
    items[k] = in[threadIdx.x * 2 + k];
    ranks[k] = (threadIdx.x * 2 + k) ^ 1;
  }
  E(tmp).ScatterToStriped(items, ranks);
  cub::StoreDirectStriped<64>(threadIdx.x, out, items);
}

// Guarded store where later blocks get a negative valid count.
// Truth: only blocks with base < n store; writes out[0,n).
// GMEM-EXPECT: cub_store_negative_valid idempotent
// GMEM-RUN: cub_store_negative_valid grid=8 block=64 args=buf:i32:300:zero i32:300
// GMEM-RUN: cub_store_negative_valid grid=8 block=64 args=buf:i32:300:zero i32:-5
__global__ void cub_store_negative_valid(int *out, int n) {
  using S = cub::BlockStore<int, 64, 2, cub::BLOCK_STORE_STRIPED>;
  int base = blockIdx.x * 128;
  int items[2] = {base + (int)threadIdx.x, base + 64 + (int)threadIdx.x};
  S().Store(out + base, items, n - base);
}

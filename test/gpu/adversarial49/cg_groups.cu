// Adversarial round 49: cooperative_groups beyond tiles: cg::reduce,
// cg::inclusive/exclusive_scan, cg::memcpy_async + cg::wait, coalesced and
// labeled groups, tile shfl with computed sources feeding addresses.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;

// cg::reduce over a 32-tile; lane 0 writes out[warp].
// Truth: reads in[0,N), writes out[0,N/32). ptr:0+0: warp w writes in[w],
// which warp 0 reads (not idempotent).
// GMEM-EXPECT: cg_tile_reduce conditional
// GMEM-RUN: cg_tile_reduce grid=2 block=128 args=buf:f32:256:rand buf:f32:8:zero
// GMEM-RUN: cg_tile_reduce grid=2 block=128 args=buf:f32:256:rand ptr:0+0
// GMEM-RUN: cg_tile_reduce grid=2 block=128 args=buf:f32:264:rand ptr:0+1024
__global__ void cg_tile_reduce(const float *in, float *out) {
  auto blk = cg::this_thread_block();
  auto t32 = cg::tiled_partition<32>(blk);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = cg::reduce(t32, in[i], cg::plus<float>());
  if (t32.thread_rank() == 0) out[i / 32] = s;
}

// cg::reduce with max and bit_xor on 16-tiles; meta_group_rank indexes out.
// Truth: out[2*(blockIdx*(bd/16) + meta)] and [+1]; reads in[i].
// GMEM-EXPECT: cg_tile16_maxxor conditional
// GMEM-RUN: cg_tile16_maxxor grid=2 block=64 args=buf:i32:128:rand buf:i32:16:zero
// GMEM-RUN: cg_tile16_maxxor grid=2 block=64 args=buf:i32:128:rand ptr:0+448
__global__ void cg_tile16_maxxor(const int *in, int *out) {
  auto t16 = cg::tiled_partition<16>(cg::this_thread_block());
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int m = cg::reduce(t16, in[i], cg::greater<int>());
  int x = cg::reduce(t16, in[i], cg::bit_xor<int>());
  int slot = blockIdx.x * (blockDim.x / 16) + t16.meta_group_rank();
  if (t16.thread_rank() == 0) { out[2 * slot] = m; out[2 * slot + 1] = x; }
}

// cg::inclusive_scan, written reversed inside the tile.
// Truth: out[w*32 + 31 - lane] for each thread; reads in[i].
// GMEM-EXPECT: cg_inclusive_scan_rev conditional
// GMEM-RUN: cg_inclusive_scan_rev grid=1 block=128 args=buf:i32:128:randint:0:10 buf:i32:128:zero
// GMEM-RUN: cg_inclusive_scan_rev grid=1 block=128 args=buf:i32:128:randint:0:10 ptr:0+0
__global__ void cg_inclusive_scan_rev(const int *in, int *out) {
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  int i = threadIdx.x;
  int s = cg::inclusive_scan(t32, in[i]);
  out[(i & ~31) + 31 - t32.thread_rank()] = s;
}

// Exclusive scan of flags as a compaction index (address from a shuffle-
// based scan). Truth: writes out[w*32 + 0 .. popcount) ; reads in[i].
// GMEM-EXPECT: cg_scan_compact conditional
// GMEM-RUN: cg_scan_compact grid=1 block=64 args=buf:i32:64:randint:0:100 buf:i32:64:const:-1
// GMEM-RUN: cg_scan_compact grid=1 block=64 args=buf:i32:64:randint:0:100 ptr:0+0
__global__ void cg_scan_compact(const int *in, int *out) {
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  int v = in[threadIdx.x];
  int f = v & 1;
  int pos = cg::exclusive_scan(t32, f);
  if (f) out[(threadIdx.x & ~31) + pos] = v;
}

// cg::memcpy_async of one tile to shared memory, cg::wait, reversed copy out.
// Truth: reads in[b*256, +256), writes out[b*256,+256).
// GMEM-EXPECT: cg_memcpy_async_rev conditional
// GMEM-RUN: cg_memcpy_async_rev grid=2 block=256 args=buf:f32:512:rand buf:f32:512:zero
// GMEM-RUN: cg_memcpy_async_rev grid=2 block=256 args=buf:f32:512:rand ptr:0+0
// GMEM-RUN: cg_memcpy_async_rev grid=1 block=256 args=buf:f32:512:rand ptr:0+1020
__global__ void cg_memcpy_async_rev(const float *in, float *out) {
  __shared__ float s[256];
  auto blk = cg::this_thread_block();
  cg::memcpy_async(blk, s, in + blockIdx.x * 256, sizeof(float) * 256);
  cg::wait(blk);
  out[blockIdx.x * 256 + threadIdx.x] = s[255 - threadIdx.x];
}

// cg::memcpy_async with a byte count from the launch (n floats) into smem,
// then write back in place shifted by one. Truth: reads a[0,n), writes
// a[1, n+1) -> overlaps (not idempotent) unless n == 0.
// GMEM-EXPECT: cg_memcpy_async_shift non-idempotent
// GMEM-RUN: cg_memcpy_async_shift grid=1 block=128 args=buf:f32:300:rand i32:200
// GMEM-RUN: cg_memcpy_async_shift grid=1 block=128 args=buf:f32:300:rand i32:0
__global__ void cg_memcpy_async_shift(float *a, int n) {
  __shared__ float s[256];
  auto blk = cg::this_thread_block();
  cg::memcpy_async(blk, s, a, sizeof(float) * n);
  cg::wait(blk);
  for (int i = threadIdx.x; i < n; i += blockDim.x) a[i + 1] = s[i];
}

// cg::memcpy_async on a 32-tile with aligned_size_t<16> (cp.async 16 B).
// Truth: reads in[w*32 .. +32) per warp; writes out[i] = s[lane^1].
// GMEM-EXPECT: cg_tile_memcpy16 conditional
// GMEM-RUN: cg_tile_memcpy16 grid=1 block=64 args=buf:f32:64:rand buf:f32:64:zero
// GMEM-RUN: cg_tile_memcpy16 grid=1 block=64 args=buf:f32:96:rand ptr:0+128
__global__ void cg_tile_memcpy16(const float *in, float *out) {
  __shared__ __align__(16) float s[64];
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  int w = threadIdx.x / 32;
  cg::memcpy_async(t32, s + w * 32, in + w * 32, cuda::aligned_size_t<16>(128));
  cg::wait(t32);
  out[threadIdx.x] = s[w * 32 + (t32.thread_rank() ^ 1)];
}

// Coalesced group inside a data-dependent branch: rank among active lanes is
// the store slot. Truth: out[w*32 + rank] for positive in (deterministic
// set of lanes); reads in[i].
// GMEM-EXPECT: cg_coalesced_compact conditional
// GMEM-RUN: cg_coalesced_compact grid=1 block=64 args=buf:f32:64:rand buf:f32:64:zero
__global__ void cg_coalesced_compact(const float *in, float *out) {
  float v = in[threadIdx.x];
  if (v > 0.f) {
    auto g = cg::coalesced_threads();
    out[(threadIdx.x & ~31) + g.thread_rank()] = v;
  }
}

// labeled_partition by key (match_any): the group's leader writes the size.
// Truth: out[leader lane index] = group size per distinct key (key in [0,4)).
// GMEM-EXPECT: cg_labeled_count conditional
// GMEM-RUN: cg_labeled_count grid=1 block=32 args=buf:i32:32:randint:0:4 buf:i32:32:zero
__global__ void cg_labeled_count(const int *key, int *out) {
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  auto g = cg::labeled_partition(t32, key[threadIdx.x]);
  if (g.thread_rank() == 0) out[threadIdx.x] = g.size();
}

// tile.shfl with a computed source lane feeding a store address.
// Truth: j = idx[(l*7)&31] & 63, out[j] = in[l] (race when idx repeats:
// several lanes may store different values to one out[j]).
// GMEM-EXPECT: cg_shfl_addr conditional
// GMEM-RUN: cg_shfl_addr grid=1 block=32 args=buf:i32:32:iota buf:f32:32:rand buf:f32:64:zero
// GMEM-RUN: cg_shfl_addr grid=1 block=32 args=buf:i32:32:iota buf:f32:96:rand ptr:1+128
__global__ void cg_shfl_addr(const int *idx, const float *in, float *out) {
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  int l = t32.thread_rank();
  int j = t32.shfl(idx[l], (l * 7) & 31) & 63;
  out[j] = in[l];
}

// A pointer distance broadcast with tile.shfl (lane 0's b - a).
// Truth: b[t] = b[t] + 1 in place; a never touched (not idempotent).
// GMEM-EXPECT: cg_shfl_distance non-idempotent
// GMEM-RUN: cg_shfl_distance grid=1 block=32 args=buf:f32:32:rand buf:f32:32:zero
__global__ void cg_shfl_distance(const float *b, float *a) {
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  long long d = t32.shfl((long long)(b - a), 0);
  int t = threadIdx.x;
  a[d + t] = b[t] + 1.0f;
}

// cg::reduce result written by lane 0 into the tile's own first input: the
// other lanes' reads of in[w*32] race with it (not idempotent).
// GMEM-EXPECT: cg_reduce_inplace non-idempotent
// GMEM-RUN: cg_reduce_inplace grid=1 block=64 args=buf:f32:64:rand
__global__ void cg_reduce_inplace(float *a) {
  auto t32 = cg::tiled_partition<32>(cg::this_thread_block());
  float s = cg::reduce(t32, a[threadIdx.x], cg::plus<float>());
  if (t32.thread_rank() == 0) a[threadIdx.x] = s;
}

// thread_block_tile<4>::shfl_down sum, writes by the tile's last lane at a
// position computed from meta_group_size.
// Truth: out[threadIdx.x/4] for lane 3 threads (index < bd/4).
// GMEM-EXPECT: cg_tile4_last conditional
// GMEM-RUN: cg_tile4_last grid=1 block=64 args=buf:f32:64:rand buf:f32:16:zero
// GMEM-RUN: cg_tile4_last grid=1 block=64 args=buf:f32:64:rand ptr:0+192
__global__ void cg_tile4_last(const float *in, float *out) {
  auto t4 = cg::tiled_partition<4>(cg::this_thread_block());
  float v = in[threadIdx.x];
  for (int o = 1; o < 4; o <<= 1) { float u = t4.shfl_up(v, o); if (t4.thread_rank() >= (unsigned)o) v += u; }
  if (t4.thread_rank() == 3) out[t4.meta_group_size() - 1 - t4.meta_group_rank()] = v;
}

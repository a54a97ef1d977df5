// Adversarial round 49: libcu++ atomics (atomic_ref, std::atomic in global
// memory), cuda::barrier / cuda::pipeline / cuda::memcpy_async staging, and
// cuda::ptx wrappers (bulk copies with an mbarrier).
#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/ptx>
#include <cuda/annotated_ptr>

// Device-scope fetch_add on a counter; the returned ticket picks the slot.
// Truth: counter RMW; out[ticket] -- not idempotent (second run: tickets n..2n-1).
// GMEM-EXPECT: aref_ticket non-idempotent
// GMEM-RUN: aref_ticket grid=2 block=64 args=buf:i32:1:zero buf:f32:256:zero
__global__ void aref_ticket(int *counter, float *out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> c(*counter);
  int k = c.fetch_add(1, cuda::std::memory_order_relaxed);
  out[k & 255] = (float)threadIdx.x;
}

// fetch_min / fetch_max (results unused): order-free, but RMW of mn/mx.
// GMEM-EXPECT: aref_minmax non-idempotent
// GMEM-RUN: aref_minmax grid=2 block=128 args=buf:i32:256:rand buf:i32:1:const:1000 buf:i32:1:const:-1000
__global__ void aref_minmax(const int *v, int *mn, int *mx) {
  int x = v[blockIdx.x * blockDim.x + threadIdx.x];
  cuda::atomic_ref<int, cuda::thread_scope_device>(*mn).fetch_min(x, cuda::std::memory_order_acq_rel);
  cuda::atomic_ref<int, cuda::thread_scope_device>(*mx).fetch_max(x, cuda::std::memory_order_seq_cst);
}

// exchange: the previous occupant of a slot is written out.
// Truth: slot RMW; prev[t] = old slot value (order dependent).
// GMEM-EXPECT: aref_exchange non-idempotent
// GMEM-RUN: aref_exchange grid=1 block=64 args=buf:i32:4:zero buf:i32:64:zero
__global__ void aref_exchange(int *slot, int *prev) {
  int t = threadIdx.x;
  prev[t] = cuda::atomic_ref<int, cuda::thread_scope_block>(slot[t & 3]).exchange(t);
}

// compare_exchange_strong claims a slot once: who wins depends on order.
// GMEM-EXPECT: aref_cas_claim non-idempotent
// GMEM-RUN: aref_cas_claim grid=1 block=64 args=buf:i32:8:const:-1 buf:i32:64:zero
__global__ void aref_cas_claim(int *owner, int *won) {
  int t = threadIdx.x, e = -1;
  bool ok = cuda::atomic_ref<int, cuda::thread_scope_system>(owner[t & 7]).compare_exchange_strong(e, t);
  won[t] = ok;
}

// Release stores only: no read at all -> idempotent.
// GMEM-EXPECT: aref_store_release idempotent
// GMEM-RUN: aref_store_release grid=2 block=64 args=buf:i32:128:rand
__global__ void aref_store_release(int *flags) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cuda::atomic_ref<int, cuda::thread_scope_device>(flags[i]).store(i, cuda::std::memory_order_release);
}

// Acquire loads of in, plain stores to out (shifted by s).
// Truth: reads in[0,N), writes out[s, s+N).
// GMEM-EXPECT: aref_load_acquire conditional
// GMEM-RUN: aref_load_acquire grid=1 block=128 args=buf:i32:128:rand buf:i32:256:zero i32:100
// GMEM-RUN: aref_load_acquire grid=1 block=128 args=buf:i32:256:rand ptr:0+512 i32:-100
__global__ void aref_load_acquire(int *in, int *out, int s) {
  int i = threadIdx.x;
  int v = cuda::atomic_ref<int, cuda::thread_scope_device>(in[i]).load(cuda::std::memory_order_acquire);
  out[i + s] = v;
}

// 8-bit atomic_ref: fetch_or on odd bytes (libcu++ emulates sub-word atomics
// with a CAS on the containing 32-bit word). Truth: RMW of bytes[2t+1].
// GMEM-EXPECT: aref_u8_or non-idempotent
// GMEM-RUN: aref_u8_or grid=1 block=64 args=buf:u8:132:zero
__global__ void aref_u8_or(unsigned char *bytes) {
  int t = threadIdx.x;
  cuda::atomic_ref<unsigned char, cuda::thread_scope_device> r(bytes[2 * t + 1]);
  r.fetch_or((unsigned char)(1u << (t & 7)));
}

// 16-bit atomic_ref fetch_add at index 3t+1 (words shared by neighbours).
// GMEM-EXPECT: aref_u16_add non-idempotent
// GMEM-RUN: aref_u16_add grid=1 block=32 args=buf:u32:64:zero
__global__ void aref_u16_add(unsigned *words) {
  unsigned short *h = reinterpret_cast<unsigned short *>(words);
  cuda::atomic_ref<unsigned short, cuda::thread_scope_device> r(h[3 * threadIdx.x + 1]);
  r.fetch_add(1);
}

// float fetch_add through atomic_ref (order dependent sum).
// GMEM-EXPECT: aref_float_sum non-idempotent
// GMEM-RUN: aref_float_sum grid=2 block=128 args=buf:f32:256:rand buf:f32:1:zero
__global__ void aref_float_sum(const float *in, float *sum) {
  cuda::atomic_ref<float, cuda::thread_scope_device>(*sum).fetch_add(in[blockIdx.x * blockDim.x + threadIdx.x]);
}

// cuda::std::atomic<int> objects living in a global buffer: store then load
// a neighbour's (written by another thread of the block).
// Truth: writes a[0,N), reads a[(t+1)%N] -> reads what others write.
// GMEM-EXPECT: std_atomic_global non-idempotent
// GMEM-RUN: std_atomic_global grid=1 block=64 args=buf:i32:64:zero buf:i32:64:zero
__global__ void std_atomic_global(int *raw, int *out) {
  auto *a = reinterpret_cast<cuda::std::atomic<int> *>(raw);
  int t = threadIdx.x;
  a[t].store(t + 1);
  __syncthreads();
  out[t] = a[(t + 1) % blockDim.x].load();
}

// A block barrier and cuda::memcpy_async staging a tile into shared memory,
// written back reversed. Truth: reads in[b*128,+128), writes out same range.
// GMEM-EXPECT: barrier_stage_rev conditional
// GMEM-RUN: barrier_stage_rev grid=2 block=128 args=buf:f32:256:rand buf:f32:256:zero
// GMEM-RUN: barrier_stage_rev grid=2 block=128 args=buf:f32:256:rand ptr:0+0
__global__ void barrier_stage_rev(const float *in, float *out) {
  __shared__ float s[128];
  using Bar = cuda::barrier<cuda::thread_scope_block>;
  __shared__ __align__(16) unsigned char bar_mem[sizeof(Bar)];
  Bar &bar = *reinterpret_cast<Bar *>(bar_mem);
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0)
    cuda::memcpy_async(s, in + blockIdx.x * 128, sizeof(float) * 128, bar);
  bar.arrive_and_wait();
  out[blockIdx.x * 128 + threadIdx.x] = s[127 - threadIdx.x];
}

// memcpy_async of n bytes (launch value) with aligned_size_t<16> into
// shared memory, then written back one float later in place.
// Truth: reads a[0, n/4), writes a[1, n/4+1) (overlap unless n == 0).
// GMEM-EXPECT: barrier_copy_n_inplace non-idempotent
// GMEM-RUN: barrier_copy_n_inplace grid=1 block=64 args=buf:f32:512:rand i32:1024
// GMEM-RUN: barrier_copy_n_inplace grid=1 block=64 args=buf:f32:512:rand i32:0
__global__ void barrier_copy_n_inplace(float *a, int n) {
  __shared__ __align__(16) float s[512];
  using Bar = cuda::barrier<cuda::thread_scope_block>;
  __shared__ __align__(16) unsigned char bar_mem[sizeof(Bar)];
  Bar &bar = *reinterpret_cast<Bar *>(bar_mem);
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0) cuda::memcpy_async(s, a, cuda::aligned_size_t<16>(n), bar);
  bar.arrive_and_wait();
  for (int i = threadIdx.x; i < n / 4; i += blockDim.x) a[i + 1] = s[i];
}

// cuda::pipeline (thread scope), 4-byte async copies per thread, consumer
// reads a neighbour's element. Truth: reads in[i], writes out[i] = s[i^1].
// GMEM-EXPECT: pipeline_thread_stage conditional
// GMEM-RUN: pipeline_thread_stage grid=2 block=64 args=buf:f32:128:rand buf:f32:128:zero
// GMEM-RUN: pipeline_thread_stage grid=2 block=64 args=buf:f32:128:rand ptr:0+0
__global__ void pipeline_thread_stage(const float *in, float *out) {
  __shared__ float s[64];
  auto pipe = cuda::make_pipeline();
  int i = blockIdx.x * 64 + threadIdx.x;
  pipe.producer_acquire();
  cuda::memcpy_async(&s[threadIdx.x], &in[i], cuda::aligned_size_t<4>(sizeof(float)), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  __syncthreads();
  out[i] = s[threadIdx.x ^ 1];
  pipe.consumer_release();
}

// Two-stage pipeline loop over tiles of 64 (double buffering) with a stride
// from the launch. Truth: reads in[k*stride + t] for k < ntiles; writes out[k*64+t].
// GMEM-EXPECT: pipeline_double_buffer conditional
// GMEM-RUN: pipeline_double_buffer grid=1 block=64 args=buf:f32:1024:rand buf:f32:512:zero i32:8 i32:128
// GMEM-RUN: pipeline_double_buffer grid=1 block=64 args=buf:f32:1024:rand ptr:0+0 i32:8 i32:64
__global__ void pipeline_double_buffer(const float *in, float *out, int ntiles, int stride) {
  __shared__ float s[2][64];
  auto pipe = cuda::make_pipeline();
  int t = threadIdx.x;
  pipe.producer_acquire();
  cuda::memcpy_async(&s[0][t], &in[t], cuda::aligned_size_t<4>(4), pipe);
  pipe.producer_commit();
  for (int k = 0; k < ntiles; ++k) {
    if (k + 1 < ntiles) {
      pipe.producer_acquire();
      cuda::memcpy_async(&s[(k + 1) & 1][t], &in[(k + 1) * stride + t], cuda::aligned_size_t<4>(4), pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    out[k * 64 + t] = s[k & 1][t] * 2.0f;
    pipe.consumer_release();
  }
}

// cuda::ptx bulk copy global -> shared (mbarrier complete_tx), then shared ->
// global (bulk_group). Truth: reads in[b*256, +256) floats (1 KiB), writes
// out[b*256, +256) = same bytes.
// GMEM-EXPECT: ptx_bulk_roundtrip conditional
// GMEM-RUN: ptx_bulk_roundtrip grid=2 block=32 args=buf:f32:512:rand buf:f32:512:zero
// GMEM-RUN: ptx_bulk_roundtrip grid=2 block=32 args=buf:f32:768:rand ptr:0+1024
__global__ void ptx_bulk_roundtrip(const float *in, float *out) {
  __shared__ __align__(128) float s[256];
  __shared__ __align__(8) cuda::std::uint64_t mbar;
  const cuda::std::uint32_t bytes = 256 * sizeof(float);
  if (threadIdx.x == 0) {
    cuda::ptx::mbarrier_init(&mbar, 1);
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, s,
                             in + blockIdx.x * 256, bytes, &mbar);
    cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta,
                                         cuda::ptx::space_shared, &mbar, bytes);
    while (!cuda::ptx::mbarrier_try_wait_parity(&mbar, 0)) {}
    cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared,
                             out + blockIdx.x * 256, s, bytes);
    cuda::ptx::cp_async_bulk_commit_group();
    cuda::ptx::cp_async_bulk_wait_group(cuda::ptx::n32_t<0>{});
  }
}

// annotated_ptr with a streaming access property.
// Truth: reads in[i], writes out[n-1-i].
// GMEM-EXPECT: annotated_stream conditional
// GMEM-RUN: annotated_stream grid=1 block=128 args=buf:f32:128:rand buf:f32:128:zero i32:128
// GMEM-RUN: annotated_stream grid=1 block=128 args=buf:f32:128:rand ptr:0+0 i32:128
__global__ void annotated_stream(const float *in, float *out, int n) {
  cuda::annotated_ptr<const float, cuda::access_property::streaming> p(in);
  cuda::annotated_ptr<float, cuda::access_property::persisting> q(out);
  int i = threadIdx.x;
  if (i < n) q[n - 1 - i] = p[i];
}

// Block-scope atomic_ref on a shared-memory ticket: the ticket orders the
// outputs (which input lands where depends on arrival order).
// GMEM-EXPECT: aref_smem_ticket non-idempotent
// GMEM-RUN: aref_smem_ticket grid=1 block=128 args=buf:f32:128:rand buf:f32:128:zero
__global__ void aref_smem_ticket(const float *in, float *out) {
  __shared__ int n;
  if (threadIdx.x == 0) n = 0;
  __syncthreads();
  int k = cuda::atomic_ref<int, cuda::thread_scope_block>(n).fetch_add(1);
  out[k] = in[threadIdx.x];
}

// Adversarial round 50: grid-stride loop shapes that the GridStride proof
// must refuse (or, where it accepts, whose result must not depend on the
// grid): carried accumulators, shifted starts and strides, other
// dimensions, early exits, shared memory, collectives, atomics, several
// loops, device functions, trip counters, clocks, bounds from memory.

// Attacks: per-thread accumulator over its trips, stored after the loop.
// GMEM-EXPECT: gs_accum_after conditional
// GMEM-RUN: gs_accum_after grid=4 block=64 args=buf:f32:5000:rand buf:f32:256:zero i32:5000
// GMEM-RUN: gs_accum_after grid=1 block=64 args=buf:f32:5000:rand ptr:0+4 i32:5000
__global__ void gs_accum_after(const float *in, float *out, int n) {
  float s = 0.0f;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = t; i < n; i += blockDim.x * gridDim.x)
    s += in[i];
  out[t] = s;
}

// Attacks: running per-thread prefix stored every trip (second header phi).
// GMEM-EXPECT: gs_running_prefix conditional
// GMEM-RUN: gs_running_prefix grid=4 block=64 args=buf:i32:5000:rand buf:i32:5000:zero i32:5000
// GMEM-RUN: gs_running_prefix grid=1 block=64 args=buf:i32:5000:rand buf:i32:5000:zero i32:5000
__global__ void gs_running_prefix(const int *in, int *out, int n) {
  int s = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    s += in[i];
    out[i] = s;
  }
}

// Attacks: trip counter written as the item's value.
// GMEM-EXPECT: gs_trip_count conditional
// GMEM-RUN: gs_trip_count grid=4 block=64 args=buf:i32:5000:rand buf:i32:5000:zero i32:5000
__global__ void gs_trip_count(const int *in, int *out, int n) {
  int k = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i] + (k++);
}

// Attacks: start shifted by a parameter (items [off, n) only; threadIdx.x != i mod blockDim.x).
// GMEM-EXPECT: gs_shift_start conditional
// GMEM-RUN: gs_shift_start grid=4 block=64 args=buf:i32:5000:rand buf:i32:5000:zero i32:5000 i32:3
// GMEM-RUN: gs_shift_start grid=1 block=64 args=buf:i32:5000:rand buf:i32:64:zero i32:5000 i32:3
__global__ void gs_shift_start(const int *in, int *out, int n, int off) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x + off; i < n; i += blockDim.x * gridDim.x)
    out[threadIdx.x] = in[i];
}

// Attacks: stride twice the grid (every other block of items is skipped, grid-dependently).
// GMEM-EXPECT: gs_double_stride conditional
// GMEM-RUN: gs_double_stride grid=4 block=64 args=buf:f32:5000:rand buf:f32:5000:zero i32:5000
__global__ void gs_double_stride(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += 2 * blockDim.x * gridDim.x)
    out[i] = in[i] + 1.0f;
}

// Attacks: stride is gridDim.x alone (thread-block-contiguous schedule), items = i*blockDim.x + t.
// GMEM-EXPECT: gs_block_stride conditional
// GMEM-RUN: gs_block_stride grid=4 block=64 args=buf:f32:5000:rand buf:f32:5000:zero i32:78
__global__ void gs_block_stride(const float *in, float *out, int nb) {
  for (int b = blockIdx.x; b < nb; b += gridDim.x)
    out[b * blockDim.x + threadIdx.x] = in[b * blockDim.x + threadIdx.x] * 2.0f;
}

// Attacks: grid-stride in y (the runtime only regrids x) writing x-slots.
// GMEM-EXPECT: gs_y_loop conditional
// GMEM-RUN: gs_y_loop grid=2,2 block=16,16 args=buf:f32:4096:rand buf:f32:4096:zero i32:128
__global__ void gs_y_loop(const float *in, float *out, int rows) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows; r += blockDim.y * gridDim.y)
    out[r * 32 + (x & 31)] = in[r * 32 + (x & 31)];
}

// Attacks: data-dependent early break (the loop has a second exit).
// GMEM-EXPECT: gs_early_break conditional
// GMEM-RUN: gs_early_break grid=2 block=32 args=buf:i32:3000:randint:0:50 buf:i32:3000:zero i32:3000
__global__ void gs_early_break(const int *in, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    if (in[i] == 0)
      break;
    out[i] = in[i];
  }
}

// Attacks: data-dependent early return inside the loop.
// GMEM-EXPECT: gs_early_return conditional
// GMEM-RUN: gs_early_return grid=2 block=32 args=buf:i32:3000:randint:0:50 buf:i32:3000:zero i32:3000
__global__ void gs_early_return(const int *in, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    if (in[i] == 0)
      return;
    out[i] = in[i] + 1;
  }
}

// Attacks: "last trip of this thread" detected with the next index (uses the step in the body).
// GMEM-EXPECT: gs_last_trip conditional
// GMEM-RUN: gs_last_trip grid=2 block=64 args=buf:i32:5000:rand buf:i32:5000:zero i32:5000
__global__ void gs_last_trip(const int *in, int *out, int n) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = (i + stride >= n) ? -in[i] : in[i];
}

// Attacks: shared memory and a barrier inside the loop.
// GMEM-EXPECT: gs_smem_barrier conditional
// GMEM-RUN: gs_smem_barrier grid=2 block=64 args=buf:f32:4096:rand buf:f32:4096:zero i32:4096
__global__ void gs_smem_barrier(const float *in, float *out, int n) {
  __shared__ float s[64];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[63 - threadIdx.x];
    __syncthreads();
  }
}

// Attacks: warp shuffle inside the loop (value of a neighbouring item of the same warp).
// GMEM-EXPECT: gs_shfl conditional
// GMEM-RUN: gs_shfl grid=2 block=64 args=buf:f32:4096:rand buf:f32:4096:zero i32:4096
__global__ void gs_shfl(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = __shfl_xor_sync(0xffffffffu, in[i], 1);
}

// Attacks: ballot inside the loop, stored per item.
// GMEM-EXPECT: gs_ballot conditional
// GMEM-RUN: gs_ballot grid=2 block=64 args=buf:i32:4096:randint:0:2 buf:u32:4096:zero i32:4000
__global__ void gs_ballot(const int *in, unsigned *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = __ballot_sync(__activemask(), in[i] != 0);
}

// Attacks: atomic result stored (ticket order depends on the schedule).
// GMEM-EXPECT: gs_atomic_ticket non-idempotent
// GMEM-RUN: gs_atomic_ticket grid=2 block=64 args=buf:i32:1:zero buf:i32:3000:zero i32:3000
__global__ void gs_atomic_ticket(int *ctr, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = atomicAdd(ctr, 1);
}

// Attacks: two grid-stride loops in one kernel (second reads what the first wrote).
// GMEM-EXPECT: gs_two_loops non-idempotent
// GMEM-RUN: gs_two_loops grid=2 block=64 args=buf:f32:3000:rand buf:f32:3000:zero i32:3000
__global__ void gs_two_loops(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[n - 1 - i] += 1.0f;
}

__device__ __noinline__ void gs_body_noinline(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[threadIdx.x] = in[i];
}
// Attacks: the grid-stride loop lives in a noinline device function.
// GMEM-EXPECT: gs_in_devfn conditional
// GMEM-RUN: gs_in_devfn grid=1 block=64 args=buf:f32:5000:rand buf:f32:64:zero i32:5000
__global__ void gs_in_devfn(const float *in, float *out, int n) { gs_body_noinline(in, out, n); }

// Attacks: clock read inside the loop feeding the store.
// GMEM-EXPECT: gs_clock non-idempotent
// GMEM-RUN: gs_clock grid=2 block=64 args=buf:i32:3000:rand buf:i32:3000:zero i32:3000
__global__ void gs_clock(const int *in, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i] + (int)(clock64() & 1);
}

// Attacks: bound loaded from memory instead of a parameter.
// GMEM-EXPECT: gs_bound_mem conditional
// GMEM-RUN: gs_bound_mem grid=2 block=64 args=buf:i32:3000:rand buf:i32:3000:zero buf:i32:1:const:3000
__global__ void gs_bound_mem(const int *in, int *out, const int *np) {
  int n = *np;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[threadIdx.x] = in[i];
}

// Attacks: a store before the loop (outside it) of something derived from gridDim.x.
// GMEM-EXPECT: gs_store_before conditional
// GMEM-RUN: gs_store_before grid=2 block=64 args=buf:i32:3000:rand buf:i32:3001:zero i32:3000
__global__ void gs_store_before(const int *in, int *out, int n) {
  if (blockIdx.x == 0 && threadIdx.x == 0)
    out[n] = gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i];
}

// Attacks: inclusive unsigned bound (items [0, n]) with a threadIdx-slot side store.
// GMEM-EXPECT: gs_inclusive_slot conditional
// GMEM-RUN: gs_inclusive_slot grid=1 block=64 args=buf:u32:5001:rand buf:u32:64:zero u32:5000
// GMEM-RUN: gs_inclusive_slot grid=3 block=64 args=buf:u32:5001:rand buf:u32:64:zero u32:5000
__global__ void gs_inclusive_slot(const unsigned *in, unsigned *out, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += blockDim.x * gridDim.x)
    out[threadIdx.x] = in[i] ^ i;
}

// Attacks: local array indexed by loaded data (alloca) inside the loop.
// GMEM-EXPECT: gs_local_table conditional
// GMEM-RUN: gs_local_table grid=2 block=64 args=buf:i32:3000:randint:0:8 buf:i32:3000:zero i32:3000
__global__ void gs_local_table(const int *in, int *out, int n) {
  int tab[8];
  for (int k = 0; k < 8; ++k) tab[k] = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    tab[in[i]]++;
    out[i] = tab[in[i]];
  }
}

// Attacks: in-place neighbour read (item i reads item i+1's element).
// GMEM-EXPECT: gs_inplace_shift non-idempotent
// GMEM-RUN: gs_inplace_shift grid=2 block=64 args=buf:f32:3001:rand i32:3000
// GMEM-RUN: gs_inplace_shift grid=1 block=1 args=buf:f32:3001:rand i32:3000
__global__ void gs_inplace_shift(float *a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    a[i] = a[i + 1];
}

// Attacks: in-place max with a second buffer, idempotent, aliasing instance makes it not.
// GMEM-EXPECT: gs_inplace_max conditional
// GMEM-RUN: gs_inplace_max grid=2 block=64 args=buf:f32:3000:rand buf:f32:3000:rand i32:3000
// GMEM-RUN: gs_inplace_max grid=2 block=64 args=buf:f32:3001:rand ptr:0+4 i32:3000
// GMEM-RUN: gs_inplace_max grid=2 block=64 args=buf:f32:3000:rand ptr:0+0 i32:3000
__global__ void gs_inplace_max(float *x, const float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    x[i] = fmaxf(x[i], y[i]);
}

// Attacks: thread coordinate through blockDim.x arithmetic: (i / blockDim.x) is "virtual block".
// GMEM-EXPECT: gs_virtual_block conditional
// GMEM-RUN: gs_virtual_block grid=2 block=64 args=buf:i32:5000:rand buf:i32:5000:zero i32:5000
__global__ void gs_virtual_block(const int *in, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i] + (i / blockDim.x) * 1000 + threadIdx.x;
}

// Attacks: 32-bit unsigned index wrapping near 2^32 (n given as a huge u32; items past the buffer are masked).
// GMEM-EXPECT: gs_u32_masked conditional
// GMEM-RUN: gs_u32_masked grid=2 block=64 args=buf:i32:1024:rand buf:i32:1024:zero u32:3000
__global__ void gs_u32_masked(const int *in, int *out, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i & 1023] = in[i & 1023] + (int)(i >> 10);
}

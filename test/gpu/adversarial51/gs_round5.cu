// Adversarial round 5: grid-stride shapes aimed at the GridStride write rule
// (one base + constant stride x index, item bytes within one stride) and at
// the "blockIdx.x/gridDim.x only in the index" rule.

// Attacks: per-thread partial stored after the loop at the global thread id.
// GMEM-EXPECT: g5_partial_after conditional
// GMEM-RUN: g5_partial_after grid=4 block=64 args=buf:f32:3000:rand buf:f32:3000:rand buf:f32:256:zero i32:3000
__global__ void g5_partial_after(const float *in, float *out, float *partial, int n) {
  float acc = 0.f;
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = t; i < n; i += blockDim.x * gridDim.x) { out[i] = in[i] * 2.f; acc += in[i]; }
  partial[t] = acc;
}

// Attacks: atomicExch at out+i inside the loop (atomic store, same bytes per item).
// GMEM-EXPECT: g5_atomic_exch conditional
// GMEM-RUN: g5_atomic_exch grid=4 block=64 args=buf:i32:3000:rand buf:i32:3000:zero i32:3000
__global__ void g5_atomic_exch(const int *in, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicExch(&out[i], in[i]);
}

// Attacks: a double stored at float* out + i (8 bytes per 4-byte step: neighbours overlap).
// GMEM-EXPECT: g5_wide_store conditional
// GMEM-RUN: g5_wide_store grid=4 block=64 args=buf:f32:3000:rand buf:f32:3002:zero i32:3000
__global__ void g5_wide_store(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    double v = in[i];
    memcpy(out + i, &v, sizeof(double));
  }
}

// Attacks: negative stride store (reverse copy): precise and grid independent.
// GMEM-EXPECT: g5_reverse conditional
// GMEM-RUN: g5_reverse grid=4 block=64 args=buf:f32:3000:rand buf:f32:3000:zero i32:3000
__global__ void g5_reverse(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[n - 1 - i] = in[i] + 1.f;
}

// Attacks: gridDim.x read inside the body (value depends on the grid).
// GMEM-EXPECT: g5_griddim_value conditional
// GMEM-RUN: g5_griddim_value grid=4 block=64 args=buf:i32:3000:zero i32:3000
__global__ void g5_griddim_value(int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = gridDim.x;
}

// Attacks: blockIdx.x used in the value (i / blockDim.x would be the grid-free form).
// GMEM-EXPECT: g5_blockidx_value conditional
// GMEM-RUN: g5_blockidx_value grid=4 block=64 args=buf:i32:3000:zero i32:3000
__global__ void g5_blockidx_value(int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = blockIdx.x;
}

// Attacks: threadIdx.x and blockDim.x in the value (grid-free: t = i mod blockDim.x).
// GMEM-EXPECT: g5_tid_value conditional
// GMEM-RUN: g5_tid_value grid=4 block=64 args=buf:i32:3000:zero i32:3000
__global__ void g5_tid_value(int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = threadIdx.x * 1000 + blockDim.x;
}

// Attacks: inner constant loop writing 4 items per index (window == stride).
// GMEM-EXPECT: g5_inner4 conditional
// GMEM-RUN: g5_inner4 grid=4 block=64 args=buf:f32:1000:rand buf:f32:4000:zero i32:1000
__global__ void g5_inner4(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    for (int j = 0; j < 4; j++) out[4 * i + j] = in[i] + j;
}

// Attacks: inner loop writing 5 items per 4-stride index (window > stride: items overlap).
// GMEM-EXPECT: g5_inner5_overlap conditional
// GMEM-RUN: g5_inner5_overlap grid=4 block=64 args=buf:f32:1000:rand buf:f32:4004:zero i32:1000
__global__ void g5_inner5_overlap(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
#pragma unroll
    for (int j = 0; j < 5; j++) out[4 * i + j] = in[i] + j;
}

// Attacks: pointer advanced in the loop alongside the index.
// GMEM-EXPECT: g5_ptr_advance conditional
// GMEM-RUN: g5_ptr_advance grid=4 block=64 args=buf:f32:3000:rand buf:f32:3000:zero i32:3000
__global__ void g5_ptr_advance(const float *in, float *out, int n) {
  int s = blockIdx.x * blockDim.x + threadIdx.x, S = blockDim.x * gridDim.x;
  float *p = out + s;
  for (int i = s; i < n; i += S) { *p = in[i] * 3.f; p += S; }
}

// Attacks: while form with unsigned counter.
// GMEM-EXPECT: g5_while_unsigned conditional
// GMEM-RUN: g5_while_unsigned grid=4 block=64 args=buf:f32:3000:rand buf:f32:3000:zero u32:3000
__global__ void g5_while_unsigned(const float *in, float *out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  while (i < n) { out[i] = in[i] - 1.f; i += blockDim.x * gridDim.x; }
}

// Attacks: per-thread RNG seeded by the global thread id, advanced every trip.
// GMEM-EXPECT: g5_rng_state conditional
// GMEM-RUN: g5_rng_state grid=4 block=64 args=buf:u32:3000:zero i32:3000
__global__ void g5_rng_state(unsigned *out, int n) {
  unsigned st = (blockIdx.x * blockDim.x + threadIdx.x) * 747796405u + 1u;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    st = st * 1664525u + 1013904223u;
    out[i] = st;
  }
}

// Attacks: RNG seeded by the item index (grid free: hash of i).
// GMEM-EXPECT: g5_rng_item conditional
// GMEM-RUN: g5_rng_item grid=4 block=64 args=buf:u32:3000:zero i32:3000
__global__ void g5_rng_item(unsigned *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    unsigned h = (unsigned)i * 2654435761u;
    h ^= h >> 13; h *= 0x5bd1e995u;
    out[i] = h;
  }
}

// Attacks: two stores per item at 2i and 2i+1 through a char pointer (window 2 bytes, stride 2).
// GMEM-EXPECT: g5_bytes_pair conditional
// GMEM-RUN: g5_bytes_pair grid=4 block=64 args=buf:u8:3000:rand buf:u8:6000:zero i32:3000
__global__ void g5_bytes_pair(const unsigned char *in, unsigned char *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[2 * i] = in[i];
    out[2 * i + 1] = in[i] ^ 0xff;
  }
}

// Attacks: store at 2i and 2i+2 (window 3 elements > stride 2: item i+1 overwrites).
// GMEM-EXPECT: g5_pair_overlap conditional
// GMEM-RUN: g5_pair_overlap grid=4 block=64 args=buf:i32:3000:rand buf:i32:6002:zero i32:3000
__global__ void g5_pair_overlap(const int *in, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[2 * i] = in[i];
    out[2 * i + 2] = -in[i];
  }
}

// Attacks: index wraps in 32-bit unsigned arithmetic: out[(i * 4096u) >> 12] (== i for small i).
// GMEM-EXPECT: g5_mulshift conditional
// GMEM-RUN: g5_mulshift grid=4 block=64 args=buf:i32:3000:rand buf:i32:3000:zero u32:3000
__global__ void g5_mulshift(const int *in, int *out, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[(i * 4096u) >> 12] = in[i];
}

// Attacks: loop bound n but start offset by blockIdx.y rows (2-D grid, x-stride loop per row).
// GMEM-EXPECT: g5_rows_y conditional
// GMEM-RUN: g5_rows_y grid=2,3 block=64 args=buf:f32:3000:rand buf:f32:3000:zero i32:1000
__global__ void g5_rows_y(const float *in, float *out, int n) {
  const float *r = in + blockIdx.y * n;
  float *w = out + blockIdx.y * n;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    w[i] = r[i] * 0.25f;
}

// Attacks: inclusive bound, 64-bit index from a 32-bit start.
// GMEM-EXPECT: g5_inclusive64 conditional
// GMEM-RUN: g5_inclusive64 grid=4 block=64 args=buf:f32:3001:rand buf:f32:3001:zero i64:3000
__global__ void g5_inclusive64(const float *in, float *out, long long n) {
  for (long long i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += (long long)blockDim.x * gridDim.x)
    out[i] = in[i] + 0.5f;
}

// Attacks: store of item i reads the value just written by item i-1 (in place prefix over neighbours).
// GMEM-EXPECT: g5_neighbor_chain non-idempotent
// GMEM-RUN: g5_neighbor_chain grid=4 block=64 args=buf:i32:3001:rand i32:3000
__global__ void g5_neighbor_chain(int *a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    a[i + 1] = a[i] + 1;
}

// Attacks: write-once-if-zero per item (in place, idempotent, grid-free).
// GMEM-EXPECT: g5_write_once conditional
// GMEM-RUN: g5_write_once grid=4 block=64 args=buf:i32:3000:randint:0:3 buf:i32:3000:rand i32:3000
__global__ void g5_write_once(int *a, const int *v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    if (a[i] == 0) a[i] = v[i] + 1000;
}

// Attacks: lane id (via threadIdx.x & 31) and warp index in the value, grid free.
// GMEM-EXPECT: g5_lane_value conditional
// GMEM-RUN: g5_lane_value grid=4 block=96 args=buf:i32:3000:zero i32:3000
__global__ void g5_lane_value(int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = (threadIdx.x & 31) + 100 * (threadIdx.x >> 5);
}

// Attacks: bound is a parameter but compared to i + 1 (last item differs with the grid? no: same set).
// GMEM-EXPECT: g5_cond_tail conditional
// GMEM-RUN: g5_cond_tail grid=4 block=64 args=buf:f32:3000:rand buf:f32:3000:zero i32:3000
__global__ void g5_cond_tail(const float *in, float *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = (i + 1 < n) ? in[i + 1] - in[i] : 0.f;
}

// Attacks: two stores of one item, same element, different values (last one wins per item only).
// GMEM-EXPECT: g5_double_store conditional
// GMEM-RUN: g5_double_store grid=4 block=64 args=buf:i32:3000:rand buf:i32:3000:zero i32:3000
__global__ void g5_double_store(const int *in, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i] = 0;
    if (in[i] > 50) out[i] = in[i];
  }
}

// Attacks: store into the item's slot of a struct array (12-byte stride, 8 bytes written).
struct Rec { int a, b, c; };
// GMEM-EXPECT: g5_struct_fields conditional
// GMEM-RUN: g5_struct_fields grid=4 block=64 args=buf:i32:3000:rand buf:i32:9000:zero i32:3000
__global__ void g5_struct_fields(const int *in, Rec *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i].a = in[i];
    out[i].c = in[i] * 2;
  }
}

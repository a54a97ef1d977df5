// Kernels shaped after CUDA samples not covered elsewhere: BlackScholes
// (two outputs, three inputs, grid-stride loop), fastWalshTransform's
// radix-2 butterfly step (in place), scalarProd (one dot product per
// vector, blocks striding over the vectors, shared-memory accumulation),
// convolutionSeparable's row pass (tile plus apron staged in shared
// memory), histogram64 (per-warp sub-histograms in shared memory merged
// into one partial histogram per block, then the partials merged) and a
// mergeSort-style merge of two sorted runs by binary-search ranks.

// Standard normal CDF through erfc.
__device__ __forceinline__ float normal_cdf(float d) {
  return 0.5f * erfcf(-0.70710678f * d);
}

// European call and put prices for each option; S, X, T are spot price,
// strike and years to expiry, R the riskless rate, V the volatility.
// Thread i reads S[i], X[i], T[i] and writes call[i], put[i] only, so with
// S aliasing call the re-run prices a different spot.
// GMEM-EXPECT: black_scholes conditional
// GMEM-RUN: black_scholes grid=48 block=128 args=buf:f32:20000:zero buf:f32:20000:zero buf:f32:20000:const:30.0 buf:f32:20000:const:25.0 buf:f32:20000:const:2.0 f32:0.02 f32:0.3 i32:20000
// GMEM-RUN: black_scholes grid=16 block=128 args=buf:f32:5000:const:30.0 buf:f32:5000:zero ptr:0+0 buf:f32:5000:const:25.0 buf:f32:5000:const:2.0 f32:0.02 f32:0.3 i32:5000
__global__ void black_scholes(float *call, float *put, const float *S, const float *X, const float *T,
                              float R, float V, int optN) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < optN; i += blockDim.x * gridDim.x) {
    float s = S[i], x = X[i], t = T[i];
    float vsqrt = V * sqrtf(t);
    float d1 = (logf(s / x) + (R + 0.5f * V * V) * t) / vsqrt;
    float d2 = d1 - vsqrt;
    float disc = x * expf(-R * t);
    call[i] = s * normal_cdf(d1) - disc * normal_cdf(d2);
    put[i] = disc * normal_cdf(-d2) - s * normal_cdf(-d1);
  }
}

// One radix-2 step of a fast Walsh-Hadamard transform over a batch of
// signals of length n (blockIdx.y picks the signal): pairs (i0, i0 + stride)
// become (a + b, a - b) in place. stride is a power of two below n, n a
// power of two.
// GMEM-EXPECT: fwt_radix2_step non-idempotent
// GMEM-RUN: fwt_radix2_step grid=8,4 block=256 args=buf:f32:32768:rand i32:8192 i32:64
// GMEM-RUN: fwt_radix2_step grid=3,2 block=128 args=buf:f32:8192:rand i32:4096 i32:1
__global__ void fwt_radix2_step(float *data, int n, int stride) {
  float *sig = data + (size_t)blockIdx.y * n;
  int half = n >> 1;
  for (int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < half; pos += blockDim.x * gridDim.x) {
    int lo = pos & (stride - 1);
    int i0 = ((pos - lo) << 1) + lo;
    int i1 = i0 + stride;
    float a = sig[i0];
    float b = sig[i1];
    sig[i0] = a + b;
    sig[i1] = a - b;
  }
}

// C[v] = A[v, :] . B[v, :] for vectorN vectors of elementN elements. Each
// block takes vectors blockIdx.x, blockIdx.x + gridDim.x, ...; ACC partial
// sums are kept in shared memory and folded in a tree.
// GMEM-EXPECT: scalar_prod conditional
// GMEM-RUN: scalar_prod grid=32 block=128 args=buf:f32:256:zero buf:f32:262144:rand buf:f32:262144:rand i32:256 i32:1024
// GMEM-RUN: scalar_prod grid=5 block=96 args=buf:f32:37:zero buf:f32:3700:rand buf:f32:3700:rand i32:37 i32:100
__global__ void scalar_prod(float *C, const float *A, const float *B, int vectorN, int elementN) {
  const int ACC = 256;
  __shared__ float acc[ACC];
  for (int vec = blockIdx.x; vec < vectorN; vec += gridDim.x) {
    int base = vec * elementN;
    for (int slot = threadIdx.x; slot < ACC; slot += blockDim.x) {
      float s = 0.0f;
      for (int pos = slot; pos < elementN; pos += ACC)
        s += A[base + pos] * B[base + pos];
      acc[slot] = s;
    }
    __syncthreads();
    for (int width = ACC / 2; width > 0; width >>= 1) {
      for (int k = threadIdx.x; k < width; k += blockDim.x)
        acc[k] += acc[k + width];
      __syncthreads();
    }
    if (threadIdx.x == 0) C[vec] = acc[0];
    __syncthreads();
  }
}

// Row pass of a separable convolution (radius 8, taps[0..16]) over an
// h x w image with row pitch `pitch`. Launch with block=16,4: each block
// computes 4 tiles of 16 pixels of 4 rows, staging them plus a 16-pixel
// apron on each side (zero outside the image) in shared memory.
// GMEM-EXPECT: conv_rows_shared conditional
// GMEM-RUN: conv_rows_shared grid=5,25 block=16,4 args=buf:f32:30000:zero buf:f32:30000:rand buf:f32:17:rand i32:300 i32:100 i32:300
// GMEM-RUN: conv_rows_shared grid=4,16 block=16,4 args=buf:f32:16384:rand buf:f32:16384:rand buf:f32:17:rand i32:250 i32:61 i32:256
__global__ void conv_rows_shared(float *dst, const float *src, const float *taps, int w, int h, int pitch) {
  const int BX = 16, BY = 4, STEPS = 4, HALO = 1, RADIUS = 8;
  __shared__ float tile[BY][(STEPS + 2 * HALO) * BX];
  int ty = threadIdx.y, tx = threadIdx.x;
  int x0 = (blockIdx.x * STEPS - HALO) * BX + tx;
  int y = blockIdx.y * BY + ty;
  bool row_ok = y < h;
  for (int k = 0; k < STEPS + 2 * HALO; ++k) {
    int x = x0 + k * BX;
    float v = 0.0f;
    if (row_ok && x >= 0 && x < w) v = src[y * pitch + x];
    tile[ty][tx + k * BX] = v;
  }
  __syncthreads();
  if (!row_ok) return;
  for (int k = HALO; k < HALO + STEPS; ++k) {
    int x = x0 + k * BX;
    if (x < w) {
      float s = 0.0f;
      for (int j = -RADIUS; j <= RADIUS; ++j)
        s += taps[RADIUS + j] * tile[ty][tx + k * BX + j];
      dst[y * pitch + x] = s;
    }
  }
}

// 64-bin histogram of the bytes of n 32-bit words (bin = byte >> 2). Each
// warp counts into its own sub-histogram in shared memory (at most 8 warps
// a block); the block then sums the sub-histograms and stores its partial
// histogram, partial[blockIdx.x][0..63].
// GMEM-EXPECT: histogram64_partial conditional
// GMEM-RUN: histogram64_partial grid=32 block=256 args=buf:u32:2048:zero buf:u32:200000:rand i32:200000
// GMEM-RUN: histogram64_partial grid=7 block=96 args=buf:u32:448:rand buf:u32:5000:randint:0:2000000000 i32:5000
__global__ void histogram64_partial(unsigned int *partial, const unsigned int *data, int n) {
  const int BINS = 64, MAX_WARPS = 8;
  __shared__ unsigned int sub[MAX_WARPS][BINS];
  for (int k = threadIdx.x; k < MAX_WARPS * BINS; k += blockDim.x)
    sub[k / BINS][k % BINS] = 0;
  __syncthreads();
  unsigned int *mine = sub[threadIdx.x >> 5];
  for (int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < n; pos += blockDim.x * gridDim.x) {
    unsigned int word = data[pos];
    atomicAdd(&mine[(word >> 2) & 63u], 1u);
    atomicAdd(&mine[(word >> 10) & 63u], 1u);
    atomicAdd(&mine[(word >> 18) & 63u], 1u);
    atomicAdd(&mine[(word >> 26) & 63u], 1u);
  }
  __syncthreads();
  for (int bin = threadIdx.x; bin < BINS; bin += blockDim.x) {
    unsigned int total = 0;
    for (int wp = 0; wp < MAX_WARPS; ++wp)
      total += sub[wp][bin];
    partial[blockIdx.x * BINS + bin] = total;
  }
}

// Sums nPartial partial histograms: block b adds up bin b of each partial
// (threads stride over the partials, tree in shared memory). Launch with
// 64 blocks of 128 threads.
// GMEM-EXPECT: histogram64_merge conditional
// GMEM-RUN: histogram64_merge grid=64 block=128 args=buf:u32:64:zero buf:u32:2048:rand i32:32
// GMEM-RUN: histogram64_merge grid=64 block=128 args=buf:u32:64:rand buf:u32:19200:rand i32:300
__global__ void histogram64_merge(unsigned int *hist, const unsigned int *partial, int nPartial) {
  const int THREADS = 128;
  __shared__ unsigned int part[THREADS];
  unsigned int s = 0;
  for (int p = threadIdx.x; p < nPartial; p += THREADS)
    s += partial[p * 64 + blockIdx.x];
  part[threadIdx.x] = s;
  for (int width = THREADS / 2; width > 0; width >>= 1) {
    __syncthreads();
    if (threadIdx.x < width) part[threadIdx.x] += part[threadIdx.x + width];
  }
  if (threadIdx.x == 0) hist[blockIdx.x] = part[0];
}

// Number of x[0..n) below v (strict = true) or not above v (strict = false).
__device__ int rank_in(const int *x, int n, int v, bool strict) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) >> 1;
    bool left = strict ? (x[mid] < v) : (x[mid] <= v);
    if (left) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Stable merge of sorted runs a (na) and b (nb) into out (na + nb): each
// element goes to its own index plus its rank in the other run (ties: a's
// elements first).
// GMEM-EXPECT: merge_runs conditional
// GMEM-RUN: merge_runs grid=32 block=256 args=buf:i32:8000:zero buf:i32:5000:iota i32:5000 buf:i32:3000:iota i32:3000
// GMEM-RUN: merge_runs grid=5 block=64 args=buf:i32:300:rand buf:i32:100:const:7 i32:100 buf:i32:200:const:7 i32:200
__global__ void merge_runs(int *out, const int *a, int na, const int *b, int nb) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < na) {
    int v = a[idx];
    out[idx + rank_in(b, nb, v, true)] = v;
  } else if (idx < na + nb) {
    int j = idx - na;
    int v = b[j];
    out[j + rank_in(a, na, v, false)] = v;
  }
}

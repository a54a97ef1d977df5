// Sample kernels for exercising the GPU ground-truth harness (test/gpu).
// Not part of the analysis corpus; same comment format as test/corpus/*.cu
// (docs/CORPUS_FORMAT.md). bad_write deliberately faults to exercise the
// runner's error path and context re-creation.

// GMEM-EXPECT: scale_copy conditional
// GMEM-RUN: scale_copy grid=4 block=256 args=i32:1000 f32:2.5 buf:f32:1000:rand buf:f32:1000:zero
// GMEM-RUN: scale_copy grid=4 block=256 args=i32:1000 f32:2.5 buf:f32:1000:rand ptr:2+0
__global__ void scale_copy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}

// GMEM-EXPECT: saxpy non-idempotent
// GMEM-RUN: saxpy grid=4 block=256 args=i32:1000 f32:2.0 buf:f32:1000:rand buf:f32:1000:rand
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// GMEM-EXPECT: gather conditional
// GMEM-RUN: gather grid=2 block=128 args=i32:256 buf:i32:256:randint:0:512 buf:f64:512:iota buf:f64:256:const:-1
__global__ void gather(int n, const int *idx, const double *src, double *dst) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[idx[i]];
}

// GMEM-EXPECT: histogram non-idempotent
// GMEM-RUN: histogram grid=8 block=128 args=buf:u8:1024:rand buf:u32:100:zero u64:1024
__global__ void histogram(const unsigned char *data, unsigned *bins,
                          unsigned long long n) {
  unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[data[i]], 1u);
}

// GMEM-EXPECT: bad_write non-idempotent
// GMEM-RUN: bad_write grid=1 block=1 args=buf:f32:16:zero i64:1099511627776
__global__ void bad_write(float *p, long long off) { p[off] = 1.0f; }

// GMEM-EXPECT: reduce<256> idempotent
// GMEM-RUN: reduce<256> grid=8,1,1 block=256,1,1 args=buf:f32:2048:rand buf:f32:8:zero i32:2048
template <int B>
__global__ void reduce(const float *in, float *out, int n) {
  __shared__ float s[B];
  int i = blockIdx.x * B + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int w = B / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
template __global__ void reduce<256>(const float *, float *, int);

// GMEM-EXPECT: transpose conditional
// GMEM-RUN: transpose grid=4,4 block=16,16 args=buf:i64:4096:iota buf:i64:4096:zero i32:64
// GMEM-RUN: transpose grid=4,4 block=16,16 args=buf:i64:4096:iota ptr:0+0 i32:64
__global__ void transpose(const long long *in, long long *out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < w) out[x * w + y] = in[y * w + x];
}

// No GMEM-RUN line on purpose: spins until *flag != 0, which never happens
// with a zero buffer. Only sample/manifest_hang.txt uses it, to check the
// runner's watchdog (run with --timeout 2; expected exit status 3).
__global__ void spin(volatile int *flag) {
  while (*flag == 0) {
  }
}

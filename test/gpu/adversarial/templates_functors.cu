// Adversarial round 48: templates and functors: template<int N> kernels,
// functor structs holding pointers passed by value to noinline device
// functions, arrays of pointers in a local struct indexed by threadIdx,
// __constant__ pointer tables, __device__ global pointers.

// Stride N: writes p[N * t + off]; N = 5 and a negative N.
// GMEM-EXPECT: strided_store<5> idempotent
// GMEM-RUN: strided_store<5> grid=1 block=64 args=buf:f32:1024:zero i32:7
template <int N> __global__ void strided_store(float *p, int off) {
  p[N * (int)threadIdx.x + off] = (float)N;
}
template __global__ void strided_store<5>(float *, int);

// GMEM-EXPECT: strided_store<-3> idempotent
// GMEM-RUN: strided_store<-3> grid=1 block=64 args=buf:f32:1024:zero i32:500
template __global__ void strided_store<-3>(float *, int);

// In place with a template shift: a[t] = a[t + S] for S = 1 (overlap) and
// S = 64 (disjoint for 64 threads).
// GMEM-EXPECT: shift_by<1> non-idempotent
// GMEM-RUN: shift_by<1> grid=1 block=64 args=buf:f32:256:rand
template <int S> __global__ void shift_by(float *a) {
  unsigned t = threadIdx.x;
  float v = a[t + S];
  __syncthreads();
  a[t] = v;
}
template __global__ void shift_by<1>(float *);

// GMEM-EXPECT: shift_by<64> conditional
// GMEM-RUN: shift_by<64> grid=1 block=64 args=buf:f32:256:rand
// GMEM-RUN: shift_by<64> grid=1 block=128 args=buf:f32:256:rand
template __global__ void shift_by<64>(float *);

struct Axpy {
  const float *x;
  float *y;
  float a;
  __device__ void operator()(int i) const { y[i] = a * x[i] + y[i]; }
};

struct Copy2 {
  const float *src;
  float *dst;
  int shift;
  __device__ void operator()(int i) const { dst[i + shift] = src[i]; }
};

template <class F> __device__ __noinline__ void apply_noinline(F f, int i) { f(i); }
template <class F> __device__ void apply_inline(F f, int i) { f(i); }

// A functor holding the pointers, passed by value to a noinline function.
// GMEM-EXPECT: functor_axpy non-idempotent
// GMEM-RUN: functor_axpy grid=2 block=64 args=buf:f32:128:rand buf:f32:128:rand f32:2.0
__global__ void functor_axpy(const float *x, float *y, float a) {
  Axpy f{x, y, a};
  apply_noinline(f, blockIdx.x * blockDim.x + threadIdx.x);
}

// A functor copying with a shift, aliasing src and dst at the launch.
// GMEM-EXPECT: functor_copy conditional
// GMEM-RUN: functor_copy grid=1 block=64 args=buf:f32:256:rand buf:f32:256:zero i32:3
// GMEM-RUN: functor_copy grid=1 block=64 args=buf:f32:256:rand ptr:0+0 i32:-1
__global__ void functor_copy(const float *src, float *dst, int shift) {
  Copy2 f{src, dst, shift};
  if (shift >= 0 || threadIdx.x >= 1)
    apply_noinline(f, threadIdx.x);
}

// The same functor inlined.
// GMEM-EXPECT: functor_copy_inline conditional
// GMEM-RUN: functor_copy_inline grid=1 block=64 args=buf:f32:256:rand ptr:0+256 i32:-1
__global__ void functor_copy_inline(const float *src, float *dst, int shift) {
  Copy2 f{src, dst, shift};
  if (threadIdx.x >= 1)
    apply_inline(f, threadIdx.x);
}

struct Ptrs4 {
  float *p[4];
};

// A local array of pointers indexed by the thread.
// GMEM-EXPECT: ptr_array_by_tid idempotent
// GMEM-RUN: ptr_array_by_tid grid=1 block=64 args=buf:f32:64:zero buf:f32:64:zero buf:f32:64:zero buf:f32:64:zero
// GMEM-RUN: ptr_array_by_tid grid=1 block=64 args=buf:f32:256:zero ptr:0+4 ptr:0+8 ptr:0+12
__global__ void ptr_array_by_tid(float *a, float *b, float *c, float *d) {
  Ptrs4 s{{a, b, c, d}};
  unsigned t = threadIdx.x;
  s.p[t & 3][t] = 1.0f;
}

// A local array of pointers, read through one and written through another
// chosen by a parameter.
// GMEM-EXPECT: ptr_array_rw conditional
// GMEM-RUN: ptr_array_rw grid=1 block=32 args=buf:f32:64:rand buf:f32:64:zero i32:1
// GMEM-RUN: ptr_array_rw grid=1 block=32 args=buf:f32:64:rand buf:f32:64:zero i32:0
__global__ void ptr_array_rw(float *a, float *b, int which) {
  float *tab[2] = {a, b};
  unsigned t = threadIdx.x;
  float v = tab[0][t];
  __syncthreads();
  tab[which][t] = v + 1.0f;
}

__device__ float g_bufA[128];
__device__ float g_bufB[128];
__constant__ float *c_tab[2] = {g_bufA, g_bufB};

// A __constant__ table of pointers to __device__ arrays: reads A, writes B
// and out.
// GMEM-EXPECT: const_ptr_table conditional
// GMEM-RUN: const_ptr_table grid=1 block=64 args=buf:f32:64:zero
__global__ void const_ptr_table(float *out) {
  unsigned t = threadIdx.x;
  float v = c_tab[0][t];
  c_tab[1][t] = v + 1.0f;
  out[t] = v;
}

__device__ float *g_ptr48;

// A __device__ global pointer set by the kernel itself, then written through
// (always a + 64: idempotent, though no analysis can see it).
// GMEM-EXPECT: global_ptr_self idempotent
// GMEM-RUN: global_ptr_self grid=1 block=64 args=buf:f32:128:rand
__global__ void global_ptr_self(float *a) {
  if (threadIdx.x == 0)
    g_ptr48 = a + 64;
  __syncthreads();
  float *q = g_ptr48;
  q[threadIdx.x] = a[threadIdx.x] + 1.0f;
}

// Template on the element type: a char and a double instance.
// GMEM-EXPECT: fill_typed<char> idempotent
// GMEM-RUN: fill_typed<char> grid=1 block=64 args=buf:u8:512:zero i32:100
template <class T> __global__ void fill_typed(T *p, int off) {
  p[threadIdx.x * 3 + off] = (T)7;
}
template __global__ void fill_typed<char>(char *, int);

// GMEM-EXPECT: fill_typed<double> idempotent
// GMEM-RUN: fill_typed<double> grid=1 block=64 args=buf:f64:256:zero i32:10
template __global__ void fill_typed<double>(double *, int);

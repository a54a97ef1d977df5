// Micro-benchmark: what does running a kernel's CTAs as virtual CTAs of a
// persistent grid cost on its own, without gmem's clones? Hand-written
// variants of two corpus shapes (vec_add: one element per thread;
// bitonic_sort_shared: a barrier network in shared memory per CTA), timed
// interleaved on one stream, medians of event times.
//   persist_micro [reps]      (GPU machine; prints one line per variant)
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <string>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

__device__ unsigned g_flag;  // always 0: the stop request the variants poll

// ---- vec_add ----
__global__ void va_orig(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void va_entry(const float *a, const float *b, float *c, int n) {
  if (*(volatile unsigned *)&g_flag) return;  // per-thread entry check
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void va_gs(const float *a, const float *b, float *c, int n, int G) {
  for (int v = blockIdx.x; v < G; v += gridDim.x) {
    int i = v * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
  }
}
__global__ void va_gs_bar(const float *a, const float *b, float *c, int n, int G) {
  for (int v = blockIdx.x; v < G; v += gridDim.x) {
    unsigned r = 0;
    if (threadIdx.x == 0) r = *(volatile unsigned *)&g_flag;
    int i = v * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    if (__syncthreads_or(r)) return;
  }
}
__global__ void va_gs2(const float *__restrict__ a, const float *__restrict__ b,
                       float *__restrict__ c, int n, int G) {
  int v = blockIdx.x;
  for (; v + (int)gridDim.x < G; v += 2 * gridDim.x) {
    int i = v * blockDim.x + threadIdx.x, j = i + gridDim.x * blockDim.x;
    float x = i < n ? a[i] + b[i] : 0.f, y = j < n ? a[j] + b[j] : 0.f;
    if (i < n) c[i] = x;
    if (j < n) c[j] = y;
  }
  for (; v < G; v += gridDim.x) {
    int i = v * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
  }
}
__global__ void va_gs_restrict(const float *__restrict__ a, const float *__restrict__ b,
                               float *__restrict__ c, int n, int G) {
#pragma unroll 4
  for (int v = blockIdx.x; v < G; v += gridDim.x) {
    int i = v * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
  }
}
__global__ void va_chunk(const float *a, const float *b, float *c, int n, int G) {
  int per = (G + gridDim.x - 1) / gridDim.x;
  int lo = blockIdx.x * per, hi = min(G, lo + per);
  for (int v = lo; v < hi; ++v) {
    int i = v * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
  }
}

// ---- bitonic_sort_shared ----
__device__ __forceinline__ void bsort_body(int *keys, int n, int vb, int *s) {
  int tid = threadIdx.x;
  int gi = vb * 256 + tid;
  s[tid] = gi < n ? keys[gi] : 0x7fffffff;
  __syncthreads();
  for (int k = 2; k <= 256; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      int ixj = tid ^ j;
      if (ixj > tid) {
        int x = s[tid], y = s[ixj];
        if ((x > y) == ((tid & k) == 0)) { s[tid] = y; s[ixj] = x; }
      }
      __syncthreads();
    }
  if (gi < n) keys[gi] = s[tid];
}
__global__ void bs_orig(int *keys, int n) {
  __shared__ int s[256];
  bsort_body(keys, n, blockIdx.x, s);
}
__global__ void bs_gs(int *keys, int n, int G) {
  __shared__ int s[256];
  for (int v = blockIdx.x; v < G; v += gridDim.x) {
    bsort_body(keys, n, v, s);
    __syncthreads();
  }
}
__global__ void bs_gs_chk(int *keys, int n, int G) {
  __shared__ int s[256];
  for (int v = blockIdx.x; v < G; v += gridDim.x) {
    unsigned r = 0;
    if (threadIdx.x == 0) r = *(volatile unsigned *)&g_flag;
    bsort_body(keys, n, v, s);
    if (__syncthreads_or(r)) return;
  }
}
// next virtual CTA's key loaded before this one's network (software pipeline)
__global__ void bs_gs_pre(int *keys, int n, int G) {
  __shared__ int s[256];
  int tid = threadIdx.x;
  int v = blockIdx.x;
  int gi = v * 256 + tid;
  int cur = (v < G && gi < n) ? keys[gi] : 0x7fffffff;
  for (; v < G; v += gridDim.x) {
    gi = v * 256 + tid;
    int nv = v + gridDim.x, ngi = nv * 256 + tid;
    int nxt = (nv < G && ngi < n) ? keys[ngi] : 0x7fffffff;
    s[tid] = cur;
    __syncthreads();
    for (int k = 2; k <= 256; k <<= 1)
      for (int j = k >> 1; j > 0; j >>= 1) {
        int ixj = tid ^ j;
        if (ixj > tid) {
          int x = s[tid], y = s[ixj];
          if ((x > y) == ((tid & k) == 0)) { s[tid] = y; s[ixj] = x; }
        }
        __syncthreads();
      }
    if (gi < n) keys[gi] = s[tid];
    __syncthreads();
    cur = nxt;
  }
}


// pieces of gmem's clones, one at a time, on top of va_gs
__device__ __forceinline__ unsigned vx_of(unsigned v, unsigned gx) {
  return (v < gx ? v : v % gx) & 0x7fffffffu;
}
__global__ void va_gs_mod(const float *a, const float *b, float *c, int n, unsigned G, unsigned gx) {
  for (unsigned v = blockIdx.x; v < G; v += gridDim.x) {
    int i = vx_of(v, gx) * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
  }
}
__global__ void va_gs_count(const float *a, const float *b, float *c, int n, int G) {
  int left = 16;
  for (int v = blockIdx.x; v < G; v += gridDim.x) {
    int i = v * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    if (--left == 0) {
      left = 16;
      if (*(volatile unsigned *)&g_flag) return;
    }
  }
}
__global__ void va_gs_bar_mod(const float *a, const float *b, float *c, int n, unsigned G, unsigned gx) {
  for (unsigned v = blockIdx.x; v < G; v += gridDim.x) {
    unsigned r = 0;
    if (threadIdx.x == 0) r = *(volatile unsigned *)&g_flag;
    int i = vx_of(v, gx) * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    if (__syncthreads_or(r)) return;
  }
}
// the request looked at by thread 0 every 8th virtual CTA only
__global__ void va_gs_bar8(const float *a, const float *b, float *c, int n, int G) {
  int k = 0;
  for (int v = blockIdx.x; v < G; v += gridDim.x) {
    int i = v * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    if (++k == 8) {
      k = 0;
      unsigned r = 0;
      if (threadIdx.x == 0) r = *(volatile unsigned *)&g_flag;
      if (__syncthreads_or(r)) return;
    }
  }
}
__global__ void bs_gs_mod(int *keys, int n, unsigned G, unsigned gx) {
  __shared__ int s[256];
  for (unsigned v = blockIdx.x; v < G; v += gridDim.x) {
    unsigned r = 0;
    if (threadIdx.x == 0) r = *(volatile unsigned *)&g_flag;
    bsort_body(keys, n, vx_of(v, gx), s);
    if (__syncthreads_or(r)) return;
  }
}

// The first ticket read from a per-CTA word in memory (as a relaunch needs)
// instead of %ctaid.x.
__device__ unsigned g_start[4096];
__global__ void bs_gs_ld(int *keys, int n, int G) {
  __shared__ int s[256];
  unsigned start = *(volatile unsigned *)&g_start[blockIdx.x] + blockIdx.x;
  for (unsigned v = start; v < (unsigned)G; v += gridDim.x) {
    unsigned r = 0;
    if (threadIdx.x == 0) r = *(volatile unsigned *)&g_flag;
    bsort_body(keys, n, v, s);
    if (__syncthreads_or(r)) return;
  }
}
__global__ void va_gs_bar_ld(const float *a, const float *b, float *c, int n, int G) {
  unsigned start = *(volatile unsigned *)&g_start[blockIdx.x] + blockIdx.x;
  for (unsigned v = start; v < (unsigned)G; v += gridDim.x) {
    unsigned r = 0;
    if (threadIdx.x == 0) r = *(volatile unsigned *)&g_flag;
    int i = v * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    if (__syncthreads_or(r)) return;
  }
}
template <int KB>
__global__ void va_gs_barK(const float *a, const float *b, float *c, int n, int G) {
  int k = 0;
  for (int v = blockIdx.x; v < G; v += gridDim.x) {
    int i = v * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
    if (++k == KB) {
      k = 0;
      unsigned r = 0;
      if (threadIdx.x == 0) r = *(volatile unsigned *)&g_flag;
      if (__syncthreads_or(r)) return;
    }
  }
}

struct Variant { const char *name; void (*launch)(cudaStream_t); };

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 31;
  int dev = 0, sms = 0;
  CK(cudaSetDevice(dev));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  const int n = 1 << 28, G = n / 256;
  float *a, *b, *c;
  CK(cudaMalloc(&a, n * 4ull)); CK(cudaMalloc(&b, n * 4ull)); CK(cudaMalloc(&c, n * 4ull));
  CK(cudaMemset(a, 1, n * 4ull)); CK(cudaMemset(b, 2, n * 4ull));
  const int nk = 1 << 24, Gk = nk / 256;
  int *keys;
  CK(cudaMalloc(&keys, nk * 4ull));
  std::vector<int> hk(nk);
  for (int i = 0; i < nk; ++i) hk[i] = (int)((i * 2654435761u) % 1000003u);
  CK(cudaMemcpy(keys, hk.data(), nk * 4ull, cudaMemcpyHostToDevice));
  static int P8, P4, P16;
  P8 = sms * 8; P4 = sms * 4; P16 = sms * 16;
  static float *A, *B, *C; static int *K;
  A = a; B = b; C = c; K = keys;
  std::vector<Variant> vs = {
    {"va_orig", [](cudaStream_t s) { va_orig<<<(1 << 28) / 256, 256, 0, s>>>(A, B, C, 1 << 28); }},
    {"va_entry", [](cudaStream_t s) { va_entry<<<(1 << 28) / 256, 256, 0, s>>>(A, B, C, 1 << 28); }},
    {"va_gs_P8", [](cudaStream_t s) { va_gs<<<P8, 256, 0, s>>>(A, B, C, 1 << 28, (1 << 28) / 256); }},
    {"va_gs_P4", [](cudaStream_t s) { va_gs<<<P4, 256, 0, s>>>(A, B, C, 1 << 28, (1 << 28) / 256); }},
    {"va_gs_P16", [](cudaStream_t s) { va_gs<<<P16, 256, 0, s>>>(A, B, C, 1 << 28, (1 << 28) / 256); }},
    {"va_gs_bar_P8", [](cudaStream_t s) { va_gs_bar<<<P8, 256, 0, s>>>(A, B, C, 1 << 28, (1 << 28) / 256); }},
    {"va_gs2_P8", [](cudaStream_t s) { va_gs2<<<P8, 256, 0, s>>>(A, B, C, 1 << 28, (1 << 28) / 256); }},
    {"va_gs_restrict_P8", [](cudaStream_t s) { va_gs_restrict<<<P8, 256, 0, s>>>(A, B, C, 1 << 28, (1 << 28) / 256); }},
    {"va_chunk_P8", [](cudaStream_t s) { va_chunk<<<P8, 256, 0, s>>>(A, B, C, 1 << 28, (1 << 28) / 256); }},
    {"va_gs_mod", [](cudaStream_t s) { va_gs_mod<<<P8, 256, 0, s>>>(A, B, C, 1 << 28, (1 << 28) / 256, (1 << 28) / 256); }},
    {"va_gs_count", [](cudaStream_t s) { va_gs_count<<<P8, 256, 0, s>>>(A, B, C, 1 << 28, (1 << 28) / 256); }},
    {"va_gs_bar_mod", [](cudaStream_t s) { va_gs_bar_mod<<<P8, 256, 0, s>>>(A, B, C, 1 << 28, (1 << 28) / 256, (1 << 28) / 256); }},
    {"va_gs_bar8", [](cudaStream_t s) { va_gs_bar8<<<P8, 256, 0, s>>>(A, B, C, 1 << 28, (1 << 28) / 256); }},
    {"va_gs_bar_ld", [](cudaStream_t s) { va_gs_bar_ld<<<P8, 256, 0, s>>>(A, B, C, 1 << 28, (1 << 28) / 256); }},
    {"va_gs_barK2", [](cudaStream_t s) { va_gs_barK<2><<<P8, 256, 0, s>>>(A, B, C, 1 << 28, (1 << 28) / 256); }},
    {"va_gs_barK4", [](cudaStream_t s) { va_gs_barK<4><<<P8, 256, 0, s>>>(A, B, C, 1 << 28, (1 << 28) / 256); }},
    {"bs_orig", [](cudaStream_t s) { bs_orig<<<(1 << 24) / 256, 256, 0, s>>>(K, 1 << 24); }},
    {"bs_gs_P8", [](cudaStream_t s) { bs_gs<<<P8, 256, 0, s>>>(K, 1 << 24, (1 << 24) / 256); }},
    {"bs_gs_chk_P8", [](cudaStream_t s) { bs_gs_chk<<<P8, 256, 0, s>>>(K, 1 << 24, (1 << 24) / 256); }},
    {"bs_gs_mod_P8", [](cudaStream_t s) { bs_gs_mod<<<P8, 256, 0, s>>>(K, 1 << 24, (1 << 24) / 256, (1 << 24) / 256); }},
    {"bs_gs_ld_P8", [](cudaStream_t s) { bs_gs_ld<<<P8, 256, 0, s>>>(K, 1 << 24, (1 << 24) / 256); }},
    {"bs_gs_pre_P8", [](cudaStream_t s) { bs_gs_pre<<<P8, 256, 0, s>>>(K, 1 << 24, (1 << 24) / 256); }},
  };
  (void)G; (void)Gk;
  cudaStream_t st; CK(cudaStreamCreate(&st));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  std::vector<std::vector<float>> t(vs.size());
  for (int r = 0; r < reps + 2; ++r)
    for (size_t v = 0; v < vs.size(); ++v) {
      CK(cudaEventRecord(e0, st)); vs[v].launch(st); CK(cudaEventRecord(e1, st));
      CK(cudaEventSynchronize(e1)); CK(cudaGetLastError());
      float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
      if (r >= 2) t[v].push_back(ms);
    }
  float base = 0;
  for (size_t v = 0; v < vs.size(); ++v) {
    auto x = t[v]; std::sort(x.begin(), x.end());
    float med = x[x.size() / 2];
    if (v == 0 || std::string(vs[v].name) == "bs_orig") base = med;
    printf("%-20s median %.4f ms  p90 %.4f  vs orig %+.2f%%\n", vs[v].name, med,
           x[x.size() * 9 / 10], 100.0 * (med / base - 1));
  }
  return 0;
}


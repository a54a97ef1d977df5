// Micro-benchmark: what does a strip-mined loop checkpoint cost gemm_naive
// (the largest overhead left as launched, +14% on the H200), by the shape of
// its segments? Hand-written copies of the pass's Limit form on the corpus
// kernel (one thread per output, k-loop over K), all with the same check at
// a segment's end (the CTA's request cache: %clock against a shared
// deadline, a refresh that reads the control word), grid launches, no
// persistent loop, so only the loop's shape differs:
//   var   segments of S trips with a limit computed per segment,
//         min(k + S, K) or K when K is within 1.5 S (what the pass emits);
//   cst   full segments of exactly S trips (a constant trip count the
//         compiler sees, `#pragma unroll 1`), the last < 1.5 S trips as a
//         plain loop;
//   cstU / cstF  the same with the full segment unrolled by 4 / fully;
//   pers / pers_bar / pers_dyn  the kernel as a persistent loop (8 CTAs per
//         SM) in static order, with an end barrier, or claiming each
//         virtual CTA with an atomic.
// Timed interleaved on one stream, medians and P90 of event times; every
// variant's output is checked against the kernel's first.
//   GMEM_CHECKPOINTS=0 build/bin/gmem-clang++ -O2 --cudart=static --no-gmem-runtime -ldl \
//     bench/preempt/micro/segment_micro.cu -o .stage/micro/segment_micro
// Results: bench/preempt/results/session36.
// Given cubins of gemm.cu (the corpus file through the plugin), it also
// times their gemm_naive and its forms as the runtime launches them (ABI 2:
// grid (P, 1, 1), a zeroed control block before each launch, outside the
// timed span) at P = 8 CTAs per SM and at 4x that (libgmemrt's spread),
// interleaved with the variants above:
//   segment_micro [reps] [LABEL=gemm.cubin]...   (GPU machine)
// (LABEL g-...: a build with GMEM_CHECKPOINT_PERSISTENT=0, launched on the
// user's grid; c-...: every function set to prefer the most L1.)
#include <algorithm>
#include <cuda.h>
#include <dlfcn.h>
#include <string>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CK(x)                                                                    \
  do {                                                                           \
    cudaError_t e = (x);                                                         \
    if (e != cudaSuccess) {                                                      \
      fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

__device__ unsigned g_ctl; // always 0: the stop request

__device__ __forceinline__ unsigned clk() {
  unsigned c;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(c));
  return c;
}

// The pass's cached request test (CheckpointIR.cpp cachedRequest).
__device__ __forceinline__ bool due_stop(volatile unsigned *cache) {
  if ((int)(clk() - cache[1]) >= 0) {
    cache[1] = clk() + 1024;
    unsigned v = *(volatile unsigned *)&g_ctl;
    cache[0] = v;
    return v == 2;
  }
  return cache[0] == 2;
}

#define GEMM_PROLOGUE                                                            \
  __shared__ unsigned cache[2];                                                  \
  if (threadIdx.x == 0 && threadIdx.y == 0) {                                    \
    cache[0] = 0;                                                                \
    cache[1] = clk();                                                            \
  }                                                                              \
  __syncthreads();                                                               \
  int row = blockIdx.y * blockDim.y + threadIdx.y;                               \
  int col = blockIdx.x * blockDim.x + threadIdx.x;                               \
  if (row >= M || col >= N)                                                      \
    return;

// test/corpus/gemm.cu's gemm_naive itself: the reference every variant is
// timed against (the cubins' own copy of it runs too).
#include "../../../test/corpus/gemm.cu"

// Only the prologue (shared cache, barrier): the floor of every variant.
__global__ void g_pro(const float *A, const float *B, float *C, int M, int N, int K) {
  GEMM_PROLOGUE
  float sum = 0.0f;
  for (int k = 0; k < K; ++k)
    sum += A[row * K + k] * B[k * N + col];
  C[row * N + col] = sum;
}

template <int S> __global__ void g_var(const float *A, const float *B, float *C, int M, int N, int K) {
  GEMM_PROLOGUE
  float sum = 0.0f;
  int k = 0;
  while (k < K) {
    int lim = K - k > S + S / 2 ? k + S : K;
    for (; k < lim; ++k)
      sum += A[row * K + k] * B[k * N + col];
    if (k < K && due_stop(cache))
      return;
  }
  C[row * N + col] = sum;
}

// Full segments of exactly S trips unrolled U times (U = S: fully), the
// last < 1.5 S trips as a plain loop.
template <int S, int U>
__global__ void g_cst(const float *A, const float *B, float *C, int M, int N, int K) {
  GEMM_PROLOGUE
  float sum = 0.0f;
  int k = 0;
  while (K - k > S + S / 2) {
#pragma unroll U
    for (int j = 0; j < S; ++j, ++k)
      sum += A[row * K + k] * B[k * N + col];
    if (due_stop(cache))
      return;
  }
  for (; k < K; ++k)
    sum += A[row * K + k] * B[k * N + col];
  C[row * N + col] = sum;
}

// The persistent shape of the pass's clones, without any check: P CTAs, CTA
// p runs virtual CTAs p, p + P, ... (x fastest); with or without the end
// barrier every CTA-protocol form has after a virtual CTA.
template <bool Bar>
__global__ void g_pers(const float *A, const float *B, float *C, int M, int N, int K) {
  unsigned gx = N / 16, total = gx * (M / 16);
  for (unsigned v = blockIdx.x; v < total; v += gridDim.x) {
    int row = (v / gx) * blockDim.y + threadIdx.y;
    int col = (v % gx) * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
      float sum = 0.0f;
      for (int k = 0; k < K; ++k)
        sum += A[row * K + k] * B[k * N + col];
      C[row * N + col] = sum;
    }
    if (Bar)
      __syncthreads();
  }
}

// Virtual CTAs claimed in the hardware's order: CTA p runs the next
// unclaimed one (one atomic per virtual CTA; the pass's clones do not do
// this, it is here to tell static assignment from the loop itself).
__device__ unsigned g_ticket;
__global__ void g_pers_dyn(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ unsigned v;
  unsigned gx = N / 16, total = gx * (M / 16);
  for (;;) {
    if (threadIdx.x == 0 && threadIdx.y == 0)
      v = atomicAdd(&g_ticket, 1u);
    __syncthreads();
    unsigned my = v;
    __syncthreads();
    if (my >= total)
      return;
    int row = (my / gx) * blockDim.y + threadIdx.y;
    int col = (my % gx) * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int k = 0; k < K; ++k)
      sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
  }
}

// The driver API, opened at run time (the binary links the static cudart
// only); the runtime's primary context is current when these run.
struct Drv {
  CUresult (*load)(CUmodule *, const char *);
  CUresult (*func)(CUfunction *, CUmodule, const char *);
  CUresult (*attr)(CUfunction, CUfunction_attribute, int);
  CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                     unsigned, CUstream, void **, void **);
  bool open() {
    void *h = dlopen("libcuda.so.1", RTLD_NOW);
    if (!h)
      return false;
    load = (decltype(load))dlsym(h, "cuModuleLoad");
    func = (decltype(func))dlsym(h, "cuModuleGetFunction");
    launch = (decltype(launch))dlsym(h, "cuLaunchKernel");
    attr = (decltype(attr))dlsym(h, "cuFuncSetAttribute");
    return load && func && launch && attr;
  }
};

typedef void (*Kern)(const float *, const float *, float *, int, int, int);
struct Variant {
  std::string name;
  Kern k;
  CUfunction f = nullptr; // a form from a cubin (k unused)
  unsigned P = 0;         // its persistent grid; 0: the user's grid
  bool clone = false;     // takes a control block (reset before each launch)
};

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 41;
  const int M = 1024, N = 1024, K = 1024;
  float *A, *B, *C;
  CK(cudaMalloc(&A, sizeof(float) * M * K));
  CK(cudaMalloc(&B, sizeof(float) * K * N));
  CK(cudaMalloc(&C, sizeof(float) * M * N));
  std::vector<float> h(size_t(M) * K);
  for (size_t i = 0; i < h.size(); ++i)
    h[i] = float((i * 2654435761u) % 1000) / 1000.0f;
  CK(cudaMemcpy(A, h.data(), sizeof(float) * h.size(), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(B, h.data(), sizeof(float) * h.size(), cudaMemcpyHostToDevice));
  std::vector<Variant> vs = {
      {"orig", gemm_naive},          {"prologue", g_pro},       {"var20", g_var<20>},
      {"var40", g_var<40>},      {"var64", g_var<64>},      {"cst16", g_cst<16, 1>},
      {"cst20", g_cst<20, 1>},   {"cst32", g_cst<32, 1>},   {"cst64", g_cst<64, 1>},
      {"cstU16", g_cst<16, 4>},  {"cstU20", g_cst<20, 4>},  {"cstU32", g_cst<32, 4>},
      {"cstF16", g_cst<16, 16>}, {"cstF20", g_cst<20, 20>}, {"cstF32", g_cst<32, 32>},
      {"pers", g_pers<false>},   {"pers_bar", g_pers<true>}, {"pers_dyn", g_pers_dyn},
  };
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const int P = sms * 8; // 8 CTAs of 256 threads per SM, as the clones run
  Drv drv;
  void *ctl = nullptr;
  CK(cudaMalloc(&ctl, 8 + 8 * 4 * size_t(P)));
  for (int a = 2; a < argc; ++a) {
    std::string arg = argv[a], label = arg.substr(0, arg.find('=')),
                path = arg.substr(arg.find('=') + 1);
    CUmodule m;
    if (!drv.load && !drv.open()) {
      fprintf(stderr, "no libcuda.so.1\n");
      return 1;
    }
    if (drv.load(&m, path.c_str()) != CUDA_SUCCESS) {
      fprintf(stderr, "%s: cuModuleLoad failed\n", path.c_str());
      return 1;
    }
    const char *forms[] = {"", "__gmem_pre_", "__gmem_pra_", "__gmem_prl_", "__gmem_prf_"};
    for (const char *fm : forms) {
      CUfunction f;
      std::string sym = std::string(fm) + "_Z10gemm_naivePKfS0_Pfiii";
      if (drv.func(&f, m, sym.c_str()) != CUDA_SUCCESS)
        continue;
      std::string tag = *fm ? std::string(fm).substr(7, 3) : "orig";
      // "c-" labels: every function asks for the carveout with the most L1
      // (shared memory 0%), as a kernel without shared memory gets.
      if (label.rfind("c-", 0) == 0 &&
          drv.attr(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 0) != CUDA_SUCCESS) {
        fprintf(stderr, "%s: cuFuncSetAttribute failed\n", sym.c_str());
        return 1;
      }
      if (!*fm) {
        vs.push_back({label + ":" + tag, nullptr, f, 0, false});
        continue;
      }
      if (label.rfind("g-", 0) == 0) { // built with GMEM_CHECKPOINT_PERSISTENT=0
        vs.push_back({label + ":" + tag, nullptr, f, 0, true});
        continue;
      }
      vs.push_back({label + ":" + tag + "x1", nullptr, f, unsigned(P), true});
      vs.push_back({label + ":" + tag + "x4", nullptr, f, unsigned(4 * P), true});
    }
  }
  const int nv = int(vs.size());
  dim3 grid(N / 16, M / 16), block(16, 16);
  auto launch = [&](const Variant &V, const float *a, const float *b, float *c, int m, int n,
                    int k) {
    if (V.f) {
      unsigned gx = grid.x, gy = grid.y, gz = 1;
      void *args[] = {&a, &b, &c, &m, &n, &k, &ctl, &gx, &gy, &gz};
      CUresult r = V.P ? drv.launch(V.f, V.P, 1, 1, 16, 16, 1, 0, 0, args, nullptr)
                       : drv.launch(V.f, gx, gy, 1, 16, 16, 1, 0, 0, args, nullptr);
      if (r != CUDA_SUCCESS) {
        fprintf(stderr, "%s: launch failed (%d)\n", V.name.c_str(), int(r));
        exit(1);
      }
      return;
    }
    bool pers = V.k == g_pers<false> || V.k == g_pers<true> || V.k == g_pers_dyn;
    V.k<<<pers ? dim3(P) : grid, block>>>(a, b, c, m, n, k);
  };
  auto reset = [&](const Variant &V) { // outside the timed span
    unsigned zero = 0;
    if (V.clone)
      CK(cudaMemsetAsync(ctl, 0, 8 + 8 * 4 * size_t(P)));
    if (V.k == g_pers_dyn)
      CK(cudaMemcpyToSymbolAsync(g_ticket, &zero, sizeof zero));
  };
  std::vector<float> ref(size_t(M) * N), out(size_t(M) * N);
  std::vector<std::vector<float>> t(nv);
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int v = 0; v < nv; ++v) { // warm up and check every variant's result
    CK(cudaMemset(C, 0, sizeof(float) * M * N));
    reset(vs[v]);
    launch(vs[v], A, B, C, M, N, K);
    CK(cudaGetLastError());
    CK(cudaMemcpy(v ? out.data() : ref.data(), C, sizeof(float) * M * N, cudaMemcpyDeviceToHost));
    if (v && out != ref) {
      fprintf(stderr, "%s: result differs from orig\n", vs[v].name.c_str());
      return 1;
    }
  }
  for (int r = 0; r < reps; ++r)
    for (int v = 0; v < nv; ++v) {
      reset(vs[v]);
      CK(cudaEventRecord(e0));
      launch(vs[v], A, B, C, M, N, K);
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      t[v].push_back(ms);
    }
  double base = 0;
  for (int v = 0; v < nv; ++v) {
    std::sort(t[v].begin(), t[v].end());
    double med = t[v][t[v].size() / 2], p90 = t[v][t[v].size() * 9 / 10];
    if (!v)
      base = med;
    printf("%-14s median %.4f ms  p90 %.4f  vs orig %+.2f%%\n", vs[v].name.c_str(), med, p90,
           100.0 * (med / base - 1));
  }
  return 0;
}

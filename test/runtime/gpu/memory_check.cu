// GPU checks of libgmemrt's memory side that the prefetch benchmarks
// (bench/prefetch) do not cover: the managed pool against cudaMallocManaged,
// the hint API on a real driver, the cost of re-prefetching after a host
// synchronisation, and a budget kept under cuMemGetInfo's view.
//
// Built with gmem-clang++ (kernels carry descriptors; libgmemrt linked):
//   memory_check pool|share|sync|hints|budget
// Prints "PASS name ..." / "FAIL name ..." lines and one JSON object per part
// ("RESULT {...}"); exit status 1 on any FAIL.
#include "gmem/gmem.h"
#include "um_counter.h" // bench/prefetch: CUPTI unified-memory counters (PF_CUPTI=1)

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int Failures = 0;
void check(bool Ok, const char *Name, const std::string &Detail = "") {
  std::printf("%s %s %s\n", Ok ? "PASS" : "FAIL", Name, Detail.c_str());
  std::fflush(stdout);
  if (!Ok)
    ++Failures;
}

#define CK(X)                                                                                      \
  do {                                                                                             \
    cudaError_t E_ = (X);                                                                          \
    if (E_ != cudaSuccess) {                                                                       \
      std::printf("FAIL cuda %s: %s (line %d)\n", #X, cudaGetErrorString(E_), __LINE__);           \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

double nowUs() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Summary {
  double Median = 0, P99 = 0;
};
Summary summarize(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  Summary S;
  if (V.empty())
    return S;
  S.Median = V[V.size() / 2];
  S.P99 = V[std::min(V.size() - 1, size_t(V.size() * 0.99))];
  return S;
}

__global__ void scale(float *X, float A, unsigned long long N) {
  unsigned long long I = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (I < N)
    X[I] = X[I] * A + 1.0f;
}

__global__ void add(const float *A, const float *B, float *C, unsigned long long N) {
  unsigned long long I = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (I < N)
    C[I] = A[I] + B[I];
}

unsigned blocks(unsigned long long N) { return unsigned((N + 255) / 256); }

// --- pool vs cudaMallocManaged --------------------------------------------------
void partPool() {
  std::printf("RESULT {\"part\":\"pool\",\"sizes\":[");
  const size_t Sizes[] = {4096, 1 << 20, 64 << 20};
  for (size_t K = 0; K < 3; ++K) {
    size_t Bytes = Sizes[K];
    const int N = 300;
    std::vector<double> Pool, Cuda;
    for (int I = 0; I < N; ++I) {
      void *P = nullptr;
      double T0 = nowUs();
      int R = gmemMallocManaged(&P, Bytes);
      static_cast<char *>(P)[0] = 1; // first touch on the host, like an initialisation
      gmemFreeManaged(P);
      Pool.push_back(nowUs() - T0);
      if (R != GMEM_SUCCESS) {
        check(false, "pool-alloc", std::to_string(R));
        return;
      }
      T0 = nowUs();
      CK(cudaMallocManaged(&P, Bytes));
      static_cast<char *>(P)[0] = 1;
      CK(cudaFree(P));
      Cuda.push_back(nowUs() - T0);
    }
    Summary SP = summarize(Pool), SC = summarize(Cuda);
    std::printf("%s{\"bytes\":%zu,\"pool_us_median\":%.2f,\"pool_us_p99\":%.2f,"
                "\"cuda_us_median\":%.2f,\"cuda_us_p99\":%.2f,\"speedup_median\":%.1f}",
                K ? "," : "", Bytes, SP.Median, SP.P99, SC.Median, SC.P99, SC.Median / SP.Median);
  }
  std::printf("]}\n");
  // Alignment and separation.
  void *A = nullptr, *B = nullptr;
  gmemMallocManaged(&A, 100);
  gmemMallocManaged(&B, 100);
  uintptr_t PA = uintptr_t(A), PB = uintptr_t(B);
  check(PA % (2 << 20) == 0 && PB % (2 << 20) == 0 && (PA > PB ? PA - PB : PB - PA) >= (2u << 20),
        "pool-2MiB-blocks");
  // The launch check sees a block as its own allocation.
  scale<<<1, 32>>>(static_cast<float *>(A), 2.0f, 25);
  CK(cudaDeviceSynchronize());
  gmemLaunchInfo Info;
  bool Seen = gmemGetLastLaunchInfo(&Info) == GMEM_SUCCESS && Info.instrumented &&
              Info.num_ptr_args_recorded >= 1 && Info.ptr_args[0].alloc_base == PA &&
              Info.ptr_args[0].alloc_size == (2u << 20);
  check(Seen, "pool-block-is-allocation");
  gmemFreeManaged(A);
  gmemFreeManaged(B);
}

// --- small buffers sharing a migration block ------------------------------------
// A kernel updates buffer X on the GPU while the host updates buffer Y between
// launches. With cudaMallocManaged, small X and Y share a 2 MiB block.
void partShare() {
  const size_t Bytes = 256 << 10;
  const unsigned long long N = Bytes / 4;
  std::printf("RESULT {\"part\":\"share\",\"buffer_bytes\":%zu", Bytes);
  for (int UsePool = 0; UsePool < 2; ++UsePool) {
    float *X = nullptr, *Y = nullptr;
    if (UsePool) {
      gmemMallocManaged(reinterpret_cast<void **>(&X), Bytes);
      gmemMallocManaged(reinterpret_cast<void **>(&Y), Bytes);
    } else {
      CK(cudaMallocManaged(&X, Bytes));
      CK(cudaMallocManaged(&Y, Bytes));
    }
    std::memset(X, 0, Bytes);
    std::memset(Y, 0, Bytes);
    std::vector<double> T;
    for (int It = 0; It < 200; ++It) {
      double T0 = nowUs();
      scale<<<blocks(N), 256>>>(X, 1.0f, N);
      CK(cudaDeviceSynchronize());
      for (unsigned long long I = 0; I < N; I += 1024)
        Y[I] += 1.0f;
      T.push_back(nowUs() - T0);
    }
    Summary S = summarize(T);
    std::printf(",\"%s_us_median\":%.2f,\"%s_us_p99\":%.2f", UsePool ? "pool" : "cuda", S.Median,
                UsePool ? "pool" : "cuda", S.P99);
    bool Ok = X[0] == 200.0f && Y[0] == 200.0f;
    check(Ok, UsePool ? "share-pool-result" : "share-cuda-result");
    if (UsePool) {
      gmemFreeManaged(X);
      gmemFreeManaged(Y);
    } else {
      CK(cudaFree(X));
      CK(cudaFree(Y));
    }
  }
  std::printf("}\n");
}

// --- launches after host synchronisation ------------------------------------------
void partSync() {
  const unsigned long long N = (256ull << 20) / 4; // 256 MiB
  float *X = nullptr;
  CK(cudaMallocManaged(&X, N * 4));
  std::memset(X, 0, N * 4);
  scale<<<blocks(N), 256>>>(X, 1.0f, N); // brings X in (prefetched)
  CK(cudaDeviceSynchronize());
  gmemMemoryStats S0;
  gmemGetMemoryStats(&S0); // prefetch calls of the first launch (one per copy lane)
  std::vector<double> Launch, Iter;
  for (int It = 0; It < 300; ++It) {
    double T0 = nowUs();
    scale<<<blocks(N), 256>>>(X, 1.0f, N);
    double T1 = nowUs();
    CK(cudaDeviceSynchronize());
    Launch.push_back(T1 - T0);
    Iter.push_back(nowUs() - T0);
  }
  Summary L = summarize(Launch), I = summarize(Iter);
  gmemMemoryStats S;
  gmemGetMemoryStats(&S);
  const char *Trust = std::getenv("GMEM_PREFETCH_TRUST");
  std::printf("RESULT {\"part\":\"sync\",\"trust\":%s,\"launch_us_median\":%.2f,\"launch_us_p99\":%.2f,"
              "\"iter_us_median\":%.2f,\"iter_us_p99\":%.2f,\"prefetch_ops\":%llu}\n",
              Trust && *Trust == '1' ? "true" : "false", L.Median, L.P99, I.Median, I.P99,
              (unsigned long long)S.prefetch_ops);
  check(X[0] == 301.0f, "sync-result");
  const char *Pf = std::getenv("GMEM_PREFETCH");
  if (!(Pf && *Pf == '0')) {
    // After each host sync the range is prefetched again (or, trusted, never).
    bool Trusted = Trust && *Trust == '1';
    uint64_t Again = S.prefetch_ops - S0.prefetch_ops;
    check(Trusted ? Again == 0 : Again >= 300, "sync-reprefetch",
          std::to_string(Again) + " prefetch calls after the first launch");
  }
  CK(cudaFree(X));
}

// --- hints --------------------------------------------------------------------------
void partHints() {
  const unsigned long long N = (64ull << 20) / 4;
  float *A = nullptr;
  CK(cudaMallocManaged(&A, N * 4));
  for (unsigned long long I = 0; I < N; ++I)
    A[I] = 1.0f;
  check(gmemAdvise(A, N * 4, GMEM_HINT_PIN) == GMEM_SUCCESS, "hint-pin");
  check(gmemAdvise(A, N * 4, GMEM_HINT_READ_MOSTLY) == GMEM_SUCCESS, "hint-read-mostly");
  check(gmemAdvise(A, N * 4, GMEM_HINT_NORMAL) == GMEM_SUCCESS, "hint-normal");
  scale<<<blocks(N), 256>>>(A, 2.0f, N);
  CK(cudaDeviceSynchronize());
  check(A[N - 1] == 3.0f, "hint-pinned-result");
  check(gmemAdvise(A, N * 4, GMEM_HINT_UNPIN) == GMEM_SUCCESS, "hint-unpin");
  check(gmemAdvise(A, N * 4, GMEM_HINT_RANDOM) == GMEM_SUCCESS, "hint-random");
  check(gmemAdvise(A, N * 4, GMEM_HINT_PREFETCH) == GMEM_SUCCESS, "hint-prefetch");
  // DROP: the contents may be lost; the range stays usable.
  check(gmemAdvise(A, N * 4, GMEM_HINT_DROP) == GMEM_SUCCESS, "hint-drop");
  CK(cudaDeviceSynchronize());
  for (unsigned long long I = 0; I < N; ++I)
    A[I] = 5.0f;
  scale<<<blocks(N), 256>>>(A, 1.0f, N);
  CK(cudaDeviceSynchronize());
  check(A[0] == 6.0f && A[N - 1] == 6.0f, "hint-after-drop-result");
  int Dev = 0;
  check(gmemAdvise(&Dev, 4, GMEM_HINT_PIN) == GMEM_ERROR_INVALID_VALUE, "hint-rejects-host-memory");
  void *D = nullptr;
  CK(cudaMalloc(&D, 1 << 20));
  check(gmemAdvise(D, 1 << 20, GMEM_HINT_PREFETCH) == GMEM_ERROR_INVALID_VALUE,
        "hint-rejects-device-memory");
  CK(cudaFree(D));
  CK(cudaFree(A));
}

// --- budget, seen by the driver ------------------------------------------------------
// Eight 512 MiB buffers streamed through a kernel each, twice, under the
// budget set by the caller (GMEM_DEVICE_BUDGET). Checked: the runtime's own
// accounting never exceeds the budget; CUPTI sees the evicted bytes leave the
// device (DtoH) and come back (HtoD) in the second round, i.e. evictions are
// real; device memory in use per cuMemGetInfo is reported (the UVM driver
// keeps freed GPU chunks for reuse, so it shows the high-water mark of the
// driver's chunk cache rather than residency: we report it, after a full
// eviction too).
void partBudget() {
  const unsigned long long N = (512ull << 20) / 4;
  const int K = 8;
  size_t Free0 = 0, Total = 0;
  CK(cudaMemGetInfo(&Free0, &Total));
  bool Cupti = pf::UmCounter::init();
  std::vector<float *> B(K);
  for (int I = 0; I < K; ++I) {
    CK(cudaMallocManaged(&B[I], N * 4));
    for (unsigned long long J = 0; J < N; J += 1024)
      B[I][J] = float(I);
  }
  size_t MaxUsed = 0;
  int Region[2] = {-1, -1};
  for (int Round = 0; Round < 2; ++Round) {
    Region[Round] = pf::UmCounter::begin(Round ? "round2" : "round1");
    for (int I = 0; I < K; ++I) {
      scale<<<blocks(N), 256>>>(B[I], 1.0f, N);
      CK(cudaDeviceSynchronize());
      size_t Free = 0;
      CK(cudaMemGetInfo(&Free, &Total));
      MaxUsed = std::max(MaxUsed, Free0 > Free ? Free0 - Free : 0);
    }
    pf::UmCounter::end(Region[Round]);
  }
  gmemMemoryStats S;
  gmemGetMemoryStats(&S);
  for (float *P : B)
    CK(cudaMemPrefetchAsync(P, N * 4, cudaMemLocation{cudaMemLocationTypeHost, 0}, 0, 0));
  CK(cudaDeviceSynchronize());
  size_t FreeAfter = 0;
  CK(cudaMemGetInfo(&FreeAfter, &Total));
  bool Ok = true;
  for (int I = 0; I < K; ++I)
    Ok &= B[I][0] == float(I) + 2.0f;
  check(Ok, "budget-result");
  pf::UmCounter::flush();
  pf::UmCounts R1 = pf::UmCounter::counts(Region[0]), R2 = pf::UmCounter::counts(Region[1]);
  std::printf("RESULT {\"part\":\"budget\",\"budget\":%llu,\"prefetch\":%s,\"peak_resident\":%llu,"
              "\"evicted\":%llu,\"footprint\":%llu,\"max_device_used_delta\":%zu,"
              "\"device_used_delta_after_full_eviction\":%zu,\"cupti\":%s,"
              "\"round1\":{\"htod\":%llu,\"dtoh\":%llu,\"gpu_faults\":%llu},"
              "\"round2\":{\"htod\":%llu,\"dtoh\":%llu,\"gpu_faults\":%llu}}\n",
              (unsigned long long)S.budget_bytes,
              S.prefetch_ops ? "true" : "false", (unsigned long long)S.peak_resident_bytes,
              (unsigned long long)S.evicted_bytes, (unsigned long long)(N * 4 * K), MaxUsed,
              Free0 > FreeAfter ? Free0 - FreeAfter : 0, Cupti ? "true" : "false",
              (unsigned long long)R1.HtoDBytes, (unsigned long long)R1.DtoHBytes,
              (unsigned long long)R1.GpuFaults, (unsigned long long)R2.HtoDBytes,
              (unsigned long long)R2.DtoHBytes, (unsigned long long)R2.GpuFaults);
  if (S.budget_bytes) {
    check(S.peak_resident_bytes <= S.budget_bytes, "budget-accounting");
    if (Cupti) {
      // Everything but the last budget's worth was evicted in round 1 and
      // must come back in round 2: evictions really moved the data.
      uint64_t Expect = N * 4 * K - S.budget_bytes;
      // (With prefetching the accounting is exact; with demand paging it
      // counts what the kernels may have faulted in, which CUPTI can show
      // less of.)
      if (S.prefetch_ops)
        check(R1.DtoHBytes + R2.DtoHBytes >= S.evicted_bytes * 9 / 10,
              "budget-evictions-leave-device", std::to_string(R1.DtoHBytes + R2.DtoHBytes) + " bytes DtoH");
      if (S.prefetch_ops)
        check(R2.HtoDBytes >= Expect * 9 / 10, "budget-evicted-data-returns",
              std::to_string(R2.HtoDBytes) + " bytes HtoD in round 2");
    }
  }
  for (float *P : B)
    CK(cudaFree(P));
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    std::fprintf(stderr, "usage: %s pool|share|sync|hints|budget\n", Argv[0]);
    return 2;
  }
  CK(cudaFree(nullptr));
  std::string P = Argv[1];
  if (P == "pool")
    partPool();
  else if (P == "share")
    partShare();
  else if (P == "sync")
    partSync();
  else if (P == "hints")
    partHints();
  else if (P == "budget")
    partBudget();
  else {
    std::fprintf(stderr, "unknown part %s\n", P.c_str());
    return 2;
  }
  return Failures ? 1 : 0;
}

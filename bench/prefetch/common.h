// Shared host helpers of the prefetch benchmarks (bench/prefetch): error
// checks, timing and statistics, parallel host fills and touches, the
// libgmemrt C API looked up at run time, a device-memory sampler thread, a
// deterministic device-side checksum and a small JSON writer.
//
// The programs run with and without libgmemrt preloaded, so the gmem*
// functions are looked up with dlsym(RTLD_DEFAULT, ...) and may be absent.
#pragma once

#include "gmem/gmem.h"
#include "um_counter.h"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#define PF_CHECK(call)                                                                             \
  do {                                                                                             \
    cudaError_t pf_err_ = (call);                                                                  \
    if (pf_err_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(pf_err_), __FILE__,     \
                   __LINE__, #call);                                                               \
      std::exit(3);                                                                                \
    }                                                                                              \
  } while (0)

namespace pf {

constexpr size_t KiB = 1024, MiB = KiB * 1024, GiB = MiB * 1024;

inline double nowSec() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

inline uint64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Nearest-rank percentile of an unsorted sample (P in [0, 100]). With few
// samples P99 is the maximum.
inline double percentile(std::vector<double> V, double P) {
  if (V.empty())
    return NAN;
  std::sort(V.begin(), V.end());
  size_t Rank = (size_t)std::ceil(P / 100.0 * V.size());
  return V[std::min(V.size() - 1, Rank ? Rank - 1 : 0)];
}
inline double median(const std::vector<double> &V) {
  if (V.empty())
    return NAN;
  std::vector<double> S = V;
  std::sort(S.begin(), S.end());
  size_t N = S.size();
  return N % 2 ? S[N / 2] : 0.5 * (S[N / 2 - 1] + S[N / 2]);
}

// Environment helpers: integer, double and string with defaults.
inline long envLong(const char *Name, long Default) {
  const char *V = std::getenv(Name);
  return V && *V ? std::strtol(V, nullptr, 10) : Default;
}
inline std::string envStr(const char *Name, const char *Default) {
  const char *V = std::getenv(Name);
  return V && *V ? V : Default;
}
inline std::vector<std::string> splitList(const std::string &S) {
  std::vector<std::string> Out;
  size_t Pos = 0;
  while (Pos <= S.size()) {
    size_t Comma = S.find(',', Pos);
    if (Comma == std::string::npos)
      Comma = S.size();
    if (Comma > Pos)
      Out.push_back(S.substr(Pos, Comma - Pos));
    Pos = Comma + 1;
  }
  return Out;
}

// Runs Body(Begin, End) over [0, N) split among host threads (the GPU
// machine has 16 cores; first touches of managed memory fault per page, so
// filling in parallel keeps the untimed set-up short).
template <class F> void parallelFor(size_t N, F Body) {
  unsigned T = std::max(1u, std::min(16u, std::thread::hardware_concurrency()));
  if (N < (1u << 20))
    T = 1;
  std::vector<std::thread> Threads;
  size_t Chunk = (N + T - 1) / T;
  for (unsigned K = 0; K < T; ++K) {
    size_t B = K * Chunk, E = std::min(N, B + Chunk);
    if (B < E)
      Threads.emplace_back([=] { Body(B, E); });
  }
  for (auto &Th : Threads)
    Th.join();
}

// Deterministic pseudo-random floats in [-1, 1) (never all zeros, so an
// unwritten output cannot pass for a right one).
inline float hashFloat(uint64_t I, uint32_t Seed) {
  uint64_t X = I * 0x9E3779B97F4A7C15ull ^ ((uint64_t)Seed << 32 | Seed);
  X ^= X >> 29;
  X *= 0xBF58476D1CE4E5B9ull;
  X ^= X >> 32;
  return (float)((X >> 40) & 0xFFFFFF) / 8388608.0f - 1.0f;
}
inline void fillHost(float *P, size_t N, uint32_t Seed) {
  parallelFor(N, [=](size_t B, size_t E) {
    for (size_t I = B; I < E; ++I)
      P[I] = hashFloat(I, Seed);
  });
}

// Reads one word per 4 KiB page: the host touches the data again, so the
// CPU maps the pages (after they were moved back to the host).
inline void touchHost(const void *P, size_t Bytes) {
  std::atomic<uint64_t> Sink{0};
  const volatile uint32_t *W = static_cast<const volatile uint32_t *>(P);
  parallelFor(Bytes / 4096, [&](size_t B, size_t E) {
    uint64_t S = 0;
    for (size_t Pg = B; Pg < E; ++Pg)
      S += W[Pg * 1024];
    Sink += S;
  });
}

// Moves a managed range back to the host (cudaMemPrefetchAsync to the CPU).
inline void prefetchToHost(const void *P, size_t Bytes, cudaStream_t S = 0) {
  cudaMemLocation Loc{};
  Loc.type = cudaMemLocationTypeHost;
  Loc.id = 0;
  PF_CHECK(cudaMemPrefetchAsync(P, Bytes, Loc, 0, S));
}
inline void prefetchToDevice(const void *P, size_t Bytes, int Dev, cudaStream_t S = 0) {
  cudaMemLocation Loc{};
  Loc.type = cudaMemLocationTypeDevice;
  Loc.id = Dev;
  PF_CHECK(cudaMemPrefetchAsync(P, Bytes, Loc, 0, S));
}

// libgmemrt's C API when it is loaded (preloaded or linked), else nulls.
struct GmemApi {
  int (*GetMemoryStats)(gmemMemoryStats *) = nullptr;
  int (*Advise)(const void *, uint64_t, int) = nullptr;
  int (*GetStats)(gmemStats *) = nullptr;
  int (*LastLaunch)(gmemLaunchInfo *) = nullptr;
  int (*RecentLaunches)(gmemLaunchInfo *, int) = nullptr;
  const char *(*Version)() = nullptr;
  GmemApi() {
    LastLaunch = reinterpret_cast<int (*)(gmemLaunchInfo *)>(dlsym(RTLD_DEFAULT, "gmemGetLastLaunchInfo"));
    RecentLaunches =
        reinterpret_cast<int (*)(gmemLaunchInfo *, int)>(dlsym(RTLD_DEFAULT, "gmemGetRecentLaunches"));
    GetMemoryStats = reinterpret_cast<int (*)(gmemMemoryStats *)>(dlsym(RTLD_DEFAULT, "gmemGetMemoryStats"));
    Advise = reinterpret_cast<int (*)(const void *, uint64_t, int)>(dlsym(RTLD_DEFAULT, "gmemAdvise"));
    GetStats = reinterpret_cast<int (*)(gmemStats *)>(dlsym(RTLD_DEFAULT, "gmemGetStats"));
    Version = reinterpret_cast<const char *(*)()>(dlsym(RTLD_DEFAULT, "gmemVersion"));
  }
  bool loaded() const { return Version != nullptr; }
  // The sequence number of this thread's last recorded launch (0: none).
  uint64_t lastSequence() const {
    gmemLaunchInfo I;
    return LastLaunch && LastLaunch(&I) == GMEM_SUCCESS ? I.sequence : 0;
  }
  bool memoryStats(gmemMemoryStats &Out) const {
    std::memset(&Out, 0, sizeof Out);
    return GetMemoryStats && GetMemoryStats(&Out) == GMEM_SUCCESS;
  }
};

// True when every pointer argument of a recorded launch has read and write
// regions that were evaluated bounded (GMEM_ARG_*_EXACT): libgmemrt can then
// prefetch exactly what the launch touches. Otherwise it leaves the argument
// to demand paging (GMEM_PREFETCH_UNBOUNDED=demand, the default).
inline bool launchRegionsExact(const gmemLaunchInfo &I) {
  if (!I.instrumented)
    return false;
  for (int K = 0; K < I.num_ptr_args_recorded; ++K) {
    uint32_t F = I.ptr_args[K].flags;
    if ((F & GMEM_ARG_READS) && (!(F & GMEM_ARG_READ_EXACT) || (F & GMEM_ARG_READ_ANYTHING)))
      return false;
    if ((F & GMEM_ARG_WRITES) && (!(F & GMEM_ARG_WRITE_EXACT) || (F & GMEM_ARG_WRITE_ANYTHING)))
      return false;
  }
  return I.num_ptr_args_recorded == I.num_ptr_args;
}

// Kernels among the process's recent launches (libgmemrt's ring) after
// launch number AfterSeq that were not instrumented or not exact, as "name:uninstrumented" / "name:inexact"
// (the checksum kernel, inexact by design, is left out). "" when all were.
inline std::string recentInexactKernels(const GmemApi &G, uint64_t AfterSeq) {
  if (!G.RecentLaunches)
    return "n/a";
  std::vector<gmemLaunchInfo> Recent(512);
  int N = G.RecentLaunches(Recent.data(), (int)Recent.size());
  std::vector<std::string> Bad;
  for (int K = 0; K < N; ++K) {
    const gmemLaunchInfo &I = Recent[K];
    std::string Name = I.kernel_name ? I.kernel_name : "?";
    if (I.sequence <= AfterSeq || Name.find("checksumKernel") != std::string::npos || launchRegionsExact(I))
      continue;
    Name += I.instrumented ? ":inexact" : ":uninstrumented";
    if (std::find(Bad.begin(), Bad.end(), Name) == Bad.end())
      Bad.push_back(Name);
  }
  std::string Out;
  for (const auto &B : Bad)
    Out += (Out.empty() ? "" : ",") + B;
  return Out;
}

// Samples the device's used memory (cudaMemGetInfo) every PeriodUs from a
// thread, keeping the maximum, to check a budget from outside the runtime.
class DeviceMemorySampler {
public:
  explicit DeviceMemorySampler(unsigned PeriodUs = 1000) : PeriodUs(PeriodUs) {}
  ~DeviceMemorySampler() { stop(); }
  // Used bytes now (total - free).
  static size_t usedNow() {
    size_t Free = 0, Total = 0;
    if (cudaMemGetInfo(&Free, &Total) != cudaSuccess)
      return 0;
    return Total - Free;
  }
  void start() {
    Peak = usedNow();
    Samples = 0;
    Run = true;
    Th = std::thread([this] {
      while (Run.load(std::memory_order_relaxed)) {
        size_t U = usedNow();
        if (U > Peak.load(std::memory_order_relaxed))
          Peak = U;
        ++Samples;
        std::this_thread::sleep_for(std::chrono::microseconds(PeriodUs));
      }
    });
  }
  void stop() {
    if (Th.joinable()) {
      Run = false;
      Th.join();
    }
  }
  size_t peak() const { return Peak; }
  uint64_t samples() const { return Samples; }
  // Restarts the maximum from the current value (between workloads).
  void resetPeak() { Peak = usedNow(); }

private:
  unsigned PeriodUs;
  std::atomic<bool> Run{false};
  std::atomic<size_t> Peak{0};
  std::atomic<uint64_t> Samples{0};
  std::thread Th;
};

// Position-sensitive, order-independent checksum of a device-accessible
// buffer (sum mod 2^64 of a mix of each 32-bit word with its index), so
// equal bits give equal sums however the blocks are scheduled.
__device__ inline uint64_t mixWord(uint64_t I, uint32_t W) {
  uint64_t X = (I << 32 | W) * 0x9E3779B97F4A7C15ull;
  X ^= X >> 31;
  X *= 0xD6E8FEB86659FD93ull;
  return X ^ (X >> 32);
}

static __global__ void checksumKernel(const uint32_t *Words, size_t N, unsigned long long *Sum) {
  uint64_t Local = 0;
  for (size_t I = (size_t)blockIdx.x * blockDim.x + threadIdx.x; I < N; I += (size_t)gridDim.x * blockDim.x)
    Local += mixWord(I, Words[I]);
  for (int Off = 16; Off > 0; Off /= 2)
    Local += __shfl_down_sync(0xffffffffu, Local, Off);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(Sum, (unsigned long long)Local);
}

// Checksum of Bytes (a multiple of 4) at P, computed on the device.
static inline uint64_t deviceChecksum(const void *P, size_t Bytes) {
  static unsigned long long *Sum = nullptr;
  if (!Sum)
    PF_CHECK(cudaMalloc(&Sum, sizeof *Sum));
  PF_CHECK(cudaMemset(Sum, 0, sizeof *Sum));
  checksumKernel<<<1024, 256>>>(static_cast<const uint32_t *>(P), Bytes / 4, Sum);
  PF_CHECK(cudaGetLastError());
  unsigned long long H = 0;
  PF_CHECK(cudaMemcpy(&H, Sum, sizeof H, cudaMemcpyDeviceToHost));
  return H;
}

// Minimal JSON output: one object per line (JSON Lines), built field by field.
class JsonLine {
public:
  JsonLine &str(const char *K, const std::string &V) {
    key(K);
    S += '"';
    for (char C : V)
      S += (C == '"' || C == '\\') ? std::string("\\") + C : std::string(1, C);
    S += '"';
    return *this;
  }
  JsonLine &num(const char *K, double V) {
    key(K);
    char B[64];
    if (std::isfinite(V))
      std::snprintf(B, sizeof B, "%.9g", V);
    else
      std::snprintf(B, sizeof B, "null");
    S += B;
    return *this;
  }
  JsonLine &u64(const char *K, uint64_t V) {
    key(K);
    S += std::to_string(V);
    return *this;
  }
  JsonLine &hex(const char *K, uint64_t V) {
    char B[32];
    std::snprintf(B, sizeof B, "%016llx", (unsigned long long)V);
    return str(K, B);
  }
  JsonLine &list(const char *K, const std::vector<double> &V) {
    key(K);
    S += '[';
    for (size_t I = 0; I < V.size(); ++I) {
      char B[64];
      std::snprintf(B, sizeof B, "%s%.9g", I ? "," : "", V[I]);
      S += B;
    }
    S += ']';
    return *this;
  }
  JsonLine &memoryStats(const gmemMemoryStats &M) {
    u64("budget_bytes", M.budget_bytes).u64("resident_bytes", M.resident_bytes);
    u64("peak_resident_bytes", M.peak_resident_bytes).u64("prefetched_bytes", M.prefetched_bytes);
    u64("prefetch_ops", M.prefetch_ops).u64("evicted_bytes", M.evicted_bytes).u64("evict_ops", M.evict_ops);
    u64("skipped_resident_bytes", M.skipped_resident_bytes).u64("unbounded_fallbacks", M.unbounded_fallbacks);
    u64("remote_bytes", M.remote_bytes).u64("launches_prefetched", M.launches_prefetched);
    return *this;
  }
  JsonLine &um(const UmCounts &C) {
    u64("gpu_fault_records", C.GpuFaultRecords).u64("gpu_faults", C.GpuFaults).u64("cpu_faults", C.CpuFaults);
    u64("htod_bytes", C.HtoDBytes).u64("dtoh_bytes", C.DtoHBytes).u64("htod_prefetch_bytes", C.HtoDUserBytes);
    u64("htod_fault_bytes", C.HtoDCoherenceBytes).u64("htod_other_bytes", C.HtoDOtherBytes);
    u64("thrashing", C.Thrashing).u64("throttling", C.Throttling).u64("remote_maps", C.RemoteMaps);
    return *this;
  }
  // Writes the line to F (and flushes: the runner reads it while we run).
  void write(FILE *F) {
    std::fprintf(F, "{%s}\n", S.c_str());
    std::fflush(F);
  }

private:
  void key(const char *K) {
    if (!S.empty())
      S += ',';
    S += '"';
    S += K;
    S += "\":";
  }
  std::string S;
};

// Opens the JSON Lines output named by PF_JSON (appending), or stdout.
inline FILE *openJson() {
  std::string Path = envStr("PF_JSON", "");
  if (Path.empty())
    return stdout;
  FILE *F = std::fopen(Path.c_str(), "a");
  if (!F) {
    std::fprintf(stderr, "cannot open %s\n", Path.c_str());
    std::exit(2);
  }
  return F;
}

} // namespace pf

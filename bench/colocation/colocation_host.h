// Host helpers of the co-location demo (colocation.cu, which includes it
// once, after colocation_kernels.h): error checks (CK), the command line
// (Options, parse), thread pinning, gmem's C API looked up at run time
// (gmemFn, SchedStats, CloneStatsHead), the training's CPU reference and
// device buffer fills.
#pragma once

#include "colocation_kernels.h"

#include <cuda_runtime.h>

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

// ---------------------------------------------------------------------------
// Host code

namespace {

void check(cudaError_t E, const char *What, int Line) {
  if (E != cudaSuccess) {
    std::fprintf(stderr, "colocation: %s failed at line %d: %s\n", What, Line,
                 cudaGetErrorString(E));
    std::exit(1);
  }
}
#define CK(X) check((X), #X, __LINE__)

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

[[noreturn]] void usage(const char *Why) {
  std::fprintf(stderr,
               "colocation: %s\n"
               "usage: colocation [--mode alone|colo|be] [--be step|accum] [--gmem]\n"
               "                  [--requests N] [--period-us N] [--iters N] [--waves N]\n"
               "                  [--be-sync spin|block] [--evict-l2] [--persist-l2] [--pin] [--no-sleep]\n"
               "                  [--hidden N] [--graph] [--cold]\n"
               "                  [--label TEXT] [--out FILE]\n"
               "                  | --calibrate [--be-ms MS]\n",
               Why);
  std::exit(2);
}

struct Options {
  std::string Mode = "colo", Be = "step", BeSync = "spin", Label, Out;
  bool Gmem = false, Calibrate = false;
  bool EvictL2 = false; ///< write 128 MB through L2 after each request (a cold cache)
  bool PersistL2 = false; ///< the chain's weights persisting in L2 (stream access policy)
  /// Host placement experiments: the request thread on the first CPU and the
  /// training thread on the last (--pin); the request thread spinning
  /// between requests instead of sleeping until 1 ms before each (--no-sleep).
  bool Pin = false, NoSleep = false;
  /// The chain's layer width (GEMV Hidden x Hidden; 1024: 4 MB of weights a
  /// layer, launch-bound kernels of ~4 us; 4096: 64 MB, memory-bound ~15 us)
  /// and whether a request is one CUDA graph launch (as inference servers
  /// launch decode steps) instead of 20 kernel launches.
  int Hidden = 1024;
  bool Graph = false;
  /// The chain's kernels launched for the first time beside the running
  /// training (its warm-up requests after the training thread has started)
  /// instead of alone: a first launch must neither stop work nor wait for
  /// stopped work forever (runtime/src/SchedFirstLaunch.cpp).
  bool Cold = false;
  int Requests = 1500, PeriodUs = 2000, Iters = 0, Waves = 100;
  double BeMs = 25;
};

Options parse(int Argc, char **Argv) {
  Options O;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Next = [&]() -> std::string {
      if (I + 1 >= Argc)
        usage(("missing value after " + A).c_str());
      return Argv[++I];
    };
    auto Int = [&](int Min) {
      std::string V = Next();
      char *End = nullptr;
      long N = std::strtol(V.c_str(), &End, 10);
      if (!End || *End || N < Min)
        usage((A + " needs an integer >= " + std::to_string(Min)).c_str());
      return int(N);
    };
    // Options without a value: each sets one flag.
    const std::pair<const char *, bool *> Flags[] = {
        {"--gmem", &O.Gmem},       {"--evict-l2", &O.EvictL2}, {"--persist-l2", &O.PersistL2},
        {"--pin", &O.Pin},         {"--no-sleep", &O.NoSleep}, {"--graph", &O.Graph},
        {"--calibrate", &O.Calibrate}, {"--cold", &O.Cold}};
    bool *Flag = nullptr;
    for (auto &[Name, Member] : Flags)
      if (A == Name)
        Flag = Member;
    if (Flag) {
      *Flag = true;
    } else if (A == "--mode") {
      O.Mode = Next();
      if (O.Mode != "alone" && O.Mode != "colo" && O.Mode != "be")
        usage("--mode is alone, colo or be");
    } else if (A == "--be") {
      O.Be = Next();
      if (O.Be != "step" && O.Be != "accum")
        usage("--be is step or accum");
    } else if (A == "--hidden") {
      O.Hidden = Int(256);
      if (O.Hidden % 256)
        usage("--hidden must be a multiple of 256");
    } else if (A == "--requests") {
      O.Requests = Int(1);
    } else if (A == "--period-us") {
      O.PeriodUs = Int(1);
    } else if (A == "--iters") {
      O.Iters = Int(16);
    } else if (A == "--waves") {
      O.Waves = Int(1);
    } else if (A == "--be-ms") {
      O.BeMs = Int(1);
    } else if (A == "--be-sync") {
      O.BeSync = Next();
      if (O.BeSync != "spin" && O.BeSync != "block")
        usage("--be-sync is spin or block");
    } else if (A == "--label") {
      O.Label = Next();
    } else if (A == "--out") {
      O.Out = Next();
    } else {
      usage(("unknown argument " + A).c_str());
    }
  }
  if (!O.Calibrate && O.Mode != "alone" && O.Iters == 0)
    usage("--iters is required with best-effort work (get it from --calibrate)");
  return O;
}

/// Pins the calling thread to one CPU (an experiment: --pin).
void pinTo(int Cpu) {
  cpu_set_t Set;
  CPU_ZERO(&Set);
  CPU_SET(Cpu, &Set);
  if (pthread_setaffinity_np(pthread_self(), sizeof Set, &Set) != 0)
    std::fprintf(stderr, "colocation: cannot pin a thread to CPU %d\n", Cpu);
}

template <typename Fn> Fn gmemFn(const char *Name) {
  void *P = dlsym(RTLD_DEFAULT, Name);
  if (!P) {
    std::fprintf(stderr, "colocation: %s not found: run with LD_PRELOAD=libgmemrt.so\n", Name);
    std::exit(1);
  }
  return reinterpret_cast<Fn>(P);
}

// gmem's C API, declared here so that the program needs no gmem header or
// library at build time (gmem_sched.h: gmemSchedStats).
struct SchedStats {
  uint64_t launches, passed_through, urgent, gated, preemptible, suppressions, preemptions,
      preemptions_loop, relaunches, forced_resumes, clone_failures, drain_samples, drain_ns_p50,
      drain_ns_p99, drain_ns_max, drain_ns_mean;
  int32_t active, policy;
};

// gmemSchedCloneStats up to its fair-share counters (the caller's size
// says how much the library fills): 21 counters after size and reserved,
// share_resumes, share_arrivals_spared and share_ends the last three.
struct CloneStatsHead {
  uint32_t Size = sizeof(CloneStatsHead), Reserved = 0;
  uint64_t Counters[21] = {};
  uint64_t shareResumes() const { return Counters[18]; }
  uint64_t shareSpared() const { return Counters[19]; }
  uint64_t shareEnds() const { return Counters[20]; }
};

float trainRef(float X, const std::vector<float> &W, int Tid, int Iters) {
  float Acc = 0.f;
  for (int It = 0; It < Iters; ++It)
    Acc = std::fmaf(Acc, 0.9999f, X * W[(It + Tid) & (WLen - 1)]);
  return Acc;
}

void fill(float *P, size_t N, unsigned Seed, float Scale) {
  fill_random<<<unsigned((N + 255) / 256), 256>>>(P, N, Seed, Scale);
  CK(cudaGetLastError());
}

} // namespace

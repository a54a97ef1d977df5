// See LaunchProfile.h. Samples go into log2 buckets (ns) per stage; at exit
// each stage prints its count, mean and bucket-resolution P50/P99.
#include "LaunchProfile.h"

#ifdef GMEMRT_LAUNCH_PROFILE
#include <cstdio>

namespace gmem {
namespace rt {
namespace prof {
namespace {

// 64 ns buckets up to 64 us, then one overflow bucket.
constexpr unsigned Step = 64, Buckets = 1025;
const char *const Names[NumStages] = {"hook (top level)", "hook (gated)", "decide",
                                      "scheduler pre-launch", "suppress", "  stop writes",
                                      "  victim query", "  drain event", "  wake monitor",
                                      "driver launch call", "after", "recycle",
                                      "gated: plan", "gated: zero+gate", "gated: clone call",
                                      "gated: tracking"};

struct Table {
  std::atomic<uint64_t> Count[NumStages] = {}, Sum[NumStages] = {};
  std::atomic<uint64_t> Hist[NumStages][Buckets] = {};
  void print(unsigned Tag) {
    for (unsigned S = 0; S < NumStages; ++S) {
      uint64_t N = Count[S].load();
      if (!N)
        continue;
      auto Quantile = [&](double Q) {
        uint64_t Want = uint64_t(Q * double(N)), Seen = 0;
        for (unsigned B = 0; B < Buckets; ++B)
          if ((Seen += Hist[S][B].load()) > Want)
            return uint64_t(B + 1) * Step; // upper bound of bucket B
        return uint64_t(Buckets) * Step;
      };
      std::fprintf(stderr,
                   "gmem-profile: [%u] %-20s n=%-8llu mean=%8.0f ns  p50<=%llu ns  p99<=%llu ns\n",
                   Tag, Names[S], (unsigned long long)N, double(Sum[S].load()) / double(N),
                   (unsigned long long)Quantile(0.5), (unsigned long long)Quantile(0.99));
    }
  }
};
// One table per tag (gmemProfileTag): a caller that mixes kinds of launch
// can tell their profiles apart.
constexpr unsigned Tags = 8;
std::atomic<unsigned> CurrentTag{0};
struct Tables {
  Table T[Tags];
  void print() {
    for (unsigned I = 0; I < Tags; ++I)
      if (T[I].Count[HookGated].load() || T[I].Count[HookTop].load())
        T[I].print(I);
  }
  ~Tables() { print(); }
} All;

} // namespace

void add(Stage S, uint64_t Ns) {
  const uint64_t Q = Ns / Step;
  const unsigned B = Q < Buckets - 1 ? unsigned(Q) : Buckets - 1;
  Table &T = All.T[CurrentTag.load(std::memory_order_relaxed)];
  T.Count[S].fetch_add(1, std::memory_order_relaxed);
  T.Sum[S].fetch_add(Ns, std::memory_order_relaxed);
  T.Hist[S][B].fetch_add(1, std::memory_order_relaxed);
  // Also at every power of two of gated hooks from 256 on: a process that
  // leaves through _exit (the bench harness's forked workers) runs no
  // static destructor.
  if (S == HookGated) {
    static std::atomic<uint64_t> Gated{0};
    const uint64_t N = Gated.fetch_add(1, std::memory_order_relaxed) + 1;
    if (N >= 256 && (N & (N - 1)) == 0) {
      std::fprintf(stderr, "gmem-profile: after %llu gated launches\n", (unsigned long long)N);
      All.print();
    }
  }
}

} // namespace prof
} // namespace rt
} // namespace gmem

/// Diagnostics builds only: later samples go to table Tag (0..7).
extern "C" __attribute__((visibility("default"))) void gmemProfileTag(unsigned Tag) {
  gmem::rt::prof::CurrentTag.store(Tag < gmem::rt::prof::Tags ? Tag : 0,
                                   std::memory_order_relaxed);
}
#endif

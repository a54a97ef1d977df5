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
  ~Table() {
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
      std::fprintf(stderr, "gmem-profile: %-20s n=%-8llu mean=%8.0f ns  p50<=%llu ns  p99<=%llu ns\n",
                   Names[S], (unsigned long long)N, double(Sum[S].load()) / double(N),
                   (unsigned long long)Quantile(0.5), (unsigned long long)Quantile(0.99));
    }
  }
};
Table T;

} // namespace

void add(Stage S, uint64_t Ns) {
  const uint64_t Q = Ns / Step;
  const unsigned B = Q < Buckets - 1 ? unsigned(Q) : Buckets - 1;
  T.Count[S].fetch_add(1, std::memory_order_relaxed);
  T.Sum[S].fetch_add(Ns, std::memory_order_relaxed);
  T.Hist[S][B].fetch_add(1, std::memory_order_relaxed);
}

} // namespace prof
} // namespace rt
} // namespace gmem
#endif

// Oversubscription benchmark driver (part 2 of bench/prefetch): runs each
// workload of polybench.cu / rodinia.cu at one footprint, REPS times in a
// row (repetition 0 starts with every page on the host: "cold"; the others
// start from whatever the previous one left on the device: "warm"), under
// whatever libgmemrt configuration the environment gives (the runner sets
// LD_PRELOAD, GMEM_PREFETCH and GMEM_DEVICE_BUDGET), and reports times,
// output checksums, libgmemrt's memory counters and the device memory used,
// sampled with cudaMemGetInfo from a thread, against the budget.
//
//   pf_apps --apps gemm,2mm,... --gib F --reps N --arm NAME [--ratio R]
// One JSON line per workload on stdout or appended to $PF_JSON.
#include "apps.h"
#include "common.h"

using namespace pf;

namespace {

bool makeApp(const std::string &Name, size_t Target, App &A) {
  return makePolybenchApp(Name, Target, A) || makeRodiniaApp(Name, Target, A);
}

void freeApp(App &A) {
  for (auto &B : A.Buffers)
    PF_CHECK(cudaFree(B.Ptr));
  A.Buffers.clear();
}

void fillApp(App &A) {
  uint32_t Seed = 1;
  for (auto &B : A.Buffers)
    fillHost(B.Ptr, B.Elems, Seed++);
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Apps = {"gemm", "2mm", "atax", "bicg", "mvt", "gesummv", "2dconv", "3dconv", "hotspot",
                                   "pathfinder"};
  double Gib = 1;
  int Reps = 4;
  std::string Arm = "unnamed";
  double Ratio = 0;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (I + 1 >= Argc) {
      std::fprintf(stderr, "usage: pf_apps [--apps A,..] [--gib F] [--reps N] [--arm NAME] [--ratio R]\n");
      return 2;
    }
    std::string V = Argv[++I];
    if (A == "--apps")
      Apps = splitList(V);
    else if (A == "--gib")
      Gib = std::atof(V.c_str());
    else if (A == "--reps")
      Reps = std::atoi(V.c_str());
    else if (A == "--arm")
      Arm = V;
    else if (A == "--ratio")
      Ratio = std::atof(V.c_str());
    else {
      std::fprintf(stderr, "pf_apps: unknown option %s\n", A.c_str());
      return 2;
    }
  }
  if (Gib <= 0 || Gib > 8 || Reps < 2) {
    std::fprintf(stderr, "pf_apps: need 0 < --gib <= 8 and --reps >= 2\n");
    return 2;
  }
  size_t Target = (size_t)(Gib * GiB);
  GmemApi Gmem;
  bool WantGmem = Arm != "uvm";
  if (WantGmem != Gmem.loaded()) {
    std::fprintf(stderr, "pf_apps: arm %s %s libgmemrt\n", Arm.c_str(), WantGmem ? "needs" : "must run without");
    return 2;
  }
  PF_CHECK(cudaSetDevice(0));
  PF_CHECK(cudaFree(nullptr));
  bool Counting = UmCounter::init();
  if (envLong("PF_CUPTI", 0) == 1 && !Counting)
    return 4;
  FILE *Json = openJson();

  // Warm-up: every kernel once on a small instance (module loading and
  // descriptor lookup stay out of the timed repetitions).
  for (const auto &Name : Apps) {
    App W;
    if (!makeApp(Name, 64 * MiB, W)) {
      std::fprintf(stderr, "pf_apps: unknown workload '%s'\n", Name.c_str());
      return 2;
    }
    fillApp(W);
    W.Run();
    PF_CHECK(cudaDeviceSynchronize());
    for (auto &B : W.Buffers)
      deviceChecksum(B.Ptr, B.bytes());
    freeApp(W);
  }

  DeviceMemorySampler Sampler(2000);
  Sampler.start();
  for (const auto &Name : Apps) {
    PF_CHECK(cudaDeviceSynchronize());
    size_t Used0 = DeviceMemorySampler::usedNow();
    App A;
    makeApp(Name, Target, A);
    double T0 = nowSec();
    fillApp(A);
    double FillS = nowSec() - T0;
    gmemMemoryStats Before, After;
    Gmem.memoryStats(Before);
    Sampler.resetPeak();
    std::vector<double> Times;
    UmCounts Um;
    std::string Inexact = "n/a";
    uint64_t SeqBefore = Gmem.lastSequence();
    for (int R = 0; R < Reps; ++R) {
      int Region = UmCounter::begin(Name);
      double Start = nowSec();
      A.Run();
      PF_CHECK(cudaDeviceSynchronize());
      Times.push_back(nowSec() - Start);
      if (R == 0 && Gmem.loaded())
        Inexact = recentInexactKernels(Gmem, SeqBefore);
      UmCounter::end(Region);
      if (Counting) { // counters of every repetition, cold and warm
        UmCounter::flush();
        UmCounts C = UmCounter::counts(Region);
        Um.GpuFaults += C.GpuFaults, Um.GpuFaultRecords += C.GpuFaultRecords, Um.HtoDBytes += C.HtoDBytes;
        Um.DtoHBytes += C.DtoHBytes, Um.HtoDUserBytes += C.HtoDUserBytes;
        Um.HtoDCoherenceBytes += C.HtoDCoherenceBytes, Um.HtoDOtherBytes += C.HtoDOtherBytes;
        Um.CpuFaults += C.CpuFaults, Um.RemoteMaps += C.RemoteMaps, Um.Thrashing += C.Thrashing;
      }
    }
    size_t PeakUsed = Sampler.peak();
    Gmem.memoryStats(After);
    std::vector<double> Warm(Times.begin() + 1, Times.end());
    JsonLine L;
    L.str("bench", "apps").str("app", Name).str("shape", A.Shape).str("arm", Arm).num("ratio", Ratio);
    L.u64("footprint_bytes", A.footprint()).u64("target_bytes", Target).u64("budget_bytes", After.budget_bytes);
    L.u64("launches_per_rep", A.LaunchesPerRep).u64("max_launch_bytes", A.MaxLaunchBytes);
    L.num("fill_s", FillS).list("times_s", Times).num("cold_s", Times[0]);
    L.num("warm_median_s", median(Warm)).num("warm_p99_s", percentile(Warm, 99));
    L.u64("device_used_before", Used0).u64("device_used_peak", PeakUsed);
    L.u64("device_used_peak_delta", PeakUsed > Used0 ? PeakUsed - Used0 : 0).u64("sampler_samples", Sampler.samples());
    if (Gmem.loaded()) {
      L.str("inexact_kernels", Inexact);
      L.u64("peak_resident_bytes", After.peak_resident_bytes);
      L.u64("gmem_prefetched_bytes", After.prefetched_bytes - Before.prefetched_bytes);
      L.u64("gmem_prefetch_ops", After.prefetch_ops - Before.prefetch_ops);
      L.u64("gmem_evicted_bytes", After.evicted_bytes - Before.evicted_bytes);
      L.u64("gmem_evict_ops", After.evict_ops - Before.evict_ops);
      L.u64("gmem_skipped_resident_bytes", After.skipped_resident_bytes - Before.skipped_resident_bytes);
      L.u64("gmem_unbounded_fallbacks", After.unbounded_fallbacks - Before.unbounded_fallbacks);
      L.u64("gmem_remote_bytes", After.remote_bytes - Before.remote_bytes);
    }
    if (Counting)
      L.um(Um).u64("cupti_dropped", UmCounter::dropped());
    std::string Sums;
    for (const auto &B : A.Buffers) {
      if (!B.Output)
        continue;
      char H[80];
      std::snprintf(H, sizeof H, "%s%s:%016llx", Sums.empty() ? "" : " ", B.Name.c_str(),
                    (unsigned long long)deviceChecksum(B.Ptr, B.bytes()));
      Sums += H;
    }
    L.str("checksums", Sums);
    L.write(Json);
    std::printf("apps %-10s arm %-9s ratio %4.2f F %5.2f GiB budget %5.2f GiB cold %8.1f ms warm %8.1f ms "
                "(p99 %8.1f) used+%5.2f GiB %s\n",
                Name.c_str(), Arm.c_str(), Ratio, A.footprint() / (double)GiB, After.budget_bytes / (double)GiB,
                Times[0] * 1e3, median(Warm) * 1e3, percentile(Warm, 99) * 1e3,
                (PeakUsed > Used0 ? PeakUsed - Used0 : 0) / (double)GiB, Sums.c_str());
    std::fflush(stdout);
    freeApp(A);
  }
  Sampler.stop();
  return 0;
}

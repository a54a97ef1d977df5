// Host cost of libgmemrt's per-launch prefetch decision when nothing needs
// moving (part 4 of bench/prefetch): the time of the launch call itself for a
// small kernel over managed buffers that are already resident on the device,
// many launches, in batches separated by a synchronisation (untimed).
// Compare processes: plain, LD_PRELOAD libgmemrt with GMEM_PREFETCH=0, and
// with GMEM_PREFETCH=1.
//
//   pf_launch --label NAME [--launches N] [--batch B]
// Variants: "same" (identical arguments every launch: libgmemrt's decision
// memo hits) and "vary" (the element count cycles through 16 values, so the
// decision is evaluated at every launch). The first launch after each
// synchronisation is reported apart (libgmemrt treats resident data as
// possibly stale after the host synchronised, so that launch re-prefetches).
#include "common.h"

using namespace pf;

__global__ void tinyKernel(const float *A, const float *B, float *C, int N) {
  int I = blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    C[I] = A[I] + B[I];
}

int main(int Argc, char **Argv) {
  std::string Label = "unnamed";
  long Launches = 20000, Batch = 1000;
  for (int I = 1; I + 1 < Argc; I += 2) {
    std::string A = Argv[I], V = Argv[I + 1];
    if (A == "--label")
      Label = V;
    else if (A == "--launches")
      Launches = std::atol(V.c_str());
    else if (A == "--batch")
      Batch = std::atol(V.c_str());
    else {
      std::fprintf(stderr, "usage: pf_launch --label NAME [--launches N] [--batch B]\n");
      return 2;
    }
  }
  if (Argc % 2 == 0 || Launches < Batch || Batch < 2) {
    std::fprintf(stderr, "usage: pf_launch --label NAME [--launches N >= B] [--batch B >= 2]\n");
    return 2;
  }
  GmemApi Gmem;
  PF_CHECK(cudaSetDevice(0));
  const size_t Bytes = 1 * MiB;
  float *Buf[3];
  for (auto &P : Buf) {
    PF_CHECK(cudaMallocManaged(&P, Bytes));
    fillHost(P, Bytes / 4, 7);
    prefetchToDevice(P, Bytes, 0);
  }
  PF_CHECK(cudaDeviceSynchronize());
  FILE *Json = openJson();
  for (const char *Variant : {"same", "vary"}) {
    bool Vary = std::string(Variant) == "vary";
    std::vector<double> Main, First;
    gmemMemoryStats Before, After;
    long Total = Launches + Batch; // the first batch is a warm-up
    for (long L = 0; L < Total; ++L) {
      if (L % Batch == 0)
        PF_CHECK(cudaDeviceSynchronize());
      int N = Vary ? 128 + 8 * (int)(L % 16) : 256;
      uint64_t T0 = nowNs();
      tinyKernel<<<1, 256>>>(Buf[0], Buf[1], Buf[2], N);
      uint64_t T1 = nowNs();
      if (L == Batch)
        Gmem.memoryStats(Before);
      if (L < Batch)
        continue;
      (L % Batch == 0 ? First : Main).push_back((double)(T1 - T0));
    }
    PF_CHECK(cudaGetLastError());
    PF_CHECK(cudaDeviceSynchronize());
    Gmem.memoryStats(After);
    double Mean = 0;
    for (double V : Main)
      Mean += V / Main.size();
    JsonLine J;
    J.str("bench", "launch").str("label", Label).str("variant", Variant).u64("launches", Main.size());
    J.num("median_ns", median(Main)).num("p99_ns", percentile(Main, 99)).num("mean_ns", Mean);
    J.num("p90_ns", percentile(Main, 90)).num("first_after_sync_median_ns", median(First));
    J.u64("gmem_loaded", Gmem.loaded());
    if (Gmem.loaded()) {
      J.u64("gmem_prefetch_ops", After.prefetch_ops - Before.prefetch_ops);
      J.u64("gmem_prefetched_bytes", After.prefetched_bytes - Before.prefetched_bytes);
      J.u64("gmem_skipped_resident_bytes", After.skipped_resident_bytes - Before.skipped_resident_bytes);
    }
    J.write(Json);
    std::printf("launch %-14s %-4s median %7.0f ns  p99 %7.0f ns  mean %7.0f ns  first-after-sync %7.0f ns\n",
                Label.c_str(), Variant, median(Main), percentile(Main, 99), Mean, median(First));
    std::fflush(stdout);
  }
  for (auto P : Buf)
    PF_CHECK(cudaFree(P));
  return 0;
}

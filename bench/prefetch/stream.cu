// First-touch streaming benchmark (part 1 of bench/prefetch): vector add,
// copy, 2D and 3D stencils over managed memory initialised on the host, so
// that every page starts on the CPU, timed from the first call (launch,
// prefetch or copy) to completion. Modes:
//   uvm     plain demand paging (run without libgmemrt)
//   gmem    the same code under LD_PRELOAD=libgmemrt.so (prefetch from the
//           kernel's analysed regions, no code change)
//   manual  cudaMemPrefetchAsync of every buffer before the kernel
//   pinned  cudaMemcpy from pinned host memory into cudaMalloc buffers
// Between repetitions (not timed) the buffers go back to the host
// (cudaMemPrefetchAsync to the CPU) and the host touches every page again.
//
//   pf_stream [--kernels vadd,copy,stencil2d,stencil3d] [--sizes-gib 1,2,4,8]
//             [--modes uvm,manual,pinned | gmem] [--reps N]
// One JSON line per (kernel, size, mode) on stdout or appended to $PF_JSON;
// with PF_CUPTI=1 each timed region's unified-memory counters too.
#include "common.h"

#include <map>

using namespace pf;

__global__ void vaddKernel(const float *A, const float *B, float *C, size_t N) {
  size_t I = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    C[I] = A[I] + B[I];
}

__global__ void copyKernel(const float *In, float *Out, size_t N) {
  size_t I = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (I < N)
    Out[I] = In[I];
}

// 5-point Jacobi step; border cells copy the input so every output is written.
__global__ void stencil2dKernel(const float *In, float *Out, int NX, int NY) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  if (X >= NX || Y >= NY)
    return;
  size_t I = (size_t)Y * NX + X;
  if (X == 0 || Y == 0 || X == NX - 1 || Y == NY - 1)
    Out[I] = In[I];
  else
    Out[I] = 0.2f * (In[I] + In[I - 1] + In[I + 1] + In[I - NX] + In[I + NX]);
}

// 7-point step on an NX x NY x NZ grid (one thread per cell, 3D grid).
__global__ void stencil3dKernel(const float *In, float *Out, int NX, int NY, int NZ) {
  int X = blockIdx.x * blockDim.x + threadIdx.x;
  int Y = blockIdx.y * blockDim.y + threadIdx.y;
  int Z = blockIdx.z;
  if (X >= NX || Y >= NY || Z >= NZ)
    return;
  size_t Plane = (size_t)NX * NY;
  size_t I = (size_t)Z * Plane + (size_t)Y * NX + X;
  if (X == 0 || Y == 0 || Z == 0 || X == NX - 1 || Y == NY - 1 || Z == NZ - 1)
    Out[I] = In[I];
  else
    Out[I] = (1.0f / 7) * (In[I] + In[I - 1] + In[I + 1] + In[I - NX] + In[I + NX] + In[I - Plane] +
                           In[I + Plane]);
}

namespace {

enum class Mode { Uvm, Gmem, GmemWhole, Manual, Pinned };

Mode parseMode(const std::string &S) {
  if (S == "uvm")
    return Mode::Uvm;
  if (S == "gmem")
    return Mode::Gmem;
  if (S == "gmem_whole")
    return Mode::GmemWhole;
  if (S == "manual")
    return Mode::Manual;
  if (S == "pinned")
    return Mode::Pinned;
  std::fprintf(stderr, "pf_stream: unknown mode '%s' (uvm, gmem, gmem_whole, manual, pinned)\n", S.c_str());
  std::exit(2);
}

// One kernel's problem at one footprint: its buffers (inputs first, the
// output last) as prefixes of the size's three managed arrays.
struct Problem {
  std::string Kernel;
  int NumInputs = 1;
  size_t Elems = 0; ///< per buffer
  int NX = 0, NY = 0, NZ = 0;
  size_t bufBytes() const { return Elems * sizeof(float); }
  size_t footprint() const { return (NumInputs + 1) * bufBytes(); }
};

Problem makeProblem(const std::string &K, size_t Footprint) {
  Problem P;
  P.Kernel = K;
  if (K == "vadd") {
    P.NumInputs = 2;
    P.Elems = Footprint / 3 / sizeof(float) / 1024 * 1024;
  } else if (K == "copy") {
    P.Elems = Footprint / 2 / sizeof(float) / 1024 * 1024;
  } else if (K == "stencil2d") {
    P.NX = 8192;
    P.NY = (int)(Footprint / 2 / sizeof(float) / P.NX);
    P.Elems = (size_t)P.NX * P.NY;
  } else if (K == "stencil3d") {
    P.NX = 512;
    P.NY = 512;
    P.NZ = (int)(Footprint / 2 / sizeof(float) / (P.NX * P.NY));
    P.Elems = (size_t)P.NX * P.NY * P.NZ;
  } else {
    std::fprintf(stderr, "pf_stream: unknown kernel '%s' (vadd, copy, stencil2d, stencil3d)\n", K.c_str());
    std::exit(2);
  }
  return P;
}

void launch(const Problem &P, float *const *Buf) {
  const float *In0 = Buf[0], *In1 = Buf[1];
  float *Out = Buf[P.NumInputs];
  if (P.Kernel == "vadd") {
    vaddKernel<<<(unsigned)((P.Elems + 255) / 256), 256>>>(In0, In1, Out, P.Elems);
  } else if (P.Kernel == "copy") {
    copyKernel<<<(unsigned)((P.Elems + 255) / 256), 256>>>(In0, Out, P.Elems);
  } else if (P.Kernel == "stencil2d") {
    dim3 Block(32, 8), Grid((P.NX + 31) / 32, (P.NY + 7) / 8);
    stencil2dKernel<<<Grid, Block>>>(In0, Out, P.NX, P.NY);
  } else {
    dim3 Block(32, 8), Grid((P.NX + 31) / 32, (P.NY + 7) / 8, P.NZ);
    stencil3dKernel<<<Grid, Block>>>(In0, Out, P.NX, P.NY, P.NZ);
  }
  PF_CHECK(cudaGetLastError());
}

const char *modeName(Mode M) {
  switch (M) {
  case Mode::Uvm:
    return "uvm";
  case Mode::Gmem:
    return "gmem";
  case Mode::GmemWhole:
    return "gmem_whole";
  case Mode::Manual:
    return "manual";
  default:
    return "pinned";
  }
}

// Pinned host inputs and device buffers for the pinned mode, sized once for
// the largest footprint.
struct PinnedSet {
  float *Host[2] = {nullptr, nullptr};
  float *Dev[3] = {nullptr, nullptr, nullptr};
  size_t Bytes = 0;
  void ensure(size_t B) {
    if (B <= Bytes)
      return;
    release();
    for (auto &H : Host)
      PF_CHECK(cudaMallocHost(&H, B));
    for (auto &D : Dev)
      PF_CHECK(cudaMalloc(&D, B));
    Bytes = B;
  }
  void release() {
    for (auto &H : Host) {
      if (H)
        PF_CHECK(cudaFreeHost(H));
      H = nullptr;
    }
    for (auto &D : Dev) {
      if (D)
        PF_CHECK(cudaFree(D));
      D = nullptr;
    }
    Bytes = 0;
  }
};

void warmUp(const std::vector<std::string> &Kernels) {
  // Module load, lazy kernel loading and libgmemrt's descriptor lookup happen
  // here, outside every timed region.
  float *W[3];
  for (auto &P : W) {
    PF_CHECK(cudaMallocManaged(&P, 4 * MiB));
    PF_CHECK(cudaMemset(P, 0, 4 * MiB));
  }
  for (const auto &K : Kernels)
    launch(makeProblem(K, 8 * MiB), W);
  PF_CHECK(cudaDeviceSynchronize());
  deviceChecksum(W[0], 4 * MiB);
  for (auto P : W)
    PF_CHECK(cudaFree(P));
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Kernels = {"vadd", "copy", "stencil2d"};
  std::vector<double> SizesGib = {1, 2, 4, 8};
  std::vector<Mode> Modes = {Mode::Uvm, Mode::Manual, Mode::Pinned};
  int Reps = 3;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Next = [&]() -> std::string {
      if (I + 1 >= Argc) {
        std::fprintf(stderr, "pf_stream: %s needs a value\n", A.c_str());
        std::exit(2);
      }
      return Argv[++I];
    };
    if (A == "--kernels")
      Kernels = splitList(Next());
    else if (A == "--sizes-gib") {
      SizesGib.clear();
      for (auto &S : splitList(Next()))
        SizesGib.push_back(std::atof(S.c_str()));
    } else if (A == "--modes") {
      Modes.clear();
      for (auto &S : splitList(Next()))
        Modes.push_back(parseMode(S));
    } else if (A == "--reps")
      Reps = std::atoi(Next().c_str());
    else {
      std::fprintf(stderr, "usage: pf_stream [--kernels K,..] [--sizes-gib G,..] [--modes M,..] [--reps N]\n");
      return 2;
    }
  }
  GmemApi Gmem;
  for (Mode M : Modes) {
    bool UnderGmem = M == Mode::Gmem || M == Mode::GmemWhole;
    if (UnderGmem && !Gmem.loaded()) {
      std::fprintf(stderr, "pf_stream: mode %s needs libgmemrt (LD_PRELOAD)\n", modeName(M));
      return 2;
    }
    if (!UnderGmem && Gmem.loaded()) {
      std::fprintf(stderr, "pf_stream: mode %s must run without libgmemrt\n", modeName(M));
      return 2;
    }
  }
  double MaxGib = *std::max_element(SizesGib.begin(), SizesGib.end());
  if (MaxGib > 16) {
    std::fprintf(stderr, "pf_stream: sizes up to %.0f GiB: above the 16 GiB limit of managed memory\n", MaxGib);
    return 2;
  }
  int Dev = 0;
  PF_CHECK(cudaSetDevice(Dev));
  PF_CHECK(cudaFree(nullptr));
  bool Counting = UmCounter::init();
  if (envLong("PF_CUPTI", 0) == 1 && !Counting)
    return 4;
  warmUp(Kernels);
  FILE *Json = openJson();
  PinnedSet Pinned;

  for (double Gib : SizesGib) {
    size_t F = (size_t)(Gib * GiB);
    for (const auto &K : Kernels) {
      // Fresh buffers per kernel (freed below): each kernel's first
      // repetition starts from allocations nothing has touched on the device.
      Problem P = makeProblem(K, F);
      float *Buf[3] = {nullptr, nullptr, nullptr};
      double T0 = nowSec();
      for (int B = 0; B <= P.NumInputs; ++B) {
        PF_CHECK(cudaMallocManaged(&Buf[B], P.bufBytes()));
        fillHost(Buf[B], P.Elems, 11 + B);
      }
      std::printf("# %s %.0f GiB: allocated and filled %.2f GiB on the host in %.2f s\n", K.c_str(), Gib,
                  P.footprint() / (double)GiB, nowSec() - T0);
      std::fflush(stdout);
      for (Mode M : Modes) {
        if (M == Mode::Pinned) {
          Pinned.ensure((size_t)(MaxGib * GiB) / 2);
          for (int In = 0; In < P.NumInputs; ++In)
            prefetchToHost(Buf[In], P.bufBytes());
          PF_CHECK(cudaDeviceSynchronize());
          for (int In = 0; In < P.NumInputs; ++In) {
            const float *Src = Buf[In];
            float *Dst = Pinned.Host[In];
            parallelFor(P.Elems, [=](size_t B, size_t E) { std::memcpy(Dst + B, Src + B, (E - B) * 4); });
          }
        }
        std::vector<double> Times;
        int Exact = -1; // libgmemrt's view of the timed launch: regions exact?
        UmCounts Um;
        gmemMemoryStats Before, After;
        Gmem.memoryStats(Before);
        for (int R = 0; R < Reps; ++R) {
          if (M != Mode::Pinned) {
            // Untimed: everything back on the host, touched by the host.
            for (int B = 0; B <= P.NumInputs; ++B)
              prefetchToHost(Buf[B], P.bufBytes());
            PF_CHECK(cudaDeviceSynchronize());
            for (int B = 0; B <= P.NumInputs; ++B)
              touchHost(Buf[B], P.bufBytes());
          }
          PF_CHECK(cudaDeviceSynchronize());
          int Region = UmCounter::begin(K);
          double Start = nowSec();
          if (M == Mode::Pinned) {
            for (int In = 0; In < P.NumInputs; ++In)
              PF_CHECK(cudaMemcpyAsync(Pinned.Dev[In], Pinned.Host[In], P.bufBytes(), cudaMemcpyHostToDevice, 0));
            float *D[3] = {Pinned.Dev[0], Pinned.Dev[1], Pinned.Dev[2]};
            if (P.NumInputs == 1)
              D[1] = Pinned.Dev[2];
            launch(P, D);
          } else {
            if (M == Mode::Manual)
              for (int B = 0; B <= P.NumInputs; ++B)
                prefetchToDevice(Buf[B], P.bufBytes(), Dev);
            launch(P, Buf);
            gmemLaunchInfo Info;
            if (Gmem.LastLaunch && Gmem.LastLaunch(&Info) == GMEM_SUCCESS)
              Exact = launchRegionsExact(Info);
          }
          PF_CHECK(cudaDeviceSynchronize());
          Times.push_back(nowSec() - Start);
          UmCounter::end(Region);
          UmCounter::flush();
          UmCounts C = UmCounter::counts(Region);
          Um.GpuFaultRecords += C.GpuFaultRecords, Um.GpuFaults += C.GpuFaults, Um.CpuFaults += C.CpuFaults;
          Um.HtoDBytes += C.HtoDBytes, Um.DtoHBytes += C.DtoHBytes, Um.HtoDUserBytes += C.HtoDUserBytes;
          Um.HtoDCoherenceBytes += C.HtoDCoherenceBytes, Um.HtoDOtherBytes += C.HtoDOtherBytes;
          Um.Thrashing += C.Thrashing, Um.Throttling += C.Throttling, Um.RemoteMaps += C.RemoteMaps;
        }
        Gmem.memoryStats(After);
        const float *Out = M == Mode::Pinned ? Pinned.Dev[2] : Buf[P.NumInputs];
        uint64_t Sum = deviceChecksum(Out, P.bufBytes());
        double Med = median(Times);
        JsonLine L;
        L.str("bench", "stream").str("kernel", K).str("mode", modeName(M)).num("size_gib", Gib);
        L.u64("footprint_bytes", P.footprint()).u64("reps", Reps).list("times_s", Times);
        L.num("median_s", Med).num("p99_s", percentile(Times, 99)).num("min_s", percentile(Times, 0));
        L.num("gbps_median", P.footprint() / Med / 1e9).hex("checksum", Sum);
        if (Counting)
          L.um(Um).u64("cupti_dropped", UmCounter::dropped());
        if (Gmem.loaded()) {
          L.num("regions_exact", Exact);
          L.u64("gmem_prefetched_bytes", After.prefetched_bytes - Before.prefetched_bytes);
          L.u64("gmem_prefetch_ops", After.prefetch_ops - Before.prefetch_ops);
          L.u64("gmem_skipped_resident_bytes", After.skipped_resident_bytes - Before.skipped_resident_bytes);
          L.u64("gmem_unbounded_fallbacks", After.unbounded_fallbacks - Before.unbounded_fallbacks);
        }
        L.write(Json);
        std::printf("stream %-9s %4.0f GiB %-6s median %8.2f ms  p99 %8.2f ms  %6.1f GB/s  faults %s  sum %016llx\n",
                    K.c_str(), Gib, modeName(M), Med * 1e3, percentile(Times, 99) * 1e3,
                    P.footprint() / Med / 1e9, Counting ? std::to_string(Um.GpuFaults).c_str() : "-",
                    (unsigned long long)Sum);
        std::fflush(stdout);
      }
      for (int B = 0; B <= P.NumInputs; ++B)
        PF_CHECK(cudaFree(Buf[B]));
    }
  }
  Pinned.release();
  return 0;
}

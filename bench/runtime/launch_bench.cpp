// Per-launch CPU cost of libgmemrt's decision (no GPU needed).
//
// For descriptors the real analysis produced (bench/runtime/kernels.cu built
// with the gmem plugin: 1, 2, 4 and 8 pointer parameters):
//
//   Reference/K  gmem::checkInstance, the shared evaluator (shared_ptr trees,
//                strings, vectors), with a std::map allocation lookup
//   Compiled/K   the runtime's compiled evaluator (FlatEval.h) with the
//                runtime's cached allocation lookups
//   Launch/K     everything libgmemrt adds to a launch except the driver
//                call: kernel-handle lookup, argument reading, compiled
//                evaluation, per-thread record, ring publication (decision
//                memo off: every launch is evaluated)
//   LaunchRepeat/K  the same with the decision memo on, the same launch
//                repeated (a loop relaunching a kernel with the same
//                arguments, as training and solver loops do)
//
// Google Benchmark reports the mean per call of each repetition; the
// counters median_ns and p99_ns come from timing 200000 individual calls
// with the TSC (timer overhead subtracted), which is what "per launch" means.
// Results and the exact command: bench/runtime/RESULTS.md.
#include "gmem/compiler/FlatEval.h"

namespace gmem::rt {
using namespace gmem::flat;
}
#include "Runtime.h"

#include "../../test/runtime/FakeDriver.h"
#include "../../test/runtime/TestDescriptors.h"

#include "gmem/compiler/DescriptorCodec.h"
#include "gmem/compiler/InstanceCheck.h"

#include <benchmark/benchmark.h>
#include <x86intrin.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <vector>

#ifndef GMEMRT_BENCH_PTX
#define GMEMRT_BENCH_PTX ""
#endif

using namespace gmem;
using namespace gmem::rt;
using namespace gmem::rt::test;

namespace {

struct Case {
  std::string Label;  ///< fill1, fma4, ...
  KernelDescriptor K;
  FlatKernel F;
  LaunchConfig L;     ///< grid, block, argument bits
  std::map<uint64_t, uint64_t> Allocs;
  std::vector<std::vector<uint8_t>> ArgStorage; ///< kernelParams targets
  std::vector<void *> Params;
};

/// A linear kernel with NP pointers (the last one written), should the PTX
/// be missing: the shape the analysis gives fill1/fma4/sum8.
KernelDescriptor syntheticLinear(unsigned NP) {
  KernelDescriptor K;
  K.Symbol = "_Z9synthetic" + std::to_string(NP);
  K.PlainName = "synthetic" + std::to_string(NP);
  for (unsigned I = 0; I < NP; ++I)
    K.Params.push_back(ptrParam("p" + std::to_string(I)));
  K.Params.push_back(scalarParam("n", ScalarType::I32));
  for (unsigned I = 0; I + 1 < NP; ++I)
    K.Params[I].Read = linearRegion(NP, 4);
  K.Params[NP - 1].Write = linearRegion(NP, 4);
  return K;
}

std::vector<Case> &cases() {
  static std::vector<Case> Cases = [] {
    std::vector<Case> Out;
    std::vector<KernelDescriptor> Ks;
    const char *Env = std::getenv("GMEMRT_BENCH_PTX"); // e.g. on a machine without the build tree
    std::string Ptx = Env ? Env : GMEMRT_BENCH_PTX;
    if (!Ptx.empty())
      for (auto &[Sym, Blob] : blobsInPtx(readFile(Ptx))) {
        KernelDescriptor K;
        std::string Err;
        if (decodeDescriptor(Blob.data(), Blob.size(), K, &Err))
          Ks.push_back(K);
        else
          std::fprintf(stderr, "bench: %s: %s\n", Sym.c_str(), Err.c_str());
      }
    if (Ks.empty()) {
      std::fprintf(stderr, "bench: no PTX descriptors (%s); using synthetic ones\n", Ptx.c_str());
      for (unsigned N : {1u, 2u, 4u, 8u})
        Ks.push_back(syntheticLinear(N));
    }
    for (KernelDescriptor &K : Ks) {
      Case C;
      C.K = K;
      C.F = compileKernel(K);
      unsigned NPtr = 0;
      for (const ParamInfo &P : K.Params)
        NPtr += P.IsPointer;
      C.Label = K.PlainName + "/" + std::to_string(NPtr) + "ptr";
      const int64_t N = 1 << 20;
      C.L.Grid[0] = 4096;
      C.L.Block[0] = 256;
      if (K.PlainName == "stencil2d") {
        C.L.Grid[0] = 32, C.L.Grid[1] = 128;
        C.L.Block[0] = 32, C.L.Block[1] = 8;
      }
      for (size_t I = 0; I < K.Params.size(); ++I) {
        uint64_t Bits;
        if (K.Params[I].IsPointer) {
          Bits = 0x100000000ull * (I + 1); // disjoint allocations: the full pairwise scan
          C.Allocs[Bits] = uint64_t(N) * 4;
        } else if (K.Params[I].Type == ScalarType::F32) {
          float V = 2.0f;
          uint32_t U;
          std::memcpy(&U, &V, 4);
          Bits = U;
        } else {
          Bits = K.Params[I].Name == "rows" || K.Params[I].Name == "cols" ? 1024 : uint64_t(N);
        }
        C.L.ArgBits.push_back(Bits);
        std::vector<uint8_t> S(8);
        std::memcpy(S.data(), &Bits, 8);
        C.ArgStorage.push_back(S);
      }
      for (auto &S : C.ArgStorage)
        C.Params.push_back(S.data());
      Out.push_back(std::move(C));
    }
    return Out;
  }();
  return Cases;
}

// --- per-call timing ---------------------------------------------------------

double ticksPerNs() {
  static double R = [] {
    auto T0 = std::chrono::steady_clock::now();
    uint64_t C0 = __rdtsc();
    while (std::chrono::steady_clock::now() - T0 < std::chrono::milliseconds(100)) {
    }
    uint64_t C1 = __rdtsc();
    double Ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - T0).count();
    return double(C1 - C0) / Ns;
  }();
  return R;
}

inline uint64_t stamp() {
  _mm_lfence();
  uint64_t T = __rdtsc();
  _mm_lfence();
  return T;
}

template <typename Fn> void percentiles(benchmark::State &State, Fn &&Call) {
  const int N = 200000;
  std::vector<uint64_t> T(N), E(N);
  for (int I = 0; I < 1000; ++I)
    Call(); // warm
  for (int I = 0; I < N; ++I) {
    uint64_t A = stamp();
    Call();
    T[I] = stamp() - A;
  }
  for (int I = 0; I < N; ++I) {
    uint64_t A = stamp();
    E[I] = stamp() - A;
  }
  std::sort(T.begin(), T.end());
  std::sort(E.begin(), E.end());
  double Tick = ticksPerNs(), Overhead = double(E[N / 2]);
  auto Ns = [&](uint64_t X) { return std::max(0.0, (double(X) - Overhead) / Tick); };
  State.counters["median_ns"] = Ns(T[N / 2]);
  State.counters["p99_ns"] = Ns(T[size_t(N * 0.99)]);
  State.counters["p999_ns"] = Ns(T[size_t(N * 0.999)]);
}

// --- benchmarks --------------------------------------------------------------

void BM_Reference(benchmark::State &State, size_t Index) {
  Case &C = cases()[Index];
  auto Find = [&](uint64_t P) -> std::optional<Allocation> {
    auto It = C.Allocs.upper_bound(P);
    if (It == C.Allocs.begin())
      return std::nullopt;
    --It;
    if (P - It->first >= It->second)
      return std::nullopt;
    return Allocation{It->first, It->second};
  };
  auto Call = [&] {
    InstanceDecision D = checkInstance(C.K, C.L, Find);
    benchmark::DoNotOptimize(D.Idempotent);
  };
  for (auto _ : State)
    Call();
  percentiles(State, Call);
}

struct RuntimeRig {
  FakeDriver D;
  std::unique_ptr<Runtime> RT;
  std::vector<uintptr_t> Handles;
  explicit RuntimeRig(bool Memo) {
    Options O;
    O.LogMask = 0;
    O.Memo = Memo;
    uintptr_t H = 0x1000;
    for (Case &C : cases()) {
      std::vector<size_t> Sizes;
      for (const ParamInfo &P : C.K.Params)
        Sizes.push_back(P.IsPointer || P.Type == ScalarType::I64 || P.Type == ScalarType::F64 ? 8 : 4);
      D.addFunction(H, 0x42, C.K.Symbol, Sizes);
      D.addDescriptor(0x42, C.K);
      Handles.push_back(H++);
      for (auto &[B, S] : C.Allocs)
        D.Allocs[B] = S;
    }
    RT.reset(new Runtime(D, O));
  }
};
RuntimeRig &rig(bool Memo = false) {
  static RuntimeRig Plain(false), WithMemo(true);
  return Memo ? WithMemo : Plain;
}

void BM_Compiled(benchmark::State &State, size_t Index) {
  Case &C = cases()[Index];
  RuntimeRig &R = rig();
  FastLaunch FL;
  for (int I = 0; I < 3; ++I) {
    FL.Grid[I] = C.L.Grid[I];
    FL.Block[I] = C.L.Block[I];
  }
  FL.ArgBits = C.L.ArgBits.data();
  FL.NumArgs = C.L.ArgBits.size();
  FastDecision D;
  auto Call = [&] {
    fastCheck(C.F, FL, [&](uint64_t P, Allocation &A) { return R.RT->Allocs.lookup(P, A); }, D);
    benchmark::DoNotOptimize(D.Idempotent);
  };
  for (auto _ : State)
    Call();
  percentiles(State, Call);
}

bool lastInstrumented(Runtime &RT) {
  gmemLaunchInfo I;
  Runtime::setGlobalForTesting(&RT);
  int Rc = gmemGetLastLaunchInfo(&I);
  Runtime::setGlobalForTesting(nullptr);
  return Rc == GMEM_SUCCESS && I.instrumented;
}

void BM_Launch(benchmark::State &State, size_t Index, bool Memo) {
  Case &C = cases()[Index];
  RuntimeRig &R = rig(Memo);
  LaunchRequest L;
  L.Handle = R.Handles[Index];
  for (int I = 0; I < 3; ++I) {
    L.Grid[I] = uint32_t(C.L.Grid[I]);
    L.Block[I] = uint32_t(C.L.Block[I]);
  }
  L.Params = C.Params.data();
  auto Call = [&] {
    LaunchRecord *Rec = R.RT->before(L);
    R.RT->after(Rec, 0);
    benchmark::DoNotOptimize(Rec);
  };
  Call();
  if (!lastInstrumented(*R.RT))
    State.SkipWithError("launch was not instrumented");
  for (auto _ : State)
    Call();
  percentiles(State, Call);
}

} // namespace

int main(int argc, char **argv) {
  for (size_t I = 0; I < cases().size(); ++I) {
    const std::string &L = cases()[I].Label;
    benchmark::RegisterBenchmark(("Reference/" + L).c_str(), BM_Reference, I);
    benchmark::RegisterBenchmark(("Compiled/" + L).c_str(), BM_Compiled, I);
    benchmark::RegisterBenchmark(("Launch/" + L).c_str(), BM_Launch, I, false);
    benchmark::RegisterBenchmark(("LaunchRepeat/" + L).c_str(), BM_Launch, I, true);
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

// Co-location demo for libgmemrt's preemptive scheduler (bench/colocation/README.md).
//
// A latency-critical chain (inference-like: 10 layers of GEMV + bias/ReLU =
// 20 small kernels per request, requests arriving at a fixed rate) runs on
// a high-priority stream, optionally beside long best-effort kernels
// (training-like, ~25 ms each, many waves of ~0.25 ms CTAs) on a
// low-priority stream. With --gmem the program asks libgmemrt (preloaded)
// to make the chain's stream real-time; the training stream stays best
// effort.
//
// Training kernels: train_step (idempotent: Y = f(X, W)) and train_accum
// (not idempotent: Y += f(X, W)). Built with -DGMEM_HAND_CLONES=1, this
// file also carries hand-written preemptible clones following the gmem
// checkpoint ABI, version 2 (docs/PREEMPTION_DESIGN.md, "ABI version 2:
// persistent clones"; these are not persistent: user's grid, done bitmap),
// for comparison with the pass's; built without, the pass must provide them.
//
// Output: one JSON line per run (--out FILE appends), with every request's
// latency. Results are checked: the chain's output against its first
// request's, train_step's output against a CPU reference, and train_accum's
// against (number of launches) x f (each CTA ran exactly once).
//
// Split for size: device code in colocation_kernels.h, host helpers
// (options, checks, gmem's C API) in colocation_host.h; both are included
// here, so this stays one translation unit (stage.sh compiles only this file).
#include <cuda_runtime.h>

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "colocation_kernels.h"
#include "colocation_host.h"

int main(int Argc, char **Argv) {
  Options O = parse(Argc, Argv);
  CK(cudaSetDevice(0));
  CK(cudaFree(nullptr));
  cudaDeviceProp Prop;
  CK(cudaGetDeviceProperties(&Prop, 0));
  int Least = 0, Greatest = 0;
  CK(cudaDeviceGetStreamPriorityRange(&Least, &Greatest));
  cudaStream_t Rt, Be;
  CK(cudaStreamCreateWithPriority(&Rt, cudaStreamNonBlocking, Greatest));
  CK(cudaStreamCreateWithPriority(&Be, cudaStreamNonBlocking, Least));
  if (O.Gmem) {
    auto SetPrio = gmemFn<int (*)(void *, int)>("gmemSchedSetStreamPriority");
    if (SetPrio(Rt, 15) != 0 || SetPrio(Be, 0) != 0) {
      std::fprintf(stderr, "colocation: gmemSchedSetStreamPriority refused\n");
      return 1;
    }
  }

  // Training data: Waves waves of CTAs at full occupancy.
  int PerSM = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSM, train_step, TrainBlock, 0));
  const unsigned Grid = unsigned(Prop.multiProcessorCount * PerSM * O.Waves);
  const int N = int(Grid * TrainBlock);
  float *X, *W, *Y;
  CK(cudaMalloc(&X, sizeof(float) * N));
  CK(cudaMalloc(&W, sizeof(float) * WLen));
  CK(cudaMalloc(&Y, sizeof(float) * N));
  fill(X, N, 1, 1.f);
  fill(W, WLen, 2, 1.f);
  CK(cudaMemset(Y, 0, sizeof(float) * N));
  CK(cudaDeviceSynchronize());
  const bool Accum = O.Be == "accum";
  auto Train = [&](int Iters, cudaStream_t S) {
    if (Accum)
      train_accum<<<Grid, TrainBlock, 0, S>>>(X, W, Y, N, Iters);
    else
      train_step<<<Grid, TrainBlock, 0, S>>>(X, W, Y, N, Iters);
    CK(cudaGetLastError());
  };

  if (O.Calibrate) {
    cudaEvent_t A, B;
    CK(cudaEventCreate(&A));
    CK(cudaEventCreate(&B));
    int Iters = 256;
    float Ms = 0;
    for (int Round = 0; Round < 4; ++Round) {
      CK(cudaEventRecord(A, Be));
      Train(Iters, Be);
      CK(cudaEventRecord(B, Be));
      CK(cudaEventSynchronize(B));
      CK(cudaEventElapsedTime(&Ms, A, B));
      Iters = std::max(16, int(double(Iters) * O.BeMs / std::max(Ms, 0.01f)) / 16 * 16);
    }
    std::printf("%d\n", Iters);
    std::fprintf(stderr, "calibrate: grid %u x %d (%d per SM, %d SMs), %d iterations -> %.2f ms\n",
                 Grid, TrainBlock, PerSM, Prop.multiProcessorCount, Iters, Ms);
    return 0;
  }

  // The chain's weights and activations.
  const int Hidden = O.Hidden;
  float *A, *Bias, *Xs;
  CK(cudaMalloc(&A, sizeof(float) * size_t(Layers) * Hidden * Hidden));
  CK(cudaMalloc(&Bias, sizeof(float) * Layers * Hidden));
  CK(cudaMalloc(&Xs, sizeof(float) * (Layers + 1) * Hidden));
  float *Tmp;
  CK(cudaMalloc(&Tmp, sizeof(float) * Hidden));
  const size_t ScratchBytes = size_t(128) << 20;
  void *Scratch = nullptr;
  if (O.EvictL2)
    CK(cudaMalloc(&Scratch, ScratchBytes));
  fill(A, size_t(Layers) * Hidden * Hidden, 3, 0.2f);
  fill(Bias, Layers * Hidden, 4, 0.1f);
  fill(Xs, Hidden, 5, 1.f);
  CK(cudaDeviceSynchronize());
  if (O.PersistL2) {
    // As much of the weights as the persisting part of L2 holds, marked
    // persisting for the chain's stream (an experiment: is the training's
    // use of L2 what slows the chain?).
    int MaxPersist = 0, MaxWindow = 0;
    CK(cudaDeviceGetAttribute(&MaxPersist, cudaDevAttrMaxPersistingL2CacheSize, 0));
    CK(cudaDeviceGetAttribute(&MaxWindow, cudaDevAttrMaxAccessPolicyWindowSize, 0));
    CK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, size_t(MaxPersist)));
    const size_t Bytes = std::min(sizeof(float) * size_t(Layers) * Hidden * Hidden, size_t(MaxWindow));
    cudaStreamAttrValue V = {};
    V.accessPolicyWindow.base_ptr = A;
    V.accessPolicyWindow.num_bytes = Bytes;
    V.accessPolicyWindow.hitRatio = std::min(1.0f, float(MaxPersist) / float(Bytes));
    V.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    V.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CK(cudaStreamSetAttribute(Rt, cudaStreamAttributeAccessPolicyWindow, &V));
    std::fprintf(stderr, "colocation: L2 persisting %d B of %zu B of weights (window max %d B)\n",
                 MaxPersist, Bytes, MaxWindow);
  }
  // Events split a request's GPU time: E0 -> E1 is the first kernel
  // (including its wait for multiprocessors), E1 -> E2 the other 19.
  cudaEvent_t E0, E1, E2;
  CK(cudaEventCreate(&E0));
  CK(cudaEventCreate(&E1));
  CK(cudaEventCreate(&E2));
  // The longest single launch call of a request: a few long stalls (a lock
  // held elsewhere) and uniformly slower calls look alike in the total.
  double MaxCall = 0;
  auto Timed = [&](auto &&Call) {
    const double T = now();
    Call();
    MaxCall = std::max(MaxCall, now() - T);
  };
  auto Layer = [&](int L) {
    infer_gemv<<<Hidden / 8, 256, 0, Rt>>>(A + size_t(L) * Hidden * Hidden, Xs + L * Hidden, Tmp,
                                           Hidden);
  };
  auto Act = [&](int L) {
    infer_act<<<Hidden / 256, 256, 0, Rt>>>(Tmp, Bias + L * Hidden, Xs + (L + 1) * Hidden, Hidden);
  };
  // --graph: the 20 kernels captured once (E1 as an event record node).
  cudaGraphExec_t Exec = nullptr;
  if (O.Graph) {
    cudaGraph_t G;
    CK(cudaStreamBeginCapture(Rt, cudaStreamCaptureModeThreadLocal));
    for (int L = 0; L < Layers; ++L) {
      Layer(L);
      if (L == 0)
        CK(cudaEventRecordWithFlags(E1, Rt, cudaEventRecordExternal));
      Act(L);
    }
    CK(cudaStreamEndCapture(Rt, &G));
    CK(cudaGraphInstantiate(&Exec, G, 0));
    CK(cudaGraphDestroy(G));
  }
  auto Request = [&] {
    MaxCall = 0;
    CK(cudaEventRecord(E0, Rt));
    if (O.Graph) {
      Timed([&] { CK(cudaGraphLaunch(Exec, Rt)); });
    } else {
      for (int L = 0; L < Layers; ++L) {
        Timed([&] { Layer(L); });
        if (L == 0)
          CK(cudaEventRecord(E1, Rt));
        Timed([&] { Act(L); });
      }
    }
    CK(cudaEventRecord(E2, Rt));
  };
  std::vector<float> Expect(Hidden), Got(Hidden);
  auto WarmChain = [&] {
    Request();
    CK(cudaStreamSynchronize(Rt));
    CK(cudaMemcpy(Expect.data(), Xs + Layers * Hidden, sizeof(float) * Hidden,
                  cudaMemcpyDeviceToHost));
    for (int I = 0; I < 50; ++I)
      Request();
    CK(cudaStreamSynchronize(Rt));
  };
  if (!O.Cold)
    WarmChain();
  int TrainLaunches = 0;
  if (O.Mode != "alone") {
    Train(O.Iters, Be); // warm-up (and one accumulation)
    ++TrainLaunches;
  }
  CK(cudaDeviceSynchronize());

  // Best-effort thread: back to back, at most two launches queued.
  std::atomic<bool> Stop{false};
  std::vector<double> Done;
  std::thread BeThread;
  if (O.Mode != "alone") {
    BeThread = std::thread([&] {
      CK(cudaSetDevice(0));
      if (O.Pin)
        pinTo(int(sysconf(_SC_NPROCESSORS_ONLN)) - 1);
      cudaEvent_t Ev[3];
      for (auto &E : Ev)
        // spin: the default, the thread polls the event in the driver;
        // block: it sleeps (a training loop that leaves the CPU alone).
        CK(cudaEventCreateWithFlags(&E, cudaEventDisableTiming | (O.BeSync == "block"
                                                                      ? cudaEventBlockingSync
                                                                      : 0)));
      int K = 0;
      while (!Stop.load()) {
        Train(O.Iters, Be);
        CK(cudaEventRecord(Ev[K % 3], Be));
        if (K >= 2) {
          CK(cudaEventSynchronize(Ev[(K - 2) % 3]));
          Done.push_back(now());
        }
        ++K;
      }
      for (int J = std::max(0, K - 2); J < K; ++J) {
        CK(cudaEventSynchronize(Ev[J % 3]));
        Done.push_back(now());
      }
      TrainLaunches += K;
    });
  }

  if (O.Cold) {
    if (O.Mode != "alone") // the training's second launch is on the GPU by now
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
    WarmChain();
    std::printf("colocation: cold start beside the training: the chain's first requests done\n");
  }

  // Requests at a fixed rate (open loop: a late request's wait counts).
  std::vector<double> Lat, First, Rest, Host, HostMax, StartLate;
  const double Period = O.PeriodUs * 1e-6;
  const double T0 = now() + 0.05;
  double TEnd = T0 + O.Requests * Period;
  if (O.Mode == "be") {
    std::this_thread::sleep_until(std::chrono::steady_clock::now() +
                                  std::chrono::duration<double>(TEnd - now()));
  } else {
    // Every per-request vector reserved: a reallocation between requests
    // (at 128, 256, 512 ... requests) showed up as slow requests there.
    for (auto *V : {&Lat, &First, &Rest, &Host, &HostMax, &StartLate})
      V->reserve(O.Requests);
    if (O.Pin)
      pinTo(0);
    for (int R = 0; R < O.Requests; ++R) {
      const double Arrive = T0 + R * Period;
      // Sleep until SpinMargin before the arrival, then spin: this VM's
      // sleeps overshoot by up to ~300 us now and then, which made the
      // chain's P99 the timer's (bench/colocation/results/diag/README.md).
      // StartLate records how late the request still began.
      constexpr double SpinMargin = 1e-3;
      double T;
      while ((T = now()) < Arrive) {
        if (!O.NoSleep && Arrive - T > SpinMargin + 200e-6)
          std::this_thread::sleep_for(std::chrono::duration<double>(Arrive - T - SpinMargin));
      }
      StartLate.push_back((T - Arrive) * 1e6);
      Request();
      const double Issued = now();
      CK(cudaStreamSynchronize(Rt));
      Lat.push_back((now() - Arrive) * 1e6);
      if (O.EvictL2) { // what a co-located kernel does to the chain's weights in L2
        CK(cudaMemsetAsync(Scratch, R & 0xff, ScratchBytes, Rt));
        CK(cudaStreamSynchronize(Rt));
      }
      float F = 0, G = 0;
      CK(cudaEventElapsedTime(&F, E0, E1));
      CK(cudaEventElapsedTime(&G, E1, E2));
      First.push_back(F * 1e3);
      Rest.push_back(G * 1e3);
      Host.push_back((Issued - Arrive) * 1e6);
      HostMax.push_back(MaxCall * 1e6);
    }
    TEnd = now();
  }
  Stop.store(true);
  if (BeThread.joinable())
    BeThread.join();
  CK(cudaDeviceSynchronize());

  // Checks.
  bool Ok = true;
  std::string Why;
  if (O.Mode != "be") {
    CK(cudaMemcpy(Got.data(), Xs + Layers * Hidden, sizeof(float) * Hidden, cudaMemcpyDeviceToHost));
    if (std::memcmp(Got.data(), Expect.data(), sizeof(float) * Hidden) != 0)
      Ok = false, Why += "chain output differs; ";
  }
  if (O.Mode != "alone") {
    std::vector<float> Hx(N), Hw(WLen), Hy(N);
    CK(cudaMemcpy(Hx.data(), X, sizeof(float) * N, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(Hw.data(), W, sizeof(float) * WLen, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(Hy.data(), Y, sizeof(float) * N, cudaMemcpyDeviceToHost));
    int Bad = 0;
    for (int I = 0; I < N; I += 997) {
      float F = trainRef(Hx[I], Hw, I % TrainBlock, O.Iters);
      float Want = Accum ? F * TrainLaunches : F;
      float Tol = (Accum ? 1e-4f * TrainLaunches : 1e-6f) * std::fabs(F) + 1e-6f;
      if (std::fabs(Hy[I] - Want) > Tol)
        ++Bad;
    }
    if (Bad)
      Ok = false, Why += std::to_string(Bad) + " training outputs wrong; ";
  }

  // Best-effort throughput inside the measured window.
  int InWindow = 0;
  for (double T : Done)
    InWindow += T >= T0 && T <= TEnd;
  const double Window = TEnd - T0;

  SchedStats St = {};
  CloneStatsHead Cs;
  if (O.Gmem) {
    gmemFn<int (*)(SchedStats *)>("gmemSchedGetStats")(&St);
    gmemFn<int (*)(CloneStatsHead *)>("gmemSchedGetCloneStats")(&Cs);
  }

  std::string J =
      "{\"label\":\"" + O.Label + "\",\"mode\":\"" + O.Mode + "\",\"be\":\"" +
      (O.Mode == "alone" ? "none" : O.Be) + "\",\"gmem\":" + (O.Gmem ? "true" : "false") +
      ",\"requests\":" + std::to_string(Lat.size()) +
      ",\"period_us\":" + std::to_string(O.PeriodUs) + ",\"iters\":" + std::to_string(O.Iters) +
      ",\"grid\":" + std::to_string(Grid) + ",\"waves\":" + std::to_string(O.Waves) +
      ",\"be_sync\":\"" + O.BeSync + "\"" + ",\"hidden\":" + std::to_string(Hidden) +
      ",\"graph\":" + (O.Graph ? "true" : "false") + ",\"cold\":" + (O.Cold ? "true" : "false") +
      ",\"be_kernels\":" + std::to_string(InWindow) + ",\"window_s\":" + std::to_string(Window) +
      ",\"be_rate\":" + std::to_string(InWindow / Window) + ",\"check\":\"" +
      (Ok ? "ok" : "FAIL: " + Why) + "\"";
  if (O.Gmem) {
    char B[768];
    std::snprintf(B, sizeof B,
                  ",\"sched\":{\"launches\":%llu,\"gated\":%llu,\"preemptible\":%llu,"
                  "\"suppressions\":%llu,\"preemptions\":%llu,\"preemptions_loop\":%llu,"
                  "\"relaunches\":%llu,\"forced_resumes\":%llu,\"clone_failures\":%llu,"
                  "\"drain_samples\":%llu,\"drain_us_p50\":%.1f,\"drain_us_p99\":%.1f,"
                  "\"drain_us_max\":%.1f,\"drain_us_mean\":%.1f,\"policy\":%d,"
                  "\"share_resumes\":%llu,\"share_arrivals_spared\":%llu,\"share_ends\":%llu}",
                  (unsigned long long)St.launches, (unsigned long long)St.gated,
                  (unsigned long long)St.preemptible, (unsigned long long)St.suppressions,
                  (unsigned long long)St.preemptions, (unsigned long long)St.preemptions_loop,
                  (unsigned long long)St.relaunches, (unsigned long long)St.forced_resumes,
                  (unsigned long long)St.clone_failures, (unsigned long long)St.drain_samples,
                  St.drain_ns_p50 / 1e3, St.drain_ns_p99 / 1e3, St.drain_ns_max / 1e3,
                  St.drain_ns_mean / 1e3, int(St.policy), (unsigned long long)Cs.shareResumes(),
                  (unsigned long long)Cs.shareSpared(), (unsigned long long)Cs.shareEnds());
    J += B;
  }
  auto Array = [&](const char *Name, const std::vector<double> &V) {
    J += std::string(",\"") + Name + "\":[";
    for (size_t I = 0; I < V.size(); ++I) {
      char B[32];
      std::snprintf(B, sizeof B, "%s%.1f", I ? "," : "", V[I]);
      J += B;
    }
    J += "]";
  };
  Array("latency_us", Lat);
  Array("first_kernel_us", First);
  Array("other_kernels_us", Rest);
  Array("host_issue_us", Host);
  Array("host_max_call_us", HostMax);
  Array("start_late_us", StartLate);
  J += "}\n";
  if (!O.Out.empty()) {
    FILE *F = std::fopen(O.Out.c_str(), "a");
    if (!F) {
      std::fprintf(stderr, "colocation: cannot open %s\n", O.Out.c_str());
      return 1;
    }
    std::fputs(J.c_str(), F);
    std::fclose(F);
  }
  std::vector<double> S = Lat;
  std::sort(S.begin(), S.end());
  auto Pct = [&](double P) { return S.empty() ? 0.0 : S[std::min(S.size() - 1, size_t(P * S.size()))]; };
  std::printf("%-24s p50 %8.1f us  p99 %8.1f us  max %8.1f us  be %6.2f kernels/s  %s%s\n",
              O.Label.c_str(), Pct(0.5), Pct(0.99), S.empty() ? 0.0 : S.back(), InWindow / Window,
              Ok ? "ok" : "FAIL: ", Why.c_str());
  auto Median = [](std::vector<double> V) {
    std::sort(V.begin(), V.end());
    return V.empty() ? 0.0 : V[V.size() / 2];
  };
  if (!Lat.empty())
    std::printf("%-24s median: first kernel %.1f us, other 19 %.1f us, host issue %.1f us, "
                "longest launch call %.1f us\n",
                "", Median(First), Median(Rest), Median(Host), Median(HostMax));
  if (O.Gmem)
    std::printf("%-24s preemptions %llu (loop %llu), relaunches %llu, drain p50 %.1f us p99 %.1f us "
                "max %.1f us (%llu samples), forced %llu\n",
                "", (unsigned long long)St.preemptions, (unsigned long long)St.preemptions_loop,
                (unsigned long long)St.relaunches, St.drain_ns_p50 / 1e3, St.drain_ns_p99 / 1e3,
                St.drain_ns_max / 1e3, (unsigned long long)St.drain_samples,
                (unsigned long long)St.forced_resumes);
  if (O.Gmem && St.policy == 1)
    std::printf("%-24s fair share: %llu resumes for a share, %llu arrivals spared, %llu shares "
                "ended by the scheduler\n",
                "", (unsigned long long)Cs.shareResumes(), (unsigned long long)Cs.shareSpared(),
                (unsigned long long)Cs.shareEnds());
  return Ok ? 0 : 3;
}

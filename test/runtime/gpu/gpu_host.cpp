// GPU suite for libgmemrt, parts (a) and (b): a plain CUDA driver-API host
// program (cuda.h, -lcuda, no runtime API) that loads PTX modules carrying
// gmem descriptors, launches the corpus instances of a manifest, and checks
// every launch's decision, read from libgmemrt (gmemGetLastLaunchInfo found
// with dlsym), against the decision gmem-analyze's instance mode computed
// on the build machine (test/runtime/gpu/stage.py).
//
//   gpu_host MANIFEST [--library] [--sums] [--ex-every N] [--stream]
//
// --library  load with cuLibraryLoadData and launch CUkernel handles
//            (part b); default cuModuleLoadData + CUfunction (part a)
// --sums     after each launch, print a hash of every buffer (SUM lines):
//            runs with and without libgmemrt must print the same
// --ex-every every Nth instance is launched with cuLaunchKernelEx (default 2)
// --stream   launch on a stream of its own instead of the legacy default
//            stream, which libgmemrt's scheduler leaves alone (used with
//            GMEM_SCHED_CHAOS: the sums must stay those of a plain run)
//
// The expectations were computed with fake allocation bases
// (0x100000000 * (k + 1) for the buffer of parameter k); decisions depend
// only on the relative layout (which buffer, which offset), so every range
// is compared as (buffer, offset). Each launch also prints a LAUNCH line
// with the real addresses and the allocations libgmemrt resolved, for the
// exact offline comparison (compare.py runs gmem-analyze on them).
//
// Manifest: one instance per line, KEY=VALUE fields, args= last:
//   name=F:K#i ptx=ptx/F.ptx sym=SYM grid=X,Y,Z block=X,Y,Z idem=0|1
//   conflict=none|R,W clash=K:LO:HI|any ptrs=I:R:W;... args=TOKENS
// R / W per pointer parameter I: "-" (none), "*" (anything) or K:LO:HI (the
// hull, as offsets into the buffer of parameter K).
#include <cuda.h>

#include "gmem/gmem.h"

#include <dlfcn.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Instance {
  std::map<std::string, std::string> F;
  std::vector<std::string> Args;
  std::string get(const std::string &K) const {
    auto It = F.find(K);
    return It == F.end() ? "" : It->second;
  }
};

std::vector<Instance> readManifest(const char *Path) {
  std::vector<Instance> Out;
  std::ifstream In(Path);
  std::string Line;
  while (std::getline(In, Line)) {
    if (Line.empty() || Line[0] == '#')
      continue;
    Instance I;
    size_t A = Line.find(" args=");
    std::string Head = A == std::string::npos ? Line : Line.substr(0, A);
    if (A != std::string::npos) {
      std::stringstream S(Line.substr(A + 6));
      std::string T;
      while (S >> T)
        I.Args.push_back(T);
    }
    std::stringstream S(Head);
    std::string T;
    while (S >> T) {
      size_t Eq = T.find('=');
      if (Eq != std::string::npos)
        I.F[T.substr(0, Eq)] = T.substr(Eq + 1);
    }
    Out.push_back(I);
  }
  return Out;
}

std::vector<std::string> split(const std::string &S, char C) {
  std::vector<std::string> Out;
  std::string Cur;
  for (char X : S) {
    if (X == C) {
      Out.push_back(Cur);
      Cur.clear();
    } else {
      Cur += X;
    }
  }
  Out.push_back(Cur);
  return Out;
}

void dims(const std::string &S, unsigned D[3]) {
  D[0] = D[1] = D[2] = 1;
  auto P = split(S, ',');
  for (size_t I = 0; I < P.size() && I < 3; ++I)
    D[I] = unsigned(std::strtoul(P[I].c_str(), nullptr, 10));
}

size_t elemSize(const std::string &T) {
  if (T == "f64" || T == "i64" || T == "u64")
    return 8;
  if (T == "i8" || T == "u8")
    return 1;
  return 4;
}

uint64_t splitmix(uint64_t &S) {
  uint64_t Z = (S += 0x9e3779b97f4a7c15ull);
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
  return Z ^ (Z >> 31);
}

uint64_t fnv(const std::string &S) {
  uint64_t H = 1469598103934665603ull;
  for (unsigned char C : S)
    H = (H ^ C) * 1099511628211ull;
  return H;
}

/// Deterministic contents for buf:T:COUNT:INIT.
std::vector<uint8_t> initBuffer(const std::string &T, size_t Count, const std::string &Init,
                                uint64_t Seed) {
  size_t E = elemSize(T);
  std::vector<uint8_t> B(Count * E, 0);
  uint64_t S = Seed;
  auto Parts = split(Init, ':');
  bool Float = T[0] == 'f';
  for (size_t I = 0; I < Count; ++I) {
    double D = 0;
    int64_t N = 0;
    if (Parts[0] == "rand") {
      uint64_t R = splitmix(S);
      D = double(R >> 11) / double(1ull << 53) * 2.0 - 1.0;
      N = int64_t(R % 100);
    } else if (Parts[0] == "randint" && Parts.size() == 3) {
      int64_t Lo = std::atoll(Parts[1].c_str()), Hi = std::atoll(Parts[2].c_str());
      N = Hi > Lo ? Lo + int64_t(splitmix(S) % uint64_t(Hi - Lo)) : Lo;
      D = double(N);
    } else if (Parts[0] == "iota") {
      N = int64_t(I);
      D = double(I);
    } else if (Parts[0] == "const" && Parts.size() == 2) {
      D = std::atof(Parts[1].c_str());
      N = std::atoll(Parts[1].c_str());
    }
    uint8_t *P = B.data() + I * E;
    if (Float && E == 4) {
      float F = float(D);
      std::memcpy(P, &F, 4);
    } else if (Float) {
      std::memcpy(P, &D, 8);
    } else {
      std::memcpy(P, &N, E);
    }
  }
  return B;
}

#define CU(X)                                                                                      \
  do {                                                                                             \
    CUresult R_ = (X);                                                                             \
    if (R_ != CUDA_SUCCESS) {                                                                      \
      const char *S_ = nullptr;                                                                    \
      cuGetErrorName(R_, &S_);                                                                     \
      std::printf("CUDA-ERROR %s: %s = %d %s\n", Name.c_str(), #X, int(R_), S_ ? S_ : "");       \
      return false;                                                                                \
    }                                                                                              \
  } while (0)

struct Range {
  int Buf = -1; ///< buffer (parameter index); -2 anything; -1 none; -3 outside every buffer (Lo, Hi absolute)
  uint64_t Lo = 0, Hi = 0;
  std::string text() const {
    if (Buf == -1)
      return "-";
    if (Buf == -2)
      return "*";
    char B[80];
    std::snprintf(B, sizeof B, "%d:%" PRIu64 ":%" PRIu64, Buf, Lo, Hi);
    return B;
  }
  bool operator==(const Range &O) const {
    return Buf == O.Buf && (Buf < 0 || (Lo == O.Lo && Hi == O.Hi));
  }
};

Range parseRange(const std::string &S) {
  Range R;
  if (S == "-" || S.empty())
    return R;
  if (S == "*" || S == "any") {
    R.Buf = -2;
    return R;
  }
  auto P = split(S, ':');
  if (S[0] == '?' && P.size() == 2) { // outside every buffer (stage.py's ?LO:HI)
    R.Buf = -3;
    R.Lo = std::strtoull(P[0].c_str() + 1, nullptr, 10);
    R.Hi = std::strtoull(P[1].c_str(), nullptr, 10);
    return R;
  }
  if (P.size() == 3) {
    R.Buf = std::atoi(P[0].c_str());
    R.Lo = std::strtoull(P[1].c_str(), nullptr, 10);
    R.Hi = std::strtoull(P[2].c_str(), nullptr, 10);
  }
  return R;
}

struct Buffer {
  int Param;
  CUdeviceptr Ptr;
  size_t Bytes;
};

/// Real [Lo, Hi) -> (buffer, offsets); Hi may equal the buffer's end.
Range toRelative(uint64_t Lo, uint64_t Hi, const std::vector<Buffer> &Bufs) {
  Range R;
  if (Lo == 0 && Hi == UINT64_MAX) {
    R.Buf = -2;
    return R;
  }
  for (const Buffer &B : Bufs)
    if (Lo >= B.Ptr && Hi <= B.Ptr + B.Bytes && Lo <= Hi) {
      R.Buf = B.Param;
      R.Lo = Lo - B.Ptr;
      R.Hi = Hi - B.Ptr;
      return R;
    }
  R.Buf = -3; // outside every buffer
  R.Lo = Lo;
  R.Hi = Hi;
  return R;
}

using GetLastFn = int (*)(gmemLaunchInfo *);
GetLastFn GetLast;
bool Library = false, Sums = false, OwnStream = false;
int ExEvery = 2;
CUstream Str = nullptr; // --stream
std::map<std::string, CUmodule> Modules;
std::map<std::string, CUlibrary> Libraries;
std::map<std::string, std::string> Images;

bool runOne(const Instance &I, int Index, int &Mismatches) {
  std::string Name = I.get("name");
  std::string Ptx = I.get("ptx"), Sym = I.get("sym");
  if (!Images.count(Ptx)) {
    std::ifstream F(Ptx);
    std::stringstream S;
    S << F.rdbuf();
    Images[Ptx] = S.str();
    if (Images[Ptx].empty()) {
      std::printf("CUDA-ERROR %s: cannot read %s\n", Name.c_str(), Ptx.c_str());
      return false;
    }
  }
  CUfunction Fn = nullptr;
  if (Library) {
    if (!Libraries.count(Ptx)) {
      CUlibrary L;
      CU(cuLibraryLoadData(&L, Images[Ptx].c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0));
      Libraries[Ptx] = L;
    }
    CUkernel K;
    CU(cuLibraryGetKernel(&K, Libraries[Ptx], Sym.c_str()));
    Fn = reinterpret_cast<CUfunction>(K);
  } else {
    if (!Modules.count(Ptx)) {
      CUmodule M;
      CU(cuModuleLoadData(&M, Images[Ptx].c_str()));
      Modules[Ptx] = M;
    }
    CU(cuModuleGetFunction(&Fn, Modules[Ptx], Sym.c_str()));
  }

  // Arguments.
  std::vector<Buffer> Bufs;
  std::vector<std::vector<uint8_t>> Storage(I.Args.size(), std::vector<uint8_t>(8, 0));
  std::vector<size_t> BufOf(I.Args.size(), size_t(-1));
  for (size_t K = 0; K < I.Args.size(); ++K) {
    auto P = split(I.Args[K], ':');
    if (P[0] == "buf" && P.size() >= 4) {
      size_t Count = std::strtoull(P[2].c_str(), nullptr, 10);
      std::string Init = P[3];
      for (size_t X = 4; X < P.size(); ++X)
        Init += ":" + P[X];
      std::vector<uint8_t> Host = initBuffer(P[1], Count, Init, fnv(Name) ^ (K * 0x9e37));
      CUdeviceptr D;
      CU(cuMemAlloc(&D, Host.size() ? Host.size() : 1));
      if (!Host.empty())
        CU(cuMemcpyHtoD(D, Host.data(), Host.size()));
      BufOf[K] = Bufs.size();
      Bufs.push_back({int(K), D, Host.size()});
      std::memcpy(Storage[K].data(), &D, 8);
    }
  }
  for (size_t K = 0; K < I.Args.size(); ++K) {
    auto P = split(I.Args[K], ':');
    if (P[0] == "ptr" && P.size() == 2) {
      auto Q = split(P[1], '+');
      size_t Of = std::strtoull(Q[0].c_str(), nullptr, 10);
      uint64_t Off = Q.size() > 1 ? std::strtoull(Q[1].c_str(), nullptr, 10) : 0;
      uint64_t A = Of < BufOf.size() && BufOf[Of] != size_t(-1) ? Bufs[BufOf[Of]].Ptr + Off : 0;
      std::memcpy(Storage[K].data(), &A, 8);
    } else if (P[0] == "i32" || P[0] == "u32") {
      uint32_t V = uint32_t(std::strtoll(P[1].c_str(), nullptr, 0));
      std::memcpy(Storage[K].data(), &V, 4);
    } else if (P[0] == "i64" || P[0] == "u64") {
      uint64_t V = uint64_t(std::strtoll(P[1].c_str(), nullptr, 0));
      std::memcpy(Storage[K].data(), &V, 8);
    } else if (P[0] == "f32") {
      float V = float(std::atof(P[1].c_str()));
      std::memcpy(Storage[K].data(), &V, 4);
    } else if (P[0] == "f64") {
      double V = std::atof(P[1].c_str());
      std::memcpy(Storage[K].data(), &V, 8);
    }
  }
  std::vector<void *> Params;
  for (auto &S : Storage)
    Params.push_back(S.data());

  unsigned G[3], B[3];
  dims(I.get("grid"), G);
  dims(I.get("block"), B);
  // A copy from pageable memory may return before its DMA has landed, and a
  // non-blocking stream (--stream) does not wait for it: the kernel could
  // read its inputs half-copied. Seen as plain runs of one instance giving
  // different checksums (H200, chaos_repeat.sh: jacobi1d_pingpong 9 of 36).
  if (OwnStream)
    CU(cuCtxSynchronize());
  bool UseEx = ExEvery > 0 && Index % ExEvery == 1;
  if (UseEx) {
    CUlaunchConfig C;
    std::memset(&C, 0, sizeof C);
    C.gridDimX = G[0], C.gridDimY = G[1], C.gridDimZ = G[2];
    C.blockDimX = B[0], C.blockDimY = B[1], C.blockDimZ = B[2];
    C.hStream = Str;
    CU(cuLaunchKernelEx(&C, Fn, Params.data(), nullptr));
  } else {
    CU(cuLaunchKernel(Fn, G[0], G[1], G[2], B[0], B[1], B[2], 0, Str, Params.data(), nullptr));
  }

  // The decision, compared with the expectation.
  if (GetLast) {
    gmemLaunchInfo L;
    std::memset(&L, 0, sizeof L);
    std::string Why;
    if (GetLast(&L) != GMEM_SUCCESS) {
      Why = "no launch recorded";
    } else {
      if (!L.instrumented)
        Why += " uninstrumented(" + std::string(L.reason) + ")";
      int WantIdem = std::atoi(I.get("idem").c_str());
      if (L.idempotent != WantIdem)
        Why += " idempotent=" + std::to_string(L.idempotent) + " want " + std::to_string(WantIdem);
      std::string Conf = L.has_conflict ? std::to_string(L.conflict_read) + "," +
                                              std::to_string(L.conflict_write)
                                        : "none";
      if (Conf != I.get("conflict"))
        Why += " conflict=" + Conf + " want " + I.get("conflict");
      if (L.has_conflict) {
        Range C = toRelative(L.conflict_lo, L.conflict_hi, Bufs);
        Range W = parseRange(I.get("clash"));
        if (!(C == W))
          Why += " clash=" + C.text() + " want " + W.text();
      }
      // Pointer arguments.
      std::map<int, std::pair<Range, Range>> Want;
      for (const std::string &E : split(I.get("ptrs"), ';')) {
        auto P = split(E, '/');
        if (P.size() == 3)
          Want[std::atoi(P[0].c_str())] = {parseRange(P[1]), parseRange(P[2])};
      }
      for (int K = 0; K < L.num_ptr_args_recorded; ++K) {
        const gmemArgAccess &A = L.ptr_args[K];
        Range R, W;
        if (A.flags & GMEM_ARG_READS)
          R = toRelative(A.read_lo, A.read_hi, Bufs);
        if (A.flags & GMEM_ARG_WRITES)
          W = toRelative(A.write_lo, A.write_hi, Bufs);
        auto It = Want.find(A.param_index);
        if (It == Want.end()) {
          if (R.Buf != -1 || W.Buf != -1)
            Why += " ptr" + std::to_string(A.param_index) + " unexpected " + R.text() + "/" + W.text();
          continue;
        }
        if (!(R == It->second.first) || !(W == It->second.second))
          Why += " ptr" + std::to_string(A.param_index) + "=" + R.text() + "/" + W.text() + " want " +
                 It->second.first.text() + "/" + It->second.second.text();
      }
      // The line compare.py replays with gmem-analyze (real addresses).
      std::printf("LAUNCH %s sym=%s grid=%u,%u,%u block=%u,%u,%u idem=%d conflict=%s clash=%" PRIu64
                  ":%" PRIu64 " allocs=",
                  Name.c_str(), Sym.c_str(), G[0], G[1], G[2], B[0], B[1], B[2], L.idempotent,
                  Conf.c_str(), L.conflict_lo, L.conflict_hi);
      for (int K = 0; K < L.num_ptr_args_recorded; ++K)
        if (L.ptr_args[K].flags & GMEM_ARG_HAS_ALLOC)
          std::printf("%s0x%" PRIx64 ":%" PRIu64, K ? "," : "", L.ptr_args[K].alloc_base,
                      L.ptr_args[K].alloc_size);
      std::printf(" ptrs=");
      for (int K = 0; K < L.num_ptr_args_recorded; ++K) {
        const gmemArgAccess &A = L.ptr_args[K];
        std::printf("%s%d:0x%" PRIx64 ":%u:%" PRIu64 ":%" PRIu64 ":%" PRIu64 ":%" PRIu64,
                    K ? ";" : "", A.param_index, A.pointer, A.flags, A.read_lo, A.read_hi,
                    A.write_lo, A.write_hi);
      }
      std::printf(" args=");
      for (size_t K = 0; K < I.Args.size(); ++K) {
        auto P = split(I.Args[K], ':');
        if (P[0] == "buf" || P[0] == "ptr") {
          uint64_t V;
          std::memcpy(&V, Storage[K].data(), 8);
          std::printf("%sptr:0x%" PRIx64, K ? " " : "", V);
        } else {
          std::printf("%s%s", K ? " " : "", I.Args[K].c_str());
        }
      }
      std::printf("\n");
    }
    if (Why.empty()) {
      std::printf("OK %s idempotent=%d%s\n", Name.c_str(), L.idempotent, UseEx ? " (Ex)" : "");
    } else {
      std::printf("MISMATCH %s:%s\n", Name.c_str(), Why.c_str());
      ++Mismatches;
    }
  }

  CU(cuCtxSynchronize());
  if (Sums) {
    uint64_t H = 1469598103934665603ull;
    for (const Buffer &Bf : Bufs) {
      std::vector<uint8_t> Host(Bf.Bytes);
      if (Bf.Bytes)
        CU(cuMemcpyDtoH(Host.data(), Bf.Ptr, Bf.Bytes));
      for (uint8_t C : Host)
        H = (H ^ C) * 1099511628211ull;
    }
    std::printf("SUM %s %016" PRIx64 "\n", Name.c_str(), H);
  }
  for (const Buffer &Bf : Bufs)
    CU(cuMemFree(Bf.Ptr));
  return true;
}

} // namespace

int main(int argc, char **argv) {
  // Whole lines: the suite reads stdout and libgmemrt's stderr from one
  // file, where a block-buffered stdout let libgmemrt's exit report land
  // inside a SUM line (session 48: "SUM warp_primitives.cugmem: chaos: ...").
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s MANIFEST [--library] [--sums] [--ex-every N] [--stream]\n",
                 argv[0]);
    return 2;
  }
  for (int A = 2; A < argc; ++A) {
    if (!std::strcmp(argv[A], "--library"))
      Library = true;
    else if (!std::strcmp(argv[A], "--sums"))
      Sums = true;
    else if (!std::strcmp(argv[A], "--ex-every") && A + 1 < argc)
      ExEvery = std::atoi(argv[++A]);
    else if (!std::strcmp(argv[A], "--stream"))
      OwnStream = true;
    else {
      std::fprintf(stderr, "gpu_host: unknown option %s\n", argv[A]);
      return 2;
    }
  }
  GetLast = reinterpret_cast<GetLastFn>(dlsym(RTLD_DEFAULT, "gmemGetLastLaunchInfo"));
  auto Version = reinterpret_cast<const char *(*)()>(dlsym(RTLD_DEFAULT, "gmemVersion"));
  std::vector<Instance> All = readManifest(argv[1]);
  std::printf("gpu_host: %zu instances, %s, %s\n", All.size(), Library ? "cuLibraryLoadData/CUkernel" : "cuModuleLoadData/CUfunction",
              Version ? Version() : "libgmemrt not loaded (checksums only)");
  std::string Name = "init";
  auto Init = [&]() -> bool {
    CU(cuInit(0));
    CUdevice Dev;
    CU(cuDeviceGet(&Dev, 0));
    char DevName[128];
    cuDeviceGetName(DevName, sizeof DevName, Dev);
    int Drv = 0;
    cuDriverGetVersion(&Drv);
    std::printf("device 0: %s, driver API %d\n", DevName, Drv);
    CUcontext Ctx;
    CU(cuDevicePrimaryCtxRetain(&Ctx, Dev));
    CU(cuCtxSetCurrent(Ctx));
    if (OwnStream)
      CU(cuStreamCreate(&Str, CU_STREAM_NON_BLOCKING));
    return true;
  };
  if (!Init())
    return 4;
  int Mismatches = 0, Errors = 0, Ok = 0;
  for (size_t K = 0; K < All.size(); ++K) {
    if (runOne(All[K], int(K), Mismatches))
      ++Ok;
    else
      ++Errors;
  }
  if (GetLast) {
    gmemStats S;
    auto Stats = reinterpret_cast<int (*)(gmemStats *)>(dlsym(RTLD_DEFAULT, "gmemGetStats"));
    if (Stats && Stats(&S) == GMEM_SUCCESS)
      std::printf("stats: launches=%" PRIu64 " instrumented=%" PRIu64 " idempotent=%" PRIu64
                  " kernels=%" PRIu64 " bad_descriptors=%" PRIu64 " alloc_cache_misses=%" PRIu64
                  " driver_queries=%" PRIu64 " invalidations=%" PRIu64 " verify_mismatches=%" PRIu64 "\n",
                  S.launches, S.instrumented, S.idempotent, S.kernels_resolved, S.bad_descriptors,
                  S.alloc_cache_misses, S.alloc_driver_queries, S.alloc_invalidations,
                  S.verify_mismatches);
  }
  std::printf("%d instances ran, %d errors, %d decision mismatches\n", Ok, Errors, Mismatches);
  return (Errors || Mismatches) ? 1 : 0;
}

// The compiled evaluator (runtime/src/FlatEval.h) must agree exactly with
// gmem::evaluate and gmem::checkInstance: on random expressions, on random
// descriptors and launches, and on every descriptor the analysis embeds in
// the corpus PTX (built at test-build time when clang and CUDA are there).
#include "gmem/compiler/FlatEval.h"

namespace gmem::rt {
using namespace gmem::flat;
}
#include "TestDescriptors.h"

#include "gmem/compiler/DescriptorCodec.h"
#include "gmem/compiler/InstanceCheck.h"

#include <gtest/gtest.h>

#include <dirent.h>

#include <cstring>

#include <map>
#include <random>

using namespace gmem;
using namespace gmem::rt;
using namespace gmem::rt::test;

namespace {

struct Rng {
  std::mt19937_64 G;
  explicit Rng(uint64_t Seed) : G(Seed) {}
  uint64_t u64() { return G(); }
  int below(int N) { return int(G() % uint64_t(N)); }
  bool chance(int Percent) { return below(100) < Percent; }
  int64_t interesting() {
    static const int64_t Special[] = {0, 1, -1, 2, 3, 4, 7, 8, 255, 256, 1023, 4096, 65535,
                                      2147483647, -2147483648LL, 4294967295LL, INT64_MAX,
                                      INT64_MIN, INT64_MAX - 1, INT64_MIN + 1, 1LL << 32,
                                      (1LL << 62), -(1LL << 62), 3037000499LL, 3037000500LL};
    switch (below(4)) {
    case 0: return Special[below(int(sizeof Special / sizeof *Special))];
    case 1: return int64_t(u64());
    case 2: return int64_t(below(2000)) - 1000;
    default: return int64_t(u64() >> below(64));
    }
  }
};

ExprRef randomVar(Rng &R, unsigned NArgs) {
  switch (R.below(5)) {
  case 0: return Expr::variable(Var::gridDim(unsigned(R.below(4)))); // 3: no value
  case 1: return Expr::variable(Var::blockDim(unsigned(R.below(4))));
  case 2:
  case 3: return Expr::variable(Var::arg(unsigned(R.below(int(NArgs) + 2)))); // may be missing
  default: {
    static const unsigned Sizes[] = {1, 2, 4, 8};
    return Expr::variable(Var::argField(unsigned(R.below(int(NArgs) + 1)),
                                        unsigned(R.below(40)), Sizes[R.below(4)]));
  }
  }
}

// Degenerate nodes (n-ary with 0 or 1 operand, divisions without exactly two)
// never come out of the analysis's builders; the decoder accepts what the
// format allows, so they are tested too, but only under raw parents (the
// simplifying builders assume well-formed operands).
ExprRef randomExprImpl(Rng &R, unsigned NArgs, int Depth, bool &Degenerate, bool Allow);
ExprRef randomExpr(Rng &R, unsigned NArgs, int Depth, bool AllowDegenerate = true) {
  bool D = false;
  return randomExprImpl(R, NArgs, Depth, D, AllowDegenerate);
}
ExprRef randomExprImpl(Rng &R, unsigned NArgs, int Depth, bool &Degenerate, bool Allow) {
  Degenerate = false;
  if (Depth <= 0 || R.chance(30))
    return R.chance(50) ? Expr::constant(R.interesting()) : randomVar(R, NArgs);
  static const ExprOp Ops[] = {ExprOp::Add, ExprOp::Mul, ExprOp::SMin, ExprOp::SMax, ExprOp::UDiv,
                               ExprOp::SDiv};
  ExprOp Op = Ops[R.below(6)];
  int N = (Op == ExprOp::UDiv || Op == ExprOp::SDiv) ? (R.chance(90) || !Allow ? 2 : R.below(4))
                                                      : (R.chance(5) && Allow ? R.below(2) : 2 + R.below(3));
  std::vector<ExprRef> Ops2;
  bool Child = false;
  for (int I = 0; I < N; ++I) {
    bool CD = false;
    Ops2.push_back(randomExprImpl(R, NArgs, Depth - 1, CD, Allow));
    Child |= CD;
  }
  bool Div = Op == ExprOp::UDiv || Op == ExprOp::SDiv;
  Degenerate = Child || (Div ? N != 2 : N < 2);
  if (Degenerate || R.chance(50)) // unsimplified, exactly as the decoder builds them
    return Expr::raw(Op, 0, std::move(Ops2));
  switch (Op) { // through the simplifying builders
  case ExprOp::Add: return Expr::add(Ops2);
  case ExprOp::Mul: return Expr::mul(Ops2);
  case ExprOp::SMin: return Expr::smin(Ops2);
  case ExprOp::SMax: return Expr::smax(Ops2);
  case ExprOp::UDiv: return Expr::udiv(Ops2[0], Ops2[1]);
  default: return Expr::sdiv(Ops2[0], Ops2[1]);
  }
}

LaunchValues randomValues(Rng &R, unsigned NArgs, std::vector<std::vector<uint8_t>> &Bytes) {
  LaunchValues V;
  for (int I = 0; I < 3; ++I) {
    V.Grid[I] = R.chance(80) ? 1 + R.below(70000) : R.interesting();
    V.Block[I] = R.chance(80) ? 1 + R.below(1024) : R.interesting();
  }
  V.Args.resize(NArgs);
  for (auto &A : V.Args)
    A = R.interesting();
  Bytes.assign(R.below(int(NArgs) + 1), {});
  for (auto &B : Bytes) {
    B.resize(size_t(R.below(48)));
    for (auto &X : B)
      X = uint8_t(R.u64());
  }
  V.ArgBytes = R.chance(90) ? &Bytes : nullptr;
  return V;
}

std::vector<ByteView> viewsOf(const std::vector<std::vector<uint8_t>> &Bytes) {
  std::vector<ByteView> Out;
  for (const auto &B : Bytes)
    Out.push_back({B.data(), B.size()});
  return Out;
}

} // namespace

TEST(FlatEval, AgreesWithEvaluateOnRandomExpressions) {
  Rng R(0x9e3779b97f4a7c15ull);
  int Valued = 0;
  const int N = 20000;
  for (int Iter = 0; Iter < N; ++Iter) {
    unsigned NArgs = unsigned(R.below(5));
    ExprRef E = randomExpr(R, NArgs, 1 + R.below(5));
    // Several expressions share one program, as a kernel's do.
    ExprRef E2 = R.chance(50) ? Expr::raw(ExprOp::Add, 0, {E, Expr::constant(1)}) : randomExpr(R, NArgs, 2);
    FProgram P;
    InternMap Ids;
    uint32_t Id2 = compileExpr(*E2, NArgs, P, Ids);
    uint32_t Id = compileExpr(*E, NArgs, P, Ids);
    for (int L = 0; L < 5; ++L) {
      std::vector<std::vector<uint8_t>> Bytes;
      LaunchValues V = randomValues(R, NArgs, Bytes);
      std::vector<int64_t> Slots(ArgSlot0 + NArgs);
      for (int I = 0; I < 3; ++I) {
        Slots[I] = V.Grid[I];
        Slots[3 + I] = V.Block[I];
      }
      for (unsigned I = 0; I < NArgs; ++I)
        Slots[ArgSlot0 + I] = V.Args[I];
      std::vector<ByteView> Views = viewsOf(Bytes);
      EvalEnv Env;
      Env.Slots = Slots.data();
      Env.Bytes = V.ArgBytes ? Views.data() : nullptr;
      Env.NumBytes = V.ArgBytes ? Views.size() : 0;
      std::vector<int64_t> Val(P.Nodes.size());
      std::vector<uint8_t> Ok(P.Nodes.size());
      evalProgram(P, Env, Val.data(), Ok.data());
      for (auto [X, Node] : {std::make_pair(E, Id), std::make_pair(E2, Id2)}) {
        std::optional<int64_t> Want = evaluate(*X, V);
        ASSERT_EQ(bool(Ok[Node]), Want.has_value()) << X->str();
        if (Want) {
          ASSERT_EQ(Val[Node], *Want) << X->str();
          ++Valued;
        }
      }
    }
  }
  // Both outcomes must be well represented.
  EXPECT_GT(Valued, N / 2);
  EXPECT_LT(Valued, N * 10 - N);
}

namespace {

AccessRegion randomRegion(Rng &R, unsigned NArgs) {
  AccessRegion A;
  int K = R.below(10);
  A.Kind = K < 2 ? RegionKind::Empty : K < 8 ? RegionKind::Bounded : K < 9 ? RegionKind::Allocation
                                                                           : RegionKind::Anything;
  if (A.Kind != RegionKind::Bounded)
    return A;
  int NR = 1 + R.below(3);
  for (int I = 0; I < NR; ++I) {
    // Mostly small sensible offsets, sometimes arbitrary expressions.
    ExprRef Lo = R.chance(70) ? Expr::constant(int64_t(R.below(4)) * 64 - 64) : randomExpr(R, NArgs, 2, false);
    ExprRef Hi = R.chance(60) ? Expr::add(Lo, Expr::mul(Expr::constant(4), randomVar(R, NArgs)))
                              : randomExpr(R, NArgs, 3, false);
    A.Ranges.push_back({Lo, Hi});
  }
  int NC = R.below(3);
  for (int I = 0; I < NC; ++I) {
    int64_t Lo = R.chance(50) ? INT64_MIN : -R.below(10);
    int64_t Hi = R.chance(50) ? 2147483647 : int64_t(R.below(1 << 20));
    A.Checks.push_back({randomExpr(R, NArgs, 2, false), Lo, Hi, R.chance(50)});
  }
  return A;
}

ParamInfo randomAccessor(Rng &R, const std::string &Name, unsigned NArgs) {
  ParamInfo P = ptrParam(Name);
  P.Read = randomRegion(R, NArgs);
  P.Write = randomRegion(R, NArgs);
  P.Atomic = R.chance(10);
  P.RWDisjoint = !P.Atomic && R.chance(30); // the decoder rejects both
  if (P.RWDisjoint && R.chance(50))
    P.DisjointChecks.push_back({randomExpr(R, NArgs, 2, false), INT64_MIN, int64_t(R.below(5000)), false});
  return P;
}

KernelDescriptor randomDescriptor(Rng &R) {
  KernelDescriptor K;
  K.Symbol = "_Z6randomv";
  K.PlainName = "random";
  unsigned NP = 1 + unsigned(R.below(8));
  int Aggregate = R.chance(40) ? R.below(int(NP)) : -1;
  for (unsigned I = 0; I < NP; ++I) {
    if (int(I) == Aggregate) {
      ParamInfo P = scalarParam("agg" + std::to_string(I), ScalarType::Other);
      P.ByteSize = 32;
      K.Params.push_back(P);
    } else if (R.chance(60)) {
      K.Params.push_back(randomAccessor(R, "p" + std::to_string(I), NP));
    } else {
      static const ScalarType Ts[] = {ScalarType::I8, ScalarType::I16, ScalarType::I32,
                                      ScalarType::I64, ScalarType::F32, ScalarType::F64};
      K.Params.push_back(scalarParam("s" + std::to_string(I), Ts[R.below(6)]));
    }
  }
  if (Aggregate >= 0)
    for (int F = R.below(3); F > 0; --F) {
      ParamInfo P = randomAccessor(R, "f" + std::to_string(F), NP);
      P.FieldParam = Aggregate;
      P.FieldOffset = uint32_t(R.below(4) * 8);
      K.Fields.push_back(P);
    }
  for (int G = R.below(3); G > 0; --G) {
    ParamInfo P = randomAccessor(R, "g" + std::to_string(G), NP);
    P.IsPointer = false;
    K.Globals.push_back(P);
  }
  if (R.chance(10))
    K.UnknownRead.Kind = RegionKind::Anything;
  if (R.chance(10))
    K.UnknownWrite.Kind = RegionKind::Anything;
  // A non-idempotent class vetoes every launch (checkInstance's rule).
  if (R.chance(10)) {
    K.Class = IdempotenceClass::NonIdempotent;
    K.ClassReason = "prints";
  }
  // Pointer parameters the kernel may be called with in place.
  for (uint32_t A = 0; A < K.Params.size(); ++A)
    for (uint32_t B = A + 1; B < K.Params.size(); ++B)
      if (K.Params[A].IsPointer && K.Params[B].IsPointer && R.chance(40))
        K.AliasOk.push_back({A, B});
  return K;
}

/// A launch over a random layout of allocations; pointers alias often.
struct RandomLaunch {
  LaunchConfig L;
  std::map<uint64_t, uint64_t> Allocs;
  std::map<std::string, Allocation> GlobalAllocs;
};

RandomLaunch randomLaunch(Rng &R, const KernelDescriptor &K) {
  RandomLaunch Out;
  int NA = 1 + R.below(4);
  std::vector<uint64_t> Bases;
  for (int I = 0; I < NA; ++I) {
    uint64_t Base = 0x100000000ull * uint64_t(I + 1);
    uint64_t Size = R.chance(80) ? uint64_t(64 + R.below(100000)) : uint64_t(1 + R.below(64));
    Out.Allocs[Base] = Size;
    Bases.push_back(Base);
  }
  auto Pointer = [&]() -> uint64_t {
    int C = R.below(20);
    if (C == 0)
      return 0; // null
    if (C == 1)
      return 0x7000000000000ull + uint64_t(R.below(1000)); // no allocation
    if (C == 2)
      return R.u64(); // anything
    uint64_t B = Bases[size_t(R.below(int(Bases.size())))];
    return B + uint64_t(R.below(int(std::min<uint64_t>(Out.Allocs[B], 1 << 20)))) / 4 * 4;
  };
  for (int I = 0; I < 3; ++I) {
    Out.L.Grid[I] = R.chance(90) ? 1 + R.below(2000) : R.interesting();
    Out.L.Block[I] = R.chance(90) ? 1 + R.below(1024) : R.interesting();
  }
  Out.L.ArgBytes.resize(R.chance(90) ? K.Params.size() : R.below(int(K.Params.size()) + 1));
  for (size_t I = 0; I < K.Params.size(); ++I) {
    const ParamInfo &P = K.Params[I];
    uint64_t Bits = P.IsPointer ? Pointer() : R.chance(70) ? uint64_t(R.below(100000)) : uint64_t(R.interesting());
    Out.L.ArgBits.push_back(Bits);
    if (I < Out.L.ArgBytes.size() && P.ByteSize) {
      std::vector<uint8_t> B(R.chance(90) ? P.ByteSize : size_t(R.below(int(P.ByteSize))));
      for (auto &X : B)
        X = uint8_t(R.below(50));
      for (size_t Off = 0; Off + 8 <= B.size(); Off += 8)
        if (R.chance(60)) {
          uint64_t V = Pointer();
          std::memcpy(B.data() + Off, &V, 8);
        }
      Out.L.ArgBytes[I] = B;
    }
  }
  // Calls in place: one pointer passed for two parameters (one or more
  // such coincidences).
  for (int Copies = R.chance(40) ? 1 + R.below(2) : 0; Copies > 0; --Copies) {
    size_t A = size_t(R.below(int(K.Params.size()))), B = size_t(R.below(int(K.Params.size())));
    if (A != B && K.Params[A].IsPointer && K.Params[B].IsPointer)
      Out.L.ArgBits[B] = Out.L.ArgBits[A];
  }
  if (R.chance(5))
    Out.L.ArgBits.resize(size_t(R.below(int(Out.L.ArgBits.size()) + 1)));
  for (const ParamInfo &G : K.Globals)
    if (R.chance(60))
      Out.GlobalAllocs[G.Name] = {0x900000000000ull + uint64_t(R.below(4)) * 0x10000, 4096};
  return Out;
}

/// checkInstance vs fastCheck on one launch; returns the difference.
std::string compareOne(const KernelDescriptor &K, const FlatKernel &F, const RandomLaunch &RL,
                       bool *Idempotent = nullptr) {
  auto FindAlloc = [&](uint64_t P) -> std::optional<Allocation> {
    auto It = RL.Allocs.upper_bound(P);
    if (It == RL.Allocs.begin())
      return std::nullopt;
    --It;
    if (P - It->first >= It->second)
      return std::nullopt;
    return Allocation{It->first, It->second};
  };
  auto FindGlobal = [&](const std::string &S) -> std::optional<Allocation> {
    auto It = RL.GlobalAllocs.find(S);
    if (It == RL.GlobalAllocs.end())
      return std::nullopt;
    return It->second;
  };
  InstanceDecision Ref = checkInstance(K, RL.L, FindAlloc, FindGlobal);

  std::vector<std::optional<Allocation>> Globals;
  for (const ParamInfo &G : K.Globals)
    Globals.push_back(FindGlobal(G.Name));
  std::vector<ByteView> Views = viewsOf(RL.L.ArgBytes);
  FastLaunch FL;
  for (int I = 0; I < 3; ++I) {
    FL.Grid[I] = RL.L.Grid[I];
    FL.Block[I] = RL.L.Block[I];
  }
  FL.ArgBits = RL.L.ArgBits.data();
  FL.NumArgs = RL.L.ArgBits.size();
  FL.ArgBytes = Views.data();
  FL.NumArgBytes = Views.size();
  FL.Globals = Globals.data();
  FastDecision D;
  fastCheck(F, FL, [&](uint64_t P, Allocation &A) {
    auto X = FindAlloc(P);
    if (X)
      A = *X;
    return X.has_value();
  }, D);
  if (Idempotent)
    *Idempotent = Ref.Idempotent;
  return compareDecisions(K, D, Ref);
}

} // namespace

TEST(FlatEval, AgreesWithCheckInstanceOnRandomDescriptors) {
  Rng R(42);
  int Idem = 0, Total = 0;
  for (int Iter = 0; Iter < 3000; ++Iter) {
    KernelDescriptor K = randomDescriptor(R);
    // Through the codec, as the runtime sees descriptors.
    std::vector<uint8_t> Blob = encodeDescriptor(K);
    KernelDescriptor Decoded;
    std::string Err;
    ASSERT_TRUE(decodeDescriptor(Blob.data(), Blob.size(), Decoded, &Err)) << Err;
    FlatKernel F = compileKernel(Decoded);
    for (int L = 0; L < 8; ++L) {
      RandomLaunch RL = randomLaunch(R, Decoded);
      bool I = false;
      std::string Diff = compareOne(Decoded, F, RL, &I);
      ASSERT_EQ(Diff, "") << "iteration " << Iter << " launch " << L;
      Idem += I;
      ++Total;
    }
  }
  EXPECT_GT(Idem, Total / 20);
  EXPECT_LT(Idem, Total - Total / 20);
}

TEST(FlatEval, HandBuiltKernels) {
  Rng R(7);
  for (const KernelDescriptor &K : {vecAdd(), increment(), packKernel()}) {
    FlatKernel F = compileKernel(K);
    for (int L = 0; L < 2000; ++L) {
      RandomLaunch RL = randomLaunch(R, K);
      ASSERT_EQ(compareOne(K, F, RL), "") << K.Symbol;
    }
  }
}

TEST(FlatEval, PackKernelFields) {
  KernelDescriptor K = packKernel();
  FlatKernel F = compileKernel(K);
  ASSERT_EQ(F.Fields.size(), 2u);
  EXPECT_TRUE(F.NeedsBytes[0]);
  RandomLaunch RL;
  RL.Allocs[0x100000000ull] = 4096;
  RL.Allocs[0x200000000ull] = 4096;
  uint8_t Bytes[24] = {};
  uint64_t In = 0x100000000ull, Out = 0x200000000ull;
  int32_t N = 100;
  std::memcpy(Bytes, &In, 8);
  std::memcpy(Bytes + 8, &Out, 8);
  std::memcpy(Bytes + 16, &N, 4);
  RL.L.ArgBits = {0};
  RL.L.ArgBytes = {std::vector<uint8_t>(Bytes, Bytes + 24)};
  bool Idem = false;
  EXPECT_EQ(compareOne(K, F, RL, &Idem), "");
  EXPECT_TRUE(Idem);
  Out = In + 200; // out overlaps in[50..100)
  std::memcpy(Bytes + 8, &Out, 8);
  RL.L.ArgBytes = {std::vector<uint8_t>(Bytes, Bytes + 24)};
  EXPECT_EQ(compareOne(K, F, RL, &Idem), "");
  EXPECT_FALSE(Idem);
}

#ifndef GMEMRT_TEST_PTX_DIR
#define GMEMRT_TEST_PTX_DIR ""
#endif

// Every descriptor the analysis embedded in the corpus PTX (and the
// interposition kernels), on random launches.
TEST(FlatEval, AgreesOnCorpusDescriptors) {
  std::string Dir = GMEMRT_TEST_PTX_DIR;
  DIR *D = Dir.empty() ? nullptr : opendir(Dir.c_str());
  if (!D)
    GTEST_SKIP() << "no PTX built (clang++-19 or CUDA missing at configure time)";
  std::vector<std::string> Files;
  while (dirent *E = readdir(D)) {
    std::string N = E->d_name;
    if (N.size() > 4 && N.substr(N.size() - 4) == ".ptx")
      Files.push_back(Dir + "/" + N);
  }
  closedir(D);
  Rng R(1234);
  int Kernels = 0;
  for (const std::string &Path : Files) {
    for (const auto &[Sym, Blob] : blobsInPtx(readFile(Path))) {
      KernelDescriptor K;
      std::string Err;
      ASSERT_TRUE(decodeDescriptor(Blob.data(), Blob.size(), K, &Err)) << Path << " " << Sym << ": " << Err;
      EXPECT_EQ(K.Symbol, Sym);
      FlatKernel F = compileKernel(K);
      for (int L = 0; L < 300; ++L) {
        RandomLaunch RL = randomLaunch(R, K);
        ASSERT_EQ(compareOne(K, F, RL), "") << Path << " " << Sym;
      }
      ++Kernels;
    }
  }
  if (Kernels == 0)
    GTEST_SKIP() << "no descriptors in " << Dir;
  std::printf("checked %d corpus descriptors from %zu PTX files\n", Kernels, Files.size());
}

//===- SymExprPropertyTest.cpp - randomized soundness of the simplifier ---===//
//
// Random small expression trees over gridDim/blockDim and two scalar
// arguments are built twice: once node by node with Expr::raw (the reference,
// exactly what was written) and once through the simplifying builders. Under
// random launches both must evaluate to the same value whenever both have a
// value. Also checked on the same trees: the sign predicates, commutativity of
// the canonical form, constantDifference and idempotence of simplification.
//
//===----------------------------------------------------------------------===//

#include "gmem/compiler/SymExpr.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace gmem;

namespace {

constexpr int64_t I64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t I64Min = std::numeric_limits<int64_t>::min();

class Rng {
public:
  explicit Rng(uint64_t Seed) : G(Seed) {}
  uint64_t next() { return G(); }
  /// Uniform in [Lo, Hi] (modulo bias is irrelevant here).
  int64_t range(int64_t Lo, int64_t Hi) { return Lo + int64_t(next() % uint64_t(Hi - Lo + 1)); }
  bool chance(unsigned Percent) { return next() % 100 < Percent; }

private:
  std::mt19937_64 G;
};

/// One tree, built both ways.
struct Twin {
  ExprRef Raw;  ///< as written
  ExprRef Simp; ///< through the simplifying builders
};

class TreeGen {
public:
  TreeGen(Rng &R, bool BigConstants) : R(R), Big(BigConstants) {}

  Twin leaf() {
    switch (R.range(0, 6)) {
    case 0:
    case 1: {
      int64_t V = R.range(-6, 6);
      if (Big && R.chance(10)) {
        static const int64_t Edge[] = {I64Max, I64Min, I64Max - 1, I64Min + 1,
                                       int64_t(1) << 40, -(int64_t(1) << 40), int64_t(1) << 62};
        V = Edge[R.range(0, 6)];
      }
      ExprRef E = Expr::constant(V);
      return {E, E};
    }
    case 2: return var(Var::gridDim(0));
    case 3: return var(Var::blockDim(0));
    case 4: return var(R.chance(50) ? Var::gridDim(1) : Var::blockDim(1));
    case 5: return var(Var::arg(0));
    default: return var(Var::arg(1));
    }
  }

  Twin gen(int Depth) {
    if (Depth == 0 || R.chance(25))
      return leaf();
    switch (R.range(0, 10)) {
    case 0:
    case 1: return nary(ExprOp::Add, Depth);
    case 2: { // a - b
      Twin A = gen(Depth - 1), B = gen(Depth - 1);
      ExprRef M1 = Expr::constant(-1);
      return {Expr::raw(ExprOp::Add, 0, {A.Raw, Expr::raw(ExprOp::Mul, 0, {M1, B.Raw})}),
              Expr::sub(A.Simp, B.Simp)};
    }
    case 3:
    case 4: return nary(ExprOp::Mul, Depth);
    case 5: return nary(ExprOp::SMin, Depth);
    case 6: return nary(ExprOp::SMax, Depth);
    case 7: { // min/max of a term and the same term plus a constant
      Twin T = gen(Depth - 1);
      ExprRef K = Expr::constant(R.range(-3, 3));
      ExprOp Op = R.chance(50) ? ExprOp::SMin : ExprOp::SMax;
      Twin U{Expr::raw(ExprOp::Add, 0, {T.Raw, K}), Expr::add(T.Simp, K)};
      bool Swap = R.chance(50);
      return combine(Op, Swap ? std::vector<Twin>{U, T} : std::vector<Twin>{T, U});
    }
    case 8: { // absorption shape: max(min(a, b), b) and its dual
      Twin A = gen(Depth - 1), B = gen(Depth - 1);
      ExprOp In = R.chance(50) ? ExprOp::SMin : ExprOp::SMax;
      ExprOp Out = In == ExprOp::SMin ? ExprOp::SMax : ExprOp::SMin;
      Twin Inner = combine(In, {A, B});
      return combine(Out, R.chance(50) ? std::vector<Twin>{Inner, B} : std::vector<Twin>{B, Inner});
    }
    case 9:
    default: {
      Twin A = gen(Depth - 1), B = R.chance(60) ? smallPositive() : gen(Depth - 1);
      return combine(R.chance(50) ? ExprOp::UDiv : ExprOp::SDiv, {A, B});
    }
    }
  }

private:
  Twin var(Var V) {
    ExprRef E = Expr::variable(V);
    return {E, E};
  }
  Twin smallPositive() {
    ExprRef E = Expr::constant(R.range(1, 5));
    return {E, E};
  }
  Twin nary(ExprOp Op, int Depth) {
    std::vector<Twin> Kids;
    int N = int(R.range(2, 3));
    for (int I = 0; I < N; ++I)
      Kids.push_back(gen(Depth - 1));
    return combine(Op, Kids);
  }
  static Twin combine(ExprOp Op, const std::vector<Twin> &Kids) {
    std::vector<ExprRef> Raw, Simp;
    for (const Twin &K : Kids) {
      Raw.push_back(K.Raw);
      Simp.push_back(K.Simp);
    }
    ExprRef S;
    switch (Op) {
    case ExprOp::Add: S = Expr::add(Simp); break;
    case ExprOp::Mul: S = Expr::mul(Simp); break;
    case ExprOp::SMin: S = Expr::smin(Simp); break;
    case ExprOp::SMax: S = Expr::smax(Simp); break;
    case ExprOp::UDiv: S = Expr::udiv(Simp[0], Simp[1]); break;
    case ExprOp::SDiv: S = Expr::sdiv(Simp[0], Simp[1]); break;
    default: break;
    }
    return {Expr::raw(Op, 0, Raw), S};
  }

  Rng &R;
  bool Big;
};

LaunchValues randomLaunch(Rng &R) {
  LaunchValues L;
  L.Grid[0] = R.range(1, 70);
  L.Grid[1] = R.range(1, 3);
  L.Block[0] = R.chance(50) ? R.range(1, 1024) : 32 * R.range(1, 32);
  L.Block[1] = R.range(1, 4);
  for (int I = 0; I < 2; ++I) {
    int64_t V = R.range(-20, 20);
    if (R.chance(10))
      V = R.chance(50) ? R.range(-(int64_t(1) << 40), int64_t(1) << 40)
                       : (R.chance(50) ? I64Max : I64Min);
    L.Args.push_back(V);
  }
  return L;
}

/// Rebuilds a tree through the simplifying builders.
ExprRef rebuild(const ExprRef &E) {
  std::vector<ExprRef> Ops;
  for (const ExprRef &O : E->operands())
    Ops.push_back(rebuild(O));
  switch (E->op()) {
  case ExprOp::Const:
  case ExprOp::Var: return E;
  case ExprOp::Add: return Expr::add(Ops);
  case ExprOp::Mul: return Expr::mul(Ops);
  case ExprOp::SMin: return Expr::smin(Ops);
  case ExprOp::SMax: return Expr::smax(Ops);
  case ExprOp::UDiv: return Expr::udiv(Ops[0], Ops[1]);
  case ExprOp::SDiv: return Expr::sdiv(Ops[0], Ops[1]);
  }
  return E;
}

constexpr int NumTrees = 4000;
constexpr int LaunchesPerTree = 6;

TEST(SymExprProperty, SimplifiedAgreesWithRawEvaluation) {
  for (bool Big : {false, true}) {
    Rng R(Big ? 0xB16C0457 : 0x5EED1234);
    TreeGen Gen(R, Big);
    long Compared = 0, Total = 0;
    int Failures = 0;
    for (int T = 0; T < NumTrees && Failures < 10; ++T) {
      Twin X = Gen.gen(int(R.range(1, 4)));
      for (int L = 0; L < LaunchesPerTree; ++L) {
        LaunchValues LV = randomLaunch(R);
        ++Total;
        auto RawV = evaluate(*X.Raw, LV);
        auto SimpV = evaluate(*X.Simp, LV);
        if (!RawV || !SimpV)
          continue;
        ++Compared;
        if (*RawV != *SimpV) {
          ++Failures;
          ADD_FAILURE() << "unsound simplification\n  raw:  " << X.Raw->str()
                        << "\n  simp: " << X.Simp->str() << "\n  launch: grid=(" << LV.Grid[0]
                        << "," << LV.Grid[1] << ") block=(" << LV.Block[0] << "," << LV.Block[1]
                        << ") arg0=" << LV.Args[0] << " arg1=" << LV.Args[1]
                        << "\n  raw value " << *RawV << ", simplified value " << *SimpV;
        }
      }
    }
    // The comparison must actually have happened for most trees.
    EXPECT_GT(Compared, Total / 2) << "Big=" << Big;
  }
}

TEST(SymExprProperty, SimplifiedNeverLosesAValueOnPlainLaunches) {
  // Without overflow-prone inputs, a simplified tree has a value whenever
  // the raw tree has one (simplification only removes ways to fail).
  Rng R(0xA11CE);
  TreeGen Gen(R, false);
  int Failures = 0;
  for (int T = 0; T < NumTrees && Failures < 10; ++T) {
    Twin X = Gen.gen(int(R.range(1, 4)));
    LaunchValues LV;
    LV.Grid[0] = R.range(1, 16);
    LV.Grid[1] = R.range(1, 3);
    LV.Block[0] = R.range(1, 64);
    LV.Block[1] = R.range(1, 4);
    LV.Args = {R.range(-10, 10), R.range(-10, 10)};
    if (evaluate(*X.Raw, LV) && !evaluate(*X.Simp, LV)) {
      ++Failures;
      ADD_FAILURE() << "raw " << X.Raw->str() << " has a value, simplified " << X.Simp->str()
                    << " has none";
    }
  }
}

TEST(SymExprProperty, SignPredicatesAreSound) {
  Rng R(0x516E);
  TreeGen Gen(R, true);
  int Failures = 0;
  long NonNegClaims = 0, PosClaims = 0;
  for (int T = 0; T < NumTrees && Failures < 10; ++T) {
    Twin X = Gen.gen(int(R.range(1, 4)));
    for (const ExprRef &E : {X.Raw, X.Simp}) {
      bool NN = isKnownNonNegative(E), Pos = isKnownPositive(E);
      NonNegClaims += NN;
      PosClaims += Pos;
      if (Pos && !NN) {
        ++Failures;
        ADD_FAILURE() << "positive but not non-negative: " << E->str();
      }
      for (int L = 0; L < 3; ++L) {
        LaunchValues LV = randomLaunch(R);
        auto V = evaluate(*E, LV);
        if (!V)
          continue;
        if ((NN && *V < 0) || (Pos && *V < 1)) {
          ++Failures;
          ADD_FAILURE() << E->str() << " claimed " << (Pos ? "positive" : "non-negative")
                        << " but evaluates to " << *V << " at arg0=" << LV.Args[0]
                        << " arg1=" << LV.Args[1];
        }
      }
    }
  }
  // The predicates must say yes often enough for the test to mean something.
  EXPECT_GT(NonNegClaims, NumTrees / 10);
  EXPECT_GT(PosClaims, NumTrees / 20);
}

TEST(SymExprProperty, CanonicalFormIsOrderIndependentAndStable) {
  Rng R(0xC0FFEE);
  TreeGen Gen(R, false);
  int Failures = 0;
  for (int T = 0; T < NumTrees / 2 && Failures < 10; ++T) {
    ExprRef A = Gen.gen(int(R.range(0, 3))).Simp;
    ExprRef B = Gen.gen(int(R.range(0, 3))).Simp;
    ExprRef C = Gen.gen(int(R.range(0, 2))).Simp;
    auto Check = [&](const ExprRef &X, const ExprRef &Y, const char *What) {
      if (!sameExpr(X, Y)) {
        ++Failures;
        ADD_FAILURE() << What << ": " << X->str() << " vs " << Y->str();
      }
    };
    Check(Expr::add(A, B), Expr::add(B, A), "a+b vs b+a");
    Check(Expr::mul(A, B), Expr::mul(B, A), "a*b vs b*a");
    Check(Expr::smin(A, B), Expr::smin(B, A), "min(a,b) vs min(b,a)");
    Check(Expr::smax(A, B), Expr::smax(B, A), "max(a,b) vs max(b,a)");
    Check(Expr::add(Expr::add(A, B), C), Expr::add(A, Expr::add(B, C)), "(a+b)+c vs a+(b+c)");
    Check(rebuild(A), A, "rebuild(a) vs a");
  }
}

TEST(SymExprProperty, ConstantDifferenceIsSoundAndFindsOffsets) {
  Rng R(0xD1FF);
  TreeGen Gen(R, false);
  int Failures = 0;
  for (int T = 0; T < NumTrees / 2 && Failures < 10; ++T) {
    ExprRef A = Gen.gen(int(R.range(0, 3))).Simp;
    ExprRef B = Gen.gen(int(R.range(0, 3))).Simp;
    int64_t K = R.range(-100, 100);
    // Completeness on the shapes unite() relies on: (a + b + k) - (b + a).
    auto D = constantDifference(Expr::add({A, B, Expr::constant(K)}), Expr::add(B, A));
    if (D != K) {
      ++Failures;
      ADD_FAILURE() << "difference of (" << A->str() << ") + (" << B->str() << ") + " << K
                    << " and its base: " << (D ? std::to_string(*D) : "none");
    }
    // Soundness on arbitrary pairs.
    for (const auto &P : {std::make_pair(A, B), std::make_pair(Expr::add(A, B), A),
                          std::make_pair(Expr::mul(Expr::constant(4), Expr::add(A, Expr::constant(K))),
                                         Expr::mul(Expr::constant(4), A))}) {
      auto Diff = constantDifference(P.first, P.second);
      if (!Diff)
        continue;
      for (int L = 0; L < 3; ++L) {
        LaunchValues LV = randomLaunch(R);
        auto X = evaluate(*P.first, LV), Y = evaluate(*P.second, LV);
        int64_t Real;
        if (!X || !Y || __builtin_sub_overflow(*X, *Y, &Real))
          continue;
        if (Real != *Diff) {
          ++Failures;
          ADD_FAILURE() << "constantDifference(" << P.first->str() << ", " << P.second->str()
                        << ") = " << *Diff << " but the values differ by " << Real;
        }
      }
    }
  }
}

} // namespace

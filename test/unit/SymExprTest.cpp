//===- SymExprTest.cpp - unit tests for gmem/compiler/SymExpr -------------===//
//
// Builders (folding, flattening, canonical order, coefficient merging,
// distribution, min/max folding, division), constantDifference, the sign
// predicates, render() and evaluate().
//
//===----------------------------------------------------------------------===//

#include "gmem/compiler/SymExpr.h"
#include "Builders.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace gmem;
using namespace gmem::test;

namespace {



::testing::AssertionResult Same(const ExprRef &X, const ExprRef &Y) {
  if (sameExpr(X, Y))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << X->str() << " is not " << Y->str();
}

LaunchValues launch(int64_t Gx, int64_t Bx, std::vector<int64_t> Args) {
  LaunchValues L;
  L.Grid[0] = Gx;
  L.Block[0] = Bx;
  L.Args = std::move(Args);
  return L;
}

//===----------------------------------------------------------------------===//
// Var packing and basic nodes
//===----------------------------------------------------------------------===//

TEST(SymExprVar, PackUnpackRoundTrip) {
  for (Var V : {Var::gridDim(0), Var::gridDim(2), Var::blockDim(1), Var::arg(0), Var::arg(77),
                Var::arg(0xffffff)}) {
    Var U = Var::unpack(V.pack());
    EXPECT_TRUE(U == V) << V.pack();
  }
  EXPECT_EQ(Var::arg(5).pack(), (2u << 24) | 5u);
  EXPECT_EQ(Var::blockDim(2).pack(), (1u << 24) | 2u);
  EXPECT_FALSE(Var::gridDim(0) == Var::blockDim(0));
  EXPECT_FALSE(Var::arg(1) == Var::arg(2));
}

TEST(SymExprBuild, LeavesAndText) {
  EXPECT_TRUE(C(42)->isConst());
  EXPECT_TRUE(C(42)->isConst(42));
  EXPECT_FALSE(C(42)->isConst(41));
  EXPECT_EQ(C(-3)->str(), "-3");
  EXPECT_EQ(A(3)->str(), "arg3");
  EXPECT_EQ(G(1)->str(), "gridDim.y");
  EXPECT_EQ(B(2)->str(), "blockDim.z");
  EXPECT_EQ(A(3)->op(), ExprOp::Var);
  EXPECT_TRUE(A(3)->var() == Var::arg(3));
  EXPECT_TRUE(G(2)->var() == Var::gridDim(2));
}

//===----------------------------------------------------------------------===//
// Constant folding, identities, flattening
//===----------------------------------------------------------------------===//

TEST(SymExprBuild, ConstantFolding) {
  EXPECT_TRUE(Expr::add(C(2), C(3))->isConst(5));
  EXPECT_TRUE(Expr::add({C(1), C(2), C(-10)})->isConst(-7));
  EXPECT_TRUE(Expr::mul(C(6), C(7))->isConst(42));
  EXPECT_TRUE(Expr::mul({C(-2), C(3), C(4)})->isConst(-24));
  EXPECT_TRUE(Expr::sub(C(2), C(9))->isConst(-7));
  EXPECT_TRUE(Expr::smin({C(4), C(-1), C(7)})->isConst(-1));
  EXPECT_TRUE(Expr::smax({C(4), C(-1), C(7)})->isConst(7));
  // Constants scattered among variables fold into one.
  EXPECT_TRUE(Same(Expr::add({C(1), A(0), C(2), C(3)}), Expr::add(A(0), C(6))));
  EXPECT_TRUE(Same(Expr::mul({C(2), A(0), C(3)}), Expr::mul(C(6), A(0))));
}

TEST(SymExprBuild, Identities) {
  EXPECT_TRUE(Same(Expr::add(A(0), C(0)), A(0)));
  EXPECT_TRUE(Same(Expr::mul(A(0), C(1)), A(0)));
  EXPECT_TRUE(Expr::mul(A(0), C(0))->isConst(0));
  EXPECT_TRUE(Expr::mul({G(), A(1), C(0), B()})->isConst(0));
  EXPECT_TRUE(Same(Expr::smin(A(0), A(0)), A(0)));
  EXPECT_TRUE(Same(Expr::smax(A(0), A(0)), A(0)));
  EXPECT_TRUE(Same(Expr::smin(std::vector<ExprRef>{A(0)}), A(0)));
  EXPECT_TRUE(Expr::add(std::vector<ExprRef>{})->isConst(0));
  EXPECT_TRUE(Expr::mul(std::vector<ExprRef>{})->isConst(1));
}

// An operand known >= 0 against a constant <= 0: the min is the constant,
// the max drops it. An operand of unknown sign keeps both.
TEST(SymExprBuild, NonNegativeAgainstNonPositiveConstant) {
  ExprRef Pos = Expr::mul(C(30), Expr::smax(C(1), A(0))); // 30 * max(1, arg0)
  EXPECT_TRUE(Expr::smin(Pos, C(0))->isConst(0));
  EXPECT_TRUE(Expr::smin({Pos, G(), C(-2)})->isConst(-2));
  EXPECT_TRUE(Same(Expr::smax(Pos, C(0)), Pos));
  EXPECT_TRUE(Same(Expr::smax({G(), C(-5)}), G()));
  EXPECT_EQ(Expr::smin(A(0), C(0))->op(), ExprOp::SMin);
  EXPECT_EQ(Expr::smax(A(0), C(0))->op(), ExprOp::SMax);
  // A positive constant is not dominated by a non-negative operand.
  EXPECT_EQ(Expr::smin(G(), C(3))->op(), ExprOp::SMin);
}

TEST(SymExprBuild, Flattening) {
  ExprRef S = Expr::add(Expr::add(A(0), A(1)), G());
  EXPECT_EQ(S->op(), ExprOp::Add);
  EXPECT_EQ(S->operands().size(), 3u);
  for (const ExprRef &O : S->operands())
    EXPECT_NE(O->op(), ExprOp::Add);

  ExprRef P = Expr::mul(Expr::mul(A(0), A(1)), Expr::mul(G(), B()));
  EXPECT_EQ(P->op(), ExprOp::Mul);
  EXPECT_EQ(P->operands().size(), 4u);

  ExprRef M = Expr::smin(Expr::smin(A(0), A(1)), Expr::smin(G(), A(2)));
  EXPECT_EQ(M->op(), ExprOp::SMin);
  EXPECT_EQ(M->operands().size(), 4u);

  ExprRef X = Expr::smax(Expr::smax(A(0), A(1)), A(2));
  EXPECT_EQ(X->op(), ExprOp::SMax);
  EXPECT_EQ(X->operands().size(), 3u);

  // A min inside a max is not flattened (different operator).
  ExprRef Mixed = Expr::smax(Expr::smin(A(0), A(1)), A(2));
  EXPECT_EQ(Mixed->op(), ExprOp::SMax);
  EXPECT_EQ(Mixed->operands().size(), 2u);
}

TEST(SymExprBuild, CanonicalOrder) {
  EXPECT_TRUE(Same(Expr::add(A(0), A(1)), Expr::add(A(1), A(0))));
  EXPECT_TRUE(Same(Expr::add({A(0), G(), C(3)}), Expr::add({C(3), G(), A(0)})));
  EXPECT_TRUE(Same(Expr::add(Expr::add(A(0), A(1)), A(2)), Expr::add(A(2), Expr::add(A(1), A(0)))));
  EXPECT_TRUE(Same(Expr::mul(G(), B()), Expr::mul(B(), G())));
  EXPECT_TRUE(Same(Expr::mul({C(4), G(), B()}), Expr::mul({B(), C(4), G()})));
  EXPECT_TRUE(Same(Expr::smin(A(0), G()), Expr::smin(G(), A(0))));
  EXPECT_TRUE(Same(Expr::smax({A(0), A(1), G()}), Expr::smax({G(), A(1), A(0)})));
  // Different expressions stay different.
  EXPECT_FALSE(sameExpr(Expr::add(A(0), A(1)), Expr::mul(A(0), A(1))));
  EXPECT_FALSE(sameExpr(Expr::smin(A(0), A(1)), Expr::smax(A(0), A(1))));
  EXPECT_FALSE(sameExpr(Expr::sub(A(0), A(1)), Expr::sub(A(1), A(0))));
  // Division is not commutative.
  EXPECT_FALSE(sameExpr(Expr::sdiv(A(0), A(1)), Expr::sdiv(A(1), A(0))));
}

TEST(SymExprBuild, CoefficientMerging) {
  ExprRef X = A(0);
  EXPECT_TRUE(Same(Expr::add(Expr::mul(C(3), X), Expr::mul(C(5), X)), Expr::mul(C(8), X)));
  EXPECT_TRUE(Expr::sub(X, X)->isConst(0));
  EXPECT_TRUE(Same(Expr::add(X, X), Expr::mul(C(2), X)));
  EXPECT_TRUE(Same(Expr::add({X, X, X}), Expr::mul(C(3), X)));
  EXPECT_TRUE(Same(Expr::sub(Expr::mul(C(3), X), X), Expr::mul(C(2), X)));
  // Products merge regardless of factor order.
  ExprRef XY = Expr::mul(A(0), A(1)), YX = Expr::mul(A(1), A(0));
  EXPECT_TRUE(Expr::sub(Expr::mul(C(3), XY), Expr::mul(C(3), YX))->isConst(0));
  EXPECT_TRUE(Same(Expr::add(Expr::mul(C(2), XY), YX), Expr::mul({C(3), A(1), A(0)})));
  // Cancellation leaves the other terms.
  ExprRef E = Expr::add({Expr::mul(C(4), X), A(1), Expr::mul(C(-4), X), C(7)});
  EXPECT_TRUE(Same(E, Expr::add(A(1), C(7))));
  // Different bases do not merge.
  ExprRef F = Expr::add(Expr::mul(C(3), A(0)), Expr::mul(C(3), A(1)));
  EXPECT_EQ(F->op(), ExprOp::Add);
  EXPECT_EQ(F->operands().size(), 2u);
}

TEST(SymExprBuild, Distribution) {
  ExprRef I = A(0);
  // 4*(i+1) - 4*i == 4
  ExprRef D = Expr::sub(Expr::mul(C(4), Expr::add(I, C(1))), Expr::mul(C(4), I));
  EXPECT_TRUE(D->isConst(4)) << D->str();
  // (g-1)*b + b == g*b
  ExprRef GB = Expr::add(Expr::mul(Expr::sub(G(), C(1)), B()), B());
  EXPECT_TRUE(Same(GB, Expr::mul(G(), B())));
  // (a+1)*(b+1) - a*b - a - b == 1
  ExprRef P = Expr::mul(Expr::add(A(0), C(1)), Expr::add(A(1), C(1)));
  ExprRef R = Expr::sub(Expr::sub(Expr::sub(P, Expr::mul(A(0), A(1))), A(0)), A(1));
  EXPECT_TRUE(R->isConst(1)) << R->str();
  // -(x - y) == y - x
  EXPECT_TRUE(Same(Expr::mul(C(-1), Expr::sub(A(0), A(1))), Expr::sub(A(1), A(0))));
  // 2*(x+3) is a sum of products, not a product of a sum.
  ExprRef T = Expr::mul(C(2), Expr::add(A(0), C(3)));
  EXPECT_EQ(T->op(), ExprOp::Add);
  EXPECT_TRUE(Same(T, Expr::add(Expr::mul(C(2), A(0)), C(6))));
}

//===----------------------------------------------------------------------===//
// min / max
//===----------------------------------------------------------------------===//

TEST(SymExprBuild, MinMaxFolding) {
  ExprRef X = A(0), Y = A(1);
  EXPECT_TRUE(Same(Expr::smin(X, Expr::add(X, C(1))), X));
  EXPECT_TRUE(Same(Expr::smin(Expr::add(X, C(1)), X), X));
  EXPECT_TRUE(Same(Expr::smax(X, Expr::add(X, C(1))), Expr::add(X, C(1))));
  EXPECT_TRUE(Same(Expr::smax({Expr::sub(X, C(3)), X, Expr::add(X, C(-1))}), X));
  EXPECT_TRUE(Same(Expr::smin({Expr::sub(X, C(3)), X, Expr::add(X, C(-1))}), Expr::sub(X, C(3))));
  // Absorption: max(min(a,b), b) == b and min(max(a,b), b) == b.
  EXPECT_TRUE(Same(Expr::smax(Expr::smin(X, Y), Y), Y));
  EXPECT_TRUE(Same(Expr::smax(Y, Expr::smin(X, Y)), Y));
  EXPECT_TRUE(Same(Expr::smin(Expr::smax(X, Y), Y), Y));
  EXPECT_TRUE(Same(Expr::smin(Expr::smax(X, C(5)), C(5)), C(5)));
  // Constants fold among themselves, variables stay.
  ExprRef M = Expr::smin({C(3), X, C(5)});
  EXPECT_TRUE(Same(M, Expr::smin(X, C(3))));
  EXPECT_EQ(M->operands().size(), 2u);
  ExprRef N = Expr::smax({C(3), X, C(5)});
  EXPECT_TRUE(Same(N, Expr::smax(X, C(5))));
  // Unrelated operands are kept.
  ExprRef U = Expr::smin(X, Y);
  EXPECT_EQ(U->op(), ExprOp::SMin);
  EXPECT_EQ(U->operands().size(), 2u);
  // min(x, y+1) is not simplified to anything involving only one of them.
  EXPECT_FALSE(sameExpr(Expr::smin(X, Expr::add(Y, C(1))), X));
}

//===----------------------------------------------------------------------===//
// Division
//===----------------------------------------------------------------------===//

TEST(SymExprBuild, UDivFolding) {
  EXPECT_TRUE(Expr::udiv(C(7), C(2))->isConst(3));
  EXPECT_TRUE(Expr::udiv(C(0), C(5))->isConst(0));
  EXPECT_TRUE(Same(Expr::udiv(A(0), C(1)), A(0)));
  EXPECT_TRUE(Expr::udiv(C(0), A(0))->isConst(0));
  // A negative dividend has no value: must not fold.
  ExprRef Neg = Expr::udiv(C(-7), C(2));
  EXPECT_EQ(Neg->op(), ExprOp::UDiv);
  EXPECT_EQ(evaluate(*Neg, LaunchValues()), std::nullopt);
  // Division by zero or by a negative constant must not fold.
  EXPECT_EQ(Expr::udiv(C(7), C(0))->op(), ExprOp::UDiv);
  EXPECT_EQ(Expr::udiv(C(7), C(-1))->op(), ExprOp::UDiv);
  // Symbolic operands stay.
  ExprRef S = Expr::udiv(A(0), C(4));
  EXPECT_EQ(S->op(), ExprOp::UDiv);
  ASSERT_EQ(S->operands().size(), 2u);
  EXPECT_TRUE(Same(S->operands()[0], A(0)));
  EXPECT_TRUE(S->operands()[1]->isConst(4));
}

TEST(SymExprBuild, SDivFolding) {
  EXPECT_TRUE(Expr::sdiv(C(7), C(2))->isConst(3));
  EXPECT_TRUE(Expr::sdiv(C(-7), C(2))->isConst(-3)); // truncates toward zero
  EXPECT_TRUE(Expr::sdiv(C(7), C(-2))->isConst(-3));
  EXPECT_TRUE(Expr::sdiv(C(-7), C(-2))->isConst(3));
  EXPECT_TRUE(Same(Expr::sdiv(A(0), C(1)), A(0)));
  EXPECT_TRUE(Expr::sdiv(C(0), A(1))->isConst(0));
  EXPECT_TRUE(Expr::sdiv(C(I64Min), C(1))->isConst(I64Min));
  // No folding where there is no value.
  EXPECT_EQ(Expr::sdiv(C(7), C(0))->op(), ExprOp::SDiv);
  ExprRef Ovf = Expr::sdiv(C(I64Min), C(-1));
  EXPECT_EQ(Ovf->op(), ExprOp::SDiv);
  EXPECT_EQ(evaluate(*Ovf, LaunchValues()), std::nullopt);
  EXPECT_EQ(Expr::sdiv(A(0), C(3))->op(), ExprOp::SDiv);
}

//===----------------------------------------------------------------------===//
// constantDifference
//===----------------------------------------------------------------------===//

TEST(SymExprDiff, ConstantDifference) {
  ExprRef X = A(0), Y = A(1);
  EXPECT_EQ(constantDifference(X, X), 0);
  EXPECT_EQ(constantDifference(Expr::add(X, C(5)), X), 5);
  EXPECT_EQ(constantDifference(X, Expr::add(X, C(5))), -5);
  EXPECT_EQ(constantDifference(C(10), C(3)), 7);
  EXPECT_EQ(constantDifference(Expr::mul(C(4), Expr::add(X, C(2))), Expr::mul(C(4), X)), 8);
  ExprRef GB = Expr::mul(G(), B());
  EXPECT_EQ(constantDifference(Expr::add(Expr::mul(C(4), GB), C(12)),
                               Expr::sub(Expr::mul(C(4), GB), C(4))),
            16);
  EXPECT_EQ(constantDifference(X, Y), std::nullopt);
  EXPECT_EQ(constantDifference(Expr::mul(C(2), X), X), std::nullopt);
  EXPECT_EQ(constantDifference(Expr::smin(X, Y), X), std::nullopt);
  // A difference that does not fit in int64 is not claimed.
  EXPECT_EQ(constantDifference(C(I64Max), C(-1)), std::nullopt);
  EXPECT_EQ(constantDifference(C(I64Min), C(1)), std::nullopt);
}

//===----------------------------------------------------------------------===//
// Sign predicates
//===----------------------------------------------------------------------===//

TEST(SymExprSign, KnownNonNegative) {
  EXPECT_TRUE(isKnownNonNegative(G(0)));
  EXPECT_TRUE(isKnownNonNegative(B(2)));
  EXPECT_FALSE(isKnownNonNegative(A(0)));
  EXPECT_TRUE(isKnownNonNegative(C(0)));
  EXPECT_FALSE(isKnownNonNegative(C(-1)));
  EXPECT_TRUE(isKnownNonNegative(Expr::add(G(), B())));
  EXPECT_FALSE(isKnownNonNegative(Expr::sub(G(), C(1)))); // could be 0, but not provable here
  EXPECT_FALSE(isKnownNonNegative(Expr::add(G(), A(0))));
  EXPECT_TRUE(isKnownNonNegative(Expr::mul({C(4), G(), B()})));
  EXPECT_FALSE(isKnownNonNegative(Expr::mul(C(-4), G())));
  EXPECT_FALSE(isKnownNonNegative(Expr::mul(A(0), G())));
  EXPECT_TRUE(isKnownNonNegative(Expr::smax(A(0), C(0))));
  EXPECT_FALSE(isKnownNonNegative(Expr::smax(A(0), C(-1))));
  EXPECT_TRUE(isKnownNonNegative(Expr::smin(G(), B())));
  EXPECT_FALSE(isKnownNonNegative(Expr::smin(G(), A(0))));
  EXPECT_TRUE(isKnownNonNegative(Expr::udiv(A(0), C(4)))); // defined only when >= 0
  EXPECT_TRUE(isKnownNonNegative(Expr::sdiv(G(), C(4))));
  EXPECT_FALSE(isKnownNonNegative(Expr::sdiv(A(0), C(4))));
}

TEST(SymExprSign, KnownPositive) {
  EXPECT_TRUE(isKnownPositive(G(1)));
  EXPECT_TRUE(isKnownPositive(B(0)));
  EXPECT_FALSE(isKnownPositive(A(0)));
  EXPECT_FALSE(isKnownPositive(C(0)));
  EXPECT_TRUE(isKnownPositive(C(1)));
  EXPECT_TRUE(isKnownPositive(Expr::mul(G(), B())));
  EXPECT_FALSE(isKnownPositive(Expr::mul(G(), A(0))));
  EXPECT_TRUE(isKnownPositive(Expr::add(G(), C(3))));
  EXPECT_FALSE(isKnownPositive(Expr::add(G(), C(-1))));
  EXPECT_FALSE(isKnownPositive(Expr::add(G(), A(0))));
  EXPECT_TRUE(isKnownPositive(Expr::smax(A(0), C(1))));
  EXPECT_FALSE(isKnownPositive(Expr::smax(A(0), C(0))));
  EXPECT_TRUE(isKnownPositive(Expr::smin(G(), B())));
  EXPECT_FALSE(isKnownPositive(Expr::smin(G(), C(0))));
  EXPECT_FALSE(isKnownPositive(Expr::udiv(G(), C(2)))); // 1/2 == 0
  EXPECT_FALSE(isKnownPositive(Expr::sdiv(G(), C(2))));
}

//===----------------------------------------------------------------------===//
// render
//===----------------------------------------------------------------------===//

TEST(SymExprRender, Shapes) {
  std::vector<std::string> Names{"n", "m"};
  EXPECT_EQ(render(C(12)), "12");
  EXPECT_EQ(render(C(-12)), "-12");
  EXPECT_EQ(render(A(0), Names), "n");
  EXPECT_EQ(render(A(0)), "arg0");
  EXPECT_EQ(render(A(5), Names), "arg5"); // no name for it
  EXPECT_EQ(render(A(1), {"n", ""}), "arg1"); // empty name falls back
  EXPECT_EQ(render(Expr::mul(C(4), A(0)), Names), "4*n");
  EXPECT_EQ(render(Expr::add(A(0), C(-1)), Names), "n - 1");
  EXPECT_EQ(render(Expr::add(A(0), C(3)), Names), "n + 3");
  EXPECT_EQ(render(Expr::sub(A(0), A(1)), Names), "-m + n");
  EXPECT_EQ(render(Expr::add(Expr::mul(C(4), Expr::mul(G(), B())), C(4)), Names),
            "4*blockDim.x*gridDim.x + 4");
  EXPECT_EQ(render(Expr::smin(Expr::mul(C(4), A(0)), Expr::mul(G(), B())), Names),
            "min(4*n, blockDim.x*gridDim.x)");
  EXPECT_EQ(render(Expr::smax(A(0), C(0)), Names), "max(0, n)");
  EXPECT_EQ(render(Expr::udiv(Expr::add(A(0), C(3)), C(4)), Names), "(n + 3) /u 4");
  EXPECT_EQ(render(Expr::sdiv(A(0), A(1)), Names), "n /s m");
  EXPECT_EQ(render(Expr::sub(A(0), Expr::mul(C(3), A(1))), Names), "-3*m + n");
  EXPECT_EQ(render(Expr::sub(A(0), C(5)), Names), "n - 5");
  EXPECT_EQ(render(Expr::mul(C(4), Expr::smin(A(0), A(1))), Names), "4*min(n, m)");
  // A sum inside a product gets parentheses (a raw, undistributed node).
  ExprRef Raw = Expr::raw(ExprOp::Mul, 0, {A(1), Expr::add(A(0), C(1))});
  EXPECT_EQ(render(Raw, Names), "m*(n + 1)");
}

// Negating INT64_MIN is undefined; the renderer must still print the value.
// BUG: render(n + INT64_MIN) gives "n - -9223372036854775808": renderP
// computes -T->constant() (and -C for a coefficient), which overflows (UBSan:
// "negation of -9223372036854775808 cannot be represented").
TEST(SymExprRender, Int64MinTermInSum) {
  std::vector<std::string> Names{"n", "m"};
  EXPECT_EQ(render(Expr::add(A(0), C(I64Min)), Names), "n - 9223372036854775808");
  EXPECT_EQ(render(Expr::add(Expr::smax(A(0), A(1)), Expr::mul(C(I64Min), A(0))), Names),
            "max(n, m) - 9223372036854775808*n");
}

//===----------------------------------------------------------------------===//
// evaluate
//===----------------------------------------------------------------------===//

TEST(SymExprEval, Basics) {
  LaunchValues L = launch(8, 256, {100, -3});
  L.Grid[1] = 2;
  L.Block[2] = 4;
  EXPECT_EQ(evaluate(*C(-5), L), -5);
  EXPECT_EQ(evaluate(*G(0), L), 8);
  EXPECT_EQ(evaluate(*G(1), L), 2);
  EXPECT_EQ(evaluate(*B(0), L), 256);
  EXPECT_EQ(evaluate(*B(2), L), 4);
  EXPECT_EQ(evaluate(*A(0), L), 100);
  EXPECT_EQ(evaluate(*A(1), L), -3);
  EXPECT_EQ(evaluate(*Expr::mul({C(4), G(), B()}), L), 4 * 8 * 256);
  EXPECT_EQ(evaluate(*Expr::smin(Expr::mul(C(4), A(0)), Expr::mul(G(), B())), L), 400);
  EXPECT_EQ(evaluate(*Expr::smax(A(1), C(0)), L), 0);
  EXPECT_EQ(evaluate(*Expr::smin(A(1), C(0)), L), -3);
  EXPECT_EQ(evaluate(*Expr::sub(A(0), A(1)), L), 103);
  EXPECT_EQ(evaluate(*Expr::udiv(A(0), C(7)), L), 14);
  EXPECT_EQ(evaluate(*Expr::sdiv(A(1), C(2)), L), -1); // truncation toward zero
  EXPECT_EQ(evaluate(*Expr::sdiv(A(0), A(1)), L), -33);
}

TEST(SymExprEval, MissingVariable) {
  LaunchValues L = launch(1, 1, {1});
  EXPECT_EQ(evaluate(*A(1), L), std::nullopt);
  EXPECT_EQ(evaluate(*Expr::add(A(0), A(1)), L), std::nullopt);
  // A grid variable with an out-of-range dimension has no value.
  EXPECT_EQ(evaluate(*Expr::variable(Var::gridDim(3)), L), std::nullopt);
  EXPECT_EQ(evaluate(*Expr::variable(Var::blockDim(7)), L), std::nullopt);
}

TEST(SymExprEval, Overflow) {
  LaunchValues L = launch(1, 1, {I64Max, I64Min, 2});
  // INT64_MAX + 1
  EXPECT_EQ(evaluate(*Expr::add(A(0), C(1)), L), std::nullopt);
  EXPECT_EQ(evaluate(*Expr::raw(ExprOp::Add, 0, {C(I64Max), C(1)}), L), std::nullopt);
  EXPECT_EQ(evaluate(*Expr::add(C(I64Max), C(1)), L), std::nullopt); // builder keeps it apart
  EXPECT_EQ(evaluate(*Expr::add(A(0), C(-1)), L), I64Max - 1);
  // INT64_MIN - 1
  EXPECT_EQ(evaluate(*Expr::sub(A(1), C(1)), L), std::nullopt);
  // Multiplication
  EXPECT_EQ(evaluate(*Expr::mul(A(0), A(2)), L), std::nullopt);
  EXPECT_EQ(evaluate(*Expr::mul(A(1), C(-1)), L), std::nullopt);
  EXPECT_EQ(evaluate(*Expr::mul(C(I64Max / 2), A(2)), L), (I64Max / 2) * 2);
  // Overflow below a min still poisons the result.
  EXPECT_EQ(evaluate(*Expr::smin(Expr::add(A(0), C(1)), C(0)), L), std::nullopt);
}

TEST(SymExprEval, Division) {
  LaunchValues L = launch(1, 1, {-8, 0, I64Min, -1, 9});
  // UDiv of a negative operand has no value.
  EXPECT_EQ(evaluate(*Expr::udiv(A(0), C(4)), L), std::nullopt);
  EXPECT_EQ(evaluate(*Expr::udiv(A(4), A(0)), L), std::nullopt);
  EXPECT_EQ(evaluate(*Expr::udiv(A(4), C(4)), L), 2);
  // Division by zero.
  EXPECT_EQ(evaluate(*Expr::udiv(A(4), A(1)), L), std::nullopt);
  EXPECT_EQ(evaluate(*Expr::sdiv(A(4), A(1)), L), std::nullopt);
  EXPECT_EQ(evaluate(*Expr::raw(ExprOp::SDiv, 0, {C(1), C(0)}), L), std::nullopt);
  // INT64_MIN / -1
  EXPECT_EQ(evaluate(*Expr::sdiv(A(2), A(3)), L), std::nullopt);
  EXPECT_EQ(evaluate(*Expr::sdiv(A(2), C(1)), L), I64Min);
  EXPECT_EQ(evaluate(*Expr::sdiv(A(0), A(3)), L), 8);
  EXPECT_EQ(evaluate(*Expr::sdiv(C(-9), C(4)), L), -2);
}

TEST(SymExprEval, RawNodes) {
  LaunchValues L = launch(3, 5, {7});
  // Raw n-ary nodes evaluate left to right like the builders' results.
  EXPECT_EQ(evaluate(*Expr::raw(ExprOp::Add, 0, {G(), B(), A(0)}), L), 15);
  EXPECT_EQ(evaluate(*Expr::raw(ExprOp::Mul, 0, {G(), B(), A(0)}), L), 105);
  EXPECT_EQ(evaluate(*Expr::raw(ExprOp::SMin, 0, {G(), B(), A(0)}), L), 3);
  EXPECT_EQ(evaluate(*Expr::raw(ExprOp::SMax, 0, {G(), B(), A(0)}), L), 7);
  EXPECT_EQ(evaluate(*Expr::raw(ExprOp::Add, 0, {A(0)}), L), 7);
  // An n-ary node without operands has no value.
  EXPECT_EQ(evaluate(*Expr::raw(ExprOp::Add, 0, {}), L), std::nullopt);
  // raw() does not simplify.
  ExprRef R = Expr::raw(ExprOp::Add, 0, {C(1), C(2)});
  EXPECT_EQ(R->op(), ExprOp::Add);
  EXPECT_EQ(R->str(), "(add 1 2)");
}

} // namespace

//===- KernelDescriptorTest.cpp - AccessRegion::unite and friends ---------===//

#include "gmem/compiler/KernelDescriptor.h"
#include "Builders.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace gmem;
using namespace gmem::test;

namespace {

ExprRef plus(const ExprRef &E, int64_t K) { return Expr::add(E, C(K)); }
ExprRef times(int64_t K, const ExprRef &E) { return Expr::mul(C(K), E); }

::testing::AssertionResult SameRange(const SymRange &R, const ExprRef &Lo, const ExprRef &Hi) {
  if (sameExpr(R.Lo, Lo) && sameExpr(R.Hi, Hi))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "[" << R.Lo->str() << ", " << R.Hi->str() << ") is not ["
                                       << Lo->str() << ", " << Hi->str() << ")";
}

TEST(KernelDescriptorNames, Names) {
  EXPECT_STREQ(className(IdempotenceClass::Idempotent), "idempotent");
  EXPECT_STREQ(className(IdempotenceClass::Conditional), "conditional");
  EXPECT_STREQ(className(IdempotenceClass::NonIdempotent), "non-idempotent");
  EXPECT_STREQ(className(IdempotenceClass::Unknown), "unknown");
  EXPECT_STREQ(regionKindName(RegionKind::Empty), "empty");
  EXPECT_STREQ(regionKindName(RegionKind::Bounded), "bounded");
  EXPECT_STREQ(regionKindName(RegionKind::Allocation), "allocation");
  EXPECT_STREQ(regionKindName(RegionKind::Anything), "anything");
  EXPECT_STREQ(scalarTypeName(ScalarType::I32), "i32");
  EXPECT_STREQ(scalarTypeName(ScalarType::Ptr), "ptr");
  EXPECT_STREQ(scalarTypeName(ScalarType::F16), "f16");
  EXPECT_EQ(scalarTypeBits(ScalarType::I8), 8u);
  EXPECT_EQ(scalarTypeBits(ScalarType::I16), 16u);
  EXPECT_EQ(scalarTypeBits(ScalarType::F16), 16u);
  EXPECT_EQ(scalarTypeBits(ScalarType::I32), 32u);
  EXPECT_EQ(scalarTypeBits(ScalarType::F32), 32u);
  EXPECT_EQ(scalarTypeBits(ScalarType::I64), 64u);
  EXPECT_EQ(scalarTypeBits(ScalarType::Ptr), 64u);
  EXPECT_EQ(scalarTypeBits(ScalarType::Other), 0u);

  KernelDescriptor K;
  K.Params.resize(3);
  K.Params[0].Name = "a";
  K.Params[2].Name = "n";
  EXPECT_EQ(K.paramNames(), (std::vector<std::string>{"a", "", "n"}));
}

TEST(AccessRegionUnite, StencilRangesMergeIntoHull) {
  // a[i-1], a[i], a[i+1] with 4-byte elements, i = arg0.
  ExprRef I4 = times(4, A(0));
  AccessRegion R = bounded({{plus(I4, -4), I4}});
  R.unite(bounded({{I4, plus(I4, 4)}}));
  R.unite(bounded({{plus(I4, 4), plus(I4, 8)}}));
  ASSERT_EQ(R.Kind, RegionKind::Bounded);
  ASSERT_EQ(R.Ranges.size(), 1u);
  EXPECT_TRUE(SameRange(R.Ranges[0], plus(I4, -4), plus(I4, 8)));
}

TEST(AccessRegionUnite, HullTakesMinLoAndMaxHiFromDifferentRanges) {
  ExprRef X = A(0);
  // Mine has the larger hi, the other the smaller lo.
  AccessRegion R = bounded({{X, plus(X, 10)}});
  R.unite(bounded({{plus(X, -2), plus(X, 5)}}));
  ASSERT_EQ(R.Ranges.size(), 1u);
  EXPECT_TRUE(SameRange(R.Ranges[0], plus(X, -2), plus(X, 10)));

  // A range inside another leaves it unchanged.
  AccessRegion S = bounded({{X, plus(X, 10)}});
  S.unite(bounded({{plus(X, 2), plus(X, 3)}}));
  ASSERT_EQ(S.Ranges.size(), 1u);
  EXPECT_TRUE(SameRange(S.Ranges[0], X, plus(X, 10)));

  // Constant ranges merge too (and the hull may cover a gap: still sound).
  AccessRegion T = bounded({{C(0), C(4)}});
  T.unite(bounded({{C(100), C(104)}}));
  ASSERT_EQ(T.Ranges.size(), 1u);
  EXPECT_TRUE(SameRange(T.Ranges[0], C(0), C(104)));
}

TEST(AccessRegionUnite, UnrelatedRangesStayApart) {
  ExprRef N4 = times(4, A(0)), M4 = times(4, A(1));
  AccessRegion R = bounded({{C(0), N4}});
  R.unite(bounded({{C(0), M4}}));
  ASSERT_EQ(R.Ranges.size(), 2u);
  EXPECT_TRUE(SameRange(R.Ranges[0], C(0), N4));
  EXPECT_TRUE(SameRange(R.Ranges[1], C(0), M4));
  // Only lo related: still apart.
  R.unite(bounded({{C(4), times(8, A(0))}}));
  EXPECT_EQ(R.Ranges.size(), 3u);
  // A later range related to the second one merges into that one.
  R.unite(bounded({{C(-4), plus(M4, 4)}}));
  ASSERT_EQ(R.Ranges.size(), 3u);
  EXPECT_TRUE(SameRange(R.Ranges[0], C(0), N4));
  EXPECT_TRUE(SameRange(R.Ranges[1], C(-4), plus(M4, 4)));
}

TEST(AccessRegionUnite, ChecksAreUnitedWithoutDuplicates) {
  RangeCheck N{A(0), 0, 1000};
  RangeCheck N2{A(0), 0, 2000};
  RangeCheck M{A(1), -5, 5};
  AccessRegion R = bounded({{C(0), A(0)}}, {N});
  R.unite(bounded({{C(0), A(0)}}, {N, N2, M}));
  ASSERT_EQ(R.Checks.size(), 3u);
  EXPECT_TRUE(sameExpr(R.Checks[0].Value, A(0)));
  EXPECT_EQ(R.Checks[0].Max, 1000);
  EXPECT_EQ(R.Checks[1].Max, 2000);
  EXPECT_TRUE(sameExpr(R.Checks[2].Value, A(1)));
  EXPECT_EQ(R.Checks[2].Min, -5);
  // Uniting with itself changes nothing.
  AccessRegion Copy = R;
  R.unite(Copy);
  EXPECT_EQ(R.Checks.size(), 3u);
  EXPECT_EQ(R.Ranges.size(), 1u);
}

TEST(AccessRegionUnite, EmptyIsNeutral) {
  AccessRegion E;
  EXPECT_FALSE(E.accessed());
  AccessRegion B = bounded({{C(0), A(0)}}, {{A(0), 0, 10}});
  B.unite(E);
  EXPECT_EQ(B.Kind, RegionKind::Bounded);
  EXPECT_EQ(B.Ranges.size(), 1u);
  EXPECT_EQ(B.Checks.size(), 1u);

  AccessRegion F;
  F.unite(B);
  EXPECT_TRUE(F.accessed());
  EXPECT_EQ(F.Kind, RegionKind::Bounded);
  ASSERT_EQ(F.Ranges.size(), 1u);
  EXPECT_TRUE(SameRange(F.Ranges[0], C(0), A(0)));
  EXPECT_EQ(F.Checks.size(), 1u);

  AccessRegion G;
  G.unite(widened(RegionKind::Allocation, "why"));
  EXPECT_EQ(G.Kind, RegionKind::Allocation);
  EXPECT_EQ(G.Reason, "why");
}

TEST(AccessRegionUnite, AllocationAbsorbsBounded) {
  AccessRegion R = bounded({{C(0), A(0)}}, {{A(0), 0, 10}});
  R.unite(widened(RegionKind::Allocation, "indirect index"));
  EXPECT_EQ(R.Kind, RegionKind::Allocation);
  EXPECT_EQ(R.Reason, "indirect index");
  EXPECT_TRUE(R.Ranges.empty());
  EXPECT_TRUE(R.Checks.empty());

  // Bounded into Allocation: still the allocation, reason kept.
  R.unite(bounded({{C(0), C(8)}}));
  EXPECT_EQ(R.Kind, RegionKind::Allocation);
  EXPECT_EQ(R.Reason, "indirect index");
  EXPECT_TRUE(R.Ranges.empty());

  // Allocation into Allocation keeps the first reason.
  R.unite(widened(RegionKind::Allocation, "second"));
  EXPECT_EQ(R.Reason, "indirect index");

  // ... unless there was none.
  AccessRegion S = widened(RegionKind::Allocation, "");
  S.unite(widened(RegionKind::Allocation, "second"));
  EXPECT_EQ(S.Reason, "second");
}

TEST(AccessRegionUnite, AnythingAbsorbsEverything) {
  AccessRegion R = bounded({{C(0), A(0)}}, {{A(0), 0, 10}});
  R.unite(widened(RegionKind::Anything, "pointer loaded from memory"));
  EXPECT_EQ(R.Kind, RegionKind::Anything);
  EXPECT_EQ(R.Reason, "pointer loaded from memory");
  EXPECT_TRUE(R.Ranges.empty());
  EXPECT_TRUE(R.Checks.empty());

  // Anything stays anything and keeps its reason.
  R.unite(widened(RegionKind::Allocation, "other"));
  EXPECT_EQ(R.Kind, RegionKind::Anything);
  EXPECT_EQ(R.Reason, "pointer loaded from memory");
  R.unite(bounded({{C(0), C(4)}}));
  EXPECT_EQ(R.Kind, RegionKind::Anything);
  EXPECT_TRUE(R.Ranges.empty());
  R.unite(widened(RegionKind::Anything, "later"));
  EXPECT_EQ(R.Reason, "pointer loaded from memory");

  // Allocation into Anything: the anything reason wins.
  AccessRegion S = widened(RegionKind::Allocation, "alloc");
  S.unite(widened(RegionKind::Anything, "any"));
  EXPECT_EQ(S.Kind, RegionKind::Anything);
  EXPECT_EQ(S.Reason, "any");
}

TEST(AccessRegionWiden, WidenToAllocation) {
  AccessRegion R = bounded({{C(0), A(0)}}, {{A(0), 0, 10}});
  R.widenToAllocation("first");
  EXPECT_EQ(R.Kind, RegionKind::Allocation);
  EXPECT_EQ(R.Reason, "first");
  EXPECT_TRUE(R.Ranges.empty());
  EXPECT_TRUE(R.Checks.empty());
  R.widenToAllocation("second");
  EXPECT_EQ(R.Reason, "first");

  AccessRegion E;
  E.widenToAllocation("from empty");
  EXPECT_EQ(E.Kind, RegionKind::Allocation);
  EXPECT_EQ(E.Reason, "from empty");

  AccessRegion Any = widened(RegionKind::Anything, "any");
  Any.widenToAllocation("narrower");
  EXPECT_EQ(Any.Kind, RegionKind::Anything);
  EXPECT_EQ(Any.Reason, "any");
}

} // namespace

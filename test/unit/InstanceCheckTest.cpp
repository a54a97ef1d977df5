//===- InstanceCheckTest.cpp - per-launch idempotence decisions -----------===//
//
// Descriptors are built by hand; allocations come from a small table.
//
// Widened and same-parameter regions are in InstanceCheckRegionsTest.cpp;
// unknown memory, globals and by-value aggregate fields in
// InstanceCheckGlobalsTest.cpp (shared builders: InstanceCheckHelpers.h).
//
//===----------------------------------------------------------------------===//

#include "gmem/compiler/InstanceCheck.h"
#include "Builders.h"
#include "InstanceCheckHelpers.h"

#include "gtest/gtest.h"

#include <climits>
#include <cstdint>
#include <string>

using namespace gmem;
using namespace gmem::test;

namespace {

//===----------------------------------------------------------------------===//
// argValue and names
//===----------------------------------------------------------------------===//

TEST(InstanceArgValue, SignExtension) {
  EXPECT_EQ(argValue(ScalarType::I8, 0xff), -1);
  EXPECT_EQ(argValue(ScalarType::I8, 0x7f), 127);
  EXPECT_EQ(argValue(ScalarType::I8, 0x80), -128);
  EXPECT_EQ(argValue(ScalarType::I8, 0x1234), 0x34); // only the low 8 bits count
  EXPECT_EQ(argValue(ScalarType::I8, 0xffffffffffffff05ull), 5);
  EXPECT_EQ(argValue(ScalarType::I16, 0xffff), -1);
  EXPECT_EQ(argValue(ScalarType::I16, 0x8000), -32768);
  EXPECT_EQ(argValue(ScalarType::I16, 0x7fff), 32767);
  EXPECT_EQ(argValue(ScalarType::I16, 0x12345), 0x2345);
  EXPECT_EQ(argValue(ScalarType::I32, 0xffffffffull), -1);
  EXPECT_EQ(argValue(ScalarType::I32, 0x80000000ull), INT32_MIN);
  EXPECT_EQ(argValue(ScalarType::I32, 0x7fffffffull), INT32_MAX);
  EXPECT_EQ(argValue(ScalarType::I32, 0x100000005ull), 5);
  EXPECT_EQ(argValue(ScalarType::I32, 0xffffffff00000010ull), 16);
  EXPECT_EQ(argValue(ScalarType::I64, 0xffffffffull), 0xffffffffll);
  EXPECT_EQ(argValue(ScalarType::I64, ~0ull), -1);
  EXPECT_EQ(argValue(ScalarType::Ptr, 0x10000), 0x10000);
}

TEST(InstanceNames, AccessOwnerName) {
  KernelDescriptor K = vecAdd();
  K.Params[1].Name = "";
  ParamInfo G = ptrParam("g_lut", AccessRegion(), AccessRegion());
  K.Globals = {G};
  EXPECT_EQ(accessOwnerName(K, 0), "a");
  EXPECT_EQ(accessOwnerName(K, 1), "arg1");
  EXPECT_EQ(accessOwnerName(K, 2), "c");
  EXPECT_EQ(accessOwnerName(K, 9), "arg9");
  EXPECT_EQ(accessOwnerName(K, -1), "g_lut");
  EXPECT_EQ(accessOwnerName(K, -2), "global");
  EXPECT_EQ(accessOwnerName(K, INT_MIN), "unknown memory");
}

//===----------------------------------------------------------------------===//
// Vector add
//===----------------------------------------------------------------------===//

TEST(InstanceCheck, DisjointAllocationsAreIdempotent) {
  KernelDescriptor K = vecAdd();
  InstanceDecision D =
      checkInstance(K, launch({0x10000, 0x20000, 0x30000, 100}), ThreeBuffers.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;
  EXPECT_FALSE(D.Clash.has_value());
  ASSERT_EQ(D.Params.size(), 4u);
  ASSERT_EQ(D.Params[0].Read.size(), 1u);
  EXPECT_EQ(D.Params[0].Read[0].Lo, 0x10000u);
  EXPECT_EQ(D.Params[0].Read[0].Hi, 0x10000u + 400);
  EXPECT_TRUE(D.Params[0].ReadExact);
  EXPECT_TRUE(D.Params[0].Write.empty());
  ASSERT_TRUE(D.Params[0].Alloc.has_value());
  EXPECT_EQ(D.Params[0].Alloc->Base, 0x10000u);
  ASSERT_EQ(D.Params[2].Write.size(), 1u);
  EXPECT_EQ(D.Params[2].Write[0].Lo, 0x30000u);
  EXPECT_EQ(D.Params[2].Write[0].Hi, 0x30000u + 400);
  EXPECT_TRUE(D.Params[2].WriteExact);
  EXPECT_TRUE(D.Params[2].Note.empty());
  // The scalar parameter has no access set.
  EXPECT_FALSE(D.Params[3].Alloc.has_value());
  EXPECT_TRUE(D.Params[3].Read.empty());
  EXPECT_TRUE(D.Globals.empty());
}

// A kernel whose class is non-idempotent (here: it prints) is never
// idempotent at a launch, even where its regions are disjoint: printf
// output is not a region, and a block run again would print again.
TEST(InstanceCheck, NonIdempotentClassIsNeverIdempotent) {
  KernelDescriptor K = vecAdd();
  K.Class = IdempotenceClass::NonIdempotent;
  K.ClassReason = "prints (printf): a block run again prints again";
  InstanceDecision D =
      checkInstance(K, launch({0x10000, 0x20000, 0x30000, 100}), ThreeBuffers.lookup());
  EXPECT_FALSE(D.Idempotent);
  EXPECT_FALSE(D.Clash.has_value());
  EXPECT_EQ(D.Reason, "the kernel is not idempotent (prints (printf): a block run again prints again)");
  // The regions are still evaluated (reports show them).
  ASSERT_EQ(D.Params[2].Write.size(), 1u);
  EXPECT_EQ(D.Params[2].Write[0].Lo, 0x30000u);
}

TEST(InstanceCheck, OutputAliasingInputIsNotIdempotent) {
  KernelDescriptor K = vecAdd();
  InstanceDecision D =
      checkInstance(K, launch({0x10000, 0x20000, 0x10000, 100}), ThreeBuffers.lookup());
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->ReadIndex, 0);
  EXPECT_EQ(D.Clash->WriteIndex, 2);
  EXPECT_EQ(D.Clash->Range.Lo, 0x10000u);
  EXPECT_EQ(D.Clash->Range.Hi, 0x10000u + 400);
  EXPECT_NE(D.Reason.find("c"), std::string::npos) << D.Reason;
  EXPECT_NE(D.Reason.find("a"), std::string::npos) << D.Reason;
  EXPECT_EQ(D.Reason, "write of c overlaps read of a");

  // c aliasing b instead.
  D = checkInstance(K, launch({0x10000, 0x20000, 0x20000, 100}), ThreeBuffers.lookup());
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->ReadIndex, 1);
  EXPECT_EQ(D.Clash->WriteIndex, 2);
  EXPECT_EQ(D.Reason, "write of c overlaps read of b");

  // a and b aliasing each other: both only read, still idempotent.
  D = checkInstance(K, launch({0x10000, 0x10000, 0x30000, 100}), ThreeBuffers.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;
}

// A kernel whose pair (a, c) the analysis proved as one buffer may be
// called with c == a (an out-of-place kernel called in place), but only
// where that is the launch's one coincidence.
TEST(InstanceCheck, AliasOkPairAllowsOneExactCoincidence) {
  KernelDescriptor K = vecAdd();
  K.AliasOk = {{0, 2}};
  InstanceDecision D =
      checkInstance(K, launch({0x10000, 0x20000, 0x10000, 100}), ThreeBuffers.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;
  // c == b: not the listed pair.
  D = checkInstance(K, launch({0x10000, 0x20000, 0x20000, 100}), ThreeBuffers.lookup());
  EXPECT_FALSE(D.Idempotent);
  // c == a + 4: overlapping, not one address.
  D = checkInstance(K, launch({0x10000, 0x20000, 0x10004, 100}), ThreeBuffers.lookup());
  EXPECT_FALSE(D.Idempotent);
  // a == b == c: more than one coincidence.
  D = checkInstance(K, launch({0x10000, 0x10000, 0x10000, 100}), ThreeBuffers.lookup());
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  // Null for both: no address to share.
  D = checkInstance(K, launch({0, 0x20000, 0, 100}), ThreeBuffers.lookup());
  EXPECT_FALSE(D.Idempotent);
}

TEST(InstanceCheck, PartialOverlapThroughOffsetPointer) {
  KernelDescriptor K = vecAdd();
  Heap One{{{0x10000, 4096}}};
  // c = a + 200 bytes, n = 100: c writes [a+200, a+600), a reads [a, a+400).
  InstanceDecision D =
      checkInstance(K, launch({0x10000, 0x10000 + 2048, 0x10000 + 200, 100}), One.lookup());
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->ReadIndex, 0);
  EXPECT_EQ(D.Clash->WriteIndex, 2);
  EXPECT_EQ(D.Clash->Range.Lo, 0x10000u + 200);
  EXPECT_EQ(D.Clash->Range.Hi, 0x10000u + 400);

  // c = a + 400: the half-open ranges only touch.
  D = checkInstance(K, launch({0x10000, 0x10000 + 2048, 0x10000 + 400, 100}), One.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;

  // c = a + 399: one byte overlaps.
  D = checkInstance(K, launch({0x10000, 0x10000 + 2048, 0x10000 + 399, 100}), One.lookup());
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->Range.Lo, 0x10000u + 399);
  EXPECT_EQ(D.Clash->Range.Hi, 0x10000u + 400);

  // c below a, overlapping a's first bytes.
  D = checkInstance(K, launch({0x10000 + 1000, 0x10000 + 3000, 0x10000 + 800, 100}), One.lookup());
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->Range.Lo, 0x10000u + 1000);
  EXPECT_EQ(D.Clash->Range.Hi, 0x10000u + 1200);
}

TEST(InstanceCheck, EmptyRegionsAreIdempotent) {
  KernelDescriptor K = vecAdd();
  // n = 0: nothing is read or written even though c aliases a.
  InstanceDecision D =
      checkInstance(K, launch({0x10000, 0x20000, 0x10000, 0}), ThreeBuffers.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;
  EXPECT_TRUE(D.Params[0].Read.empty());
  EXPECT_TRUE(D.Params[2].Write.empty());
  EXPECT_TRUE(D.Params[0].ReadExact);
  // Negative n: [0, -4n) is empty too.
  D = checkInstance(K, launch({0x10000, 0x20000, 0x10000, uint64_t(-5)}), ThreeBuffers.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;
}

TEST(InstanceCheck, ArgumentWidthDecidesTheValue) {
  KernelDescriptor K = vecAdd(); // n is i32
  // 0xffffffff is -1 as an i32: empty regions, idempotent despite aliasing.
  InstanceDecision D =
      checkInstance(K, launch({0x10000, 0x20000, 0x10000, 0xffffffffull}), ThreeBuffers.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;
  EXPECT_TRUE(D.Params[0].Read.empty());
  // High garbage bits above the i32 are ignored: n == 2.
  D = checkInstance(K, launch({0x10000, 0x20000, 0x10000, 0xabcd000000000002ull}),
                    ThreeBuffers.lookup());
  EXPECT_FALSE(D.Idempotent);
  ASSERT_EQ(D.Params[0].Read.size(), 1u);
  EXPECT_EQ(D.Params[0].Read[0].Hi, 0x10000u + 8);
  // As an i64 the bits 0xffffffff00000002 are negative: empty again.
  K.Params[3].Type = ScalarType::I64;
  D = checkInstance(K, launch({0x10000, 0x20000, 0x10000, 0xffffffff00000002ull}),
                    ThreeBuffers.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;
  EXPECT_TRUE(D.Params[0].ReadExact);
  // ... while as an i32 they are 2.
  K.Params[3].Type = ScalarType::I32;
  D = checkInstance(K, launch({0x10000, 0x20000, 0x10000, 0xffffffff00000002ull}),
                    ThreeBuffers.lookup());
  EXPECT_FALSE(D.Idempotent);
  // i8 / i16.
  K.Params[3].Type = ScalarType::I8;
  D = checkInstance(K, launch({0x10000, 0x20000, 0x10000, 0x1ff}), ThreeBuffers.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason; // -1
  D = checkInstance(K, launch({0x10000, 0x20000, 0x10000, 0x17f}), ThreeBuffers.lookup());
  EXPECT_FALSE(D.Idempotent); // 127
  ASSERT_EQ(D.Params[2].Write.size(), 1u);
  EXPECT_EQ(D.Params[2].Write[0].Hi, 0x10000u + 4 * 127);
  K.Params[3].Type = ScalarType::I16;
  D = checkInstance(K, launch({0x10000, 0x20000, 0x10000, 0x18000}), ThreeBuffers.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason; // -32768
}

TEST(InstanceCheck, RangesAreClippedToTheAllocation) {
  KernelDescriptor K = vecAdd();
  // a's allocation holds 40 bytes, c's allocation starts right after it.
  Heap H{{{0x10000, 40}, {0x10000 + 40, 400}, {0x20000, 400}}};
  InstanceDecision D =
      checkInstance(K, launch({0x10000, 0x20000, 0x10000 + 40, 100}), H.lookup());
  ASSERT_EQ(D.Params[0].Read.size(), 1u);
  EXPECT_EQ(D.Params[0].Read[0].Lo, 0x10000u);
  EXPECT_EQ(D.Params[0].Read[0].Hi, 0x10000u + 40); // not +400
  EXPECT_TRUE(D.Params[0].ReadExact);
  // Without clipping a's read would run into c's allocation.
  EXPECT_TRUE(D.Idempotent) << D.Reason;

  // A range entirely outside the allocation disappears.
  KernelDescriptor K2 = vecAdd();
  K2.Params[0].Read = bounded({{C(100), C(200)}, {C(-8), C(4)}});
  D = checkInstance(K2, launch({0x10000 + 16, 0x20000, 0x30000, 1}), H.lookup());
  ASSERT_EQ(D.Params[0].Read.size(), 1u);
  EXPECT_EQ(D.Params[0].Read[0].Lo, 0x10000u + 8);
  EXPECT_EQ(D.Params[0].Read[0].Hi, 0x10000u + 20);
}

TEST(InstanceCheck, LaunchDimensionsFeedTheBounds) {
  // grid-stride kernel: writes out[0, 4 * gridDim.x * blockDim.x), reads in
  // the same; out = in + 1024 bytes.
  KernelDescriptor K;
  K.Symbol = K.Name = K.PlainName = "copy";
  ExprRef Hi = Expr::mul({C(4), Expr::variable(Var::gridDim(0)), Expr::variable(Var::blockDim(0))});
  K.Params = {ptrParam("in", bounded({{C(0), Hi}}), AccessRegion()),
              ptrParam("out", AccessRegion(), bounded({{C(0), Hi}}))};
  Heap H{{{0x10000, 1 << 16}}};
  // 2 x 128 threads: 1024 bytes each, touching only.
  InstanceDecision D = checkInstance(K, launch({0x10000, 0x10000 + 1024}, 2, 128), H.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;
  // 4 x 128 threads: 2048 bytes, overlap.
  D = checkInstance(K, launch({0x10000, 0x10000 + 1024}, 4, 128), H.lookup());
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->Range.Lo, 0x10000u + 1024);
  EXPECT_EQ(D.Clash->Range.Hi, 0x10000u + 2048);
}

TEST(InstanceCheck, MissingArgBitsAreZero) {
  KernelDescriptor K = vecAdd();
  // Only the pointers given: n defaults to 0, so nothing is accessed.
  InstanceDecision D = checkInstance(K, launch({0x10000, 0x20000, 0x10000}), ThreeBuffers.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;
  EXPECT_EQ(D.Params.size(), 4u);
}

} // namespace

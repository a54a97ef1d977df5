//===- InstanceCheckTest.cpp - per-launch idempotence decisions -----------===//
//
// Descriptors are built by hand; allocations come from a small table.
//
//===----------------------------------------------------------------------===//

#include "gmem/compiler/InstanceCheck.h"
#include "Builders.h"

#include "gtest/gtest.h"

#include <climits>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace gmem;
using namespace gmem::test;

namespace {


ParamInfo ptrParam(std::string Name, AccessRegion Read, AccessRegion Write) {
  ParamInfo P;
  P.Name = std::move(Name);
  P.Type = ScalarType::Ptr;
  P.IsPointer = true;
  P.Read = std::move(Read);
  P.Write = std::move(Write);
  return P;
}

ParamInfo scalarParam(std::string Name, ScalarType T) {
  ParamInfo P;
  P.Name = std::move(Name);
  P.Type = T;
  return P;
}

/// vecadd(const float *a, const float *b, float *c, int n):
///   reads a, b in [0, 4n), writes c in [0, 4n).
KernelDescriptor vecAdd() {
  KernelDescriptor K;
  K.Symbol = "_Z6vecaddPKfS0_Pfi";
  K.Name = K.PlainName = "vecadd";
  K.Target = "nvptx";
  K.Class = IdempotenceClass::Conditional;
  ExprRef Hi = Expr::mul(C(4), A(3));
  K.Params = {ptrParam("a", bounded({{C(0), Hi}}), AccessRegion()),
              ptrParam("b", bounded({{C(0), Hi}}), AccessRegion()),
              ptrParam("c", AccessRegion(), bounded({{C(0), Hi}})),
              scalarParam("n", ScalarType::I32)};
  return K;
}

/// A table of allocations.
struct Heap {
  std::vector<Allocation> Allocs;
  AllocationLookup lookup() const {
    return [this](uint64_t P) -> std::optional<Allocation> {
      for (const Allocation &A : Allocs)
        if (P >= A.Base && P < A.end())
          return A;
      return std::nullopt;
    };
  }
};

LaunchConfig launch(std::vector<uint64_t> Args, int64_t Grid = 4, int64_t Block = 128) {
  LaunchConfig L;
  L.Grid[0] = Grid;
  L.Block[0] = Block;
  L.ArgBits = std::move(Args);
  return L;
}

const Heap ThreeBuffers{{{0x10000, 4096}, {0x20000, 4096}, {0x30000, 4096}}};

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

//===----------------------------------------------------------------------===//
// Widened regions
//===----------------------------------------------------------------------===//

TEST(InstanceCheck, AllocationRegionIsTheWholeAllocation) {
  KernelDescriptor K = vecAdd();
  K.Params[2].Write = widened(RegionKind::Allocation, "indirect store");
  // c points into the middle of its allocation: the whole allocation counts.
  InstanceDecision D =
      checkInstance(K, launch({0x10000, 0x20000, 0x30000 + 100, 100}), ThreeBuffers.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;
  ASSERT_EQ(D.Params[2].Write.size(), 1u);
  EXPECT_EQ(D.Params[2].Write[0].Lo, 0x30000u);
  EXPECT_EQ(D.Params[2].Write[0].Hi, 0x30000u + 4096);
  EXPECT_FALSE(D.Params[2].WriteExact);
  EXPECT_FALSE(D.Params[2].WriteAnything);

  // a reads the end of the allocation c's write covers (a is past the
  // bounded range c would have had): conflict.
  Heap One{{{0x10000, 4096}}};
  D = checkInstance(K, launch({0x10000 + 2000, 0x10000 + 3000, 0x10000, 100}), One.lookup());
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->WriteIndex, 2);
  EXPECT_EQ(D.Clash->ReadIndex, 0);
  EXPECT_EQ(D.Clash->Range.Lo, 0x10000u + 2000);
  EXPECT_EQ(D.Clash->Range.Hi, 0x10000u + 2400);
}

TEST(InstanceCheck, PointerInNoAllocation) {
  KernelDescriptor K = vecAdd();
  K.Params[2].Write = widened(RegionKind::Allocation, "indirect store");
  // c is not in any known allocation: its write may be anywhere.
  InstanceDecision D =
      checkInstance(K, launch({0x10000, 0x20000, 0x90000, 100}), ThreeBuffers.lookup());
  EXPECT_FALSE(D.Idempotent);
  EXPECT_TRUE(D.Params[2].WriteAnything);
  EXPECT_FALSE(D.Params[2].Alloc.has_value());
  EXPECT_NE(D.Params[2].Note.find("no known allocation"), std::string::npos) << D.Params[2].Note;
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->WriteIndex, 2);
  EXPECT_EQ(D.Clash->Range.Lo, 0u);
  EXPECT_EQ(D.Clash->Range.Hi, UINT64_MAX);
  EXPECT_NE(D.Reason.find("cannot bound"), std::string::npos) << D.Reason;

  // No lookup at all behaves the same.
  D = checkInstance(K, launch({0x10000, 0x20000, 0x30000, 100}), nullptr);
  EXPECT_FALSE(D.Idempotent);
  EXPECT_TRUE(D.Params[2].WriteAnything);

  // A bounded region in no allocation keeps its exact (unclipped) ranges.
  KernelDescriptor B = vecAdd();
  D = checkInstance(B, launch({0x90000, 0xa0000, 0xb0000, 100}), ThreeBuffers.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;
  ASSERT_EQ(D.Params[2].Write.size(), 1u);
  EXPECT_EQ(D.Params[2].Write[0].Lo, 0xb0000u);
  EXPECT_EQ(D.Params[2].Write[0].Hi, 0xb0000u + 400);
  EXPECT_FALSE(D.Params[2].WriteAnything);
}

TEST(InstanceCheck, FailedRangeCheckWidensToAllocation) {
  KernelDescriptor K = vecAdd();
  // a's bound is exact only while n <= 1000.
  K.Params[0].Read.Checks = {{A(3), 0, 1000}};
  // n = 500: exact.
  InstanceDecision D =
      checkInstance(K, launch({0x10000, 0x20000, 0x30000, 500}), ThreeBuffers.lookup());
  EXPECT_TRUE(D.Params[0].ReadExact);
  ASSERT_EQ(D.Params[0].Read.size(), 1u);
  EXPECT_EQ(D.Params[0].Read[0].Hi, 0x10000u + 2000);
  EXPECT_TRUE(D.Params[0].Note.empty());
  // n = 2000: check fails, whole allocation, and the note says why.
  D = checkInstance(K, launch({0x10000, 0x20000, 0x30000, 2000}), ThreeBuffers.lookup());
  EXPECT_FALSE(D.Params[0].ReadExact);
  ASSERT_EQ(D.Params[0].Read.size(), 1u);
  EXPECT_EQ(D.Params[0].Read[0].Lo, 0x10000u);
  EXPECT_EQ(D.Params[0].Read[0].Hi, 0x10000u + 4096);
  EXPECT_NE(D.Params[0].Note.find("no-wrap check"), std::string::npos) << D.Params[0].Note;
  EXPECT_NE(D.Params[0].Note.find("n"), std::string::npos) << D.Params[0].Note;
  EXPECT_NE(D.Params[0].Note.find("2000"), std::string::npos) << D.Params[0].Note;
  EXPECT_TRUE(D.Idempotent) << D.Reason; // separate allocations still

  // Widening can create a conflict: c writes the tail of a's allocation,
  // beyond a's symbolic range [0, 4n) at n = 2000... clipped to 4096 anyway.
  // Use a check below the actual n instead and put c past a's range.
  K.Params[0].Read.Checks = {{A(3), 0, 10}};
  Heap One{{{0x10000, 4096}}};
  // n = 100: a reads [a, a+400) if exact; c writes [a+2048, a+2448).
  D = checkInstance(K, launch({0x10000, 0x10000, 0x10000 + 2048, 100}), One.lookup());
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->ReadIndex, 0); // a (widened), not b
  EXPECT_EQ(D.Clash->Range.Lo, 0x10000u + 2048);
  EXPECT_EQ(D.Clash->Range.Hi, 0x10000u + 2448);
  // Same launch with the check holding is idempotent.
  K.Params[0].Read.Checks = {{A(3), 0, 1000}};
  D = checkInstance(K, launch({0x10000, 0x10000, 0x10000 + 2048, 100}), One.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;
}

TEST(InstanceCheck, FailedRangeCheckWithoutAllocationIsAnything) {
  KernelDescriptor K = vecAdd();
  K.Params[0].Read.Checks = {{A(3), 0, 10}};
  InstanceDecision D =
      checkInstance(K, launch({0x90000, 0x20000, 0x30000, 100}), ThreeBuffers.lookup());
  EXPECT_TRUE(D.Params[0].ReadAnything);
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->ReadIndex, 0);
  EXPECT_EQ(D.Clash->WriteIndex, 2);
  // The first reason (the check) is the note.
  EXPECT_NE(D.Params[0].Note.find("no-wrap check"), std::string::npos) << D.Params[0].Note;
}

TEST(InstanceCheck, OverflowingBoundWidens) {
  KernelDescriptor K = vecAdd();
  // Hi = n * n * n * 2^40 overflows for n = 100000.
  K.Params[2].Write =
      bounded({{C(0), Expr::mul({A(3), A(3), A(3), C(int64_t(1) << 40)})}});
  K.Params[3].Type = ScalarType::I64;
  InstanceDecision D =
      checkInstance(K, launch({0x10000, 0x20000, 0x30000, 100000}), ThreeBuffers.lookup());
  EXPECT_FALSE(D.Params[2].WriteExact);
  ASSERT_EQ(D.Params[2].Write.size(), 1u);
  EXPECT_EQ(D.Params[2].Write[0].Lo, 0x30000u);
  EXPECT_EQ(D.Params[2].Write[0].Hi, 0x30000u + 4096);
  EXPECT_NE(D.Params[2].Note.find("overflow"), std::string::npos) << D.Params[2].Note;
  EXPECT_TRUE(D.Idempotent) << D.Reason;
  // A check whose value overflows fails too.
  K = vecAdd();
  K.Params[3].Type = ScalarType::I64;
  K.Params[0].Read.Checks = {{Expr::mul(A(3), C(int64_t(1) << 62)), INT64_MIN, INT64_MAX}};
  D = checkInstance(K, launch({0x10000, 0x20000, 0x30000, 100}), ThreeBuffers.lookup());
  EXPECT_FALSE(D.Params[0].ReadExact);
  EXPECT_NE(D.Params[0].Note.find("overflows"), std::string::npos) << D.Params[0].Note;
}

TEST(InstanceCheck, RegionWrappingTheAddressSpaceWidens) {
  KernelDescriptor K = vecAdd();
  K.Params[0].Read = bounded({{C(-0x20000), C(16)}});
  Heap Low{{{0x100, 0x1000}, {0x20000, 4096}, {0x30000, 4096}}};
  InstanceDecision D = checkInstance(K, launch({0x100, 0x20000, 0x30000, 4}), Low.lookup());
  EXPECT_FALSE(D.Params[0].ReadExact);
  ASSERT_EQ(D.Params[0].Read.size(), 1u);
  EXPECT_EQ(D.Params[0].Read[0].Lo, 0x100u);
  EXPECT_EQ(D.Params[0].Read[0].Hi, 0x1100u);
  EXPECT_NE(D.Params[0].Note.find("wraps"), std::string::npos) << D.Params[0].Note;
  // A negative lo that does not wrap is fine (and clipped).
  K.Params[0].Read = bounded({{C(-0x80), C(16)}});
  D = checkInstance(K, launch({0x200, 0x20000, 0x30000, 4}), Low.lookup());
  EXPECT_TRUE(D.Params[0].ReadExact);
  ASSERT_EQ(D.Params[0].Read.size(), 1u);
  EXPECT_EQ(D.Params[0].Read[0].Lo, 0x180u);
  EXPECT_EQ(D.Params[0].Read[0].Hi, 0x210u);
}

//===----------------------------------------------------------------------===//
// Same-parameter read/write
//===----------------------------------------------------------------------===//

/// inplace(float *p, int n): reads even elements [0, 8n) and writes odd ones
/// [4, 8n + 4); the hulls overlap, the element sets do not.
KernelDescriptor interleaved(bool Proven) {
  KernelDescriptor K;
  K.Symbol = K.Name = K.PlainName = "interleaved";
  ExprRef N8 = Expr::mul(C(8), A(1));
  ParamInfo P = ptrParam("p", bounded({{C(0), N8}}), bounded({{C(4), Expr::add(N8, C(4))}}));
  P.RWDisjoint = Proven;
  P.DisjointChecks = {{A(1), 0, 1000}};
  K.Params = {P, scalarParam("n", ScalarType::I32)};
  return K;
}

TEST(InstanceCheck, RWDisjointExemptsTheParameter) {
  Heap H{{{0x10000, 1 << 20}}};
  InstanceDecision D = checkInstance(interleaved(true), launch({0x10000, 100}), H.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;
  EXPECT_TRUE(D.Params[0].ReadExact);
  EXPECT_TRUE(D.Params[0].WriteExact);

  // Not proven: the hulls overlap.
  D = checkInstance(interleaved(false), launch({0x10000, 100}), H.lookup());
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->ReadIndex, 0);
  EXPECT_EQ(D.Clash->WriteIndex, 0);
  EXPECT_EQ(D.Clash->Range.Lo, 0x10004u);
  EXPECT_EQ(D.Clash->Range.Hi, 0x10000u + 800);
  EXPECT_EQ(D.Reason, "write of p overlaps read of p");

  // Proven, but this launch fails the disjointness check.
  D = checkInstance(interleaved(true), launch({0x10000, 5000}), H.lookup());
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->ReadIndex, 0);
  EXPECT_EQ(D.Clash->WriteIndex, 0);
}

TEST(InstanceCheck, RWDisjointIgnoredForAtomics) {
  // An atomic access reads and writes the same bytes: a (contradictory)
  // disjointness flag must not exempt it.
  Heap H{{{0x10000, 1 << 20}}};
  KernelDescriptor K = interleaved(true);
  K.Params[0].Atomic = true;
  InstanceDecision D = checkInstance(K, launch({0x10000, 100}), H.lookup());
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->ReadIndex, 0);
  EXPECT_EQ(D.Clash->WriteIndex, 0);
}

TEST(InstanceCheck, RWDisjointNeedsExactRegions) {
  Heap H{{{0x10000, 1 << 20}}};
  KernelDescriptor K = interleaved(true);
  // The read region's own check fails: widened, so no exemption.
  K.Params[0].Read.Checks = {{A(1), 0, 50}};
  InstanceDecision D = checkInstance(K, launch({0x10000, 100}), H.lookup());
  EXPECT_FALSE(D.Params[0].ReadExact);
  EXPECT_FALSE(D.Idempotent);
  // An allocation-kind write is never exact either.
  K = interleaved(true);
  K.Params[0].Write = widened(RegionKind::Allocation, "scatter");
  D = checkInstance(K, launch({0x10000, 100}), H.lookup());
  EXPECT_FALSE(D.Idempotent);
}

TEST(InstanceCheck, RWDisjointDoesNotCoverOtherAliases) {
  // q aliases p and writes what p reads: a different owner, not exempt.
  Heap H{{{0x10000, 1 << 20}}};
  KernelDescriptor K = interleaved(true);
  K.Params.push_back(ptrParam("q", AccessRegion(), bounded({{C(0), C(4)}})));
  InstanceDecision D = checkInstance(K, launch({0x10000, 100, 0x10000}), H.lookup());
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->WriteIndex, 2);
  EXPECT_EQ(D.Clash->ReadIndex, 0);
}

//===----------------------------------------------------------------------===//
// Unknown memory and globals
//===----------------------------------------------------------------------===//

TEST(InstanceCheck, UnknownWriteIsNotIdempotent) {
  KernelDescriptor K = vecAdd();
  K.UnknownWrite = widened(RegionKind::Anything, "store through loaded pointer");
  InstanceDecision D =
      checkInstance(K, launch({0x10000, 0x20000, 0x30000, 100}), ThreeBuffers.lookup());
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->WriteIndex, INT_MIN);
  EXPECT_EQ(D.Clash->Range.Lo, 0u);
  EXPECT_EQ(D.Clash->Range.Hi, UINT64_MAX);
  EXPECT_NE(D.Reason.find("unknown memory"), std::string::npos) << D.Reason;

  // Unknown read against a bounded write.
  K = vecAdd();
  K.UnknownRead = widened(RegionKind::Anything, "load through loaded pointer");
  D = checkInstance(K, launch({0x10000, 0x20000, 0x30000, 100}), ThreeBuffers.lookup());
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->ReadIndex, INT_MIN);
  EXPECT_EQ(D.Clash->WriteIndex, 2);

  // Unknown read, but nothing is written at this launch (n = 0).
  D = checkInstance(K, launch({0x10000, 0x20000, 0x30000, 0}), ThreeBuffers.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;

  // An unknown write with no read anywhere: nothing read can change.
  KernelDescriptor W;
  W.Params = {ptrParam("out", AccessRegion(), bounded({{C(0), C(64)}}))};
  W.UnknownWrite = widened(RegionKind::Anything, "scatter");
  D = checkInstance(W, launch({0x10000}), ThreeBuffers.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;
}

/// lut(float *out): reads global g_lut [0, 256), writes out [0, 64).
KernelDescriptor withGlobal() {
  KernelDescriptor K;
  K.Symbol = K.Name = K.PlainName = "lut";
  K.Params = {ptrParam("out", AccessRegion(), bounded({{C(0), C(64)}}))};
  ParamInfo G = ptrParam("g_lut", bounded({{C(0), C(256)}}), AccessRegion());
  K.Globals = {G};
  return K;
}

TEST(InstanceCheck, UnresolvedGlobalIsDistinctObject) {
  KernelDescriptor K = withGlobal();
  // No global lookup: the global is its own object; out cannot overlap it.
  // (out's address happens to be the numeric value of the global's relative
  // range, which must not matter.)
  Heap H{{{0, 4096}}};
  InstanceDecision D = checkInstance(K, launch({0}), H.lookup());
  EXPECT_TRUE(D.Idempotent) << D.Reason;
  ASSERT_EQ(D.Globals.size(), 1u);
  EXPECT_FALSE(D.Globals[0].Alloc.has_value());
  ASSERT_EQ(D.Globals[0].Read.size(), 1u);
  EXPECT_EQ(D.Globals[0].Read[0].Lo, 0u);
  EXPECT_EQ(D.Globals[0].Read[0].Hi, 256u);
  EXPECT_TRUE(D.Globals[0].ReadExact);

  // Lookup present but the symbol unknown: same.
  GlobalLookup None = [](const std::string &) -> std::optional<Allocation> {
    return std::nullopt;
  };
  D = checkInstance(K, launch({0}), H.lookup(), None);
  EXPECT_TRUE(D.Idempotent) << D.Reason;
}

TEST(InstanceCheck, ResolvedGlobalIsComparedByAddress) {
  KernelDescriptor K = withGlobal();
  Heap H{{{0x10000, 4096}}};
  std::map<std::string, Allocation> Syms{{"g_lut", {0x50000, 1024}}};
  GlobalLookup Find = [&](const std::string &S) -> std::optional<Allocation> {
    auto It = Syms.find(S);
    if (It == Syms.end())
      return std::nullopt;
    return It->second;
  };
  // Global elsewhere: idempotent, absolute ranges.
  InstanceDecision D = checkInstance(K, launch({0x10000}), H.lookup(), Find);
  EXPECT_TRUE(D.Idempotent) << D.Reason;
  ASSERT_TRUE(D.Globals[0].Alloc.has_value());
  ASSERT_EQ(D.Globals[0].Read.size(), 1u);
  EXPECT_EQ(D.Globals[0].Read[0].Lo, 0x50000u);
  EXPECT_EQ(D.Globals[0].Read[0].Hi, 0x50000u + 256);

  // out points into the global (e.g. its address was passed in).
  D = checkInstance(K, launch({0x50000 + 200}), H.lookup(), Find);
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->ReadIndex, -1);
  EXPECT_EQ(D.Clash->WriteIndex, 0);
  EXPECT_EQ(D.Clash->Range.Lo, 0x50000u + 200);
  EXPECT_EQ(D.Clash->Range.Hi, 0x50000u + 256);
  EXPECT_NE(D.Reason.find("g_lut"), std::string::npos) << D.Reason;

  // Global range clipped to the global's size.
  Syms["g_lut"] = {0x50000, 100};
  D = checkInstance(K, launch({0x10000}), H.lookup(), Find);
  ASSERT_EQ(D.Globals[0].Read.size(), 1u);
  EXPECT_EQ(D.Globals[0].Read[0].Hi, 0x50000u + 100);
}

TEST(InstanceCheck, GlobalReadAndWrittenByItself) {
  KernelDescriptor K;
  K.Symbol = K.Name = K.PlainName = "bump";
  ParamInfo G = ptrParam("g_state", bounded({{C(0), C(8)}}), bounded({{C(4), C(12)}}));
  ParamInfo G2 = ptrParam("g_other", AccessRegion(), bounded({{C(0), C(8)}}));
  K.Globals = {G, G2};
  // Unresolved: still overlaps itself.
  InstanceDecision D = checkInstance(K, launch({}), nullptr);
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->ReadIndex, -1);
  EXPECT_EQ(D.Clash->WriteIndex, -1);
  EXPECT_EQ(D.Clash->Range.Lo, 4u);
  EXPECT_EQ(D.Clash->Range.Hi, 8u);

  // Proven disjoint (and the check holds): exempt, and g_other, a different
  // unresolved global, does not overlap g_state's relative range.
  K.Globals[0].RWDisjoint = true;
  D = checkInstance(K, launch({}), nullptr);
  EXPECT_TRUE(D.Idempotent) << D.Reason;
  // Proven, but the disjointness check fails at this launch.
  K.Globals[0].DisjointChecks = {{Expr::variable(Var::gridDim(0)), 1, 2}};
  D = checkInstance(K, launch({}, /*Grid=*/8), nullptr);
  EXPECT_FALSE(D.Idempotent);
  D = checkInstance(K, launch({}, /*Grid=*/2), nullptr);
  EXPECT_TRUE(D.Idempotent) << D.Reason;
}

TEST(InstanceCheck, TwoGlobalsResolvedToOverlappingAddresses) {
  KernelDescriptor K;
  K.Symbol = K.Name = K.PlainName = "two";
  K.Globals = {ptrParam("g_a", bounded({{C(0), C(16)}}), AccessRegion()),
               ptrParam("g_b", AccessRegion(), bounded({{C(0), C(16)}}))};
  GlobalLookup Same = [](const std::string &) -> std::optional<Allocation> {
    return Allocation{0x70000, 64};
  };
  InstanceDecision D = checkInstance(K, launch({}), nullptr, Same);
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(D.Clash->ReadIndex, -1);
  EXPECT_EQ(D.Clash->WriteIndex, -2);
  // Unresolved, they are distinct.
  D = checkInstance(K, launch({}), nullptr);
  EXPECT_TRUE(D.Idempotent) << D.Reason;
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

//===----------------------------------------------------------------------===//
// By-value aggregate parameters: integer fields as variables, pointer fields
// as access targets (descriptor v2).
//===----------------------------------------------------------------------===//

namespace {
// struct { const float *x; float *y; int n; } passed by value as param 0.
gmem::KernelDescriptor structAxpy() {
  using namespace gmem;
  KernelDescriptor K;
  K.Symbol = "axpy_struct";
  ParamInfo P;
  P.Name = "p";
  P.Type = ScalarType::Other;
  P.ByteSize = 24;
  K.Params.push_back(P);
  ExprRef N = Expr::variable(Var::argField(0, 16, 4));
  auto Field = [&](const char *Name, unsigned Off, bool Write) {
    ParamInfo F;
    F.Name = Name;
    F.Type = ScalarType::Ptr;
    F.IsPointer = true;
    F.FieldParam = 0;
    F.FieldOffset = Off;
    AccessRegion R;
    R.Kind = RegionKind::Bounded;
    R.Ranges.push_back({Expr::constant(0), Expr::mul(Expr::constant(4), N)});
    (Write ? F.Write : F.Read) = R;
    return F;
  };
  K.Fields.push_back(Field("p+0", 0, false));
  K.Fields.push_back(Field("p+8", 8, true));
  return K;
}

std::vector<uint8_t> structBytes(uint64_t X, uint64_t Y, int32_t N) {
  std::vector<uint8_t> B(24, 0);
  for (int I = 0; I < 8; ++I) {
    B[I] = uint8_t(X >> (8 * I));
    B[8 + I] = uint8_t(Y >> (8 * I));
  }
  for (int I = 0; I < 4; ++I)
    B[16 + I] = uint8_t(uint32_t(N) >> (8 * I));
  return B;
}
} // namespace

TEST(InstanceCheckFields, ArgFieldReadsSignExtendedLittleEndian) {
  using namespace gmem;
  std::vector<std::vector<uint8_t>> Bytes{structBytes(0, 0, -7)};
  LaunchValues L;
  L.ArgBytes = &Bytes;
  EXPECT_EQ(evaluate(*Expr::variable(Var::argField(0, 16, 4)), L), -7);
  EXPECT_EQ(evaluate(*Expr::variable(Var::argField(0, 16, 2)), L), -7);
  EXPECT_EQ(evaluate(*Expr::variable(Var::argField(0, 22, 4)), L), std::nullopt); // past the end
  EXPECT_EQ(evaluate(*Expr::variable(Var::argField(1, 0, 4)), L), std::nullopt);  // no such param
  Var V = Var::argField(3, 1000, 8);
  EXPECT_EQ(V.fieldParam(), 3u);
  EXPECT_EQ(V.fieldOffset(), 1000u);
  EXPECT_EQ(V.fieldBytes(), 8u);
}

TEST(InstanceCheckFields, PointerFieldsResolveThroughTheStructBytes) {
  using namespace gmem;
  KernelDescriptor K = structAxpy();
  auto Find = [](uint64_t P) -> std::optional<Allocation> {
    if (P >= 0x1000 && P < 0x3000)
      return Allocation{0x1000, 0x2000};
    if (P >= 0x8000 && P < 0x9000)
      return Allocation{0x8000, 0x1000};
    return std::nullopt;
  };
  LaunchConfig L;
  L.ArgBits = {0};
  L.ArgBytes = {structBytes(0x1000, 0x8000, 100)};
  InstanceDecision D = checkInstance(K, L, Find);
  EXPECT_TRUE(D.Idempotent) << D.Reason;
  ASSERT_EQ(D.Fields.size(), 2u);
  ASSERT_EQ(D.Fields[1].Write.size(), 1u);
  EXPECT_EQ(D.Fields[1].Write[0].Lo, 0x8000u);
  EXPECT_EQ(D.Fields[1].Write[0].Hi, 0x8000u + 400);
  // y aliases x shifted by 16 bytes: a conflict naming both fields.
  L.ArgBytes = {structBytes(0x1000, 0x1010, 100)};
  D = checkInstance(K, L, Find);
  EXPECT_FALSE(D.Idempotent);
  ASSERT_TRUE(D.Clash.has_value());
  EXPECT_EQ(accessOwnerName(K, D.Clash->WriteIndex), "p+8");
  EXPECT_EQ(accessOwnerName(K, D.Clash->ReadIndex), "p+0");
}

TEST(InstanceCheckFields, MissingStructBytesMeanAnything) {
  using namespace gmem;
  KernelDescriptor K = structAxpy();
  LaunchConfig L;
  L.ArgBits = {0}; // no ArgBytes: the pointers cannot be known
  InstanceDecision D = checkInstance(K, L, nullptr);
  EXPECT_FALSE(D.Idempotent);
}

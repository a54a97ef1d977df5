//===- InstanceCheckGlobalsTest.cpp - unknown memory, globals, fields ----===//
//
// Per-launch idempotence decisions for accesses that are not through a
// plain pointer parameter: unknown memory, module globals (resolved or
// not) and pointer fields of by-value aggregate parameters. Descriptors are
// built by hand; allocations come from a small table.
//
//===----------------------------------------------------------------------===//

#include "gmem/compiler/InstanceCheck.h"
#include "Builders.h"
#include "InstanceCheckHelpers.h"

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

//===- DescriptorCodecTest.cpp - binary descriptor encode/decode ----------===//
//
// Round trip of a rich descriptor and the header layout of
// include/gmem/descriptor_abi.h. The decoder against malformed input is in
// DescriptorCodecErrorsTest.cpp (shared helpers: DescriptorCodecHelpers.h).
//
//===----------------------------------------------------------------------===//

#include "gmem/compiler/DescriptorCodec.h"
#include "Builders.h"
#include "gmem/descriptor_abi.h"
#include "DescriptorCodecHelpers.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <string>
#include <vector>

using namespace gmem;
using namespace gmem::test;

namespace {

//===----------------------------------------------------------------------===//
// Round trip and layout
//===----------------------------------------------------------------------===//

TEST(DescriptorCodec, RoundTripRichDescriptor) {
  KernelDescriptor K = richDescriptor();
  std::vector<uint8_t> Blob = encodeDescriptor(K);
  KernelDescriptor D;
  std::string Err;
  ASSERT_TRUE(decodeExact(Blob, D, &Err)) << Err;
  expectSameDescriptor(K, D);
  // Raw structure is preserved exactly (no re-simplification on decode).
  ASSERT_EQ(D.UnknownWrite.Ranges.size(), 1u);
  EXPECT_EQ(D.UnknownWrite.Ranges[0].Lo->str(), "(add 3 arg0 -3)");
  // Re-encoding the decoded descriptor gives the same bytes.
  EXPECT_EQ(encodeDescriptor(D), Blob);
}

TEST(DescriptorCodec, RoundTripEmptyDescriptor) {
  KernelDescriptor K;
  std::vector<uint8_t> Blob = encodeDescriptor(K);
  KernelDescriptor D;
  D.Symbol = "junk";
  D.Params.resize(3);
  std::string Err;
  ASSERT_TRUE(decodeExact(Blob, D, &Err)) << Err;
  expectSameDescriptor(K, D);
  EXPECT_TRUE(D.Params.empty());
  EXPECT_EQ(D.Class, IdempotenceClass::Unknown);
}

TEST(DescriptorCodec, RoundTripExtremeConstantsAndVars) {
  KernelDescriptor K;
  ParamInfo P;
  P.Name = "p";
  P.Type = ScalarType::Ptr;
  P.IsPointer = true;
  std::vector<int64_t> Values = {0, 1, -1, 63, 64, -64, -65, 127, 128, -128, 8191, -8193,
                                 I64Max, I64Min, I64Max - 1, I64Min + 1, int64_t(1) << 62,
                                 -(int64_t(1) << 62), int64_t(1) << 56, -(int64_t(1) << 56)};
  P.Read.Kind = RegionKind::Bounded;
  for (int64_t V : Values)
    P.Read.Ranges.push_back({C(V), Expr::raw(ExprOp::Add, 0, {C(V), C(V == I64Min ? 0 : -V)})});
  for (int64_t V : Values)
    P.Read.Checks.push_back({Expr::variable(Var::arg(0xffffff)), V, ~V});
  P.Write.Kind = RegionKind::Bounded;
  P.Write.Ranges.push_back({Expr::variable(Var::gridDim(2)), Expr::variable(Var::blockDim(2))});
  K.Params = {P};
  std::vector<uint8_t> Blob = encodeDescriptor(K);
  KernelDescriptor D;
  std::string Err;
  ASSERT_TRUE(decodeExact(Blob, D, &Err)) << Err;
  expectSameDescriptor(K, D);
  ASSERT_EQ(D.Params.size(), 1u);
  for (size_t I = 0; I < Values.size(); ++I) {
    EXPECT_TRUE(D.Params[0].Read.Ranges[I].Lo->isConst(Values[I])) << Values[I];
    EXPECT_EQ(D.Params[0].Read.Checks[I].Min, Values[I]);
  }
  EXPECT_TRUE(D.Params[0].Read.Checks[0].Value->var() == Var::arg(0xffffff));
}

TEST(DescriptorCodec, HeaderLayout) {
  KernelDescriptor K = richDescriptor();
  std::vector<uint8_t> Blob = encodeDescriptor(K);
  ASSERT_GE(Blob.size(), GMEM_DESC_HEADER_SIZE);
  EXPECT_EQ(Blob[0], 'G');
  EXPECT_EQ(Blob[1], 'M');
  EXPECT_EQ(Blob[2], 'D');
  EXPECT_EQ(Blob[3], '1');
  EXPECT_EQ(Blob[4] | Blob[5] << 8, int(GMEM_DESC_VERSION));
  // richDescriptor lists alias pairs (flag bit 1) and no variants (bit 0).
  EXPECT_EQ(Blob[6] | Blob[7] << 8, int(GMEM_DESC_FLAG_ALIAS_OK));
  uint32_t Payload = uint32_t(Blob[8]) | uint32_t(Blob[9]) << 8 | uint32_t(Blob[10]) << 16 |
                     uint32_t(Blob[11]) << 24;
  EXPECT_EQ(Payload, Blob.size() - GMEM_DESC_HEADER_SIZE);
  // The payload starts with the symbol as a length-prefixed string.
  EXPECT_EQ(Blob[12], K.Symbol.size());
  EXPECT_EQ(std::string(Blob.begin() + 13, Blob.begin() + 13 + K.Symbol.size()), K.Symbol);
}

TEST(DescriptorCodec, HandCraftedBlobDecodes) {
  // Validates the decoder against the documented format, not just against
  // our own encoder.
  Bytes Lo;
  Lo.u8(GMEM_EXPR_MUL).uleb(2).u8(GMEM_EXPR_CONST).sleb(-4).u8(GMEM_EXPR_VAR).uleb((2u << 24) | 3);
  std::vector<uint8_t> Blob = wrap(payloadWithReadLo(Lo.B));
  KernelDescriptor D;
  std::string Err;
  ASSERT_TRUE(decodeExact(Blob, D, &Err)) << Err;
  EXPECT_EQ(D.Symbol, "sym");
  EXPECT_EQ(D.Name, "name");
  EXPECT_EQ(D.PlainName, "plain");
  EXPECT_EQ(D.Target, "nvptx");
  EXPECT_EQ(D.Class, IdempotenceClass::Idempotent);
  EXPECT_EQ(D.ClassReason, "why");
  ASSERT_EQ(D.Params.size(), 1u);
  EXPECT_EQ(D.Params[0].Name, "p");
  EXPECT_TRUE(D.Params[0].IsPointer);
  EXPECT_FALSE(D.Params[0].Atomic);
  ASSERT_EQ(D.Params[0].Read.Kind, RegionKind::Bounded);
  ASSERT_EQ(D.Params[0].Read.Ranges.size(), 1u);
  EXPECT_EQ(D.Params[0].Read.Ranges[0].Lo->str(), "(mul -4 arg3)");
  EXPECT_TRUE(D.Params[0].Read.Ranges[0].Hi->isConst(16));
  EXPECT_EQ(D.Params[0].Write.Kind, RegionKind::Empty);
  // And our encoder produces the very same bytes for it.
  EXPECT_EQ(encodeDescriptor(D), Blob);
}

} // namespace

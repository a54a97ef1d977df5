//===- DescriptorCodecErrorsTest.cpp - decoding malformed descriptors ----===//
//
// Robustness of the decoder against malformed input (every truncation, bad
// fields, absurd counts, deep nesting, and a random-mutation smoke test),
// and malformed raw nodes through encode, decode and evaluation.
//
//===----------------------------------------------------------------------===//

#include "gmem/compiler/DescriptorCodec.h"
#include "Builders.h"
#include "gmem/descriptor_abi.h"
#include "DescriptorCodecHelpers.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

using namespace gmem;
using namespace gmem::test;

namespace {

::testing::AssertionResult Rejects(const std::vector<uint8_t> &Blob, const std::string &Fragment) {
  KernelDescriptor K;
  K.Symbol = "untouched";
  std::string Err;
  if (decodeExact(Blob, K, &Err))
    return ::testing::AssertionFailure() << "decoded a malformed blob";
  if (Err.empty())
    return ::testing::AssertionFailure() << "no error message";
  if (Err.find(Fragment) == std::string::npos)
    return ::testing::AssertionFailure() << "error '" << Err << "' lacks '" << Fragment << "'";
  if (K.Symbol != "untouched")
    return ::testing::AssertionFailure() << "output modified on failure";
  return ::testing::AssertionSuccess();
}

//===----------------------------------------------------------------------===//
// Malformed input
//===----------------------------------------------------------------------===//

TEST(DescriptorCodecErrors, BadHeader) {
  std::vector<uint8_t> Good = encodeDescriptor(richDescriptor());
  {
    auto B = Good;
    B[0] = 'X';
    EXPECT_TRUE(Rejects(B, "magic"));
  }
  {
    auto B = Good;
    B[4] = 3; // version 3
    EXPECT_TRUE(Rejects(B, "version 3"));
  }
  {
    auto B = Good;
    B[4] = 0;
    EXPECT_TRUE(Rejects(B, "version 0"));
  }
  {
    auto B = Good;
    B[6] = 4; // reserved flags
    EXPECT_TRUE(Rejects(B, "flags"));
  }
  KernelDescriptor Bare = richDescriptor();
  Bare.AliasOk.clear();
  const std::vector<uint8_t> Plain = encodeDescriptor(Bare);
  EXPECT_EQ(Plain[6], 0);
  {
    auto B = Plain;
    B[6] = 2; // alias pairs announced, none there
    KernelDescriptor Out;
    EXPECT_FALSE(decodeExact(B, Out, nullptr));
  }
  {
    auto B = Plain;
    B[6] = 1; // variants announced, none there
    EXPECT_TRUE(Rejects(B, "truncated"));
  }
  {
    auto B = Good;
    ASSERT_EQ(B[6], GMEM_DESC_FLAG_ALIAS_OK);
    B[6] = 0; // alias pairs there, not announced: bytes left over
    KernelDescriptor Out;
    std::string Err;
    EXPECT_FALSE(decodeExact(B, Out, &Err));
    EXPECT_FALSE(Err.empty());
  }
  {
    auto B = Good;
    B[11] = 0x7f; // payload size far beyond the blob
    EXPECT_TRUE(Rejects(B, "truncated"));
  }
  EXPECT_TRUE(Rejects({}, "truncated"));
  EXPECT_TRUE(Rejects({'G', 'M', 'D'}, "truncated"));
  KernelDescriptor K;
  std::string Err;
  EXPECT_FALSE(decodeDescriptor(nullptr, 0, K, &Err));
  EXPECT_FALSE(Err.empty());
  // Without an error string it still just fails.
  EXPECT_FALSE(decodeDescriptor(Good.data(), 5, K));
}

TEST(DescriptorCodecErrors, AliasPairs) {
  KernelDescriptor K;
  K.Symbol = "_Z1kPfS_";
  for (const char *Name : {"a", "b"}) {
    ParamInfo P;
    P.Name = Name;
    P.IsPointer = true;
    K.Params.push_back(P);
  }
  K.AliasOk = {{0, 1}};
  std::vector<uint8_t> Blob = encodeDescriptor(K);
  EXPECT_EQ(Blob[6], GMEM_DESC_FLAG_ALIAS_OK);
  KernelDescriptor D;
  std::string Err;
  ASSERT_TRUE(decodeExact(Blob, D, &Err)) << Err;
  ASSERT_EQ(D.AliasOk.size(), 1u);
  EXPECT_EQ(D.AliasOk[0], std::make_pair(0u, 1u));
  // The pair's last byte names parameter 1: 0 makes it (0, 0), 2 a
  // parameter that does not exist.
  for (uint8_t Bad : {uint8_t(0), uint8_t(2)}) {
    std::vector<uint8_t> B = Blob;
    B.back() = Bad;
    EXPECT_TRUE(Rejects(B, "alias pair")) << int(Bad);
  }
  // A reader of the old layout rejects the flag it does not know; this
  // reader rejects flags beyond the two it knows.
  std::vector<uint8_t> B = Blob;
  B[6] |= 4;
  EXPECT_TRUE(Rejects(B, "unknown descriptor flags"));
}

TEST(DescriptorCodecErrors, TruncatedAtEveryByte) {
  std::vector<uint8_t> Good = encodeDescriptor(richDescriptor());
  ASSERT_GT(Good.size(), 200u);
  for (size_t Cut = 0; Cut < Good.size(); ++Cut) {
    KernelDescriptor K;
    std::string Err;
    EXPECT_FALSE(decodeExact(Good.data(), Cut, K, &Err)) << "cut at " << Cut;
    EXPECT_FALSE(Err.empty()) << "cut at " << Cut;
  }
  // Same, but with the header's payload size fixed up to match the cut, so
  // that the payload reader itself meets the end at every position.
  for (size_t Cut = GMEM_DESC_HEADER_SIZE; Cut < Good.size(); ++Cut) {
    std::vector<uint8_t> B(Good.begin(), Good.begin() + Cut);
    uint32_t N = uint32_t(Cut - GMEM_DESC_HEADER_SIZE);
    for (int I = 0; I < 4; ++I)
      B[8 + I] = uint8_t(N >> (8 * I));
    KernelDescriptor K;
    std::string Err;
    EXPECT_FALSE(decodeExact(B, K, &Err)) << "payload cut at " << Cut;
    EXPECT_FALSE(Err.empty()) << "payload cut at " << Cut;
  }
}

TEST(DescriptorCodecErrors, TrailingBytesInsidePayload) {
  std::vector<uint8_t> B = encodeDescriptor(richDescriptor());
  B.push_back(0);
  uint32_t N = uint32_t(B.size() - GMEM_DESC_HEADER_SIZE);
  for (int I = 0; I < 4; ++I)
    B[8 + I] = uint8_t(N >> (8 * I));
  EXPECT_TRUE(Rejects(B, "trailing"));
}

// The blob's header says how many payload bytes follow; a blob with more
// bytes than that is malformed ("decodes one blob").
// BUG: decodeDescriptor only checks payload_size <= remaining bytes and
// silently ignores anything after the payload, so this blob decodes.
TEST(DescriptorCodecErrors, TrailingBytesAfterPayload) {
  std::vector<uint8_t> B = encodeDescriptor(richDescriptor());
  B.push_back(0);
  B.push_back(0x42);
  KernelDescriptor K;
  std::string Err;
  EXPECT_FALSE(decodeExact(B, K, &Err));
  EXPECT_FALSE(Err.empty());
}

TEST(DescriptorCodecErrors, BadFieldValues) {
  // Class out of range.
  {
    Bytes P = payloadHead(4);
    P.uleb(0).uleb(0).uleb(0).emptyRegion().emptyRegion();
    EXPECT_TRUE(Rejects(wrap(P.B), "class"));
  }
  // Region kind out of range.
  {
    Bytes P = payloadHead();
    P.uleb(0).uleb(0).uleb(0).u8(4).str("").uleb(0).uleb(0).emptyRegion();
    EXPECT_TRUE(Rejects(wrap(P.B), "region kind"));
  }
  // Scalar type out of range.
  {
    Bytes P = payloadHead();
    P.uleb(1).str("p").u8(GMEM_TYPE_OTHER + 1).u8(0).emptyRegion().emptyRegion().uleb(0);
    P.uleb(0).sleb(-1).uleb(0).uleb(0).uleb(0).emptyRegion().emptyRegion();
    EXPECT_TRUE(Rejects(wrap(P.B), "type"));
  }
  // Unknown parameter flag bit.
  {
    Bytes P = payloadHead();
    P.uleb(1).str("p").u8(GMEM_TYPE_PTR).u8(8).emptyRegion().emptyRegion().uleb(0);
    P.uleb(0).sleb(-1).uleb(0).uleb(0).uleb(0).emptyRegion().emptyRegion();
    EXPECT_TRUE(Rejects(wrap(P.B), "flags"));
  }
  // Atomic and read/write-disjoint together are contradictory.
  {
    Bytes P = payloadHead();
    P.uleb(1).str("p").u8(GMEM_TYPE_PTR).u8(7).emptyRegion().emptyRegion().uleb(0);
    P.uleb(0).sleb(-1).uleb(0).uleb(0).uleb(0).emptyRegion().emptyRegion();
    EXPECT_TRUE(Rejects(wrap(P.B), "atomic"));
  }
  // Sanity: the same payload with valid values decodes.
  for (uint8_t Flags : {1, 3, 5}) {
    Bytes P = payloadHead();
    P.uleb(1).str("p").u8(GMEM_TYPE_PTR).u8(Flags).emptyRegion().emptyRegion().uleb(0);
    P.uleb(0).sleb(-1).uleb(0).uleb(0).uleb(0).emptyRegion().emptyRegion();
    KernelDescriptor K;
    std::string Err;
    ASSERT_TRUE(decodeExact(wrap(P.B), K, &Err)) << Err;
    ASSERT_EQ(K.Params.size(), 1u);
    EXPECT_TRUE(K.Params[0].IsPointer);
    EXPECT_EQ(K.Params[0].Atomic, (Flags & 2) != 0);
    EXPECT_EQ(K.Params[0].RWDisjoint, (Flags & 4) != 0);
  }
}

TEST(DescriptorCodecErrors, BadExpressions) {
  auto Expr1 = [](std::initializer_list<uint8_t> Bs) { return std::vector<uint8_t>(Bs); };
  // Sanity first: a valid constant lo.
  {
    KernelDescriptor K;
    std::string Err;
    EXPECT_TRUE(decodeExact(wrap(payloadWithReadLo(Expr1({GMEM_EXPR_CONST, 0x7c}))), K, &Err))
        << Err;
    ASSERT_EQ(K.Params.size(), 1u);
    EXPECT_TRUE(K.Params[0].Read.Ranges[0].Lo->isConst(-4));
  }
  // Unknown op.
  EXPECT_TRUE(Rejects(wrap(payloadWithReadLo(Expr1({8}))), "unknown expression op"));
  EXPECT_TRUE(Rejects(wrap(payloadWithReadLo(Expr1({0xff}))), "unknown expression op"));
  // Variable of an unknown kind, and one that does not fit 32 bits.
  {
    Bytes E;
    E.u8(GMEM_EXPR_VAR).uleb(4u << 24); // kinds 0..3 exist (3: struct field, v2)
    EXPECT_TRUE(Rejects(wrap(payloadWithReadLo(E.B)), "bad variable"));
  }
  {
    Bytes E;
    E.u8(GMEM_EXPR_VAR).uleb(uint64_t(1) << 32);
    EXPECT_TRUE(Rejects(wrap(payloadWithReadLo(E.B)), "bad variable"));
  }
  // An n-ary node with no operands.
  for (uint8_t Op : {GMEM_EXPR_ADD, GMEM_EXPR_MUL, GMEM_EXPR_SMIN, GMEM_EXPR_SMAX}) {
    Bytes E;
    E.u8(Op).uleb(0);
    EXPECT_TRUE(Rejects(wrap(payloadWithReadLo(E.B)), "empty n-ary")) << int(Op);
  }
  // Varints that never end within 64 bits.
  {
    Bytes E;
    E.u8(GMEM_EXPR_CONST);
    for (int I = 0; I < 12; ++I)
      E.u8(0x80);
    E.u8(0);
    EXPECT_TRUE(Rejects(wrap(payloadWithReadLo(E.B)), "varint too long"));
  }
  {
    Bytes E;
    E.u8(GMEM_EXPR_VAR);
    for (int I = 0; I < 12; ++I)
      E.u8(0xff);
    E.u8(0);
    EXPECT_TRUE(Rejects(wrap(payloadWithReadLo(E.B)), "varint too long"));
  }
}

TEST(DescriptorCodecErrors, AbsurdCounts) {
  // nparams = 2^40
  {
    Bytes P = payloadHead();
    P.uleb(uint64_t(1) << 40).emptyRegion();
    EXPECT_TRUE(Rejects(wrap(P.B), "count"));
  }
  // nparams = UINT64_MAX
  {
    Bytes P = payloadHead();
    P.uleb(~uint64_t(0));
    EXPECT_TRUE(Rejects(wrap(P.B), "count"));
  }
  // A string longer than the payload.
  {
    Bytes P;
    P.uleb(1000).raw({'a', 'b', 'c'});
    EXPECT_TRUE(Rejects(wrap(P.B), "count"));
  }
  // A string length just one past the end.
  {
    Bytes P;
    P.uleb(4).raw({'a', 'b', 'c'});
    EXPECT_TRUE(Rejects(wrap(P.B), "count"));
  }
  // Huge number of ranges / checks / operands.
  {
    Bytes P = payloadHead();
    P.uleb(0).uleb(0).uleb(0).u8(GMEM_REGION_BOUNDED).str("").uleb(uint64_t(1) << 50);
    EXPECT_TRUE(Rejects(wrap(P.B), "count"));
  }
  {
    Bytes P = payloadHead();
    P.uleb(0).uleb(0).u8(GMEM_REGION_EMPTY).str("").uleb(0).uleb(uint64_t(1) << 33);
    EXPECT_TRUE(Rejects(wrap(P.B), "count"));
  }
  {
    Bytes E;
    E.u8(GMEM_EXPR_ADD).uleb(uint64_t(1) << 45);
    EXPECT_TRUE(Rejects(wrap(payloadWithReadLo(E.B)), "count"));
  }
  // Many small params, each plausible but together more than the blob.
  {
    Bytes P = payloadHead();
    P.uleb(200);
    for (int I = 0; I < 3; ++I)
      P.str("p").u8(GMEM_TYPE_I32).u8(0).emptyRegion().emptyRegion().uleb(0);
    EXPECT_TRUE(Rejects(wrap(P.B), ""));
  }
}

ExprRef nested(int Levels) {
  ExprRef E = A(0);
  for (int I = 0; I < Levels; ++I)
    E = (I % 3 == 0)   ? Expr::raw(ExprOp::Add, 0, {E})
        : (I % 3 == 1) ? Expr::raw(ExprOp::SDiv, 0, {E, C(1)})
                       : Expr::raw(ExprOp::SMin, 0, {C(0), E});
  return E;
}

KernelDescriptor withReadLo(ExprRef Lo) {
  KernelDescriptor K;
  ParamInfo P;
  P.Name = "p";
  P.Type = ScalarType::Ptr;
  P.IsPointer = true;
  P.Read.Kind = RegionKind::Bounded;
  P.Read.Ranges.push_back({std::move(Lo), C(4)});
  K.Params = {P};
  return K;
}

TEST(DescriptorCodecErrors, DeepNesting) {
  // 300 levels: rejected, no stack exhaustion.
  EXPECT_TRUE(Rejects(encodeDescriptor(withReadLo(nested(300))), "deep"));
  // Same depth inside a check and in the unknown-write region.
  {
    KernelDescriptor K;
    K.UnknownWrite.Kind = RegionKind::Bounded;
    K.UnknownWrite.Checks.push_back({nested(300), 0, 1});
    EXPECT_TRUE(Rejects(encodeDescriptor(K), "deep"));
  }
  // 100000 levels of hand-written nesting: rejected long before the end.
  {
    Bytes E;
    for (int I = 0; I < 100000; ++I)
      E.u8(GMEM_EXPR_ADD).uleb(1);
    E.u8(GMEM_EXPR_CONST).sleb(0);
    EXPECT_TRUE(Rejects(wrap(payloadWithReadLo(E.B)), "deep"));
  }
  // Moderate depth is fine.
  KernelDescriptor K = withReadLo(nested(200));
  KernelDescriptor D;
  std::string Err;
  ASSERT_TRUE(decodeExact(encodeDescriptor(K), D, &Err)) << Err;
  expectSameDescriptor(K, D);
}

TEST(DescriptorCodecErrors, RandomMutationSmoke) {
  // Fuzz smoke test: mutate a valid blob and require only a clean answer.
  std::vector<uint8_t> Good = encodeDescriptor(richDescriptor());
  std::mt19937_64 R(0xF022);
  int Accepted = 0;
  for (int Iter = 0; Iter < 10000; ++Iter) {
    std::vector<uint8_t> B = Good;
    int Mutations = 1 + int(R() % 4);
    for (int M = 0; M < Mutations; ++M) {
      size_t At = size_t(R() % B.size());
      switch (R() % 4) {
      case 0: B[At] = uint8_t(R()); break;
      case 1: B[At] ^= uint8_t(1u << (R() % 8)); break;
      case 2: B[At] = (R() % 2) ? 0xff : 0x00; break;
      default: B.resize(At + 1); break;
      }
    }
    // Keep the header mostly intact so the payload reader gets exercised.
    if (Iter % 2 == 0 && B.size() >= GMEM_DESC_HEADER_SIZE) {
      for (int I = 0; I < 8; ++I)
        B[I] = Good[I];
      uint32_t N = uint32_t(B.size() - GMEM_DESC_HEADER_SIZE);
      for (int I = 0; I < 4; ++I)
        B[8 + I] = uint8_t(N >> (8 * I));
    }
    KernelDescriptor K;
    std::string Err;
    bool Ok = decodeExact(B, K, &Err);
    if (Ok) {
      ++Accepted;
      // Whatever was accepted must re-encode and decode again.
      KernelDescriptor K2;
      std::string Err2;
      EXPECT_TRUE(decodeExact(encodeDescriptor(K), K2, &Err2)) << Err2;
    } else {
      EXPECT_FALSE(Err.empty());
    }
  }
  // Most mutations of names or constants still decode; most structural ones
  // do not. Both outcomes must have occurred.
  EXPECT_GT(Accepted, 0);
  EXPECT_LT(Accepted, 10000);
}

} // namespace

TEST(DescriptorCodecRobustness, MalformedRawNodesNeverYieldABound) {
  // Expr::raw can build nodes the analysis never emits: an n-ary op with no
  // operands, a division with one. Encoding and evaluating them must not
  // crash, and must never produce a value (the region then widens).
  KernelDescriptor K;
  K.Symbol = "k";
  ParamInfo P;
  P.Name = "p";
  P.Type = ScalarType::Ptr;
  P.IsPointer = true;
  P.Read = bounded({{Expr::raw(ExprOp::Add, 0, {}), Expr::raw(ExprOp::UDiv, 0, {C(8)})}});
  K.Params.push_back(P);
  std::vector<uint8_t> Blob = encodeDescriptor(K);
  KernelDescriptor D;
  std::string Err;
  ASSERT_TRUE(decodeDescriptor(Blob.data(), Blob.size(), D, &Err)) << Err;
  LaunchValues L;
  L.Args = {0};
  EXPECT_EQ(evaluate(*D.Params[0].Read.Ranges[0].Lo, L), std::nullopt);
  EXPECT_EQ(evaluate(*D.Params[0].Read.Ranges[0].Hi, L), std::nullopt);
  (void)Expr::add(Expr::raw(ExprOp::Mul, 0, {}), C(1)); // must not crash
}

//===- DescriptorCodecTest.cpp - binary descriptor encode/decode ----------===//
//
// Round trip of a rich descriptor, the header layout of
// include/gmem/descriptor_abi.h, and robustness of the decoder against
// malformed input (every truncation, bad fields, absurd counts, deep nesting,
// and a random-mutation smoke test).
//
//===----------------------------------------------------------------------===//

#include "gmem/compiler/DescriptorCodec.h"
#include "Builders.h"
#include "gmem/descriptor_abi.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace gmem;
using namespace gmem::test;

namespace {



//===----------------------------------------------------------------------===//
// A rich descriptor
//===----------------------------------------------------------------------===//

KernelDescriptor richDescriptor() {
  KernelDescriptor K;
  K.Symbol = "_Z7stencilPKfPfiPKi";
  K.Name = "stencil(float const*, float*, int, int const*) \"quoted\" \\ back";
  K.PlainName = "stencil\xC3\xA9\xE2\x88\x80\xF0\x9F\x98\x80"; // é ∀ 😀
  K.Target = "nvptx";
  K.Class = IdempotenceClass::Conditional;
  K.ClassReason = std::string("line1\nline2\ttab \"q\" nul:") + '\0' + "end";

  ExprRef N = A(2);
  ExprRef GB = Expr::mul(G(), B());
  ExprRef Tid4 = Expr::mul(C(4), GB);

  ParamInfo In;
  In.Name = "in";
  In.Type = ScalarType::Ptr;
  In.IsPointer = true;
  In.Read = bounded({{Expr::sub(C(0), C(4)), Expr::add(Expr::mul(C(4), N), C(4))},
                     {C(0), Expr::smin(Expr::mul(C(4), N), Tid4)}},
                    {{Expr::add(N, C(1)), 0, 2147483647}, {GB, 1, I64Max}});
  In.Write = AccessRegion(); // empty
  In.RWDisjoint = false;

  ParamInfo Out;
  Out.Name = "out\xE2\x86\x92\"x\"";
  Out.Type = ScalarType::Ptr;
  Out.IsPointer = true;
  Out.Atomic = false;
  Out.RWDisjoint = true;
  Out.Read = bounded({{Expr::udiv(N, C(2)), Expr::sdiv(Expr::sub(C(0), N), C(-3))}});
  Out.Write = bounded({{Expr::smax(C(I64Min), Expr::sub(N, C(7))), C(I64Max)}});
  Out.DisjointChecks = {{Expr::mul(C(8), N), -1, 1 << 30}, {C(-1), I64Min, I64Max}};

  ParamInfo Count;
  Count.Name = "n";
  Count.Type = ScalarType::I32;

  ParamInfo Index;
  Index.Name = "";
  Index.Type = ScalarType::Ptr;
  Index.IsPointer = true;
  Index.Read = widened(RegionKind::Allocation, "indirect \"index\"");
  Index.Atomic = true;
  Index.Write = widened(RegionKind::Anything, "stored through loaded pointer");

  ParamInfo Half;
  Half.Name = "h";
  Half.Type = ScalarType::F16;
  ParamInfo Odd;
  Odd.Name = "o";
  Odd.Type = ScalarType::Other;
  ParamInfo Small;
  Small.Name = "s";
  Small.Type = ScalarType::I8;

  K.Params = {In, Out, Count, Index, Half, Odd, Small};

  ParamInfo Glob;
  Glob.Name = "g_table";
  Glob.Type = ScalarType::Ptr;
  Glob.IsPointer = true;
  Glob.Read = bounded({{C(0), C(256)}});
  Glob.Write = bounded({{Expr::mul(C(4), Expr::variable(Var::gridDim(2))),
                         Expr::add(Expr::mul(C(4), Expr::variable(Var::blockDim(1))), C(4))}},
                       {{Expr::variable(Var::blockDim(2)), 1, 1024}});
  Glob.RWDisjoint = true;
  Glob.DisjointChecks = {{Expr::variable(Var::gridDim(1)), 1, 65535}};
  ParamInfo Glob2;
  Glob2.Name = "counter\xC3\xBC";
  Glob2.Type = ScalarType::I64;
  Glob2.IsPointer = true;
  Glob2.Atomic = true;
  Glob2.Read = widened(RegionKind::Allocation, "");
  Glob2.Write = widened(RegionKind::Allocation, "atomic");
  K.Globals = {Glob, Glob2};

  K.UnknownRead = widened(RegionKind::Anything, "load through int-to-ptr");
  // Raw nodes (not canonical) must survive exactly, as must huge constants.
  K.UnknownWrite = bounded(
      {{Expr::raw(ExprOp::Add, 0, {C(3), A(0), C(-3)}),
        Expr::raw(ExprOp::SMax, 0, {A(1), Expr::raw(ExprOp::Mul, 0, {C(1), A(1)})})}},
      {{Expr::raw(ExprOp::UDiv, 0, {C(-1), C(0)}), I64Min, -1}});
  return K;
}

void expectSameRegion(const AccessRegion &X, const AccessRegion &Y, const std::string &Where) {
  SCOPED_TRACE(Where);
  EXPECT_EQ(X.Kind, Y.Kind);
  EXPECT_EQ(X.Reason, Y.Reason);
  ASSERT_EQ(X.Ranges.size(), Y.Ranges.size());
  for (size_t I = 0; I < X.Ranges.size(); ++I) {
    EXPECT_TRUE(sameExpr(X.Ranges[I].Lo, Y.Ranges[I].Lo))
        << X.Ranges[I].Lo->str() << " vs " << Y.Ranges[I].Lo->str();
    EXPECT_TRUE(sameExpr(X.Ranges[I].Hi, Y.Ranges[I].Hi))
        << X.Ranges[I].Hi->str() << " vs " << Y.Ranges[I].Hi->str();
  }
  ASSERT_EQ(X.Checks.size(), Y.Checks.size());
  for (size_t I = 0; I < X.Checks.size(); ++I) {
    EXPECT_TRUE(sameExpr(X.Checks[I].Value, Y.Checks[I].Value));
    EXPECT_EQ(X.Checks[I].Min, Y.Checks[I].Min);
    EXPECT_EQ(X.Checks[I].Max, Y.Checks[I].Max);
  }
}

void expectSameParam(const ParamInfo &X, const ParamInfo &Y, const std::string &Where) {
  SCOPED_TRACE(Where);
  EXPECT_EQ(X.Name, Y.Name);
  EXPECT_EQ(X.Type, Y.Type);
  EXPECT_EQ(X.IsPointer, Y.IsPointer);
  EXPECT_EQ(X.Atomic, Y.Atomic);
  EXPECT_EQ(X.RWDisjoint, Y.RWDisjoint);
  expectSameRegion(X.Read, Y.Read, "read");
  expectSameRegion(X.Write, Y.Write, "write");
  ASSERT_EQ(X.DisjointChecks.size(), Y.DisjointChecks.size());
  for (size_t I = 0; I < X.DisjointChecks.size(); ++I) {
    EXPECT_TRUE(sameExpr(X.DisjointChecks[I].Value, Y.DisjointChecks[I].Value));
    EXPECT_EQ(X.DisjointChecks[I].Min, Y.DisjointChecks[I].Min);
    EXPECT_EQ(X.DisjointChecks[I].Max, Y.DisjointChecks[I].Max);
  }
}

void expectSameDescriptor(const KernelDescriptor &X, const KernelDescriptor &Y) {
  EXPECT_EQ(X.Symbol, Y.Symbol);
  EXPECT_EQ(X.Name, Y.Name);
  EXPECT_EQ(X.PlainName, Y.PlainName);
  EXPECT_EQ(X.Target, Y.Target);
  EXPECT_EQ(X.Class, Y.Class);
  EXPECT_EQ(X.ClassReason, Y.ClassReason);
  ASSERT_EQ(X.Params.size(), Y.Params.size());
  for (size_t I = 0; I < X.Params.size(); ++I)
    expectSameParam(X.Params[I], Y.Params[I], "param " + std::to_string(I));
  ASSERT_EQ(X.Globals.size(), Y.Globals.size());
  for (size_t I = 0; I < X.Globals.size(); ++I)
    expectSameParam(X.Globals[I], Y.Globals[I], "global " + std::to_string(I));
  expectSameRegion(X.UnknownRead, Y.UnknownRead, "unknown read");
  expectSameRegion(X.UnknownWrite, Y.UnknownWrite, "unknown write");
}

/// Decodes from a heap buffer of exactly Size bytes (so that a sanitizer
/// build would flag any read past the end).
bool decodeExact(const uint8_t *Data, size_t Size, KernelDescriptor &Out, std::string *Err) {
  std::unique_ptr<uint8_t[]> Copy(new uint8_t[Size ? Size : 1]);
  if (Size)
    std::memcpy(Copy.get(), Data, Size);
  return decodeDescriptor(Copy.get(), Size, Out, Err);
}

bool decodeExact(const std::vector<uint8_t> &Blob, KernelDescriptor &Out, std::string *Err) {
  return decodeExact(Blob.data(), Blob.size(), Out, Err);
}

//===----------------------------------------------------------------------===//
// A hand-written encoder for crafting malformed blobs
//===----------------------------------------------------------------------===//

struct Bytes {
  std::vector<uint8_t> B;
  Bytes &u8(uint8_t V) {
    B.push_back(V);
    return *this;
  }
  Bytes &u16(uint16_t V) { return u8(V & 0xff).u8(V >> 8); }
  Bytes &u32(uint32_t V) { return u16(V & 0xffff).u16(V >> 16); }
  Bytes &uleb(uint64_t V) {
    do {
      uint8_t X = V & 0x7f;
      V >>= 7;
      u8(X | (V ? 0x80 : 0));
    } while (V);
    return *this;
  }
  Bytes &sleb(int64_t V) {
    bool More = true;
    while (More) {
      uint8_t X = V & 0x7f;
      V >>= 7;
      More = !((V == 0 && !(X & 0x40)) || (V == -1 && (X & 0x40)));
      u8(X | (More ? 0x80 : 0));
    }
    return *this;
  }
  Bytes &str(const std::string &S) {
    uleb(S.size());
    B.insert(B.end(), S.begin(), S.end());
    return *this;
  }
  Bytes &raw(const std::vector<uint8_t> &V) {
    B.insert(B.end(), V.begin(), V.end());
    return *this;
  }
  /// An empty region.
  Bytes &emptyRegion() { return u8(GMEM_REGION_EMPTY).str("").uleb(0).uleb(0); }
};

/// Header + payload.
std::vector<uint8_t> wrap(const std::vector<uint8_t> &Payload, uint32_t Magic = GMEM_DESC_MAGIC,
                          uint16_t Version = GMEM_DESC_VERSION, uint16_t Flags = 0) {
  Bytes H;
  H.u32(Magic).u16(Version).u16(Flags).u32(uint32_t(Payload.size())).raw(Payload);
  return H.B;
}

/// Payload prefix up to and including the class reason.
Bytes payloadHead(uint8_t Class = GMEM_CLASS_IDEMPOTENT) {
  Bytes P;
  P.str("sym").str("name").str("plain").str("nvptx").u8(Class).str("why");
  return P;
}

/// A minimal valid payload with one pointer parameter whose read region's
/// lo expression is given as raw bytes.
std::vector<uint8_t> payloadWithReadLo(const std::vector<uint8_t> &LoExpr) {
  Bytes P = payloadHead();
  P.uleb(1);                                     // nparams
  P.str("p").u8(GMEM_TYPE_PTR).u8(1);            // name, type, flags
  P.u8(GMEM_REGION_BOUNDED).str("").uleb(1);     // read: bounded, one range
  P.raw(LoExpr);                                 //   lo
  P.u8(GMEM_EXPR_CONST).sleb(16);                //   hi
  P.uleb(0);                                     //   checks
  P.emptyRegion();                               // write
  P.uleb(0);                                     // disjoint checks
  P.uleb(0).sleb(-1).uleb(0);                    // byte size, field param, field offset (v2)
  P.uleb(0);                                     // nglobals
  P.uleb(0);                                     // nfields (v2)
  P.emptyRegion().emptyRegion();                 // unknown read/write
  return P.B;
}

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
  EXPECT_EQ(Blob[6] | Blob[7] << 8, 0);
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
    B[6] = 1; // reserved flags
    EXPECT_TRUE(Rejects(B, "flags"));
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

// Shared by the DescriptorCodec*Test.cpp unit tests: a rich descriptor,
// descriptor comparison, exact-size decoding, and a hand-written encoder for
// crafting (malformed) blobs.
#pragma once

#include "gmem/compiler/DescriptorCodec.h"
#include "Builders.h"
#include "gmem/descriptor_abi.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace gmem::test {

//===----------------------------------------------------------------------===//
// A rich descriptor
//===----------------------------------------------------------------------===//

inline KernelDescriptor richDescriptor() {
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
  // Pairs of pointer parameters proven as one buffer (header flag bit 1).
  K.AliasOk = {{0, 1}, {1, 3}};
  return K;
}

inline void expectSameRegion(const AccessRegion &X, const AccessRegion &Y,
                             const std::string &Where) {
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

inline void expectSameParam(const ParamInfo &X, const ParamInfo &Y, const std::string &Where) {
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

inline void expectSameDescriptor(const KernelDescriptor &X, const KernelDescriptor &Y) {
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
  EXPECT_EQ(X.AliasOk, Y.AliasOk);
}

/// Decodes from a heap buffer of exactly Size bytes (so that a sanitizer
/// build would flag any read past the end).
inline bool decodeExact(const uint8_t *Data, size_t Size, KernelDescriptor &Out, std::string *Err) {
  std::unique_ptr<uint8_t[]> Copy(new uint8_t[Size ? Size : 1]);
  if (Size)
    std::memcpy(Copy.get(), Data, Size);
  return decodeDescriptor(Copy.get(), Size, Out, Err);
}

inline bool decodeExact(const std::vector<uint8_t> &Blob, KernelDescriptor &Out, std::string *Err) {
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
inline std::vector<uint8_t> wrap(const std::vector<uint8_t> &Payload,
                                 uint32_t Magic = GMEM_DESC_MAGIC,
                                 uint16_t Version = GMEM_DESC_VERSION, uint16_t Flags = 0) {
  Bytes H;
  H.u32(Magic).u16(Version).u16(Flags).u32(uint32_t(Payload.size())).raw(Payload);
  return H.B;
}

/// Payload prefix up to and including the class reason.
inline Bytes payloadHead(uint8_t Class = GMEM_CLASS_IDEMPOTENT) {
  Bytes P;
  P.str("sym").str("name").str("plain").str("nvptx").u8(Class).str("why");
  return P;
}

/// A minimal valid payload with one pointer parameter whose read region's
/// lo expression is given as raw bytes.
inline std::vector<uint8_t> payloadWithReadLo(const std::vector<uint8_t> &LoExpr) {
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

} // namespace gmem::test

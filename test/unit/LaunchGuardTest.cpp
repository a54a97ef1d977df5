//===- LaunchGuardTest.cpp - launch guards and descriptor variants --------===//
//
// Guard atoms evaluated on raw parameter bits (integer views, floats with
// NaN and signed zeros, null pointers, bools passed as bytes), the choice
// of a launch's variant, and the variants' encoding (round trip, and the
// decoder's rejection of guards that do not fit the kernel).
//
//===----------------------------------------------------------------------===//

#include "gmem/compiler/DescriptorCodec.h"
#include "gmem/compiler/LaunchGuard.h"
#include "gmem/descriptor_abi.h"
#include "DescriptorCodecHelpers.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace gmem;
using namespace gmem::test;

namespace {

GuardAtom atom(uint32_t Param, unsigned Bits, GuardView How, GuardPred P, uint64_t C) {
  GuardAtom G;
  G.Param = Param;
  G.Bits = uint8_t(Bits);
  G.How = How;
  G.Pred = P;
  G.Const = C;
  return G;
}

uint64_t f32(float F) {
  uint32_t B;
  std::memcpy(&B, &F, 4);
  return B;
}

uint64_t f64(double D) {
  uint64_t B;
  std::memcpy(&B, &D, 8);
  return B;
}

TEST(LaunchGuard, IntegerPredicatesAtTheParameterWidth) {
  auto Eq0 = atom(0, 32, GuardView::Same, GuardPred::Eq, 0);
  EXPECT_TRUE(guardHolds(Eq0, ScalarType::I32, 0));
  EXPECT_FALSE(guardHolds(Eq0, ScalarType::I32, 1));
  // Only the parameter's own bits count (the runtime may pass garbage above).
  EXPECT_TRUE(guardHolds(Eq0, ScalarType::I32, 0xffffffff00000000ull));
  auto SltM1 = atom(0, 32, GuardView::Same, GuardPred::Slt, 0xffffffffu); // < -1
  EXPECT_TRUE(guardHolds(SltM1, ScalarType::I32, uint32_t(-5)));
  EXPECT_FALSE(guardHolds(SltM1, ScalarType::I32, uint32_t(-1)));
  EXPECT_FALSE(guardHolds(SltM1, ScalarType::I32, 7));
  auto Ugt7 = atom(0, 32, GuardView::Same, GuardPred::Ugt, 7);
  EXPECT_TRUE(guardHolds(Ugt7, ScalarType::I32, uint32_t(-1)));
  EXPECT_FALSE(guardHolds(Ugt7, ScalarType::I32, 7));
  auto Sge64 = atom(0, 64, GuardView::Same, GuardPred::Sge, 0);
  EXPECT_FALSE(guardHolds(Sge64, ScalarType::I64, uint64_t(INT64_MIN)));
  EXPECT_TRUE(guardHolds(Sge64, ScalarType::I64, uint64_t(INT64_MAX)));
}

TEST(LaunchGuard, TruncatedAndExtendedViews) {
  // (i8)x == 0 holds for 256 but x == 0 does not.
  auto T = atom(0, 8, GuardView::Trunc, GuardPred::Eq, 0);
  EXPECT_TRUE(guardHolds(T, ScalarType::I32, 256));
  EXPECT_FALSE(guardHolds(T, ScalarType::I32, 257));
  // sext i8 -> i32, < 0: the byte's sign bit.
  auto S = atom(0, 32, GuardView::SExt, GuardPred::Slt, 0);
  EXPECT_TRUE(guardHolds(S, ScalarType::I8, 0x80));
  EXPECT_FALSE(guardHolds(S, ScalarType::I8, 0x7f));
  // zext i8 -> i32, > 127 unsigned.
  auto Z = atom(0, 32, GuardView::ZExt, GuardPred::Ugt, 127);
  EXPECT_TRUE(guardHolds(Z, ScalarType::I8, 0x80));
  EXPECT_FALSE(guardHolds(Z, ScalarType::I8, 0x7f));
}

TEST(LaunchGuard, MaskedViews) {
  // (flags & 4) != 0
  auto Bit = atom(0, 32, GuardView::Mask, GuardPred::Ne, 0);
  Bit.Mask = 4;
  EXPECT_TRUE(guardHolds(Bit, ScalarType::I32, 6));
  EXPECT_FALSE(guardHolds(Bit, ScalarType::I32, 3));
  // (x & 255) == 0 holds for 256, not for 257.
  auto Low = atom(0, 32, GuardView::Mask, GuardPred::Eq, 0);
  Low.Mask = 255;
  EXPECT_TRUE(guardHolds(Low, ScalarType::I32, 256));
  EXPECT_FALSE(guardHolds(Low, ScalarType::I32, 257));
  // A mask wider than the parameter, or none, is malformed.
  auto Wide = Low;
  Wide.Mask = 0x1ffffffffull;
  EXPECT_FALSE(guardAtomValid(Wide, ScalarType::I32));
  auto None = Low;
  None.Mask = 0;
  EXPECT_FALSE(guardAtomValid(None, ScalarType::I32));
  auto Stray = atom(0, 32, GuardView::Same, GuardPred::Eq, 0);
  Stray.Mask = 1; // a mask on another view
  EXPECT_FALSE(guardAtomValid(Stray, ScalarType::I32));
}

TEST(LaunchGuard, BoolParametersHoldOnlyForZeroAndOne) {
  auto Set = atom(0, 1, GuardView::Bool, GuardPred::Ne, 0);
  auto Clear = atom(0, 1, GuardView::Bool, GuardPred::Eq, 0);
  EXPECT_TRUE(guardHolds(Set, ScalarType::I8, 1));
  EXPECT_FALSE(guardHolds(Set, ScalarType::I8, 0));
  EXPECT_TRUE(guardHolds(Clear, ScalarType::I8, 0));
  // A byte the kernel's IR cannot see as a bool: neither variant applies.
  EXPECT_FALSE(guardHolds(Set, ScalarType::I8, 2));
  EXPECT_FALSE(guardHolds(Clear, ScalarType::I8, 2));
}

TEST(LaunchGuard, FloatPredicatesWithNaNAndSignedZero) {
  auto Oeq0 = atom(0, 32, GuardView::Same, GuardPred::FOeq, f32(0.0f));
  EXPECT_TRUE(guardHolds(Oeq0, ScalarType::F32, f32(0.0f)));
  EXPECT_TRUE(guardHolds(Oeq0, ScalarType::F32, f32(-0.0f)));
  EXPECT_FALSE(guardHolds(Oeq0, ScalarType::F32, f32(1e-30f)));
  EXPECT_FALSE(guardHolds(Oeq0, ScalarType::F32, f32(std::nanf(""))));
  auto Une0 = atom(0, 32, GuardView::Same, GuardPred::FUne, f32(0.0f));
  EXPECT_TRUE(guardHolds(Une0, ScalarType::F32, f32(std::nanf(""))));
  EXPECT_FALSE(guardHolds(Une0, ScalarType::F32, f32(-0.0f)));
  auto Olt1 = atom(0, 64, GuardView::Same, GuardPred::FOlt, f64(1.0));
  EXPECT_TRUE(guardHolds(Olt1, ScalarType::F64, f64(0.5)));
  EXPECT_FALSE(guardHolds(Olt1, ScalarType::F64, f64(std::nan(""))));
  // Every predicate and its inverse split every value exactly.
  const double Values[] = {0.0, -0.0, 1.0, -1.0, std::nan(""),
                           std::numeric_limits<double>::infinity()};
  for (unsigned P = unsigned(GuardPred::FOeq); P <= unsigned(GuardPred::Last); ++P)
    for (double C : Values)
      for (double X : Values) {
        auto G = atom(0, 64, GuardView::Same, GuardPred(P), f64(C));
        auto I = G;
        I.Pred = inversePred(G.Pred);
        EXPECT_NE(guardHolds(G, ScalarType::F64, f64(X)), guardHolds(I, ScalarType::F64, f64(X)))
            << P << " " << C << " " << X;
      }
  for (unsigned P = 0; P < unsigned(GuardPred::FOeq); ++P)
    for (uint64_t C : {0ull, 1ull, 0x80000000ull, 0xffffffffull})
      for (uint64_t X : {0ull, 1ull, 0x7fffffffull, 0x80000000ull, 0xffffffffull}) {
        auto G = atom(0, 32, GuardView::Same, GuardPred(P), C);
        auto I = G;
        I.Pred = inversePred(G.Pred);
        EXPECT_NE(guardHolds(G, ScalarType::I32, X), guardHolds(I, ScalarType::I32, X));
      }
}

TEST(LaunchGuard, MalformedAtomsNeverHold) {
  // A float predicate on an integer, an integer view wider than allowed, a
  // constant with bits beyond the width.
  EXPECT_FALSE(guardHolds(atom(0, 32, GuardView::Same, GuardPred::FOeq, 0), ScalarType::I32, 0));
  EXPECT_FALSE(guardHolds(atom(0, 64, GuardView::Same, GuardPred::Eq, 0), ScalarType::I32, 0));
  EXPECT_FALSE(guardHolds(atom(0, 8, GuardView::Trunc, GuardPred::Eq, 256), ScalarType::I32, 256));
  EXPECT_FALSE(guardHolds(atom(0, 1, GuardView::Bool, GuardPred::Eq, 0), ScalarType::I32, 0));
  EXPECT_FALSE(guardHolds(atom(0, 16, GuardView::Same, GuardPred::Eq, 0), ScalarType::F16, 0));
}

/// A kernel y = a*x + b*y: non-idempotent; with b == 0, conditional.
KernelDescriptor axpby() {
  KernelDescriptor K;
  K.Symbol = "_Z5axpbyPKfPfff";
  K.Name = K.PlainName = "axpby";
  K.Target = "nvptx";
  K.Class = IdempotenceClass::NonIdempotent;
  K.ClassReason = "'y' is read and written at the same offset";
  ParamInfo X, Y, Av, Bv;
  X.Name = "x";
  Y.Name = "y";
  X.Type = Y.Type = ScalarType::Ptr;
  X.IsPointer = Y.IsPointer = true;
  X.Read = bounded({{C(0), C(64)}});
  Y.Read = bounded({{C(0), C(64)}});
  Y.Write = bounded({{C(0), C(64)}});
  Av.Name = "a";
  Bv.Name = "b";
  Av.Type = Bv.Type = ScalarType::F32;
  K.Params = {X, Y, Av, Bv};
  auto V = K;
  V.Class = IdempotenceClass::Conditional;
  V.ClassReason = "reads 'x' and writes 'y'";
  V.Params[1].Read = AccessRegion();
  KernelVariant KV;
  KV.When = {atom(3, 32, GuardView::Same, GuardPred::FOeq, f32(0.0f))};
  KV.D = std::make_shared<const KernelDescriptor>(V);
  K.Variants.push_back(KV);
  return K;
}

TEST(LaunchGuard, SelectVariantTakesTheBestThatHolds) {
  KernelDescriptor K = axpby();
  uint64_t Args[4] = {0x1000, 0x2000, f32(2.0f), f32(0.0f)};
  EXPECT_EQ(&selectVariant(K, Args, 4), K.Variants[0].D.get());
  Args[3] = f32(0.5f);
  EXPECT_EQ(&selectVariant(K, Args, 4), &K);
  Args[3] = f32(-0.0f);
  EXPECT_EQ(&selectVariant(K, Args, 4), K.Variants[0].D.get());
  // A guard on an argument the launch does not supply does not hold.
  EXPECT_EQ(&selectVariant(K, Args, 3), &K);
  // An idempotent variant is preferred to a conditional one, whatever the order.
  auto Better = *K.Variants[0].D;
  Better.Class = IdempotenceClass::Idempotent;
  KernelVariant KV;
  KV.When = {atom(2, 32, GuardView::Same, GuardPred::FOeq, f32(2.0f))};
  KV.D = std::make_shared<const KernelDescriptor>(Better);
  K.Variants.push_back(KV);
  EXPECT_EQ(&selectVariant(K, Args, 4), K.Variants[1].D.get());
  // As good as the kernel's own class: the variant (it knows more).
  K.Class = IdempotenceClass::Idempotent;
  EXPECT_EQ(&selectVariant(K, Args, 4), K.Variants[1].D.get());
  // Never a worse class than the kernel's own.
  K.Variants.pop_back();
  EXPECT_EQ(&selectVariant(K, Args, 4), &K);
}

TEST(LaunchGuard, VariantsRoundTrip) {
  KernelDescriptor K = axpby();
  {
    // A masked guard travels with its mask: (flags & 4) != 0.
    ParamInfo Flags;
    Flags.Name = "flags";
    Flags.Type = ScalarType::I32;
    K.Params.push_back(Flags);
    auto V0 = *K.Variants[0].D;
    V0.Params.push_back(Flags);
    K.Variants[0].D = std::make_shared<const KernelDescriptor>(V0);
    KernelVariant KV;
    auto G = atom(4, 32, GuardView::Mask, GuardPred::Ne, 0);
    G.Mask = 4;
    KV.When = {G};
    KV.D = std::make_shared<const KernelDescriptor>(V0);
    K.Variants.push_back(KV);
  }
  std::vector<uint8_t> Blob = encodeDescriptor(K);
  EXPECT_EQ(Blob[6], GMEM_DESC_FLAG_VARIANTS);
  KernelDescriptor D;
  std::string Err;
  ASSERT_TRUE(decodeDescriptor(Blob.data(), Blob.size(), D, &Err)) << Err;
  expectSameDescriptor(K, D);
  ASSERT_EQ(D.Variants.size(), 2u);
  EXPECT_TRUE(D.Variants[0].When == K.Variants[0].When);
  EXPECT_TRUE(D.Variants[1].When == K.Variants[1].When);
  EXPECT_EQ(D.Variants[1].When[0].Mask, 4u);
  expectSameDescriptor(*K.Variants[0].D, *D.Variants[0].D);
  // Without variants the flags stay 0 (readable by the first version-2 readers).
  K.Variants.clear();
  EXPECT_EQ(encodeDescriptor(K)[6], 0);
}

TEST(LaunchGuard, DecoderRejectsVariantsThatDoNotFit) {
  auto Rejects = [](const KernelDescriptor &K, const std::string &Fragment) {
    std::vector<uint8_t> Blob = encodeDescriptor(K);
    KernelDescriptor D;
    std::string Err;
    bool Ok = decodeDescriptor(Blob.data(), Blob.size(), D, &Err);
    return !Ok && Err.find(Fragment) != std::string::npos;
  };
  {
    KernelDescriptor K = axpby();
    K.Variants[0].When[0].Param = 9;
    EXPECT_TRUE(Rejects(K, "does not exist"));
  }
  {
    KernelDescriptor K = axpby();
    K.Variants[0].When[0] = atom(3, 32, GuardView::Same, GuardPred::Eq, 0); // int pred on f32
    EXPECT_TRUE(Rejects(K, "does not fit"));
  }
  {
    // A variant with other parameters is not encoded at all.
    KernelDescriptor K = axpby();
    auto V = *K.Variants[0].D;
    V.Params.pop_back();
    K.Variants[0].D = std::make_shared<const KernelDescriptor>(V);
    std::vector<uint8_t> Blob = encodeDescriptor(K);
    EXPECT_EQ(Blob[6], 0);
  }
  // Every truncation of a blob with variants fails cleanly.
  std::vector<uint8_t> Blob = encodeDescriptor(axpby());
  for (size_t N = 0; N < Blob.size(); ++N) {
    KernelDescriptor D;
    EXPECT_FALSE(decodeDescriptor(Blob.data(), N, D));
  }
}

} // namespace

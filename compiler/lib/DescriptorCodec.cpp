#include "gmem/compiler/DescriptorCodec.h"

#include "gmem/descriptor_abi.h"

#include <algorithm>
#include <stdexcept>

namespace gmem {
namespace {

constexpr unsigned MaxExprDepth = 256; // guards the decoder's recursion

class Writer {
public:
  std::vector<uint8_t> Buf;
  void u8(uint8_t V) { Buf.push_back(V); }
  void u16(uint16_t V) { u8(V & 0xff); u8(V >> 8); }
  void u32(uint32_t V) { u16(V & 0xffff); u16(V >> 16); }
  void uleb(uint64_t V) {
    do {
      uint8_t B = V & 0x7f;
      V >>= 7;
      u8(B | (V ? 0x80 : 0));
    } while (V);
  }
  void sleb(int64_t V) {
    bool More = true;
    while (More) {
      uint8_t B = V & 0x7f;
      V >>= 7; // arithmetic shift
      More = !((V == 0 && !(B & 0x40)) || (V == -1 && (B & 0x40)));
      u8(B | (More ? 0x80 : 0));
    }
  }
  void str(const std::string &S) {
    uleb(S.size());
    Buf.insert(Buf.end(), S.begin(), S.end());
  }
  void expr(const ExprRef &E) {
    // Only Expr::raw can build a malformed node (an n-ary op without
    // operands, a division without two): write a variable no launch has, so
    // that evaluation fails and the region widens, never a wrong bound.
    bool Binary = E->op() == ExprOp::UDiv || E->op() == ExprOp::SDiv;
    bool Nary = E->op() != ExprOp::Const && E->op() != ExprOp::Var && !Binary;
    if ((Binary && E->operands().size() != 2) || (Nary && E->operands().empty())) {
      u8(uint8_t(ExprOp::Var));
      uleb(Var::arg(0xffffff).pack());
      return;
    }
    u8(uint8_t(E->op()));
    switch (E->op()) {
    case ExprOp::Const: sleb(E->constant()); return;
    case ExprOp::Var: uleb(E->var().pack()); return;
    case ExprOp::UDiv:
    case ExprOp::SDiv:
      expr(E->operands()[0]);
      expr(E->operands()[1]);
      return;
    default:
      uleb(E->operands().size());
      for (auto &O : E->operands())
        expr(O);
    }
  }
  void checks(const std::vector<RangeCheck> &C) {
    uleb(C.size());
    for (auto &X : C) {
      expr(X.Value);
      sleb(X.Min);
      sleb(X.Max);
      u8(X.Assumed ? 1 : 0);
    }
  }
  void region(const AccessRegion &R) {
    u8(uint8_t(R.Kind));
    str(R.Reason);
    uleb(R.Ranges.size());
    for (auto &X : R.Ranges) {
      expr(X.Lo);
      expr(X.Hi);
    }
    checks(R.Checks);
  }
  void param(const ParamInfo &P) {
    str(P.Name);
    u8(uint8_t(P.Type));
    u8((P.IsPointer ? 1 : 0) | (P.Atomic ? 2 : 0) | (P.RWDisjoint ? 4 : 0));
    region(P.Read);
    region(P.Write);
    checks(P.DisjointChecks);
    uleb(P.ByteSize);
    sleb(P.FieldParam);
    uleb(P.FieldOffset);
  }
};

struct DecodeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Reader {
public:
  Reader(const uint8_t *D, size_t N) : P(D), End(D + N) {}
  const uint8_t *P, *End;
  uint8_t u8() {
    if (P >= End)
      throw DecodeError("truncated descriptor");
    return *P++;
  }
  uint16_t u16() { uint16_t L = u8(); return L | uint16_t(u8()) << 8; }
  uint32_t u32() { uint32_t L = u16(); return L | uint32_t(u16()) << 16; }
  uint64_t uleb() {
    uint64_t V = 0;
    for (unsigned Shift = 0;; Shift += 7) {
      if (Shift > 63)
        throw DecodeError("varint too long");
      uint8_t B = u8();
      V |= uint64_t(B & 0x7f) << Shift;
      if (!(B & 0x80))
        return V;
    }
  }
  int64_t sleb() {
    int64_t V = 0;
    unsigned Shift = 0;
    uint8_t B;
    do {
      if (Shift > 63)
        throw DecodeError("varint too long");
      B = u8();
      V |= int64_t(uint64_t(B & 0x7f) << Shift);
      Shift += 7;
    } while (B & 0x80);
    if (Shift < 64 && (B & 0x40))
      V |= int64_t(~uint64_t(0) << Shift);
    return V;
  }
  size_t count() {
    uint64_t N = uleb();
    if (N > size_t(End - P)) // every element takes at least one byte
      throw DecodeError("count exceeds descriptor size");
    return size_t(N);
  }
  std::string str() {
    size_t N = count();
    std::string S(reinterpret_cast<const char *>(P), N);
    P += N;
    return S;
  }
  ExprRef expr(unsigned Depth = 0) {
    if (Depth > MaxExprDepth)
      throw DecodeError("expression nests too deeply");
    uint8_t Op = u8();
    switch (ExprOp(Op)) {
    case ExprOp::Const: return Expr::raw(ExprOp::Const, sleb(), {});
    case ExprOp::Var: {
      uint64_t V = uleb();
      if (V >> 32 || (V >> 24) > uint64_t(VarKind::ArgField))
        throw DecodeError("bad variable");
      return Expr::raw(ExprOp::Var, int64_t(V), {});
    }
    case ExprOp::UDiv:
    case ExprOp::SDiv: {
      ExprRef A = expr(Depth + 1);
      ExprRef B = expr(Depth + 1);
      return Expr::raw(ExprOp(Op), 0, {A, B});
    }
    case ExprOp::Add:
    case ExprOp::Mul:
    case ExprOp::SMin:
    case ExprOp::SMax: {
      size_t N = count();
      if (N == 0)
        throw DecodeError("empty n-ary expression");
      std::vector<ExprRef> Ops;
      for (size_t I = 0; I < N; ++I)
        Ops.push_back(expr(Depth + 1));
      return Expr::raw(ExprOp(Op), 0, std::move(Ops));
    }
    }
    throw DecodeError("unknown expression op " + std::to_string(Op));
  }
  std::vector<RangeCheck> checks() {
    std::vector<RangeCheck> C(count());
    for (auto &X : C) {
      X.Value = expr();
      X.Min = sleb();
      X.Max = sleb();
      uint8_t F = u8();
      if (F > 1)
        throw DecodeError("unknown check flags");
      X.Assumed = F & 1;
    }
    return C;
  }
  AccessRegion region() {
    AccessRegion R;
    uint8_t K = u8();
    if (K > uint8_t(RegionKind::Anything))
      throw DecodeError("bad region kind");
    R.Kind = RegionKind(K);
    R.Reason = str();
    R.Ranges.resize(count());
    for (auto &X : R.Ranges) {
      X.Lo = expr();
      X.Hi = expr();
    }
    R.Checks = checks();
    return R;
  }
  ParamInfo param() {
    ParamInfo P;
    P.Name = str();
    uint8_t T = u8();
    if (T > uint8_t(ScalarType::Other))
      throw DecodeError("bad parameter type");
    P.Type = ScalarType(T);
    uint8_t F = u8();
    if (F & ~7u)
      throw DecodeError("unknown parameter flags");
    P.IsPointer = F & 1;
    P.Atomic = F & 2;
    P.RWDisjoint = F & 4;
    if (P.RWDisjoint && P.Atomic)
      throw DecodeError("parameter both atomic and read/write-disjoint");
    P.Read = region();
    P.Write = region();
    P.DisjointChecks = checks();
    P.ByteSize = uint32_t(uleb());
    int64_t FP = sleb();
    if (FP < -1 || FP > 255)
      throw DecodeError("bad field parameter");
    P.FieldParam = int(FP);
    uint64_t FO = uleb();
    if (FO > 0x3fff)
      throw DecodeError("bad field offset");
    P.FieldOffset = uint32_t(FO);
    return P;
  }
};

} // namespace

namespace {

/// Variants of one kernel a blob may carry (a bound on the decoder's work).
constexpr size_t MaxVariants = 64;
constexpr size_t MaxGuardAtoms = 8;
/// Parameter pairs that may coincide (a bound on the decoder's work).
constexpr size_t MaxAliasPairs = 64;

void writeBody(Writer &Body, const KernelDescriptor &K) {
  Body.str(K.Symbol);
  Body.str(K.Name);
  Body.str(K.PlainName);
  Body.str(K.Target);
  Body.u8(uint8_t(K.Class));
  Body.str(K.ClassReason);
  Body.uleb(K.Params.size());
  for (auto &P : K.Params)
    Body.param(P);
  Body.uleb(K.Globals.size());
  for (auto &G : K.Globals)
    Body.param(G);
  Body.uleb(K.Fields.size());
  for (auto &F : K.Fields)
    Body.param(F);
  Body.region(K.UnknownRead);
  Body.region(K.UnknownWrite);
}

KernelDescriptor readBody(Reader &R) {
  KernelDescriptor K;
  K.Symbol = R.str();
  K.Name = R.str();
  K.PlainName = R.str();
  K.Target = R.str();
  uint8_t C = R.u8();
  if (C > uint8_t(IdempotenceClass::Unknown))
    throw DecodeError("bad class");
  K.Class = IdempotenceClass(C);
  K.ClassReason = R.str();
  K.Params.resize(R.count());
  for (auto &P : K.Params)
    P = R.param();
  K.Globals.resize(R.count());
  for (auto &G : K.Globals)
    G = R.param();
  K.Fields.resize(R.count());
  for (auto &F : K.Fields) {
    F = R.param();
    if (F.FieldParam < 0 || size_t(F.FieldParam) >= K.Params.size())
      throw DecodeError("pointer field of a parameter that does not exist");
  }
  K.UnknownRead = R.region();
  K.UnknownWrite = R.region();
  return K;
}

/// A variant describes the same kernel: same parameters, same types.
bool sameSignature(const KernelDescriptor &A, const KernelDescriptor &B) {
  if (A.Params.size() != B.Params.size())
    return false;
  for (size_t I = 0; I < A.Params.size(); ++I)
    if (A.Params[I].Type != B.Params[I].Type || A.Params[I].IsPointer != B.Params[I].IsPointer ||
        A.Params[I].ByteSize != B.Params[I].ByteSize)
      return false;
  if (A.Globals.size() != B.Globals.size() || A.Fields.size() != B.Fields.size())
    return false;
  for (size_t I = 0; I < A.Globals.size(); ++I)
    if (A.Globals[I].Name != B.Globals[I].Name)
      return false;
  for (size_t I = 0; I < A.Fields.size(); ++I)
    if (A.Fields[I].FieldParam != B.Fields[I].FieldParam ||
        A.Fields[I].FieldOffset != B.Fields[I].FieldOffset)
      return false;
  return true;
}

} // namespace

std::vector<uint8_t> encodeDescriptor(const KernelDescriptor &K) {
  Writer Body;
  writeBody(Body, K);
  uint16_t Flags = 0;
  size_t NV = 0;
  for (const KernelVariant &V : K.Variants)
    NV += V.D && V.When.size() <= MaxGuardAtoms && sameSignature(K, *V.D);
  if (NV) {
    Flags |= GMEM_DESC_FLAG_VARIANTS;
    Body.uleb(std::min(NV, MaxVariants));
    size_t Written = 0;
    for (const KernelVariant &V : K.Variants) {
      if (!V.D || V.When.size() > MaxGuardAtoms || !sameSignature(K, *V.D) ||
          Written == MaxVariants)
        continue;
      ++Written;
      Body.uleb(V.When.size());
      for (const GuardAtom &G : V.When) {
        Body.uleb(G.Param);
        Body.u8(G.Bits);
        Body.u8(uint8_t(G.How));
        Body.u8(uint8_t(G.Pred));
        Body.uleb(G.Const);
        if (G.How == GuardView::Mask)
          Body.uleb(G.Mask);
      }
      writeBody(Body, *V.D);
    }
  }

  auto PointerPair = [&K](uint32_t A, uint32_t B) {
    return A < B && B < K.Params.size() && K.Params[A].IsPointer && K.Params[B].IsPointer;
  };
  size_t NA = 0;
  for (const auto &[A, B] : K.AliasOk)
    NA += PointerPair(A, B);
  if (NA) {
    Flags |= GMEM_DESC_FLAG_ALIAS_OK;
    Body.uleb(std::min(NA, MaxAliasPairs));
    size_t Written = 0;
    for (const auto &[A, B] : K.AliasOk)
      if (PointerPair(A, B) && Written++ < MaxAliasPairs) {
        Body.uleb(A);
        Body.uleb(B);
      }
  }

  Writer Out;
  Out.u32(GMEM_DESC_MAGIC);
  Out.u16(GMEM_DESC_VERSION);
  Out.u16(Flags);
  Out.u32(uint32_t(Body.Buf.size()));
  Out.Buf.insert(Out.Buf.end(), Body.Buf.begin(), Body.Buf.end());
  return Out.Buf;
}

bool decodeDescriptor(const uint8_t *Data, size_t Size, KernelDescriptor &Out,
                      std::string *Error) {
  try {
    Reader H(Data, Size);
    if (H.u32() != GMEM_DESC_MAGIC)
      throw DecodeError("not a gmem descriptor (bad magic)");
    uint16_t Version = H.u16();
    if (Version != GMEM_DESC_VERSION)
      throw DecodeError("descriptor version " + std::to_string(Version) +
                        ", this reader understands " + std::to_string(GMEM_DESC_VERSION));
    const uint16_t Flags = H.u16();
    if (Flags & ~uint16_t(GMEM_DESC_FLAG_VARIANTS | GMEM_DESC_FLAG_ALIAS_OK))
      throw DecodeError("unknown descriptor flags");
    uint32_t N = H.u32();
    if (N > size_t(H.End - H.P))
      throw DecodeError("truncated descriptor");
    if (N < size_t(H.End - H.P))
      throw DecodeError("bytes after the descriptor's payload");
    Reader R(H.P, N);
    KernelDescriptor K = readBody(R);
    if (Flags & GMEM_DESC_FLAG_VARIANTS) {
      size_t NV = R.count();
      if (NV == 0 || NV > MaxVariants)
        throw DecodeError("bad variant count");
      for (size_t I = 0; I < NV; ++I) {
        KernelVariant V;
        size_t NA = R.count();
        if (NA > MaxGuardAtoms)
          throw DecodeError("too many guard atoms");
        for (size_t J = 0; J < NA; ++J) {
          GuardAtom G;
          uint64_t Param = R.uleb();
          if (Param >= K.Params.size())
            throw DecodeError("guard on a parameter that does not exist");
          G.Param = uint32_t(Param);
          G.Bits = R.u8();
          uint8_t How = R.u8(), Pred = R.u8();
          if (How > uint8_t(GuardView::Last) || Pred > uint8_t(GuardPred::Last))
            throw DecodeError("bad guard");
          G.How = GuardView(How);
          G.Pred = GuardPred(Pred);
          G.Const = R.uleb();
          if (G.How == GuardView::Mask)
            G.Mask = R.uleb();
          if (!guardAtomValid(G, K.Params[G.Param].Type))
            throw DecodeError("guard does not fit its parameter");
          V.When.push_back(G);
        }
        KernelDescriptor VD = readBody(R);
        if (!sameSignature(K, VD))
          throw DecodeError("variant with other parameters");
        V.D = std::make_shared<const KernelDescriptor>(std::move(VD));
        K.Variants.push_back(std::move(V));
      }
    }
    if (Flags & GMEM_DESC_FLAG_ALIAS_OK) {
      size_t NA = R.count();
      if (NA == 0 || NA > MaxAliasPairs)
        throw DecodeError("bad alias pair count");
      for (size_t I = 0; I < NA; ++I) {
        uint64_t A = R.uleb(), B = R.uleb();
        if (A >= B || B >= K.Params.size() || !K.Params[A].IsPointer || !K.Params[B].IsPointer)
          throw DecodeError("alias pair of parameters that are not two pointers");
        K.AliasOk.push_back({uint32_t(A), uint32_t(B)});
      }
    }
    if (R.P != R.End)
      throw DecodeError("trailing bytes in descriptor");
    Out = std::move(K);
    return true;
  } catch (const DecodeError &E) {
    if (Error)
      *Error = E.what();
    return false;
  }
}

} // namespace gmem

#include "gmem/compiler/LaunchGuard.h"

#include "gmem/compiler/KernelDescriptor.h"

#include <cmath>
#include <cstring>

namespace gmem {
namespace {

uint64_t maskOf(unsigned Bits) { return Bits >= 64 ? ~0ull : (1ull << Bits) - 1; }

int64_t signedAt(uint64_t X, unsigned Bits) {
  if (Bits >= 64)
    return int64_t(X);
  unsigned Shift = 64 - Bits;
  return int64_t(X << Shift) >> Shift;
}

bool isIntParam(ScalarType T) {
  return T == ScalarType::I8 || T == ScalarType::I16 || T == ScalarType::I32 ||
         T == ScalarType::I64 || T == ScalarType::Ptr;
}

const char *predText(GuardPred P) {
  switch (P) {
  case GuardPred::Eq: return "==";
  case GuardPred::Ne: return "!=";
  case GuardPred::Slt: return "<";
  case GuardPred::Sle: return "<=";
  case GuardPred::Sgt: return ">";
  case GuardPred::Sge: return ">=";
  case GuardPred::Ult: return "< (unsigned)";
  case GuardPred::Ule: return "<= (unsigned)";
  case GuardPred::Ugt: return "> (unsigned)";
  case GuardPred::Uge: return ">= (unsigned)";
  case GuardPred::FOeq: return "==";
  case GuardPred::FOne: return "!= (ordered)";
  case GuardPred::FOlt: return "<";
  case GuardPred::FOle: return "<=";
  case GuardPred::FOgt: return ">";
  case GuardPred::FOge: return ">=";
  case GuardPred::FOrd: return "ordered with";
  case GuardPred::FUno: return "unordered with";
  case GuardPred::FUeq: return "== (or NaN)";
  case GuardPred::FUne: return "!=";
  case GuardPred::FUlt: return "< (or NaN)";
  case GuardPred::FUle: return "<= (or NaN)";
  case GuardPred::FUgt: return "> (or NaN)";
  case GuardPred::FUge: return ">= (or NaN)";
  }
  return "?";
}

template <typename F> bool compareFloat(GuardPred P, F A, F B) {
  const bool Uno = std::isnan(A) || std::isnan(B);
  switch (P) {
  case GuardPred::FOeq: return !Uno && A == B;
  case GuardPred::FOne: return !Uno && A != B;
  case GuardPred::FOlt: return !Uno && A < B;
  case GuardPred::FOle: return !Uno && A <= B;
  case GuardPred::FOgt: return !Uno && A > B;
  case GuardPred::FOge: return !Uno && A >= B;
  case GuardPred::FOrd: return !Uno;
  case GuardPred::FUno: return Uno;
  case GuardPred::FUeq: return Uno || A == B;
  case GuardPred::FUne: return Uno || A != B;
  case GuardPred::FUlt: return Uno || A < B;
  case GuardPred::FUle: return Uno || A <= B;
  case GuardPred::FUgt: return Uno || A > B;
  case GuardPred::FUge: return Uno || A >= B;
  default: return false;
  }
}

unsigned classRank(IdempotenceClass C) {
  switch (C) {
  case IdempotenceClass::Idempotent: return 0;
  case IdempotenceClass::Conditional: return 1;
  default: return 2;
  }
}

} // namespace

bool isFloatPred(GuardPred P) { return P >= GuardPred::FOeq; }

GuardPred inversePred(GuardPred P) {
  switch (P) {
  case GuardPred::Eq: return GuardPred::Ne;
  case GuardPred::Ne: return GuardPred::Eq;
  case GuardPred::Slt: return GuardPred::Sge;
  case GuardPred::Sle: return GuardPred::Sgt;
  case GuardPred::Sgt: return GuardPred::Sle;
  case GuardPred::Sge: return GuardPred::Slt;
  case GuardPred::Ult: return GuardPred::Uge;
  case GuardPred::Ule: return GuardPred::Ugt;
  case GuardPred::Ugt: return GuardPred::Ule;
  case GuardPred::Uge: return GuardPred::Ult;
  case GuardPred::FOeq: return GuardPred::FUne;
  case GuardPred::FOne: return GuardPred::FUeq;
  case GuardPred::FOlt: return GuardPred::FUge;
  case GuardPred::FOle: return GuardPred::FUgt;
  case GuardPred::FOgt: return GuardPred::FUle;
  case GuardPred::FOge: return GuardPred::FUlt;
  case GuardPred::FOrd: return GuardPred::FUno;
  case GuardPred::FUno: return GuardPred::FOrd;
  case GuardPred::FUeq: return GuardPred::FOne;
  case GuardPred::FUne: return GuardPred::FOeq;
  case GuardPred::FUlt: return GuardPred::FOge;
  case GuardPred::FUle: return GuardPred::FOgt;
  case GuardPred::FUgt: return GuardPred::FOle;
  case GuardPred::FUge: return GuardPred::FOlt;
  }
  return P;
}

bool guardAtomValid(const GuardAtom &G, ScalarType T) {
  if (G.Pred > GuardPred::Last || G.How > GuardView::Last)
    return false;
  const unsigned W = scalarTypeBits(T);
  if (isFloatPred(G.Pred))
    return (T == ScalarType::F32 || T == ScalarType::F64) && G.How == GuardView::Same &&
           G.Bits == W;
  if (!isIntParam(T) || G.Bits < 1 || G.Bits > 64 || (G.Const & ~maskOf(G.Bits)))
    return false;
  if ((G.How == GuardView::Mask) != (G.Mask != 0))
    return false;
  switch (G.How) {
  case GuardView::Same: return G.Bits == W;
  case GuardView::Trunc: return G.Bits < W;
  case GuardView::ZExt:
  case GuardView::SExt: return G.Bits > W;
  case GuardView::Bool: return T == ScalarType::I8 && G.Bits == 1;
  case GuardView::Mask: return G.Bits == W && !(G.Mask & ~maskOf(W));
  }
  return false;
}

bool guardHolds(const GuardAtom &G, ScalarType T, uint64_t ParamBits) {
  if (!guardAtomValid(G, T))
    return false;
  const unsigned W = scalarTypeBits(T);
  uint64_t X = ParamBits & maskOf(W);
  if (isFloatPred(G.Pred)) {
    if (W == 32) {
      float A, B;
      uint32_t XA = uint32_t(X), XB = uint32_t(G.Const);
      std::memcpy(&A, &XA, 4);
      std::memcpy(&B, &XB, 4);
      return compareFloat(G.Pred, A, B);
    }
    double A, B;
    std::memcpy(&A, &X, 8);
    std::memcpy(&B, &G.Const, 8);
    return compareFloat(G.Pred, A, B);
  }
  switch (G.How) {
  case GuardView::Same:
  case GuardView::ZExt: break;
  case GuardView::Trunc: X &= maskOf(G.Bits); break;
  case GuardView::SExt: X = uint64_t(signedAt(X, W)) & maskOf(G.Bits); break;
  case GuardView::Bool:
    if (X > 1)
      return false; // not a bool the kernel's IR can see: no variant applies
    break;
  case GuardView::Mask: X &= G.Mask; break;
  }
  const uint64_t C = G.Const;
  const int64_t SX = signedAt(X, G.Bits), SC = signedAt(C, G.Bits);
  switch (G.Pred) {
  case GuardPred::Eq: return X == C;
  case GuardPred::Ne: return X != C;
  case GuardPred::Slt: return SX < SC;
  case GuardPred::Sle: return SX <= SC;
  case GuardPred::Sgt: return SX > SC;
  case GuardPred::Sge: return SX >= SC;
  case GuardPred::Ult: return X < C;
  case GuardPred::Ule: return X <= C;
  case GuardPred::Ugt: return X > C;
  case GuardPred::Uge: return X >= C;
  default: return false;
  }
}

std::string guardText(const KernelDescriptor &K, const GuardAtom &G) {
  std::string Name = G.Param < K.Params.size() ? K.Params[G.Param].Name
                                               : "arg" + std::to_string(G.Param);
  const ScalarType T = G.Param < K.Params.size() ? K.Params[G.Param].Type : ScalarType::Other;
  if (isFloatPred(G.Pred)) {
    double V;
    if (G.Bits == 32) {
      float F;
      uint32_t B = uint32_t(G.Const);
      std::memcpy(&F, &B, 4);
      V = F;
    } else {
      std::memcpy(&V, &G.Const, 8);
    }
    char Buf[64];
    std::snprintf(Buf, sizeof Buf, "%g", V);
    return Name + " " + predText(G.Pred) + " " + Buf;
  }
  if (T == ScalarType::Ptr && G.Const == 0 && (G.Pred == GuardPred::Eq || G.Pred == GuardPred::Ne))
    return Name + " " + predText(G.Pred) + " null";
  if (G.How == GuardView::Mask) {
    char Buf[32];
    std::snprintf(Buf, sizeof Buf, "0x%llx", (unsigned long long)G.Mask);
    Name = "(" + Name + " & " + Buf + ")";
  } else if (G.How == GuardView::Trunc)
    Name = "(i" + std::to_string(G.Bits) + ")" + Name;
  else if (G.How == GuardView::ZExt || G.How == GuardView::SExt)
    Name = std::string(G.How == GuardView::ZExt ? "zext " : "sext ") + Name;
  const bool Signed = G.Pred >= GuardPred::Slt && G.Pred <= GuardPred::Sge;
  const std::string C = Signed ? std::to_string(signedAt(G.Const, G.Bits))
                               : std::to_string(G.Const);
  return Name + " " + predText(G.Pred) + " " + C;
}

const KernelDescriptor &selectVariant(const KernelDescriptor &K, const uint64_t *ArgBits,
                                      size_t NumArgs) {
  // A variant whose guards hold describes the launch at least as well as
  // the kernel (the same code with more known): it wins ties with K; among
  // variants the better class wins, the first of equals.
  const KernelDescriptor *Best = &K;
  for (const KernelVariant &V : K.Variants) {
    if (!V.D || classRank(V.D->Class) > classRank(Best->Class) ||
        (Best != &K && classRank(V.D->Class) == classRank(Best->Class)))
      continue;
    bool All = true;
    for (const GuardAtom &G : V.When)
      All = All && G.Param < NumArgs && G.Param < K.Params.size() &&
            guardHolds(G, K.Params[G.Param].Type, ArgBits[G.Param]);
    if (All)
      Best = V.D.get();
  }
  return *Best;
}

} // namespace gmem

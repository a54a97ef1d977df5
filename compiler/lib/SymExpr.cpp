#include "gmem/compiler/SymExpr.h"

#include <algorithm>
#include <map>

namespace gmem {
namespace {

const char *opName(ExprOp Op) {
  switch (Op) {
  case ExprOp::Add: return "add";
  case ExprOp::Mul: return "mul";
  case ExprOp::SMin: return "min";
  case ExprOp::SMax: return "max";
  case ExprOp::UDiv: return "udiv";
  case ExprOp::SDiv: return "sdiv";
  default: return "?";
  }
}

std::string varText(Var V) {
  static const char *Dim = "xyz";
  switch (V.Kind) {
  case VarKind::GridDim: return std::string("gridDim.") + Dim[V.Index % 3];
  case VarKind::BlockDim: return std::string("blockDim.") + Dim[V.Index % 3];
  case VarKind::Arg: return "arg" + std::to_string(V.Index);
  case VarKind::ArgField:
    return "arg" + std::to_string(V.fieldParam()) + ".i" + std::to_string(8 * V.fieldBytes()) +
           "@" + std::to_string(V.fieldOffset());
  }
  return "?";
}

bool byText(const ExprRef &A, const ExprRef &B) { return A->str() < B->str(); }

// Splits a term into (constant coefficient, rest) so that 3*x and 5*x merge.
std::pair<int64_t, ExprRef> splitCoefficient(const ExprRef &T) {
  if (T->op() == ExprOp::Mul && T->operands().size() >= 2 && T->operands().front()->isConst()) {
    const auto &Ops = T->operands();
    std::vector<ExprRef> Rest(Ops.begin() + 1, Ops.end());
    ExprRef R = Rest.size() == 1 ? Rest[0] : Expr::raw(ExprOp::Mul, 0, Rest);
    return {Ops[0]->constant(), R};
  }
  return {1, T};
}

ExprRef scaled(int64_t C, const ExprRef &Base) {
  if (C == 1)
    return Base;
  std::vector<ExprRef> Ops{Expr::constant(C)};
  if (Base->op() == ExprOp::Mul)
    Ops.insert(Ops.end(), Base->operands().begin(), Base->operands().end());
  else
    Ops.push_back(Base);
  return Expr::raw(ExprOp::Mul, 0, std::move(Ops));
}

ExprRef minMax(ExprOp Op, std::vector<ExprRef> In) {
  bool IsMin = Op == ExprOp::SMin;
  std::vector<ExprRef> Flat;
  std::optional<int64_t> K;
  for (auto &E : In) {
    if (E->op() == Op) {
      for (auto &S : E->operands())
        Flat.push_back(S);
    } else {
      Flat.push_back(E);
    }
  }
  std::vector<ExprRef> Keep;
  for (auto &E : Flat) {
    if (E->isConst()) {
      K = !K ? E->constant() : (IsMin ? std::min(*K, E->constant()) : std::max(*K, E->constant()));
      continue;
    }
    Keep.push_back(E);
  }
  // An operand known >= 0 against a constant <= 0: min(x, k) = k and
  // max(x, k) = max(x) (a wmma tile's min(0, 30 * max(1, K)) start is 0).
  if (K && *K <= 0) {
    if (IsMin)
      Keep.erase(std::remove_if(Keep.begin(), Keep.end(),
                                [](const ExprRef &E) { return isKnownNonNegative(E); }),
                 Keep.end());
    else if (std::any_of(Keep.begin(), Keep.end(),
                         [](const ExprRef &E) { return isKnownNonNegative(E); }))
      K.reset();
  }
  if (K)
    Keep.push_back(Expr::constant(*K));
  // max(min(a, b), b) = b and min(max(a, b), b) = b: drop the inner one.
  ExprOp Dual = IsMin ? ExprOp::SMax : ExprOp::SMin;
  for (size_t I = 0; I < Keep.size(); ++I) {
    if (Keep[I]->op() != Dual)
      continue;
    bool Absorbed = false;
    for (const ExprRef &Inner : Keep[I]->operands())
      for (size_t J = 0; J < Keep.size() && !Absorbed; ++J)
        Absorbed = J != I && sameExpr(Inner, Keep[J]);
    if (Absorbed) {
      Keep.erase(Keep.begin() + I);
      --I;
    }
  }
  // Drop operands dominated by another one (they differ by a constant).
  std::vector<ExprRef> Out;
  for (size_t I = 0; I < Keep.size(); ++I) {
    bool Dominated = false;
    for (size_t J = 0; J < Keep.size() && !Dominated; ++J) {
      if (I == J)
        continue;
      auto D = constantDifference(Keep[I], Keep[J]); // Keep[I] - Keep[J]
      if (!D)
        continue;
      // For min, I is dominated when I >= J; ties keep the lower index.
      if (IsMin ? (*D > 0 || (*D == 0 && J < I)) : (*D < 0 || (*D == 0 && J < I)))
        Dominated = true;
    }
    if (!Dominated)
      Out.push_back(Keep[I]);
  }
  if (Out.size() == 1)
    return Out[0];
  std::sort(Out.begin(), Out.end(), byText);
  return Expr::raw(Op, 0, std::move(Out));
}

} // namespace

Expr::Expr(ExprOp Op, int64_t Value, std::vector<ExprRef> Ops)
    : Op(Op), Value(Value), Ops(std::move(Ops)) {
  if (Op == ExprOp::Const) {
    Text = std::to_string(Value);
  } else if (Op == ExprOp::Var) {
    Text = varText(var());
  } else {
    Text = std::string("(") + opName(Op);
    for (auto &O : this->Ops)
      Text += " " + O->str();
    Text += ")";
  }
}

ExprRef Expr::raw(ExprOp Op, int64_t Value, std::vector<ExprRef> Ops) {
  return std::make_shared<const Expr>(Op, Value, std::move(Ops));
}

ExprRef Expr::constant(int64_t V) { return raw(ExprOp::Const, V, {}); }
ExprRef Expr::variable(Var V) { return raw(ExprOp::Var, int64_t(V.pack()), {}); }

ExprRef Expr::add(std::vector<ExprRef> In) {
  std::vector<ExprRef> Flat;
  for (auto &E : In) {
    if (E->op() == ExprOp::Add)
      Flat.insert(Flat.end(), E->operands().begin(), E->operands().end());
    else
      Flat.push_back(E);
  }
  int64_t K = 0;
  std::vector<ExprRef> Leftover; // constants that would overflow stay apart
  std::map<std::string, std::pair<int64_t, ExprRef>> Terms;
  for (auto &E : Flat) {
    if (E->isConst()) {
      int64_t S;
      if (__builtin_add_overflow(K, E->constant(), &S))
        Leftover.push_back(E);
      else
        K = S;
      continue;
    }
    auto [C, Base] = splitCoefficient(E);
    auto It = Terms.find(Base->str());
    if (It == Terms.end()) {
      Terms.emplace(Base->str(), std::make_pair(C, Base));
    } else {
      int64_t S;
      if (__builtin_add_overflow(It->second.first, C, &S))
        Leftover.push_back(E);
      else
        It->second.first = S;
    }
  }
  std::vector<ExprRef> Out;
  for (auto &[Key, CB] : Terms)
    if (CB.first != 0)
      Out.push_back(scaled(CB.first, CB.second));
  Out.insert(Out.end(), Leftover.begin(), Leftover.end());
  std::sort(Out.begin(), Out.end(), byText);
  if (K != 0 || Out.empty())
    Out.push_back(constant(K));
  if (Out.size() == 1)
    return Out[0];
  return raw(ExprOp::Add, 0, std::move(Out));
}

ExprRef Expr::sub(ExprRef A, ExprRef B) { return add(std::move(A), mul(constant(-1), std::move(B))); }

ExprRef Expr::mul(std::vector<ExprRef> In) {
  std::vector<ExprRef> Flat;
  for (auto &E : In) {
    if (E->op() == ExprOp::Mul)
      Flat.insert(Flat.end(), E->operands().begin(), E->operands().end());
    else
      Flat.push_back(E);
  }
  int64_t K = 1;
  std::vector<ExprRef> Factors;
  for (auto &E : Flat) {
    if (E->isConst()) {
      int64_t P;
      if (__builtin_mul_overflow(K, E->constant(), &P))
        Factors.push_back(E);
      else
        K = P;
      continue;
    }
    Factors.push_back(E);
  }
  if (K == 0)
    return constant(0);
  if (Factors.empty())
    return constant(K);
  // Distribute over sums (bounded) so that 4*(i+1) - 4*i and
  // (g-1)*b + b fold: canonical sums of products compare structurally.
  size_t Combos = 1;
  bool HasSum = false;
  for (auto &F : Factors) {
    if (F->op() == ExprOp::Add) {
      HasSum = true;
      Combos *= F->operands().size();
    }
  }
  if (HasSum && Combos <= 16 && (Factors.size() > 1 || K != 1)) {
    std::vector<std::vector<ExprRef>> Partial{{constant(K)}};
    for (auto &F : Factors) {
      std::vector<ExprRef> Choices =
          F->op() == ExprOp::Add ? F->operands() : std::vector<ExprRef>{F};
      std::vector<std::vector<ExprRef>> Next;
      for (auto &P : Partial)
        for (auto &C : Choices) {
          auto Q = P;
          Q.push_back(C);
          Next.push_back(std::move(Q));
        }
      Partial = std::move(Next);
    }
    std::vector<ExprRef> Terms;
    for (auto &P : Partial)
      Terms.push_back(mul(std::move(P)));
    return add(std::move(Terms));
  }
  std::sort(Factors.begin(), Factors.end(), byText);
  if (K == 1 && Factors.size() == 1)
    return Factors[0];
  std::vector<ExprRef> Out;
  if (K != 1)
    Out.push_back(constant(K));
  Out.insert(Out.end(), Factors.begin(), Factors.end());
  return raw(ExprOp::Mul, 0, std::move(Out));
}

ExprRef Expr::smin(std::vector<ExprRef> Ops) { return minMax(ExprOp::SMin, std::move(Ops)); }
ExprRef Expr::smax(std::vector<ExprRef> Ops) { return minMax(ExprOp::SMax, std::move(Ops)); }

ExprRef Expr::udiv(ExprRef A, ExprRef B) {
  if (B->isConst(1))
    return A;
  if (A->isConst(0))
    return A;
  if (A->isConst() && B->isConst() && A->constant() >= 0 && B->constant() > 0)
    return constant(A->constant() / B->constant());
  return raw(ExprOp::UDiv, 0, {std::move(A), std::move(B)});
}

ExprRef Expr::sdiv(ExprRef A, ExprRef B) {
  if (B->isConst(1))
    return A;
  if (A->isConst(0))
    return A;
  if (A->isConst() && B->isConst() && B->constant() != 0 &&
      !(A->constant() == INT64_MIN && B->constant() == -1))
    return constant(A->constant() / B->constant());
  return raw(ExprOp::SDiv, 0, {std::move(A), std::move(B)});
}

bool sameExpr(const ExprRef &A, const ExprRef &B) { return A == B || A->str() == B->str(); }

std::optional<int64_t> constantDifference(const ExprRef &A, const ExprRef &B) {
  if (sameExpr(A, B))
    return 0;
  ExprRef D = Expr::sub(A, B);
  if (D->isConst())
    return D->constant();
  return std::nullopt;
}

bool isKnownNonNegative(const ExprRef &E) {
  const auto &Ops = E->operands();
  auto All = [&](bool (*P)(const ExprRef &)) { return std::all_of(Ops.begin(), Ops.end(), P); };
  switch (E->op()) {
  case ExprOp::Const: return E->constant() >= 0;
  case ExprOp::Var: return E->var().Kind == VarKind::GridDim || E->var().Kind == VarKind::BlockDim;
  case ExprOp::Add:
  case ExprOp::Mul:
  case ExprOp::SMin: return All(isKnownNonNegative);
  case ExprOp::SMax: return std::any_of(Ops.begin(), Ops.end(), isKnownNonNegative);
  case ExprOp::UDiv: return true; // defined only on non-negative operands
  case ExprOp::SDiv: return All(isKnownNonNegative);
  }
  return false;
}

bool isKnownPositive(const ExprRef &E) {
  const auto &Ops = E->operands();
  switch (E->op()) {
  case ExprOp::Const: return E->constant() >= 1;
  case ExprOp::Var: return E->var().Kind == VarKind::GridDim || E->var().Kind == VarKind::BlockDim;
  case ExprOp::Mul:
  case ExprOp::SMin: return std::all_of(Ops.begin(), Ops.end(), isKnownPositive);
  case ExprOp::Add:
    return std::all_of(Ops.begin(), Ops.end(), isKnownNonNegative) &&
           std::any_of(Ops.begin(), Ops.end(), isKnownPositive);
  case ExprOp::SMax: return std::any_of(Ops.begin(), Ops.end(), isKnownPositive);
  default: return false;
  }
}

std::optional<int64_t> readArgField(const LaunchValues &L, unsigned Param, unsigned Offset,
                                    unsigned Bytes) {
  if (!L.ArgBytes || Param >= L.ArgBytes->size())
    return std::nullopt;
  const std::vector<uint8_t> &B = (*L.ArgBytes)[Param];
  if (Bytes == 0 || Bytes > 8 || Offset + Bytes > B.size())
    return std::nullopt;
  uint64_t V = 0;
  for (unsigned I = 0; I < Bytes; ++I)
    V |= uint64_t(B[Offset + I]) << (8 * I);
  unsigned Shift = 64 - 8 * Bytes;
  return Shift ? int64_t(V << Shift) >> Shift : int64_t(V);
}

std::optional<int64_t> evaluate(const Expr &E, const LaunchValues &L) {
  switch (E.op()) {
  case ExprOp::Const: return E.constant();
  case ExprOp::Var: {
    Var V = E.var();
    if (V.Kind == VarKind::GridDim && V.Index < 3) return L.Grid[V.Index];
    if (V.Kind == VarKind::BlockDim && V.Index < 3) return L.Block[V.Index];
    if (V.Kind == VarKind::Arg && V.Index < L.Args.size()) return L.Args[V.Index];
    if (V.Kind == VarKind::ArgField)
      return readArgField(L, V.fieldParam(), V.fieldOffset(), V.fieldBytes());
    return std::nullopt;
  }
  default: break;
  }
  // Fold operand by operand: no allocation on the launch path.
  const auto &Ops = E.operands();
  if (Ops.empty())
    return std::nullopt;
  auto First = evaluate(*Ops[0], L);
  if (!First)
    return std::nullopt;
  int64_t R = *First;
  for (size_t I = 1; I < Ops.size(); ++I) {
    auto V = evaluate(*Ops[I], L);
    if (!V)
      return std::nullopt;
    switch (E.op()) {
    case ExprOp::Add:
      if (__builtin_add_overflow(R, *V, &R)) return std::nullopt;
      break;
    case ExprOp::Mul:
      if (__builtin_mul_overflow(R, *V, &R)) return std::nullopt;
      break;
    case ExprOp::SMin: R = std::min(R, *V); break;
    case ExprOp::SMax: R = std::max(R, *V); break;
    case ExprOp::UDiv:
      if (R < 0 || *V <= 0) return std::nullopt;
      R /= *V;
      break;
    case ExprOp::SDiv:
      if (*V == 0 || (R == INT64_MIN && *V == -1)) return std::nullopt;
      R /= *V;
      break;
    default: return std::nullopt;
    }
  }
  return R;
}

namespace {
// |V| as text; INT64_MIN has no int64 negation, so go through uint64.
std::string magnitude(int64_t V) {
  uint64_t M = V < 0 ? 0 - uint64_t(V) : uint64_t(V);
  return std::to_string(M);
}

// Precedence: 0 = sum, 1 = product, 2 = atom.
std::string renderP(const ExprRef &E, const std::vector<std::string> &Names, int Ctx) {
  auto R = [&](const ExprRef &X, int C) { return renderP(X, Names, C); };
  std::string S;
  int Prec = 2;
  switch (E->op()) {
  case ExprOp::Const:
    S = std::to_string(E->constant());
    Prec = E->constant() < 0 ? 0 : 2;
    break;
  case ExprOp::Var: {
    Var V = E->var();
    if (V.Kind == VarKind::Arg && V.Index < Names.size() && !Names[V.Index].empty())
      S = Names[V.Index];
    else if (V.Kind == VarKind::ArgField && V.fieldParam() < Names.size() &&
             !Names[V.fieldParam()].empty())
      S = Names[V.fieldParam()] + ".i" + std::to_string(8 * V.fieldBytes()) + "@" +
          std::to_string(V.fieldOffset());
    else
      S = varText(V);
    break;
  }
  case ExprOp::Add: {
    Prec = 0;
    bool First = true;
    for (auto &T : E->operands()) {
      auto [C, Base] = splitCoefficient(T);
      bool Neg = T->isConst() ? T->constant() < 0 : C < 0;
      std::string Body;
      if (T->isConst())
        Body = magnitude(T->constant());
      else if (C == -1)
        Body = R(Base, 1);
      else if (Neg)
        Body = magnitude(C) + "*" + R(Base, 2);
      else
        Body = R(T, 1);
      if (First)
        S = Neg ? "-" + Body : Body;
      else
        S += Neg ? " - " + Body : " + " + Body;
      First = false;
    }
    break;
  }
  case ExprOp::Mul: {
    Prec = 1;
    auto [C, Base] = splitCoefficient(E);
    if (C == -1) {
      S = "-" + R(Base, 2);
      break;
    }
    bool First = true;
    for (auto &F : E->operands()) {
      S += (First ? "" : "*") + R(F, 2);
      First = false;
    }
    break;
  }
  case ExprOp::SMin:
  case ExprOp::SMax: {
    S = E->op() == ExprOp::SMin ? "min(" : "max(";
    for (size_t I = 0; I < E->operands().size(); ++I)
      S += (I ? ", " : "") + R(E->operands()[I], 0);
    S += ")";
    break;
  }
  case ExprOp::UDiv:
  case ExprOp::SDiv:
    Prec = 1;
    S = R(E->operands()[0], 1) + (E->op() == ExprOp::UDiv ? " /u " : " /s ") +
        R(E->operands()[1], 2);
    break;
  }
  if (Prec < Ctx)
    return "(" + S + ")";
  return S;
}
} // namespace

std::string render(const ExprRef &E, const std::vector<std::string> &ArgNames) {
  return renderP(E, ArgNames, 0);
}

} // namespace gmem

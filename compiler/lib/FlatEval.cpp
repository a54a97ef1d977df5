#include "gmem/compiler/FlatEval.h"

#include <sstream>
#include <unordered_map>

namespace gmem {
namespace flat {
namespace {

uint32_t addNode(FProgram &P, InternMap &Ids, FOp Op, int64_t Imm, const uint32_t *Ops, uint32_t N) {
  std::string Key;
  Key.reserve(9 + 4 * N);
  Key.push_back(char(Op));
  Key.append(reinterpret_cast<const char *>(&Imm), sizeof Imm);
  Key.append(reinterpret_cast<const char *>(Ops), sizeof(uint32_t) * N);
  auto It = Ids.find(Key);
  if (It != Ids.end())
    return It->second;
  FNode X;
  X.Op = Op;
  X.Imm = Imm;
  X.N = N;
  X.Ops = uint32_t(P.Operands.size());
  P.Operands.insert(P.Operands.end(), Ops, Ops + N);
  uint32_t Id = uint32_t(P.Nodes.size());
  P.Nodes.push_back(X);
  Ids.emplace(std::move(Key), Id);
  return Id;
}

uint32_t leaf(FProgram &P, InternMap &Ids, FOp Op, int64_t Imm) {
  return addNode(P, Ids, Op, Imm, nullptr, 0);
}

} // namespace

uint32_t compileExpr(const Expr &E, unsigned NArgs, FProgram &P, InternMap &Ids) {
  switch (E.op()) {
  case ExprOp::Const:
    return leaf(P, Ids, FOp::Const, E.constant());
  case ExprOp::Var: {
    Var V = E.var();
    if (V.Kind == VarKind::GridDim && V.Index < 3)
      return leaf(P, Ids, FOp::Slot, int64_t(V.Index));
    if (V.Kind == VarKind::BlockDim && V.Index < 3)
      return leaf(P, Ids, FOp::Slot, int64_t(3 + V.Index));
    if (V.Kind == VarKind::Arg && V.Index < NArgs)
      return leaf(P, Ids, FOp::Slot, int64_t(ArgSlot0 + V.Index));
    if (V.Kind == VarKind::ArgField)
      return leaf(P, Ids, FOp::Field, int64_t(V.Index & 0xffffff));
    return leaf(P, Ids, FOp::Fail, 0); // evaluate: a variable with no value
  }
  default:
    break;
  }
  const auto &Ops = E.operands();
  if (Ops.empty())
    return leaf(P, Ids, FOp::Fail, 0);
  FOp Op;
  bool Known = true;
  switch (E.op()) {
  case ExprOp::Add: Op = FOp::Add; break;
  case ExprOp::Mul: Op = FOp::Mul; break;
  case ExprOp::SMin: Op = FOp::SMin; break;
  case ExprOp::SMax: Op = FOp::SMax; break;
  case ExprOp::UDiv: Op = FOp::UDiv; break;
  case ExprOp::SDiv: Op = FOp::SDiv; break;
  default: Op = FOp::Fail; Known = false; break;
  }
  std::vector<uint32_t> In;
  In.reserve(Ops.size());
  for (const ExprRef &O : Ops)
    In.push_back(compileExpr(*O, NArgs, P, Ids));
  // evaluate() folds a single operand to its value, whatever the op; a node
  // of an unknown op with two or more operands has no value (once its
  // operands have one: a failing operand fails either way).
  if (In.size() == 1)
    return In[0];
  if (!Known)
    return addNode(P, Ids, FOp::Fail, 0, In.data(), uint32_t(In.size()));
  return addNode(P, Ids, Op, 0, In.data(), uint32_t(In.size()));
}

void evalProgram(const FProgram &P, const EvalEnv &Env, int64_t *V, uint8_t *Ok) {
  const FNode *Nodes = P.Nodes.data();
  const uint32_t *Operands = P.Operands.data();
  const size_t N = P.Nodes.size();
  for (size_t I = 0; I < N; ++I) {
    const FNode &X = Nodes[I];
    switch (X.Op) {
    case FOp::Const:
      V[I] = X.Imm;
      Ok[I] = 1;
      continue;
    case FOp::Slot:
      V[I] = Env.Slots[X.Imm];
      Ok[I] = 1;
      continue;
    case FOp::Field:
      Ok[I] = detail::readField(Env, uint32_t(X.Imm), V[I]);
      continue;
    case FOp::Fail:
      Ok[I] = 0;
      continue;
    default:
      break;
    }
    const uint32_t *O = Operands + X.Ops;
    if (X.N == 2) { // the common case, without the fold loop
      const uint32_t A = O[0], B = O[1];
      if (!(Ok[A] & Ok[B])) {
        Ok[I] = 0;
        continue;
      }
      int64_t L = V[A], R2 = V[B], R;
      bool Good = true;
      switch (X.Op) {
      case FOp::Add: Good = !__builtin_add_overflow(L, R2, &R); break;
      case FOp::Mul: Good = !__builtin_mul_overflow(L, R2, &R); break;
      case FOp::SMin: R = R2 < L ? R2 : L; break;
      case FOp::SMax: R = R2 > L ? R2 : L; break;
      case FOp::UDiv:
        Good = L >= 0 && R2 > 0;
        R = Good ? L / R2 : 0;
        break;
      case FOp::SDiv:
        Good = R2 != 0 && !(L == INT64_MIN && R2 == -1);
        R = Good ? L / R2 : 0;
        break;
      default: Good = false; R = 0; break;
      }
      V[I] = R;
      Ok[I] = Good;
      continue;
    }
    bool Good = Ok[O[0]];
    int64_t R = V[O[0]];
    for (uint32_t J = 1; Good && J < X.N; ++J) {
      Good = Ok[O[J]];
      if (!Good)
        break;
      int64_t B = V[O[J]];
      switch (X.Op) {
      case FOp::Add: Good = !__builtin_add_overflow(R, B, &R); break;
      case FOp::Mul: Good = !__builtin_mul_overflow(R, B, &R); break;
      case FOp::SMin: R = B < R ? B : R; break;
      case FOp::SMax: R = B > R ? B : R; break;
      case FOp::UDiv:
        if (R < 0 || B <= 0)
          Good = false;
        else
          R /= B;
        break;
      case FOp::SDiv:
        if (B == 0 || (R == INT64_MIN && B == -1))
          Good = false;
        else
          R /= B;
        break;
      default: Good = false; break;
      }
    }
    V[I] = R;
    Ok[I] = Good;
  }
}

namespace {

FRegion compileRegion(const AccessRegion &R, unsigned NArgs, FlatKernel &F, InternMap &Ids) {
  FRegion Out;
  Out.Kind = R.Kind;
  Out.ChecksBegin = uint32_t(F.Checks.size());
  for (const RangeCheck &C : R.Checks)
    F.Checks.push_back({compileExpr(*C.Value, NArgs, F.Prog, Ids), C.Min, C.Max});
  Out.ChecksEnd = uint32_t(F.Checks.size());
  Out.RangesBegin = uint32_t(F.Ranges.size());
  for (const SymRange &S : R.Ranges) {
    uint32_t Lo = compileExpr(*S.Lo, NArgs, F.Prog, Ids);
    uint32_t Hi = compileExpr(*S.Hi, NArgs, F.Prog, Ids);
    F.Ranges.push_back({Lo, Hi});
  }
  Out.RangesEnd = uint32_t(F.Ranges.size());
  return Out;
}

FParam compileParam(const ParamInfo &P, unsigned NArgs, FlatKernel &F, InternMap &Ids) {
  FParam Out;
  Out.Type = P.Type;
  Out.IsPointer = P.IsPointer;
  Out.Accessed = P.Read.accessed() || P.Write.accessed();
  Out.Atomic = P.Atomic;
  Out.RWDisjoint = P.RWDisjoint;
  Out.Read = compileRegion(P.Read, NArgs, F, Ids);
  Out.Write = compileRegion(P.Write, NArgs, F, Ids);
  Out.DisjointBegin = uint32_t(F.Checks.size());
  for (const RangeCheck &C : P.DisjointChecks)
    F.Checks.push_back({compileExpr(*C.Value, NArgs, F.Prog, Ids), C.Min, C.Max});
  Out.DisjointEnd = uint32_t(F.Checks.size());
  Out.FieldParam = P.FieldParam;
  Out.FieldOffset = P.FieldOffset;
  return Out;
}

void rangesOf(const FastDecision &D, uint32_t B, uint32_t E, std::vector<ByteRange> &Out) {
  Out.assign(D.Pool.begin() + B, D.Pool.begin() + E);
}

std::string rangesText(const std::vector<ByteRange> &R) {
  std::ostringstream S;
  S << "[";
  for (const ByteRange &B : R)
    S << "[0x" << std::hex << B.Lo << ",0x" << B.Hi << ")";
  S << "]";
  return S.str();
}

std::string compareAccess(const std::string &Who, const ConcreteAccess &F, const ConcreteAccess &R) {
  auto Diff = [&](const std::string &What, const std::string &A, const std::string &B) {
    return Who + " " + What + ": compiled " + A + ", reference " + B;
  };
  if (F.Alloc.has_value() != R.Alloc.has_value() ||
      (F.Alloc && (F.Alloc->Base != R.Alloc->Base || F.Alloc->Size != R.Alloc->Size)))
    return Diff("allocation", F.Alloc ? "set" : "none", R.Alloc ? "set" : "none");
  auto Same = [](const std::vector<ByteRange> &A, const std::vector<ByteRange> &B) {
    if (A.size() != B.size())
      return false;
    for (size_t I = 0; I < A.size(); ++I)
      if (A[I].Lo != B[I].Lo || A[I].Hi != B[I].Hi)
        return false;
    return true;
  };
  if (!Same(F.Read, R.Read))
    return Diff("read", rangesText(F.Read), rangesText(R.Read));
  if (!Same(F.Write, R.Write))
    return Diff("write", rangesText(F.Write), rangesText(R.Write));
  if (F.ReadAnything != R.ReadAnything)
    return Diff("read-anything", std::to_string(F.ReadAnything), std::to_string(R.ReadAnything));
  if (F.WriteAnything != R.WriteAnything)
    return Diff("write-anything", std::to_string(F.WriteAnything), std::to_string(R.WriteAnything));
  if (F.ReadExact != R.ReadExact)
    return Diff("read-exact", std::to_string(F.ReadExact), std::to_string(R.ReadExact));
  if (F.WriteExact != R.WriteExact)
    return Diff("write-exact", std::to_string(F.WriteExact), std::to_string(R.WriteExact));
  if (F.Note.empty() != R.Note.empty())
    return Diff("widened", F.Note.empty() ? "no" : "yes", R.Note.empty() ? "no" : "yes (" + R.Note + ")");
  return "";
}

} // namespace

FlatKernel compileKernel(const KernelDescriptor &K) {
  FlatKernel F;
  InternMap Ids;
  unsigned NArgs = unsigned(K.Params.size());
  for (size_t I = 0; I < K.Params.size(); ++I) {
    F.Params.push_back(compileParam(K.Params[I], NArgs, F, Ids));
    if (K.Params[I].IsPointer)
      F.PointerParams.push_back(uint32_t(I));
  }
  for (const ParamInfo &G : K.Globals)
    F.Globals.push_back(compileParam(G, NArgs, F, Ids));
  for (const ParamInfo &P : K.Fields)
    F.Fields.push_back(compileParam(P, NArgs, F, Ids));
  F.UnknownRead = K.UnknownRead.accessed();
  F.UnknownWrite = K.UnknownWrite.accessed();
  F.NeverIdempotent = K.Class == IdempotenceClass::NonIdempotent;
  F.AliasOk = K.AliasOk;
  F.NeedsBytes.assign(K.Params.size(), false);
  for (size_t I = 0; I < K.Params.size(); ++I)
    F.NeedsBytes[I] = K.Params[I].ByteSize > 0 || K.Params[I].Type == ScalarType::Other;
  for (const ParamInfo &P : K.Fields)
    if (P.FieldParam >= 0 && size_t(P.FieldParam) < K.Params.size())
      F.NeedsBytes[size_t(P.FieldParam)] = true;
  for (const FNode &N : F.Prog.Nodes)
    if (N.Op == FOp::Field && size_t(N.Imm >> 16 & 0xff) < K.Params.size())
      F.NeedsBytes[size_t(N.Imm >> 16 & 0xff)] = true;
  return F;
}

std::string fastReason(const KernelDescriptor &K, const FastDecision &D) {
  if (D.Idempotent)
    return IdempotentLaunchReason;
  if (!D.HasClash)
    return K.Class == IdempotenceClass::NonIdempotent ? neverIdempotentReason(K) : "";
  if (D.ClashAnything)
    return accessOwnerName(K, D.Clash.WriteIndex) + " may write, and " +
           accessOwnerName(K, D.Clash.ReadIndex) + " may read, memory the analysis cannot bound";
  return "write of " + accessOwnerName(K, D.Clash.WriteIndex) + " overlaps read of " +
         accessOwnerName(K, D.Clash.ReadIndex);
}

InstanceDecision toInstanceDecision(const KernelDescriptor &K, const FastDecision &D) {
  InstanceDecision R;
  R.Idempotent = D.Idempotent;
  R.Reason = fastReason(K, D);
  auto Conv = [&](const FastAccess &A) {
    ConcreteAccess C;
    if (A.HasAlloc)
      C.Alloc = A.Alloc;
    rangesOf(D, A.ReadBegin, A.ReadEnd, C.Read);
    rangesOf(D, A.WriteBegin, A.WriteEnd, C.Write);
    C.ReadAnything = A.ReadAnything;
    C.WriteAnything = A.WriteAnything;
    C.ReadExact = A.ReadExact;
    C.WriteExact = A.WriteExact;
    static const char *Why[] = {"", "launch fails a no-wrap check",
                                "region bound overflows at this launch",
                                "region wraps the address space", "pointer is in no known allocation"};
    C.Note = Why[int(A.Widened)];
    return C;
  };
  for (const FastAccess &A : D.Params)
    R.Params.push_back(Conv(A));
  for (const FastAccess &A : D.Globals)
    R.Globals.push_back(Conv(A));
  for (const FastAccess &A : D.Fields)
    R.Fields.push_back(Conv(A));
  if (D.HasClash)
    R.Clash = D.Clash;
  return R;
}

std::string compareDecisions(const KernelDescriptor &K, const FastDecision &F,
                             const InstanceDecision &R) {
  InstanceDecision C = toInstanceDecision(K, F);
  if (C.Idempotent != R.Idempotent)
    return "idempotent: compiled " + std::to_string(C.Idempotent) + ", reference " +
           std::to_string(R.Idempotent);
  if (C.Reason != R.Reason)
    return "reason: compiled '" + C.Reason + "', reference '" + R.Reason + "'";
  if (C.Clash.has_value() != R.Clash.has_value())
    return "conflict presence differs";
  if (C.Clash && (C.Clash->ReadIndex != R.Clash->ReadIndex ||
                  C.Clash->WriteIndex != R.Clash->WriteIndex ||
                  C.Clash->Range.Lo != R.Clash->Range.Lo || C.Clash->Range.Hi != R.Clash->Range.Hi))
    return "conflict differs";
  if (C.Params.size() != R.Params.size() || C.Globals.size() != R.Globals.size() ||
      C.Fields.size() != R.Fields.size())
    return "access count differs";
  for (size_t I = 0; I < C.Fields.size(); ++I) {
    std::string S = compareAccess("field " + std::to_string(I), C.Fields[I], R.Fields[I]);
    if (!S.empty())
      return S;
  }
  for (size_t I = 0; I < C.Params.size(); ++I) {
    std::string S = compareAccess("param " + std::to_string(I), C.Params[I], R.Params[I]);
    if (!S.empty())
      return S;
  }
  for (size_t I = 0; I < C.Globals.size(); ++I) {
    std::string S = compareAccess("global " + std::to_string(I), C.Globals[I], R.Globals[I]);
    if (!S.empty())
      return S;
  }
  return "";
}

} // namespace flat
} // namespace gmem

//===- DisjointnessProver.cpp - Exact read/write disjointness -------------===//

#include "gmem/passes/DisjointnessProver.h"
#include "gmem/passes/GpuTarget.h"

#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "mlir/Analysis/Presburger/PresburgerSpace.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"

#include <map>
#include <optional>
#include <string>

using namespace llvm;
namespace pb = mlir::presburger;

namespace gmem {
namespace {

/// Sum of Coef[col] * col + K. Arithmetic bails out on int64 overflow.
struct Form {
  std::map<unsigned, int64_t> Coef;
  int64_t K = 0;
};

std::optional<Form> addForms(const Form &A, const Form &B, int64_t Scale = 1) {
  Form R = A;
  int64_t T;
  if (__builtin_mul_overflow(B.K, Scale, &T) || __builtin_add_overflow(R.K, T, &R.K))
    return std::nullopt;
  for (auto &[Col, C] : B.Coef) {
    if (__builtin_mul_overflow(C, Scale, &T) || __builtin_add_overflow(R.Coef[Col], T, &R.Coef[Col]))
      return std::nullopt;
  }
  return R;
}

std::optional<Form> scaleForm(const Form &A, int64_t S) { return addForms(Form{}, A, S); }

bool isConstForm(const Form &F) {
  for (auto &[Col, C] : F.Coef)
    if (C)
      return false;
  return true;
}

class Problem {
public:
  Problem(SymbolicRange &SR, std::vector<RangeCheck> &Checks) : SR(SR), Checks(Checks) {}

  /// Affine form of S for access copy `Copy` (0 reader, 1 writer) at At.
  std::optional<Form> affine(const SCEV *S, unsigned Copy, const Instruction *At) {
    auto Key = std::make_pair(S, Copy);
    auto It = Memo.find(Key);
    if (It != Memo.end())
      return It->second;
    std::optional<Form> F = build(S, Copy, At);
    if (F && !isConstForm(*F))
      boundFromRanges(S, *F, At);
    Memo[Key] = F;
    return F;
  }

  /// F >= 0.
  void nonNegative(const Form &F) { Rows.push_back(F); }

  bool isEmpty() {
    unsigned N = NumCols;
    pb::IntegerPolyhedron Poly(pb::PresburgerSpace::getSetSpace(N));
    for (const Form &F : Rows) {
      SmallVector<int64_t, 16> Row(N + 1, 0);
      for (auto &[Col, C] : F.Coef)
        Row[Col] = C;
      Row[N] = F.K;
      Poly.addInequality(Row);
    }
    return Poly.isEmpty();
  }

private:
  SymbolicRange &SR;
  std::vector<RangeCheck> &Checks;
  std::map<std::pair<const SCEV *, unsigned>, std::optional<Form>> Memo;
  std::map<std::string, unsigned> Named;
  std::vector<Form> Rows;
  unsigned NumCols = 0;

  Form column(const std::string &Name, bool *Fresh = nullptr) {
    auto [It, New] = Named.emplace(Name, NumCols);
    if (New)
      ++NumCols;
    if (Fresh)
      *Fresh = New;
    Form F;
    F.Coef[It->second] = 1;
    return F;
  }
  Form freshColumn() { return column("fresh#" + std::to_string(NumCols)); }

  Form sharedVar(Var V) {
    bool New;
    Form F = column("var:" + std::to_string(V.pack()), &New);
    if (New && V.Kind != VarKind::Arg) { // launch dimensions are >= 1
      Form G = F;
      G.K = -1;
      nonNegative(G);
    }
    return F;
  }

  /// Launch-invariant symbolic expression as a form over shared columns.
  /// Non-affine pieces become shared columns with what is known of them.
  std::optional<Form> symbolic(const ExprRef &E) {
    switch (E->op()) {
    case ExprOp::Const: {
      Form F;
      F.K = E->constant();
      return F;
    }
    case ExprOp::Var:
      return sharedVar(E->var());
    case ExprOp::Add: {
      Form Acc;
      for (auto &O : E->operands()) {
        auto F = symbolic(O);
        if (!F || !(F = addForms(Acc, *F)))
          return std::nullopt;
        Acc = *F;
      }
      return Acc;
    }
    case ExprOp::Mul:
      if (E->operands().size() == 2 && E->operands()[0]->isConst()) {
        auto F = symbolic(E->operands()[1]);
        return F ? scaleForm(*F, E->operands()[0]->constant()) : std::nullopt;
      }
      [[fallthrough]];
    default: {
      bool New;
      Form F = column("sym:" + E->str(), &New);
      if (!New)
        return F;
      if (isKnownPositive(E)) {
        Form G = F;
        G.K = -1;
        nonNegative(G);
      } else if (isKnownNonNegative(E)) {
        nonNegative(F);
      }
      // min(a, b) <= a, b and max(a, b) >= a, b.
      if (E->op() == ExprOp::SMin || E->op() == ExprOp::SMax)
        for (auto &O : E->operands())
          if (auto OF = symbolic(O)) {
            auto D = E->op() == ExprOp::SMin ? addForms(*OF, F, -1) : addForms(F, *OF, -1);
            if (D)
              nonNegative(*D);
          }
      return F;
    }
    }
  }

  /// X >= Lo and X <= Hi from SymbolicRange (guards, trip counts).
  /// A min() upper bound splits into one row per operand, likewise a max()
  /// lower bound; other shapes go through symbolic().
  void boundFromRanges(const SCEV *S, const Form &X, const Instruction *At) {
    std::string Why;
    std::vector<RangeCheck> Local;
    Bounds B = SR.bounds(S, At, Local, Why);
    bool Used = false;
    auto Upper = [&](const ExprRef &Hi) {
      std::vector<ExprRef> Parts{Hi};
      if (Hi->op() == ExprOp::SMin)
        Parts = Hi->operands();
      for (auto &P : Parts)
        if (auto F = symbolic(P))
          if (auto D = addForms(*F, X, -1)) {
            nonNegative(*D);
            Used = true;
          }
    };
    auto Lower = [&](const ExprRef &Lo) {
      std::vector<ExprRef> Parts{Lo};
      if (Lo->op() == ExprOp::SMax)
        Parts = Lo->operands();
      for (auto &P : Parts)
        if (auto F = symbolic(P))
          if (auto D = addForms(X, *F, -1)) {
            nonNegative(*D);
            Used = true;
          }
    };
    if (B.Hi)
      Upper(B.Hi);
    if (B.Lo)
      Lower(B.Lo);
    // Always keep the checks: they also justify reading through the
    // extensions and truncations of S (see build()).
    (void)Used;
    Checks.insert(Checks.end(), Local.begin(), Local.end());
  }

  std::optional<Form> build(const SCEV *S, unsigned Copy, const Instruction *At) {
    std::string Tag = std::to_string(Copy) + ":";
    switch (S->getSCEVType()) {
    case scConstant: {
      const APInt &V = cast<SCEVConstant>(S)->getAPInt();
      if (V.getSignificantBits() > 64)
        return std::nullopt;
      Form F;
      F.K = V.getSExtValue();
      return F;
    }
    case scTruncate:
    case scZeroExtend:
    case scSignExtend:
      // Transparent: the no-wrap checks of the bounds used keep this exact.
      return affine(cast<SCEVCastExpr>(S)->getOperand(), Copy, At);
    case scAddExpr: {
      Form Acc;
      for (const SCEV *Op : cast<SCEVAddExpr>(S)->operands()) {
        auto F = affine(Op, Copy, At);
        if (!F)
          return opaque(S, Copy);
        auto Sum = addForms(Acc, *F);
        if (!Sum)
          return std::nullopt;
        Acc = *Sum;
      }
      // Guarded sub-sums (`c` in `r*N + c`) get their bounds as rows too.
      for (const SCEVAddExpr *Part : SR.guardedSubSums(S, At))
        (void)affine(Part, Copy, At);
      return Acc;
    }
    case scMulExpr: {
      std::optional<Form> Var;
      int64_t K = 1;
      for (const SCEV *Op : cast<SCEVMulExpr>(S)->operands()) {
        auto F = affine(Op, Copy, At);
        if (!F)
          return opaque(S, Copy);
        if (isConstForm(*F)) {
          if (__builtin_mul_overflow(K, F->K, &K))
            return std::nullopt;
        } else if (!Var) {
          Var = F;
        } else {
          return opaque(S, Copy); // product of two variables
        }
      }
      if (!Var) {
        Form F;
        F.K = K;
        return F;
      }
      return scaleForm(*Var, K);
    }
    case scAddRecExpr: {
      auto *AR = cast<SCEVAddRecExpr>(S);
      if (!AR->isAffine())
        return opaque(S, Copy);
      auto Start = affine(AR->getStart(), Copy, At);
      if (!Start)
        return opaque(S, Copy);
      // Iteration counter of this loop for this copy: k >= 0.
      bool New;
      Form K = column("k" + Tag + std::to_string(reinterpret_cast<uintptr_t>(AR->getLoop())), &New);
      if (New)
        nonNegative(K);
      const SCEV *Step = AR->getStepRecurrence(SR.scev());
      if (auto *C = dyn_cast<SCEVConstant>(Step)) {
        if (C->getAPInt().getSignificantBits() > 64)
          return std::nullopt;
        auto Term = scaleForm(K, C->getAPInt().getSExtValue());
        return Term ? addForms(*Start, *Term) : std::nullopt;
      }
      // Symbolic step (grid-stride): step * k is one fresh variable with the
      // step's sign; the bounds on the whole recurrence do the rest.
      Form P = freshColumn();
      if (SR.scev().isKnownNonNegative(Step))
        nonNegative(P);
      else if (SR.scev().isKnownNonPositive(Step))
        nonNegative(*scaleForm(P, -1));
      return addForms(*Start, P);
    }
    case scUnknown: {
      Value *V = cast<SCEVUnknown>(S)->getValue();
      if (auto G = classifyGeometry(V)) {
        unsigned D = G->Dim;
        switch (G->Kind) {
        case GeometryKind::BlockDim: return sharedVar(Var::blockDim(D));
        case GeometryKind::GridDim: return sharedVar(Var::gridDim(D));
        case GeometryKind::ThreadIdx:
        case GeometryKind::BlockIdx: {
          bool IsT = G->Kind == GeometryKind::ThreadIdx;
          Form X = column((IsT ? "tid" : "ctaid") + Tag + std::to_string(D), &New0);
          if (New0) {
            nonNegative(X); // idx >= 0, idx <= dim - 1
            Form Dim = sharedVar(IsT ? Var::blockDim(D) : Var::gridDim(D));
            auto Up = addForms(Dim, X, -1);
            Up->K -= 1;
            nonNegative(*Up);
          }
          return X;
        }
        case GeometryKind::LaneId: {
          Form X = column("lane" + Tag, &New0);
          if (New0) {
            nonNegative(X);
            Form Up = *scaleForm(X, -1);
            Up.K = 63;
            nonNegative(Up);
          }
          return X;
        }
        }
      }
      if (auto *A = dyn_cast<Argument>(V))
        if (A->getType()->isIntegerTy())
          return sharedVar(Var::arg(A->getArgNo()));
      return opaque(S, Copy);
    }
    default:
      return opaque(S, Copy);
    }
  }

  // A piece the affine model cannot express: a per-copy variable, bounded
  // afterwards by boundFromRanges.
  std::optional<Form> opaque(const SCEV *S, unsigned Copy) {
    return column("opaque" + std::to_string(Copy) + ":" +
                  std::to_string(reinterpret_cast<uintptr_t>(S)));
  }

  bool New0 = false;
};

} // namespace

bool DisjointnessProver::proveDisjoint(const MemAccess &R, const MemAccess &W,
                                       std::vector<RangeCheck> &Checks) {
  if (!R.Offset || !W.Offset || !R.Size || !W.Size)
    return false;
  auto *RS = dyn_cast<SCEVConstant>(R.Size);
  auto *WS = dyn_cast<SCEVConstant>(W.Size);
  if (!RS || !WS)
    return false;
  int64_t RSize = RS->getAPInt().getSExtValue(), WSize = WS->getAPInt().getSExtValue();
  if (RSize <= 0 || WSize <= 0)
    return RSize <= 0 || WSize <= 0; // an empty access touches nothing

  std::vector<RangeCheck> Local;
  Problem P(SR, Local);
  auto RF = P.affine(R.Offset, 0, R.Inst);
  auto WF = P.affine(W.Offset, 1, W.Inst);
  if (!RF || !WF)
    return false;
  // Overlap of [r, r + RSize) and [w, w + WSize):
  //   w + WSize - 1 - r >= 0  and  r + RSize - 1 - w >= 0.
  auto A = addForms(*WF, *RF, -1);
  auto B = addForms(*RF, *WF, -1);
  if (!A || !B)
    return false;
  A->K += WSize - 1;
  B->K += RSize - 1;
  P.nonNegative(*A);
  P.nonNegative(*B);
  if (!P.isEmpty())
    return false;
  Checks.insert(Checks.end(), Local.begin(), Local.end());
  return true;
}

} // namespace gmem

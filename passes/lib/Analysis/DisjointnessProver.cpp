//===- DisjointnessProver.cpp - Exact read/write disjointness -------------===//

#include "gmem/passes/DisjointnessProver.h"
#include "gmem/passes/GpuTarget.h"

#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "mlir/Analysis/Presburger/PresburgerSpace.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"

#include <map>
#include <numeric>
#include <optional>
#include <set>
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
    // A guarded recurrence or sub-sum can lead back to S (build() asks for
    // their forms only for the rows they add): inside that cycle S has no
    // form, which only leaves rows out.
    if (!InProgress.insert(Key).second)
      return std::nullopt;
    std::optional<Form> F = build(S, Copy, At);
    InProgress.erase(Key);
    if (F && !isConstForm(*F))
      boundFromRanges(S, *F, At);
    Memo[Key] = F;
    return F;
  }

  /// F >= 0.
  void nonNegative(const Form &F) { Rows.push_back(F); }

  /// Emptiness of the rows gathered so far plus Extra (each >= 0).
  bool isEmptyWith(const std::vector<Form> &Extra) {
    unsigned N = NumCols;
    pb::IntegerPolyhedron Poly(pb::PresburgerSpace::getSetSpace(N));
    auto Add = [&](const Form &F) {
      SmallVector<int64_t, 16> Row(N + 1, 0);
      for (auto &[Col, C] : F.Coef)
        Row[Col] = C;
      Row[N] = F.K;
      Poly.addInequality(Row);
    };
    for (const Form &F : Rows)
      Add(F);
    for (const Form &F : Extra)
      Add(F);
    return Poly.isEmpty();
  }

  /// A term of a sum-of-products expansion: Coef * Factors[0] * ...
  struct Term {
    int64_t Coef = 1;
    SmallVector<const SCEV *, 4> Factors;
  };

  /// Expands S (at At) into a sum of products, looking through extensions
  /// (whose no-wrap checks the bounds used carry; zero extensions as in
  /// zeroExtendIsValue). False when it grows too large.
  bool expand(const SCEV *S, int64_t Scale, SmallVectorImpl<Term> &Out, const Instruction *At) {
    if (Out.size() > 32)
      return false;
    if (auto *C = dyn_cast<SCEVConstant>(S)) {
      Term T;
      if (C->getAPInt().getSignificantBits() > 64 ||
          __builtin_mul_overflow(Scale, C->getAPInt().getSExtValue(), &T.Coef))
        return false;
      Out.push_back(T);
      return true;
    }
    if (auto *Cast = dyn_cast<SCEVIntegralCastExpr>(S))
      if (!isa<SCEVZeroExtendExpr>(S) || zeroExtendIsValue(Cast->getOperand(), At))
        return expand(Cast->getOperand(), Scale, Out, At);
    if (auto *Sum = dyn_cast<SCEVAddExpr>(S)) {
      for (const SCEV *Op : Sum->operands())
        if (!expand(Op, Scale, Out, At))
          return false;
      return true;
    }
    if (auto *Prod = dyn_cast<SCEVMulExpr>(S)) {
      SmallVector<Term, 8> Partial(1);
      Partial[0].Coef = Scale;
      for (const SCEV *Op : Prod->operands()) {
        SmallVector<Term, 8> Parts, Next;
        if (!expand(Op, 1, Parts, At))
          return false;
        for (const Term &A : Partial)
          for (const Term &B : Parts) {
            Term T;
            if (__builtin_mul_overflow(A.Coef, B.Coef, &T.Coef))
              return false;
            T.Factors.append(A.Factors.begin(), A.Factors.end());
            T.Factors.append(B.Factors.begin(), B.Factors.end());
            Next.push_back(T);
          }
        if (Next.size() > 32)
          return false;
        Partial = std::move(Next);
      }
      Out.append(Partial.begin(), Partial.end());
      return true;
    }
    Term T;
    T.Coef = Scale;
    T.Factors.push_back(S);
    Out.push_back(T);
    return true;
  }

  /// Affine form of Coef * product(Factors) / Div for one access copy.
  std::optional<Form> termForm(const Term &T, int64_t Div, unsigned Copy, const Instruction *At) {
    Form One;
    One.K = 1;
    std::optional<Form> F = One;
    if (T.Factors.size() == 1) {
      F = affine(T.Factors[0], Copy, At);
    } else if (T.Factors.size() > 1) {
      SmallVector<const SCEV *, 4> Ops(T.Factors.begin(), T.Factors.end());
      for (const SCEV *Op : Ops)
        if (Op->getType() != Ops[0]->getType())
          return std::nullopt;
      F = affine(SR.scev().getMulExpr(Ops), Copy, At);
    }
    return F ? scaleForm(*F, T.Coef / Div) : std::nullopt;
  }

private:
  SymbolicRange &SR;
  std::vector<RangeCheck> &Checks;
  std::map<std::pair<const SCEV *, unsigned>, std::optional<Form>> Memo;
  std::set<std::pair<const SCEV *, unsigned>> InProgress;
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
    if (New && (V.Kind == VarKind::GridDim || V.Kind == VarKind::BlockDim)) { // dims >= 1
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

  /// May zext(Y) be read as Y? Only where Y's value lies in [0, 2^K - 1]
  /// (K: Y's width), checked at the launch unless static. For a mask (SCEV
  /// writes `x & 255` as zext(trunc x to i8)) the range is x's: the pair
  /// reads as x while x fits. (Reading zext(trunc(-1 - x) to i5), SCEV's
  /// `(x & 31) ^ 31`, as -1 - x made `b[y - (31 - (x & 31))] += 1` "proven
  /// apart" from itself: an increment called idempotent.)
  bool zeroExtendIsValue(const SCEV *Y, const Instruction *At) {
    if (SR.scev().isKnownNonNegative(Y) && !isa<SCEVTruncateExpr>(Y))
      return true;
    unsigned K = SR.scev().getTypeSizeInBits(Y->getType());
    const SCEV *V = Y;
    if (auto *T = dyn_cast<SCEVTruncateExpr>(Y))
      V = T->getOperand();
    std::string Why;
    std::vector<RangeCheck> Local;
    Bounds B = SR.bounds(V, At, Local, Why);
    if (!B.Lo || (K < 63 && !B.Hi))
      return false;
    Checks.insert(Checks.end(), Local.begin(), Local.end());
    if (!staticallyWithin(B.Lo, 0, INT64_MAX, SR.argBits()))
      Checks.push_back({B.Lo, 0, INT64_MAX, /*Assumed=*/false});
    if (K < 63 && !staticallyWithin(B.Hi, INT64_MIN, (int64_t(1) << K) - 1, SR.argBits()))
      Checks.push_back({B.Hi, INT64_MIN, (int64_t(1) << K) - 1, /*Assumed=*/false});
    return true;
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
    case scZeroExtend:
      if (!zeroExtendIsValue(cast<SCEVCastExpr>(S)->getOperand(), At))
        return opaque(S, Copy);
      [[fallthrough]];
    case scTruncate:
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
      for (const SymbolicRange::GuardedPart &Part : SR.guardedSubSums(S, At))
        (void)affine(Part.Guarded, Copy, At);
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
        if (!Term)
          return std::nullopt;
        // A guard on {x,+,s} bounds {x+y,+,s} too: give it its rows.
        for (const SCEVAddRecExpr *G : SR.guardedRecurrences(AR, At))
          (void)affine(G, Copy, At);
        return addForms(*Start, *Term);
      }
      // Symbolic step (grid-stride): step * k is one fresh variable with the
      // step's sign; the bounds on the whole recurrence do the rest.
      // (Guarded recurrences sharing loop and step tie in through bounds.)
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
      if (auto PF = matchParamField(V); PF && !PF->IsPointer)
        return sharedVar(Var::argField(PF->Param, PF->Offset, PF->Bytes));
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

namespace {

/// Rows saying [r, r + rs) and [w, w + ws) share a byte (sizes >= 1).
std::vector<Form> overlapRows(const Form &RF, const Form &RS, const Form &WF, const Form &WS) {
  std::vector<Form> Rows;
  auto Sub = [](const Form &A, const Form &B) { return addForms(A, B, -1); };
  auto A = Sub(*addForms(WF, WS), RF); // w + ws - 1 - r >= 0
  auto B = Sub(*addForms(RF, RS), WF); // r + rs - 1 - w >= 0
  if (!A || !B)
    return {};
  A->K -= 1;
  B->K -= 1;
  Form RS1 = RS, WS1 = WS;
  RS1.K -= 1;
  WS1.K -= 1;
  return {*A, *B, RS1, WS1};
}

bool isLaunchInvariantArg(const SCEV *S) {
  auto *U = dyn_cast<SCEVUnknown>(S);
  return U && isa<Argument>(U->getValue()) && U->getType()->isIntegerTy();
}

} // namespace

// Row splitting (delinearization) for symbolic strides. If both offsets are
// S*A + B with one stride S = g*X (X a scalar parameter) and each access is
// proven to stay inside its row (0 <= B, B + size <= S), accesses in
// different rows cannot share a byte, so overlap needs A_r = A_w and
// overlapping B's: linear again. `m[(2R-1-r)*cols + c] = m[r*cols + c]`
// and memcpy of chunk k+1 from chunk 0 are proven this way.
static bool proveByRows(Problem &P, const MemAccess &R, const MemAccess &W, const Form &RS,
                        const Form &WS) {
  SmallVector<Problem::Term, 16> RT, WT;
  if (!P.expand(R.Offset, 1, RT, R.Inst) || !P.expand(W.Offset, 1, WT, W.Inst))
    return false;
  SmallVector<const SCEV *, 4> Candidates;
  for (auto *Terms : {&RT, &WT})
    for (const Problem::Term &T : *Terms)
      for (const SCEV *F : T.Factors)
        if (isLaunchInvariantArg(F) && !llvm::is_contained(Candidates, F))
          Candidates.push_back(F);
  for (const SCEV *X : Candidates) {
    // Split each side into A (terms with X once, X removed) and B (the rest).
    struct Side {
      SmallVector<Problem::Term, 8> A, B;
    } Sides[2];
    bool Ok = true;
    int64_t G = 0;
    const SmallVector<Problem::Term, 16> *Terms[2] = {&RT, &WT};
    for (int I = 0; I < 2 && Ok; ++I)
      for (const Problem::Term &T : *Terms[I]) {
        unsigned Count = llvm::count(T.Factors, X);
        if (Count > 1) {
          Ok = false;
          break;
        }
        if (!Count) {
          Sides[I].B.push_back(T);
          continue;
        }
        Problem::Term Rest = T;
        Rest.Factors.erase(llvm::find(Rest.Factors, X));
        Sides[I].A.push_back(Rest);
        G = std::gcd(G, T.Coef < 0 ? -T.Coef : T.Coef);
      }
    if (!Ok || G == 0)
      continue;
    const Instruction *At[2] = {R.Inst, W.Inst};
    std::optional<Form> A[2], B[2];
    for (int I = 0; I < 2 && Ok; ++I) {
      Form SumA, SumB;
      for (const Problem::Term &T : Sides[I].A) {
        auto F = P.termForm(T, G, I, At[I]);
        auto S = F ? addForms(SumA, *F) : std::nullopt;
        if (!S) {
          Ok = false;
          break;
        }
        SumA = *S;
      }
      for (const Problem::Term &T : Sides[I].B) {
        auto F = Ok ? P.termForm(T, 1, I, At[I]) : std::nullopt;
        auto S = F ? addForms(SumB, *F) : std::nullopt;
        if (!S) {
          Ok = false;
          break;
        }
        SumB = *S;
      }
      A[I] = SumA;
      B[I] = SumB;
    }
    auto XF = P.affine(X, 0, R.Inst);
    auto Stride = XF ? scaleForm(*XF, G) : std::nullopt;
    if (!Ok || !Stride)
      continue;
    // Each access stays in its row: B >= 0 and B + size <= S.
    const Form *Size[2] = {&RS, &WS};
    for (int I = 0; I < 2 && Ok; ++I) {
      Form Neg = *scaleForm(*B[I], -1); // B <= -1
      Neg.K -= 1;
      Form SizeOne = *Size[I];
      SizeOne.K -= 1;
      auto Over = addForms(*addForms(*B[I], *Size[I]), *Stride, -1); // B + size - S >= 1
      if (!Over) {
        Ok = false;
        break;
      }
      Over->K -= 1;
      Ok = P.isEmptyWith({Neg, SizeOne}) && P.isEmptyWith({*Over, SizeOne});
    }
    if (!Ok)
      continue;
    // Same row and overlapping within it.
    std::vector<Form> Rows = overlapRows(*B[0], RS, *B[1], WS);
    auto D1 = addForms(*A[0], *A[1], -1), D2 = addForms(*A[1], *A[0], -1);
    if (Rows.empty() || !D1 || !D2)
      continue;
    Rows.push_back(*D1);
    Rows.push_back(*D2);
    if (P.isEmptyWith(Rows))
      return true;
  }
  return false;
}

bool DisjointnessProver::proveDisjoint(const MemAccess &R, const MemAccess &W,
                                       std::vector<RangeCheck> &Checks) {
  if (!R.Offset || !W.Offset || !R.Size || !W.Size)
    return false;
  std::vector<RangeCheck> Local;
  Problem P(SR, Local);
  auto RF = P.affine(R.Offset, 0, R.Inst);
  auto WF = P.affine(W.Offset, 1, W.Inst);
  auto RS = P.affine(R.Size, 0, R.Inst);
  auto WS = P.affine(W.Size, 1, W.Inst);
  if (!RS || !WS)
    return false;
  bool Proven = false;
  if (RF && WF) {
    std::vector<Form> Rows = overlapRows(*RF, *RS, *WF, *WS);
    Proven = !Rows.empty() && P.isEmptyWith(Rows);
  }
  if (!Proven)
    Proven = proveByRows(P, R, W, *RS, *WS);
  if (Proven)
    Checks.insert(Checks.end(), Local.begin(), Local.end());
  return Proven;
}

} // namespace gmem

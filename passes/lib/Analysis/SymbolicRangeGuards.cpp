//===- SymbolicRangeGuards.cpp - Bounds from dominating branch conditions -===//
//
// The conditions that dominate an access (guardsAt), what they say about an
// index (applyGuards), and the parts of a sum a guard bounds
// (guardedSubSums). Split from SymbolicRange.cpp.
//
//===----------------------------------------------------------------------===//

#include "SymbolicRangeSupport.h"
#include "gmem/passes/GpuTarget.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"

#include <algorithm>
#include <climits>

using namespace llvm;

namespace gmem {
using namespace range_support;

namespace {

/// A block that stops the kernel (gmem::stopsKernel): no path through it
/// reaches anything after it, so the branch around it guards what follows:
/// `if (id < 0 || id >= V) __trap();` and PyTorch's CUDA_KERNEL_ASSERT bound
/// the index after them.
bool blockStopsKernel(const BasicBlock *BB) {
  return any_of(*BB, [](const Instruction &I) {
    auto *CB = dyn_cast<CallBase>(&I);
    return CB && stopsKernel(*CB);
  });
}

/// X as c + Rest with c its constant operand (0 if none), read signed.
bool splitConstant(const SCEV *X, int64_t &K, SmallVectorImpl<const SCEV *> &Rest) {
  K = 0;
  Rest.clear();
  auto *A = dyn_cast<SCEVAddExpr>(X);
  if (!A) {
    Rest.push_back(X);
    return true;
  }
  for (const SCEV *Op : A->operands()) {
    if (auto *C = dyn_cast<SCEVConstant>(Op)) {
      if (C->getAPInt().getSignificantBits() > 32)
        return false;
      K = C->getAPInt().getSExtValue();
    } else {
      Rest.push_back(Op);
    }
  }
  return true;
}

/// Whether T = K * S + D, K a small positive constant and (K, D) != (1, 0):
/// `i + 3 < n` over an access at i; `4 * g + 3 < n` over one at g. For
/// K = 1, T has S's non-constant operands and a constant D more (read
/// signed: SCEV folds constants modulo 2^N, so the difference it would
/// compute need not be D), which makes T = S + D in mathematical integers.
/// For K > 1, T is SCEV's K * S plus D, equal to K * S + D only modulo 2^N
/// (SCEV folds K into S's factors modulo 2^N too): the caller then checks
/// K * S + D to lie in the type instead of trusting T's wrap flags.
bool scaledOffsetFrom(ScalarEvolution &SE, const SCEV *T, const SCEV *S, int64_t &K,
                      int64_t &D) {
  if (T == S || T->getType() != S->getType() || !(isa<SCEVAddExpr>(T) || isa<SCEVMulExpr>(T)) ||
      !T->getType()->isIntegerTy())
    return false;
  int64_t KT, KS;
  SmallVector<const SCEV *, 8> RT, RS;
  if (!splitConstant(T, KT, RT) || !splitConstant(S, KS, RS))
    return false;
  if (RT == RS) {
    K = 1;
    D = KT - KS;
    return D != 0;
  }
  for (int64_t Scale : {2, 4, 8, 16}) {
    const SCEV *M = SE.getMulExpr(SE.getConstant(S->getType(), Scale), S);
    int64_t KM;
    SmallVector<const SCEV *, 8> RM;
    if (splitConstant(M, KM, RM) && KM == Scale * KS && RM == RT) {
      K = Scale;
      D = KT - KM; // both within 32 bits
      return true;
    }
  }
  return false;
}

/// X as a sum of products, coefficient times factors (sums inside products
/// multiplied out: SCEV writes B + 4 * bid * B as (1 + 4 * bid) * B); false
/// past 32 terms or for a coefficient over 32 bits.
using Term = std::pair<int64_t, SmallVector<const SCEV *, 4>>;
bool expandTerms(const SCEV *X, SmallVectorImpl<Term> &Out) {
  Out.clear();
  if (auto *K = dyn_cast<SCEVConstant>(X)) {
    if (K->getAPInt().getSignificantBits() > 32)
      return false;
    Out.push_back({K->getAPInt().getSExtValue(), {}});
    return true;
  }
  if (auto *A = dyn_cast<SCEVAddExpr>(X)) {
    for (const SCEV *Op : A->operands()) {
      SmallVector<Term, 8> Part;
      if (!expandTerms(Op, Part) || Out.size() + Part.size() > 32)
        return false;
      Out.append(Part.begin(), Part.end());
    }
    return true;
  }
  if (auto *M = dyn_cast<SCEVMulExpr>(X)) {
    Out.push_back({1, {}});
    for (const SCEV *Op : M->operands()) {
      SmallVector<Term, 8> Part, Next;
      if (!expandTerms(Op, Part) || Out.size() * Part.size() > 32)
        return false;
      for (const Term &T : Out)
        for (const Term &P : Part) {
          int64_t C;
          if (__builtin_mul_overflow(T.first, P.first, &C) || C > INT32_MAX || C < INT32_MIN)
            return false;
          Term N{C, T.second};
          N.second.append(P.second.begin(), P.second.end());
          Next.push_back(std::move(N));
        }
      Out.assign(Next.begin(), Next.end());
    }
    return true;
  }
  Out.push_back({1, {X}});
  return true;
}

/// Adds Sign times X's expanded terms to Out, keyed by their product of
/// factors (nullptr for the constant).
bool linearTerms(ScalarEvolution &SE, const SCEV *X, int64_t Sign,
                 DenseMap<const SCEV *, int64_t> &Out) {
  SmallVector<Term, 8> Terms;
  if (!expandTerms(X, Terms))
    return false;
  for (Term &T : Terms)
    Out[T.second.empty() ? nullptr : SE.getMulExpr(T.second)] += Sign * T.first;
  return true;
}

/// Whether Sum = A + B in mathematical integers: SCEV adds modulo 2^N, but
/// where the coefficients of every term (32-bit at most) add up exactly,
/// its sum is the integers' sum.
bool sumIsExact(ScalarEvolution &SE, const SCEV *Sum, const SCEV *A, const SCEV *B) {
  DenseMap<const SCEV *, int64_t> Terms;
  if (!linearTerms(SE, Sum, 1, Terms) || !linearTerms(SE, A, -1, Terms) ||
      !linearTerms(SE, B, -1, Terms))
    return false;
  return llvm::all_of(Terms, [](const auto &KV) { return KV.second == 0; });
}

} // namespace

Bounds SymbolicRange::applyGuards(const SCEV *S, Bounds B, Ctx &C) {
  if (isa<SCEVConstant>(S))
    return B; // exact already; `x == -1` must not make -1 read unsigned
  // A copy: bounding a fact's right-hand side walks on, which may add
  // blocks to GuardCache (a DenseMap: its vectors move) and select facts.
  std::vector<GuardFact> Facts = guardsAt(C.At);
  Facts.insert(Facts.end(), SelectFacts.begin(), SelectFacts.end());
  for (const GuardFact &G : Facts) {
    if (G.Pred == CmpInst::ICMP_NE)
      continue; // x != y bounds nothing (and must not cost y a check)
    if (G.LHS == S) {
      if (std::optional<Bounds> F = factBounds(S, B, G, C)) {
        B.Lo = greater(B.Lo, F->Lo);
        B.Hi = lesser(B.Hi, F->Hi);
      }
      continue;
    }
    // A guard on K * S + D: it bounds that value, whose bounds are S's
    // scaled and moved (for the checks that make the fact speak of its
    // mathematical value); S's follow by moving back and dividing, which
    // truncation toward zero only loosens.
    if (!OffsetFacts)
      continue;
    int64_t K, D;
    if (!scaledOffsetFrom(SE, G.LHS, S, K, D)) {
      if (std::optional<Bounds> F = transferredFact(S, G, C)) {
        B.Lo = greater(B.Lo, F->Lo);
        B.Hi = lesser(B.Hi, F->Hi);
      }
      continue;
    }
    auto Forward = [&](const ExprRef &E) {
      return E ? Expr::add(K == 1 ? E : Expr::mul(cst(K), E), cst(D)) : nullptr;
    };
    auto Back = [&](const ExprRef &E) -> ExprRef {
      if (!E)
        return nullptr;
      ExprRef X = Expr::sub(E, cst(D));
      return K == 1 ? X : Expr::sdiv(X, cst(K));
    };
    if (std::optional<Bounds> F =
            factBounds(G.LHS, {Forward(B.Lo), Forward(B.Hi)}, G, C, /*TrustWrapFlags=*/K == 1)) {
      B.Lo = greater(B.Lo, Back(F->Lo));
      B.Hi = lesser(B.Hi, Back(F->Hi));
    }
  }
  return B;
}

std::optional<Bounds> SymbolicRange::transferredFact(const SCEV *S, const GuardFact &G, Ctx &C) {
  // An order between L and R, S = L + X where R + X folds into launch
  // values: PyTorch's `thread_idx < remaining` with remaining = N - work *
  // blockIdx.x over an access at thread_idx + work * blockIdx.x (S < N).
  // Upper bounds only: a lower one carried over (`n > lane` to n - 1 -
  // lane >= 0) changed trip-count bounds into forms that overflow at
  // launches where the old ones did not (corpus gemv_warp, layernorm_rows).
  const CmpInst::Predicate P = ICmpInst::getSignedPredicate(G.Pred);
  if ((P != CmpInst::ICMP_SLT && P != CmpInst::ICMP_SLE) || !isa<SCEVAddExpr>(S) ||
      G.LHS->getType() != S->getType() || !S->getType()->isIntegerTy() ||
      C.Depth + 2 >= MaxDepth || isa<SCEVConstant>(G.LHS))
    return std::nullopt;
  // A term in common first: building SCEVs for every (S, fact) pair costs.
  auto *SA = cast<SCEVAddExpr>(S);
  auto Shares = [&](const SCEV *X) { return llvm::is_contained(SA->operands(), X); };
  if (auto *LA = dyn_cast<SCEVAddExpr>(G.LHS)) {
    if (!llvm::any_of(LA->operands(), Shares))
      return std::nullopt;
  } else if (!Shares(G.LHS)) {
    return std::nullopt;
  }
  const SCEV *X = SE.getMinusSCEV(S, G.LHS);
  const SCEV *R = SE.getAddExpr(G.RHS, X);

  // R a sum of launch values times constants: a quotient, a min or max or
  // a product of two of them adds terms that can overflow where the bound
  // they would tighten does not (a launch whose bound overflows gets the
  // whole allocation).
  auto Plain = [](const SCEV *E) {
    return !SCEVExprContains(E, [](const SCEV *Y) {
      auto *M = dyn_cast<SCEVMulExpr>(Y);
      return isa<SCEVUDivExpr>(Y) || isa<SCEVMinMaxExpr>(Y) ||
             (M && llvm::count_if(M->operands(),
                                  [](const SCEV *O) { return !isa<SCEVConstant>(O); }) > 1);
    });
  };
  // (A launch-invariant X adds nothing: S's bounds are L's plus X then.)
  if (isa<SCEVCouldNotCompute>(X) || launchInvariant(X) || !launchInvariant(R) || !Plain(R) ||
      !sumIsExact(SE, S, G.LHS, X) || !sumIsExact(SE, R, G.RHS, X))
    return std::nullopt;
  // Where factBounds finds the fact bounding L's mathematical value (its
  // flags or checks make L's and G.RHS's readings in the predicate's
  // signedness their mathematical values), the two stand in that order as
  // integers, and S = L + X, G.RHS + X = R carry it over to S and R.
  Ctx Sub{C.At, C.Checks, C.Why, C.Depth + 1};
  Bounds BL = walk(G.LHS, Sub);
  if (!factBounds(G.LHS, BL, G, C))
    return std::nullopt;
  Bounds Y = walk(R, Sub);
  Bounds F;
  if (Y.Hi)
    F.Hi = P == CmpInst::ICMP_SLT ? Expr::sub(Y.Hi, cst(1)) : Y.Hi;
  return F;
}

std::optional<Bounds> SymbolicRange::factBounds(const SCEV *S, const Bounds &B,
                                               const GuardFact &G, Ctx &C,
                                               bool TrustWrapFlags) {
  bool Machine = isa<SCEVUnknown>(S);
  // Equal machine values have equal signed readings: a machine x == y
  // needs no unsigned reading of y (nor a check that y is non-negative).
  bool Signed = isSignedPred(G.Pred) || (G.Pred == CmpInst::ICMP_EQ && Machine);
  unsigned Bits = SE.getTypeSizeInBits(S->getType());
  // The fact speaks of the machine value; it bounds the mathematical value
  // only where the two agree: S is a machine value itself (parameter,
  // load, geometry), SCEV proves no wrap, or the natural bounds lie in the
  // type (a check).
  auto *NA = dyn_cast<SCEVNAryExpr>(S);
  bool NoWrap =
      TrustWrapFlags && NA && (Signed ? NA->hasNoSignedWrap() : NA->hasNoUnsignedWrap());
  if (!Machine && !NoWrap && !B.bounded())
    return std::nullopt;
  if (Machine && !Signed && G.Pred != CmpInst::ICMP_ULT && G.Pred != CmpInst::ICMP_ULE)
    return std::nullopt; // x >u y says nothing simple about the signed reading of x
  const bool UnsignedBelow =
      !Signed && (G.Pred == CmpInst::ICMP_ULT || G.Pred == CmpInst::ICMP_ULE);
  Ctx Sub{C.At, C.Checks, C.Why, C.Depth + 1};
  Bounds Y = inType(G.RHS, Signed, Sub);
  if (UnsignedBelow && !Machine && !NoWrap) {
    // `(unsigned)x < (unsigned)w` on a computed x that may be negative (a
    // border test, x = gid - 1): below y's unsigned reading, checked to
    // be <= the signed maximum, x's machine value has its top bit clear,
    // so its signed reading is in [0, y); it is x's mathematical value
    // where that lies in the signed type (checked at launch, not
    // assumed: x may be computed in unsigned arithmetic).
    if (!Y.Hi)
      return std::nullopt;
    addCheck(C, B.Lo, typeMin(Bits, true), INT64_MAX, /*Assumed=*/false);
    addCheck(C, B.Hi, INT64_MIN, typeMax(Bits, true), /*Assumed=*/false);
  } else if (!Machine && !NoWrap) {
    requireInType(B, Bits, Signed, C, Signed && wrapIsUB(S));
  }
  // A value compared unsigned: its signed reading equals the unsigned one
  // only below 2^(N-1), which a bound on Y guarantees.
  if (UnsignedBelow && (Machine || !NoWrap)) {
    if (!Y.Hi)
      return std::nullopt;
    addCheck(C, Y.Hi, INT64_MIN, typeMax(Bits, true), /*Assumed=*/false);
  }
  Bounds F;
  switch (G.Pred) {
  case CmpInst::ICMP_SLT:
  case CmpInst::ICMP_ULT:
    if (Y.Hi)
      F.Hi = Expr::sub(Y.Hi, cst(1));
    break;
  case CmpInst::ICMP_SLE:
  case CmpInst::ICMP_ULE:
    F.Hi = Y.Hi;
    break;
  case CmpInst::ICMP_SGT:
  case CmpInst::ICMP_UGT:
    if (Y.Lo)
      F.Lo = Expr::add(Y.Lo, cst(1));
    break;
  case CmpInst::ICMP_SGE:
  case CmpInst::ICMP_UGE:
    F.Lo = Y.Lo;
    break;
  case CmpInst::ICMP_EQ:
    F = Y;
    break;
  default:
    break;
  }
  if (UnsignedBelow)
    F.Lo = greater(F.Lo, cst(0));
  return F;
}

std::vector<SymbolicRange::GuardedPart> SymbolicRange::guardedSubSums(const SCEV *S,
                                                                      const Instruction *At) {
  std::vector<GuardedPart> Parts;
  auto *Sum = dyn_cast<SCEVAddExpr>(S);
  if (!Sum)
    return Parts;
  // Constant factors the sum's terms carry: candidates for a distributed c*X.
  SmallVector<int64_t, 4> Scales{1};
  for (const SCEV *Op : Sum->operands())
    if (auto *M = dyn_cast<SCEVMulExpr>(Op))
      if (auto *C = dyn_cast<SCEVConstant>(M->getOperand(0)))
        if (C->getAPInt().getSignificantBits() <= 32 && !C->isZero() &&
            !llvm::is_contained(Scales, C->getAPInt().getSExtValue()))
          Scales.push_back(C->getAPInt().getSExtValue());
  Type *Ty = S->getType();
  // Keeps a part whose operands S holds and that no earlier part covers.
  auto AddPart = [&](ArrayRef<const SCEV *> Ops, const SCEV *Guarded, int Ext, int64_t Scale,
                     int64_t Offset) {
    for (const GuardedPart &P : Parts)
      if (P.Ops.size() == Ops.size() && std::equal(Ops.begin(), Ops.end(), P.Ops.begin()))
        return;
    SmallVector<const SCEV *, 8> Left(Sum->operands().begin(), Sum->operands().end());
    if (removeOperands(Left, Ops))
      Parts.push_back({SmallVector<const SCEV *, 4>(Ops.begin(), Ops.end()), Guarded, Ext, Scale,
                       Offset});
  };
  for (const GuardFact &G : guardsAt(At)) {
    if (!isa<SCEVAddExpr>(G.LHS) || G.LHS == S)
      continue;
    unsigned From = SE.getTypeSizeInBits(G.LHS->getType()), To = SE.getTypeSizeInBits(Ty);
    for (int Ext = 0; Ext < 3; ++Ext) {
      if ((Ext == 0) != (From == To) || From > To)
        continue;
      const SCEV *E = Ext == 0 ? G.LHS
                      : Ext == 1 ? SE.getSignExtendExpr(G.LHS, Ty)
                                 : SE.getZeroExtendExpr(G.LHS, Ty);
      for (int64_t Scale : Scales) {
        auto *Flat = dyn_cast<SCEVAddExpr>(
            Scale == 1 ? E : SE.getMulExpr(SE.getConstant(Ty, Scale, /*isSigned=*/true), E));
        // (S itself as an unscaled, unextended guard is applyGuards' job.)
        if (!Flat || (Flat == S && Ext == 0 && Scale == 1) ||
            Flat->getNumOperands() > Sum->getNumOperands())
          continue;
        AddPart(Flat->operands(), G.LHS, Ext, Scale, 0);
      }
    }
  }
  // Guarded sums SCEV did not flatten into S as a whole. A trip count such
  // as m - 2 - x - y (of `for (j = x + y + 1; j < m; ++j)` under
  // `x + y < m - 1`) holds -x and -y, while the guarded x + y times -1 stays
  // a product for SCEV (it distributes -1 only when a term folds), and the
  // guard's own constant, if any, need not be S's. Match Scale times each
  // non-constant operand of the guarded sum; the guard's constant c becomes
  // Offset = -Scale * c. These come after the exact matches above, so they
  // only take operands those left. Same type only: Scale * X + Offset is
  // congruent to the operands' sum modulo 2^N, as SCEV's own sums are.
  // Unscaled, such a part must leave a non-constant operand of S out: x and
  // 1 + x guarded both would otherwise bound each other in turn.
  size_t Variable = llvm::count_if(Sum->operands(), [](const SCEV *Op) {
    return !isa<SCEVConstant>(Op);
  });
  for (const GuardFact &G : guardsAt(At)) {
    auto *E = dyn_cast<SCEVAddExpr>(G.LHS);
    if (!E || G.LHS == S || E->getType() != Ty || !Ty->isIntegerTy())
      continue;
    for (int64_t Scale : Scales) {
      SmallVector<const SCEV *, 4> Ops;
      int64_t Offset = 0;
      bool Ok = true;
      for (const SCEV *Op : E->operands()) {
        if (auto *K = dyn_cast<SCEVConstant>(Op)) {
          Ok &= K->getAPInt().getSignificantBits() <= 32 &&
                !__builtin_mul_overflow(-Scale, K->getAPInt().getSExtValue(), &Offset);
          continue;
        }
        Ops.push_back(SE.getMulExpr(SE.getConstant(Ty, Scale, /*isSigned=*/true), Op));
      }
      if (Ok && !Ops.empty() && (Scale != 1 || Ops.size() < Variable))
        AddPart(Ops, G.LHS, 0, Scale, Offset);
    }
  }
  return Parts;
}

std::vector<const SCEVAddRecExpr *>
SymbolicRange::guardedRecurrences(const SCEVAddRecExpr *AR, const Instruction *At,
                                  bool SameStep) {
  std::vector<const SCEVAddRecExpr *> Out;
  // The recurrence the loop's latch tests (`k < n` while AR is {k0+n,+,s}):
  // its latch bound carries over to AR = it + invariant.
  if (BasicBlock *Latch = AR->getLoop()->getLoopLatch())
    if (auto *Br = dyn_cast<BranchInst>(Latch->getTerminator()))
      if (Br->isConditional())
        if (auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition()))
          for (Value *Op : Cmp->operands()) {
            if (!SE.isSCEVable(Op->getType()))
              continue;
            auto *G = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Op));
            if (!G || G->getLoop() != AR->getLoop() || !G->isAffine())
              continue;
            // Post-increment form {k0+s,+,s}: use the pre-increment one.
            if (const SCEVAddRecExpr *P = preIncrement(SE, AR->getLoop(), G))
              G = P;
            if (G != AR && G->getType() == AR->getType() &&
                (!SameStep || G->getStepRecurrence(SE) == AR->getStepRecurrence(SE)) &&
                !llvm::is_contained(Out, G))
              Out.push_back(G);
          }
  for (const GuardFact &G : guardsAt(At)) {
    auto *GR = dyn_cast<SCEVAddRecExpr>(G.LHS);
    if (GR && GR != AR && GR->getLoop() == AR->getLoop() && GR->isAffine() && AR->isAffine() &&
        (!SameStep || GR->getStepRecurrence(SE) == AR->getStepRecurrence(SE)) &&
        GR->getType() == AR->getType() && !llvm::is_contained(Out, GR))
      Out.push_back(GR);
  }
  return Out;
}

bool removeOperands(SmallVectorImpl<const SCEV *> &Ops, ArrayRef<const SCEV *> Part) {
  SmallVector<const SCEV *, 8> Left(Ops.begin(), Ops.end());
  for (const SCEV *Op : Part) {
    auto It = llvm::find(Left, Op);
    if (It == Left.end())
      return false;
    Left.erase(It);
  }
  Ops.assign(Left.begin(), Left.end());
  return true;
}

const std::vector<GuardFact> &SymbolicRange::guardsAt(const Instruction *At) {
  const BasicBlock *BB = At->getParent();
  auto It = GuardCache.find(BB);
  if (It != GuardCache.end())
    return It->second;
  std::vector<GuardFact> Facts;
  if (DT.getNode(BB)) {
    for (DomTreeNode *N = DT.getNode(BB)->getIDom(); N; N = N->getIDom()) {
      BasicBlock *D = N->getBlock();
      auto *Br = dyn_cast<BranchInst>(D->getTerminator());
      if (!Br || !Br->isConditional() || Br->getSuccessor(0) == Br->getSuccessor(1))
        continue;
      // BB is reached through D's last run, along one of its edges: an
      // edge that dominates BB, or the one edge left where the other's
      // block stops the kernel (BB is not that block itself).
      for (unsigned S = 0; S < 2; ++S) {
        BasicBlock *Other = Br->getSuccessor(1 - S);
        if (DT.dominates(BasicBlockEdge(D, Br->getSuccessor(S)), BB) ||
            (Other != BB && blockStopsKernel(Other) && !blockStopsKernel(Br->getSuccessor(S))))
          conditionFacts(Br->getCondition(), S == 0, Facts);
      }
    }
  }
  return GuardCache[BB] = std::move(Facts);
}

// `(x & M) == K`: InstCombine's form of a range test on an aligned block
// (`tid >= 32 && tid < 64` becomes `(tid & 992) == 32` for a tid below
// 1024). x's bits under M are K's and the others are free, so x lies in
// [K, K | ~M] within the bits x may have at all (SCEV's unsigned range,
// below 2^P with P under the type's width: the signed reading is the same).
void SymbolicRange::maskedEqualityFacts(const ICmpInst *Cmp, CmpInst::Predicate P,
                                        std::vector<GuardFact> &Out) {
  using namespace PatternMatch;
  Value *X;
  const APInt *M, *K;
  if (P != CmpInst::ICMP_EQ ||
      !match(Cmp->getOperand(0), m_And(m_Value(X), m_APInt(M))) ||
      !match(Cmp->getOperand(1), m_APInt(K)))
    return;
  const SCEV *SX = SE.getSCEV(X);
  unsigned Bits = M->getBitWidth();
  unsigned Active = SE.getUnsignedRange(SX).getUnsignedMax().getActiveBits();
  if (Active >= Bits || Bits > 64 || !(*K & ~*M).isZero())
    return;
  APInt Top = *K | (~*M & APInt::getLowBitsSet(Bits, Active));
  const SCEV *Lo = SE.getConstant(*K), *Hi = SE.getConstant(Top);
  Out.push_back({SX, CmpInst::ICMP_SGE, Lo});
  Out.push_back({Lo, CmpInst::ICMP_SLE, SX});
  Out.push_back({SX, CmpInst::ICMP_SLE, Hi});
  Out.push_back({Hi, CmpInst::ICMP_SGE, SX});
}

void SymbolicRange::orOperandFacts(const ICmpInst *Cmp, CmpInst::Predicate P,
                                   std::vector<GuardFact> &Out) {
  using namespace PatternMatch;
  if (P != CmpInst::ICMP_ULT && P != CmpInst::ICMP_ULE)
    return;
  // Only unsigned bounds: a signed `(x | y) < C` says nothing about a
  // negative x's magnitude. Nested `or`s (three or more conditions) too.
  SmallVector<Value *, 4> Work{Cmp->getOperand(0)}, Leaves;
  while (!Work.empty() && Leaves.size() + Work.size() <= 8) {
    Value *V = Work.pop_back_val(), *X, *Y;
    if (match(V, m_Or(m_Value(X), m_Value(Y)))) {
      Work.push_back(X);
      Work.push_back(Y);
    } else if (V != Cmp->getOperand(0)) {
      Leaves.push_back(V);
    }
  }
  if (!Work.empty() || Leaves.empty())
    return;
  const SCEV *B = SE.getSCEV(Cmp->getOperand(1));
  for (Value *X : Leaves) {
    if (!SE.isSCEVable(X->getType()) || X->getType() != Cmp->getOperand(1)->getType())
      continue;
    const SCEV *SX = SE.getSCEV(X);
    Out.push_back({SX, P, B});
    Out.push_back({B, CmpInst::getSwappedPredicate(P), SX});
  }
}

void SymbolicRange::conditionFacts(Value *Cond, bool Holds, std::vector<GuardFact> &Out,
                                   unsigned Depth) {
  using namespace PatternMatch;
  if (Depth > 4)
    return;
  Value *L, *R;
  if (auto *Cmp = dyn_cast<ICmpInst>(Cond)) {
    if (!SE.isSCEVable(Cmp->getOperand(0)->getType()))
      return;
    CmpInst::Predicate P = Holds ? Cmp->getPredicate() : Cmp->getInversePredicate();
    const SCEV *A = SE.getSCEV(Cmp->getOperand(0));
    const SCEV *B = SE.getSCEV(Cmp->getOperand(1));
    // x >=u y (or >u) with x below 2^(N-1) by SCEV's unsigned range (a
    // thread index, `tid < 32` false): where it holds, y's unsigned reading
    // is below 2^(N-1) too, so both signed readings are the unsigned ones.
    auto Push = [&](const SCEV *L, CmpInst::Predicate Q, const SCEV *R) {
      if ((Q == CmpInst::ICMP_UGE || Q == CmpInst::ICMP_UGT) &&
          SE.getUnsignedRange(L).getUnsignedMax().isNonNegative())
        Q = CmpInst::getSignedPredicate(Q);
      Out.push_back({L, Q, R});
    };
    Push(A, P, B);
    Push(B, CmpInst::getSwappedPredicate(P), A);
    maskedEqualityFacts(Cmp, P, Out);
    orOperandFacts(Cmp, P, Out);
  } else if (Holds && match(Cond, m_LogicalAnd(m_Value(L), m_Value(R)))) {
    conditionFacts(L, true, Out, Depth + 1);
    conditionFacts(R, true, Out, Depth + 1);
  } else if (!Holds && match(Cond, m_LogicalOr(m_Value(L), m_Value(R)))) {
    conditionFacts(L, false, Out, Depth + 1);
    conditionFacts(R, false, Out, Depth + 1);
  } else if (match(Cond, m_Not(m_Value(L)))) {
    conditionFacts(L, !Holds, Out, Depth + 1);
  }
}

} // namespace gmem

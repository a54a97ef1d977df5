//===- CoveredLoads.cpp - Loads of bytes the thread itself stored ---------===//
//
// See CoveredLoads.h for what "covered" means and why it is enough for
// idempotence.
//
//===----------------------------------------------------------------------===//

#include "gmem/passes/CoveredLoads.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Instructions.h"

#include <optional>

using namespace llvm;

namespace gmem {

namespace {

bool simpleLoad(const MemAccess &A) {
  auto *L = dyn_cast_or_null<LoadInst>(A.Inst);
  return L && L->isSimple() && A.Reads && !A.Writes && !A.Atomic;
}

bool simpleStore(const MemAccess &A) {
  auto *S = dyn_cast_or_null<StoreInst>(A.Inst);
  return S && S->isSimple() && A.Writes && !A.Reads && !A.Atomic;
}

/// The address itself, not the offset from the access's object: a store
/// through `(flag ? a : b)` is recorded as a write of a and one of b at the
/// same offset (AccessCollector's may-write), but it stored to only one of
/// them, so an offset match would cover a load of a the store never
/// touched (an adversarial round, session 51). Equal address SCEVs (of
/// one selected or swapped pointer value, say) are the same bytes.
const SCEV *addressOf(const MemAccess &A, ScalarEvolution &SE) {
  return SE.getSCEV(getLoadStorePointerOperand(A.Inst));
}

std::optional<uint64_t> constantBytes(const SCEV *S) {
  if (const auto *C = dyn_cast_or_null<SCEVConstant>(S))
    if (C->getAPInt().getActiveBits() <= 32)
      return C->getAPInt().getZExtValue();
  return std::nullopt;
}

/// Whether a load at offset W + Diff of RSize bytes stays within the WSize
/// bytes stored at W.
bool insideStore(const SCEV *Diff, uint64_t RSize, uint64_t WSize) {
  const auto *C = dyn_cast<SCEVConstant>(Diff);
  if (!C || C->getAPInt().isNegative() || C->getAPInt().getActiveBits() > 32)
    return false;
  return C->getAPInt().getZExtValue() + RSize <= WSize;
}

/// The store dominates the load: in every iteration of the loops around
/// both in which the load runs, the store ran before it (a path from a
/// loop's header to the load that missed the store would make one from the
/// entry), and where the store sits in a loop the load follows, it ran in
/// that loop's last iteration with the values the load's address sees.
/// Equal address SCEVs are then the same bytes.
bool storedBefore(const MemAccess &R, const MemAccess &W, uint64_t RSize, uint64_t WSize,
                  ScalarEvolution &SE, DominatorTree &DT) {
  if (!DT.dominates(W.Inst, R.Inst))
    return false;
  const SCEV *RA = addressOf(R, SE), *WA = addressOf(W, SE);
  if (RA->getType() != WA->getType())
    return false;
  return insideStore(SE.getMinusSCEV(RA, WA), RSize, WSize);
}

/// W's address as a function of L2's iteration number instead of L1's.
class MoveToLoop : public SCEVRewriteVisitor<MoveToLoop> {
public:
  MoveToLoop(ScalarEvolution &SE, const Loop *From, const Loop *To)
      : SCEVRewriteVisitor(SE), From(From), To(To) {}

  const SCEV *visitAddRecExpr(const SCEVAddRecExpr *Expr) {
    SmallVector<const SCEV *, 4> Ops;
    for (const SCEV *Op : Expr->operands())
      Ops.push_back(visit(Op));
    return SE.getAddRecExpr(Ops, Expr->getLoop() == From ? To : Expr->getLoop(),
                            SCEV::FlagAnyWrap);
  }

private:
  const Loop *From;
  const Loop *To;
};

/// Whether every value Address depends on is the same in L1 and L2: unknowns
/// defined outside both loops, recurrences of Own (the access's loop) or of
/// loops around it.
bool sameValuesInBoth(const SCEV *Address, const Loop *Own, const Loop *L1, const Loop *L2,
                      ScalarEvolution &SE) {
  bool Ok = true;
  SCEVExprContains(Address, [&](const SCEV *S) {
    if (const auto *U = dyn_cast<SCEVUnknown>(S)) {
      if (!SE.isLoopInvariant(U, L1) || !SE.isLoopInvariant(U, L2))
        Ok = false;
    } else if (const auto *A = dyn_cast<SCEVAddRecExpr>(S)) {
      if (A->getLoop() != Own && !A->getLoop()->contains(Own))
        Ok = false;
    }
    return !Ok;
  });
  return Ok;
}

/// The latch's exit test of \p L, when the latch is its only exit.
ICmpInst *latchExitTest(const Loop *L, bool &ExitOnTrue) {
  BasicBlock *Latch = L->getLoopLatch();
  if (!Latch || L->getExitingBlock() != Latch)
    return nullptr;
  auto *BI = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!BI || !BI->isConditional())
    return nullptr;
  ExitOnTrue = !L->contains(BI->getSuccessor(0));
  return dyn_cast<ICmpInst>(BI->getCondition());
}

/// Whether L2, once entered, runs at most as many iterations as L1 did: by
/// their backedge-taken counts, or, where SCEV cannot count them (an index
/// stepped without `nsw` may wrap), because both leave from their latch on
/// the same comparison of the same functions of the iteration number, so
/// they leave at the same one.
bool atMostAsManyIterations(const Loop *L1, const Loop *L2, ScalarEvolution &SE) {
  const SCEV *Count1 = SE.getBackedgeTakenCount(L1);
  const SCEV *Max2 = SE.getSymbolicMaxBackedgeTakenCount(L2);
  if (!isa<SCEVCouldNotCompute>(Count1) && !isa<SCEVCouldNotCompute>(Max2)) {
    Type *Wide = SE.getWiderType(Count1->getType(), Max2->getType());
    if (SE.isKnownPredicate(ICmpInst::ICMP_ULE, SE.getNoopOrZeroExtend(Max2, Wide),
                            SE.getNoopOrZeroExtend(Count1, Wide)))
      return true;
  }
  bool Exit1 = false, Exit2 = false;
  ICmpInst *C1 = latchExitTest(L1, Exit1), *C2 = latchExitTest(L2, Exit2);
  if (!C1 || !C2 || Exit1 != Exit2 || C1->getPredicate() != C2->getPredicate())
    return false;
  for (unsigned I = 0; I < 2; ++I) {
    Value *A = C1->getOperand(I), *B = C2->getOperand(I);
    if (!SE.isSCEVable(A->getType()) || A->getType() != B->getType())
      return false;
    const SCEV *SA = SE.getSCEV(A), *SB = SE.getSCEV(B);
    if (!sameValuesInBoth(SA, L1, L1, L2, SE) || !sameValuesInBoth(SB, L2, L1, L2, SE))
      return false;
    MoveToLoop Move(SE, L1, L2);
    if (Move.visit(SA) != SB)
      return false;
  }
  return true;
}

/// The conditional branch that alone leads into L, and which of its
/// successors does: L is entered exactly when the branch goes that way. The
/// branch either ends the header's only predecessor outside L, or the one
/// block before a preheader (the header's predecessor that leads nowhere
/// else); cleanups remove an empty preheader.
BranchInst *guardOf(const Loop *L, unsigned &Into) {
  BasicBlock *Target = L->getHeader();
  BasicBlock *G = L->getLoopPredecessor();
  if (G && G->getSingleSuccessor() == Target) {
    Target = G;
    G = G->getUniquePredecessor();
  }
  auto *BI = G ? dyn_cast<BranchInst>(G->getTerminator()) : nullptr;
  if (!BI || !BI->isConditional() || BI->getSuccessor(0) == BI->getSuccessor(1))
    return nullptr;
  if (BI->getSuccessor(0) != Target && BI->getSuccessor(1) != Target)
    return nullptr;
  Into = BI->getSuccessor(0) == Target ? 0 : 1;
  return BI;
}

/// Whether L2 is entered only after L1 ran to its end in the same iteration
/// of the loop around both. Either L1's header dominates L2's (a path to L2
/// passes L1, and leaves it only through its exit), or both are guarded by
/// branches on one condition value taken the same way, L1's first: L2
/// entered means the condition held at L1's guard too. (LLVM's own
/// Loop::getLoopGuardBranch wants dedicated exits, which two loops guarded
/// by one test do not have: the first loop's exit is the second's guard.)
bool entersAfter(const Loop *L1, const Loop *L2, DominatorTree &DT, LoopInfo &LI) {
  if (DT.dominates(L1->getHeader(), L2->getHeader()))
    return true;
  unsigned Into1 = 0, Into2 = 0;
  BranchInst *G1 = guardOf(L1, Into1), *G2 = guardOf(L2, Into2);
  if (!G1 || !G2 || G1 == G2 || Into1 != Into2 || G1->getCondition() != G2->getCondition())
    return false;
  const Loop *Around = L1->getParentLoop();
  return LI.getLoopFor(G1->getParent()) == Around && LI.getLoopFor(G2->getParent()) == Around &&
         DT.dominates(G1->getParent(), G2->getParent());
}

/// The store in loop L1, stored on every iteration of it; the load in a
/// sibling loop L2 entered only after L1 ran, for at most as many
/// iterations, at the offset the store had in the same iteration.
bool storedInEarlierLoop(const MemAccess &R, const MemAccess &W, uint64_t RSize,
                         uint64_t WSize, ScalarEvolution &SE, DominatorTree &DT, LoopInfo &LI) {
  const Loop *L1 = LI.getLoopFor(W.Inst->getParent());
  const Loop *L2 = LI.getLoopFor(R.Inst->getParent());
  if (!L1 || !L2 || L1 == L2 || L1->getParentLoop() != L2->getParentLoop())
    return false;
  // L1 leaves only from its latch, once its count is done, and the store
  // runs on every iteration.
  BasicBlock *Latch = L1->getLoopLatch();
  if (!Latch || L1->getExitingBlock() != Latch || !DT.dominates(W.Inst->getParent(), Latch))
    return false;
  if (!atMostAsManyIterations(L1, L2, SE) || !entersAfter(L1, L2, DT, LI))
    return false;

  const SCEV *RA = addressOf(R, SE), *WA = addressOf(W, SE);
  if (RA->getType() != WA->getType() || !sameValuesInBoth(WA, L1, L1, L2, SE) ||
      !sameValuesInBoth(RA, L2, L1, L2, SE))
    return false;
  MoveToLoop Move(SE, L1, L2);
  const SCEV *WInL2 = Move.visit(WA);
  return insideStore(SE.getMinusSCEV(RA, WInL2), RSize, WSize);
}

} // namespace

bool loadCoveredByOwnStore(const MemAccess &Read, ArrayRef<const MemAccess *> Writes,
                           ScalarEvolution &SE, DominatorTree &DT, LoopInfo &LI) {
  if (!simpleLoad(Read))
    return false;
  std::optional<uint64_t> RSize = constantBytes(Read.Size);
  if (!RSize)
    return false;
  for (const MemAccess *W : Writes) {
    if (!simpleStore(*W))
      continue;
    std::optional<uint64_t> WSize = constantBytes(W->Size);
    if (!WSize)
      continue;
    if (storedBefore(Read, *W, *RSize, *WSize, SE, DT) ||
        storedInEarlierLoop(Read, *W, *RSize, *WSize, SE, DT, LI))
      return true;
  }
  return false;
}

} // namespace gmem

//===- CheckpointLoopNest.cpp - How much work one entry of a nest does ----===//
//
// A loop nest whose trip counts are known when it is entered (im2col's
// ksize x ksize patch, a stencil's radius, a convolution's filter) may be
// short although nothing bounds it at compile time: the static cost model
// (CheckpointLoopCost.cpp) then guesses its subloops long and checks in
// every level, which on im2col meant four checks per element of its
// grid-stride loop for a 3 x 3 patch. Here the nest's work per entry is
// computed at the entry from SCEV's upper bound on each loop's backedge
// count, so that a short entry can run an untouched copy of the whole nest
// (CheckpointLoopVersion.cpp) and leave the check to the enclosing loop.
//
// Work(M) = Trips(M) * (own cost of M + sum over M's subloops of Work),
// each factor clamped just above the limit, so nothing overflows and any
// clamped term already says "long". The bound only moves where checks fall:
// a wrong one would lengthen a preemption, never change a result (the copy
// is the kernel's own code).
//
//===----------------------------------------------------------------------===//

#include "CheckpointInternal.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

using namespace llvm;

namespace gmem::ckpt {

namespace {

/// Nests deeper than this are left to the static model (and to the
/// versions of their inner levels).
constexpr unsigned MaxNestDepth = 4;

uint64_t ownCost(Loop &M, LoopInfo &LI) {
  uint64_t C = 0;
  for (BasicBlock *BB : M.blocks())
    if (LI.getLoopFor(BB) == &M)
      for (Instruction &I : *BB)
        C += loopInstructionCost(I, M);
  return std::max<uint64_t>(C, 1);
}

/// Collects into \p Bounds SCEV's bound on the backedges of every loop of
/// the nest from \p M down; false if one is unknown, or a subloop's (below
/// \p Outer) may change while \p Outer runs (a triangular nest's does).
bool collectNestBounds(Loop &M, Loop &Outer, ScalarEvolution &SE,
                       SmallVectorImpl<const SCEV *> &Bounds, unsigned Depth) {
  if (Depth > MaxNestDepth)
    return false;
  const SCEV *B = SE.getSymbolicMaxBackedgeTakenCount(&M);
  if (isa<SCEVCouldNotCompute>(B) || !B->getType()->isIntegerTy() ||
      B->getType()->getIntegerBitWidth() > 64)
    return false;
  if (&M != &Outer && !SE.isLoopInvariant(B, &Outer))
    return false;
  Bounds.push_back(B);
  for (Loop *Sub : M.getSubLoops())
    if (!collectNestBounds(*Sub, Outer, SE, Bounds, Depth + 1))
      return false;
  return true;
}

/// Where to compute a value over \p Bounds for an entry of \p L: the end of
/// the preheader of the outermost loop around L (L included) in which the
/// bounds do not change and can be computed, so that an enclosing loop does
/// not redo it (nor its division) every trip. Null if not even L's.
Instruction *computePoint(Loop &L, ArrayRef<const SCEV *> Bounds, ScalarEvolution &SE,
                          SCEVExpander &Exp) {
  auto Fits = [&](Loop &P) -> Instruction * {
    BasicBlock *Pre = P.getLoopPreheader();
    if (!Pre)
      return nullptr;
    Instruction *At = Pre->getTerminator();
    for (const SCEV *B : Bounds)
      if (!SE.isLoopInvariant(B, &P) || !Exp.isSafeToExpandAt(B, At))
        return nullptr;
    return At;
  };
  Instruction *At = Fits(L);
  for (Loop *P = L.getParentLoop(); At && P; P = P->getParentLoop()) {
    Instruction *Up = Fits(*P);
    if (!Up)
      break;
    At = Up;
  }
  return At;
}

/// min(V, C), folded when V is a constant.
Value *clampTo(IRBuilder<> &B, Value *V, uint64_t C, const Twine &Name = "") {
  if (auto *K = dyn_cast<ConstantInt>(V))
    return B.getInt64(std::min<uint64_t>(K->getZExtValue(), C));
  return B.CreateBinaryIntrinsic(Intrinsic::umin, V, B.getInt64(C), nullptr, Name);
}

Value *emitWork(Loop &M, LoopInfo &LI, ScalarEvolution &SE, SCEVExpander &Exp,
                IRBuilder<> &B, uint64_t Cap) {
  Type *I64 = B.getInt64Ty();
  const SCEV *Bound = SE.getNoopOrZeroExtend(SE.getSymbolicMaxBackedgeTakenCount(&M), I64);
  // Trips = min(backedges, Cap) + 1: at most Cap + 1.
  const SCEV *Trips =
      SE.getAddExpr(SE.getUMinExpr(Bound, SE.getConstant(I64, Cap)), SE.getOne(I64));
  Value *T = Exp.expandCodeFor(Trips, I64, &*B.GetInsertPoint());
  Value *Body = B.getInt64(ownCost(M, LI));
  for (Loop *Sub : M.getSubLoops())
    Body = B.CreateAdd(Body, emitWork(*Sub, LI, SE, Exp, B, Cap));
  Body = clampTo(B, Body, Cap + 1);
  // (Cap + 1)^2 fits easily: Cap is a few budgets.
  return clampTo(B, B.CreateMul(T, Body), Cap + 1, "gmem.nest.work");
}


/// Build(B, Exp) at the compute point of \p Bounds for an entry of \p L;
/// null where there is none.
template <typename Fn>
Value *atNestEntry(Loop &L, ScalarEvolution &SE, ArrayRef<const SCEV *> Bounds, Fn Build) {
  const DataLayout &DL = L.getHeader()->getModule()->getDataLayout();
  SCEVExpander Exp(SE, DL, "gmem.nest");
  Instruction *At = computePoint(L, Bounds, SE, Exp);
  if (!At)
    return nullptr;
  IRBuilder<> B(At);
  return Build(B, Exp);
}

} // namespace

Value *emitDynamicK(Loop &L, LoopInfo &LI, ScalarEvolution &SE, unsigned Budget,
                    Type *Ty) {
  uint64_t Cap = 2 * uint64_t(Budget);
  if (L.getSubLoops().empty() || Budget == 0 || Cap >= (1u << 24))
    return nullptr;
  SmallVector<const SCEV *, 4> Bounds;
  for (Loop *Sub : L.getSubLoops())
    if (!collectNestBounds(*Sub, L, SE, Bounds, 2))
      return nullptr;
  return atNestEntry(L, SE, Bounds, [&](IRBuilder<> &B, SCEVExpander &Exp) -> Value * {
    Value *W = B.getInt64(ownCost(L, LI));
    for (Loop *Sub : L.getSubLoops())
      W = B.CreateAdd(W, emitWork(*Sub, LI, SE, Exp, B, Cap));
    W = clampTo(B, W, Cap + 1, "gmem.iter.work");
    // K = ceil(budget / W), W in [1, Cap + 1]: i32 and a 32-bit udiv suffice.
    Value *W32 = B.CreateTrunc(W, B.getInt32Ty());
    Value *K = B.CreateUDiv(B.CreateAdd(W32, B.getInt32(Budget - 1)), W32);
    unsigned Max = Ty->getIntegerBitWidth() < 32 ? (1u << 13) : (1u << 20);
    K = B.CreateBinaryIntrinsic(Intrinsic::umin, K, B.getInt32(Max));
    return B.CreateZExtOrTrunc(K, Ty, "gmem.ckpt.k");
  });
}

Value *emitNestIsShort(Loop &L, LoopInfo &LI, ScalarEvolution &SE, uint64_t Limit) {
  if (L.getSubLoops().empty() || Limit == 0 || Limit >= (1u << 24))
    return nullptr;
  SmallVector<const SCEV *, 4> Bounds;
  if (!collectNestBounds(L, L, SE, Bounds, 1))
    return nullptr;
  return atNestEntry(L, SE, Bounds, [&](IRBuilder<> &B, SCEVExpander &Exp) -> Value * {
    Value *W = emitWork(L, LI, SE, Exp, B, Limit);
    return B.CreateICmpULE(W, B.getInt64(Limit), "gmem.nest.isshort");
  });
}

} // namespace gmem::ckpt

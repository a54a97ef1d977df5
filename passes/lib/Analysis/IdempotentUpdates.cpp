//===- IdempotentUpdates.cpp - Updates that leave their result alone ------===//

#include "gmem/passes/IdempotentUpdates.h"
#include "gmem/passes/GpuTarget.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace gmem {
namespace {

constexpr unsigned MaxDepth = 16;

/// One-operand math that is its own fixpoint once applied: fabs, the
/// roundings, saturate (LLVM's and NVVM's, the latter being what CUDA's
/// libdevice gives fabsf, floorf, __saturatef at -O2).
bool isIdempotentUnary(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::fabs:
  case Intrinsic::floor:
  case Intrinsic::ceil:
  case Intrinsic::trunc:
  case Intrinsic::round:
  case Intrinsic::rint:
  case Intrinsic::nearbyint:
  case Intrinsic::roundeven:
  case Intrinsic::nvvm_fabs_f:
  case Intrinsic::nvvm_fabs_d:
  case Intrinsic::nvvm_floor_f:
  case Intrinsic::nvvm_floor_d:
  case Intrinsic::nvvm_ceil_f:
  case Intrinsic::nvvm_ceil_d:
  case Intrinsic::nvvm_trunc_f:
  case Intrinsic::nvvm_trunc_d:
  case Intrinsic::nvvm_round_f:
  case Intrinsic::nvvm_round_d:
  case Intrinsic::nvvm_saturate_f: // __saturatef: a clamp to [0, 1]
  case Intrinsic::nvvm_saturate_d:
    return true;
  default:
    return false;
  }
}

enum class Family { None, Signed, Unsigned, Num, NaNPropagating, NvvmNum, NvvmNaN, Bits };

Family familyOf(const Value *V);

/// Math that computes from its operands alone (not the geometry reads,
/// which are calls without memory effects too).
bool isPureMath(const IntrinsicInst &II) {
  switch (II.getIntrinsicID()) {
  case Intrinsic::abs:
  case Intrinsic::copysign:
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
    return true;
  default:
    return isIdempotentUnary(II.getIntrinsicID()) || familyOf(&II) != Family::None;
  }
}

/// An instruction whose value is a function of its operands only.
bool isPure(const Instruction &I) {
  if (isa<BinaryOperator>(I) || isa<CastInst>(I) || isa<CmpInst>(I) || isa<SelectInst>(I) ||
      isa<UnaryOperator>(I) || isa<FreezeInst>(I))
    return true;
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && isPureMath(*II);
}

/// The same value for every thread and every run of the launch: constants
/// and scalar kernel arguments, and pure math over them.
bool isLaunchInvariant(const Value *V, unsigned Depth = 0) {
  if (isa<Constant>(V))
    return !isa<GlobalValue>(V) && !isa<ConstantExpr>(V);
  if (const auto *A = dyn_cast<Argument>(V))
    return isKernel(*A->getParent()) && !isAggregateParam(*A) && !A->getType()->isPointerTy();
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > MaxDepth || !isPure(*I))
    return false;
  for (const Value *Op : I->operands())
    if (!isLaunchInvariant(Op, Depth + 1))
      return false;
  return true;
}

/// A function of X and launch-invariant values alone.
bool dependsOnlyOn(const Value *V, const Value *X, unsigned Depth = 0) {
  if (V == X || isLaunchInvariant(V))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > MaxDepth || !isPure(*I))
    return false;
  for (const Value *Op : I->operands())
    if (!dependsOnlyOn(Op, X, Depth + 1))
      return false;
  return true;
}

Family familyOf(const Value *V) {
  if (const auto *II = dyn_cast<IntrinsicInst>(V)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::smin:
    case Intrinsic::smax: return Family::Signed;
    case Intrinsic::umin:
    case Intrinsic::umax: return Family::Unsigned;
    case Intrinsic::minnum:
    case Intrinsic::maxnum: return Family::Num;
    case Intrinsic::minimum:
    case Intrinsic::maximum: return Family::NaNPropagating;
    // NVVM's own (PTX min/max.f32/f64, and their .NaN forms): the same
    // orders, kept apart from LLVM's in case their zeros differ.
    case Intrinsic::nvvm_fmax_f:
    case Intrinsic::nvvm_fmin_f:
    case Intrinsic::nvvm_fmax_d:
    case Intrinsic::nvvm_fmin_d: return Family::NvvmNum;
    case Intrinsic::nvvm_fmax_nan_f:
    case Intrinsic::nvvm_fmin_nan_f: return Family::NvvmNaN;
    default: return Family::None;
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(V))
    if (BO->getOpcode() == Instruction::And || BO->getOpcode() == Instruction::Or)
      return Family::Bits;
  return Family::None;
}

/// V = op_n(... op_1(X, c_1) ..., c_n), every op of family F and every c
/// launch-invariant: a clamp (min/max of one order) or a per-bit keep/set
/// (and/or), both idempotent.
bool isChainOf(const Value *V, const Value *X, Family F, unsigned Depth = 0) {
  if (V == X)
    return true;
  if (Depth > MaxDepth || familyOf(V) != F)
    return false;
  const auto *I = cast<Instruction>(V);
  const Value *A = I->getOperand(0), *B = I->getOperand(1);
  if (isLaunchInvariant(B))
    return isChainOf(A, X, F, Depth + 1);
  if (isLaunchInvariant(A))
    return isChainOf(B, X, F, Depth + 1);
  return false;
}

/// Whether V, as a function of X, is one of the idempotent forms.
bool isIdempotentOf(const Value *V, const Value *X) {
  if (V == X || isLaunchInvariant(V))
    return true;
  if (const auto *S = dyn_cast<SelectInst>(V)) {
    const Value *T = S->getTrueValue(), *E = S->getFalseValue();
    const bool Replace = (T == X && isLaunchInvariant(E)) || (E == X && isLaunchInvariant(T));
    return Replace && dependsOnlyOn(S->getCondition(), X);
  }
  if (const Family F = familyOf(V); F != Family::None)
    return isChainOf(V, X, F);
  if (const auto *II = dyn_cast<IntrinsicInst>(V))
    return isIdempotentUnary(II->getIntrinsicID()) && II->getArgOperand(0) == X;
  return false;
}

/// Whether the conditional branch \p Br only decides whether the block of
/// \p St runs, and that block writes nothing else: an if-then (its block
/// goes on to the branch's other successor) or an if-then-else whose other
/// arm writes nothing.
bool guardsOnly(const BranchInst &Br, const StoreInst &St) {
  const BasicBlock *B = St.getParent();
  if (!Br.isConditional() || B->getSinglePredecessor() != Br.getParent())
    return false;
  const BasicBlock *Other = Br.getSuccessor(0) == B ? Br.getSuccessor(1) : Br.getSuccessor(0);
  if (Other == B)
    return false;
  for (const Instruction &I : *B)
    if (&I != &St && (I.mayWriteToMemory() || isa<CallBase>(I)))
      return false;
  const BasicBlock *Next = B->getSingleSuccessor();
  if (!Next)
    return false;
  // Where the paths meet, nothing may tell which one ran: a phi taking
  // another value from the guarded block than from the other path would
  // carry the loaded value's test on (`g = 9` set beside the store and
  // stored elsewhere after: an adversarial round, session 52).
  auto SameAtJoin = [&](const BasicBlock *OtherPred) {
    for (const PHINode &Phi : Next->phis())
      if (Phi.getIncomingValueForBlock(B) != Phi.getIncomingValueForBlock(OtherPred))
        return false;
    return true;
  };
  if (Next == Other)
    return SameAtJoin(Br.getParent()); // if-then
  // if-then-else: the other arm writes nothing and both meet at Next.
  if (Other->getSinglePredecessor() != Br.getParent() || Other->getSingleSuccessor() != Next)
    return false;
  for (const Instruction &I : *Other)
    if (I.mayWriteToMemory() || isa<CallBase>(I))
      return false;
  return SameAtJoin(Other);
}

} // namespace

bool isIdempotentUpdate(const MemAccess &Read, const MemAccess &Write, ScalarEvolution &SE) {
  const auto *LI = dyn_cast_or_null<LoadInst>(Read.Inst);
  const auto *St = dyn_cast_or_null<StoreInst>(Write.Inst);
  if (!LI || !St || !LI->isSimple() || !St->isSimple() || Read.Atomic || Write.Atomic ||
      Read.Combine || Write.Combine)
    return false;
  // The same bytes: one address, one width.
  const DataLayout &DL = LI->getDataLayout();
  if (LI->getType() != St->getValueOperand()->getType() ||
      DL.getTypeStoreSize(LI->getType()) != DL.getTypeStoreSize(St->getValueOperand()->getType()))
    return false;
  if (SE.getSCEV(const_cast<Value *>(LI->getPointerOperand())) !=
      SE.getSCEV(const_cast<Value *>(St->getPointerOperand())))
    return false;
  const Value *V = St->getValueOperand();
  if (!isIdempotentOf(V, LI))
    return false;
  // Where the loaded value goes: pure math that ends in the stored value,
  // or in branches that only guard the store on a function of it and
  // launch-invariant values. Anything else (another store, an address, a
  // call, a phi) could carry which run it saw elsewhere.
  SmallVector<const Value *, 16> Work{LI};
  SmallPtrSet<const Value *, 16> Seen{LI};
  while (!Work.empty()) {
    const Value *X = Work.pop_back_val();
    for (const User *U : X->users()) {
      if (U == St) {
        if (St->getValueOperand() != X || St->getPointerOperand() == X)
          return false;
        continue;
      }
      if (const auto *Br = dyn_cast<BranchInst>(U)) {
        if (!guardsOnly(*Br, *St) || !dependsOnlyOn(Br->getCondition(), LI))
          return false;
        continue;
      }
      const auto *I = dyn_cast<Instruction>(U);
      if (!I || !isPure(*I))
        return false;
      if (Seen.insert(I).second)
        Work.push_back(I);
    }
  }
  return true;
}

} // namespace gmem

//===- FixpointCases.cpp - Maps with few outcomes, checked by folding ------===//

#include "FixpointCases.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace gmem {

bool FixpointCases::plainLiteral(const Constant *C) {
  if (isa<ConstantInt>(C))
    return true;
  const auto *F = dyn_cast<ConstantFP>(C);
  return F && !F->getValueAPF().isDenormal() && !F->isNaN();
}

/// Half and bfloat16 are left out: their conversions are lowered per
/// target (sm_80 turns int -> bf16 into two roundings, the folder one).
bool FixpointCases::plainType(const Type *T) {
  return T->isIntegerTy() || T->isFloatTy() || T->isDoubleTy();
}

bool FixpointCases::exactOp(const Instruction &I) {
  // Contraction only fuses arithmetic, which is left out anyway; the
  // other flags let the backend assume facts about the values.
  if (const auto *FP = dyn_cast<FPMathOperator>(&I)) {
    FastMathFlags FMF = FP->getFastMathFlags();
    FMF.setAllowContract(false);
    if (FMF.any())
      return false;
  }
  if (!plainType(I.getType()))
    return false;
  for (const Value *Op : I.operands())
    if (!isa<BasicBlock>(Op) && !isa<Function>(Op) && !plainType(Op->getType()))
      return false;
  switch (I.getOpcode()) {
  case Instruction::Add:
  case Instruction::Sub:
  case Instruction::Mul:
  case Instruction::And:
  case Instruction::Or:
  case Instruction::Xor:
  case Instruction::Shl:
  case Instruction::LShr:
  case Instruction::AShr:
  case Instruction::ZExt:
  case Instruction::SExt:
  case Instruction::Trunc:
  case Instruction::SIToFP:
  case Instruction::UIToFP:
  case Instruction::FPExt:
  case Instruction::BitCast:
  case Instruction::FNeg:
  case Instruction::ICmp:
  case Instruction::FCmp:
  case Instruction::Select:
  case Instruction::Freeze:
    return true;
  case Instruction::Call:
    if (const auto *II = dyn_cast<IntrinsicInst>(&I))
      switch (II->getIntrinsicID()) {
      case Intrinsic::fabs:
      case Intrinsic::copysign:
      case Intrinsic::abs:
      case Intrinsic::smin:
      case Intrinsic::smax:
      case Intrinsic::umin:
      case Intrinsic::umax:
        return true;
      default:
        break;
      }
    return false;
  default:
    return false;
  }
}

/// Checks the shape, numbers the comparisons of X. False: not a map this
/// class decides.
bool FixpointCases::collect(const Value *V) {
  if (!Visited.insert(V).second)
    return true;
  if (Visited.size() > MaxNodes)
    return false;
  if (V == X) {
    OnX[V] = true;
    return true;
  }
  if (const auto *C = dyn_cast<Constant>(V)) {
    OnX[V] = false;
    return plainLiteral(C);
  }
  if (const auto *Phi = dyn_cast<PHINode>(V)) {
    // Only in a path walk, which sets a phi's value from the edge taken.
    if (!PathMode || !plainType(Phi->getType()))
      return false;
    bool Dep = false;
    for (const Value *In : Phi->incoming_values()) {
      if (!collect(In))
        return false;
      Dep |= OnX.lookup(In);
    }
    OnX[V] = Dep;
    return true;
  }
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || !exactOp(*I))
    return false;
  bool Dep = false;
  const unsigned NumOps = isa<CallBase>(I) ? cast<CallBase>(I)->arg_size() : I->getNumOperands();
  for (unsigned Op = 0; Op < NumOps; ++Op) {
    if (!collect(I->getOperand(Op)))
      return false;
    Dep |= OnX.lookup(I->getOperand(Op));
  }
  OnX[V] = Dep;
  if (Dep && isa<CmpInst>(I))
    Cases.push_back(I);
  return true;
}

FixpointCases::Result FixpointCases::eval(const Value *V) {
  if (auto It = Memo.find(V); It != Memo.end())
    return It->second;
  Result R = evalUncached(V);
  Memo[V] = R;
  return R;
}

FixpointCases::Result FixpointCases::evalUncached(const Value *V) {
  Result R;
  if (V == X) {
    if (XValue) {
      R.K = Result::Const;
      R.C = XValue;
    } else {
      R.K = Result::IsX;
    }
    return R;
  }
  if (const auto *C = dyn_cast<Constant>(V)) {
    R.K = Result::Const;
    R.C = const_cast<Constant *>(C);
    return R;
  }
  if (isa<PHINode>(V))
    return R; // not on the path walked (its value is set on entry)
  auto *I = const_cast<Instruction *>(cast<Instruction>(V));
  if (!XValue && OnX.lookup(V) && isa<CmpInst>(I)) {
    const unsigned Idx = find(Cases, I) - Cases.begin();
    R.K = Result::Const;
    R.C = ConstantInt::getBool(I->getType(), (CaseBits >> Idx) & 1);
    return R;
  }
  if (auto *Sel = dyn_cast<SelectInst>(I)) {
    const Result Cond = eval(Sel->getCondition());
    if (Cond.K != Result::Const || !isa<ConstantInt>(Cond.C))
      return R;
    return eval(cast<ConstantInt>(Cond.C)->isOne() ? Sel->getTrueValue() : Sel->getFalseValue());
  }
  if (isa<FreezeInst>(I))
    return eval(I->getOperand(0));
  SmallVector<Constant *, 3> Ops;
  const unsigned NumOps = isa<CallBase>(I) ? cast<CallBase>(I)->arg_size() : I->getNumOperands();
  for (unsigned Op = 0; Op < NumOps; ++Op) {
    const Result O = eval(I->getOperand(Op));
    if (O.K != Result::Const)
      return R; // X itself under anything but a select: not decided here
    Ops.push_back(O.C);
  }
  Constant *Folded = nullptr;
  if (auto *Cmp = dyn_cast<CmpInst>(I))
    Folded = ConstantFoldCompareInstOperands(Cmp->getPredicate(), Ops[0], Ops[1], DL, nullptr, I);
  else if (auto *Call = dyn_cast<CallBase>(I))
    Folded = ConstantFoldCall(Call, Call->getCalledFunction(), Ops, nullptr,
                              /*AllowNonDeterministic=*/false);
  else
    Folded = ConstantFoldInstOperands(I, Ops, DL, nullptr, /*AllowNonDeterministic=*/false);
  if (!Folded || !(isa<ConstantInt>(Folded) || isa<ConstantFP>(Folded)))
    return R; // poison (an over-wide shift), undef, a constant expression
  // A NaN's payload after any operation but a bitwise one is not fixed
  // (LangRef): the folder keeps it through fpext, the GPU's cvt gives
  // its canonical NaN (a map moved 1.0000001f to a NaN, then to 0, in
  // the eighth adversarial round). So no NaN at all, not even as an
  // operand of a comparison.
  if (const auto *F = dyn_cast<ConstantFP>(Folded); F && F->isNaN())
    return R;
  // An integer converted to floating point must be exact: no rounding,
  // whatever steps the backend takes.
  if (isa<SIToFPInst>(I) || isa<UIToFPInst>(I)) {
    Constant *Back = ConstantFoldCastOperand(
        isa<SIToFPInst>(I) ? Instruction::FPToSI : Instruction::FPToUI, Folded,
        I->getOperand(0)->getType(), DL);
    if (Back != Ops[0])
      return R;
  }
  R.K = Result::Const;
  R.C = Folded;
  return R;
}

template <typename OutcomeFn>
bool FixpointCases::outcomes(OutcomeFn &&Outcome, SmallVectorImpl<Constant *> &Out) {
  for (unsigned Bits = 0; Bits < (1u << Cases.size()); ++Bits) {
    Memo.clear();
    XValue = nullptr;
    CaseBits = Bits;
    const Result R = Outcome();
    if (R.K == Result::Fail)
      return false;
    if (R.K == Result::Const && !is_contained(Out, R.C))
      Out.push_back(R.C);
  }
  for (Constant *C : Out)
    if (!plainLiteral(C))
      return false;
  return true;
}

bool FixpointCases::holds(const Value *V) {
  if (!collect(V) || Cases.size() > MaxCases)
    return false;
  SmallVector<Constant *, 8> Outcomes;
  if (!outcomes([&] { return eval(V); }, Outcomes))
    return false;
  for (Constant *C : Outcomes) {
    Memo.clear();
    XValue = C;
    const Result R = eval(V);
    if (R.K != Result::Const || R.C != C) // uniqued: the same bits
      return false;
  }
  return true;
}

Constant *FixpointCases::evaluateAt(const Value *V, Constant *C) {
  if (!plainLiteral(C) || !collect(V))
    return nullptr;
  Memo.clear();
  XValue = C;
  const Result R = eval(V);
  return R.K == Result::Const ? R.C : nullptr;
}

/// Follows the one path the current cases (or X's value) pick from the
/// load: what the store writes, or X where the path passes it by. A path
/// enters each block once: values are evaluated once (Memo), so a second
/// trip round a loop would see the first trip's (a loop toggling the value
/// twice looked like one toggle: the twelfth adversarial round).
FixpointCases::Result FixpointCases::walk(const LoadInst &Load, const StoreInst &St,
                                          const SmallPtrSetImpl<const BasicBlock *> &Region,
                                          const BasicBlock *Join) {
  const BasicBlock *B = Load.getParent();
  SmallPtrSet<const BasicBlock *, 8> Entered{B};
  for (unsigned Step = 0; Step < MaxSteps; ++Step) {
    const auto *Br = dyn_cast<BranchInst>(B->getTerminator());
    if (!Br)
      return {};
    const BasicBlock *Next = Br->getSuccessor(0);
    if (Br->isConditional()) {
      const Result Cond = eval(Br->getCondition());
      if (Cond.K != Result::Const || !isa<ConstantInt>(Cond.C))
        return {};
      Next = Br->getSuccessor(cast<ConstantInt>(Cond.C)->isOne() ? 0 : 1);
    }
    if (Next == Join) {
      Result Kept;
      Kept.K = XValue ? Result::Const : Result::IsX;
      Kept.C = XValue;
      return Kept;
    }
    if ((Next != St.getParent() && !Region.contains(Next)) || !Entered.insert(Next).second)
      return {};
    // Entering Next from B: its phis take B's values, all at once.
    SmallVector<std::pair<const PHINode *, Result>, 4> Set;
    for (const PHINode &Phi : Next->phis())
      Set.push_back({&Phi, eval(Phi.getIncomingValueForBlock(B))});
    for (const auto &[Phi, R] : Set)
      Memo[Phi] = R;
    if (Next == St.getParent())
      return eval(St.getValueOperand());
    B = Next;
  }
  return {};
}

bool FixpointCases::holdsOnPaths(const LoadInst &Load, const StoreInst &St,
                                 const SmallPtrSetImpl<const BasicBlock *> &Region,
                                 const BasicBlock *Join) {
  PathMode = true;
  // The walk evaluates the branch conditions it meets and the stored value.
  if (!collect(St.getValueOperand()))
    return false;
  for (const BasicBlock *B : Region)
    for (const PHINode &Phi : B->phis())
      if (!collect(&Phi))
        return false;
  for (const PHINode &Phi : St.getParent()->phis())
    if (!collect(&Phi))
      return false;
  SmallVector<const BasicBlock *, 8> From(Region.begin(), Region.end());
  From.push_back(Load.getParent());
  for (const BasicBlock *B : From)
    if (const auto *Br = dyn_cast<BranchInst>(B->getTerminator());
        Br && Br->isConditional() && !collect(Br->getCondition()))
      return false;
  if (Cases.size() > MaxCases)
    return false;
  SmallVector<Constant *, 8> Outcomes;
  if (!outcomes([&] { return walk(Load, St, Region, Join); }, Outcomes))
    return false;
  for (Constant *C : Outcomes) {
    Memo.clear();
    XValue = C;
    const Result R = walk(Load, St, Region, Join);
    if (R.K != Result::Const || R.C != C)
      return false;
  }
  return true;
}

/// The blocks of a store guarded by several branches on the loaded value
/// (`if (x < 0) p[i] = 0; else if (x > 255) p[i] = 255;`, whose store LLVM
/// merges into one block storing a phi). From the load every path runs
/// through blocks that only compute (Region) to the store's block or past
/// it to Join, the block after the store's; nothing enters Region or the
/// store's block from elsewhere, the phis at Join take one value from every
/// such edge, and the loaded value is used only on those paths: branches,
/// pure math and phis there, and the stored value. FixpointCases then walks
/// each path. False where the shape differs.
bool guardedRegion(const LoadInst &LI, const StoreInst &St,
                   SmallPtrSetImpl<const BasicBlock *> &Region, const BasicBlock *&Join,
                   function_ref<bool(const Instruction &)> IsPure) {
  constexpr unsigned MaxBlocks = 8;
  const BasicBlock *LB = LI.getParent(), *SB = St.getParent();
  Join = SB->getSingleSuccessor();
  if (SB == LB || !Join || Join == LB || Join == SB)
    return false;
  auto OnlyComputes = [IsPure](const Instruction &I) {
    return !I.mayWriteToMemory() && (!isa<CallBase>(I) || IsPure(I));
  };
  for (const Instruction *I = LI.getNextNode(); I; I = I->getNextNode())
    if (!OnlyComputes(*I))
      return false;
  for (const Instruction &I : *SB)
    if (&I != &St && !OnlyComputes(I))
      return false;
  SmallVector<const BasicBlock *, 8> Work(succ_begin(LB), succ_end(LB));
  while (!Work.empty()) {
    const BasicBlock *B = Work.pop_back_val();
    if (B == SB || B == Join || Region.contains(B))
      continue;
    if (B == LB || Region.size() >= MaxBlocks || !isa<BranchInst>(B->getTerminator()) ||
        !all_of(*B, OnlyComputes))
      return false;
    Region.insert(B);
    Work.append(succ_begin(B), succ_end(B));
  }
  auto Inside = [&](const BasicBlock *B) { return B == LB || Region.contains(B); };
  for (const BasicBlock *B : Region)
    if (!all_of(predecessors(B), Inside))
      return false;
  if (!all_of(predecessors(SB), Inside))
    return false;
  for (const PHINode &Phi : Join->phis()) {
    const Value *One = Phi.getIncomingValueForBlock(SB);
    for (unsigned I = 0; I < Phi.getNumIncomingValues(); ++I)
      if (const BasicBlock *In = Phi.getIncomingBlock(I);
          (Inside(In) || In == SB) && Phi.getIncomingValue(I) != One)
        return false;
  }
  // The loaded value stays on the paths and ends in the store.
  auto OnPaths = [&](const Instruction &I) {
    const BasicBlock *B = I.getParent();
    if (B == LB)
      return LI.comesBefore(&I);
    return B == SB || Region.contains(B);
  };
  SmallVector<const Value *, 16> Uses{&LI};
  SmallPtrSet<const Value *, 16> Seen{&LI};
  while (!Uses.empty()) {
    const Value *V = Uses.pop_back_val();
    for (const User *U : V->users()) {
      if (U == &St) {
        if (St.getValueOperand() != V || St.getPointerOperand() == V)
          return false;
        continue;
      }
      const auto *I = dyn_cast<Instruction>(U);
      if (!I || !OnPaths(*I))
        return false;
      if (isa<BranchInst>(I))
        continue;
      if (!IsPure(*I) && !isa<PHINode>(I))
        return false;
      if (Seen.insert(I).second)
        Uses.push_back(I);
    }
  }
  return true;
}

} // namespace gmem

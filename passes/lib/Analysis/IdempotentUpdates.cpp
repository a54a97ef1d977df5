//===- IdempotentUpdates.cpp - Updates that leave their result alone ------===//

#include "gmem/passes/IdempotentUpdates.h"
#include "gmem/passes/GpuTarget.h"

#include "FixpointCases.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"
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
  case Intrinsic::abs: // |INT_MIN| is INT_MIN again (or poison, then UB)
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

/// What the map may take besides the loaded value: values that are the
/// same in every run of the launch. Constants, scalar arguments and fields
/// of by-value aggregate ones, and simple loads the caller vouches for (of
/// objects the launch never writes: masked_fill_'s mask, a clamp's tensor
/// bounds) at addresses computed from such values; and pure math over
/// them. Never the loaded value itself (`table[x]`), shared memory or
/// anything another thread wrote.
///
/// Several threads may update one element, each with its map, one after
/// the other: maps that differ by thread need not compose into an
/// idempotent one (`if (x == key) x = key + 1` with key = 0 in one thread
/// and 1 in the next: 0 -> 1 -> 2, the eleventh adversarial round). So the
/// map must be the same for every thread that can store to the element:
/// no geometry, and loads at thread-invariant addresses, or at the index
/// the store itself uses (OwnIndex: `m[i] ? v : x[i]`, where every thread
/// writing x[i] reads the same m[i]). PerThread lifts that for callers that
/// have shown the element is the thread's own (the self-disabling flag).
class RunInvariant {
public:
  RunInvariant(const SmallPtrSetImpl<const Instruction *> &Stable, bool PerThread,
               const Value *OwnIndex = nullptr)
      : Stable(Stable), PerThread(PerThread), OwnIndex(OwnIndex) {}

  bool operator()(const Value *V, unsigned Depth = 0) const {
    if (isa<Constant>(V))
      return !isa<GlobalValue>(V) && !isa<ConstantExpr>(V);
    if (const auto *A = dyn_cast<Argument>(V))
      return isKernel(*A->getParent()) && !isAggregateParam(*A) && !A->getType()->isPointerTy();
    if (classifyGeometry(V))
      return PerThread;
    if (loadsAggregateParam(V))
      return !V->getType()->isPointerTy();
    const auto *I = dyn_cast<Instruction>(V);
    if (!I || Depth > MaxDepth)
      return false;
    if (const auto *L = dyn_cast<LoadInst>(I))
      return L->isSimple() && Stable.contains(L) &&
             (address(L->getPointerOperand(), Depth + 1) || atOwnIndex(L->getPointerOperand()));
    if (!isPure(*I))
      return false;
    for (const Value *Op : I->operands())
      if (!(*this)(Op, Depth + 1))
        return false;
    return true;
  }

  /// An address the thread computes the same in every run: a pointer
  /// argument (or a field of an aggregate one) offset by such values.
  bool address(const Value *P, unsigned Depth = 0) const {
    if (Depth > MaxDepth)
      return false;
    if (const auto *A = dyn_cast<Argument>(P))
      return isKernel(*A->getParent()) && !isAggregateParam(*A);
    if (isa<GlobalVariable>(P))
      return true;
    if (std::optional<ParamField> F = matchParamField(P))
      return F->IsPointer;
    if (const auto *Cast = dyn_cast<AddrSpaceCastInst>(P))
      return address(Cast->getPointerOperand(), Depth + 1);
    if (const auto *GEP = dyn_cast<GetElementPtrInst>(P)) {
      for (const Value *Idx : GEP->indices())
        if (!(*this)(Idx, Depth + 1))
          return false;
      return address(GEP->getPointerOperand(), Depth + 1);
    }
    return false;
  }

private:
  const SmallPtrSetImpl<const Instruction *> &Stable;
  const bool PerThread;
  const Value *OwnIndex;

  /// `base[OwnIndex]`, base an address no thread computes differently.
  bool atOwnIndex(const Value *P) const {
    const auto *GEP = dyn_cast<GetElementPtrInst>(P->stripPointerCasts());
    return OwnIndex && GEP && GEP->getNumIndices() == 1 && GEP->getOperand(1) == OwnIndex &&
           address(GEP->getPointerOperand(), 1);
  }
};

/// A function of X and run-invariant values alone.
bool dependsOnlyOn(const Value *V, const Value *X, const RunInvariant &Inv, unsigned Depth = 0) {
  if (V == X || Inv(V))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > MaxDepth || !isPure(*I))
    return false;
  for (const Value *Op : I->operands())
    if (!dependsOnlyOn(Op, X, Inv, Depth + 1))
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
/// run-invariant: a clamp (min/max of one order) or a per-bit keep/set
/// (and/or), both idempotent.
bool isChainOf(const Value *V, const Value *X, Family F, const RunInvariant &Inv,
               unsigned Depth = 0) {
  if (V == X)
    return true;
  if (Depth > MaxDepth || familyOf(V) != F)
    return false;
  const auto *I = cast<Instruction>(V);
  const Value *A = I->getOperand(0), *B = I->getOperand(1);
  if (Inv(B))
    return isChainOf(A, X, F, Inv, Depth + 1);
  if (Inv(A))
    return isChainOf(B, X, F, Inv, Depth + 1);
  return false;
}

/// V = rem(... rem(X, c_1) ..., c_n), all signed or all unsigned, each c a
/// literal other than 0 (and -1, signed): the result is smaller in
/// magnitude than every divisor and keeps x's sign, so each remainder leaves
/// it alone the second time. (A divisor from an argument could be 0, whose
/// remainder the hardware leaves unspecified.)
bool isRemChain(const Value *V, const Value *X, unsigned Opcode, unsigned Depth = 0) {
  if (V == X)
    return true;
  const auto *BO = dyn_cast<BinaryOperator>(V);
  if (!BO || BO->getOpcode() != Opcode || Depth > MaxDepth)
    return false;
  const auto *C = dyn_cast<ConstantInt>(BO->getOperand(1));
  if (!C || C->isZero() || (Opcode == Instruction::SRem && C->isMinusOne()))
    return false;
  return isRemChain(BO->getOperand(0), X, Opcode, Depth + 1);
}


/// Whether a block between a branch and its join writes or calls nothing.
bool onlyComputes(const BasicBlock &B) {
  for (const Instruction &I : B)
    if (I.mayWriteToMemory() || isa<CallBase>(I))
      return false;
  return true;
}

/// `m[i] ? v : x[i]` compiled with x[i] loaded on its own arm: a phi of
/// the loaded value and a run-invariant one, joined right after one
/// conditional branch (a triangle, or a diamond whose arms neither write
/// nor call): select(P, x, c) again, P the branch's condition. Where P
/// depends on x (never with \p InvariantCondOnly), no other phi at the
/// join may tell the paths apart.
bool isSelectLikePhi(const PHINode &Phi, const Value *X, const RunInvariant &Inv,
                     bool InvariantCondOnly = false) {
  if (Phi.getNumIncomingValues() != 2)
    return false;
  const unsigned XI = Phi.getIncomingValue(0) == X ? 0 : 1;
  if (Phi.getIncomingValue(XI) != X || !Inv(Phi.getIncomingValue(1 - XI)))
    return false;
  const BasicBlock *J = Phi.getParent();
  const BasicBlock *A = Phi.getIncomingBlock(0), *B = Phi.getIncomingBlock(1);
  if (A == B || J->hasNPredecessorsOrMore(3))
    return false;
  auto IsArm = [J](const BasicBlock *Arm, const BasicBlock *From) {
    return From && Arm->getSinglePredecessor() == From && Arm->getSingleSuccessor() == J &&
           onlyComputes(*Arm);
  };
  const BasicBlock *D = nullptr;
  if (IsArm(A, B))
    D = B; // triangle
  else if (IsArm(B, A))
    D = A;
  else if (IsArm(A, A->getSinglePredecessor()) && IsArm(B, A->getSinglePredecessor()))
    D = A->getSinglePredecessor(); // diamond
  const auto *Br = D ? dyn_cast<BranchInst>(D->getTerminator()) : nullptr;
  if (!Br || !Br->isConditional())
    return false;
  const Value *Cond = Br->getCondition();
  if (Inv(Cond))
    return true;
  if (InvariantCondOnly || !dependsOnlyOn(Cond, X, Inv))
    return false;
  for (const PHINode &Other : J->phis())
    if (&Other != &Phi && Other.getIncomingValue(0) != Other.getIncomingValue(1))
      return false;
  return true;
}

/// Whether V, as a function of X, is a map from a family closed under
/// composition whose every member is idempotent, so that the maps of
/// several threads storing to one element, applied in any fixed order, are
/// again idempotent: a chain of min/max of one order (clamps compose into a
/// clamp or a constant), of and/or (per bit: keep, clear or set), or a
/// select between X and a value on a condition not reading X (keep or
/// replace). Their operands may then differ by thread (Inv with PerThread):
/// `x[j] = max(x[j], threadIdx.x)` where threads share x[j]. Conditional
/// maps do not compose (`x == key ? key + 1 : x`, the eleventh round).
bool isLatticeMap(const Value *V, const Value *X, const RunInvariant &Inv) {
  if (const auto *S = dyn_cast<SelectInst>(V)) {
    const Value *T = S->getTrueValue(), *E = S->getFalseValue();
    return ((T == X && Inv(E)) || (E == X && Inv(T))) && Inv(S->getCondition());
  }
  if (const auto *Phi = dyn_cast<PHINode>(V))
    return isSelectLikePhi(*Phi, X, Inv, /*InvariantCondOnly=*/true);
  const Family F = familyOf(V);
  return F != Family::None && isChainOf(V, X, F, Inv);
}

/// Whether V, as a function of X, is one of the idempotent forms.
bool isIdempotentOf(const Value *V, const Value *X, const RunInvariant &Inv) {
  if (V == X || Inv(V))
    return true;
  if (const auto *S = dyn_cast<SelectInst>(V)) {
    const Value *T = S->getTrueValue(), *E = S->getFalseValue();
    const bool Replace = (T == X && Inv(E)) || (E == X && Inv(T));
    if (Replace && dependsOnlyOn(S->getCondition(), X, Inv))
      return true;
  }
  if (const auto *Phi = dyn_cast<PHINode>(V))
    return isSelectLikePhi(*Phi, X, Inv);
  if (const Family F = familyOf(V); F != Family::None)
    return isChainOf(V, X, F, Inv);
  if (const auto *II = dyn_cast<IntrinsicInst>(V))
    if (isIdempotentUnary(II->getIntrinsicID()) && II->getArgOperand(0) == X)
      return true;
  if (const auto *BO = dyn_cast<BinaryOperator>(V);
      BO && (BO->getOpcode() == Instruction::SRem || BO->getOpcode() == Instruction::URem))
    return isRemChain(V, X, BO->getOpcode());
  const auto *I = dyn_cast<Instruction>(V);
  return I && FixpointCases(X, I->getDataLayout()).holds(V);
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

/// V, through sign or zero extensions, is blockIdx.x * blockDim.x +
/// threadIdx.x: the thread's index in a one-dimensional grid.
bool isThreadIndexX(const Value *V) {
  auto Strip = [](const Value *X) {
    while (isa<SExtInst>(X) || isa<ZExtInst>(X))
      X = cast<CastInst>(X)->getOperand(0);
    return X;
  };
  auto Is = [&](const Value *X, GeometryKind K) {
    std::optional<GeometryValue> G = classifyGeometry(Strip(X));
    return G && G->Kind == K && G->Dim == 0;
  };
  const auto *Add = dyn_cast<BinaryOperator>(Strip(V));
  if (!Add || Add->getOpcode() != Instruction::Add)
    return false;
  for (unsigned I = 0; I < 2; ++I) {
    const auto *Mul = dyn_cast<BinaryOperator>(Strip(Add->getOperand(1 - I)));
    if (!Is(Add->getOperand(I), GeometryKind::ThreadIdx) || !Mul ||
        Mul->getOpcode() != Instruction::Mul)
      continue;
    const Value *A = Mul->getOperand(0), *B = Mul->getOperand(1);
    if ((Is(A, GeometryKind::BlockIdx) && Is(B, GeometryKind::BlockDim)) ||
        (Is(A, GeometryKind::BlockDim) && Is(B, GeometryKind::BlockIdx)))
      return true;
  }
  return false;
}

/// The flag is the thread's own: `m[blockIdx.x * blockDim.x + threadIdx.x]`
/// from a pointer every thread shares, elements at least as wide as the
/// load. Different threads of a one-dimensional launch of fewer than 2^31
/// threads then load different words (Checks: the launch conditions).
/// Without it a faster thread's clear decides a slower one's branch: run
/// again after a stop, threads cut before the block skip it (the tenth
/// adversarial round: flag[blockIdx.x] read before a barrier).
bool ownFlag(const LoadInst &LI, std::vector<RangeCheck> &Checks) {
  const auto *GEP = dyn_cast<GetElementPtrInst>(LI.getPointerOperand());
  if (!GEP || GEP->getNumIndices() != 1 || !isThreadIndexX(*GEP->idx_begin()))
    return false;
  const Value *Base = GEP->getPointerOperand()->stripPointerCasts();
  if (!isa<Argument>(Base) && !isa<GlobalVariable>(Base) && !matchParamField(Base))
    return false;
  const DataLayout &DL = LI.getDataLayout();
  if (DL.getTypeAllocSize(GEP->getSourceElementType()).getFixedValue() <
      DL.getTypeStoreSize(LI.getType()).getFixedValue())
    return false;
  auto Dim = [](Var V, int64_t Min, int64_t Max, bool Assumed) {
    RangeCheck C;
    C.Value = Expr::variable(V);
    C.Min = Min;
    C.Max = Max;
    C.Assumed = Assumed;
    return C;
  };
  for (unsigned D = 1; D < 3; ++D) {
    Checks.push_back(Dim(Var::blockDim(D), 1, 1, false));
    Checks.push_back(Dim(Var::gridDim(D), 1, 1, false));
  }
  RangeCheck Threads;
  Threads.Value = Expr::mul(Expr::variable(Var::gridDim(0)), Expr::variable(Var::blockDim(0)));
  Threads.Min = 1;
  Threads.Max = INT32_MAX;
  Threads.Assumed = true; // fewer than 2^31 threads in a dimension
  Checks.push_back(Threads);
  return true;
}

/// A flag that turns its own work off: `if (m[i]) { ...; m[i] = 0; }`
/// (Rodinia BFS's `g_updating_mask`). The loaded value only decides the
/// branch, which skips one block T or runs it and goes on where the skip
/// goes (a triangle). T is one block entered from the branch alone, so no
/// checkpoint stops a thread inside it, holds no call (a barrier there may
/// carry a loop's checkpoint), and stores a literal at the flag's address
/// that makes the branch skip T. Nothing T computes is used after it, the
/// join's phis do not tell whether T ran, and T writes only global memory
/// the analysis tracks (a shared or local word written there and read
/// after the join would tell). No path leads from T back to T without
/// loading the flag again: a flag loaded once before a loop whose body
/// holds T would run T on every trip, and a thread stopped at the loop's
/// checkpoint after one trip has cleared it (the ninth adversarial round).
/// Run again, a thread whose first run took T finds the flag off and skips
/// it, leaving what T stored; one whose first run skipped it skips it again
/// (other writes of the flag are pairs of their own). Returns T, else null.
const BasicBlock *selfDisabledBlock(const LoadInst &LI, const StoreInst &St,
                                    const RunInvariant &Inv,
                                    const SmallPtrSetImpl<const Instruction *> &TrackedWrites,
                                    std::vector<RangeCheck> &Checks) {
  auto *C = const_cast<Constant *>(dyn_cast<Constant>(St.getValueOperand()));
  const BasicBlock *T = St.getParent();
  const BasicBlock *D = T->getSinglePredecessor();
  const BasicBlock *J = T->getSingleSuccessor();
  const auto *Br = D ? dyn_cast<BranchInst>(D->getTerminator()) : nullptr;
  if (!C || !J || !Br || !Br->isConditional() || J == T ||
      (Br->getSuccessor(0) != J && Br->getSuccessor(1) != J) ||
      !dependsOnlyOn(Br->getCondition(), &LI, Inv))
    return nullptr;
  // The loaded value goes into the condition alone.
  SmallVector<const Value *, 8> Work{&LI};
  SmallPtrSet<const Value *, 8> Seen{&LI};
  while (!Work.empty()) {
    const Value *X = Work.pop_back_val();
    for (const User *U : X->users()) {
      if (U == Br)
        continue;
      const auto *I = dyn_cast<Instruction>(U);
      if (!I || !isPure(*I) || isa<PHINode>(I))
        return nullptr;
      if (Seen.insert(I).second)
        Work.push_back(I);
    }
  }
  for (const Instruction &I : *T) {
    if (isa<CallBase>(I) && !isa<DbgInfoIntrinsic>(I) && !I.isLifetimeStartOrEnd())
      return nullptr;
    if (I.mayWriteToMemory() && !isa<CallBase>(I) && !TrackedWrites.contains(&I))
      return nullptr;
    for (const User *U : I.users())
      if (cast<Instruction>(U)->getParent() != T)
        return nullptr;
  }
  // Every way back to T passes the flag's load.
  SmallVector<const BasicBlock *, 16> Stack{J};
  SmallPtrSet<const BasicBlock *, 32> Reached{LI.getParent()};
  while (!Stack.empty()) {
    const BasicBlock *B = Stack.pop_back_val();
    if (!Reached.insert(B).second)
      continue;
    if (B == D || B == T)
      return nullptr;
    for (const BasicBlock *Succ : successors(B))
      Stack.push_back(Succ);
  }
  for (const PHINode &Phi : J->phis())
    if (Phi.getIncomingValueForBlock(T) != Phi.getIncomingValueForBlock(D))
      return nullptr;
  Constant *Taken = FixpointCases(&LI, LI.getDataLayout()).evaluateAt(Br->getCondition(), C);
  const auto *TakenBit = dyn_cast_or_null<ConstantInt>(Taken);
  if (!TakenBit || Br->getSuccessor(TakenBit->isOne() ? 0 : 1) != J)
    return nullptr;
  return ownFlag(LI, Checks) ? T : nullptr;
}

/// The index a store's single-index GEP takes, where elements of its type
/// are as wide as the store and its base is an address every thread
/// computes the same (\p Strict: so another index is another element, and
/// one element one index), else null. A base that differs by thread (`q = p
/// + threadIdx.y; q[threadIdx.x]`) lets threads with different indices
/// store to one element: the thirteenth adversarial round.
const Value *storeIndex(const StoreInst &St, const RunInvariant &Strict) {
  const auto *GEP = dyn_cast<GetElementPtrInst>(St.getPointerOperand()->stripPointerCasts());
  if (!GEP || GEP->getNumIndices() != 1 || !Strict.address(GEP->getPointerOperand()))
    return nullptr;
  const DataLayout &DL = St.getDataLayout();
  const TypeSize Elem = DL.getTypeStoreSize(GEP->getSourceElementType());
  const TypeSize Width = DL.getTypeStoreSize(St.getValueOperand()->getType());
  return !Elem.isScalable() && Elem == Width ? GEP->getOperand(1) : nullptr;
}

/// The simple load and store of one pair at one address and width: their
/// pointers are one value. Taking two parameters for one buffer
/// (MergedPair, KernelDescriptor::AliasOk), equal offsets from them will do
/// where each pointer is its parameter plus the offset; never for pointers
/// chosen by a select or phi, which are recorded as an access of each
/// choice at one offset (`p = c ? y : x` read, `q = c ? x : y` written
/// swaps two buffers: the eleventh adversarial round).
bool samePlainBytes(const MemAccess &Read, const MemAccess &Write, ScalarEvolution &SE,
                    bool MergedPair) {
  const auto *LI = dyn_cast_or_null<LoadInst>(Read.Inst);
  const auto *St = dyn_cast_or_null<StoreInst>(Write.Inst);
  if (!LI || !St || !LI->isSimple() || !St->isSimple() || Read.Atomic || Write.Atomic ||
      Read.Combine || Write.Combine)
    return false;
  const DataLayout &DL = LI->getDataLayout();
  if (LI->getType() != St->getValueOperand()->getType() ||
      DL.getTypeStoreSize(LI->getType()) != DL.getTypeStoreSize(St->getValueOperand()->getType()))
    return false;
  const SCEV *LP = SE.getSCEV(const_cast<Value *>(LI->getPointerOperand()));
  const SCEV *SP = SE.getSCEV(const_cast<Value *>(St->getPointerOperand()));
  if (LP == SP)
    return true;
  auto OwnParam = [&](const SCEV *P) {
    const auto *Base = dyn_cast<SCEVUnknown>(SE.getPointerBase(P));
    const auto *A = Base ? dyn_cast<Argument>(Base->getValue()) : nullptr;
    return A && A->getType()->isPointerTy() && !isAggregateParam(*A);
  };
  return MergedPair && Read.Offset && Read.Offset == Write.Offset && OwnParam(LP) &&
         OwnParam(SP);
}

} // namespace

bool isIdempotentUpdate(const MemAccess &Read, const MemAccess &Write, ScalarEvolution &SE,
                        const SmallPtrSetImpl<const Instruction *> &StableLoads, bool MergedPair) {
  if (!samePlainBytes(Read, Write, SE, MergedPair))
    return false;
  const auto *LI = cast<LoadInst>(Read.Inst);
  const auto *St = cast<StoreInst>(Write.Inst);
  const RunInvariant Inv(StableLoads, /*PerThread=*/false,
                         storeIndex(*St, RunInvariant(StableLoads, /*PerThread=*/false)));
  const Value *V = St->getValueOperand();
  auto GuardedMap = [&] {
    SmallPtrSet<const BasicBlock *, 8> Region;
    const BasicBlock *Join = nullptr;
    return guardedRegion(*LI, *St, Region, Join, isPure) &&
           FixpointCases(LI, LI->getDataLayout()).holdsOnPaths(*LI, *St, Region, Join);
  };
  // A map whose operands differ by thread composes only unguarded: a
  // branch on the value (`if (x > 0) x = (x & a_t) | b_t`) lets one
  // thread's map move the value into another's guard (the twelfth round).
  const bool SameForAllThreads = isIdempotentOf(V, LI, Inv);
  if (!SameForAllThreads && !isLatticeMap(V, LI, RunInvariant(StableLoads, /*PerThread=*/true)))
    return GuardedMap();
  // Where the loaded value goes: pure math that ends in the stored value,
  // or in branches that only guard the store on a function of it and
  // run-invariant values. Anything else (another store, an address, a
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
        if (!SameForAllThreads || !guardsOnly(*Br, *St) ||
            !dependsOnlyOn(Br->getCondition(), LI, Inv))
          return GuardedMap();
        continue;
      }
      const auto *I = dyn_cast<Instruction>(U);
      // The stored value itself may be a phi (isSelectLikePhi above).
      if (!I || !(isPure(*I) || (I == V && isa<PHINode>(I))))
        return GuardedMap();
      if (Seen.insert(I).second)
        Work.push_back(I);
    }
  }
  return true;
}

const BasicBlock *selfDisabledBlock(const MemAccess &Read, const MemAccess &Write,
                                    ScalarEvolution &SE,
                                    const SmallPtrSetImpl<const Instruction *> &StableLoads,
                                    const SmallPtrSetImpl<const Instruction *> &TrackedWrites,
                                    std::vector<RangeCheck> &Checks) {
  if (!samePlainBytes(Read, Write, SE, /*MergedPair=*/false))
    return nullptr;
  // The flag is the thread's own (ownFlag): its map may differ by thread.
  return selfDisabledBlock(*cast<LoadInst>(Read.Inst), *cast<StoreInst>(Write.Inst),
                           RunInvariant(StableLoads, /*PerThread=*/true), TrackedWrites, Checks);
}

} // namespace gmem

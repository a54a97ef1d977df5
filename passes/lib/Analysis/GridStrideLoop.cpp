//===- GridStrideLoop.cpp - Kernels whose result does not depend on the grid ----===//
//
// Recognises a kernel that is one grid-stride loop over an index i whose
// effects depend on i alone (GridStrideLoop.h). What the proof needs:
//
//  * the loop runs i = s, s + S, s + 2S, ... while i < n (or <=, signed or
//    unsigned), entered only where s < n (same test), with s = blockIdx.x *
//    blockDim.x + threadIdx.x and S = blockDim.x * gridDim.x: over the
//    threads, exactly the i in [0, n) (the runtime checks that i + S does
//    not wrap on the grid it picks, GridStrideLoop::encode);
//  * blockIdx.x and gridDim.x reach nothing but s, S, the next index and the
//    two tests: every other value is a function of i (threadIdx.x = i mod
//    blockDim.x), the other thread and block coordinates (which a larger
//    grid in x does not change), the parameters and memory;
//  * i is the loop's only header phi: nothing else is carried from one trip
//    to the next, so item i does not see which items ran before it on its
//    thread; no local memory (an alloca could carry it), no shared memory,
//    barriers or warp collectives (items meeting there), no atomics, inline
//    asm or calls other than intrinsics that do not write memory (and the
//    memory intrinsics), no special register besides thread and block
//    coordinates and sizes, lane id and warp size;
//  * nothing outside the loop writes memory;
//  * the items of one thread write disjoint bytes: every store and memory
//    intrinsic of the loop writes at Base + C * i + Off (one Base, fixed
//    before the loop, one constant C != 0, constant offsets), and the
//    offsets and widths fit in one window of |C| bytes. Items that write
//    the same byte leave whichever ran last: a thread's trip order decides
//    that on the launch's own grid, nothing does on another (out[threadIdx.x],
//    out[i % m], *last = i, overlapping memsets; the fourth adversarial
//    round, session 50). Base may differ from thread to thread (blockIdx.y,
//    a row pointer): items of two threads that write one byte race on the
//    launch's own grid already, which the analysis assumes absent.
//
// Items that read what other items write would still see a grid-dependent
// order: the runtime enlarges the grid only for launches whose reads and
// writes it proved disjoint (idempotent), so items do not communicate.
//
//===----------------------------------------------------------------------===//
#include "gmem/passes/GridStrideLoop.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace gmem {
namespace {

enum class Sreg { NotSreg, CtaX, NCtaX, TidX, NTidX, Fixed, Other };

/// What a call reads of the thread's special registers.
Sreg sregOf(const CallBase &CB) {
  const Function *F = CB.getCalledFunction();
  if (!F)
    return Sreg::NotSreg;
  switch (F->getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
    return Sreg::CtaX;
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
    return Sreg::NCtaX;
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
    return Sreg::TidX;
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
    return Sreg::NTidX;
  // What a larger grid in x leaves alone.
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
  case Intrinsic::nvvm_read_ptx_sreg_laneid:
  case Intrinsic::nvvm_read_ptx_sreg_warpsize:
    return Sreg::Fixed;
  default:
    // Clocks, SM and warp slots, cluster coordinates, %gridid, ...
    return F->getName().starts_with("llvm.nvvm.read.ptx.sreg.") ? Sreg::Other : Sreg::NotSreg;
  }
}

bool pointsToShared(const Value *V) {
  auto *PT = dyn_cast<PointerType>(V->getType());
  return PT && PT->getAddressSpace() == 3;
}

/// Why instruction I rules the kernel out (empty if it does not), and the
/// special registers it reads into \p Calls.
std::string blocker(const Instruction &I, bool InLoop,
                    SmallVectorImpl<std::pair<Sreg, const CallBase *>> &Calls) {
  if (isa<AllocaInst>(I))
    return "local memory (it could carry state from one index to the next)";
  if (I.isAtomic() || isa<FenceInst>(I))
    return "an atomic or fence";
  for (const Value *Op : I.operands())
    if (pointsToShared(Op))
      return "shared memory";
  if (pointsToShared(&I))
    return "shared memory";
  if (const auto *CB = dyn_cast<CallBase>(&I)) {
    if (CB->isInlineAsm())
      return "inline asm";
    const Sreg R = sregOf(*CB);
    if (R == Sreg::Other)
      return "a special register other than thread and block coordinates";
    if (R != Sreg::NotSreg) {
      Calls.push_back({R, CB});
      return {};
    }
    const auto *II = dyn_cast<IntrinsicInst>(CB);
    if (!II)
      return "a call";
    if (II->isConvergent())
      return "a barrier or warp collective";
    if (II->isAssumeLikeIntrinsic() || isa<DbgInfoIntrinsic>(II))
      return {};
    if (II->getIntrinsicID() == Intrinsic::trap)
      return {};
    if (isa<MemIntrinsic>(II))
      return InLoop ? std::string() : "a memory write outside the loop";
    if (!II->onlyReadsMemory())
      return "an intrinsic that writes memory";
    return {};
  }
  if (!InLoop && I.mayWriteToMemory())
    return "a memory write outside the loop";
  return {};
}

/// Instructions V is computed from (V included), through instructions only.
void operandTree(Value *V, SmallPtrSetImpl<const Instruction *> &Out) {
  SmallVector<Value *, 8> Work{V};
  while (!Work.empty()) {
    auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !Out.insert(I).second)
      continue;
    if (isa<PHINode>(I))
      continue; // (a phi in s or S would not be matched by SCEV below)
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
}

/// The loop's continue test as "Next Pred Bound", or std::nullopt.
std::optional<CmpInst::Predicate> continuePredicate(const ICmpInst &Cmp, const Value *Index,
                                                    bool ContinueOnTrue, Value *&Bound) {
  CmpInst::Predicate P = Cmp.getPredicate();
  if (Cmp.getOperand(0) == Index) {
    Bound = Cmp.getOperand(1);
  } else if (Cmp.getOperand(1) == Index) {
    Bound = Cmp.getOperand(0);
    P = CmpInst::getSwappedPredicate(P);
  } else {
    return std::nullopt;
  }
  if (!ContinueOnTrue)
    P = CmpInst::getInversePredicate(P);
  if (P != CmpInst::ICMP_SLT && P != CmpInst::ICMP_ULT && P != CmpInst::ICMP_SLE &&
      P != CmpInst::ICMP_ULE)
    return std::nullopt;
  return P;
}

/// The kernel parameter under at most one extension, and how it extends.
const Argument *boundArgument(const Value *V, std::optional<bool> &SignExtended) {
  SignExtended.reset();
  if (const auto *E = dyn_cast<SExtInst>(V)) {
    SignExtended = true;
    V = E->getOperand(0);
  } else if (const auto *Z = dyn_cast<ZExtInst>(V)) {
    SignExtended = false;
    V = Z->getOperand(0);
  }
  const auto *A = dyn_cast<Argument>(V);
  return A && A->getType()->isIntegerTy() ? A : nullptr;
}

/// Constants that multiply something in S: candidates for the bytes one
/// item's address advances per index (1 always).
void stepCandidates(const SCEV *S, SmallVectorImpl<int64_t> &Out) {
  Out.push_back(1);
  SmallVector<const SCEV *, 8> Work{S};
  while (!Work.empty()) {
    const SCEV *E = Work.pop_back_val();
    if (const auto *M = dyn_cast<SCEVMulExpr>(E)) {
      if (const auto *C = dyn_cast<SCEVConstant>(M->getOperand(0)))
        if (C->getAPInt().getSignificantBits() <= 32)
          Out.push_back(C->getAPInt().getSExtValue());
    }
    if (const auto *N = dyn_cast<SCEVNAryExpr>(E))
      for (const SCEV *Op : N->operands())
        Work.push_back(Op);
    else if (const auto *C = dyn_cast<SCEVCastExpr>(E))
      Work.push_back(C->getOperand());
  }
}

/// Whether the items of one thread of loop L write disjoint bytes (the
/// file comment), else why not. StepS: the index's step per trip.
std::string itemsWriteApart(Loop &L, const SCEV *StepS, ScalarEvolution &SE,
                            const DataLayout &DL) {
  struct Write {
    Value *Ptr;
    uint64_t Bytes;
  };
  SmallVector<Write, 8> Writes;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (auto *St = dyn_cast<StoreInst>(&I)) {
        Writes.push_back({St->getPointerOperand(),
                          DL.getTypeStoreSize(St->getValueOperand()->getType()).getFixedValue()});
      } else if (auto *MI = dyn_cast<MemIntrinsic>(&I)) {
        const auto *Len = dyn_cast<ConstantInt>(MI->getLength());
        if (!Len || Len->getValue().getActiveBits() > 32)
          return "a memory intrinsic of a length that is not a constant";
        Writes.push_back({MI->getRawDest(), Len->getZExtValue()});
      } else if (I.mayWriteToMemory()) {
        return "a write the pass cannot place";
      }
    }
  // A thread's items are i = s + k * S at its trips k. A write at an
  // address that advances by C * S a trip (C constant, nonzero) writes, for
  // item i, at a per-thread constant plus C * i: the thread's items are
  // |C| bytes apart or more. So does one at Inv + C * ext(Q), Q an index of
  // the index's type stepping by S (Q = i + a per-thread constant, wrapped:
  // distinct for distinct items, as the items' i are), C * ext(Q) the
  // common shape of a[row * len + i] with a 32-bit int index.
  struct Form {
    const SCEV *Q = nullptr; ///< the narrow index (shape 2), or none
    const SCEV *Rest = nullptr; ///< the AddRec (shape 1) or Inv (shape 2)
    int64_t C = 0;
  };
  auto strideOf = [&](const SCEV *PerTrip, const SCEV *Unit, int64_t Want) -> int64_t {
    SmallVector<const SCEV *, 3> Units;
    const unsigned UBits = Unit->getType()->getIntegerBitWidth(),
                   PBits = PerTrip->getType()->getIntegerBitWidth();
    if (UBits == PBits)
      Units.push_back(Unit);
    else if (UBits < PBits)
      Units = {SE.getSignExtendExpr(Unit, PerTrip->getType()),
               SE.getZeroExtendExpr(Unit, PerTrip->getType())};
    SmallVector<int64_t, 4> Cands;
    if (Want)
      Cands.push_back(Want);
    else
      stepCandidates(PerTrip, Cands);
    for (int64_t Cand : Cands)
      for (const SCEV *X : Units)
        if (Cand != 0 &&
            SE.getMulExpr(SE.getConstant(PerTrip->getType(), Cand, true), X) == PerTrip)
          return Cand;
    return 0;
  };
  auto isNarrowIndex = [&](const SCEV *Q) {
    const auto *AR = dyn_cast<SCEVAddRecExpr>(Q);
    return AR && AR->getLoop() == &L && AR->isAffine() && Q->getType() == StepS->getType() &&
           AR->getStepRecurrence(SE) == StepS;
  };
  auto formOf = [&](const SCEV *P, int64_t Want) -> Form {
    Form F;
    if (const auto *AR = dyn_cast<SCEVAddRecExpr>(P)) {
      if (AR->getLoop() == &L && AR->isAffine())
        if (int64_t C = strideOf(AR->getStepRecurrence(SE), StepS, Want)) {
          F.Rest = P;
          F.C = C;
        }
      return F;
    }
    // Inv + C * ext(Q): one term holds the loop, the others are invariant.
    const auto *Add = dyn_cast<SCEVAddExpr>(P);
    SmallVector<const SCEV *, 4> Terms;
    if (Add)
      Terms.append(Add->operands().begin(), Add->operands().end());
    else
      Terms.push_back(P);
    const SCEV *Varying = nullptr;
    SmallVector<const SCEV *, 4> Inv;
    for (const SCEV *T : Terms) {
      if (SE.isLoopInvariant(T, &L)) {
        Inv.push_back(T);
        continue;
      }
      if (Varying)
        return F;
      Varying = T;
    }
    int64_t C = 1;
    const SCEV *E = Varying;
    if (const auto *M = dyn_cast_or_null<SCEVMulExpr>(Varying)) {
      const auto *K = dyn_cast<SCEVConstant>(M->getOperand(0));
      if (!K || M->getNumOperands() != 2 || K->getAPInt().getSignificantBits() > 32)
        return F;
      C = K->getAPInt().getSExtValue();
      E = M->getOperand(1);
    }
    const auto *Ext = dyn_cast_or_null<SCEVIntegralCastExpr>(E);
    if (!Ext || !(isa<SCEVSignExtendExpr>(Ext) || isa<SCEVZeroExtendExpr>(Ext)) ||
        !isNarrowIndex(Ext->getOperand()) || C == 0 || (Want && C != Want))
      return F;
    F.Q = E;
    F.Rest = Inv.empty() ? SE.getZero(P->getType()) : SE.getAddExpr(Inv);
    F.C = C;
    return F;
  };
  Form First;
  int64_t Lo = 0, Hi = 0;
  for (const Write &W : Writes) {
    if (W.Ptr->getType()->getPointerAddressSpace() == 3)
      return "a write to shared memory";
    Type *IntTy = DL.getIntPtrType(W.Ptr->getType());
    const SCEV *P = SE.getSCEV(W.Ptr);
    if (P->getType()->isPointerTy())
      P = SE.getPtrToIntExpr(P, IntTy);
    if (isa<SCEVCouldNotCompute>(P))
      return "a write at an address the pass cannot follow";
    const Form F = formOf(P, First.C);
    if (!F.C)
      return First.C ? "writes at different strides of the index"
                     : "a write at an address that is not a fixed stride times the index";
    int64_t Off = 0;
    if (!First.C) {
      First = F;
    } else {
      if (F.Q != First.Q || F.Rest->getType() != First.Rest->getType())
        return "writes through more than one base pointer";
      const auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(F.Rest, First.Rest));
      if (!D || D->getAPInt().getSignificantBits() > 40)
        return "writes through more than one base pointer";
      Off = D->getAPInt().getSExtValue();
    }
    Lo = std::min(Lo, Off);
    Hi = std::max(Hi, Off + int64_t(W.Bytes));
  }
  const int64_t Step = First.C;
  if (Step && Hi - Lo > (Step < 0 ? -Step : Step))
    return "an item writes more bytes than its index moves the address (items overlap)";
  return {};
}

} // namespace

std::optional<GridStrideLoop> findGridStrideLoop(Function &K, LoopInfo &LI, ScalarEvolution &SE,
                                                 std::string &Why) {
  auto No = [&](const Twine &W) -> std::optional<GridStrideLoop> {
    Why = W.str();
    return std::nullopt;
  };
  if (LI.getTopLevelLoops().size() != 1)
    return No("not a single outermost loop");
  Loop *L = LI.getTopLevelLoops().front();

  SmallVector<std::pair<Sreg, const CallBase *>, 8> Calls;
  for (BasicBlock &BB : K)
    for (Instruction &I : BB)
      if (std::string W = blocker(I, L->contains(&BB), Calls); !W.empty())
        return No(W);

  // Entered from one block outside (a dedicated preheader or the guard's
  // own block), left from the latch alone.
  BasicBlock *Header = L->getHeader(), *Pre = L->getLoopPredecessor(), *Latch = L->getLoopLatch();
  if (!Pre || !Latch)
    return No("the loop has more than one entry or latch");
  if (L->getExitingBlock() != Latch)
    return No("the loop has more than one exit");
  auto Phis = Header->phis();
  if (std::distance(Phis.begin(), Phis.end()) != 1)
    return No("the loop carries more than its index");
  PHINode *Index = &*Phis.begin();
  auto *IndexTy = dyn_cast<IntegerType>(Index->getType());
  if (!IndexTy || (IndexTy->getBitWidth() != 32 && IndexTy->getBitWidth() != 64))
    return No("the index is not a 32- or 64-bit integer");
  Value *Start = Index->getIncomingValueForBlock(Pre);
  auto *Next = dyn_cast<BinaryOperator>(Index->getIncomingValueForBlock(Latch));
  if (!Next || Next->getOpcode() != Instruction::Add)
    return No("the index does not step by addition");
  Value *Step = Next->getOperand(0) == Index   ? Next->getOperand(1)
                : Next->getOperand(1) == Index ? Next->getOperand(0)
                                               : nullptr;
  if (!Step || !L->isLoopInvariant(Step))
    return No("the index does not step by an invariant");

  // The latch: continue while Next < n.
  auto *LatchBr = dyn_cast<BranchInst>(Latch->getTerminator());
  auto *LatchCmp = LatchBr && LatchBr->isConditional() ? dyn_cast<ICmpInst>(LatchBr->getCondition())
                                                       : nullptr;
  if (!LatchCmp)
    return No("the loop's test is not a comparison");
  Value *Bound = nullptr;
  auto Pred = continuePredicate(*LatchCmp, Next, LatchBr->getSuccessor(0) == Header, Bound);
  if (!Pred || !L->isLoopInvariant(Bound))
    return No("the loop does not run while its index is below a bound");
  std::optional<bool> BoundSext;
  const Argument *BoundArg = boundArgument(Bound, BoundSext);
  if (!BoundArg)
    return No("the bound is not a kernel parameter");

  // The guard: the loop is entered (through blocks with one predecessor
  // and no choice) only where s passes the same test.
  BasicBlock *B = Header, *GuardBB = Pre;
  while (auto *Br = dyn_cast<BranchInst>(GuardBB->getTerminator())) {
    if (Br->isConditional() || !GuardBB->getSinglePredecessor())
      break;
    B = GuardBB;
    GuardBB = GuardBB->getSinglePredecessor();
  }
  auto *GuardBr = dyn_cast<BranchInst>(GuardBB->getTerminator());
  auto *GuardCmp = GuardBr && GuardBr->isConditional() ? dyn_cast<ICmpInst>(GuardBr->getCondition())
                                                       : nullptr;
  if (!GuardCmp || GuardBr->getSuccessor(0) == GuardBr->getSuccessor(1))
    return No("the loop is entered without testing its first index");
  Value *GuardBound = nullptr;
  auto GuardPred =
      continuePredicate(*GuardCmp, Start, GuardBr->getSuccessor(0) == B, GuardBound);
  std::optional<bool> GuardSext;
  if (!GuardPred || *GuardPred != *Pred || boundArgument(GuardBound, GuardSext) != BoundArg ||
      GuardSext != BoundSext)
    return No("the loop is entered without testing its first index");

  // s and S, as ScalarEvolution sees them, over every read of the registers.
  SmallVector<const SCEV *, 2> Cta, NCta, Tid, NTid;
  for (auto [R, CB] : Calls) {
    const SCEV *S = SE.getSCEV(const_cast<CallBase *>(CB));
    switch (R) {
    case Sreg::CtaX:
      Cta.push_back(S);
      break;
    case Sreg::NCtaX:
      NCta.push_back(S);
      break;
    case Sreg::TidX:
      Tid.push_back(S);
      break;
    case Sreg::NTidX:
      NTid.push_back(S);
      break;
    default:
      break;
    }
  }
  Type *Wide = IndexTy;
  auto Matches = [&](const SCEV *Actual, const SCEV *Narrow, const SCEV *Widened) {
    if (IndexTy->getBitWidth() == 32)
      return Actual == Narrow;
    return Actual == SE.getZeroExtendExpr(Narrow, Wide) ||
           Actual == SE.getSignExtendExpr(Narrow, Wide) || Actual == Widened;
  };
  auto Ext = [&](const SCEV *S) { return SE.getZeroExtendExpr(S, Wide); };
  bool StartOk = false, StepOk = false;
  const SCEV *StartS = SE.getSCEV(Start), *StepS = SE.getSCEV(Step);
  for (const SCEV *C : Cta)
    for (const SCEV *N : NTid)
      for (const SCEV *T : Tid)
        StartOk |= Matches(StartS, SE.getAddExpr(SE.getMulExpr(C, N), T),
                           SE.getAddExpr(SE.getMulExpr(Ext(C), Ext(N)), Ext(T)));
  for (const SCEV *N : NTid)
    for (const SCEV *G : NCta)
      StepOk |= Matches(StepS, SE.getMulExpr(N, G), SE.getMulExpr(Ext(N), Ext(G)));
  if (!StartOk)
    return No("the index does not start at blockIdx.x * blockDim.x + threadIdx.x");
  if (!StepOk)
    return No("the index does not step by blockDim.x * gridDim.x");

  // blockIdx.x and gridDim.x reach nothing else: every value that depends
  // on them (other than through the index itself) is part of s, S, the next
  // index or the two tests.
  SmallPtrSet<const Instruction *, 16> Allowed;
  operandTree(Start, Allowed);
  operandTree(Step, Allowed);
  Allowed.insert(Next);
  Allowed.insert(LatchCmp);
  Allowed.insert(LatchBr);
  Allowed.insert(GuardCmp);
  Allowed.insert(GuardBr);
  SmallVector<const Instruction *, 16> Work;
  SmallPtrSet<const Instruction *, 16> Seen;
  for (auto [R, CB] : Calls)
    if (R == Sreg::CtaX || R == Sreg::NCtaX)
      Work.push_back(CB);
  while (!Work.empty()) {
    const Instruction *I = Work.pop_back_val();
    if (!Seen.insert(I).second)
      continue;
    if (!Allowed.contains(I))
      return No("blockIdx.x or gridDim.x is used besides the grid-stride index");
    for (const User *U : I->users())
      if (U != Index)
        if (const auto *UI = dyn_cast<Instruction>(U))
          Work.push_back(UI);
  }

  // Distinct items write disjoint bytes (else the survivor of a shared
  // byte is a matter of which ran last).
  if (std::string W = itemsWriteApart(*L, StepS, SE, K.getParent()->getDataLayout()); !W.empty())
    return No(W);

  GridStrideLoop G;
  G.BoundParam = BoundArg->getArgNo();
  G.Unsigned = CmpInst::isUnsigned(*Pred);
  G.Inclusive = *Pred == CmpInst::ICMP_SLE || *Pred == CmpInst::ICMP_ULE;
  G.Wide = IndexTy->getBitWidth() == 64;
  G.ParamSigned = BoundSext ? *BoundSext : !G.Unsigned;
  if (BoundArg->getType()->getIntegerBitWidth() > IndexTy->getBitWidth() ||
      (!BoundSext && BoundArg->getType() != IndexTy))
    return No("the bound is wider than the index");
  return G;
}

} // namespace gmem

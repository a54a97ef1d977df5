//===- CheckpointLoopCost.cpp - How long a loop runs between checks ------===//
//
// The static cost model that spaces loop checkpoints: a rough time per
// instruction, and how many iterations an entry of a loop can run (SCEV's
// maximum, or the pass's own bound for doubling and halving loops).
//
//===----------------------------------------------------------------------===//

#include "CheckpointInternal.h"

#include "gmem/passes/CheckpointInserter.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/ConstantRange.h"
#include "llvm/IR/IntrinsicInst.h"

#include <algorithm>
#include <cstdlib>

using namespace llvm;

namespace gmem::ckpt {

/// Rough time of one instruction for one thread, in "simple ALU op" units.
/// Memory that may miss the L1 dominates loop time; shared/local is cheap.
unsigned instructionCost(const Instruction &I) {
  if (isa<PHINode>(I) || isa<BitCastInst>(I) || isa<DbgInfoIntrinsic>(I) ||
      I.isLifetimeStartOrEnd())
    return 0;
  auto Mem = [](unsigned AS) { return AS == 3 || AS == 5 ? 2u : 8u; };
  if (auto *LI = dyn_cast<LoadInst>(&I))
    return Mem(LI->getPointerAddressSpace());
  if (auto *SI = dyn_cast<StoreInst>(&I))
    return Mem(SI->getPointerAddressSpace());
  if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
    return Mem(RMW->getPointerAddressSpace()) * 2;
  if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I))
    return Mem(CX->getPointerAddressSpace()) * 2;
  if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
    if (II->isAssumeLikeIntrinsic())
      return 0;
    switch (II->getIntrinsicID()) {
    case Intrinsic::memcpy:
    case Intrinsic::memmove:
    case Intrinsic::memset:
      return 32;
    case Intrinsic::sqrt:
    case Intrinsic::exp:
    case Intrinsic::exp2:
    case Intrinsic::log:
    case Intrinsic::log2:
    case Intrinsic::sin:
    case Intrinsic::cos:
    case Intrinsic::pow:
      return 4;
    default:
      break;
    }
    StringRef N = II->getCalledFunction()->getName();
    if (N.contains("barrier") || N.contains(".bar."))
      return 8;
    return 1;
  }
  if (isa<CallBase>(I))
    return 20;
  switch (I.getOpcode()) {
  case Instruction::FDiv:
  case Instruction::FRem:
  case Instruction::SDiv:
  case Instruction::UDiv:
  case Instruction::SRem:
  case Instruction::URem:
    return 4;
  default:
    return 1;
  }
}

namespace {

/// Memory a load reads that may miss: global or generic.
bool mayMissLoad(const Value *V) {
  const auto *LI = dyn_cast<LoadInst>(V);
  if (!LI)
    return false;
  unsigned AS = LI->getPointerAddressSpace();
  return AS == 0 || AS == 1;
}

/// Whether V, computed in L without going through a phi (that is, in the
/// same iteration), depends on a load that may miss.
bool fedByLoad(const Value *V, const Loop &L, unsigned Depth) {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || !L.contains(I) || isa<PHINode>(I) || Depth > 8)
    return false;
  if (mayMissLoad(I))
    return true;
  if (isa<CallBase>(I))
    return false;
  return any_of(I->operands(), [&](const Use &U) { return fedByLoad(U, L, Depth + 1); });
}

} // namespace

unsigned chainedLoadCost() {
  // About a dependent L2 miss under load: half the default budget, so a
  // loop with two such chains per iteration checks every iteration. The
  // instruction weights undercount such loops by 30x: spmv_ell's row loop
  // (32 gathers through col_idx) ran 61 us between its H200 checks.
  static const unsigned Cost = [] {
    const char *E = std::getenv("GMEM_CHECKPOINT_CHAIN");
    return E && *E ? unsigned(std::strtoul(E, nullptr, 10)) : DefaultCheckpointBudget / 2;
  }();
  return Cost;
}

unsigned loopInstructionCost(const Instruction &I, const Loop &L) {
  unsigned C = instructionCost(I);
  if (mayMissLoad(&I) && fedByLoad(cast<LoadInst>(I).getPointerOperand(), L, 0))
    C += chainedLoadCost();
  return C;
}

bool hasChainedLoad(const Loop &L, const LoopInfo &LI) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (mayMissLoad(&I) &&
          fedByLoad(cast<LoadInst>(I).getPointerOperand(), *LI.getLoopFor(BB), 0))
        return true;
  return false;
}

/// Most iterations per entry of a loop whose single latch continues while
/// a header phi x, doubled or halved each iteration, has not crossed a bound
/// whose range SCEV knows: `for (o = 1; o < blockDim.x; o <<= 1)` (at most
/// 10 with blockDim.x <= 1024), `for (s = blockDim.x / 2; s > 0; s >>= 1)`.
/// SCEV has no multiplicative recurrences, so it says "unknown" or the bit
/// width for these tree loops of reductions and scans. 0 = no bound.
static unsigned geometricTripBound(Loop *L, ScalarEvolution &SE) {
  BasicBlock *Latch = L->getLoopLatch();
  BasicBlock *Pre = L->getLoopPredecessor(); // need not be a dedicated preheader
  auto *Br = Latch ? dyn_cast<BranchInst>(Latch->getTerminator()) : nullptr;
  auto *Cmp = Br && Br->isConditional() ? dyn_cast<ICmpInst>(Br->getCondition()) : nullptr;
  if (!Cmp || !Pre)
    return 0;
  CmpInst::Predicate P = Cmp->getPredicate();
  if (Br->getSuccessor(0) != L->getHeader())
    P = CmpInst::getInversePredicate(P); // P: the loop continues while P holds
  Value *X = Cmp->getOperand(0), *B = Cmp->getOperand(1);
  if (!L->isLoopInvariant(B)) {
    std::swap(X, B);
    P = CmpInst::getSwappedPredicate(P);
  }
  if (!L->isLoopInvariant(B))
    return 0;
  // X is the phi's next value, or the phi itself (one more iteration).
  auto *Phi = dyn_cast<PHINode>(X);
  unsigned Extra = Phi ? 1 : 0;
  if (!Phi)
    if (auto *Op = dyn_cast<BinaryOperator>(X))
      Phi = dyn_cast<PHINode>(Op->getOperand(0));
  if (!Phi || Phi->getParent() != L->getHeader() || Phi->getNumIncomingValues() != 2 ||
      !Phi->getType()->isIntegerTy())
    return 0;
  auto *Step = dyn_cast<BinaryOperator>(Phi->getIncomingValueForBlock(Latch));
  auto *C = Step ? dyn_cast<ConstantInt>(Step->getOperand(1)) : nullptr;
  if (!C || Step->getOperand(0) != Phi || (!Extra && X != Step))
    return 0;
  unsigned Bits = Phi->getType()->getIntegerBitWidth();
  ConstantRange Start = SE.getUnsignedRange(SE.getSCEV(Phi->getIncomingValueForBlock(Pre)));
  unsigned StartBits = Start.getUnsignedMax().getActiveBits();
  unsigned Op = Step->getOpcode();
  unsigned Growth = Op == Instruction::Shl   ? unsigned(C->getLimitedValue(Bits))
                    : Op == Instruction::Mul ? (C->getValue().ugt(1) ? C->getValue().getActiveBits() : 0)
                                             : 0;
  if (Growth && Growth < Bits && (P == CmpInst::ICMP_ULT || P == CmpInst::ICMP_SLT) &&
      !Start.getUnsignedMin().isZero()) {
    // x >= 1 at least doubles every iteration; x before a step is the start
    // or below the bound, so with both small no step wraps or turns
    // negative, and x.next reaches the bound within its bit count.
    APInt BMax = SE.getUnsignedRange(SE.getSCEV(B)).getUnsignedMax();
    if (std::max(BMax.getActiveBits(), StartBits) + Growth + 1 >= Bits)
      return 0;
    // After j iterations x >= 2^j, so x >= BMax after ceil(log2(BMax)).
    unsigned CeilLog2 = BMax.ugt(1) ? (BMax - 1).getActiveBits() : 0;
    return std::max(CeilLog2, 1u) + Extra;
  }
  bool Shrinks = (Op == Instruction::LShr && !C->isZero() && C->getValue().ult(Bits)) ||
                 (Op == Instruction::UDiv && C->getValue().ugt(1));
  // Continues while x is above a floor that 0 is below: x >u B, x >=u B
  // with B >= 1, x != 0. (x != B for another B could step over B forever.)
  auto *CB = dyn_cast<ConstantInt>(B);
  bool AboveFloor = P == CmpInst::ICMP_UGT ||
                    (P == CmpInst::ICMP_UGE && CB && !CB->isZero()) ||
                    (P == CmpInst::ICMP_NE && CB && CB->isZero());
  if (Shrinks && AboveFloor)
    return std::max(StartBits, 1u) + Extra; // x at least halves until 0
  return 0;
}

/// Most iterations per entry: SCEV's constant maximum or the geometric
/// bound above; 0 = unknown.
unsigned maxTripCount(Loop *L, ScalarEvolution &SE) {
  unsigned T = SE.getSmallConstantMaxTripCount(L);
  unsigned G = geometricTripBound(L, SE);
  if (!T || (G && G < T))
    T = G;
  return T;
}

unsigned tripEstimate(Loop *L, ScalarEvolution &SE) {
  unsigned T = SE.getSmallConstantTripCount(L);
  if (!T)
    T = maxTripCount(L, SE);
  if (!T)
    return 16; // unknown: a modest guess, the loop's own check bounds it if it has one
  return std::min(T, 4096u);
}

} // namespace gmem::ckpt

//===- CheckpointWarpUniform.cpp - Values alike across a warp ------------===//
//
// A persistent clone keeps a thread that returned early waiting at the end
// of the virtual CTA instead of letting it exit. A warp collective after an
// early return that only some lanes of a warp took would then wait for
// lanes that never come (in the kernel they had exited, and a collective
// names only threads that have not). Where every branch such a collective
// depends on is taken by whole warps, nothing changes for it: the warp
// either runs the collective with all its lanes or skips it with all of
// them. That is the shape of every warp-per-row kernel (softmax, layer
// norm, GEMV rows: `if (row >= rows) return;` with row from threadIdx.y or
// threadIdx.x / 32) and of CUB-style block reductions (`if (warp == 0)`).
//
// "Whole warps" needs a launch condition: when blockDim.x is a multiple of
// 32, the threads of a warp share threadIdx.y, threadIdx.z and
// threadIdx.x / 32, and differ only in threadIdx.x % 32. The clone's info
// then carries WarpAlignedBlock and libgmemrt launches the kernel itself
// (not preemptible) for any other block shape.
//
// The lattice, per integer value under that condition:
//   Uniform32  the same in every lane of a warp, low 5 bits zero;
//   Uniform    the same in every lane;
//   HighSame   bits 5 and up the same in every lane (threadIdx.x);
//   Divergent  anything else.
// Values CTA-level UniformityInfo finds uniform at the use are Uniform
// (that analysis owns temporal divergence; a value carried out of a cycle
// is Divergent here otherwise). Other phis are divergent, but for the
// counter of a loop that whole warps leave alike (headerPhi).
//
//===----------------------------------------------------------------------===//

#include "CheckpointInternal.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace gmem::ckpt {

namespace {

enum class Form { Divergent = 0, HighSame = 1, Uniform = 2, Uniform32 = 3 };

Form weaker(Form A, Form B) { return A < B ? A : B; }
bool atLeast(Form A, Form B) { return A >= B; }

class WarpForms {
public:
  WarpForms(const UniformityInfo &UI, const CycleInfo &CI) : UI(UI), CI(CI) {}

  /// The form of operand U of its user.
  Form use(const Use &U) {
    const Value *V = U.get();
    const auto *User = cast<Instruction>(U.getUser());
    if (const auto *I = dyn_cast<Instruction>(V)) {
      // Carried out of a cycle the user is not in: lanes that left at
      // different trips hold different values (the CTA analysis says so
      // of the use itself, checked first).
      const Cycle *C = CI.getCycle(I->getParent());
      if (C && !C->contains(User->getParent()) && UI.isDivergentUse(U))
        return Form::Divergent;
    }
    Form F = of(V);
    if (!UI.isDivergentUse(U) && F < Form::Uniform)
      F = Form::Uniform;
    return F;
  }

  Form of(const Value *V) {
    auto It = Memo.find(V);
    if (It != Memo.end())
      return It->second;
    // Every cycle of SSA values runs through a phi, and a header phi is
    // memoised before its operands are looked at (headerPhi); the depth
    // bound is for the self-referencing values unreachable code may hold.
    if (Depth > 64)
      return Form::Divergent;
    ++Depth;
    Form F = compute(V);
    --Depth;
    if (F == Form::Uniform && V->getType()->isIntegerTy() && lowBitsZero(V))
      F = Form::Uniform32;
    if (F == Form::HighSame && V->getType()->isIntegerTy() &&
        V->getType()->getIntegerBitWidth() <= 5)
      F = Form::Divergent; // no bits above the lane's
    if (const auto *I = dyn_cast<Instruction>(V); I && F < Form::Uniform && !UI.isDivergent(I))
      F = Form::Uniform;
    Memo[V] = F;
    return F;
  }

private:
  const UniformityInfo &UI;
  const CycleInfo &CI;
  DenseMap<const Value *, Form> Memo;
  unsigned Depth = 0;

  static bool lowBitsZero(const Value *V) {
    if (const auto *C = dyn_cast<ConstantInt>(V))
      return C->getValue().countr_zero() >= 5;
    return false;
  }

  static bool constAtLeast5(const Value *V) {
    const auto *C = dyn_cast<ConstantInt>(V);
    return C && C->getValue().ult(C->getBitWidth()) && C->getZExtValue() >= 5;
  }

  /// A positive constant multiple of 32.
  static bool constMultipleOf32(const Value *V) {
    const auto *C = dyn_cast<ConstantInt>(V);
    return C && !C->isZero() && C->getValue().countr_zero() >= 5;
  }

  /// Special registers whose warp-level form differs from the CTA-level one.
  Form special(Intrinsic::ID Id) {
    switch (Id) {
    case Intrinsic::nvvm_read_ptx_sreg_tid_x:
      return Form::HighSame;
    case Intrinsic::nvvm_read_ptx_sreg_ntid_x: // the launch condition
    case Intrinsic::nvvm_read_ptx_sreg_warpsize:
      return Form::Uniform32;
    case Intrinsic::nvvm_read_ptx_sreg_tid_y:
    case Intrinsic::nvvm_read_ptx_sreg_tid_z:
      return Form::Uniform;
    default:
      // The CTA's own geometry (blockIdx, gridDim, blockDim.y/z) is uniform
      // by UniformityInfo's rules already (of(), above).
      return Form::Divergent;
    }
  }

  Form binary(const BinaryOperator &B) {
    const Form L = use(B.getOperandUse(0)), R = use(B.getOperandUse(1));
    const Value *RV = B.getOperand(1);
    const bool BothUniform = atLeast(L, Form::Uniform) && atLeast(R, Form::Uniform);
    switch (B.getOpcode()) {
    case Instruction::Add:
      // A multiple of 32 added to a value leaves its low 5 bits alone and
      // carries nothing out of them.
      if (BothUniform)
        return L == Form::Uniform32 && R == Form::Uniform32 ? Form::Uniform32 : Form::Uniform;
      if ((L == Form::HighSame && R == Form::Uniform32) ||
          (L == Form::Uniform32 && R == Form::HighSame))
        return Form::HighSame;
      return Form::Divergent;
    case Instruction::Sub:
      if (BothUniform)
        return Form::Uniform;
      return L == Form::HighSame && R == Form::Uniform32 ? Form::HighSame : Form::Divergent;
    case Instruction::Mul:
      if (BothUniform)
        return L == Form::Uniform32 || R == Form::Uniform32 ? Form::Uniform32 : Form::Uniform;
      return Form::Divergent;
    case Instruction::Shl:
      if (BothUniform)
        return L == Form::Uniform32 || constAtLeast5(RV) ? Form::Uniform32 : Form::Uniform;
      return Form::Divergent;
    case Instruction::LShr:
    case Instruction::AShr:
      // Shifting the lane's 5 bits out leaves bits that are the same.
      if (BothUniform)
        return Form::Uniform;
      // Every bit lanes may differ in shifted out (threadIdx.x >> 5; what
      // only partly goes, `gid >> 1`, the mask below may clear, as in
      // LLVM's `(gid >> 1) & -16` for `gid / 32 * 16`).
      if (const auto *K = dyn_cast<ConstantInt>(RV);
          K && K->getValue().ult(K->getBitWidth()) &&
          lowVarying(B.getOperandUse(0), 0) <= K->getZExtValue())
        return Form::Uniform;
      return Form::Divergent;
    case Instruction::UDiv:
      // floor((32q + r) / 32m) = floor(q / m) for r < 32.
      if (BothUniform)
        return Form::Uniform;
      return L == Form::HighSame && constMultipleOf32(RV) ? Form::Uniform : Form::Divergent;
    case Instruction::And:
      if (BothUniform)
        return L == Form::Uniform32 || R == Form::Uniform32 ? Form::Uniform32 : Form::Uniform;
      if (isa<ConstantInt>(RV) && L == Form::Divergent && lowVarying(B.getOperandUse(0), 0) <=
                                                               cast<ConstantInt>(RV)->getValue().countr_zero())
        return Form::Uniform; // the mask clears every bit that lanes may differ in
      // Bitwise: the high bits of the result come from high bits alone.
      if (atLeast(L, Form::HighSame) && atLeast(R, Form::HighSame))
        return L == Form::Uniform32 || R == Form::Uniform32 ? Form::Uniform32 : Form::HighSame;
      return Form::Divergent;
    case Instruction::Or:
    case Instruction::Xor:
      if (BothUniform)
        return L == Form::Uniform32 && R == Form::Uniform32 ? Form::Uniform32 : Form::Uniform;
      if (atLeast(L, Form::HighSame) && atLeast(R, Form::HighSame))
        return Form::HighSame;
      return Form::Divergent;
    default:
      // Division, remainder, floating point: only uniform from uniform.
      return BothUniform ? Form::Uniform : Form::Divergent;
    }
  }

  /// How many low bits of the value U brings may differ between the lanes
  /// of a warp, the bits above them being the same in every lane: 0 for a
  /// uniform value, 5 for threadIdx.x's form (HighSame), fewer after a shift
  /// right by a constant, more after a shift left; the type's width where
  /// nothing is known (a value carried out of a cycle included, as use()
  /// says).
  unsigned lowVarying(const Use &U, unsigned Depth) {
    const unsigned W = U.get()->getType()->isIntegerTy() ? U.get()->getType()->getIntegerBitWidth()
                                                          : 64;
    Form F = use(U);
    if (atLeast(F, Form::Uniform))
      return 0;
    if (F == Form::HighSame)
      return 5;
    const auto *B = dyn_cast<BinaryOperator>(U.get());
    if (!B || Depth > 8)
      return W;
    if (const Instruction *I = B; const Cycle *C = CI.getCycle(I->getParent()))
      if (!C->contains(cast<Instruction>(U.getUser())->getParent()))
        return W; // temporal divergence: lanes may have left at different trips
    const auto *K = dyn_cast<ConstantInt>(B->getOperand(1));
    if (!K || !K->getValue().ult(W))
      return W;
    const unsigned S = K->getZExtValue();
    switch (B->getOpcode()) {
    case Instruction::LShr: {
      unsigned X = lowVarying(B->getOperandUse(0), Depth + 1);
      return X >= W ? W : (X > S ? X - S : 0);
    }
    case Instruction::Shl: {
      unsigned X = lowVarying(B->getOperandUse(0), Depth + 1);
      return X + S >= W ? W : X + S;
    }
    default:
      return W;
    }
  }

  /// x < 32k, x >= 32k, x > 32k - 1, x <= 32k - 1 (signed or not) look at
  /// bits 5 and up of x only: `threadIdx.x < 32` is `warp == 0`.
  Form compare(const ICmpInst &Cmp) {
    Form L = use(Cmp.getOperandUse(0)), R = use(Cmp.getOperandUse(1));
    if (atLeast(L, Form::Uniform) && atLeast(R, Form::Uniform))
      return Form::Uniform;
    CmpInst::Predicate P = Cmp.getPredicate();
    const Value *Bound = Cmp.getOperand(1);
    if (R == Form::HighSame) { // put the lane-dependent side on the left
      std::swap(L, R);
      Bound = Cmp.getOperand(0);
      P = CmpInst::getSwappedPredicate(P);
    }
    if (L != Form::HighSame)
      return Form::Divergent;
    switch (P) {
    case CmpInst::ICMP_ULT:
    case CmpInst::ICMP_SLT:
    case CmpInst::ICMP_UGE:
    case CmpInst::ICMP_SGE:
      return R == Form::Uniform32 ? Form::Uniform : Form::Divergent;
    case CmpInst::ICMP_UGT:
    case CmpInst::ICMP_SGT:
    case CmpInst::ICMP_ULE:
    case CmpInst::ICMP_SLE:
      if (const auto *C = dyn_cast<ConstantInt>(Bound))
        return (C->getValue() + 1).countr_zero() >= 5 ? Form::Uniform : Form::Divergent;
      return Form::Divergent;
    default:
      return Form::Divergent; // eq / ne tell lanes apart
    }
  }

  Form compute(const Value *V) {
    if (isa<UndefValue>(V))
      return Form::Divergent; // each lane may see its own
    if (isa<Constant>(V) || isa<Argument>(V))
      return Form::Uniform; // kernel parameters, globals, constants
    const auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return Form::Divergent;
    if (const auto *B = dyn_cast<BinaryOperator>(I))
      return binary(*B);
    if (const auto *C = dyn_cast<CastInst>(I)) {
      Form F = use(C->getOperandUse(0));
      switch (C->getOpcode()) {
      case Instruction::ZExt:
      case Instruction::Trunc:
      case Instruction::BitCast:
      case Instruction::PtrToInt:
      case Instruction::IntToPtr:
      case Instruction::AddrSpaceCast:
        return F;
      case Instruction::SExt: // the sign bit is a high bit (widths > 5)
        return F;
      default:
        return atLeast(F, Form::Uniform) ? Form::Uniform : Form::Divergent;
      }
    }
    if (const auto *Cmp = dyn_cast<ICmpInst>(I))
      return compare(*Cmp);
    if (isa<CmpInst>(I) || isa<GetElementPtrInst>(I) || isa<FreezeInst>(I)) {
      Form F = Form::Uniform32;
      for (const Use &U : I->operands())
        F = weaker(F, use(U));
      if (isa<FreezeInst>(I))
        return F;
      return atLeast(F, Form::Uniform) ? Form::Uniform : Form::Divergent;
    }
    if (const auto *S = dyn_cast<SelectInst>(I)) {
      if (!atLeast(use(S->getOperandUse(0)), Form::Uniform))
        return Form::Divergent;
      return weaker(use(S->getOperandUse(1)), use(S->getOperandUse(2)));
    }
    if (const auto *CB = dyn_cast<CallBase>(I)) {
      const Function *F = CB->getCalledFunction();
      if (!F || !F->isIntrinsic())
        return Form::Divergent;
      Form S = special(F->getIntrinsicID());
      if (S != Form::Divergent)
        return S;
      if (F->getName().starts_with("llvm.nvvm.") || !CB->doesNotAccessMemory())
        return Form::Divergent;
      // min, max, abs, ctlz, ...: uniform from uniform operands only.
      for (const Use &U : CB->args())
        if (!atLeast(use(U), Form::Uniform))
          return Form::Divergent;
      return Form::Uniform;
    }
    if (const auto *P = dyn_cast<PHINode>(I))
      return headerPhi(*P);
    // Other phis and loads: only what UniformityInfo says (of(), above).
    return Form::Divergent;
  }

  /// A loop counter that every lane of a warp steps alike (`for (row =
  /// warp; row < rows; row += warps)`): a phi of a reducible cycle's header
  /// with one value from before the cycle and one from inside, both
  /// uniform, in a cycle whose every exiting branch is warp-uniform. Then
  /// every lane's k-th trip sees what every other lane's k-th trip sees, and
  /// all take the same exit at the same trip. Decided by assuming the phi
  /// uniform while its values and the exits are looked at; where that
  /// fails, whatever was concluded meanwhile is forgotten.
  Form headerPhi(const PHINode &P) {
    const Cycle *C = CI.getCycle(P.getParent());
    if (!C || !C->isReducible() || C->getHeader() != P.getParent() ||
        P.getNumIncomingValues() != 2 || !P.getType()->isIntegerTy())
      return Form::Divergent;
    if (C->contains(P.getIncomingBlock(0)) == C->contains(P.getIncomingBlock(1)))
      return Form::Divergent; // two entries or two latches
    DenseMap<const Value *, Form> Before = Memo;
    Memo[&P] = Form::Uniform;
    bool Holds = all_of(P.incoming_values(),
                        [&](const Use &U) { return use(U) >= Form::Uniform; });
    SmallVector<BasicBlock *, 4> Exiting;
    C->getExitingBlocks(Exiting);
    for (BasicBlock *E : Exiting) {
      if (!Holds)
        break;
      const Instruction *T = E->getTerminator();
      if (const auto *Br = dyn_cast<BranchInst>(T))
        Holds = !Br->isConditional() || use(Br->getOperandUse(0)) >= Form::Uniform;
      else if (const auto *Sw = dyn_cast<SwitchInst>(T))
        Holds = use(Sw->getOperandUse(0)) >= Form::Uniform;
      else
        Holds = false;
    }
    if (!Holds) {
      Memo = std::move(Before);
      Memo[&P] = Form::Divergent;
      return Form::Divergent;
    }
    return Form::Uniform;
  }
};

} // namespace

bool branchWarpUniform(const Instruction &Term, const UniformityInfo &UI, const CycleInfo &CI) {
  WarpForms W(UI, CI);
  if (const auto *Br = dyn_cast<BranchInst>(&Term))
    return Br->isConditional() && W.use(Br->getOperandUse(0)) >= Form::Uniform;
  if (const auto *Sw = dyn_cast<SwitchInst>(&Term))
    return W.use(Sw->getOperandUse(0)) >= Form::Uniform;
  return false;
}

} // namespace gmem::ckpt

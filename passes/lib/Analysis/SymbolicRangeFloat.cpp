//===- SymbolicRangeFloat.cpp - Indices converted from floats --------------===//
//
// Image and interpolation kernels index with a float converted to int:
// PyTorch's nearest-neighbour upsampling reads `min((int)(x * scale), w - 1)`,
// a histogram of floats `min((int)(v * k), bins - 1)`. SCEV sees the
// conversion as an opaque value, so the `min` bounds it from above only and
// the region was the whole allocation. The conversion is bounded below
// where the float is non-negative or NaN: a GPU's float-to-int conversion
// (PTX cvt.rzi, AMDGPU v_cvt_i32_f32) saturates and turns NaN into 0, so
// the integer is then in [0, INT_MAX].
//
// Whether a float is non-negative or NaN is proved on its expression:
// integers converted to float (checked >= 0 at launch where not static),
// float kernel parameters (their sign bit checked at launch), non-negative
// constants, and operations that keep the property (+, *, /, fabs, sqrt,
// exp, floor, max with a non-negative constant, a select that clamps at a
// non-negative constant). -0.0 counts as non-negative (it converts to 0)
// except as a divisor (x / -0.0 is -inf): divisors, and what a strict
// proof needs, must have their sign bit clear.
//
// From above, a float is bounded by an integer expression U (it is <= U or
// NaN) where it is built from integers converted to float, integer
// constants added or subtracted, min and max, floor-like rounding and
// clamping selects (`fminf(fmaxf(x, 0), (float)(n - 1))`, `x > w - 1 ? w - 1
// : x`); a conversion to float is exact only up to 2^24 (2^53 for double),
// so every integer it rests on is checked to lie within that at the
// launch. Any rounding of a value <= U, U an integer, is <= U, and NaN
// converts to 0: the integer is <= max(U, 0).
//
// LLVM calls an out-of-range fptosi poison. The bound relies on the
// conversion the backend emits, as the no-wrap flags of integer indices
// rely on the program not overflowing.
//
//===----------------------------------------------------------------------===//

#include "SymbolicRangeSupport.h"
#include "gmem/passes/GpuTarget.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

#include <cmath>

using namespace llvm;

namespace gmem {
using namespace range_support;

namespace {
/// Deep float expressions are rare in index computations; a bound on the
/// walk keeps a pathological one cheap.
constexpr unsigned MaxFloatDepth = 12;

/// Whether float constant K is NaN or non-negative; Strict excludes -0.0.
bool constantNonNegative(const ConstantFP &K, bool Strict) {
  const APFloat &V = K.getValueAPF();
  return V.isNaN() || !V.isNegative() || (!Strict && V.isZero());
}

/// Whether \p V is a non-NaN float constant >= 0 (> 0 when Strict).
bool numericFloor(const Value *V, bool Strict) {
  auto *K = dyn_cast<ConstantFP>(V);
  if (!K || K->getValueAPF().isNaN() || K->getValueAPF().isNegative())
    return false;
  return !Strict || !K->getValueAPF().isZero();
}

/// On the arm of \p Sel where its condition is \p Holds, what the
/// condition says of the arm's value X when it compares X with a value K
/// (`fcmp X, K` or `fcmp K, X`): returns K and sets P so that `X P K`
/// holds there (or X is NaN); null where the condition is no float
/// compare of X.
const Value *armCompare(const SelectInst &Sel, const Value *X, bool Holds, CmpInst::Predicate &P) {
  auto *Cmp = dyn_cast<FCmpInst>(Sel.getCondition());
  if (!Cmp)
    return nullptr;
  P = Cmp->getPredicate();
  const Value *K = Cmp->getOperand(1);
  if (Cmp->getOperand(1) == X) {
    P = CmpInst::getSwappedPredicate(P);
    K = Cmp->getOperand(0);
  } else if (Cmp->getOperand(0) != X) {
    return nullptr;
  }
  if (!Holds)
    P = CmpInst::getInversePredicate(P);
  return K;
}

/// Whether `X P K` says X >= K (or X > K where *Greater) or X is NaN.
bool impliesAtLeast(CmpInst::Predicate P, bool &Greater) {
  switch (P) {
  case CmpInst::FCMP_OGT:
  case CmpInst::FCMP_UGT:
    Greater = true;
    return true;
  case CmpInst::FCMP_OGE:
  case CmpInst::FCMP_UGE:
    Greater = false;
    return true;
  default:
    return false;
  }
}
/// Whether `X P K` says X <= K (or X < K) or X is NaN.
bool impliesAtMost(CmpInst::Predicate P) {
  return P == CmpInst::FCMP_OLT || P == CmpInst::FCMP_ULT || P == CmpInst::FCMP_OLE ||
         P == CmpInst::FCMP_ULE;
}

/// Integers a float of type \p T holds exactly: |x| <= 2^24 (2^53).
int64_t exactLimit(const Type *T) { return T->isDoubleTy() ? int64_t(1) << 53 : int64_t(1) << 24; }

/// floor(K) (or ceil(K)) of a finite float constant well inside int64.
std::optional<int64_t> roundedConstant(const Value *V, bool Up) {
  auto *K = dyn_cast<ConstantFP>(V);
  if (!K || !K->getValueAPF().isFinite())
    return std::nullopt;
  double D = K->getValueAPF().convertToDouble();
  if (!(D > -9.0e15 && D < 9.0e15))
    return std::nullopt;
  return int64_t(Up ? std::ceil(D) : std::floor(D));
}

/// Roundings to an integral value (floor, ceil, trunc, round and their
/// NVVM forms): each keeps a value's sign (-0.0 aside) and stays below any
/// integer above the value.
bool isRounding(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::floor:
  case Intrinsic::ceil:
  case Intrinsic::trunc:
  case Intrinsic::rint:
  case Intrinsic::nearbyint:
  case Intrinsic::round:
  case Intrinsic::roundeven:
  case Intrinsic::nvvm_floor_f:
  case Intrinsic::nvvm_floor_ftz_f:
  case Intrinsic::nvvm_floor_d:
  case Intrinsic::nvvm_ceil_f:
  case Intrinsic::nvvm_ceil_ftz_f:
  case Intrinsic::nvvm_ceil_d:
  case Intrinsic::nvvm_trunc_f:
  case Intrinsic::nvvm_trunc_ftz_f:
  case Intrinsic::nvvm_trunc_d:
  case Intrinsic::nvvm_round_f:
  case Intrinsic::nvvm_round_ftz_f:
  case Intrinsic::nvvm_round_d:
    return true;
  default:
    return false;
  }
}

/// Whether float V is finite: finite constants and converted integers.
bool finite(const Value *V) {
  if (auto *K = dyn_cast<ConstantFP>(V))
    return K->getValueAPF().isFinite();
  return isa<SIToFPInst>(V) || isa<UIToFPInst>(V);
}

/// Whether float V is never NaN: finite values, and a sum or difference of
/// two (it may round to infinity, never to NaN): `(float)w - 0.5f`.
bool neverNaN(const Value *V) {
  if (auto *K = dyn_cast<ConstantFP>(V))
    return !K->getValueAPF().isNaN();
  if (auto *BO = dyn_cast<BinaryOperator>(V))
    if (BO->getOpcode() == Instruction::FAdd || BO->getOpcode() == Instruction::FSub)
      return finite(BO->getOperand(0)) && finite(BO->getOperand(1));
  return finite(V);
}
} // namespace

ExprRef SymbolicRange::floatAtMost(const Value *V, Ctx &C, unsigned Depth) {
  if (Depth > MaxFloatDepth || !V->getType()->isFloatingPointTy())
    return nullptr;
  if (std::optional<int64_t> K = roundedConstant(V, /*Up=*/true)) // 2.5 <= 3
    return cst(*K);
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return nullptr;
  const int64_t Limit = exactLimit(V->getType());
  // U bounds the exact result; rounding keeps it below U where U is exact.
  auto Exact = [&](ExprRef U) -> ExprRef {
    if (U)
      addCheck(C, U, -Limit, Limit, /*Assumed=*/false);
    return U;
  };
  auto Up = [&](const Value *X) { return floatAtMost(X, C, Depth + 1); };
  switch (I->getOpcode()) {
  case Instruction::SIToFP:
  case Instruction::UIToFP: {
    Value *X = I->getOperand(0);
    if (!SE.isSCEVable(X->getType()))
      return nullptr;
    Bounds B = inType(SE.getSCEV(X), I->getOpcode() == Instruction::SIToFP, C);
    return B.Hi ? Exact(B.Hi) : nullptr;
  }
  case Instruction::FPExt:
    return Up(I->getOperand(0));
  case Instruction::FPTrunc:
    return Exact(Up(I->getOperand(0)));
  case Instruction::FAdd: {
    ExprRef A = Up(I->getOperand(0)), B = A ? Up(I->getOperand(1)) : nullptr;
    return A && B ? Exact(Expr::add(A, B)) : nullptr;
  }
  case Instruction::FSub: {
    // x - K <= U - K <= U - floor(K) for a constant K, an integer again.
    std::optional<int64_t> F = roundedConstant(I->getOperand(1), /*Up=*/false);
    ExprRef A = F ? Up(I->getOperand(0)) : nullptr;
    return A ? Exact(Expr::sub(A, cst(*F))) : nullptr;
  }
  case Instruction::Select: {
    auto *Sel = cast<SelectInst>(I);
    auto Arm = [&](const Value *X, bool Holds) -> ExprRef {
      CmpInst::Predicate P;
      if (const Value *K = armCompare(*Sel, X, Holds, P); K && impliesAtMost(P))
        if (ExprRef U = Up(K))
          return U;
      return Up(X);
    };
    ExprRef T = Arm(Sel->getTrueValue(), true);
    ExprRef F = T ? Arm(Sel->getFalseValue(), false) : nullptr;
    return T && F ? Expr::smax(T, F) : nullptr;
  }
  case Instruction::Call:
    break;
  default:
    return nullptr;
  }
  auto *II = dyn_cast<IntrinsicInst>(I);
  if (!II)
    return nullptr;
  if (isRounding(II->getIntrinsicID())) // any rounding of x <= U is <= U
    return Up(II->getArgOperand(0));
  switch (II->getIntrinsicID()) {
  case Intrinsic::nvvm_saturate_f:
  case Intrinsic::nvvm_saturate_ftz_f:
  case Intrinsic::nvvm_saturate_d:
    return cst(1);
  case Intrinsic::minnum:
  case Intrinsic::nvvm_fmin_f:
  case Intrinsic::nvvm_fmin_ftz_f:
  case Intrinsic::nvvm_fmin_d: {
    // minnum(a, b) <= b unless b is NaN (then it is a): an operand that
    // is never NaN bounds it alone, else the larger bound of the two.
    const Value *A = II->getArgOperand(0), *B = II->getArgOperand(1);
    if (neverNaN(B))
      if (ExprRef U = Up(B))
        return U;
    if (neverNaN(A))
      if (ExprRef U = Up(A))
        return U;
    ExprRef UA = Up(A), UB = UA ? Up(B) : nullptr;
    return UA && UB ? Expr::smax(UA, UB) : nullptr;
  }
  case Intrinsic::maxnum:
  case Intrinsic::maximum:
  case Intrinsic::nvvm_fmax_f:
  case Intrinsic::nvvm_fmax_ftz_f:
  case Intrinsic::nvvm_fmax_d: {
    ExprRef UA = Up(II->getArgOperand(0)), UB = UA ? Up(II->getArgOperand(1)) : nullptr;
    return UA && UB ? Expr::smax(UA, UB) : nullptr;
  }
  default:
    return nullptr;
  }
}

bool SymbolicRange::floatNonNegative(const Value *V, bool Strict, Ctx &C, unsigned Depth,
                                     SmallPtrSetImpl<const Value *> &Open) {
  if (Depth > MaxFloatDepth || !V->getType()->isFloatingPointTy())
    return false;
  if (auto *K = dyn_cast<ConstantFP>(V))
    return constantNonNegative(*K, Strict);
  auto Same = [&](const Value *X) { return floatNonNegative(X, Strict, C, Depth + 1, Open); };
  auto Divisor = [&](const Value *X) { return floatNonNegative(X, true, C, Depth + 1, Open); };
  if (auto *A = dyn_cast<Argument>(V)) {
    // A float or double kernel parameter: its bits, read as a signed
    // integer of its width, are >= 0 exactly when the sign bit is clear.
    if (!isKernel(*A->getParent()) || isAggregateParam(*A))
      return false;
    unsigned Bits = A->getType()->getPrimitiveSizeInBits();
    if (Bits != 32 && Bits != 64)
      return false;
    addCheck(C, Expr::variable(Var::arg(A->getArgNo())), 0, typeMax(Bits, true),
             /*Assumed=*/false);
    return true;
  }
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return false;
  switch (I->getOpcode()) {
  case Instruction::UIToFP:
    return true;
  case Instruction::SIToFP: {
    // Integer 0 converts to +0.0: an integer >= 0 gives a clear sign bit.
    // The machine value's sign: its signed reading (a wrapped `(int)(2u * t
    // * u)` is negative where its mathematical value is not).
    Value *X = I->getOperand(0);
    if (!SE.isSCEVable(X->getType()))
      return false;
    Bounds B = inType(SE.getSCEV(X), /*Signed=*/true, C);
    if (!B.Lo)
      return false;
    if (!nonNeg(B.Lo))
      addCheck(C, B.Lo, 0, INT64_MAX, /*Assumed=*/false);
    return true;
  }
  case Instruction::FPExt:
  case Instruction::FPTrunc:
    return Same(I->getOperand(0));
  case Instruction::FAdd:
  case Instruction::FMul:
    return Same(I->getOperand(0)) && Same(I->getOperand(1));
  case Instruction::FDiv:
    return Same(I->getOperand(0)) && Divisor(I->getOperand(1));
  case Instruction::FRem: // the sign of the dividend; x % 0 is NaN
    return Same(I->getOperand(0));
  case Instruction::PHI: {
    // Around a loop: assume the phi non-negative and prove every incoming
    // value under that assumption (each step keeps the property).
    if (!Open.insert(V).second)
      return true;
    auto *Phi = cast<PHINode>(I);
    bool All = Phi->getNumIncomingValues() <= 8;
    for (unsigned J = 0; All && J < Phi->getNumIncomingValues(); ++J)
      All = Same(Phi->getIncomingValue(J));
    Open.erase(V);
    return All;
  }
  case Instruction::Select: {
    // Each arm, or an arm its condition clamps: `x < 0 ? 0 : x`.
    auto *Sel = cast<SelectInst>(I);
    auto Arm = [&](const Value *X, bool Holds) {
      if (Same(X))
        return true;
      CmpInst::Predicate P;
      const Value *K = armCompare(*Sel, X, Holds, P);
      bool Greater = false;
      if (!K || !impliesAtLeast(P, Greater) || !numericFloor(K, false))
        return false;
      return !Strict || Greater || numericFloor(K, true);
    };
    return Arm(Sel->getTrueValue(), true) && Arm(Sel->getFalseValue(), false);
  }
  case Instruction::Call:
    break;
  default:
    return false;
  }
  auto *II = dyn_cast<IntrinsicInst>(I);
  if (!II)
    return false;
  if (isRounding(II->getIntrinsicID()))
    return Same(II->getArgOperand(0));
  switch (II->getIntrinsicID()) {
  case Intrinsic::fabs:
  case Intrinsic::exp:
  case Intrinsic::exp2:
  case Intrinsic::exp10:
  case Intrinsic::nvvm_ex2_approx_f:
  case Intrinsic::nvvm_ex2_approx_ftz_f:
  case Intrinsic::nvvm_ex2_approx_d:
  case Intrinsic::nvvm_fabs_f:
  case Intrinsic::nvvm_fabs_ftz_f:
  case Intrinsic::nvvm_fabs_d:
  case Intrinsic::nvvm_saturate_f:
  case Intrinsic::nvvm_saturate_ftz_f:
  case Intrinsic::nvvm_saturate_d:
    return true;
  case Intrinsic::sqrt:
  case Intrinsic::nvvm_sqrt_f:
  case Intrinsic::nvvm_sqrt_rn_f:
  case Intrinsic::nvvm_sqrt_rn_ftz_f:
  case Intrinsic::nvvm_sqrt_approx_f:
  case Intrinsic::nvvm_sqrt_approx_ftz_f:
  case Intrinsic::nvvm_sqrt_rn_d:
    return Same(II->getArgOperand(0));
  case Intrinsic::maxnum:
  case Intrinsic::nvvm_fmax_f:
  case Intrinsic::nvvm_fmax_ftz_f:
  case Intrinsic::nvvm_fmax_d: {
    // maxnum(NaN, y) is y: a NaN operand says nothing, a number floor does.
    const Value *A = II->getArgOperand(0), *B = II->getArgOperand(1);
    return numericFloor(A, Strict) || numericFloor(B, Strict) || (Same(A) && Same(B));
  }
  case Intrinsic::maximum: // NaN in, NaN out; otherwise at least either
    return Same(II->getArgOperand(0)) || Same(II->getArgOperand(1));
  case Intrinsic::minnum:
  case Intrinsic::minimum:
  case Intrinsic::nvvm_fmin_f:
  case Intrinsic::nvvm_fmin_ftz_f:
  case Intrinsic::nvvm_fmin_d:
    return Same(II->getArgOperand(0)) && Same(II->getArgOperand(1));
  case Intrinsic::fma:
  case Intrinsic::fmuladd:
    return Same(II->getArgOperand(0)) && Same(II->getArgOperand(1)) &&
           Same(II->getArgOperand(2));
  default:
    return false;
  }
}

std::optional<Bounds> SymbolicRange::floatToInt(const Value *V, Ctx &C) {
  const Value *F = nullptr;
  if (auto *FI = dyn_cast<FPToSIInst>(V))
    F = FI->getOperand(0);
  else if (auto *II = dyn_cast<IntrinsicInst>(V)) {
    switch (II->getIntrinsicID()) {
    case Intrinsic::fptosi_sat:
    case Intrinsic::nvvm_f2i_rn:
    case Intrinsic::nvvm_f2i_rn_ftz:
    case Intrinsic::nvvm_f2i_rz:
    case Intrinsic::nvvm_f2i_rz_ftz:
    case Intrinsic::nvvm_f2i_rm:
    case Intrinsic::nvvm_f2i_rm_ftz:
    case Intrinsic::nvvm_f2i_rp:
    case Intrinsic::nvvm_f2i_rp_ftz:
    case Intrinsic::nvvm_d2i_rn:
    case Intrinsic::nvvm_d2i_rz:
    case Intrinsic::nvvm_d2i_rm:
    case Intrinsic::nvvm_d2i_rp:
      F = II->getArgOperand(0);
      break;
    default:
      break;
    }
  }
  if (!F || !V->getType()->isIntegerTy() || V->getType()->getIntegerBitWidth() > 64)
    return std::nullopt;
  // Each side's checks count only if its proof succeeds.
  SideProof Lo(C.At, C.Depth + 1), Hi(C.At, C.Depth + 1);
  SmallPtrSet<const Value *, 8> Open;
  bool NonNeg = aside([&] { return floatNonNegative(F, /*Strict=*/false, Lo.Sub, 0, Open); });
  ExprRef U = aside([&] { return floatAtMost(F, Hi.Sub, 0); });
  if (!NonNeg && !U)
    return std::nullopt;
  ExprRef Top = cst(typeMax(V->getType()->getIntegerBitWidth(), true));
  Bounds B;
  if (NonNeg) {
    addChecks(C, Lo.Checks);
    B.Lo = cst(0);
    B.Hi = Top;
  }
  if (U) {
    addChecks(C, Hi.Checks);
    B.Hi = lesser(Expr::smax(U, cst(0)), Top); // NaN converts to 0
  }
  return B;
}

} // namespace gmem

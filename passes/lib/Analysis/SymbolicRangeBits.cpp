//===- SymbolicRangeBits.cpp - and / or / xor of non-negative indices ------===//
//
// SCEV models `x & c` for a constant mask c and leaves other bitwise
// operations opaque: a butterfly partner `i ^ j` (bitonic sort, the Walsh
// transform, FFTs), `i & m` or `i | m` with m a parameter. For non-negative
// operands the result is bounded by arithmetic on their bounds:
//
//     0 <= x & y <= min(x, y)      (each bit of the result is one of x's)
//     0 <= x ^ y <= x | y <= x + y (no carries)
//
// and `x & y` needs only one of them non-negative. An operand not
// statically non-negative is checked >= 0 at the launch.
//
//===----------------------------------------------------------------------===//

#include "SymbolicRangeSupport.h"

#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace gmem {
using namespace range_support;

std::optional<Bounds> SymbolicRange::bitwiseBounds(const BinaryOperator *BO, Ctx &C) {
  unsigned Op = BO->getOpcode();
  if (Op != Instruction::And && Op != Instruction::Or && Op != Instruction::Xor)
    return std::nullopt;
  if (!BO->getType()->isIntegerTy() || BO->getType()->getIntegerBitWidth() > 64)
    return std::nullopt;
  // The proof's checks count only if it succeeds. Operands without
  // guards (At null): a guard relating the result to an operand (`p = i ^
  // j; if (p > i)`) would bound each by the other, round after round, into
  // nested mins no tighter than the guards alone.
  SideProof P(nullptr, C.Depth + 1);
  Bounds A = aside([&] { return inType(SE.getSCEV(BO->getOperand(0)), /*Signed=*/true, P.Sub); });
  Bounds B = aside([&] { return inType(SE.getSCEV(BO->getOperand(1)), /*Signed=*/true, P.Sub); });
  std::optional<Bounds> R;
  if (Op == Instruction::And) {
    // One non-negative operand bounds the result; prefer a static one.
    bool AN = nonNeg(A.Lo) && A.Hi, BN = nonNeg(B.Lo) && B.Hi;
    if (AN && BN)
      R = Bounds{cst(0), lesser(A.Hi, B.Hi)};
    else if (AN || BN)
      R = Bounds{cst(0), AN ? A.Hi : B.Hi};
    else if (A.bounded()) {
      P.Checks.push_back({A.Lo, 0, INT64_MAX, /*Assumed=*/false});
      R = Bounds{cst(0), A.Hi};
    }
  } else if (A.bounded() && B.bounded()) {
    for (const Bounds *X : {&A, &B})
      if (!nonNeg(X->Lo))
        P.Checks.push_back({X->Lo, 0, INT64_MAX, /*Assumed=*/false});
    R = Bounds{cst(0), Expr::add(A.Hi, B.Hi)};
  }
  if (!R)
    return std::nullopt;
  addChecks(C, P.Checks);
  return R;
}

} // namespace gmem

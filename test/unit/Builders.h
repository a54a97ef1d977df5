// Small builders shared by the unit tests of the compiler core.
#pragma once

#include "gmem/compiler/KernelDescriptor.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace gmem::test {

constexpr int64_t I64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t I64Min = std::numeric_limits<int64_t>::min();

inline ExprRef C(int64_t V) { return Expr::constant(V); }
inline ExprRef A(unsigned I) { return Expr::variable(Var::arg(I)); }
inline ExprRef G(unsigned D = 0) { return Expr::variable(Var::gridDim(D)); }
inline ExprRef B(unsigned D = 0) { return Expr::variable(Var::blockDim(D)); }

inline AccessRegion bounded(std::vector<SymRange> Ranges, std::vector<RangeCheck> Checks = {}) {
  AccessRegion R;
  R.Kind = RegionKind::Bounded;
  R.Ranges = std::move(Ranges);
  R.Checks = std::move(Checks);
  return R;
}

inline AccessRegion widened(RegionKind K, std::string Reason) {
  AccessRegion R;
  R.Kind = K;
  R.Reason = std::move(Reason);
  return R;
}

} // namespace gmem::test

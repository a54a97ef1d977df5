//===- SymbolicRangeRegion.cpp - The region of one access -----------------===//
//
// An access's byte region from the bounds of its offset and size
// (regionOf), and the budgets a region must fit: the launch path evaluates
// every region at every launch, so past a size the whole allocation is the
// honest answer. Split from SymbolicRange.cpp.
//
//===----------------------------------------------------------------------===//

#include "SymbolicRangeSupport.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <functional>

using namespace llvm;

namespace gmem {
using namespace range_support;

RegionCost range_support::regionCost(ArrayRef<ExprRef> Roots) {
  // Keyed by canonical text, as FlatEval merges nodes; tree sizes memoised
  // so that a DAG with exponentially large trees costs linear time.
  DenseMap<const Expr *, size_t> TreeSize;
  StringSet<> Seen;
  std::function<size_t(const ExprRef &)> Visit = [&](const ExprRef &E) -> size_t {
    if (auto It = TreeSize.find(E.get()); It != TreeSize.end())
      return It->second;
    Seen.insert(E->str());
    size_t N = 1;
    for (const ExprRef &O : E->operands())
      N = std::min(N + Visit(O), MaxRegionTreeNodes + 1);
    TreeSize[E.get()] = N;
    return N;
  };
  RegionCost C;
  for (const ExprRef &E : Roots)
    C.Tree = std::min(C.Tree + Visit(E), MaxRegionTreeNodes + 1);
  C.Distinct = Seen.size();
  return C;
}

namespace {
const char *const TooComplex = "index bounds too complex to evaluate per launch";
} // namespace

AccessRegion SymbolicRange::regionOf(const MemAccess &A) {
  auto TooLarge = [](const AccessRegion &R) {
    return R.Kind == RegionKind::Allocation && R.Reason == TooComplex;
  };
  AccessRegion R = regionWithFacts(A);
  // Too large with the offset guards' mins and maxes: as it was without.
  if (TooLarge(R))
    R = retryWith(OffsetFacts, false, A);
  if (!TooLarge(R))
    return R;
  // Past the tree budget every way: the same tries against the distinct
  // nodes the launch path evaluates. Preferring the tree budget keeps the
  // smaller forms, whose launch checks fail less often (a column walk's
  // sign-checked stride against a trip count that fails at n <= 0).
  DistinctBudget = true;
  R = regionWithFacts(A);
  if (TooLarge(R))
    R = retryWith(OffsetFacts, false, A);
  DistinctBudget = false;
  return R;
}

AccessRegion SymbolicRange::retryWith(bool &Flag, bool Value, const MemAccess &A) {
  // The memo holds bounds of the other setting: set aside both ways.
  auto Saved = std::move(Memo);
  Memo.clear();
  Flag = Value;
  AccessRegion R = regionWithFacts(A);
  Flag = !Value;
  Memo = std::move(Saved);
  return R;
}

AccessRegion SymbolicRange::regionWithFacts(const MemAccess &A) {
  AccessRegion R;
  if (A.Target == AccessTarget::Unknown) {
    R.Kind = RegionKind::Anything;
    R.Reason = A.WidenReason;
    return R;
  }
  if (!A.Offset || !A.Size) {
    R.widenToAllocation(!A.WidenReason.empty() ? A.WidenReason
                        : !A.Size             ? "access of scalable (run-time) size"
                                              : "offset the analysis cannot follow");
    return R;
  }
  std::vector<RangeCheck> Checks;
  std::string Why;
  Bounds Off = bounds(A.Offset, A.Inst, Checks, Why);
  Bounds Size = bounds(A.Size, A.Inst, Checks, Why);
  if (!Off.bounded() || !Size.Hi) {
    R.widenToAllocation(Why.empty() ? "index range the analysis cannot bound" : Why);
    return R;
  }
  // Bounds are evaluated at every launch: past a size they cost more than
  // they save, and the whole allocation is the honest answer.
  ExprRef Hi = Expr::add(Off.Hi, Size.Hi);
  std::vector<ExprRef> Roots{Off.Lo, Hi};
  for (const RangeCheck &C : Checks)
    Roots.push_back(C.Value);
  RegionCost Cost = regionCost(Roots);
  bool TooLarge = DistinctBudget
                      ? Cost.Distinct > MaxRegionNodes || Cost.Tree > MaxRegionTreeNodes
                      : Cost.Tree > MaxRegionNodes;
  if (TooLarge && !CheckFactorSigns) {
    // Products with a launch value of unknown sign (`b * N * 3 * NH * d`)
    // bound to min/max over every sign combination, which nests with each
    // factor. Again with each such factor checked >= 0 at launch: a launch
    // where one is negative gets the whole allocation, as it would now.
    return retryWith(CheckFactorSigns, true, A);
  }
  if (TooLarge) {
    R.widenToAllocation(TooComplex);
    return R;
  }
  // A check that no launch can pass (e.g. unsigned i - 1 at i = 0): the
  // symbolic range is never used, so do not show it.
  for (const RangeCheck &C : Checks)
    if (C.Value->isConst() && (C.Value->constant() < C.Min || C.Value->constant() > C.Max)) {
      R.widenToAllocation("index wraps around (" + render(C.Value) + " outside [" +
                          std::to_string(C.Min) + ", " + std::to_string(C.Max) + "])");
      return R;
    }
  R.Kind = RegionKind::Bounded;
  R.Ranges.push_back({Off.Lo, Hi});
  R.Checks = std::move(Checks);
  return R;
}

} // namespace gmem

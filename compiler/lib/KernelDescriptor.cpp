#include "gmem/compiler/KernelDescriptor.h"

namespace gmem {

const char *className(IdempotenceClass C) {
  switch (C) {
  case IdempotenceClass::Idempotent: return "idempotent";
  case IdempotenceClass::Conditional: return "conditional";
  case IdempotenceClass::NonIdempotent: return "non-idempotent";
  case IdempotenceClass::Unknown: return "unknown";
  }
  return "unknown";
}

const char *regionKindName(RegionKind K) {
  switch (K) {
  case RegionKind::Empty: return "empty";
  case RegionKind::Bounded: return "bounded";
  case RegionKind::Allocation: return "allocation";
  case RegionKind::Anything: return "anything";
  }
  return "anything";
}

const char *scalarTypeName(ScalarType T) {
  switch (T) {
  case ScalarType::Ptr: return "ptr";
  case ScalarType::I8: return "i8";
  case ScalarType::I16: return "i16";
  case ScalarType::I32: return "i32";
  case ScalarType::I64: return "i64";
  case ScalarType::F16: return "f16";
  case ScalarType::F32: return "f32";
  case ScalarType::F64: return "f64";
  case ScalarType::Other: return "other";
  }
  return "other";
}

unsigned scalarTypeBits(ScalarType T) {
  switch (T) {
  case ScalarType::I8: return 8;
  case ScalarType::I16:
  case ScalarType::F16: return 16;
  case ScalarType::I32:
  case ScalarType::F32: return 32;
  case ScalarType::Ptr:
  case ScalarType::I64:
  case ScalarType::F64: return 64;
  default: return 0;
  }
}

void AccessRegion::widenToAllocation(const std::string &Why) {
  if (Kind == RegionKind::Anything)
    return;
  if (Kind != RegionKind::Allocation || Reason.empty())
    Reason = Why;
  Kind = RegionKind::Allocation;
  Ranges.clear();
  Checks.clear();
}

void AccessRegion::unite(const AccessRegion &O) {
  if (O.Kind == RegionKind::Empty)
    return;
  if (Kind == RegionKind::Empty) {
    *this = O;
    return;
  }
  if (O.Kind == RegionKind::Anything || Kind == RegionKind::Anything) {
    if (Kind != RegionKind::Anything)
      Reason = O.Reason;
    Kind = RegionKind::Anything;
    Ranges.clear();
    Checks.clear();
    return;
  }
  if (O.Kind == RegionKind::Allocation) {
    widenToAllocation(O.Reason);
    return;
  }
  if (Kind == RegionKind::Allocation)
    return;
  // Both bounded. Ranges whose bounds differ by constants merge into one
  // (a[i-1], a[i], a[i+1] -> one range); others are kept side by side.
  for (const SymRange &R : O.Ranges) {
    bool Merged = false;
    for (SymRange &Mine : Ranges) {
      auto DLo = constantDifference(R.Lo, Mine.Lo);
      auto DHi = constantDifference(R.Hi, Mine.Hi);
      if (DLo && DHi) {
        if (*DLo < 0)
          Mine.Lo = R.Lo;
        if (*DHi > 0)
          Mine.Hi = R.Hi;
        Merged = true;
        break;
      }
    }
    if (!Merged)
      Ranges.push_back(R);
  }
  for (const RangeCheck &C : O.Checks)
    addCheckOnce(Checks, C);
}

void addCheckOnce(std::vector<RangeCheck> &Checks, const RangeCheck &C) {
  for (RangeCheck &M : Checks)
    if (sameExpr(M.Value, C.Value) && M.Min == C.Min && M.Max == C.Max) {
      M.Assumed = M.Assumed && C.Assumed;
      return;
    }
  Checks.push_back(C);
}

std::vector<std::string> KernelDescriptor::paramNames() const {
  std::vector<std::string> N;
  for (auto &P : Params)
    N.push_back(P.Name);
  return N;
}

} // namespace gmem

// Shared by the InstanceCheck*Test.cpp unit tests: hand-built parameters,
// the vecadd descriptor, a table of allocations and launch configurations.
#pragma once

#include "gmem/compiler/InstanceCheck.h"
#include "Builders.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gmem::test {

inline ParamInfo ptrParam(std::string Name, AccessRegion Read, AccessRegion Write) {
  ParamInfo P;
  P.Name = std::move(Name);
  P.Type = ScalarType::Ptr;
  P.IsPointer = true;
  P.Read = std::move(Read);
  P.Write = std::move(Write);
  return P;
}

inline ParamInfo scalarParam(std::string Name, ScalarType T) {
  ParamInfo P;
  P.Name = std::move(Name);
  P.Type = T;
  return P;
}

/// vecadd(const float *a, const float *b, float *c, int n):
///   reads a, b in [0, 4n), writes c in [0, 4n).
inline KernelDescriptor vecAdd() {
  KernelDescriptor K;
  K.Symbol = "_Z6vecaddPKfS0_Pfi";
  K.Name = K.PlainName = "vecadd";
  K.Target = "nvptx";
  K.Class = IdempotenceClass::Conditional;
  ExprRef Hi = Expr::mul(C(4), A(3));
  K.Params = {ptrParam("a", bounded({{C(0), Hi}}), AccessRegion()),
              ptrParam("b", bounded({{C(0), Hi}}), AccessRegion()),
              ptrParam("c", AccessRegion(), bounded({{C(0), Hi}})),
              scalarParam("n", ScalarType::I32)};
  return K;
}

/// A table of allocations.
struct Heap {
  std::vector<Allocation> Allocs;
  AllocationLookup lookup() const {
    return [this](uint64_t P) -> std::optional<Allocation> {
      for (const Allocation &A : Allocs)
        if (P >= A.Base && P < A.end())
          return A;
      return std::nullopt;
    };
  }
};

inline LaunchConfig launch(std::vector<uint64_t> Args, int64_t Grid = 4, int64_t Block = 128) {
  LaunchConfig L;
  L.Grid[0] = Grid;
  L.Block[0] = Block;
  L.ArgBits = std::move(Args);
  return L;
}

inline const Heap ThreeBuffers{{{0x10000, 4096}, {0x20000, 4096}, {0x30000, 4096}}};

} // namespace gmem::test

//===- MatrixFragmentAccesses.h - Tiles read and written by wmma -*- C++ -*-===//
//
// Tensor-core code written with CUDA's nvcuda::wmma (load_matrix_sync,
// store_matrix_sync) reaches memory through llvm.nvvm.wmma.*.load / .store
// intrinsics: a warp reads or writes one tile of R x C elements whose rows
// (row-major) or columns (column-major) lie `ldm` elements apart. Taken as
// plain calls, every pointer they take counts as its whole allocation.
//
// A tile is matched only where the intrinsic's name states its shape, the
// fragment, the layout, an element type of whole bytes and an explicit
// stride operand; anything else stays a call the caller treats
// conservatively.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_PASSES_MATRIXFRAGMENTACCESSES_H
#define GMEM_PASSES_MATRIXFRAGMENTACCESSES_H

#include "llvm/IR/InstrTypes.h"

#include <cstdint>
#include <optional>

namespace gmem {

/// One wmma tile access: Lines lines of LineElems elements, the first
/// element of line i at Ptr + i * Stride elements (Stride an i32 operand).
struct MatrixFragmentAccess {
  llvm::Value *Ptr = nullptr;
  llvm::Value *Stride = nullptr;
  unsigned Lines = 0;     ///< rows (row-major) or columns (column-major)
  unsigned LineElems = 0; ///< elements along one line
  unsigned ElemBytes = 0;
  bool Reads = false; ///< a load; else a store
};

/// For llvm.nvvm.wmma.<mMnNkK>.{load,store}.<a|b|c|d>.<row|col>.stride.<type>
/// calls: the tile they read or write. std::nullopt for anything else.
std::optional<MatrixFragmentAccess> matchMatrixFragmentAccess(const llvm::CallBase &CB);

} // namespace gmem

#endif // GMEM_PASSES_MATRIXFRAGMENTACCESSES_H

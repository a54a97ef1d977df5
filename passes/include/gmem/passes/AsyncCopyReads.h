//===- AsyncCopyReads.h - Global reads of sm_80 async copies ---*- C++ -*-===//
//
// `cp.async.{ca,cg}.shared.global [dst], [src], cp-size` copies cp-size
// bytes (4, 8 or 16) from global memory to shared memory: for the global
// state it is a read of [src, src + cp-size), nothing else. Kernels issue it
// through inline asm (cuda_pipeline.h, CUTLASS, hand-written pipelines) or
// NVVM intrinsics; without these matchers both count as an unbounded read
// and write of every pointer they take, and a pipelined kernel is unknown.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_PASSES_ASYNCCOPYREADS_H
#define GMEM_PASSES_ASYNCCOPYREADS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/InstrTypes.h"

#include <cstdint>
#include <optional>

namespace gmem {

struct AsyncCopyRead {
  llvm::Value *Src = nullptr; ///< the global address read
  uint64_t Bytes = 0;         ///< at most this many bytes from Src
};

/// For an inline-asm call whose only memory instructions are non-bulk
/// cp.async copies from global to shared memory (commit and wait
/// instructions, moves and arithmetic may stand beside them): the copies'
/// reads. std::nullopt for any other asm, or where a copy's source operand
/// cannot be traced to a pointer value: the caller stays conservative.
std::optional<llvm::SmallVector<AsyncCopyRead, 2>> matchAsyncCopyAsm(const llvm::CallBase &CB);

/// For llvm.nvvm.cp.async.{ca,cg}.shared.global.{4,8,16}[.s]: its read.
std::optional<AsyncCopyRead> matchAsyncCopyIntrinsic(const llvm::CallBase &CB);

} // namespace gmem

#endif // GMEM_PASSES_ASYNCCOPYREADS_H

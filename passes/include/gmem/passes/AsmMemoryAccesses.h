//===- AsmMemoryAccesses.h - What inline PTX reads and writes ---*- C++ -*-===//
//
// Libraries reach global memory through inline PTX where CUDA C++ has no
// spelling for the instruction they want: CUB's LOAD_LDG / LOAD_CG /
// STORE_CG (`ld.global.nc`, `ld.global.cg`, `st.global.cg`), its
// look-back status words (`ld.relaxed.gpu`, `st.relaxed.gpu`), PyTorch's
// and CUTLASS's vectorized and cache-hinted loads, and sm_80 async copies
// (`cp.async.{ca,cg}.shared.global [dst], [src], cp-size`). Without reading
// the text, every pointer such an asm takes counts as the whole allocation
// read and written, and a kernel built on them is `unknown`.
//
// An access is matched only where the text says exactly what it is: a
// load, store or atomic whose address is `[$N]` or `[$N+imm]` with $N a
// pointer operand (or an integer converted from one), whose width follows
// from its type and vector suffix. Anything else that may touch memory
// leaves the whole asm unmatched, and the caller stays conservative.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_PASSES_ASMMEMORYACCESSES_H
#define GMEM_PASSES_ASMMEMORYACCESSES_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/InstrTypes.h"

#include <cstdint>
#include <optional>

namespace gmem {

/// One memory access of an inline-asm statement: at most Bytes bytes from
/// Ptr (the statement's immediate offset is folded into Bytes).
struct AsmAccess {
  llvm::Value *Ptr = nullptr;
  uint64_t Bytes = 0;
  bool Reads = false;
  bool Writes = false;
  bool Atomic = false;
};

/// For an NVPTX inline-asm call whose every statement that may touch
/// global memory is a matched load (`ld`, `ldu`), store (`st`), atomic
/// (`atom`, `red`) or non-bulk `cp.async` copy from global to shared memory:
/// those accesses (empty when the text touches no global memory). Cache
/// hints (`prefetch`, `prefetchu`, `applypriority`) move no value: none.
/// std::nullopt for anything else, including an address the text computes
/// itself or may change first (an input tied to an output, `"0"(p)`, or a
/// register a statement writes) or a width it does not state: the caller
/// stays conservative.
std::optional<llvm::SmallVector<AsmAccess, 2>> matchAsmAccesses(const llvm::CallBase &CB);

/// For an NVPTX inline-asm call: whether every address its text uses for
/// global (or generic) memory is a register derived, by moves and
/// arithmetic, from a pointer operand (or an integer the IR converted from
/// one), so that the pointer operands' objects bound what it touches. False
/// for an address built from other operands (two 32-bit halves, a double's
/// bits), a loaded value, a number or a symbol, for a memory instruction
/// whose address the text does not show, and for a `call`.
bool asmAddressesFromPointers(const llvm::CallBase &CB);

/// For llvm.nvvm.cp.async.{ca,cg}.shared.global.{4,8,16}[.s]: its read.
std::optional<AsmAccess> matchAsyncCopyIntrinsic(const llvm::CallBase &CB);

} // namespace gmem

#endif // GMEM_PASSES_ASMMEMORYACCESSES_H

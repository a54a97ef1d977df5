//===- AccessCollector.h - Global-memory accesses of a kernel ---*- C++ -*-===//
//
// Lists every instruction of a kernel that may touch global memory, with the
// object it touches (a pointer parameter, a module global, or something the
// analysis cannot name) and its byte offset from that object as a SCEV.
// Shared (LDS) and local (private/stack) memory are not global and are left
// out; read-only constant memory cannot be written and is left out too.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_PASSES_ACCESSCOLLECTOR_H
#define GMEM_PASSES_ACCESSCOLLECTOR_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Function.h"

#include <string>

namespace gmem {

enum class AccessTarget {
  Param,   ///< a pointer parameter of the kernel
  Global,  ///< a module global variable in global memory
  Field,   ///< a pointer held in a by-value aggregate parameter
  Unknown, ///< pointer the analysis cannot trace to a parameter or global
};

struct MemAccess {
  llvm::Instruction *Inst = nullptr;
  bool Reads = false;
  bool Writes = false;
  bool Atomic = false;
  /// An atomic integer max, min, and or or whose old value the kernel never
  /// uses: applied again, or in another order,
  /// it leaves the same bytes, so it is a write for idempotence (Atomic is
  /// false) while its bytes stay in the may-read region (the result
  /// depends on what was there before).
  bool Combine = false;
  /// An atomic that leaves its bytes as they were (or 0, and -1, max with
  /// the type's minimum, add 0...) and whose old value nothing uses: in the
  /// may-read region (it loads them), not the may-write one (no byte
  /// changes), and neither a read nor a write for idempotence (LLVM turns
  /// an unrolled `atomicMax(p, INT_MIN)` into `atomicrmw or p, 0`).
  bool ChangesNothing = false;
  AccessTarget Target = AccessTarget::Unknown;
  unsigned ParamIndex = 0;  ///< Param, or the aggregate holding a Field
  unsigned FieldOffset = 0; ///< Field: byte offset of the pointer in the aggregate
  llvm::GlobalVariable *Global = nullptr;
  /// Byte offset from the parameter/global; null when not computable.
  const llvm::SCEV *Offset = nullptr;
  /// Bytes touched from Offset (a SCEV: memcpy lengths can be symbolic).
  const llvm::SCEV *Size = nullptr;
  /// Set when no offset can be known: why the whole object is taken.
  std::string WidenReason;
};

struct AccessList {
  llvm::SmallVector<MemAccess, 16> Accesses;
  /// A printf call (vprintf, HIP's __ockl_printf_*): output, not memory the
  /// kernel reads back, but a block run again prints again.
  llvm::Instruction *Prints = nullptr;
};

/// Collects the global-memory accesses of F (after inlining, calls that
/// remain are summarised from their memory attributes).
AccessList collectAccesses(llvm::Function &F, llvm::ScalarEvolution &SE);

} // namespace gmem

#endif

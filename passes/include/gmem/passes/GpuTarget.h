//===- GpuTarget.h - Kernels and thread-geometry intrinsics -----*- C++ -*-===//
//
// Which functions of a module are GPU kernels, and what the thread-geometry
// intrinsics of NVPTX and AMDGPU mean in terms of launch dimensions.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_PASSES_GPUTARGET_H
#define GMEM_PASSES_GPUTARGET_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

#include <optional>
#include <string>

namespace gmem {

enum class GpuArch { None, NVPTX, AMDGPU };

GpuArch getGpuArch(const llvm::Module &M);
const char *gpuArchName(GpuArch A);

/// Kernels: `ptx_kernel` / `amdgpu_kernel` calling conventions, or NVPTX
/// `!nvvm.annotations` entries marked "kernel". Declarations are skipped, and
/// so are the preemptible clones `__gmem_pre_*` (CheckpointInserter.h): they
/// are copies of kernels, not kernels the analysis reports or describes.
llvm::SmallVector<llvm::Function *, 8> findKernels(llvm::Module &M);
bool isKernel(const llvm::Function &F);

/// What a thread-geometry value stands for.
enum class GeometryKind {
  ThreadIdx, ///< threadIdx.d in [0, blockDim.d)
  BlockIdx,  ///< blockIdx.d in [0, gridDim.d)
  BlockDim,  ///< blockDim.d
  GridDim,   ///< gridDim.d
  LaneId,    ///< lane within a warp/wavefront, [0, 64)
};
struct GeometryValue {
  GeometryKind Kind;
  unsigned Dim;
};

/// Recognises NVPTX sreg reads, AMDGPU workitem/workgroup ids, and AMDGPU
/// block/grid sizes read from the dispatch packet or implicit kernel args.
std::optional<GeometryValue> classifyGeometry(const llvm::Value *V);

/// A kernel parameter that is an aggregate passed by value: NVPTX's
/// `byval` pointer into the parameter space, AMDGPU's `byref` pointer into
/// the kernel-argument segment (constant address space). Its type (null
/// for other parameters).
llvm::Type *aggregateParamType(const llvm::Argument &A);
inline bool isAggregateParam(const llvm::Argument &A) { return aggregateParamType(A) != nullptr; }

/// A field of a by-value aggregate kernel parameter (a struct or a functor
/// such as a lambda with captures): a load at a constant offset from an
/// aggregate parameter (isAggregateParam) the kernel never writes. Its
/// value is part of the launch's argument bytes, so it is as
/// launch-invariant as a scalar.
struct ParamField {
  unsigned Param;
  unsigned Offset;
  unsigned Bytes;
  bool IsPointer;
};
std::optional<ParamField> matchParamField(const llvm::Value *V);

/// A simple load, at a constant offset, of a by-value aggregate kernel
/// parameter the kernel only reads (any type: a functor's float fields
/// too): part of the launch's argument bytes.
bool loadsAggregateParam(const llvm::Value *V);

/// Whether inline asm text can read or write global memory: any memory
/// instruction mnemonic counts (PTX: ld ldu st atom red tex tld4 suld sust
/// sured cp multimem ...; AMDGPU: *load* *store* *atomic* global_ flat_
/// buffer_ ...), except PTX ones that name another state space (.shared,
/// .local, .param, .const, and ldmatrix / stmatrix / mbarrier / wgmma,
/// which only work on shared memory), and on PTX any opcode it does not
/// know as register-only (a newer instruction counts as reading and
/// writing; wmma.load/store reach memory, wmma.mma does not). Sound: asm
/// reaches memory only through such instructions, and a state space fixes
/// where an address points.
struct AsmMemoryUse {
  bool Reads = false;
  bool Writes = false;
};
AsmMemoryUse scanAsmMemoryUse(llvm::StringRef Text, GpuArch Arch);

/// Whether PTX inline-asm Text has a load that may see other threads'
/// writes to global memory while the kernel runs: an `ld` of global or
/// generic memory that is not `.nc` (`ldu` and `ld.global.nc` are not).
bool asmHasCoherentGlobalLoad(llvm::StringRef Text);

/// The statements of PTX inline-asm Text, split at ';' and at line ends
/// (untrimmed: braces, labels, guards and comments stay for the caller).
llvm::SmallVector<llvm::StringRef, 16> ptxStatements(llvm::StringRef Text);

/// Calls F(Word, Op) for every word of PTX inline-asm Text that is not a
/// register (`%r1`, `$0`): Word a run of identifier characters, '.' and
/// ':' (`ld.shared::cluster.u32`), Op its part before the first '.'.
void forEachPtxWord(llvm::StringRef Text,
                    llvm::function_ref<void(llvm::StringRef Word, llvm::StringRef Op)> F);

/// A call that stops the kernel: PTX `trap` (CUDA's __trap() is inline asm
/// that the IR falls through), llvm.trap / llvm.ubsantrap, or CUDA's device
/// assert __assertfail, which "stops the kernel execution" (CUDA C++
/// Programming Guide, Assertion). Nothing after it runs, in that thread or
/// (the launch fails) any other.
bool stopsKernel(const llvm::CallBase &CB);

/// True for calls that touch no user-visible global memory (barriers,
/// fences, shuffles, geometry reads, math, debug, lifetime markers...).
bool isMemoryNeutralCall(const llvm::CallBase &CB);

/// An AMDGPU buffer, image or to-LDS intrinsic: memory reached through a
/// resource descriptor (or copied into LDS), whatever its attributes say.
bool isAMDGPUDescriptorAccess(const llvm::CallBase &CB);

/// Demangled name, and the plain name (no return type, no parameters).
std::string demangle(const std::string &Mangled);
std::string plainName(const std::string &Demangled);

} // namespace gmem

#endif

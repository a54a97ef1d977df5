//===- GpuTarget.cpp - Kernels and thread-geometry intrinsics -------------===//

#include "gmem/passes/GpuTarget.h"

#include "llvm/ADT/StringSet.h"
#include "gmem/passes/CheckpointInserter.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Operator.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace gmem {

GpuArch getGpuArch(const Module &M) {
  Triple T(M.getTargetTriple());
  if (T.isNVPTX())
    return GpuArch::NVPTX;
  if (T.isAMDGPU())
    return GpuArch::AMDGPU;
  return GpuArch::None;
}

const char *gpuArchName(GpuArch A) {
  switch (A) {
  case GpuArch::NVPTX:
    return "nvptx";
  case GpuArch::AMDGPU:
    return "amdgpu";
  case GpuArch::None:
    return "none";
  }
  return "none";
}

static bool hasNVVMKernelAnnotation(const Function &F) {
  const NamedMDNode *MD = F.getParent()->getNamedMetadata("nvvm.annotations");
  if (!MD)
    return false;
  for (const MDNode *Op : MD->operands()) {
    if (Op->getNumOperands() < 3)
      continue;
    auto *FnMD = dyn_cast_or_null<ValueAsMetadata>(Op->getOperand(0).get());
    if (!FnMD || FnMD->getValue() != &F)
      continue;
    for (unsigned I = 1; I + 1 < Op->getNumOperands(); I += 2) {
      auto *Key = dyn_cast_or_null<MDString>(Op->getOperand(I).get());
      if (!Key || Key->getString() != "kernel")
        continue;
      auto *Val = dyn_cast_or_null<ConstantAsMetadata>(Op->getOperand(I + 1).get());
      if (Val && !cast<ConstantInt>(Val->getValue())->isZero())
        return true;
    }
  }
  return false;
}

bool isKernel(const Function &F) {
  if (F.isDeclaration())
    return false;
  CallingConv::ID CC = F.getCallingConv();
  if (CC == CallingConv::PTX_Kernel || CC == CallingConv::AMDGPU_KERNEL)
    return true;
  return hasNVVMKernelAnnotation(F);
}

SmallVector<Function *, 8> findKernels(Module &M) {
  SmallVector<Function *, 8> Kernels;
  if (getGpuArch(M) == GpuArch::None)
    return Kernels; // host halves of CUDA/HIP compiles: nothing to do
  for (Function &F : M)
    if (isKernel(F) && !isCheckpointCloneName(F.getName())) // gmem's own clones
      Kernels.push_back(&F);
  return Kernels;
}

// AMDGPU launch sizes live in memory the dispatch provides: the HSA dispatch
// packet (workgroup_size_{x,y,z} as i16 at 4, 6, 8) and, in code object v5,
// the implicit kernel arguments (block_count_{x,y,z} as i32 at 0, 4, 8;
// group_size_{x,y,z} as i16 at 12, 14, 16).
static std::optional<GeometryValue> classifyAMDGPULoad(const LoadInst *LI) {
  const Value *Ptr = LI->getPointerOperand();
  int64_t Offset = 0;
  if (auto *GEP = dyn_cast<GEPOperator>(Ptr)) {
    APInt Off(64, 0);
    const DataLayout &DL = LI->getModule()->getDataLayout();
    if (!GEP->accumulateConstantOffset(DL, Off))
      return std::nullopt;
    Offset = Off.getSExtValue();
    Ptr = GEP->getPointerOperand();
  }
  auto *II = dyn_cast<IntrinsicInst>(Ptr->stripPointerCasts());
  if (!II)
    return std::nullopt;
  unsigned Bits = LI->getType()->getScalarSizeInBits();
  if (II->getIntrinsicID() == Intrinsic::amdgcn_dispatch_ptr && Bits == 16 && Offset >= 4 &&
      Offset <= 8 && Offset % 2 == 0)
    return GeometryValue{GeometryKind::BlockDim, unsigned(Offset - 4) / 2};
  // The implicit kernel arguments start with the block counts and the
  // block sizes only from code object v5 on; under v4 the same words are
  // the global offsets (HIP sets them to 0).
  auto *COV = mdconst::extract_or_null<ConstantInt>(
      LI->getModule()->getModuleFlag("amdhsa_code_object_version"));
  if (II->getIntrinsicID() == Intrinsic::amdgcn_implicitarg_ptr && COV &&
      COV->getZExtValue() >= 500) {
    if (Bits == 32 && Offset >= 0 && Offset <= 8 && Offset % 4 == 0)
      return GeometryValue{GeometryKind::GridDim, unsigned(Offset) / 4};
    if (Bits == 16 && Offset >= 12 && Offset <= 16 && Offset % 2 == 0)
      return GeometryValue{GeometryKind::BlockDim, unsigned(Offset - 12) / 2};
  }
  return std::nullopt;
}

std::optional<GeometryValue> classifyGeometry(const Value *V) {
  if (auto *LI = dyn_cast<LoadInst>(V))
    return classifyAMDGPULoad(LI);
  auto *CB = dyn_cast<CallBase>(V);
  if (!CB || !CB->getCalledFunction())
    return std::nullopt;
  const Function *Callee = CB->getCalledFunction();
  using GK = GeometryKind;
  switch (Callee->getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x: return GeometryValue{GK::ThreadIdx, 0};
  case Intrinsic::nvvm_read_ptx_sreg_tid_y: return GeometryValue{GK::ThreadIdx, 1};
  case Intrinsic::nvvm_read_ptx_sreg_tid_z: return GeometryValue{GK::ThreadIdx, 2};
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x: return GeometryValue{GK::BlockIdx, 0};
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y: return GeometryValue{GK::BlockIdx, 1};
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z: return GeometryValue{GK::BlockIdx, 2};
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x: return GeometryValue{GK::BlockDim, 0};
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y: return GeometryValue{GK::BlockDim, 1};
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z: return GeometryValue{GK::BlockDim, 2};
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x: return GeometryValue{GK::GridDim, 0};
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y: return GeometryValue{GK::GridDim, 1};
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z: return GeometryValue{GK::GridDim, 2};
  case Intrinsic::nvvm_read_ptx_sreg_laneid: return GeometryValue{GK::LaneId, 0};
  case Intrinsic::amdgcn_workitem_id_x: return GeometryValue{GK::ThreadIdx, 0};
  case Intrinsic::amdgcn_workitem_id_y: return GeometryValue{GK::ThreadIdx, 1};
  case Intrinsic::amdgcn_workitem_id_z: return GeometryValue{GK::ThreadIdx, 2};
  case Intrinsic::amdgcn_workgroup_id_x: return GeometryValue{GK::BlockIdx, 0};
  case Intrinsic::amdgcn_workgroup_id_y: return GeometryValue{GK::BlockIdx, 1};
  case Intrinsic::amdgcn_workgroup_id_z: return GeometryValue{GK::BlockIdx, 2};
  default: break;
  }
  // ROCm device-library entry points, when the library is not linked in.
  if (CB->arg_size() == 1) {
    auto *D = dyn_cast<ConstantInt>(CB->getArgOperand(0));
    if (D && D->getZExtValue() < 3) {
      unsigned Dim = unsigned(D->getZExtValue());
      auto Kind = StringSwitch<std::optional<GK>>(Callee->getName())
                      .Case("__ockl_get_local_id", GK::ThreadIdx)
                      .Case("__ockl_get_group_id", GK::BlockIdx)
                      .Case("__ockl_get_local_size", GK::BlockDim)
                      .Case("__ockl_get_num_groups", GK::GridDim)
                      .Default(std::nullopt);
      if (Kind)
        return GeometryValue{*Kind, Dim};
    }
  }
  return std::nullopt;
}

Type *aggregateParamType(const Argument &A) {
  if (A.hasByValAttr())
    return A.getParamByValType();
  if (A.hasByRefAttr() && isKernel(*A.getParent()))
    return A.getParamByRefType();
  return nullptr;
}

/// Every use of the by-value parameter only reads it (through GEPs).
static bool isReadOnlyAggregate(const Argument &A) {
  if (!isAggregateParam(A))
    return false;
  if (A.onlyReadsMemory())
    return true;
  SmallVector<const Value *, 8> Work{&A};
  unsigned Budget = 256;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      if (!Budget--)
        return false;
      if (isa<GetElementPtrInst>(U) || isa<BitCastInst>(U) || isa<AddrSpaceCastInst>(U))
        Work.push_back(U);
      else if (auto *LI = dyn_cast<LoadInst>(U); !LI || LI->getPointerOperand() != V)
        return false;
    }
  }
  return true;
}

std::optional<ParamField> matchParamField(const Value *V) {
  auto *LI = dyn_cast<LoadInst>(V);
  if (!LI || LI->isVolatile())
    return std::nullopt;
  Type *T = LI->getType();
  if (!T->isIntegerTy() && !T->isPointerTy())
    return std::nullopt;
  const DataLayout &DL = LI->getModule()->getDataLayout();
  APInt Off(64, 0);
  const Value *Base = LI->getPointerOperand()->stripAndAccumulateConstantOffsets(
      DL, Off, /*AllowNonInbounds=*/true);
  auto *A = dyn_cast<Argument>(Base);
  if (!A || !isKernel(*A->getParent()) || !isReadOnlyAggregate(*A))
    return std::nullopt;
  uint64_t Bytes = DL.getTypeStoreSize(T).getFixedValue();
  uint64_t Size = DL.getTypeAllocSize(aggregateParamType(*A)).getFixedValue();
  if (Off.isNegative() || Off.getZExtValue() + Bytes > Size || Off.getZExtValue() > 0x3fff ||
      A->getArgNo() > 255 || (Bytes != 1 && Bytes != 2 && Bytes != 4 && Bytes != 8))
    return std::nullopt;
  return ParamField{A->getArgNo(), unsigned(Off.getZExtValue()), unsigned(Bytes),
                    T->isPointerTy()};
}

bool loadsAggregateParam(const Value *V) {
  auto *LI = dyn_cast<LoadInst>(V);
  if (!LI || !LI->isSimple())
    return false;
  const DataLayout &DL = LI->getModule()->getDataLayout();
  APInt Off(64, 0);
  const Value *Base = LI->getPointerOperand()->stripAndAccumulateConstantOffsets(
      DL, Off, /*AllowNonInbounds=*/true);
  auto *A = dyn_cast<Argument>(Base);
  return A && isKernel(*A->getParent()) && isReadOnlyAggregate(*A);
}

bool isAMDGPUDescriptorAccess(const CallBase &CB) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee || !Callee->isIntrinsic())
    return false;
  StringRef Name = Callee->getName();
  return Name.starts_with("llvm.amdgcn.") &&
         (Name.contains("buffer") || Name.contains("image") || Name.contains(".lds"));
}

bool stopsKernel(const CallBase &CB) {
  if (auto *IA = dyn_cast<InlineAsm>(CB.getCalledOperand())) {
    StringRef T = StringRef(IA->getAsmString()).trim();
    return T == "trap;" || T == "trap";
  }
  const Function *Fn = CB.getCalledFunction();
  return Fn && (Fn->getIntrinsicID() == Intrinsic::trap ||
                Fn->getIntrinsicID() == Intrinsic::ubsantrap || Fn->getName() == "__assertfail");
}

bool isMemoryNeutralCall(const CallBase &CB) {
  // Memory reached through a resource descriptor: LLVM 19 marks some of
  // these memory(none) (s.buffer.load), so no attribute is trusted.
  if (isAMDGPUDescriptorAccess(CB))
    return false;
  if (CB.doesNotAccessMemory() || CB.onlyAccessesInaccessibleMemory())
    return true;
  if (classifyGeometry(&CB))
    return true;
  // libdevice's compile-time query; resolved by the NVPTX backend.
  if (const Function *Callee = CB.getCalledFunction())
    if (Callee->getName() == "__nvvm_reflect")
      return true;
  if (auto *II = dyn_cast<IntrinsicInst>(&CB)) {
    if (II->isAssumeLikeIntrinsic() || isa<DbgInfoIntrinsic>(II))
      return true;
    switch (II->getIntrinsicID()) {
    case Intrinsic::lifetime_start:
    case Intrinsic::lifetime_end:
    case Intrinsic::nvvm_barrier0:
    case Intrinsic::nvvm_barrier0_and:
    case Intrinsic::nvvm_barrier0_or:
    case Intrinsic::nvvm_barrier0_popc:
    case Intrinsic::nvvm_bar_warp_sync:
    case Intrinsic::nvvm_barrier_sync:
    case Intrinsic::nvvm_barrier_sync_cnt:
    case Intrinsic::nvvm_membar_cta:
    case Intrinsic::nvvm_membar_gl:
    case Intrinsic::nvvm_membar_sys:
    // Completion of the thread's own cp.async copies (shared memory only;
    // the copies' global reads are AsmMemoryAccesses.cpp's).
    case Intrinsic::nvvm_cp_async_commit_group:
    case Intrinsic::nvvm_cp_async_wait_group:
    case Intrinsic::nvvm_cp_async_wait_all:
    case Intrinsic::nvvm_cp_async_mbarrier_arrive:
    case Intrinsic::nvvm_cp_async_mbarrier_arrive_shared:
    case Intrinsic::nvvm_cp_async_mbarrier_arrive_noinc:
    case Intrinsic::nvvm_cp_async_mbarrier_arrive_noinc_shared:
    case Intrinsic::amdgcn_s_barrier:
    // Scheduling and waiting: LLVM 19 gives these no memory attribute (they
    // have side effects), but they touch no memory. s_sleep is the backoff
    // of every AMD spin loop; as "any memory" it made a plain copy kernel
    // unknown (a blind run over HIP code, session 46).
    case Intrinsic::amdgcn_s_sleep:
    case Intrinsic::amdgcn_s_sleep_var:
    case Intrinsic::amdgcn_s_nop:
    case Intrinsic::amdgcn_s_setprio:
    case Intrinsic::amdgcn_s_waitcnt:
    case Intrinsic::amdgcn_wave_barrier:
    case Intrinsic::amdgcn_sched_barrier:
    case Intrinsic::amdgcn_sched_group_barrier:
    case Intrinsic::amdgcn_iglp_opt:
    // Time reads: memory-neutral too (what they return is
    // NondeterministicOutput.cpp's business). wall_clock64() on AMDGPU is
    // readsteadycounter, and a copy behind a wall-clock wait was unknown.
    case Intrinsic::readcyclecounter:
    case Intrinsic::readsteadycounter:
    case Intrinsic::amdgcn_s_memtime:
    case Intrinsic::amdgcn_s_memrealtime:
    case Intrinsic::amdgcn_dispatch_ptr:
    case Intrinsic::amdgcn_implicitarg_ptr:
    case Intrinsic::amdgcn_kernarg_segment_ptr:
      return true;
    default:
      break;
    }
  }
  return false;
}

SmallVector<StringRef, 16> ptxStatements(StringRef Text) {
  SmallVector<StringRef, 16> Out;
  SmallVector<StringRef, 8> Statements;
  Text.split(Statements, ';');
  for (StringRef Line : Statements) {
    SmallVector<StringRef, 4> Parts;
    Line.split(Parts, '\n');
    Out.append(Parts.begin(), Parts.end());
  }
  return Out;
}

void forEachPtxWord(StringRef Text, function_ref<void(StringRef Word, StringRef Op)> F) {
  size_t I = 0;
  while (I < Text.size()) {
    char C = Text[I];
    if (!(isAlnum(C) || C == '_' || C == '.')) {
      ++I;
      continue;
    }
    size_t J = I;
    while (J < Text.size() && (isAlnum(Text[J]) || Text[J] == '_' || Text[J] == '.' ||
                               Text[J] == ':'))
      ++J;
    bool Register = I > 0 && (Text[I - 1] == '%' || Text[I - 1] == '$');
    StringRef Word = Text.slice(I, J), Op = Word.split('.').first;
    I = J;
    if (!Register && !Op.empty())
      F(Word, Op);
  }
}

namespace {
/// Whether the PTX memory instruction \p Word (opcode \p Op) names a state
/// space other than global memory: its address is read in that space
/// whatever value the register holds. Generic addressing (no state space)
/// may reach global memory.
bool outsideGlobalMemory(StringRef Word, StringRef Op) {
  // Shared memory only, by definition of the instruction: matrix loads and
  // stores, mbarrier objects, warpgroup MMA operand descriptors.
  if (Op == "ldmatrix" || Op == "stmatrix" || Op == "mbarrier" || Op == "wgmma")
    return true;
  SmallVector<StringRef, 8> Parts;
  Word.split(Parts, '.');
  bool Other = false;
  for (StringRef Q : ArrayRef<StringRef>(Parts).drop_front()) {
    if (Q == "global")
      return false; // cp.async.*.shared.global and the like read global memory
    Other |= Q.starts_with("shared") || Q == "local" || Q == "param" || Q == "const";
  }
  return Other;
}
} // namespace

AsmMemoryUse scanAsmMemoryUse(StringRef Text, GpuArch Arch) {
  AsmMemoryUse U;
  if (Arch != GpuArch::NVPTX) {
    // AMDGPU and anything else: any token naming a memory operation.
    std::string Lower = Text.lower();
    for (const char *K : {"load", "store", "atomic", "global_", "flat_", "buffer_", "scratch_",
                          "ds_", "image_", "tbuffer_", "s_dcache", "gws"})
      if (StringRef(Lower).contains(K))
        U.Reads = U.Writes = true;
    return U;
  }
  // PTX: each statement's opcode (the first word after a label or guard),
  // Op its part before the first '.'. The memory instructions below reach
  // memory; the register-only opcodes after them do not; any other opcode
  // (one this list does not know: a newer instruction, a typo) counts as
  // reading and writing, so an instruction missing from the lists costs
  // precision, not soundness (wmma.load/store were missed that way).
  // A `call` in the text runs a function the asm does not show: anything.
  static const char *ReadOps[] = {"ld",  "ldu",      "tex",      "tld4", "suld",   "atom",
                                  "red", "cp",       "multimem", "ldmatrix", "wgmma", "mbarrier",
                                  "prefetch", "prefetchu", "applypriority", "call"};
  static const char *WriteOps[] = {"st",       "atom",      "red",    "sust",     "sured",
                                   "cp",       "multimem",  "discard", "stmatrix", "tensormap",
                                   "mbarrier", "wgmma",     "call"};
  static const StringSet<> RegisterOnly = {
      "add", "sub", "mul", "mad", "mul24", "mad24", "sad", "div", "rem", "abs", "neg", "min",
      "max", "popc", "clz", "bfind", "fns", "brev", "bfe", "bfi", "bmsk", "szext", "dp4a",
      "dp2a", "copysign", "testp", "fma", "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2",
      "tanh", "set", "setp", "selp", "slct", "and", "or", "xor", "not", "cnot", "lop3", "shf",
      "shl", "shr", "mov", "shfl", "prmt", "cvt", "cvta", "isspacep", "istypep", "bra", "brx",
      "ret", "exit", "bar", "barrier", "membar", "fence", "vote", "match", "activemask",
      "redux", "nanosleep", "pmevent", "trap", "brkpt", "elect", "griddepcontrol",
      "setmaxnreg", "mapa", "getctarank", "mma", "movmatrix", "addc", "subc", "madc",
      "createpolicy", "suq", "txq", "vabsdiff", "vadd", "vsub", "vmin", "vmax", "vshl", "vshr",
      "vmad", "vset", "vabsdiff2", "vadd2", "vsub2", "vavrg2", "vmin2", "vmax2", "vset2",
      "vabsdiff4", "vadd4", "vsub4", "vavrg4", "vmin4", "vmax4", "vset4"};
  for (StringRef S : ptxStatements(Text)) {
    S = S.trim();
    // Braces of a block, labels, a guard, comments, directives.
    for (bool More = true; More && !S.empty();) {
      More = false;
      if (S.front() == '{' || S.front() == '}') {
        S = S.drop_front().trim();
        More = true;
      } else if (S.front() == '@') {
        S = S.drop_until([](char C) { return isSpace(C); }).trim();
        More = true;
      } else {
        size_t Colon = S.find(':');
        StringRef Label = Colon == StringRef::npos ? StringRef() : S.take_front(Colon);
        if (!Label.empty() && llvm::all_of(Label, [](char C) {
              return isAlnum(C) || C == '_' || C == '$';
            }) && (Colon + 1 == S.size() || S[Colon + 1] != ':')) {
          S = S.drop_front(Colon + 1).trim();
          More = true;
        }
      }
    }
    if (S.empty() || S.starts_with("//") || S.starts_with(".") || S.starts_with("}"))
      continue;
    StringRef Word = S.take_until([](char C) { return isSpace(C) || C == '{' || C == ','; });
    StringRef Op = Word.split('.').first;
    bool Reads = false, Writes = false;
    for (const char *R : ReadOps)
      Reads |= Op == R;
    for (const char *W : WriteOps)
      Writes |= Op == W;
    if (Op == "wmma") { // wmma.load and wmma.store reach memory, wmma.mma does not
      Reads = Word.starts_with("wmma.load");
      Writes = Word.starts_with("wmma.store");
    } else if (!Reads && !Writes && !RegisterOnly.contains(Op)) {
      Reads = Writes = true;
    }
    if ((Reads || Writes) && outsideGlobalMemory(Word, Op))
      continue;
    U.Reads |= Reads;
    U.Writes |= Writes;
  }
  return U;
}

bool asmHasCoherentGlobalLoad(StringRef Text) {
  bool Found = false;
  forEachPtxWord(Text, [&](StringRef Word, StringRef Op) {
    // ld.global.nc and ldu read through the non-coherent path: they cannot
    // be relied on to see another CTA's write while the kernel runs.
    if (Op == "ld" && !outsideGlobalMemory(Word, Op) && !Word.contains(".nc"))
      Found = true;
  });
  return Found;
}

std::string demangle(const std::string &Mangled) { return llvm::demangle(Mangled); }

std::string plainName(const std::string &Demangled) {
  // Strip the parameter list: the last top-level '(' ... ')'.
  std::string S = Demangled;
  int Depth = 0;
  size_t Paren = std::string::npos;
  for (size_t I = S.size(); I-- > 0;) {
    char C = S[I];
    if (C == ')' || C == '>')
      ++Depth;
    else if (C == '(' || C == '<') {
      if (--Depth == 0 && C == '(') {
        Paren = I;
        break;
      }
    }
  }
  if (Paren != std::string::npos)
    S = S.substr(0, Paren);
  // Strip a return type ("void foo<1>" for templates): the last top-level space.
  Depth = 0;
  for (size_t I = S.size(); I-- > 0;) {
    char C = S[I];
    if (C == '>' || C == ')')
      ++Depth;
    else if (C == '<' || C == '(')
      --Depth;
    else if (C == ' ' && Depth == 0)
      return S.substr(I + 1);
  }
  return S;
}

} // namespace gmem

//===- CheckpointPersistentSafety.cpp - When a clone may be persistent ---===//
//
// A persistent clone runs the kernel body many times per CTA, and a thread
// that returned early waits at the end-of-virtual-CTA barrier. That is safe
// only where no barrier or warp collective is control dependent on a
// divergent branch (UniformityInfo with the pass's CTA-level rules), nothing
// but the kernel's own %ctaid/%nctaid reads learns the CTA's identity (the
// loop rewrites those), and there are no dynamic allocas. This file decides;
// CheckpointPersistent.cpp builds the loop.
//
//===----------------------------------------------------------------------===//

#include "CheckpointInternal.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/TargetTransformInfoImpl.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"

#include <optional>

using namespace llvm;

namespace gmem::ckpt {

namespace {


/// Other special registers that name the CTA or its grid and that no
/// rewrite covers.
bool namesCtaOtherwise(Intrinsic::ID Id) {
  switch (Id) {
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_w:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_w:
  case Intrinsic::nvvm_read_ptx_sreg_gridid:
  case Intrinsic::nvvm_read_ptx_sreg_clusterid_x:
  case Intrinsic::nvvm_read_ptx_sreg_clusterid_y:
  case Intrinsic::nvvm_read_ptx_sreg_clusterid_z:
  case Intrinsic::nvvm_read_ptx_sreg_clusterid_w:
  case Intrinsic::nvvm_read_ptx_sreg_nclusterid_x:
  case Intrinsic::nvvm_read_ptx_sreg_nclusterid_y:
  case Intrinsic::nvvm_read_ptx_sreg_nclusterid_z:
  case Intrinsic::nvvm_read_ptx_sreg_nclusterid_w:
  case Intrinsic::nvvm_read_ptx_sreg_cluster_ctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_cluster_ctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_cluster_ctaid_z:
  case Intrinsic::nvvm_read_ptx_sreg_cluster_ctaid_w:
  case Intrinsic::nvvm_read_ptx_sreg_cluster_nctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_cluster_nctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_cluster_nctaid_z:
  case Intrinsic::nvvm_read_ptx_sreg_cluster_nctaid_w:
  case Intrinsic::nvvm_read_ptx_sreg_cluster_ctarank:
  case Intrinsic::nvvm_read_ptx_sreg_cluster_nctarank:
    return true;
  default:
    return false;
  }
}

bool asmNamesCta(const InlineAsm &IA) {
  StringRef S = IA.getAsmString();
  return S.contains("ctaid") || S.contains("cluster") || S.contains("gridid");
}

/// Why F (a kernel when IsKernel, else a function it calls) learns its
/// CTA's identity in a way the rewrite does not cover; "" when it does not.
std::string geometryBlocker(const Function &F, bool IsKernel,
                            SmallPtrSetImpl<const Function *> &Seen) {
  if (!Seen.insert(&F).second)
    return "";
  for (const Instruction &I : instructions(F)) {
    const auto *CB = dyn_cast<CallBase>(&I);
    if (!CB)
      continue;
    if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand())) {
      if (asmNamesCta(*IA))
        return "inline asm reads the CTA's identity";
      continue;
    }
    const Function *Callee = CB->getCalledFunction();
    if (!Callee)
      return "indirect call";
    if (Callee->isIntrinsic()) {
      bool IsCount;
      if (namesCtaOtherwise(Callee->getIntrinsicID()))
        return "reads a cluster or grid special register";
      if (!IsKernel && gridAxis(Callee->getIntrinsicID(), IsCount) >= 0)
        return "device function " + F.getName().str() + " reads blockIdx/gridDim";
      continue;
    }
    if (Callee->isDeclaration())
      continue; // external: classifySync already calls it opaque if it matters
    std::string Why = geometryBlocker(*Callee, /*IsKernel=*/false, Seen);
    if (!Why.empty())
      return Why;
  }
  return "";
}

/// Where values start to differ between the threads of a CTA, for
/// UniformityInfo. LLVM 19's NVPTX rules call every call divergent, blockDim
/// and blockIdx included, which would put every `for (s = blockDim.x / 2;
/// ...) { ...; __syncthreads(); }` under "divergent" control. These rules
/// are CTA-level: thread and lane ids, clocks, atomics, volatile and
/// per-thread memory, warp collectives and any call the pass cannot see
/// into differ; kernel parameters, grid and block geometry, CTA-wide
/// barrier reductions and plain loads of shared or global memory at a
/// uniform address do not (a race-free kernel cannot see another thread's
/// store there without a barrier in between).
struct CtaDivergence : TargetTransformInfoImplCRTPBase<CtaDivergence> {
  explicit CtaDivergence(const DataLayout &DL) : TargetTransformInfoImplCRTPBase(DL) {}

  bool hasBranchDivergence(const Function * = nullptr) const { return true; }
  bool isAlwaysUniform(const Value *) const { return false; }

  static bool uniformIntrinsic(Intrinsic::ID Id) {
    switch (Id) {
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
    case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
    case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
    case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
    case Intrinsic::nvvm_read_ptx_sreg_nsmid:
    case Intrinsic::nvvm_read_ptx_sreg_warpsize:
    case Intrinsic::nvvm_barrier0_or:
    case Intrinsic::nvvm_barrier0_and:
    case Intrinsic::nvvm_barrier0_popc:
      return true;
    default:
      return false;
    }
  }

  /// Memory every thread of the CTA sees alike: global, shared, constant,
  /// or generic memory reached from a kernel parameter or a global.
  static bool sharedMemory(const Value *Ptr) {
    unsigned AS = Ptr->getType()->getPointerAddressSpace();
    if (AS == 1 || AS == 3 || AS == 4)
      return true;
    if (AS != 0)
      return false;
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(Ptr, Objects);
    for (const Value *O : Objects)
      if (!isa<Argument>(O) && !isa<GlobalVariable>(O))
        return false;
    return !Objects.empty();
  }

  bool isSourceOfDivergence(const Value *V) const {
    if (isa<Argument>(V))
      return false; // only kernels are asked about: their parameters are uniform
    const auto *I = dyn_cast<Instruction>(V);
    if (!I)
      return false;
    if (const auto *LI = dyn_cast<LoadInst>(I))
      return LI->isVolatile() || LI->isAtomic() || !sharedMemory(LI->getPointerOperand());
    if (I->isAtomic() || isa<AllocaInst>(I))
      return true;
    if (const auto *CB = dyn_cast<CallBase>(I)) {
      const Function *F = CB->getCalledFunction();
      if (!F || !F->isIntrinsic())
        return true;
      if (uniformIntrinsic(F->getIntrinsicID()))
        return false;
      // Other target intrinsics (thread ids, clocks, shuffles, votes,
      // atomics, ...) differ per thread; generic ones (min, ctlz, fma, ...)
      // are as uniform as their operands, unless they touch memory.
      if (F->getName().starts_with("llvm.nvvm.") || F->getName().starts_with("llvm.amdgcn."))
        return true;
      return !CB->doesNotAccessMemory();
    }
    return false;
  }
};

/// CTA-level UniformityInfo of K, with CtaDivergence as its "target": a
/// private analysis manager, so that the pipeline's own TTI stays NVPTX's.
struct CtaUniformity {
  FunctionAnalysisManager Local;
  UniformityInfo *UI = nullptr;
  const CycleInfo *Cycles = nullptr;
  explicit CtaUniformity(Function &K) {
    const DataLayout &DL = K.getParent()->getDataLayout();
    Local.registerPass([&DL] {
      return TargetIRAnalysis(
          [&DL](const Function &) { return TargetTransformInfo(CtaDivergence(DL)); });
    });
    Local.registerPass([] { return DominatorTreeAnalysis(); });
    Local.registerPass([] { return CycleAnalysis(); });
    Local.registerPass([] { return UniformityInfoAnalysis(); });
    Local.registerPass([] { return PassInstrumentationAnalysis(); });
    UI = &Local.getResult<UniformityInfoAnalysis>(K);
    Cycles = &Local.getResult<CycleAnalysis>(K);
  }
};

} // namespace

struct CtaUniformValues::Impl {
  CtaUniformity U;
  explicit Impl(Function &F) : U(F) {}
};

CtaUniformValues::CtaUniformValues(Function &F) : P(std::make_unique<Impl>(F)) {}
CtaUniformValues::~CtaUniformValues() = default;

bool CtaUniformValues::isUniform(const Value *V) const {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  return I && P->U.UI->isUniform(I);
}

namespace {

/// Calls Visit on every block the branch ending A decides whether a thread
/// reaches: each block on a path from A's successors to A's immediate
/// post-dominator (the blocks control dependent on A, and those control
/// dependent on them in turn: `if (i >= n) return; if (flag)
/// __syncthreads();`). Visit returns false to stop. Returns false where A
/// or a successor never reaches a return (no post-dominator to stop at).
template <class VisitFn>
bool forEachDecidedBlock(BasicBlock &A, const PostDominatorTree &PDT, VisitFn Visit) {
  if (!PDT.getNode(&A))
    return false;
  const DomTreeNode *StopNode = PDT.getNode(&A)->getIDom();
  const BasicBlock *Stop = StopNode ? StopNode->getBlock() : nullptr; // null: the exits
  SmallPtrSet<BasicBlock *, 32> Region;
  SmallVector<BasicBlock *, 32> Work;
  for (BasicBlock *S : successors(&A)) {
    if (!PDT.getNode(S))
      return false;
    if (S != Stop && Region.insert(S).second)
      Work.push_back(S);
  }
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (!Visit(*BB))
      return true;
    for (BasicBlock *Next : successors(BB))
      if (Next != Stop && Region.insert(Next).second)
        Work.push_back(Next);
  }
  return true;
}

} // namespace

std::string persistentBlocker(Function &K, GpuArch Arch, const SyncSummary &Sync,
                              FunctionAnalysisManager &FAM, bool &NeedsWarpAlignedBlock) {
  NeedsWarpAlignedBlock = false;
  if (envSaysOff("GMEM_CHECKPOINT_PERSISTENT"))
    return "GMEM_CHECKPOINT_PERSISTENT=0";
  if (Arch != GpuArch::NVPTX)
    return "persistent clones are built for NVPTX only";
  if (Sync.Opaque || Sync.Unsupported)
    return "calls code the pass cannot see into";
  for (Instruction &I : instructions(K))
    if (auto *AI = dyn_cast<AllocaInst>(&I);
        AI && (!AI->isStaticAlloca() || AI->getParent() != &K.getEntryBlock()))
      return "dynamic alloca";
  SmallPtrSet<const Function *, 8> Seen;
  std::string Why = geometryBlocker(K, /*IsKernel=*/true, Seen);
  if (!Why.empty())
    return Why;

  const PostDominatorTree &PDT = FAM.getResult<PostDominatorTreeAnalysis>(K);
  CtaUniformity U(K);
  UniformityInfo &UI = *U.UI;
  const CycleInfo &Cycles = *U.Cycles;
  const bool WarpAligned = !envSaysOff("GMEM_CHECKPOINT_WARP_ALIGNED");

  // A thread that returns early now waits at the end-of-CTA barrier instead
  // of exiting. Sound only if every synchronisation runs in all threads or in
  // none: nothing that synchronises may lie where a divergent branch decides
  // whether a thread gets there. That is every block on a path from A's
  // successors to A's immediate post-dominator: the blocks control dependent
  // on A, and those control dependent on them in turn (`if (i >= n) return;
  // if (flag) __syncthreads();`: the barrier's block does not post-dominate
  // A's successor, yet the threads that returned never reach it). A warp
  // collective needs only its own warp: a branch that whole warps take alike
  // is fine for it, given the launch condition (CheckpointWarpUniform.cpp).
  for (BasicBlock &A : K) {
    if (!UI.hasDivergentTerminator(A))
      continue;
    std::optional<bool> WarpUniform; // asked once, at A's first collective
    std::string Why;
    bool Whole = forEachDecidedBlock(A, PDT, [&](BasicBlock &BB) {
      for (Instruction &I : BB) {
        const SyncKind Kind = classifySync(I, Arch);
        if (Kind == SyncKind::None)
          continue;
        if (Kind != SyncKind::Collective) {
          Why = "a barrier or warp collective depends on a thread-dependent branch or an "
                "early return";
          return false;
        }
        if (!WarpUniform)
          WarpUniform = WarpAligned && branchWarpUniform(*A.getTerminator(), UI, Cycles);
        if (!*WarpUniform) {
          Why = WarpAligned ? "a warp collective depends on a branch that lanes of one warp "
                              "may take differently"
                            : "a barrier or warp collective depends on a thread-dependent "
                              "branch or an early return (GMEM_CHECKPOINT_WARP_ALIGNED=0)";
          return false;
        }
        NeedsWarpAlignedBlock = true;
      }
      return true;
    });
    if (!Whole)
      return "a block that never reaches a return";
    if (!Why.empty())
      return Why;
  }
  return "";
}

/// Whether V is, or is a constant expression built on, a shared-memory
/// global (static or dynamic `extern __shared__`).
static bool mentionsSharedGlobal(const Value *V, SmallPtrSetImpl<const Value *> &Seen) {
  if (!Seen.insert(V).second)
    return false;
  if (auto *GV = dyn_cast<GlobalVariable>(V))
    return GV->getAddressSpace() == 3;
  if (auto *CE = dyn_cast<ConstantExpr>(V))
    return any_of(CE->operands(), [&](const Use &U) { return mentionsSharedGlobal(U, Seen); });
  return false;
}

/// PTX opcodes that compute on registers and immediates only: no memory,
/// no barrier or collective, no special register of their own.
static bool isRegisterArithmetic(StringRef Op) {
  static const StringSet<> Ops = {
      "add",  "sub",  "mul",   "mad",   "mul24", "mad24", "sad",  "div",  "rem",  "abs",
      "neg",  "min",  "max",   "popc",  "clz",   "bfind", "fns",  "brev", "bfe",  "bfi",
      "dp4a", "dp2a", "copysign", "fma", "rcp",  "sqrt",  "rsqrt", "sin", "cos",  "lg2",
      "ex2",  "tanh", "testp", "set",   "setp",  "selp",  "slct", "and",  "or",   "xor",
      "not",  "cnot", "lop3",  "shf",   "shl",   "shr",   "prmt", "cvt",  "mov",  "addc",
      "subc", "madc"};
  return Ops.contains(Op);
}

/// Whether inline asm only computes on registers: not volatile, no memory
/// operand or clobber, and every PTX statement register arithmetic whose
/// operands are the asm's own ($N), immediates, or registers it declares
/// itself (a special register such as %laneid or %clock, a symbol, an
/// address in brackets: not). Such asm (CUDA's tanhf `rcp.approx.ftz.f32`,
/// cuda_fp16.h's conversions) can neither share nor synchronise anything.
/// The text is read by an allowlist: what it does not know is not pure.
bool registerOnlyAsm(const InlineAsm &IA) {
  if (IA.hasSideEffects())
    return false;
  for (const InlineAsm::ConstraintInfo &CI : IA.ParseConstraints()) {
    if (CI.isIndirect)
      return false;
    if (CI.Type == InlineAsm::isClobber)
      for (const std::string &Code : CI.Codes)
        if (StringRef(Code).contains("memory"))
          return false;
  }
  SmallVector<StringRef, 8> Statements;
  StringRef(IA.getAsmString()).split(Statements, ';');
  SmallVector<StringRef, 8> Locals, LocalRanges; // `.reg .b32 a, %r<4>;`
  auto IsSpace = [](char C) { return C == ' ' || C == '\t' || C == '\n' || C == '\r'; };
  auto Tokens = [](StringRef S, SmallVectorImpl<StringRef> &Out) {
    SmallVector<StringRef, 8> Raw;
    S.split(Raw, ',');
    for (StringRef R : Raw) {
      SmallVector<StringRef, 4> Parts;
      R.split(Parts, ' ', -1, false);
      for (StringRef P : Parts) {
        P = P.trim(" \t\n\r{}|!");
        // `p|q` (setp's two results) and `{a, b}` (a vector): each name.
        SmallVector<StringRef, 2> Sub;
        P.split(Sub, '|', -1, false);
        for (StringRef T : Sub)
          if (!T.trim(" \t\n\r{}!").empty())
            Out.push_back(T.trim(" \t\n\r{}!"));
      }
    }
  };
  auto IsLocal = [&](StringRef T) {
    if (is_contained(Locals, T))
      return true;
    for (StringRef Prefix : LocalRanges)
      if (T.starts_with(Prefix) && T.size() > Prefix.size() &&
          all_of(T.drop_front(Prefix.size()), isDigit))
        return true;
    return false;
  };
  auto IsImmediate = [](StringRef T) {
    T.consume_front("-");
    return !T.empty() && isDigit(T[0]) && all_of(T, [](char C) { return isAlnum(C) || C == '.'; });
  };
  for (StringRef S : Statements) {
    S = S.trim(" \t\n\r{}");
    if (S.empty())
      continue;
    if (S.starts_with(".reg")) {
      SmallVector<StringRef, 4> Names;
      // `.reg .TYPE NAME, NAME<N>`: the names follow the type.
      StringRef Rest = S.drop_front(4).ltrim(" \t\n\r");
      if (!Rest.consume_front("."))
        return false;
      Rest = Rest.drop_until(IsSpace);
      Tokens(Rest, Names);
      for (StringRef N : Names) {
        if (N.ends_with(">")) {
          LocalRanges.push_back(N.take_until([](char C) { return C == '<'; }));
        } else {
          Locals.push_back(N);
        }
      }
      continue;
    }
    SmallVector<StringRef, 8> Operands;
    if (S.starts_with("@")) { // a guard: `@p` or `@!p`
      StringRef Guard = S.take_until(IsSpace).drop_front(1);
      Guard.consume_front("!");
      if (!(Guard.starts_with("$") || IsLocal(Guard)))
        return false;
      S = S.drop_until(IsSpace).ltrim(" \t\n\r");
    }
    StringRef Opcode = S.take_until(IsSpace);
    if (!isRegisterArithmetic(Opcode.split('.').first))
      return false;
    StringRef Rest = S.drop_front(Opcode.size());
    if (Rest.contains('[') || Rest.contains('{') != Rest.contains('}'))
      return false;
    Tokens(Rest, Operands);
    for (StringRef T : Operands) {
      bool Ok = (T.size() > 1 && T[0] == '$' && all_of(T.drop_front(), isDigit)) || T == "_" ||
                IsImmediate(T) || IsLocal(T);
      if (!Ok)
        return false;
    }
  }
  return true;
}

/// A free clone's threads run different virtual CTAs at the same time, so
/// nothing in the body may make threads of a CTA meet or share: no barrier
/// or warp collective (a warp's lanes may be on different virtual CTAs
/// after a stop), no shared memory (its contents belong to one CTA), and no
/// inline asm but register arithmetic (registerOnlyAsm). Functions K calls
/// are looked at too.
std::string sharedMemoryBlocker(Function &K) {
  SmallVector<const Function *, 8> Work{&K};
  SmallPtrSet<const Function *, 8> Done{&K};
  SmallPtrSet<const Value *, 32> Seen;
  while (!Work.empty()) {
    const Function *F = Work.pop_back_val();
    for (const Instruction &I : instructions(*F)) {
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        // A trap shares nothing: the launch ends there.
        if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand());
            IA && !registerOnlyAsm(*IA) && !stopsKernel(*CB))
          return "inline asm";
        if (const Function *G = CB->getCalledFunction();
            G && !G->isDeclaration() && Done.insert(G).second)
          Work.push_back(G);
      }
      if (auto *ASC = dyn_cast<AddrSpaceCastInst>(&I);
          ASC && (ASC->getSrcAddressSpace() == 3 || ASC->getDestAddressSpace() == 3))
        return "shared memory";
      if (I.getType()->isPointerTy() && I.getType()->getPointerAddressSpace() == 3)
        return "shared memory";
      for (const Use &U : I.operands())
        if (mentionsSharedGlobal(U, Seen))
          return "shared memory";
    }
  }
  return "";
}

std::string freeBlocker(Function &K, const SyncSummary &Sync) {
  if (Sync.Barriers || Sync.Collectives || Sync.Opaque || Sync.Unsupported)
    return "synchronises threads";
  return sharedMemoryBlocker(K);
}

/// The CTA's place in the grid, which a persistent clone rewrites.
int gridAxis(Intrinsic::ID Id, bool &IsCount) {
  IsCount = false;
  switch (Id) {
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x: return 0;
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y: return 1;
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z: return 2;
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x: IsCount = true; return 0;
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y: IsCount = true; return 1;
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z: IsCount = true; return 2;
  default: return -1;
  }
}

WarpAlikeBlocks::WarpAlikeBlocks(Function &F, GpuArch Arch) {
  if (Arch != GpuArch::NVPTX || envSaysOff("GMEM_CHECKPOINT_WARP_ALIGNED"))
    return;
  CtaUniformity U(F);
  PostDominatorTree PDT(F);
  for (BasicBlock &A : F) {
    if (!U.UI->hasDivergentTerminator(A) || branchWarpUniform(*A.getTerminator(), *U.UI, *U.Cycles))
      continue;
    if (!forEachDecidedBlock(A, PDT, [&](BasicBlock &BB) {
          Decided.insert(&BB);
          return true;
        }))
      return; // a block that never reaches a return: nothing is known alike
  }
  Usable = true;
}

bool WarpAlikeBlocks::loopReachedAlike(const Loop &L) const {
  return Usable && none_of(L.blocks(), [&](const BasicBlock *BB) { return Decided.count(BB); });
}

} // namespace gmem::ckpt

//===- NondeterministicOutput.cpp - Kernels whose output is no function ---===//
//
// Forward taint from the reads of values that differ from run to run (the
// NVPTX clock, clock64, global timer, performance counters, SM and warp-slot
// ids, the grid's launch number, the active-lane mask; AMDGPU s_memtime,
// s_memrealtime, s_getreg; LLVM's cycle and steady counters; inline asm
// that names such a register; heap addresses; the results of atomics, and
// shared memory after atomics whose outcome depends on the threads' order)
// through data (every
// user of a tainted value is tainted: arithmetic, casts, selects, loads at
// tainted addresses) and control (a branch or switch on a tainted value
// taints the blocks control-dependent on it, by the post-dominator tree,
// and the phis that merge its paths). The output depends on the taint where
// a tainted value is stored, is an atomic's operand or an address written,
// goes into a call that may write memory, or decides whether a block that
// writes memory runs.
//
//===----------------------------------------------------------------------===//

#include "gmem/passes/NondeterministicOutput.h"
#include "gmem/passes/GpuTarget.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/CycleInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace gmem {

namespace {

const char *const Why = "writes what differs from run to run (a clock, timer, counter, hardware "
                        "or launch id, heap address, lane mask, the order of atomics or how long "
                        "a loop polled memory decides a value, an address or whether it writes)";

bool isSourceIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::nvvm_read_ptx_sreg_clock:
  case Intrinsic::nvvm_read_ptx_sreg_clock64:
  case Intrinsic::nvvm_read_ptx_sreg_globaltimer:
  case Intrinsic::nvvm_read_ptx_sreg_gridid: // the launch's number
  case Intrinsic::nvvm_activemask:          // which lanes arrived together
  case Intrinsic::nvvm_read_ptx_sreg_smid:
  case Intrinsic::nvvm_read_ptx_sreg_warpid:
  case Intrinsic::nvvm_read_ptx_sreg_pm0:
  case Intrinsic::nvvm_read_ptx_sreg_pm1:
  case Intrinsic::nvvm_read_ptx_sreg_pm2:
  case Intrinsic::nvvm_read_ptx_sreg_pm3:
  case Intrinsic::amdgcn_s_memtime:
  case Intrinsic::amdgcn_s_memrealtime:
  case Intrinsic::amdgcn_s_getreg:
  case Intrinsic::amdgcn_s_sendmsg_rtn: // hardware state (doorbell, realtime)
  // A counter's old value handed to each wave in the order the waves
  // arrive, like a shared atomicAdd's but as an intrinsic, which the
  // atomic-order check below never sees (HIP probe, session 50).
  case Intrinsic::amdgcn_ds_append:
  case Intrinsic::amdgcn_ds_consume:
  case Intrinsic::readcyclecounter:
  case Intrinsic::readsteadycounter:
    return true;
  default:
    return false;
  }
}

/// Inline asm that reads such a register by name (PTX special registers,
/// AMDGPU's time and hardware-id reads). %laneid, %nsmid, %nwarpid and the
/// lane masks are the same at every run.
bool isSourceAsm(const InlineAsm &IA) {
  StringRef S = IA.getAsmString();
  for (StringRef Reg : {"%clock", "%globaltimer", "%gridid", "%smid", "%warpid", "%pm",
                        "activemask", "s_memtime",
                        "s_memrealtime", "s_getreg", "s_sendmsg_rtn"}) {
    size_t At = S.find(Reg);
    while (At != StringRef::npos) {
      // %warpid, not %nwarpid; %pm0..7, not %pmevent.
      const bool Prefixed = At > 0 && (isAlnum(S[At - 1]) || S[At - 1] == '_');
      const bool PmNotCounter = Reg == "%pm" && (At + 3 >= S.size() || !isDigit(S[At + 3]));
      if (!Prefixed && !PmNotCounter)
        return true;
      At = S.find(Reg, At + 1);
    }
  }
  return false;
}

/// The heap's allocators: where a block lands differs at every run (and a
/// kernel that allocates without freeing gets new blocks each time).
bool isAllocator(StringRef Name) {
  return Name == "malloc" || Name == "__hip_malloc" || Name == "__ockl_dm_alloc" ||
         Name == "_Znwm" || Name == "_Znam" || Name == "_ZnwmRKSt9nothrow_t" ||
         Name == "_ZnamRKSt9nothrow_t";
}

bool isSource(const CallBase &CB) {
  if (const Function *Callee = CB.getCalledFunction())
    return isSourceIntrinsic(Callee->getIntrinsicID()) || isAllocator(Callee->getName());
  if (const auto *IA = dyn_cast<InlineAsm>(CB.getCalledOperand()))
    return isSourceAsm(*IA);
  return false;
}

/// Whether F, or a function it calls, reads such a value (a call left in
/// the analysed kernel).
bool readsSource(const Function &F, SmallPtrSetImpl<const Function *> &Seen) {
  if (!Seen.insert(&F).second || F.isDeclaration())
    return false;
  for (const Instruction &I : instructions(F))
    if (const auto *CB = dyn_cast<CallBase>(&I)) {
      if (isSource(*CB))
        return true;
      if (const Function *Callee = CB->getCalledFunction(); Callee && readsSource(*Callee, Seen))
        return true;
    }
  return false;
}

/// Shared memory, or a generic pointer that may point there. A kernel's
/// pointer parameters (and pointers offset from them) and the module's
/// globals outside the shared space never do: a launch cannot be handed a
/// CTA's shared memory. Without this every atomic and load of a CUDA
/// kernel (generic pointers all) counted as shared, and two atomic
/// operations on two output buffers tainted every load of the kernel.
bool mayBeShared(const Value *Ptr) {
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  if (AS == 3)
    return true; // shared/LDS
  if (AS != 0)
    return false; // global, constant, local: never shared
  // Generic (NVPTX and AMDGPU flat): shared unless every object it may
  // point into is one of the above.
  SmallVector<const Value *, 4> Objects;
  getUnderlyingObjects(Ptr, Objects, /*LI=*/nullptr, /*MaxLookup=*/0);
  return any_of(Objects, [](const Value *O) {
    if (const auto *A = dyn_cast<Argument>(O))
      return !isKernel(*A->getParent()) || isAggregateParam(*A);
    if (const auto *GV = dyn_cast<GlobalVariable>(O))
      return GV->getAddressSpace() == 0 || GV->getAddressSpace() == 3;
    return true; // loaded, returned, made from an integer, ...
  });
}

/// An atomic whose final value depends on the order of the threads: not an
/// integer sum, bitwise operation, minimum or maximum. (A wrapping
/// increment or decrement commutes only with itself at one limit: see
/// sharedOpKey.)
bool orderDependent(const AtomicRMWInst &RMW) {
  switch (RMW.getOperation()) {
  case AtomicRMWInst::Add:
  case AtomicRMWInst::Sub:
  case AtomicRMWInst::And:
  case AtomicRMWInst::Or:
  case AtomicRMWInst::Xor:
  case AtomicRMWInst::Max:
  case AtomicRMWInst::Min:
  case AtomicRMWInst::UMax:
  case AtomicRMWInst::UMin:
  case AtomicRMWInst::UIncWrap:
  case AtomicRMWInst::UDecWrap:
    return false;
  default:
    return true; // exchange, nand, float add/sub/min/max
  }
}

/// What must be the same for every atomic on shared memory for their order
/// not to matter: the operation and its width (a 32-bit add on the low half
/// of a word a 64-bit add updates drops the carry: an adversarial corpus,
/// session 52) and, for a wrapping increment or decrement, its limit (a
/// constant: two limits are two functions, which do not commute). Empty:
/// order-dependent whatever else.
std::string sharedOpKey(const AtomicRMWInst &RMW) {
  const AtomicRMWInst::BinOp Op = RMW.getOperation();
  std::string Key = (Op == AtomicRMWInst::Sub ? StringRef("add")
                                              : AtomicRMWInst::getOperationName(Op))
                        .str();
  Key += ":" + std::to_string(RMW.getValOperand()->getType()->getPrimitiveSizeInBits());
  if (Op == AtomicRMWInst::UIncWrap || Op == AtomicRMWInst::UDecWrap) {
    const auto *Limit = dyn_cast<ConstantInt>(RMW.getValOperand());
    if (!Limit)
      return "";
    Key += ":" + std::to_string(Limit->getZExtValue());
  }
  return Key;
}

/// The state space a PTX word names (`ld.shared.u32` -> shared), empty for
/// a generic access.
StringRef ptxStateSpace(StringRef Word) {
  for (StringRef Space : {"global", "shared", "const", "param", "local", "tex"})
    for (size_t At = Word.find(Space); At != StringRef::npos; At = Word.find(Space, At + 1))
      if (At > 0 && Word[At - 1] == '.' &&
          (At + Space.size() == Word.size() || Word[At + Space.size()] == '.' ||
           Word[At + Space.size()] == ':'))
        return Space;
  return "";
}

/// Whether inline asm may read shared memory: a load or copy whose state
/// space is shared or generic (an address the asm gets as an integer may be
/// a shared one).
bool asmMayReadShared(const InlineAsm &IA) {
  bool Reads = false;
  forEachPtxWord(IA.getAsmString(), [&](StringRef Word, StringRef Op) {
    if (Op == "ld" || Op == "ldu" || Op == "ldmatrix" || Op == "cp" || Op == "wgmma" ||
        Op == "mma" || Op == "tensormap" || Op == "multimem") {
      StringRef Space = ptxStateSpace(Word);
      Reads |= Space.empty() || Space == "shared" || Op == "cp" || Op == "wgmma";
    }
  });
  return Reads;
}

/// The operation of an atomic named by dot-separated \p Parts (`atom`,
/// `shared`, `or`, `b32`; an intrinsic's name), add and sub as one; empty
/// if none is named.
StringRef atomicOperation(ArrayRef<StringRef> Parts) {
  for (StringRef P : Parts) {
    if (P == "sub")
      return "add";
    if (P == "add" || P == "inc" || P == "dec" || P == "and" || P == "or" || P == "xor" ||
        P == "min" || P == "max" || P == "exch" || P == "cas" || P == "swap" || P == "cmpswap")
      return P;
  }
  return "";
}

/// Whether the loop-exit condition \p Cond of loop \p L depends, inside L,
/// on a volatile or atomic read (or inline asm that reads memory): a loop
/// that polls a word another thread writes runs as many times as the
/// timing decides (counting its trips stores a different number every run:
/// an adversarial corpus, session 49).
bool pollsMemory(const Value *Cond, const CycleInfo::CycleT &L) {
  SmallVector<const Value *, 16> Work{Cond};
  SmallPtrSet<const Value *, 32> Seen;
  while (!Work.empty()) {
    const auto *I = dyn_cast<Instruction>(Work.pop_back_val());
    if (!I || !L.contains(I->getParent()) || !Seen.insert(I).second)
      continue;
    if (const auto *LI = dyn_cast<LoadInst>(I)) {
      if (LI->isVolatile() || LI->isAtomic())
        return true;
      continue;
    }
    if (const auto *CB = dyn_cast<CallBase>(I)) {
      // Pure calls compute from their operands (a clock read is a source of
      // its own); a plain read (__ldg) is no poll; inline asm that reads
      // memory (ld.volatile, ld.acquire) and calls that may be anything are.
      if (!CB->doesNotAccessMemory() && !CB->onlyAccessesInaccessibleMemory()) {
        if (isa<IntrinsicInst>(CB) && CB->onlyReadsMemory())
          continue;
        return true;
      }
    }
    if (isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
      return true;
    for (const Value *Op : I->operands())
      Work.push_back(Op);
  }
  return false;
}

/// A write of memory, or a call that may be one; not the intrinsics that
/// only say something to the optimiser or wait.
bool mayWrite(const Instruction &I) {
  // (LLVM counts a volatile load as a write; it changes no memory.)
  if (!I.mayWriteToMemory() || isa<LoadInst>(I))
    return false;
  // The reads themselves (a clock read is marked as touching inaccessible
  // memory, to keep it in place).
  if (const auto *CB = dyn_cast<CallBase>(&I); CB && isSource(*CB))
    return false;
  if (const auto *II = dyn_cast<IntrinsicInst>(&I)) {
    if (II->isAssumeLikeIntrinsic() || isa<DbgInfoIntrinsic>(II))
      return false;
    switch (II->getIntrinsicID()) {
    case Intrinsic::nvvm_nanosleep:
    case Intrinsic::amdgcn_s_sleep:
      return false;
    default:
      break;
    }
  }
  return true;
}

bool writesMemory(const BasicBlock &BB) {
  for (const Instruction &I : BB)
    if (mayWrite(I))
      return true;
  return false;
}

} // namespace

std::string nondeterministicOutput(const Function &F) {
  if (F.isDeclaration())
    return "";
  SmallPtrSet<const Value *, 32> Tainted;
  SmallVector<const Value *, 32> Work;
  auto Taint = [&](const Value *V) {
    if (Tainted.insert(V).second)
      Work.push_back(V);
  };
  // One walk of the call graph below F: a callee seen once is not read again.
  SmallPtrSet<const Function *, 8> Seen{&F};
  // Atomics: what one returns depends on the order in which threads got
  // there (a ticket). Where the operation itself depends on that order
  // (exchange, compare-and-swap, a float sum), so does what the memory
  // holds after them: on shared memory every load of shared memory is then
  // tainted. (Global memory is KernelAnalysis's: an order-dependent global
  // atomic makes the kernel non-idempotent, and an order-free combine, an
  // unused integer max/min/and/or, must be proven apart from every plain
  // read and write of its object.)
  // Atomics of different operations (or with and, add with max) on shared
  // memory do not commute either where they meet on one word: more than
  // one operation there counts as order-dependent (an adversarial corpus,
  // session 49).
  bool OrderedShared = false;
  StringSet<> SharedOps;
  for (const Instruction &I : instructions(F)) {
    if (const auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      if (!RMW->use_empty())
        Taint(RMW);
      if (mayBeShared(RMW->getPointerOperand())) {
        const std::string Key = sharedOpKey(*RMW);
        OrderedShared |= orderDependent(*RMW) || Key.empty();
        SharedOps.insert(Key);
      }
    } else if (const auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
      if (!CX->use_empty())
        Taint(CX);
      OrderedShared |= mayBeShared(CX->getPointerOperand());
    } else if (const auto *CB = dyn_cast<CallBase>(&I)) {
      // Scoped atomics (llvm.nvvm.atomic.*), and `atom` and `red` in inline
      // asm (a `red` returns nothing, but what it leaves in memory depends
      // on the order as an `atom`'s does).
      const Function *Callee = CB->getCalledFunction();
      const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand());
      SmallVector<StringRef, 4> Words;
      if (Callee && Callee->getName().starts_with("llvm.nvvm.atomic"))
        Words.push_back(Callee->getName());
      else if (IA)
        forEachPtxWord(IA->getAsmString(), [&](StringRef Word, StringRef Op) {
          if (Op == "atom" || Op == "red" || Word.contains("atomic"))
            Words.push_back(Word);
        });
      if (Words.empty())
        continue;
      if (!CB->getType()->isVoidTy() && !CB->use_empty())
        Taint(CB);
      for (StringRef W : Words) {
        SmallVector<StringRef, 8> Parts;
        W.split(Parts, '.');
        const StringRef Op = atomicOperation(Parts);
        // A global atomic meets no shared word (KernelAnalysis judges it).
        if (is_contained(Parts, "global"))
          continue;
        // The whole word is the key (operation and type): the same word
        // twice commutes; anything else, or an increment or decrement
        // (its limit is an operand), counts as order-dependent.
        // (An intrinsic's increment names its limit as its last operand:
        // a constant one is part of the key.)
        std::string Key = W.str();
        bool LimitKnown = false;
        if ((Op == "inc" || Op == "dec") && Callee && CB->arg_size() > 0)
          if (const auto *Limit = dyn_cast<ConstantInt>(CB->getArgOperand(CB->arg_size() - 1))) {
            Key += ":" + std::to_string(Limit->getZExtValue());
            LimitKnown = true;
          }
        OrderedShared |= Op.empty() || Op == "exch" || Op == "cas" || Op == "swap" ||
                         Op == "cmpswap" || ((Op == "inc" || Op == "dec") && !LimitKnown) ||
                         W.contains(".f") || W.contains(".bf16");
        SharedOps.insert(Key);
      }
    }
  }
  OrderedShared |= SharedOps.size() > 1;
  if (OrderedShared) {
    // Every read of shared memory: loads, and calls that read it (inline
    // asm `ld.shared` at an integer address, intrinsics given a shared
    // pointer); a call that also writes memory (memcpy out of shared
    // memory, a bulk copy) writes what the order left there.
    for (const Instruction &I : instructions(F)) {
      if (const auto *LI = dyn_cast<LoadInst>(&I)) {
        if (mayBeShared(LI->getPointerOperand()))
          Taint(LI);
        continue;
      }
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || CB->doesNotAccessMemory() || CB->onlyWritesMemory() || isSource(*CB))
        continue;
      bool ReadsShared = false;
      if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand()))
        ReadsShared = asmMayReadShared(*IA);
      for (const Use &A : CB->args())
        ReadsShared |= A->getType()->isPointerTy() && mayBeShared(A.get());
      if (!ReadsShared)
        continue;
      const Function *Callee = CB->getCalledFunction();
      const bool Barrier = Callee && Callee->getName().contains("barrier");
      if (mayWrite(*CB) && !Barrier)
        return Why;
      if (!CB->getType()->isVoidTy())
        Taint(CB);
    }
  }
  for (const Instruction &I : instructions(F)) {
    const auto *CB = dyn_cast<CallBase>(&I);
    if (!CB)
      continue;
    if (isSource(*CB)) {
      Taint(CB);
      continue;
    }
    if (const Function *Callee = CB->getCalledFunction(); Callee && readsSource(*Callee, Seen))
      return std::string("calls ") + Callee->getName().str() +
             ", which reads a clock, timer, counter or hardware id";
  }
  // Loops that poll memory: their exits decide by timing.
  SmallVector<const BasicBlock *, 4> PollExits;
  // (Loops are only looked at where something could be polled: most
  // kernels have no volatile or atomic read and no call that reads memory.)
  const bool MayPoll = any_of(instructions(F), [](const Instruction &I) {
    if (const auto *LI = dyn_cast<LoadInst>(&I))
      return LI->isVolatile() || LI->isAtomic();
    if (const auto *CB = dyn_cast<CallBase>(&I))
      return !CB->doesNotAccessMemory() && !CB->onlyAccessesInaccessibleMemory() &&
             !(isa<IntrinsicInst>(CB) && CB->onlyReadsMemory());
    return isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I);
  });
  if (MayPoll) {
    // Cycles, not loops: a cycle entered in two places (a goto into its
    // middle) is no LoopInfo loop but polls all the same (an adversarial
    // corpus, session 52); and an exit may be a switch.
    CycleInfo CI;
    CI.compute(const_cast<Function &>(F));
    SmallVector<const CycleInfo::CycleT *, 8> Cycles(CI.toplevel_cycles().begin(),
                                                     CI.toplevel_cycles().end());
    for (size_t K = 0; K < Cycles.size(); ++K) {
      const CycleInfo::CycleT *C = Cycles[K];
      Cycles.append(C->children().begin(), C->children().end());
      SmallVector<BasicBlock *, 4> Exiting;
      C->getExitingBlocks(Exiting);
      for (const BasicBlock *E : Exiting) {
        const Instruction *T = E->getTerminator();
        const Value *Cond = nullptr;
        if (const auto *Br = dyn_cast<BranchInst>(T); Br && Br->isConditional())
          Cond = Br->getCondition();
        else if (const auto *Sw = dyn_cast<SwitchInst>(T))
          Cond = Sw->getCondition();
        else if (!isa<BranchInst>(T))
          Cond = T; // indirectbr, callbr...: look at all it reads
        if (Cond && (Cond == T ? any_of(T->operands(), [&](const Value *Op) {
                       return pollsMemory(Op, *C);
                     })
                               : pollsMemory(Cond, *C)))
          PollExits.push_back(E);
      }
    }
  }
  if (Work.empty() && PollExits.empty())
    return "";

  PostDominatorTree PDT(const_cast<Function &>(F));
  SmallPtrSet<const BasicBlock *, 16> Branched;
  // Blocks whose running depends on the branch ending X (Ferrante et al.:
  // for each successor S not post-dominating X, the post-dominator tree path
  // from S up to X's immediate post-dominator), and the phis merging them.
  auto TaintControl = [&](const BasicBlock *X) -> bool {
    if (!Branched.insert(X).second)
      return false;
    SmallPtrSet<const BasicBlock *, 16> Dependent;
    const DomTreeNode *XN = PDT.getNode(X);
    const DomTreeNode *Stop = XN ? XN->getIDom() : nullptr;
    for (const BasicBlock *S : successors(X)) {
      const DomTreeNode *N = PDT.getNode(S);
      if (!N || !XN) // no exit below (an endless loop): every block may depend
        return true;
      for (; N && N != Stop; N = N->getIDom())
        if (const BasicBlock *B = N->getBlock())
          Dependent.insert(B);
    }
    for (const BasicBlock *B : Dependent)
      if (writesMemory(*B))
        return true;
    Dependent.insert(X);
    for (const BasicBlock &J : F)
      for (const PHINode &Phi : J.phis())
        for (const BasicBlock *In : Phi.blocks())
          if (Dependent.contains(In)) {
            Taint(&Phi);
            break;
          }
    return false;
  };

  for (const BasicBlock *E : PollExits)
    if (TaintControl(E))
      return Why;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    for (const User *U : V->users()) {
      const auto *I = dyn_cast<Instruction>(U);
      if (!I)
        continue;
      if (isa<StoreInst>(I) || isa<AtomicRMWInst>(I) || isa<AtomicCmpXchgInst>(I))
        return Why;
      if (const auto *CB = dyn_cast<CallBase>(I)) {
        if (mayWrite(*CB))
          return Why;
        Taint(CB);
        continue;
      }
      if (I->isTerminator()) {
        if ((isa<BranchInst>(I) || isa<SwitchInst>(I) || isa<IndirectBrInst>(I)) &&
            TaintControl(I->getParent()))
          return Why;
        continue;
      }
      Taint(I);
    }
  }
  return "";
}

} // namespace gmem

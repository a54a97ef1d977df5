//===- NondeterministicOutput.cpp - Kernels whose output is no function ---===//
//
// Forward taint from the reads of values that differ from run to run (the
// NVPTX clock, clock64, global timer, performance counters, SM and warp-slot
// ids; AMDGPU s_memtime, s_memrealtime, s_getreg; LLVM's cycle and steady
// counters; inline asm that names such a register) through data (every
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

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace llvm;

namespace gmem {

namespace {

const char *const Why = "writes what a clock, timer, counter or hardware id decides (a value, "
                        "an address or whether it writes), which differs at every run";

bool isSourceIntrinsic(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::nvvm_read_ptx_sreg_clock:
  case Intrinsic::nvvm_read_ptx_sreg_clock64:
  case Intrinsic::nvvm_read_ptx_sreg_globaltimer:
  case Intrinsic::nvvm_read_ptx_sreg_smid:
  case Intrinsic::nvvm_read_ptx_sreg_warpid:
  case Intrinsic::nvvm_read_ptx_sreg_pm0:
  case Intrinsic::nvvm_read_ptx_sreg_pm1:
  case Intrinsic::nvvm_read_ptx_sreg_pm2:
  case Intrinsic::nvvm_read_ptx_sreg_pm3:
  case Intrinsic::amdgcn_s_memtime:
  case Intrinsic::amdgcn_s_memrealtime:
  case Intrinsic::amdgcn_s_getreg:
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
  for (StringRef Reg : {"%clock", "%globaltimer", "%smid", "%warpid", "%pm", "s_memtime",
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

bool isSource(const CallBase &CB) {
  if (const Function *Callee = CB.getCalledFunction())
    return isSourceIntrinsic(Callee->getIntrinsicID());
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

/// A write of memory, or a call that may be one; not the intrinsics that
/// only say something to the optimiser or wait.
bool mayWrite(const Instruction &I) {
  if (!I.mayWriteToMemory())
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
  if (Work.empty())
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

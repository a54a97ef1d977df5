//===- CheckpointAsyncCopies.cpp - Drain the kernel's async copies --------===//
//
// A kernel's own asynchronous copies into shared memory (cp.async, sm_80;
// the bulk copies of sm_90) complete on their own time: the kernel waits
// for them before it reads what they wrote, and may leave the last ones
// unwaited when it exits. A clone changes two things about that:
//
//  - a loop checkpoint can end the CTA in the middle of the body, with a
//    prefetch for the next trip still in flight (the pipelines these
//    copies exist for always have one);
//  - a persistent clone runs the next virtual CTA in the same shared
//    memory, where the kernel's next CTA had fresh memory: a copy left in
//    flight by one virtual CTA could land on what the next one wrote.
//
// So every path that leaves the body (the clone's gmem.exit, which the
// returns and the loop checkpoints' aborts reach, before the persistent
// loop's end-of-virtual-CTA barrier) first waits for the thread's copies:
// `cp.async.wait_all` where the kernel issues cp.async, and
// `cp.async.bulk.wait_group 0` where it issues bulk copies. Both cost a
// few cycles when nothing is in flight, and kernels without such copies
// get neither. The waits are inline asm, not NVVM intrinsics: llc would
// refuse the intrinsics on a target without the PTX version, where the
// kernel's own asm (also text) is ptxas's to judge.
//
// Bulk tensor loads complete on an mbarrier, not on a bulk group; a stop
// with such a load in flight is left to the hardware, as the kernel's own
// exit would be (docs/PREEMPTION_DESIGN.md, "Asynchronous copies").
//
//===----------------------------------------------------------------------===//

#include "CheckpointInternal.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;

namespace gmem::ckpt {

namespace {
void classifyText(StringRef Text, AsyncCopyUse &U) {
  // Bulk first: "cp.async.bulk..." also contains "cp.async".
  size_t From = 0;
  while ((From = Text.find("cp.async", From)) != StringRef::npos) {
    if (Text.substr(From).starts_with("cp.async.bulk"))
      U.Bulk = true;
    else
      U.Groups = true;
    From += 8;
  }
}
} // namespace

AsyncCopyUse asyncCopiesIn(Function &F) {
  AsyncCopyUse U;
  forEachReachableFunction(F, [&](Function &G) {
    for (const Instruction &I : instructions(G)) {
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand()))
        classifyText(IA->getAsmString(), U);
      else if (const Function *Callee = CB->getCalledFunction(); Callee && Callee->isIntrinsic())
        classifyText(Callee->getName(), U); // llvm.nvvm.cp.async.*
    }
  });
  return U;
}

void drainAsyncCopies(IRBuilder<> &B, AsyncCopyUse U) {
  auto Asm = [&](const char *Text) {
    FunctionType *Ty = FunctionType::get(B.getVoidTy(), /*isVarArg=*/false);
    B.CreateCall(InlineAsm::get(Ty, Text, "~{memory}", /*hasSideEffects=*/true));
  };
  if (U.Groups)
    Asm("cp.async.wait_all;");
  if (U.Bulk)
    Asm("cp.async.bulk.wait_group 0;");
}

} // namespace gmem::ckpt

//===- CheckpointClone.cpp - Clone functions and their reservations -------===//
//
// Making `__gmem_pre_<K>` and its twins as functions: the clone's type (K's
// parameters, the control block pointer, the user's grid), the copy of K's
// body and annotations, and the declarations CheckpointReservePass makes
// early in clang's pipeline (why: CheckpointInserter.h) and the checkpoint
// pass later fills or drops.
//
//===----------------------------------------------------------------------===//

#include "CheckpointInternal.h"
#include "gmem/passes/CheckpointInserter.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace gmem::ckpt {

namespace {
constexpr unsigned GlobalAS = 1; ///< the control block's address space
} // namespace

/// Copies K's `!nvvm.annotations` entries (kernel, launch bounds,
/// grid_constant) to the clone.
void copyNVVMAnnotations(Module &M, Function &K, Function &Clone) {
  NamedMDNode *MD = M.getNamedMetadata("nvvm.annotations");
  if (!MD)
    return;
  SmallVector<MDNode *, 4> Copies;
  for (MDNode *Op : MD->operands()) {
    if (Op->getNumOperands() < 1)
      continue;
    auto *FnMD = dyn_cast_or_null<ValueAsMetadata>(Op->getOperand(0).get());
    if (!FnMD || FnMD->getValue() != &K)
      continue;
    SmallVector<Metadata *, 4> Ops(Op->op_begin(), Op->op_end());
    Ops[0] = ValueAsMetadata::get(&Clone);
    Copies.push_back(MDNode::get(M.getContext(), Ops));
  }
  for (MDNode *N : Copies)
    MD->addOperand(N);
}

FunctionType *cloneType(Function &K) {
  SmallVector<Type *, 8> Params(K.getFunctionType()->params());
  Params.push_back(PointerType::get(K.getContext(), GlobalAS));
  // The grid the user asked for (ABI version 2): persistent clones run on
  // another grid and take blockIdx/gridDim from these.
  for (int I = 0; I < 3; ++I)
    Params.push_back(Type::getInt32Ty(K.getContext()));
  return FunctionType::get(K.getReturnType(), Params, /*isVarArg=*/false);
}

/// The declaration CheckpointReservePass made for K, if it still fits.
Function *reservedClone(Module &M, Function &K) {
  Function *D = M.getFunction(checkpointCloneSymbol(K.getName()));
  if (D && D->isDeclaration() && D->getFunctionType() == cloneType(K))
    return D;
  return nullptr;
}

/// Erases a reserved clone declaration and its annotations.
void dropReservation(Module &M, Function *D) {
  if (NamedMDNode *MD = M.getNamedMetadata("nvvm.annotations")) {
    SmallVector<MDNode *, 16> Keep;
    for (MDNode *Op : MD->operands()) {
      auto *FnMD = Op->getNumOperands() ? dyn_cast_or_null<ValueAsMetadata>(Op->getOperand(0).get())
                                        : nullptr;
      if (!FnMD || FnMD->getValue() != D)
        Keep.push_back(Op);
    }
    MD->clearOperands();
    for (MDNode *N : Keep)
      MD->addOperand(N);
  }
  removeFromUsedLists(M, [&](Constant *C) { return C->stripPointerCasts() == D; });
  D->eraseFromParent();
}

/// A copy of K with the clone's parameters, named Name (the reserved
/// declaration of that name, if any, becomes it).
Function *createClone(Module &M, Function &K, const std::string &Name) {
  FunctionType *FT = cloneType(K);
  Function *C = M.getFunction(Name);
  if (C && C->isDeclaration() && C->getFunctionType() != FT) {
    dropReservation(M, C); // K changed type since: a fresh one, by this name
    C = nullptr;
  } else if (C && !C->isDeclaration()) {
    C = nullptr;
  }
  bool Reserved = C != nullptr;
  if (!C)
    C = Function::Create(FT, K.getLinkage(), K.getAddressSpace(), Name, &M);
  ValueToValueMapTy VMap;
  auto NewArg = C->arg_begin();
  for (Argument &A : K.args()) {
    NewArg->setName(A.getName());
    VMap[&A] = &*NewArg++;
  }
  for (const char *Name : {"gmem.ctl", "gmem.grid.x", "gmem.grid.y", "gmem.grid.z"})
    (NewArg++)->setName(Name);
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(C, &K, VMap, CloneFunctionChangeType::LocalChangesOnly, Returns);
  C->setLinkage(K.getLinkage());
  C->setVisibility(K.getVisibility());
  C->setCallingConv(K.getCallingConv());
  for (unsigned I = FT->getNumParams() - 4; I < FT->getNumParams(); ++I)
    C->addParamAttr(I, Attribute::NoUndef);
  // Attributor facts of K ("this kernel never reads workitem id y", ...) do
  // not hold for the clone, which reads the whole thread geometry.
  SmallVector<StringRef, 8> Stale;
  for (const Attribute &A : C->getAttributes().getFnAttrs())
    if (A.isStringAttribute() && A.getKindAsString().starts_with("amdgpu-no-"))
      Stale.push_back(A.getKindAsString());
  for (StringRef S : Stale)
    C->removeFnAttr(S);
  if (Reserved)
    removeFromUsedLists(M, [&](Constant *V) { return V->stripPointerCasts() == C; });
  else
    copyNVVMAnnotations(M, K, *C);
  return C;
}

/// Reports (gmem-analyze's "preempt:" line) read these from the module's
/// bitcode; PTX does not carry them, and the runtime needs none.
void notePreemption(Module &M, StringRef KernelSymbol, const Twine &Note) {
  LLVMContext &LC = M.getContext();
  NamedMDNode *N = M.getOrInsertNamedMetadata(PreemptionNotesMD);
  N->addOperand(MDNode::get(LC, {MDString::get(LC, KernelSymbol), MDString::get(LC, Note.str())}));
}

/// `-pass-remarks-analysis=gmem-checkpoint` says which clones loop over
/// virtual CTAs and, for the others, why not.
void remarkPersistent(Function &K, FunctionAnalysisManager &FAM, const std::string &Why) {
  auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(K);
  ORE.emit([&] {
    OptimizationRemarkAnalysis R("gmem-checkpoint", Why.empty() ? "Persistent" : "NotPersistent",
                                 &K);
    if (Why.empty())
      R << "persistent clone: loops over virtual CTAs";
    else
      R << "clone not persistent: " << Why;
    return R;
  });
}

/// A clone the backend would choke on (or miscompile) is a bug of this
/// pass. It must not cost the user the build: the clone is dropped (the
/// kernel then runs as compiled, stopping at most at its launch boundary)
/// and a warning names it, to be reported. False if C was dropped.
bool keepValidClone(Module &M, Function &C) {
  std::string Msg;
  raw_string_ostream OS(Msg);
  if (!verifyFunction(C, &OS))
    return true;
  errs() << "gmem-checkpoint: warning: dropped the invalid clone " << C.getName()
         << " (a bug of the pass, please report it with the kernel): "
         << StringRef(OS.str()).take_front(400) << "\n";
  dropReservation(M, &C);
  return false;
}

void emitInfo(Module &M, StringRef KernelSymbol, const CheckpointInfo &Info) {
  Type *I32 = Type::getInt32Ty(M.getContext());
  // A sixth word only with GridStride: every other kernel's info keeps the
  // five words older runtimes read.
  SmallVector<uint32_t, 6> Words = {CheckpointInfo::Magic, CheckpointInfo::Version, Info.Flags,
                                    Info.LoopCheckpoints, Info.IntervalK};
  if (Info.Flags & CheckpointInfo::GridStride)
    Words.push_back(Info.GridStrideBound);
  auto *Ty = ArrayType::get(I32, Words.size());
  Constant *Init = ConstantDataArray::get(M.getContext(), ArrayRef<uint32_t>(Words));
  std::string Name = checkpointInfoSymbol(KernelSymbol);
  if (GlobalVariable *Old = M.getGlobalVariable(Name, /*AllowInternal=*/true)) {
    removeFromUsedLists(M, [&](Constant *C) { return C == Old; });
    Old->eraseFromParent();
  }
  constexpr unsigned GlobalAS = 1; // the runtime reads it with cuModuleGetGlobal
  auto *GV = new GlobalVariable(M, Ty, /*isConstant=*/true, GlobalValue::ExternalLinkage, Init,
                                Name, nullptr, GlobalValue::NotThreadLocal, GlobalAS);
  GV->setAlignment(Align(4));
  appendToUsed(M, {GV});
}

/// Kernel gets no clone (Why, in its preemption notes): it runs as compiled,
/// stopped at most at its launch boundary, and its info says so.
void emitNoClone(Module &M, StringRef Kernel, const SyncSummary &Sync, const Twine &Why) {
  notePreemption(M, Kernel, "no clone: " + Why);
  CheckpointInfo Info;
  if (Sync.Barriers)
    Info.Flags |= CheckpointInfo::UsesBarriers;
  Info.Flags |= CheckpointInfo::EntryOnly | CheckpointInfo::NoClone;
  emitInfo(M, Kernel, Info);
}

} // namespace gmem::ckpt

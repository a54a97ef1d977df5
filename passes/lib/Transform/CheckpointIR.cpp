//===- CheckpointIR.cpp - IR pieces of the checkpoints ---------------------===//
//
// Thread geometry, the done bit of a CTA, and the test "what is the request"
// that every checkpoint performs: a read of the control word, which
// cuStreamWriteValue32 writes while the kernel runs, that every execution
// performs afresh (loadRequest).
//
//===----------------------------------------------------------------------===//

#include "CheckpointLoopPace.h"

#include "llvm/ADT/SmallPtrSet.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

#include <cstdlib>
#include <string>

using namespace llvm;

namespace gmem::ckpt {

namespace {

Value *nvvm(IRBuilder<> &B, Intrinsic::ID Id) { return B.CreateIntrinsic(Id, {}, {}); }

Value *amdDispatchField(IRBuilder<> &B, unsigned Offset, Type *Ty) {
  Value *P = B.CreateIntrinsic(Intrinsic::amdgcn_dispatch_ptr, {}, {});
  Value *Field = B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), P, Offset);
  return B.CreateZExt(B.CreateAlignedLoad(Ty, Field, Align(Ty->getPrimitiveSizeInBits() / 8)),
                      B.getInt32Ty());
}

} // namespace

bool envSaysOff(const char *Name) {
  const char *V = std::getenv(Name);
  if (!V)
    return false;
  std::string S = StringRef(V).trim().lower();
  return S == "0" || S == "off" || S == "false" || S == "no";
}

Value *linearCta(IRBuilder<> &B, GpuArch Arch) {
  Value *X, *Y, *Z, *NX, *NY;
  if (Arch == GpuArch::NVPTX) {
    X = nvvm(B, Intrinsic::nvvm_read_ptx_sreg_ctaid_x);
    Y = nvvm(B, Intrinsic::nvvm_read_ptx_sreg_ctaid_y);
    Z = nvvm(B, Intrinsic::nvvm_read_ptx_sreg_ctaid_z);
    NX = nvvm(B, Intrinsic::nvvm_read_ptx_sreg_nctaid_x);
    NY = nvvm(B, Intrinsic::nvvm_read_ptx_sreg_nctaid_y);
  } else {
    X = B.CreateIntrinsic(Intrinsic::amdgcn_workgroup_id_x, {}, {});
    Y = B.CreateIntrinsic(Intrinsic::amdgcn_workgroup_id_y, {}, {});
    Z = B.CreateIntrinsic(Intrinsic::amdgcn_workgroup_id_z, {}, {});
    // Dispatch packet: workgroup_size_{x,y} u16 at 4/6, grid_size_{x,y} u32
    // at 12/16 (in work-items); workgroups = ceil(grid / workgroup).
    auto Groups = [&](unsigned WgOff, unsigned GridOff) {
      Value *Wg = amdDispatchField(B, WgOff, B.getInt16Ty());
      Value *Grid = amdDispatchField(B, GridOff, B.getInt32Ty());
      return B.CreateUDiv(B.CreateAdd(Grid, B.CreateSub(Wg, B.getInt32(1))), Wg);
    };
    NX = Groups(4, 12);
    NY = Groups(6, 16);
  }
  Type *I64 = B.getInt64Ty();
  auto W = [&](Value *V) { return B.CreateZExt(V, I64); };
  Value *YZ = B.CreateAdd(W(Y), B.CreateMul(W(NY), W(Z)));
  return B.CreateAdd(W(X), B.CreateMul(W(NX), YZ), "gmem.bid");
}

Value *isThreadZero(IRBuilder<> &B, GpuArch Arch) {
  Value *X, *Y, *Z;
  if (Arch == GpuArch::NVPTX) {
    X = nvvm(B, Intrinsic::nvvm_read_ptx_sreg_tid_x);
    Y = nvvm(B, Intrinsic::nvvm_read_ptx_sreg_tid_y);
    Z = nvvm(B, Intrinsic::nvvm_read_ptx_sreg_tid_z);
  } else {
    X = B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_x, {}, {});
    Y = B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_y, {}, {});
    Z = B.CreateIntrinsic(Intrinsic::amdgcn_workitem_id_z, {}, {});
  }
  return B.CreateICmpEQ(B.CreateOr(B.CreateOr(X, Y), Z), B.getInt32(0), "gmem.tid0");
}

std::pair<Value *, Value *> doneWordAndBit(IRBuilder<> &B, GpuArch Arch, Value *Ctl) {
  Value *Bid = linearCta(B, Arch);
  Value *Offset = B.CreateAdd(B.getInt64(8), B.CreateShl(B.CreateLShr(Bid, 5), 2));
  Value *Word = B.CreateInBoundsGEP(B.getInt8Ty(), Ctl, Offset, "gmem.done.word");
  Value *Bit = B.CreateShl(B.getInt32(1), B.CreateTrunc(B.CreateAnd(Bid, 31), B.getInt32Ty()),
                           "gmem.done.bit");
  return {Word, Bit};
}

void updateDoneBit(IRBuilder<> &B, GpuArch Arch, Value *Ctl, bool Set) {
  auto [Word, Bit] = doneWordAndBit(B, Arch, Ctl);
  updateDoneBit(B, Arch, Word, Bit, Set);
}

void updateDoneBit(IRBuilder<> &B, GpuArch Arch, Value *Word, Value *Bit, bool Set) {
  SyncScope::ID Scope = SyncScope::System;
  if (Arch == GpuArch::AMDGPU)
    Scope = B.getContext().getOrInsertSyncScopeID("agent");
  Value *V = Set ? Bit : B.CreateNot(Bit);
  B.CreateAtomicRMW(Set ? AtomicRMWInst::Or : AtomicRMWInst::And, Word, V, Align(4),
                    AtomicOrdering::Monotonic, Scope);
}

// The control block lives in device memory and only the GPU writes it
// (stream memory operations and the clones themselves), so a read at GPU
// scope sees every write a system-scope one would: both are served by the
// L2, never by a stale L1 line. LLVM 19's NVPTX backend lowers a volatile
// load, and an atomic one of any scope, to ld.volatile, which ptxas makes a
// system-scope strong load (LDG.E.STRONG.SYS); hence the inline asm, whose
// side effect keeps it in place as the volatile load was. Only the request
// word is read this way: a CTA's entry words (redo, resume), read once,
// stay volatile loads, whose constant offsets fold into the address (as
// asm operands they took registers of their own, and ptxas's code for
// gemm_naive's alternate form ran 8% slower, session 41). On the H200
// (bench/preempt/results/session41, part overhead of the table, same
// call) the GPU-scope reads took the forms' geomean from +0.99% to +0.87%
// over their kernels, gemm_polybench's full clone from +51% to +18%.
Value *loadRequest(IRBuilder<> &B, Value *Ctl) {
  Type *I32 = B.getInt32Ty();
  Function *F = B.GetInsertBlock()->getParent();
  if (!gpuScopeRequestReads(*F) || Ctl->getType()->getPointerAddressSpace() != 1)
    return B.CreateAlignedLoad(I32, Ctl, Align(4), /*isVolatile=*/true, "gmem.request");
  auto *Ty = FunctionType::get(I32, {Ctl->getType()}, false);
  InlineAsm *Asm =
      InlineAsm::get(Ty, "ld.relaxed.gpu.global.u32 $0, [$1];", "=r,l", /*hasSideEffects=*/true);
  return B.CreateCall(Asm, {Ctl}, "gmem.request");
}

GlobalVariable *createSharedPair(Module &M, Function &Clone, StringRef Prefix) {
  Type *Ty = ArrayType::get(Type::getInt32Ty(M.getContext()), 2);
  auto *GV = new GlobalVariable(M, Ty, /*isConstant=*/false, GlobalValue::InternalLinkage,
                                UndefValue::get(Ty), Prefix + Clone.getName(), nullptr,
                                GlobalValue::NotThreadLocal, /*AddressSpace=*/3);
  GV->setAlignment(Align(8));
  return GV;
}

void initStopWords(IRBuilder<> &B, GlobalVariable *Words) {
  for (unsigned W = 0; W < 2; ++W)
    B.CreateAlignedStore(B.getInt32(0), ctaStateWord(B, Words, W), Align(4), /*isVolatile=*/true);
}

void initSharedWords(IRBuilder<> &B, const CloneContext &Ctx) {
  if (Ctx.ReqCache)
    initRequestCache(B, Ctx.ReqCache);
  if (Ctx.Landing)
    initLanding(B, Ctx.Landing);
  if (Ctx.StopWords && Ctx.Arch == GpuArch::NVPTX)
    initStopWords(B, Ctx.StopWords);
}

void forEachReachableFunction(Function &K, function_ref<void(Function &)> Visit) {
  SmallPtrSet<Function *, 8> Seen;
  SmallVector<Function *, 8> Work{&K};
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    if (F->isDeclaration() || !Seen.insert(F).second)
      continue;
    Visit(*F);
    for (Instruction &I : instructions(*F))
      if (auto *CB = dyn_cast<CallBase>(&I))
        if (Function *Callee = CB->getCalledFunction())
          Work.push_back(Callee);
  }
}

Value *readClock(IRBuilder<> &B) { return nvvm(B, Intrinsic::nvvm_read_ptx_sreg_clock); }

Value *segScale(CloneContext &Ctx) {
  if (!Ctx.SegScaleWord || !Ctx.SegScaleAt)
    return nullptr;
  if (!Ctx.SegScale) {
    // A kernel parameter, the same in every thread: ptxas sees each segment
    // length as uniform, as it saw the constant.
    IRBuilder<> B(Ctx.SegScaleAt);
    Ctx.SegScale = B.CreateAnd(B.CreateLShr(Ctx.SegScaleWord, B.getInt32(SegScaleShift)),
                               B.getInt32(SegScaleMask), "gmem.seg.scale");
  }
  return Ctx.SegScale;
}

void initRequestCache(IRBuilder<> &B, GlobalVariable *Cache) {
  B.CreateAlignedStore(B.getInt32(0), ctaStateWord(B, Cache, 0), Align(4), /*isVolatile=*/true);
  B.CreateAlignedStore(readClock(B), ctaStateWord(B, Cache, 1), Align(4), /*isVolatile=*/true);
}

// Why a cache: every warp of a barrier-free loop reading one L2 line is a
// hot spot (im2col's clone ran at 2.4x its kernel; with an L1-cached read,
// 1.15x: bench/preempt/results/parts). Only per-thread latch checks use it:
// thread 0's read at a joined barrier is one per CTA and overlaps the
// iteration's work, whereas a refresh's store needs the value at once
// (nbody's clone lost 27% that way).
// A warp that finds the deadline passed moves it and refreshes the value;
// others read shared memory. Several warps may refresh at once (harmless:
// they store values of the same word). A stale value only delays a stop:
// within one launch the request only ever goes from 0 to its one non-zero
// value, and the runtime clears it between launches, when shared memory
// starts afresh. The clock is per SM, as is the cache. Where checks come
// further apart than RefreshCycles, the warps that reach a check just after
// the one that refreshes read what the previous check stored, so they see
// a request one check interval late (kmeans_assign's every-trip check:
// stop P99 10.9 us after the write on the H200). Moving the deadline after
// the load instead (GMEM_CHECKPOINT_REFRESH_ORDER=after, experiments) lets
// those warps load too: 34 of 36 stops within 10 us instead of 33
// (kmeans 9.6, layernorm 10.0), but +1.8% -> +2.5% geomean as launched
// (gemm_naive +14% -> +28%; bench/preempt/results/session35/refresh-after;
// reloading only values older than 4 periods cost as much: refresh-stamp).
// GMEM_CHECKPOINT_REFRESH_ORDER=sparse, that order only at checks taken
// every trip of a body that costs the budget, did not separate the two
// either: kmeans 11.5 -> 10.6 us, but im2col +14.2% -> +20.1% and spmv_ell
// +10.3% -> +14.6% (bench/preempt/results/session38).
// (Warps of a CTA tend to refresh together; spreading them by %warpid
// changed nothing measurable: bench/preempt/results/parts/cache-v2.)
Value *cachedRequest(Instruction *Before, const CloneContext &Ctx, bool Sparse, bool Landed) {
  if (Landed && Ctx.Landing)
    return landedRequest(Before, Ctx);
  IRBuilder<> B(Before);
  Value *ValueWord = ctaStateWord(B, Ctx.ReqCache, 0);
  Value *Deadline = ctaStateWord(B, Ctx.ReqCache, 1);
  Value *Now = readClock(B);
  Value *Late = B.CreateSub(Now, B.CreateAlignedLoad(B.getInt32Ty(), Deadline, Align(4), true));
  Value *Due = B.CreateICmpSGE(Late, B.getInt32(0), "gmem.cache.due");
  Instruction *ThenTerm, *ElseTerm;
  SplitBlockAndInsertIfThenElse(Due, Before, &ThenTerm, &ElseTerm);
  ThenTerm->getParent()->setName("gmem.cache.refresh");
  ElseTerm->getParent()->setName("gmem.cache.hit");
  Before->getParent()->setName("gmem.cache.seen");
  IRBuilder<> TB(ThenTerm);
  // A second clock read rather than keeping Now live across the branch: the
  // check sits in the kernel's hottest loop, where a register can cost a CTA.
  auto MoveDeadline = [&] {
    TB.CreateAlignedStore(TB.CreateAdd(readClock(TB), TB.getInt32(Ctx.RefreshCycles)), Deadline,
                          Align(4), true);
  };
  const RefreshOrder Order = refreshOrder();
  const bool After = Order == RefreshOrder::After || (Order == RefreshOrder::Sparse && Sparse);
  if (!After)
    MoveDeadline();
  Value *Fresh = loadRequest(TB, Ctx.Ctl);
  TB.CreateAlignedStore(Fresh, ValueWord, Align(4), true);
  if (After)
    MoveDeadline();
  IRBuilder<> EB(ElseTerm);
  Value *Cached = EB.CreateAlignedLoad(EB.getInt32Ty(), ValueWord, Align(4), true,
                                       "gmem.request.cached");
  PHINode *P = PHINode::Create(B.getInt32Ty(), 2, "gmem.request.seen", Before->getIterator());
  P->addIncoming(Fresh, ThenTerm->getParent());
  P->addIncoming(Cached, ElseTerm->getParent());
  return P;
}

Value *emitRequestTest(Instruction *Before, const CloneContext &Ctx, bool NonZero, bool Cached,
                       bool Sparse, bool Landed) {
  Value *R = Cached && Ctx.ReqCache ? cachedRequest(Before, Ctx, Sparse, Landed) : nullptr;
  IRBuilder<> B(Before);
  if (!R)
    R = loadRequest(B, Ctx.Ctl);
  return NonZero ? B.CreateICmpNE(R, B.getInt32(0)) : B.CreateICmpEQ(R, B.getInt32(2));
}

Value *threadsPerCta(IRBuilder<> &B, GpuArch Arch) {
  if (Arch == GpuArch::NVPTX)
    return B.CreateMul(B.CreateMul(nvvm(B, Intrinsic::nvvm_read_ptx_sreg_ntid_x),
                                   nvvm(B, Intrinsic::nvvm_read_ptx_sreg_ntid_y)),
                       nvvm(B, Intrinsic::nvvm_read_ptx_sreg_ntid_z));
  return B.CreateMul(B.CreateMul(amdDispatchField(B, 4, B.getInt16Ty()),
                                 amdDispatchField(B, 6, B.getInt16Ty())),
                     amdDispatchField(B, 8, B.getInt16Ty()));
}

Value *ctaStateWord(IRBuilder<> &B, GlobalVariable *State, unsigned Word) {
  if (!State->getValueType()->isArrayTy())
    return State;
  return B.CreateConstInBoundsGEP2_32(State->getValueType(), State, 0, Word);
}

Value *barrierOr(IRBuilder<> &B, Value *Mine) {
  // llvm.nvvm.barrier0.or is i32(i32): bar.red.or.pred over "value != 0".
  Value *R = B.CreateIntrinsic(Intrinsic::nvvm_barrier0_or, {},
                               {B.CreateZExt(Mine, B.getInt32Ty())});
  return B.CreateICmpNE(R, B.getInt32(0), "gmem.cta.stop");
}

Value *unalignedBarrierOr(IRBuilder<> &B, Value *Mine, const Twine &Name) {
  auto *Ty = FunctionType::get(B.getInt32Ty(), {B.getInt32Ty()}, false);
  InlineAsm *Asm = InlineAsm::get(
      Ty,
      "{\n\t.reg .pred %gmp<2>;\n\tsetp.ne.u32 %gmp0, $1, 0;\n\t"
      "barrier.red.or.pred %gmp1, 0, %gmp0;\n\tselp.u32 $0, 1, 0, %gmp1;\n\t}",
      "=r,r,~{memory}", /*hasSideEffects=*/true);
  CallInst *R = B.CreateCall(Asm, {B.CreateZExt(Mine, B.getInt32Ty())});
  R->addFnAttr(Attribute::Convergent);
  return B.CreateICmpNE(R, B.getInt32(0), Name);
}

void emitAMDGPUBarrier(IRBuilder<> &B) {
  LLVMContext &Ctx = B.getContext();
  SyncScope::ID WG = Ctx.getOrInsertSyncScopeID("workgroup");
  B.CreateFence(AtomicOrdering::Release, WG);
  B.CreateIntrinsic(Intrinsic::amdgcn_s_barrier, {}, {});
  B.CreateFence(AtomicOrdering::Acquire, WG);
}

} // namespace gmem::ckpt

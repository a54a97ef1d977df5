//===- CheckpointPersistentLoop.h - Builder of the virtual-CTA loop -*- C++ -*-===//
//
// The state and helpers shared by the persistent forms' two protocols:
// the CTA protocol (CheckpointPersistent.cpp) and the free form's
// (CheckpointPersistentFree.cpp). Private to passes/lib/Transform.
//
//===----------------------------------------------------------------------===//

#ifndef GMEM_PASSES_CHECKPOINTPERSISTENTLOOP_H
#define GMEM_PASSES_CHECKPOINTPERSISTENTLOOP_H

#include "CheckpointInternal.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

namespace gmem::ckpt {

// The LLVM names the builder uses, for it and its two source files only.
using llvm::AllocaInst;
using llvm::Align;
using llvm::ArrayRef;
using llvm::ArrayType;
using llvm::BasicBlock;
using llvm::Constant;
using llvm::ConstantExpr;
using llvm::Function;
using llvm::FunctionType;
using llvm::GlobalValue;
using llvm::GlobalVariable;
using llvm::InlineAsm;
using llvm::Instruction;
using llvm::IntrinsicInst;
using llvm::IRBuilder;
using llvm::LLVMContext;
using llvm::Module;
using llvm::SmallVector;
using llvm::Twine;
using llvm::Type;
using llvm::UndefValue;
using llvm::Value;

inline constexpr unsigned PersistentSharedAS = 3; ///< NVPTX shared memory

struct LoopBuilder {
  Function &C;
  CloneContext &Ctx;
  const PersistentParts &Parts;
  LLVMContext &LC;
  Value *Grid[3] = {};
  Value *Tid0 = nullptr, *Total = nullptr, *Stride = nullptr, *Word[2] = {};
  AllocaInst *Req = nullptr;
  /// Parts.Batch: the check interval K (>= 1, from grid_z's high bits) and
  /// the virtual CTAs left until the next check, this one included.
  Value *BatchK = nullptr;
  AllocaInst *Left = nullptr;
  /// The loop's state: allocas (promoted to registers) or, with
  /// GMEM_CHECKPOINT_STATE=shared, words of a shared array read and written
  /// with volatile accesses, so nothing holds them in a register across the
  /// body.
  Value *Vcta = nullptr, *Next = nullptr, *Coord[3] = {}, *StepWord[3] = {}, *TotalWord = nullptr;
  SmallVector<AllocaInst *, 8> Allocas;
  GlobalVariable *State = nullptr;
  Value *StepBy[3] = {};
  bool Carried = false; ///< coordinates carried from one virtual CTA to the next
  BasicBlock *Header = nullptr, *Ret = nullptr;
  /// Balanced tail (Parts.TailPercent): tickets from StaticEnd on are
  /// claimed from control word 1. Claim: this virtual CTA's thread 0
  /// claims the next ticket (into Mine, published in ClaimSlots[Par]);
  /// Fixed: Next came from the CTA's resume word and needs no claim.
  Value *StaticEnd = nullptr, *ClaimWord = nullptr;
  GlobalVariable *ClaimSlots = nullptr;
  AllocaInst *Claim = nullptr, *Fixed = nullptr, *Mine = nullptr, *Par = nullptr;

  LoopBuilder(Function &C, CloneContext &Ctx, const PersistentParts &Parts)
      : C(C), Ctx(Ctx), Parts(Parts), LC(C.getContext()) {}

  BasicBlock *block(const char *Name) { return BasicBlock::Create(LC, Name, &C); }

  Value *ld(IRBuilder<> &B, Value *Slot, const Twine &Name = "") {
    return B.CreateAlignedLoad(B.getInt32Ty(), Slot, Align(4), /*isVolatile=*/State != nullptr,
                               Name);
  }
  void st(IRBuilder<> &B, Value *V, Value *Slot) {
    B.CreateAlignedStore(V, Slot, Align(4), /*isVolatile=*/State != nullptr);
  }

  /// The body's reads of blockIdx/gridDim, collected once before the loop
  /// is built (the loop adds reads of its own).
  SmallVector<IntrinsicInst *, 16> GeometryReads;

  void collectGeometry() {
    for (Instruction &I : llvm::instructions(C))
      if (auto *II = llvm::dyn_cast<IntrinsicInst>(&I)) {
        bool IsCount;
        if (gridAxis(II->getIntrinsicID(), IsCount) >= 0)
          GeometryReads.push_back(II);
      }
  }

  void replaceGeometry(Value *Cta[3]) {
    for (IntrinsicInst *II : GeometryReads) {
      bool IsCount;
      int Axis = gridAxis(II->getIntrinsicID(), IsCount);
      II->replaceAllUsesWith(IsCount ? Grid[Axis] : Cta[Axis]);
      II->eraseFromParent();
    }
    GeometryReads.clear();
  }

  /// Whether the body reads blockIdx.y or blockIdx.z.
  bool readsCtaYZ() const {
    return llvm::any_of(GeometryReads, [](IntrinsicInst *II) {
      bool IsCount;
      return gridAxis(II->getIntrinsicID(), IsCount) > 0 && !IsCount;
    });
  }

  /// The coordinates of virtual CTA V into the Coord slots, by division: at
  /// the start and after a redo only.
  void storeCoords(IRBuilder<> &B, Value *V) {
    Value *Q = B.CreateUDiv(V, Grid[0]);
    st(B, B.CreateURem(V, Grid[0]), Coord[0]);
    st(B, B.CreateURem(Q, Grid[1]), Coord[1]);
    st(B, B.CreateUDiv(Q, Grid[1]), Coord[2]);
  }

  /// Thread 0 records where this CTA stands: word 0 the virtual CTA to run
  /// again first (+1, 0 for none), word 1 the next one of its own (+1).
  void record(IRBuilder<> &B, Value *Redo, Value *NextTicket) {
    Value *W0 = Word[0], *W1 = Word[1];
    if (State) {
      // The words' address anew from %ctaid.x: an asm read is not merged
      // with the entry's, so no 64-bit pointer lives across the body.
      auto *Ty = FunctionType::get(B.getInt32Ty(), false);
      Value *P = B.CreateCall(InlineAsm::get(Ty, "mov.u32 $0, %ctaid.x;", "=r", true), {});
      W0 = wordsOf(B, P);
      W1 = B.CreateInBoundsGEP(B.getInt8Ty(), W0, B.getInt64(4));
    }
    B.CreateAlignedStore(Redo, W0, Align(4));
    B.CreateAlignedStore(B.CreateAdd(NextTicket, B.getInt32(1)), W1, Align(4));
  }

  Value *claimSlot(IRBuilder<> &B) {
    return B.CreateInBoundsGEP(ClaimSlots->getValueType(), ClaimSlots,
                               {B.getInt32(0), B.CreateLoad(B.getInt32Ty(), Par)});
  }

  /// Control words of persistent CTA P (redo; resume is 4 bytes on).
  Value *wordsOf(IRBuilder<> &B, Value *P) {
    Value *Off = B.CreateAdd(B.getInt64(8), B.CreateShl(B.CreateZExt(P, B.getInt64Ty()), 3));
    return B.CreateInBoundsGEP(B.getInt8Ty(), Ctx.Ctl, Off, "gmem.redo");
  }

  SmallVector<AllocaInst *, 8> build();

  /// What both protocols share: the loop's state slots, the virtual CTA's
  /// coordinates in the header (the body's blockIdx/gridDim replaced), the
  /// persistent CTA's words, the total and the coordinate steps. \p B sits
  /// before the entry block's terminator.
  void setUp(IRBuilder<> &B);

  /// The end of the header's coordinate computation (the body's entry
  /// follows it).
  BasicBlock *HeaderEnd = nullptr;

  /// Per virtual CTA, one stop decision for the whole CTA (`bar.red.or`,
  /// or stampedBarrier where Parts.StampedStop asks for it).
  void buildCtaProtocol(IRBuilder<> &B);

  Value *PCtaValue = nullptr;
  AllocaInst *Deadline = nullptr; ///< free form: when this thread looks next

  /// The CTA protocol's stop word (word 0 of a shared pair), where
  /// Parts.StampedStop asks for it.
  GlobalVariable *StopWord = nullptr;

  /// The end-of-virtual-CTA decision as a plain barrier and a shared word
  /// (CheckpointPersistent.cpp says why one word suffices).
  Value *stampedBarrier(IRBuilder<> &B, Value *Mine, Value *Cur);

  /// Where Parts.LateReadCycles asks for late reads: a shared word holding
  /// the %clock of thread 0's request read at the virtual CTA's start.
  GlobalVariable *StartWord = nullptr;

  /// Thread 0's stop request at the end of a virtual CTA, read again there
  /// when the virtual CTA ran long (CheckpointPersistent.cpp).
  Value *askedAtEnd(IRBuilder<> &B);

  /// The free form (`__gmem_prf_`, kernels without barriers, warp
  /// collectives or shared memory): every thread loops over the virtual
  /// CTAs on its own and decides its own stop, so a virtual CTA costs no
  /// barrier and no per-CTA request read. On leaving, each thread folds the
  /// first virtual CTA it has not finished (+1) into its CTA's resume word
  /// with an atomic min; a relaunch restarts every thread there, re-running
  /// what threads that were ahead had done: for idempotent launches only
  /// (the runtime's rule, docs/PREEMPTION_DESIGN.md).
  void buildFreeProtocol(IRBuilder<> &B);
  template <typename Fn> Value *lookWhen(Value *Due, Instruction *At, Fn Before);

  /// The coordinates of the virtual CTA P further on from \p Here, by
  /// adding P's coordinates with carries: coord + step + carry < 2 * grid,
  /// so one subtraction wraps it (z needs none: the ticket is below the
  /// total).
  void stepCoords(IRBuilder<> &PB, Value *Here[3]) {
    Type *I32 = PB.getInt32Ty();
    Value *Carry = nullptr;
    for (unsigned I = 0; I < 3; ++I) {
      Value *Sum = PB.CreateAdd(Here[I], State ? ld(PB, StepWord[I]) : StepBy[I]);
      if (I > 0)
        Sum = PB.CreateAdd(Sum, PB.CreateZExt(Carry, I32));
      if (I < 2) {
        Carry = PB.CreateICmpUGE(Sum, Grid[I]);
        Sum = PB.CreateSelect(Carry, PB.CreateSub(Sum, Grid[I]), Sum);
      }
      st(PB, Sum, Coord[I]);
    }
  }
};

} // namespace gmem::ckpt

#endif // GMEM_PASSES_CHECKPOINTPERSISTENTLOOP_H

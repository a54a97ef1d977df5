//===- AccessCollector.cpp - Global-memory accesses of a kernel -----------===//

#include "gmem/passes/AccessCollector.h"
#include "gmem/passes/AsmMemoryAccesses.h"
#include "gmem/passes/GpuTarget.h"
#include "gmem/passes/LaunderedPointers.h"
#include "gmem/passes/MatrixFragmentAccesses.h"

#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace gmem {
namespace {

/// Whether the address \p Ptr is computed from the integer value of a
/// pointer into another object than those of \p Objs: `b + (a - b)`, `a +
/// (b - a) * flag`, `(char *)b + ((uintptr_t)a - (uintptr_t)b)`. LLVM keeps
/// b's provenance for such an address, but the hardware reaches a's memory
/// (an adversarial corpus on the H200, session 46: writes outside the
/// predicted regions, and in-place updates called idempotent). The
/// addresses of Objs themselves may take part (alignment arithmetic on the
/// same pointer); with Objs empty, any pointer's value counts. A slice too
/// large to walk counts as such an address.
/// Values read from memory or returned by calls count where \p Laundered
/// says they may carry a pointer's value.
bool addressUsesOtherPointer(const Value *Ptr, ArrayRef<const Value *> Objs,
                             const LaunderedPointers &Laundered) {
  SmallVector<const Value *, 16> Work{Ptr};
  SmallPtrSet<const Value *, 32> Seen;
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    if (Seen.size() > 1024)
      return true;
    if (const auto *PI = dyn_cast<PtrToIntOperator>(V)) {
      SmallVector<const Value *, 4> Found;
      getUnderlyingObjects(PI->getPointerOperand(), Found, /*LI=*/nullptr, /*MaxLookup=*/0);
      if (any_of(Found, [&](const Value *O) { return !is_contained(Objs, O); }))
        return true;
      continue;
    }
    // Values read from memory or returned by calls are data, unless they
    // may carry a pointer's value (LaunderedPointers.h); a pointer
    // laundered through memory reaches the access as a loaded or
    // integer-made pointer, which resolve() already calls unknown.
    if (Laundered.carries(V))
      return true;
    if (isa<LoadInst>(V) || isa<CallBase>(V) || isa<AtomicRMWInst>(V) || isa<AtomicCmpXchgInst>(V))
      continue;
    if (isa<GlobalValue>(V) || isa<Argument>(V))
      continue;
    if (isa<Instruction>(V) || isa<ConstantExpr>(V))
      for (const Value *Op : cast<User>(V)->operands())
        Work.push_back(Op);
  }
  return false;
}

/// An atomic whose operand leaves every value as it is (x | 0, x & ~0,
/// x + 0, max(x, INT_MIN), ...).
bool isNoOpAtomic(const AtomicRMWInst &RMW) {
  const auto *C = dyn_cast<ConstantInt>(RMW.getValOperand());
  if (!C)
    return false;
  const APInt &V = C->getValue();
  switch (RMW.getOperation()) {
  case AtomicRMWInst::Add:
  case AtomicRMWInst::Sub:
  case AtomicRMWInst::Or:
  case AtomicRMWInst::Xor:
  case AtomicRMWInst::UMax:
    return V.isZero();
  case AtomicRMWInst::And:
  case AtomicRMWInst::UMin:
    return V.isAllOnes();
  case AtomicRMWInst::Max:
    return V.isMinSignedValue();
  case AtomicRMWInst::Min:
    return V.isMaxSignedValue();
  default:
    return false;
  }
}

/// An atomic whose operation is commutative, associative and idempotent
/// (integer max, min, and, or; or one that changes nothing) and whose old
/// value nothing uses: whatever the order of the threads, and however often
/// a restarted CTA applies it again, the bytes end as the operation over
/// their old value and every operand (KernelAnalysis demotes an object
/// combined by more than one operation or width: max and min do not
/// commute). Float max/min are left out (the hardware's NaN rules are not
/// LLVM's); an exchange with its old value unused is a plain store (visit).
bool isIdempotentCombine(const AtomicRMWInst &RMW) {
  if (RMW.isVolatile() || !RMW.use_empty())
    return false;
  if (isNoOpAtomic(RMW))
    return true;
  switch (RMW.getOperation()) {
  case AtomicRMWInst::Max:
  case AtomicRMWInst::Min:
  case AtomicRMWInst::UMax:
  case AtomicRMWInst::UMin:
  case AtomicRMWInst::And:
  case AtomicRMWInst::Or:
    return true;
  default:
    return false;
  }
}

// Address spaces that never hold global memory, on both NVPTX and AMDGPU:
// 3 is shared/LDS, 5 is local/private.
bool isNonGlobalAddrSpace(unsigned AS) { return AS == 3 || AS == 5; }

class Collector {
public:
  Collector(Function &F, ScalarEvolution &SE)
      : F(F), SE(SE), DL(F.getDataLayout()), Laundered(F) {}

  AccessList run() {
    for (Instruction &I : instructions(F))
      visit(I);
    return std::move(Result);
  }

private:
  Function &F;
  ScalarEvolution &SE;
  const DataLayout &DL;
  /// Loaded or returned values that may carry a pointer's value.
  const LaunderedPointers Laundered;
  AccessList Result;

  const SCEV *bytes(uint64_t N) { return SE.getConstant(Type::getInt64Ty(F.getContext()), N); }
  /// Bytes of T; null for scalable vectors (no constant size: the region
  /// then becomes the whole allocation).
  const SCEV *sizeOf(Type *T) {
    TypeSize TS = DL.getTypeStoreSize(T);
    return TS.isScalable() ? nullptr : bytes(TS.getFixedValue());
  }

  void visit(Instruction &I) {
    if (auto *LI = dyn_cast<LoadInst>(&I)) {
      // Loads of AMDGPU launch sizes from the dispatch packet are not user memory.
      if (classifyGeometry(LI))
        return;
      add(I, LI->getPointerOperand(), sizeOf(LI->getType()), true, false, false);
    } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
      add(I, SI->getPointerOperand(), sizeOf(SI->getValueOperand()->getType()), false, true,
          false);
    } else if (auto *RMW = dyn_cast<AtomicRMWInst>(&I)) {
      if (RMW->getOperation() == AtomicRMWInst::Xchg && RMW->use_empty() && !RMW->isVolatile()) {
        // An exchange whose old value nothing uses is a store: what it
        // leaves depends on no byte from before it, and two threads
        // exchanging different values into one word race as two stores
        // would (assumed absent, test/gpu/README.md "Races").
        add(I, RMW->getPointerOperand(), sizeOf(RMW->getValOperand()->getType()), false, true,
            false);
        return;
      }
      const bool Combine = isIdempotentCombine(*RMW);
      add(I, RMW->getPointerOperand(), sizeOf(RMW->getValOperand()->getType()), true, true,
          !Combine, Combine, Combine && isNoOpAtomic(*RMW));
    } else if (auto *CX = dyn_cast<AtomicCmpXchgInst>(&I)) {
      add(I, CX->getPointerOperand(), sizeOf(CX->getCompareOperand()->getType()), true, true,
          true);
    } else if (auto *MT = dyn_cast<MemTransferInst>(&I)) {
      const SCEV *Len = SE.getSCEV(MT->getLength());
      add(I, MT->getRawDest(), Len, false, true, false);
      add(I, MT->getRawSource(), Len, true, false, false);
    } else if (auto *MS = dyn_cast<MemSetInst>(&I)) {
      add(I, MS->getRawDest(), SE.getSCEV(MS->getLength()), false, true, false);
    } else if (auto *CB = dyn_cast<CallBase>(&I)) {
      visitCall(*CB);
    }
  }

  void visitCall(CallBase &CB) {
    // Inline asm: clang marks asm without a "memory" clobber memory(none),
    // yet `ld.global [%1]` reads through a pointer operand. Trust nothing:
    // every pointer operand's object is read and written, and an asm that
    // takes 64-bit integers (possible addresses) or clobbers memory may
    // touch anything.
    if (CB.isInlineAsm()) {
      // Loads, stores, atomics and cp.async copies whose address is a
      // pointer operand and whose width the text states: bounded accesses.
      if (auto Accesses = matchAsmAccesses(CB)) {
        for (const AsmAccess &A : *Accesses)
          add(CB, A.Ptr, bytes(A.Bytes), A.Reads, A.Writes, A.Atomic);
        return;
      }
      // What the asm text can do: memory is only reached through memory
      // instructions, so an asm with none (shuffles, moves, conversions, as
      // in CUB) touches nothing, and one with only loads only reads.
      auto Use = scanAsmMemoryUse(cast<InlineAsm>(CB.getCalledOperand())->getAsmString(),
                                  getGpuArch(*F.getParent()));
      if (!Use.Reads && !Use.Writes)
        return;
      bool MayTouchAnything = CB.arg_empty();
      const DataLayout &DL = F.getParent()->getDataLayout();
      const bool AMDGPU = getGpuArch(*F.getParent()) == GpuArch::AMDGPU;
      for (Value *Arg : CB.args()) {
        Type *T = Arg->getType();
        if (T->isPointerTy())
          addWhole(CB, Arg, Use.Reads, Use.Writes, "passed to inline asm");
        // A possible address: a 64-bit integer (PTX addresses are .b64
        // registers); on AMDGPU any 64-bit or wider operand, as registers
        // of any type form a VGPR pair or a <4 x i32> buffer descriptor.
        else if (T->isSized() && DL.getTypeSizeInBits(T).getKnownMinValue() >= 64 &&
                 (AMDGPU || T->isIntegerTy()))
          MayTouchAnything = true;
      }
      // An address the text builds from anything but a pointer operand
      // (two 32-bit halves, a double's bits, a loaded value) reaches memory
      // no operand names. Where every address derives from a pointer
      // operand, those operands' objects are all the text can touch, a
      // "memory" clobber or not (it orders the compiler, not the GPU).
      const bool FromPointers =
          getGpuArch(*F.getParent()) == GpuArch::NVPTX && asmAddressesFromPointers(CB);
      if (getGpuArch(*F.getParent()) == GpuArch::NVPTX && !FromPointers)
        MayTouchAnything = true;
      if (MayTouchAnything || (!CB.doesNotAccessMemory() && !FromPointers)) {
        MemAccess A;
        A.Inst = &CB;
        A.Reads = Use.Reads;
        A.Writes = Use.Writes;
        A.WidenReason = "inline asm may touch any memory";
        Result.Accesses.push_back(A);
      }
      return;
    }
    if (isAMDGPUDescriptorAccess(CB)) {
      StringRef N = CB.getCalledFunction()->getName();
      MemAccess A;
      A.Inst = &CB;
      A.Reads = true;
      // Loads (also to LDS) write no global memory; stores and atomics may.
      A.Writes = !N.contains(".load") || N.contains("atomic");
      A.Target = AccessTarget::Unknown;
      A.WidenReason = "'" + N.str() + "' reaches memory through a resource descriptor";
      Result.Accesses.push_back(A);
      return;
    }
    if (isMemoryNeutralCall(CB))
      return;
    if (auto Copy = matchAsyncCopyIntrinsic(CB)) {
      add(CB, Copy->Ptr, bytes(Copy->Bytes), /*Reads=*/true, /*Writes=*/false, /*Atomic=*/false);
      return;
    }
    if (auto Tile = matchMatrixFragmentAccess(CB)) {
      addTile(CB, *Tile);
      return;
    }
    Function *Callee = CB.getCalledFunction();
    StringRef Name = Callee ? Callee->getName() : "";
    // NVPTX atomic intrinsics with a pointer first operand.
    if (auto *II = dyn_cast<IntrinsicInst>(&CB)) {
      Intrinsic::ID ID = II->getIntrinsicID();
      if (ID == Intrinsic::nvvm_atomic_load_inc_32 || ID == Intrinsic::nvvm_atomic_load_dec_32 ||
          Name.starts_with("llvm.nvvm.atomic.") || Name.starts_with("llvm.amdgcn.atomic.") ||
          Name.starts_with("llvm.amdgcn.global.atomic.") ||
          Name.starts_with("llvm.amdgcn.flat.atomic.")) {
        Type *T = CB.getType()->isVoidTy() ? CB.getArgOperand(1)->getType() : CB.getType();
        add(CB, CB.getArgOperand(0), sizeOf(T), true, true, true);
        return;
      }
      if (Name.starts_with("llvm.nvvm.ldg.global.") || Name.starts_with("llvm.nvvm.ldu.global.")) {
        add(CB, CB.getArgOperand(0), sizeOf(CB.getType()), true, false, false);
        return;
      }
    }
    // printf reads its format string and a stack buffer of arguments; its
    // output is remembered (the kernel is not idempotent). A failed assert
    // prints and then aborts the launch, so nothing runs again after it.
    if (Name == "vprintf" || Name.starts_with("__ockl_printf")) {
      if (!Result.Prints)
        Result.Prints = &CB;
      return;
    }
    if (Name == "__assertfail" || Name == "__assert_fail")
      return;
    MemoryEffects ME = CB.getMemoryEffects();
    if (ME.onlyAccessesArgPointees()) {
      ModRefInfo MR = ME.getModRef(IRMemLocation::ArgMem);
      for (Value *Arg : CB.args()) {
        if (!Arg->getType()->isPointerTy())
          continue;
        std::string Why = "passed to call of " + (Name.empty() ? std::string("an indirect callee")
                                                               : Name.str());
        addWhole(CB, Arg, isRefSet(MR), isModSet(MR), Why);
      }
      return;
    }
    MemAccess A;
    A.Inst = &CB;
    A.Reads = isRefSet(ME.getModRef());
    A.Writes = isModSet(ME.getModRef());
    A.Target = AccessTarget::Unknown;
    A.WidenReason = Name.empty() ? "indirect call may touch any memory"
                                 : "call to '" + Name.str() + "' may touch any memory";
    if (A.Reads || A.Writes)
      Result.Accesses.push_back(A);
  }

  // Resolves Ptr to the object it points into. Returns false when the access
  // is to non-global memory and must be ignored.
  bool resolve(Value *Ptr, MemAccess &A) {
    if (isNonGlobalAddrSpace(Ptr->getType()->getPointerAddressSpace()))
      return false;
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(Ptr, Objects, /*LI=*/nullptr, /*MaxLookup=*/0);
    SmallVector<const Value *, 4> Global;
    for (const Value *O : Objects) {
      if (isa<AllocaInst>(O) || isNonGlobalAddrSpace(O->getType()->getPointerAddressSpace()))
        continue;
      if (auto *GV = dyn_cast<GlobalVariable>(O)) {
        if (isNonGlobalAddrSpace(GV->getAddressSpace()))
          continue;
        // __constant__ memory (address space 4) and constant globals are
        // read-only for the kernel: reading them can never conflict.
        if (GV->getAddressSpace() == 4 || GV->isConstant()) {
          if (A.Writes)
            Global.push_back(O); // a write there is UB; keep it visible
          continue;
        }
      }
      if (auto *II = dyn_cast<IntrinsicInst>(O)) {
        Intrinsic::ID ID = II->getIntrinsicID();
        if (ID == Intrinsic::amdgcn_kernarg_segment_ptr || ID == Intrinsic::amdgcn_dispatch_ptr ||
            ID == Intrinsic::amdgcn_implicitarg_ptr)
          continue; // kernel arguments and dispatch packet: not user memory
      }
      if (auto *Arg = dyn_cast<Argument>(O)) {
        if (isAggregateParam(*Arg))
          continue; // by-value aggregate in the parameter space, not global memory
      }
      Global.push_back(O);
    }
    if (Global.empty())
      return false;
    if (addressUsesOtherPointer(Ptr, Global, Laundered)) {
      // (With several candidates too: `(flag ? a : b) + (c - p)` reaches c.)
      A.Target = AccessTarget::Unknown;
      A.WidenReason = "address computed from another pointer's value (a pointer difference)";
      return true;
    }
    if (Global.size() > 1) {
      if (recordSharedOffset(Ptr, Global, A))
        return false; // one access per candidate, already recorded
      A.Target = AccessTarget::Unknown;
      A.WidenReason = "pointer may point into one of several objects";
      // Record each candidate object as wholly accessed.
      for (const Value *O : Global)
        recordWholeObject(A, O);
      return false; // already recorded
    }
    const Value *Obj = Global.front();
    if (!setTarget(A, Obj)) {
      A.Target = AccessTarget::Unknown;
      A.WidenReason = isa<LoadInst>(Obj) ? "pointer loaded from memory"
                      : isa<CallBase>(Obj) ? "pointer returned by a call"
                      : isa<IntToPtrInst>(Obj) || isa<ConstantExpr>(Obj)
                          ? "pointer made from an integer"
                          : "pointer the analysis cannot trace to a parameter";
      return true;
    }
    // Byte offset from the object, if SCEV can follow the arithmetic.
    const SCEV *P = SE.getSCEV(Ptr);
    const SCEV *Base = SE.getSCEV(const_cast<Value *>(Obj));
    if (P->getType() != Base->getType()) {
      // The arithmetic done on the generic pointer, then a cast to the
      // global space for the access (libcu++'s memcpy_async hands cp.async
      // `cvta.to.global` of a generic address): the cast keeps the address,
      // so the offset is the generic pointer's.
      const Value *Generic = Ptr;
      while (auto *Cast = dyn_cast<AddrSpaceCastOperator>(Generic))
        Generic = Cast->getOperand(0);
      if (Generic->getType() == Obj->getType())
        P = SE.getSCEV(const_cast<Value *>(Generic));
    }
    if (P->getType() != Base->getType()) {
      // A generic pointer cast to the global address space before the
      // arithmetic (HIP: a pointer field of a by-value struct): the cast
      // keeps the address, so offsets from it are offsets from Obj.
      if (auto *U = dyn_cast<SCEVUnknown>(SE.getPointerBase(P))) {
        const Value *V = U->getValue();
        while (auto *Cast = dyn_cast<AddrSpaceCastOperator>(V))
          V = Cast->getOperand(0);
        if (V == Obj)
          Base = U;
      }
    }
    if (P->getType() == Base->getType()) {
      const SCEV *Off = SE.getMinusSCEV(P, Base);
      if (!isa<SCEVCouldNotCompute>(Off) && !SE.getPointerBase(Off)->getType()->isPointerTy())
        A.Offset = Off;
    }
    if (!A.Offset)
      A.WidenReason = "pointer arithmetic the analysis cannot follow";
    return true;
  }

  /// `(flag ? a : b)[i]`, a phi of bases alike: where the pointer is one
  /// offset from a select or phi whose every incoming value is one of the
  /// candidate objects itself (no offset of its own), the access lies at
  /// that offset from whichever object was chosen, so each candidate gets
  /// the offset's region instead of its whole allocation. The address must
  /// use no pointer's integer value at all (resolve() has ruled out other
  /// objects' already). False: nothing recorded.
  bool recordSharedOffset(Value *Ptr, ArrayRef<const Value *> Objs, const MemAccess &Proto) {
    if (addressUsesOtherPointer(Ptr, {}, Laundered))
      return false;
    const SCEV *P = SE.getSCEV(Ptr);
    const auto *Base = dyn_cast<SCEVUnknown>(SE.getPointerBase(P));
    if (!Base)
      return false;
    // The web of selects and phis the base is chosen by (ping-pong buffers
    // swapped in a loop are phis of phis): every value that enters it from
    // outside must be one of the objects.
    const Value *Choice = Base->getValue()->stripPointerCasts();
    if (!isa<SelectInst>(Choice) && !isa<PHINode>(Choice))
      return false;
    SmallVector<const Value *, 8> Work{Choice};
    SmallPtrSet<const Value *, 8> Web, Covered;
    while (!Work.empty()) {
      const Value *V = Work.pop_back_val()->stripPointerCasts();
      if (const auto *Sel = dyn_cast<SelectInst>(V)) {
        if (Web.insert(V).second)
          Work.append({Sel->getTrueValue(), Sel->getFalseValue()});
      } else if (const auto *Phi = dyn_cast<PHINode>(V)) {
        if (Web.insert(V).second)
          Work.append(Phi->op_begin(), Phi->op_end());
      } else if (is_contained(Objs, V)) {
        Covered.insert(V);
      } else {
        return false;
      }
      if (Web.size() > 32)
        return false;
    }
    if (Covered.size() != Objs.size())
      return false;
    const SCEV *Off = SE.getMinusSCEV(P, Base);
    if (isa<SCEVCouldNotCompute>(Off) || SE.getPointerBase(Off)->getType()->isPointerTy())
      return false;
    SmallVector<MemAccess, 4> Each;
    for (const Value *O : Objs) {
      MemAccess A = Proto;
      if (!setTarget(A, O))
        return false;
      A.Offset = Off;
      A.WidenReason.clear();
      Each.push_back(A);
    }
    append_range(Result.Accesses, Each);
    return true;
  }

  /// A's target for object O (a parameter, a module global or a pointer
  /// field of a by-value parameter); false for anything else.
  static bool setTarget(MemAccess &A, const Value *O) {
    if (auto *Arg = dyn_cast<Argument>(O)) {
      A.Target = AccessTarget::Param;
      A.ParamIndex = Arg->getArgNo();
    } else if (auto *GV = dyn_cast<GlobalVariable>(O)) {
      A.Target = AccessTarget::Global;
      A.Global = const_cast<GlobalVariable *>(GV);
    } else if (auto F = matchParamField(O); F && F->IsPointer) {
      A.Target = AccessTarget::Field;
      A.ParamIndex = F->Param;
      A.FieldOffset = F->Offset;
    } else {
      return false;
    }
    return true;
  }

  void recordWholeObject(const MemAccess &Proto, const Value *O) {
    MemAccess A = Proto;
    A.Offset = nullptr;
    if (!setTarget(A, O))
      A.Target = AccessTarget::Unknown;
    Result.Accesses.push_back(A);
  }

  void add(Instruction &I, Value *Ptr, const SCEV *Size, bool Reads, bool Writes, bool Atomic,
           bool Combine = false, bool ChangesNothing = false) {
    MemAccess A;
    A.Inst = &I;
    A.Reads = Reads;
    A.Writes = Writes;
    A.Atomic = Atomic;
    A.Combine = Combine;
    A.ChangesNothing = ChangesNothing;
    A.Size = Size;
    if (resolve(Ptr, A))
      Result.Accesses.push_back(A);
  }

  /// A wmma tile: line i starts Stride * i elements after Ptr. Its bytes
  /// lie within [Ptr + min(0, Near), Ptr + max(0, Far) + one line), where
  /// Near and Far are the last line's start with the stride read signed and
  /// unsigned: the span holds whichever way the hardware reads a stride
  /// with its top bit set.
  void addTile(CallBase &CB, const MatrixFragmentAccess &T) {
    Type *I64 = Type::getInt64Ty(F.getContext());
    const SCEV *Stride = SE.getSCEV(T.Stride);
    const SCEV *LastLine = bytes(uint64_t(T.Lines - 1) * T.ElemBytes);
    // Where the branches to the call prove the stride >= 0 (a `k < K` loop
    // around it), both readings agree and the tile starts at Ptr.
    bool NonNeg = SE.isKnownPredicateAt(ICmpInst::ICMP_SGE, Stride,
                                        SE.getZero(Stride->getType()), &CB);
    const SCEV *Near = SE.getMulExpr(
        NonNeg ? SE.getZeroExtendExpr(Stride, I64) : SE.getSignExtendExpr(Stride, I64), LastLine);
    const SCEV *Far = SE.getMulExpr(SE.getZeroExtendExpr(Stride, I64), LastLine);
    const SCEV *Lo = SE.getSMinExpr(bytes(0), Near);
    const SCEV *Hi =
        SE.getAddExpr(SE.getSMaxExpr(bytes(0), Far), bytes(uint64_t(T.LineElems) * T.ElemBytes));
    MemAccess A;
    A.Inst = &CB;
    A.Reads = T.Reads;
    A.Writes = !T.Reads;
    A.Size = SE.getMinusSCEV(Hi, Lo);
    if (!resolve(T.Ptr, A))
      return;
    if (A.Offset)
      A.Offset = SE.getAddExpr(A.Offset, Lo);
    Result.Accesses.push_back(A);
  }

  void addWhole(Instruction &I, Value *Ptr, bool Reads, bool Writes, const std::string &Why) {
    MemAccess A;
    A.Inst = &I;
    A.Reads = Reads;
    A.Writes = Writes;
    if (!resolve(Ptr, A))
      return;
    A.Offset = nullptr;
    if (A.WidenReason.empty())
      A.WidenReason = Why;
    Result.Accesses.push_back(A);
  }
};

} // namespace

AccessList collectAccesses(Function &F, ScalarEvolution &SE) { return Collector(F, SE).run(); }

} // namespace gmem

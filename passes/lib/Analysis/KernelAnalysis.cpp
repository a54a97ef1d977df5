//===- KernelAnalysis.cpp - Regions and idempotence of kernels ------------===//

#include "gmem/passes/KernelAnalysis.h"
#include "gmem/compiler/InstanceCheck.h"
#include "gmem/passes/AccessCollector.h"
#include "gmem/passes/CoveredLoads.h"
#include "gmem/passes/DisjointnessProver.h"
#include "gmem/passes/GpuTarget.h"
#include "gmem/passes/IdempotentUpdates.h"
#include "gmem/passes/LaunchVariants.h"
#include "gmem/passes/NondeterministicOutput.h"
#include "gmem/passes/SymbolicRange.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <set>
#include <map>

using namespace llvm;

namespace gmem {

AnalysisKey KernelRegionAnalysis::Key;

namespace {

/// At most this many (read, write) pairs per object go to the prover; past
/// it the object is reported unproven rather than slowing the build.
constexpr unsigned MaxProverPairs = 96;
/// Inlining budget per kernel on the analysis copy.
constexpr unsigned MaxInlinedCalls = 400;

ScalarType scalarTypeOf(const Argument &A) {
  Type *T = A.getType();
  if (T->isPointerTy())
    return isAggregateParam(A) ? ScalarType::Other : ScalarType::Ptr;
  if (T->isIntegerTy(8) || T->isIntegerTy(1)) return ScalarType::I8;
  if (T->isIntegerTy(16)) return ScalarType::I16;
  if (T->isIntegerTy(32)) return ScalarType::I32;
  if (T->isIntegerTy(64)) return ScalarType::I64;
  if (T->isHalfTy() || T->isBFloatTy()) return ScalarType::F16;
  if (T->isFloatTy()) return ScalarType::F32;
  if (T->isDoubleTy()) return ScalarType::F64;
  return ScalarType::Other;
}

/// Accesses grouped by the object they touch: parameter index >= 0, or
/// -(1 + global index).
struct ObjectAccesses {
  /// Plain reads, and every write (combines included).
  std::vector<const MemAccess *> Reads, Writes;
  /// Atomic max/min/and/or updates (MemAccess::Combine): writes for the
  /// plain reads, and reads for the plain writes (a store into a combined
  /// word between two runs' combines changes what they leave).
  std::vector<const MemAccess *> Combines;
};

class Classifier {
public:
  Classifier(KernelDescriptor &K) : K(K) {}

  void nonIdempotent(const std::string &Why) {
    if (NonIdem.empty())
      NonIdem = Why;
  }
  void unknown(const std::string &Why) {
    if (Unknown.empty())
      Unknown = Why;
  }
  void conditional(const std::string &Why) {
    if (Cond.empty())
      Cond = Why;
  }
  void finish(const std::string &IdemWhy) {
    if (!NonIdem.empty()) {
      K.Class = IdempotenceClass::NonIdempotent;
      K.ClassReason = NonIdem;
    } else if (!Unknown.empty()) {
      K.Class = IdempotenceClass::Unknown;
      K.ClassReason = Unknown;
    } else if (!Cond.empty()) {
      K.Class = IdempotenceClass::Conditional;
      K.ClassReason = Cond;
    } else {
      K.Class = IdempotenceClass::Idempotent;
      K.ClassReason = IdemWhy;
    }
  }

private:
  KernelDescriptor &K;
  std::string NonIdem, Unknown, Cond;
};

} // namespace

KernelDescriptor analyzeKernel(Function &F, FunctionAnalysisManager &FAM) {
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &LI = FAM.getResult<LoopAnalysis>(F);

  KernelDescriptor K;
  K.Symbol = F.getName().str();
  K.Name = demangle(K.Symbol);
  K.PlainName = plainName(K.Name);
  K.Target = gpuArchName(getGpuArch(*F.getParent()));
  for (Argument &A : F.args()) {
    ParamInfo P;
    // HIP's ABI lowering renames parameters `x.coerce`: report the source name.
    StringRef Name = A.getName();
    Name.consume_back(".coerce");
    P.Name = !Name.empty() ? Name.str() : "arg" + std::to_string(A.getArgNo());
    P.Type = scalarTypeOf(A);
    P.IsPointer = P.Type == ScalarType::Ptr;
    if (Type *T = aggregateParamType(A))
      P.ByteSize = uint32_t(F.getDataLayout().getTypeAllocSize(T).getFixedValue());
    K.Params.push_back(std::move(P));
  }

  AccessList Accesses = collectAccesses(F, SE);
  SymbolicRange SR(F, SE, DT, LI);
  DisjointnessProver Prover(SR);

  // Objects are keyed: parameter index; FieldOwnerBase + field index (a
  // pointer inside a by-value parameter); -(1 + global index).
  std::map<const GlobalVariable *, int> GlobalIndex;
  std::map<std::pair<unsigned, unsigned>, int> FieldIndex;
  std::map<int, ObjectAccesses> Objects;
  auto KeyOf = [&](const MemAccess &A) -> int {
    if (A.Target == AccessTarget::Param)
      return int(A.ParamIndex);
    if (A.Target == AccessTarget::Field) {
      auto [It, New] = FieldIndex.emplace(std::make_pair(A.ParamIndex, A.FieldOffset),
                                          int(K.Fields.size()));
      if (New) {
        ParamInfo P;
        P.Name = K.Params[A.ParamIndex].Name + "+" + std::to_string(A.FieldOffset);
        P.Type = ScalarType::Ptr;
        P.IsPointer = true;
        P.FieldParam = int(A.ParamIndex);
        P.FieldOffset = A.FieldOffset;
        K.Fields.push_back(std::move(P));
      }
      return FieldOwnerBase + It->second;
    }
    auto [It, New] = GlobalIndex.emplace(A.Global, int(K.Globals.size()));
    if (New) {
      ParamInfo G;
      G.Name = A.Global->getName().str();
      G.Type = ScalarType::Ptr;
      G.IsPointer = true;
      K.Globals.push_back(std::move(G));
    }
    return -(1 + It->second);
  };
  auto Info = [&](int Key) -> ParamInfo & {
    if (Key >= FieldOwnerBase)
      return K.Fields[Key - FieldOwnerBase];
    return Key >= 0 ? K.Params[Key] : K.Globals[-(Key + 1)];
  };
  auto ObjectOf = [&](const MemAccess &A) -> ParamInfo * { return &Info(KeyOf(A)); };

  Classifier Cls(K);
  auto CombineKind = [](const MemAccess &A) {
    return std::make_pair(cast<AtomicRMWInst>(A.Inst)->getOperation(), A.Size);
  };
  for (const MemAccess &A : Accesses.Accesses) {
    AccessRegion R = SR.regionOf(A);
    if (A.Target == AccessTarget::Unknown) {
      if (A.Reads)
        K.UnknownRead.unite(R);
      if (A.Writes)
        K.UnknownWrite.unite(R);
      continue;
    }
    ParamInfo *P = ObjectOf(A);
    if (A.Reads)
      P->Read.unite(R);
    if (A.Writes && !A.ChangesNothing)
      P->Write.unite(R);
    if (A.Atomic) {
      P->Atomic = true;
      Cls.nonIdempotent("atomic read-modify-write of '" + P->Name + "'");
    }
    if (A.ChangesNothing)
      continue; // in the regions; no read or write for idempotence
    ObjectAccesses &O = Objects[KeyOf(A)];
    // One operation and width per object: max after min is not min after
    // max, nor a 64-bit max after a 32-bit one on its low half.
    if (A.Combine && !O.Combines.empty() && CombineKind(A) != CombineKind(*O.Combines.front()) &&
        !P->Atomic) {
      P->Atomic = true;
      Cls.nonIdempotent("atomics of different operations or widths on '" + P->Name + "'");
    }
    if (A.Reads && !A.Combine)
      O.Reads.push_back(&A);
    if (A.Writes)
      O.Writes.push_back(&A);
    if (A.Combine)
      O.Combines.push_back(&A);
  }

  // Output is an effect too: a block preempted and run again would print
  // its lines twice, so such a kernel is never idempotent (its launches
  // stop only where no block runs twice).
  if (Accesses.Prints)
    Cls.nonIdempotent("prints (printf): a block run again prints again");
  // So is what a clock or hardware id decides: a second run writes another
  // value (NondeterministicOutput.h).
  if (std::string Nondet = nondeterministicOutput(F); !Nondet.empty())
    Cls.nonIdempotent(Nondet);

  bool AnyRead = K.UnknownRead.accessed(), AnyWrite = K.UnknownWrite.accessed();
  for (auto &[Key, O] : Objects) {
    AnyRead |= !O.Reads.empty() || !O.Combines.empty();
    AnyWrite |= !O.Writes.empty();
  }
  if (K.UnknownWrite.accessed() && AnyRead)
    Cls.unknown("writes memory it cannot bound (" + K.UnknownWrite.Reason + ")");
  if (K.UnknownRead.accessed() && AnyWrite)
    Cls.unknown("reads memory it cannot bound (" + K.UnknownRead.Reason + ")");

  // Loads of objects the launch never writes: the same value in a run
  // again (an in-place update may take them as fixed operands, such as
  // masked_fill_'s mask). Another object that the launch writes may alias
  // one at a launch: the runtime checks such read/write pairs (the class
  // is conditional then). Not with writes the analysis cannot place.
  SmallPtrSet<const Instruction *, 16> StableLoads;
  if (!K.UnknownWrite.accessed())
    for (auto &[Key, O] : Objects)
      if (O.Writes.empty() && O.Combines.empty() && !Info(Key).Atomic)
        for (const MemAccess *R : O.Reads)
          if (isa<LoadInst>(R->Inst) && !R->Atomic)
            StableLoads.insert(R->Inst);

  // Objects whose read bytes are also written, but only by in-place
  // updates a run again keeps (or flags that turn their block off), and
  // objects read in such blocks: the idempotent verdict says so.
  std::set<std::string> UpdatedInPlace, ReadInSkippedBlocks;

  // Blocks a flag turns off once they ran (`if (m[i]) { ...; m[i] = 0; }`):
  // a thread run again skips them, so their loads read nothing again.
  SmallPtrSet<const BasicBlock *, 4> SelfDisabled;
  std::set<std::pair<const MemAccess *, const MemAccess *>> FlagPairs;
  SmallPtrSet<const Instruction *, 32> TrackedWrites;
  for (auto &[Key, O] : Objects)
    for (const MemAccess *W : O.Writes)
      TrackedWrites.insert(W->Inst);
  for (auto &[Key, O] : Objects)
    for (const MemAccess *R : O.Reads)
      for (const MemAccess *W : O.Writes) {
        std::vector<RangeCheck> FlagChecks;
        const BasicBlock *T = selfDisabledBlock(*R, *W, SE, StableLoads, TrackedWrites, FlagChecks);
        if (!T)
          continue;
        // Used only where needed (`if (h > 255) h = 255` is an update on
        // its own): for the pair, or for loads in the block. Then the
        // flag's object holds its launch conditions.
        const bool BlockLoads = llvm::any_of(Accesses.Accesses, [&](const MemAccess &A) {
          return A.Reads && A.Inst->getParent() == T;
        });
        if (!BlockLoads && isIdempotentUpdate(*R, *W, SE, StableLoads))
          continue;
        SelfDisabled.insert(T);
        FlagPairs.insert({R, W});
        for (const RangeCheck &C : FlagChecks)
          addCheckOnce(Info(Key).DisjointChecks, C);
      }

  // Same object read and written: prove each (read, write) pair disjoint.
  // Combines need no proof among themselves (same operation and width), but
  // one from each plain read and each plain write.
  for (auto &[Key, O] : Objects) {
    if (O.Writes.empty() || (O.Reads.empty() && O.Combines.empty()))
      continue;
    ParamInfo &P = Info(Key);
    std::vector<const MemAccess *> PlainWrites;
    for (const MemAccess *W : O.Writes)
      if (!W->Combine)
        PlainWrites.push_back(W);
    // Each access to prove apart from a list of writes (not copied).
    std::vector<std::pair<const MemAccess *, const std::vector<const MemAccess *> *>> ToProve;
    for (const MemAccess *R : O.Reads)
      // A load of bytes the thread stored itself reads nothing from before
      // the launch: no pair to prove apart (CoveredLoads.h).
      if (SelfDisabled.contains(R->Inst->getParent()))
        ReadInSkippedBlocks.insert(P.Name);
      else if (!loadCoveredByOwnStore(*R, O.Writes, SE, DT, LI))
        ToProve.push_back({R, &O.Writes});
    if (!PlainWrites.empty())
      for (const MemAccess *C : O.Combines)
        ToProve.push_back({C, &PlainWrites});
    // An atomic access reads and writes the same bytes: never disjoint.
    bool AllProven = P.Read.Kind == RegionKind::Bounded &&
                     P.Write.Kind == RegionKind::Bounded && !P.Atomic;
    std::vector<RangeCheck> Checks;
    unsigned Pairs = 0;
    for (auto &[R, Writes] : ToProve) {
      for (const MemAccess *W : *Writes) {
        // One atomic access: overlap is certain, already classified. One
        // access that both reads and writes otherwise (inline asm's whole
        // allocation for a pointer it loads and stores through) overlaps
        // itself: nothing to prove apart.
        if (R == W && R->Atomic)
          continue;
        if (R == W) {
          AllProven = false;
          Cls.unknown("reads and writes of '" + P.Name + "' may overlap (one access does both)");
          continue;
        }
        // A store back of an idempotent function of the loaded value at
        // its own address (in-place ReLU, a clamp, a mask): run again, it
        // stores what it stored (IdempotentUpdates.h).
        if (FlagPairs.count({R, W}) || isIdempotentUpdate(*R, *W, SE, StableLoads)) {
          UpdatedInPlace.insert(P.Name);
          continue;
        }
        if (++Pairs > MaxProverPairs) {
          AllProven = false;
          Cls.unknown("too many accesses to '" + P.Name + "' to prove its reads and writes apart");
          break;
        }
        // A proof that needs launch checks is only used through the bounded
        // regions the runtime checks per launch; without them (a whole
        // allocation) the pair counts as proven only on assumed checks.
        std::vector<RangeCheck> PairChecks;
        if (Prover.proveDisjoint(*R, *W, PairChecks) &&
            (AllProven || llvm::all_of(PairChecks, [](const RangeCheck &C) { return C.Assumed; }))) {
          Checks.insert(Checks.end(), PairChecks.begin(), PairChecks.end());
          continue;
        }
        AllProven = false;
        const SCEV *D = R->Offset && W->Offset ? SE.getMinusSCEV(R->Offset, W->Offset) : nullptr;
        if (W->Combine)
          // What the launch combines into the object it also reads there
          // (a relaxation: atomicMin(&dist[v], dist[u] + w)).
          Cls.nonIdempotent("'" + P.Name + "' is read and atomically combined at places " +
                            "not proven apart");
        else if (R->Combine)
          // A store into a combined word (a byte of it, another thread's
          // initial value) between two runs' combines changes their result.
          Cls.nonIdempotent("'" + P.Name + "' is written and atomically combined at places " +
                            "not proven apart");
        else if (D && isa<SCEVConstant>(D))
          Cls.nonIdempotent("'" + P.Name + "' is read and written at " +
                            (cast<SCEVConstant>(D)->isZero() ? "the same offset"
                                                             : "a constant distance") +
                            " (read-modify-write)");
        else
          Cls.unknown("reads and writes of '" + P.Name + "' may overlap (not proven apart)");
      }
      if (Pairs > MaxProverPairs)
        break;
    }
    if (AllProven) {
      P.RWDisjoint = true;
      for (auto &C : Checks)
        addCheckOnce(P.DisjointChecks, C);
      // The runtime trusts the proof per launch after its checks. The static
      // class may only rest on checks whose failure is UB (RangeCheck).
      for (const RangeCheck &C : P.DisjointChecks)
        if (!C.Assumed) {
          Cls.conditional("reads and writes of '" + P.Name + "' are proven apart only while " +
                          render(C.Value, K.paramNames()) + " stays in [" +
                          std::to_string(C.Min) + ", " + std::to_string(C.Max) +
                          "], decided per launch");
          break;
        }
    }
  }

  // Out-of-place kernels called in place (`relu(x, x, n)`): two pointer
  // parameters whose reads and writes, taken as one object's (offsets from
  // one base), are all proven apart or idempotent in-place updates whose
  // fixed operands come from objects the launch never writes (the pair's
  // own loads are no longer such). No launch checks, atomics or skipped
  // blocks; the runtime uses a pair only where it is the launch's one
  // coincidence and both regions are exact (launchAlias, InstanceCheck.h).
  for (auto ItA = Objects.begin(); ItA != Objects.end(); ++ItA)
    for (auto ItB = std::next(ItA); ItB != Objects.end(); ++ItB) {
      const int KA = ItA->first, KB = ItB->first;
      const ObjectAccesses &OA = ItA->second, &OB = ItB->second;
      if (KA < 0 || KB >= FieldOwnerBase || Info(KA).Atomic || Info(KB).Atomic ||
          !OA.Combines.empty() || !OB.Combines.empty() || !Info(KA).IsPointer ||
          !Info(KB).IsPointer)
        continue;
      if ((OA.Writes.empty() || OB.Reads.empty()) && (OB.Writes.empty() || OA.Reads.empty()))
        continue; // no read of one meets a write of the other
      std::vector<const MemAccess *> Reads(OA.Reads), Writes(OA.Writes);
      Reads.insert(Reads.end(), OB.Reads.begin(), OB.Reads.end());
      Writes.insert(Writes.end(), OB.Writes.begin(), OB.Writes.end());
      SmallPtrSet<const Instruction *, 16> Stable(StableLoads.begin(), StableLoads.end());
      for (const MemAccess *R : Reads)
        Stable.erase(R->Inst);
      bool Proven = true;
      unsigned Pairs = 0;
      for (const MemAccess *R : Reads) {
        if (!Proven)
          break;
        if (loadCoveredByOwnStore(*R, Writes, SE, DT, LI))
          continue;
        for (const MemAccess *W : Writes) {
          if (R == W || ++Pairs > MaxProverPairs) {
            Proven = false;
            break;
          }
          if (isIdempotentUpdate(*R, *W, SE, Stable, /*MergedPair=*/true))
            continue;
          std::vector<RangeCheck> PairChecks;
          if (!Prover.proveDisjoint(*R, *W, PairChecks) ||
              !llvm::all_of(PairChecks, [](const RangeCheck &C) { return C.Assumed; })) {
            Proven = false;
            break;
          }
        }
      }
      if (Proven)
        K.AliasOk.push_back({uint32_t(KA), uint32_t(KB)});
    }

  // Different objects: one read, another written. They may alias at a launch.
  for (auto &[RK, RO] : Objects) {
    if (RO.Reads.empty() && RO.Combines.empty())
      continue;
    for (auto &[WK, WO] : Objects) {
      if (WK == RK || WO.Writes.empty())
        continue;
      auto Name = [&](int Key) { return Info(Key).Name; };
      Cls.conditional("reads '" + Name(RK) + "' and writes '" + Name(WK) +
                      "': idempotent when they do not overlap at a launch");
    }
  }
  auto Quoted = [](const std::set<std::string> &Names) {
    std::string S;
    for (const std::string &N : Names)
      S += (S.empty() ? "'" : ", '") + N + "'";
    return S;
  };
  std::string Apart = "every location it reads is proven apart from every location it writes";
  if (!UpdatedInPlace.empty())
    Apart += ", but for in-place updates of " + Quoted(UpdatedInPlace) +
             " to values a run again keeps";
  if (!ReadInSkippedBlocks.empty())
    Apart += ", and reads of " + Quoted(ReadInSkippedBlocks) +
             " in blocks a cleared flag turns off";
  Cls.finish(!AnyRead ? "reads no global memory" : !AnyWrite ? "writes no global memory" : Apart);
  return K;
}

/// Rewrites `inttoptr (ptrtoint P)` in \p F to P, cast to the result's
/// address space where it differs, when no bit is lost on the way: the
/// address is the same, and the accesses then resolve to P's object. HIP's
/// kernels turn every global pointer argument into a flat one this way;
/// InferAddressSpaces undoes it in the kernel's own code, but not in device
/// functions the kernel calls, and inlining those into the analysis copy
/// left their accesses unknown ("a pointer difference"). Only the global
/// and flat spaces take part (a shared or private address becomes another
/// number as a flat pointer). Returns whether anything changed. Only ever
/// run on the analysis copy: the code the user runs keeps its casts.
static bool foldPointerRoundTrips(Function &F) {
  const DataLayout &DL = F.getDataLayout();
  auto GlobalOrFlat = [](unsigned AS) { return AS == 0 || AS == 1; };
  SmallVector<IntToPtrInst *, 8> Casts;
  for (Instruction &I : instructions(F))
    if (auto *ITP = dyn_cast<IntToPtrInst>(&I))
      Casts.push_back(ITP);
  bool Changed = false;
  for (IntToPtrInst *ITP : Casts) {
    auto *PTI = dyn_cast<PtrToIntOperator>(ITP->getOperand(0));
    if (!PTI)
      continue;
    Value *P = PTI->getPointerOperand();
    unsigned From = P->getType()->getPointerAddressSpace();
    unsigned To = ITP->getType()->getPointerAddressSpace();
    unsigned Bits = ITP->getOperand(0)->getType()->getIntegerBitWidth();
    if (!GlobalOrFlat(From) || !GlobalOrFlat(To) || DL.getPointerSizeInBits(From) != Bits ||
        DL.getPointerSizeInBits(To) != Bits)
      continue;
    Value *Same = P;
    if (From != To)
      Same = new AddrSpaceCastInst(P, ITP->getType(), ITP->getName() + ".same", ITP);
    ITP->replaceAllUsesWith(Same);
    ITP->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

/// Whether \p II reads a value that stays the same for a thread's whole
/// run of the kernel: its position in the grid and the grid's shape
/// (classifyGeometry's registers), the warp size, or the AMDGPU pointers the
/// launch sizes are read through.
static bool isThreadConstantRead(const IntrinsicInst &II) {
  switch (II.getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_warpsize:
  case Intrinsic::amdgcn_dispatch_ptr:
  case Intrinsic::amdgcn_implicitarg_ptr:
    return true;
  default:
    return classifyGeometry(&II).has_value();
  }
}

/// Makes every read of one thread-constant register in \p F the same value,
/// read once at the entry (AMDGPU's launch sizes too, loads from the
/// dispatch packet or the implicit arguments). Two loops that each read
/// blockDim.x in their own preheader otherwise step by two SCEV unknowns,
/// and nothing can tell that they walk the same offsets (CoveredLoads.h).
/// Analysis copy only.
static bool shareThreadConstantReads(Function &F) {
  std::map<Intrinsic::ID, SmallVector<CallInst *, 4>> Reads;
  for (Instruction &I : instructions(F))
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->arg_empty() && isThreadConstantRead(*II))
        Reads[II->getIntrinsicID()].push_back(II);
  bool Changed = false;
  BasicBlock &Entry = F.getEntryBlock();
  for (auto &[ID, Calls] : Reads) {
    if (Calls.size() < 2 && Calls.front()->getParent() == &Entry)
      continue;
    // The first read's attributes (its range) hold for every read.
    CallInst *Shared = cast<CallInst>(Calls.front()->clone());
    Shared->insertBefore(Entry.getFirstNonPHIOrDbgOrAlloca());
    for (CallInst *C : Calls) {
      C->replaceAllUsesWith(Shared);
      C->eraseFromParent();
    }
    Changed = true;
  }
  // AMDGPU reads its launch sizes from the dispatch packet or the implicit
  // arguments: one load per kind and width, made at the entry right after
  // the (now single) pointer it reads through.
  std::map<std::tuple<int, unsigned, unsigned>, LoadInst *> SharedLoads;
  SmallVector<LoadInst *, 8> Loads;
  SmallVector<GeometryValue, 8> Kinds;
  for (Instruction &I : instructions(F))
    if (auto *LI = dyn_cast<LoadInst>(&I); LI && LI->isSimple())
      if (std::optional<GeometryValue> G = classifyGeometry(LI)) {
        Loads.push_back(LI);
        Kinds.push_back(*G);
      }
  for (auto [LI, G] : zip(Loads, Kinds)) {
    auto Key = std::make_tuple(int(G.Kind), G.Dim, LI->getType()->getScalarSizeInBits());
    LoadInst *&Shared = SharedLoads[Key];
    if (!Shared) {
      Value *Ptr = LI->getPointerOperand();
      auto *GEP = dyn_cast<GetElementPtrInst>(Ptr);
      auto *Base = dyn_cast<Instruction>(GEP ? GEP->getPointerOperand() : Ptr);
      if (!Base || Base->getParent() != &Entry || (!GEP && !isa<IntrinsicInst>(Ptr)))
        continue; // built another way: keep it as it is
      Instruction *At = Base;
      if (GEP) {
        auto *G2 = cast<GetElementPtrInst>(GEP->clone());
        G2->insertAfter(At);
        At = G2;
      }
      Shared = cast<LoadInst>(LI->clone());
      Shared->setOperand(0, At);
      Shared->insertAfter(At);
    }
    if (Shared->getType() != LI->getType())
      continue;
    LI->replaceAllUsesWith(Shared);
    LI->eraseFromParent();
    Changed = true;
  }
  return Changed;
}

std::vector<KernelDescriptor> analyzeModule(const Module &M) {
  std::vector<KernelDescriptor> Result;
  std::unique_ptr<Module> Copy = CloneModule(M);
  SmallVector<Function *, 8> Kernels = findKernels(*Copy);
  if (Kernels.empty())
    return Result;

  // Inline device functions into the kernels of the copy so that one
  // intraprocedural analysis sees every access with its real arguments.
  bool Inlined = false;
  for (Function *Kern : Kernels) {
    unsigned Budget = MaxInlinedCalls;
    bool Changed = true;
    while (Changed && Budget) {
      Changed = false;
      SmallVector<CallBase *, 16> Calls;
      for (Instruction &I : instructions(*Kern))
        if (auto *CB = dyn_cast<CallBase>(&I))
          if (Function *Callee = CB->getCalledFunction())
            if (!Callee->isDeclaration() && !isKernel(*Callee) && Callee != Kern &&
                !Callee->isVarArg())
              Calls.push_back(CB);
      for (CallBase *CB : Calls) {
        if (!Budget)
          break;
        InlineFunctionInfo IFI;
        if (InlineFunction(*CB, IFI).isSuccess()) {
          --Budget;
          Changed = Inlined = true;
        }
      }
    }
  }

  bool Folded = false;
  for (Function *Kern : Kernels) {
    Folded |= foldPointerRoundTrips(*Kern);
    Folded |= shareThreadConstantReads(*Kern);
  }

  PassBuilder PB;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);

  if (Inlined || Folded) {
    // Clean up what inlining (or the fold above) left (allocas of
    // by-reference arguments, dead ptrtoints...).
    // One round of InstCombine without its fixpoint check: on a recursive
    // function inlined up to the budget, LLVM 19's check aborted the whole
    // device compile ("did not reach a fixpoint"), where plain clang builds
    // the file (an adversarial corpus, session 49).
    ModulePassManager MPM;
    if (auto Err = PB.parsePassPipeline(
            MPM, "function(sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg)"))
      consumeError(std::move(Err));
    else
      MPM.run(*Copy, MAM);
  }
  for (Function *Kern : findKernels(*Copy)) {
    KernelDescriptor K = analyzeKernel(*Kern, FAM);
    addLaunchVariants(*Kern, K, FAM, analyzeKernel);
    Result.push_back(std::move(K));
  }
  return Result;
}

KernelRegionAnalysis::Result KernelRegionAnalysis::run(Module &M, ModuleAnalysisManager &) {
  return analyzeModule(M);
}

} // namespace gmem

//===- LaunchVariants.cpp - Kernels analysed again under launch guards ----===//

#include "gmem/passes/LaunchVariants.h"
#include "gmem/passes/GpuTarget.h"

#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

#include <array>
#include <optional>

using namespace llvm;

namespace gmem {
namespace {

/// Conditions tried per kernel (two analyses each): the first ones met in
/// the kernel's code, which is where flags such as `accumulate` are tested.
constexpr unsigned MaxQuestions = 3;

std::optional<GuardPred> guardPredOf(CmpInst::Predicate P) {
  switch (P) {
  case CmpInst::ICMP_EQ: return GuardPred::Eq;
  case CmpInst::ICMP_NE: return GuardPred::Ne;
  case CmpInst::ICMP_SLT: return GuardPred::Slt;
  case CmpInst::ICMP_SLE: return GuardPred::Sle;
  case CmpInst::ICMP_SGT: return GuardPred::Sgt;
  case CmpInst::ICMP_SGE: return GuardPred::Sge;
  case CmpInst::ICMP_ULT: return GuardPred::Ult;
  case CmpInst::ICMP_ULE: return GuardPred::Ule;
  case CmpInst::ICMP_UGT: return GuardPred::Ugt;
  case CmpInst::ICMP_UGE: return GuardPred::Uge;
  case CmpInst::FCMP_OEQ: return GuardPred::FOeq;
  case CmpInst::FCMP_ONE: return GuardPred::FOne;
  case CmpInst::FCMP_OLT: return GuardPred::FOlt;
  case CmpInst::FCMP_OLE: return GuardPred::FOle;
  case CmpInst::FCMP_OGT: return GuardPred::FOgt;
  case CmpInst::FCMP_OGE: return GuardPred::FOge;
  case CmpInst::FCMP_ORD: return GuardPred::FOrd;
  case CmpInst::FCMP_UNO: return GuardPred::FUno;
  case CmpInst::FCMP_UEQ: return GuardPred::FUeq;
  case CmpInst::FCMP_UNE: return GuardPred::FUne;
  case CmpInst::FCMP_ULT: return GuardPred::FUlt;
  case CmpInst::FCMP_ULE: return GuardPred::FUle;
  case CmpInst::FCMP_UGT: return GuardPred::FUgt;
  case CmpInst::FCMP_UGE: return GuardPred::FUge;
  default: return std::nullopt;
  }
}

/// A scalar parameter of the kernel, as the runtime reads it (not a
/// by-value aggregate; pointers 64-bit).
const Argument *scalarParam(const Value *V) {
  auto *A = dyn_cast<Argument>(V);
  if (!A || !isKernel(*A->getParent()) || isAggregateParam(*A))
    return nullptr;
  Type *T = A->getType();
  if (T->isPointerTy())
    return A->getParent()->getDataLayout().getPointerTypeSizeInBits(T) == 64 ? A : nullptr;
  if (T->isIntegerTy(1) || T->isIntegerTy(8) || T->isIntegerTy(16) || T->isIntegerTy(32) ||
      T->isIntegerTy(64) || T->isFloatTy() || T->isDoubleTy())
    return A;
  return nullptr;
}

/// The guard atom a branch or select condition is, if it is one: an i1
/// parameter, or a comparison of a scalar parameter (an integer one maybe
/// truncated or extended once) with a constant.
std::optional<GuardAtom> atomOf(const Value *Cond) {
  GuardAtom G;
  if (const Argument *A = scalarParam(Cond)) {
    if (!A->getType()->isIntegerTy(1))
      return std::nullopt;
    G.Param = A->getArgNo();
    G.Bits = 1;
    G.How = GuardView::Bool;
    G.Pred = GuardPred::Ne;
    G.Const = 0;
    return G;
  }
  auto *C = dyn_cast<CmpInst>(Cond);
  if (!C)
    return std::nullopt;
  const Value *L = C->getOperand(0), *R = C->getOperand(1);
  CmpInst::Predicate P = C->getPredicate();
  if (isa<Constant>(L) && !isa<Constant>(R)) {
    std::swap(L, R);
    P = CmpInst::getSwappedPredicate(P);
  }
  std::optional<GuardPred> GP = guardPredOf(P);
  if (!GP)
    return std::nullopt;
  G.Pred = *GP;
  if (auto *CF = dyn_cast<ConstantFP>(R)) {
    const Argument *A = scalarParam(L);
    if (!A || !A->getType()->isFloatingPointTy() || !isFloatPred(G.Pred))
      return std::nullopt;
    G.Param = A->getArgNo();
    G.Bits = uint8_t(A->getType()->getPrimitiveSizeInBits());
    G.How = GuardView::Same;
    G.Const = CF->getValueAPF().bitcastToAPInt().getZExtValue();
    return G;
  }
  if (isFloatPred(G.Pred))
    return std::nullopt;
  if (isa<ConstantPointerNull>(R)) {
    const Argument *A = scalarParam(L);
    if (!A || !A->getType()->isPointerTy() ||
        (G.Pred != GuardPred::Eq && G.Pred != GuardPred::Ne))
      return std::nullopt;
    G.Param = A->getArgNo();
    G.Bits = 64;
    G.How = GuardView::Same;
    G.Const = 0;
    return G;
  }
  auto *CI = dyn_cast<ConstantInt>(R);
  if (!CI || CI->getBitWidth() > 64)
    return std::nullopt;
  G.How = GuardView::Same;
  const Value *Src = L;
  // A flag bit or a low byte: `(flags & 4) != 0`, `(x & 255) == 0`.
  if (auto *And = dyn_cast<BinaryOperator>(L); And && And->getOpcode() == Instruction::And) {
    auto *M = dyn_cast<ConstantInt>(And->getOperand(1));
    const Argument *A = scalarParam(And->getOperand(0));
    if (!M || M->isZero() || !A || !A->getType()->isIntegerTy() || A->getType()->isIntegerTy(1) ||
        M->getBitWidth() != CI->getBitWidth())
      return std::nullopt;
    G.Param = A->getArgNo();
    G.Bits = uint8_t(CI->getBitWidth());
    G.How = GuardView::Mask;
    G.Mask = M->getValue().getZExtValue();
    G.Const = CI->getValue().getZExtValue();
    return G;
  }
  if (auto *Cast = dyn_cast<CastInst>(L)) {
    if (isa<TruncInst>(Cast))
      G.How = GuardView::Trunc;
    else if (isa<ZExtInst>(Cast))
      G.How = GuardView::ZExt;
    else if (isa<SExtInst>(Cast))
      G.How = GuardView::SExt;
    else
      return std::nullopt;
    Src = Cast->getOperand(0);
  }
  const Argument *A = scalarParam(Src);
  // i1 parameters travel as bytes whose other bits are not the IR's: only
  // the Bool view (a direct branch on them) reads them.
  if (!A || !A->getType()->isIntegerTy() || A->getType()->isIntegerTy(1))
    return std::nullopt;
  G.Param = A->getArgNo();
  G.Bits = uint8_t(CI->getBitWidth());
  G.Const = CI->getValue().getZExtValue();
  return G;
}

bool sameQuestion(const GuardAtom &A, const GuardAtom &B) {
  if (A == B)
    return true;
  GuardAtom I = B;
  I.Pred = inversePred(B.Pred);
  return A == I;
}

/// The value of atom X at every launch where H holds, where H decides it:
/// X is H or its inverse, or H fixes X's parameter to one value.
std::optional<bool> decidedBy(const GuardAtom &H, const GuardAtom &X, ScalarType T) {
  if (X == H)
    return true;
  GuardAtom Inv = H;
  Inv.Pred = inversePred(H.Pred);
  if (X == Inv)
    return false;
  if (X.Param != H.Param || isFloatPred(H.Pred) || isFloatPred(X.Pred))
    return std::nullopt;
  std::optional<uint64_t> Value;
  if (H.How == GuardView::Same && H.Pred == GuardPred::Eq)
    Value = H.Const;
  else if (H.How == GuardView::Bool && (H.Pred == GuardPred::Eq || H.Pred == GuardPred::Ne))
    Value = (H.Pred == GuardPred::Eq) == (H.Const == 1) ? 1 : 0;
  if (!Value)
    return std::nullopt;
  return guardHolds(X, T, *Value);
}

/// Folds, in F, every branch and select condition H decides, then removes
/// the code no launch meeting H reaches. Loads stay (only conditions and
/// pure values are simplified), so the read regions keep what the kernel
/// may read.
void foldUnder(Function &F, const GuardAtom &H, ScalarType T) {
  LLVMContext &Ctx = F.getContext();
  SmallVector<std::pair<Value *, bool>, 8> Decided;
  for (Argument &A : F.args())
    if (std::optional<GuardAtom> X = atomOf(&A))
      if (std::optional<bool> V = decidedBy(H, *X, T))
        Decided.push_back({&A, *V});
  for (Instruction &I : instructions(F))
    if (isa<CmpInst>(I))
      if (std::optional<GuardAtom> X = atomOf(&I))
        if (std::optional<bool> V = decidedBy(H, *X, T))
          Decided.push_back({&I, *V});
  for (auto [V, B] : Decided) {
    Constant *C = ConstantInt::getBool(Ctx, B);
    if (isa<Argument>(V)) {
      // Only the i1 parameter's uses as a condition: it keeps its other
      // uses (their values are the same either way).
      for (Use &U : make_early_inc_range(V->uses()))
        if (auto *Br = dyn_cast<BranchInst>(U.getUser()); Br && Br->isConditional())
          U.set(C);
        else if (auto *Sel = dyn_cast<SelectInst>(U.getUser()); Sel && U.getOperandNo() == 0)
          U.set(C);
      continue;
    }
    V->replaceAllUsesWith(C);
  }
  // Pure values over the folded constants (`and i1 true, %c`, selects), to
  // a fixpoint; nothing that touches memory is simplified or removed.
  const DataLayout &DL = F.getDataLayout();
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Instruction &I : make_early_inc_range(instructions(F))) {
      if (I.mayReadOrWriteMemory() || I.isTerminator() || isa<PHINode>(I) || I.use_empty())
        continue;
      if (Value *S = simplifyInstruction(&I, SimplifyQuery(DL, &I))) {
        if (S == &I)
          continue;
        I.replaceAllUsesWith(S);
        Changed = true;
      }
    }
  }
  for (BasicBlock &BB : F)
    ConstantFoldTerminator(&BB);
  removeUnreachableBlocks(F);
}

unsigned rankOf(IdempotenceClass C) {
  return C == IdempotenceClass::Idempotent ? 0 : C == IdempotenceClass::Conditional ? 1 : 2;
}

/// Whether V (laid out as K) leaves some access of K out: a parameter,
/// global or field it no longer reads or writes, or whose reads and writes
/// it proves apart where K did not.
bool touchesLess(const KernelDescriptor &V, const KernelDescriptor &K) {
  auto Less = [](const std::vector<ParamInfo> &A, const std::vector<ParamInfo> &B) {
    for (size_t I = 0; I < A.size() && I < B.size(); ++I)
      if ((B[I].Read.accessed() && !A[I].Read.accessed()) ||
          (B[I].Write.accessed() && !A[I].Write.accessed()) ||
          (A[I].RWDisjoint && !B[I].RWDisjoint && A[I].Read.accessed() && A[I].Write.accessed()))
        return true;
    return false;
  };
  return Less(V.Params, K.Params) || Less(V.Globals, K.Globals) || Less(V.Fields, K.Fields);
}

/// Lays V's globals and pointer fields out as K's (the runtime resolves them
/// by K's positions); false if V has one K lacks.
bool alignObjects(const KernelDescriptor &K, KernelDescriptor &V) {
  auto Align = [](const std::vector<ParamInfo> &Base, std::vector<ParamInfo> &Own, auto Same) {
    std::vector<ParamInfo> Out;
    std::vector<bool> Used(Own.size());
    for (const ParamInfo &B : Base) {
      ParamInfo P;
      P.Name = B.Name;
      P.Type = B.Type;
      P.IsPointer = B.IsPointer;
      P.FieldParam = B.FieldParam;
      P.FieldOffset = B.FieldOffset;
      for (size_t I = 0; I < Own.size(); ++I)
        if (!Used[I] && Same(B, Own[I])) {
          P = Own[I];
          Used[I] = true;
          break;
        }
      Out.push_back(std::move(P));
    }
    for (bool U : Used)
      if (!U)
        return false;
    Own = std::move(Out);
    return true;
  };
  return Align(K.Globals, V.Globals,
               [](const ParamInfo &A, const ParamInfo &B) { return A.Name == B.Name; }) &&
         Align(K.Fields, V.Fields, [](const ParamInfo &A, const ParamInfo &B) {
           return A.FieldParam == B.FieldParam && A.FieldOffset == B.FieldOffset;
         });
}

} // namespace

void addLaunchVariants(
    Function &F, KernelDescriptor &K, FunctionAnalysisManager &FAM,
    const std::function<KernelDescriptor(Function &, FunctionAnalysisManager &)> &Analyse) {
  if (K.Class == IdempotenceClass::Idempotent)
    return;
  // The questions, in code order: each atom met as a branch or select
  // condition, an atom and its inverse being one question.
  SmallVector<GuardAtom, MaxQuestions> Questions;
  auto Consider = [&](const Value *Cond) {
    std::optional<GuardAtom> G = atomOf(Cond);
    if (!G || G->Param >= K.Params.size() || !guardAtomValid(*G, K.Params[G->Param].Type))
      return;
    for (const GuardAtom &Q : Questions)
      if (sameQuestion(Q, *G))
        return;
    if (Questions.size() < MaxQuestions)
      Questions.push_back(*G);
  };
  for (Instruction &I : instructions(F)) {
    if (auto *Br = dyn_cast<BranchInst>(&I); Br && Br->isConditional())
      Consider(Br->getCondition());
    else if (auto *Sel = dyn_cast<SelectInst>(&I))
      Consider(Sel->getCondition());
  }
  std::vector<KernelVariant> Found;
  // The kernel analysed with every atom of When holding; a variant if its
  // class beats Floor.
  auto Try = [&](ArrayRef<GuardAtom> When, IdempotenceClass Floor) -> bool {
    ValueToValueMapTy VMap;
    Function *Copy = CloneFunction(&F, VMap);
    Copy->setName(F.getName() + ".gmem.variant");
    if (!isKernel(*Copy))
      Copy->setCallingConv(CallingConv::PTX_Kernel); // NVVM marks kernels by annotation
    for (const GuardAtom &H : When)
      foldUnder(*Copy, H, K.Params[H.Param].Type);
    KernelDescriptor V = Analyse(*Copy, FAM);
    FAM.clear(*Copy, Copy->getName());
    Copy->eraseFromParent();
    if (!alignObjects(K, V))
      return false;
    // A better class, or (a single guard) a conditional one that touches
    // less: `if (beta != 0) v += beta * C[i]` leaves C unread at beta == 0,
    // so a launch whose C aliases the output is idempotent there, though
    // the kernel is conditional either way.
    const bool Better = rankOf(V.Class) < rankOf(Floor);
    const bool Narrower = When.size() == 1 && V.Class == IdempotenceClass::Conditional &&
                          K.Class == IdempotenceClass::Conditional && touchesLess(V, K);
    if (!Better && !Narrower)
      return false;
    V.Symbol = K.Symbol;
    V.Name = K.Name;
    V.PlainName = K.PlainName;
    V.Target = K.Target;
    V.Variants.clear();
    V.AliasOk.clear(); // not encoded for variants: a launch that picks one gets none
    KernelVariant KV;
    KV.When.assign(When.begin(), When.end());
    KV.D = std::make_shared<const KernelDescriptor>(std::move(V));
    Found.push_back(std::move(KV));
    return true;
  };
  auto Side = [](const GuardAtom &Q, bool Holds) {
    GuardAtom H = Q;
    if (!Holds)
      H.Pred = inversePred(Q.Pred);
    return H;
  };
  // Each question alone, both ways; the class each side reached.
  std::vector<std::array<IdempotenceClass, 2>> Alone(Questions.size(), {K.Class, K.Class});
  for (size_t Q = 0; Q < Questions.size(); ++Q)
    for (bool Holds : {true, false})
      if (Try({Side(Questions[Q], Holds)}, K.Class))
        Alone[Q][Holds ? 0 : 1] = Found.back().D->Class;
  // Two questions together, where two hazards hang on two flags
  // (`if (accumulate) y += v; ... if (count) atomicAdd(n, 1)`): kept only
  // where the pair does better than either side alone.
  for (size_t A = 0; A < Questions.size(); ++A)
    for (size_t B = A + 1; B < Questions.size(); ++B)
      for (bool HA : {true, false})
        for (bool HB : {true, false}) {
          const IdempotenceClass CA = Alone[A][HA ? 0 : 1], CB = Alone[B][HB ? 0 : 1];
          const IdempotenceClass Floor = rankOf(CA) < rankOf(CB) ? CA : CB;
          if (rankOf(Floor) == 0)
            continue; // one side alone is idempotent already
          Try({Side(Questions[A], HA), Side(Questions[B], HB)}, Floor);
        }
  // Best class first: the runtime takes the first best that holds.
  std::stable_sort(Found.begin(), Found.end(), [](const KernelVariant &A, const KernelVariant &B) {
    return rankOf(A.D->Class) < rankOf(B.D->Class);
  });
  for (KernelVariant &V : Found)
    K.Variants.push_back(std::move(V));
}

} // namespace gmem

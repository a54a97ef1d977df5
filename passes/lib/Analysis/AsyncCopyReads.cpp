//===- AsyncCopyReads.cpp - Global reads of sm_80 async copies ------------===//

#include "gmem/passes/AsyncCopyReads.h"
#include "gmem/passes/GpuTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace gmem {
namespace {

/// The largest cp-size PTX allows: the bound where the text's size is not
/// a constant.
constexpr uint64_t MaxCopyBytes = 16;

/// Call argument of each asm operand number ($N), -1 where the operand has
/// none (a direct output, a label).
SmallVector<int, 8> operandArgs(const InlineAsm &IA) {
  SmallVector<int, 8> Map;
  int Arg = 0;
  for (const InlineAsm::ConstraintInfo &CI : IA.ParseConstraints()) {
    if (CI.Type == InlineAsm::isClobber)
      continue;
    bool HasArg = CI.Type == InlineAsm::isInput || (CI.Type == InlineAsm::isOutput && CI.isIndirect);
    Map.push_back(HasArg ? Arg++ : -1);
  }
  return Map;
}

/// The call argument an operand text `$N` (or `%N`) names, or null.
const Value *operandValue(const CallBase &CB, ArrayRef<int> Map, StringRef Text) {
  Text = Text.trim();
  if (!Text.consume_front("$") && !Text.consume_front("%"))
    return nullptr;
  unsigned N;
  if (Text.getAsInteger(10, N) || N >= Map.size() || Map[N] < 0 ||
      unsigned(Map[N]) >= CB.arg_size())
    return nullptr;
  return CB.getArgOperand(Map[N]);
}

/// A pointer for an address operand: the pointer itself or the pointer an
/// integer was converted from.
Value *addressOf(const Value *V) {
  if (!V)
    return nullptr;
  if (V->getType()->isPointerTy())
    return const_cast<Value *>(V);
  if (const auto *PI = dyn_cast<PtrToIntOperator>(V))
    return const_cast<Value *>(PI->getPointerOperand());
  return nullptr;
}

/// Operands of a statement, split at top-level commas.
SmallVector<StringRef, 4> operandsOf(StringRef Rest) {
  SmallVector<StringRef, 4> Ops;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Rest.size(); ++I) {
    char C = Rest[I];
    if (C == '[' || C == '{')
      ++Depth;
    else if (C == ']' || C == '}')
      --Depth;
    else if (C == ',' && Depth == 0) {
      Ops.push_back(Rest.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  Ops.push_back(Rest.substr(Start).trim());
  return Ops;
}

enum class Verdict { Neutral, Copy, Unknown };

/// One statement of the asm text.
Verdict statement(StringRef S, const CallBase &CB, ArrayRef<int> Map, AsyncCopyRead &Out) {
  S = S.trim().trim("{}").trim();
  if (S.empty() || S.starts_with(".reg") || S.starts_with("//"))
    return Verdict::Neutral;
  if (S.starts_with("@")) // a guard: the copy may not run, its read is still a bound
    S = S.drop_until([](char C) { return isSpace(C); }).trim();
  StringRef Opcode = S.take_until([](char C) { return isSpace(C); });
  StringRef Rest = S.drop_front(Opcode.size()).trim();
  if (!Opcode.starts_with("cp.async.")) {
    AsmMemoryUse U = scanAsmMemoryUse(S, GpuArch::NVPTX);
    return U.Reads || U.Writes ? Verdict::Unknown : Verdict::Neutral;
  }
  StringRef Kind = Opcode.drop_front(strlen("cp.async."));
  // commit/wait order the thread's own copies; cp.async.mbarrier.arrive
  // signals an mbarrier in shared memory when they complete.
  if (Kind == "commit_group" || Kind == "wait_all" || Kind.starts_with("wait_group") ||
      Kind.starts_with("mbarrier."))
    return Verdict::Neutral;
  if (!(Kind.starts_with("ca.") || Kind.starts_with("cg.")) || !Kind.contains(".shared") ||
      !Kind.contains(".global"))
    return Verdict::Unknown; // bulk copies, anything newer
  SmallVector<StringRef, 4> Ops = operandsOf(Rest);
  if (Ops.size() < 3 || !Ops[1].starts_with("[") || !Ops[1].ends_with("]"))
    return Verdict::Unknown;
  Value *Src = addressOf(operandValue(CB, Map, Ops[1].drop_front().drop_back()));
  if (!Src)
    return Verdict::Unknown;
  uint64_t Bytes = MaxCopyBytes;
  uint64_t Literal;
  if (!Ops[2].getAsInteger(10, Literal))
    Bytes = Literal;
  else if (const auto *C = dyn_cast_or_null<ConstantInt>(operandValue(CB, Map, Ops[2])))
    Bytes = C->getZExtValue();
  if (Bytes != 4 && Bytes != 8 && Bytes != 16)
    Bytes = MaxCopyBytes;
  Out = {Src, Bytes};
  return Verdict::Copy;
}

} // namespace

std::optional<SmallVector<AsyncCopyRead, 2>> matchAsyncCopyAsm(const CallBase &CB) {
  const auto *IA = dyn_cast<InlineAsm>(CB.getCalledOperand());
  if (!IA || getGpuArch(*CB.getModule()) != GpuArch::NVPTX)
    return std::nullopt;
  StringRef Text = IA->getAsmString();
  if (!Text.contains("cp.async"))
    return std::nullopt;
  SmallVector<int, 8> Map = operandArgs(*IA);
  SmallVector<AsyncCopyRead, 2> Reads;
  SmallVector<StringRef, 8> Statements;
  Text.split(Statements, ';');
  for (StringRef Line : Statements) {
    SmallVector<StringRef, 4> Parts;
    Line.split(Parts, '\n');
    for (StringRef S : Parts) {
      AsyncCopyRead R;
      switch (statement(S, CB, Map, R)) {
      case Verdict::Neutral:
        break;
      case Verdict::Copy:
        Reads.push_back(R);
        break;
      case Verdict::Unknown:
        return std::nullopt;
      }
    }
  }
  return Reads;
}

std::optional<AsyncCopyRead> matchAsyncCopyIntrinsic(const CallBase &CB) {
  const auto *II = dyn_cast<IntrinsicInst>(&CB);
  if (!II)
    return std::nullopt;
  uint64_t Bytes;
  switch (II->getIntrinsicID()) {
  case Intrinsic::nvvm_cp_async_ca_shared_global_4:
  case Intrinsic::nvvm_cp_async_ca_shared_global_4_s:
    Bytes = 4;
    break;
  case Intrinsic::nvvm_cp_async_ca_shared_global_8:
  case Intrinsic::nvvm_cp_async_ca_shared_global_8_s:
    Bytes = 8;
    break;
  case Intrinsic::nvvm_cp_async_ca_shared_global_16:
  case Intrinsic::nvvm_cp_async_ca_shared_global_16_s:
  case Intrinsic::nvvm_cp_async_cg_shared_global_16:
  case Intrinsic::nvvm_cp_async_cg_shared_global_16_s:
    Bytes = 16;
    break;
  default:
    return std::nullopt;
  }
  return AsyncCopyRead{II->getArgOperand(1), Bytes};
}

} // namespace gmem

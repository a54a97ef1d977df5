//===- AsmMemoryAccesses.cpp - What inline PTX reads and writes -----------===//

#include "gmem/passes/AsmMemoryAccesses.h"
#include "gmem/passes/GpuTarget.h"

#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
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

enum class Verdict { Neutral, Access, Unknown };

/// Bytes of a PTX scalar type suffix (`u32`, `f16x2`, `b128`), 0 if the
/// word is no type.
uint64_t typeBytes(StringRef T) {
  return StringSwitch<uint64_t>(T)
      .Cases("b8", "u8", "s8", 1)
      .Cases("b16", "u16", "s16", "f16", "bf16", 2)
      .Cases("b32", "u32", "s32", "f32", "f16x2", "bf16x2", 4)
      .Cases("b64", "u64", "s64", "f64", 8)
      .Case("b128", 16)
      .Default(0);
}

/// Bytes one load, store or atomic moves: its one type times its vector
/// width. 0 where the opcode does not say exactly.
uint64_t accessBytes(StringRef Opcode) {
  SmallVector<StringRef, 8> Parts;
  Opcode.split(Parts, '.');
  uint64_t Type = 0, Vector = 1;
  for (StringRef Q : ArrayRef<StringRef>(Parts).drop_front()) {
    if (Q == "v2" || Q == "v4" || Q == "v8") {
      Vector = Q.drop_front().front() - '0';
      continue;
    }
    if (uint64_t B = typeBytes(Q)) {
      if (Type)
        return 0; // two types: not a plain access
      Type = B;
    }
  }
  return Type * Vector;
}

/// For an input tied to an output (`"0"(p)`): the output's operand number.
std::optional<unsigned> tiedOutput(const InlineAsm::ConstraintInfo &CI) {
  unsigned N;
  if (CI.Type != InlineAsm::isInput || CI.Codes.empty() || StringRef(CI.Codes[0]).getAsInteger(10, N))
    return std::nullopt;
  return N;
}

/// The operand number an operand text `$N` (or `%N`) names.
std::optional<unsigned> operandNumber(StringRef Text) {
  Text = Text.trim();
  if (!Text.consume_front("$") && !Text.consume_front("%"))
    return std::nullopt;
  unsigned N;
  if (Text.getAsInteger(10, N))
    return std::nullopt;
  return N;
}

/// `[$N]` or `[$N+imm]` (imm >= 0): the pointer and the offset. Not where
/// the text may change $N's register before the access (Written).
std::optional<std::pair<Value *, uint64_t>> address(StringRef Op, const CallBase &CB,
                                                    ArrayRef<int> Map,
                                                    const SmallBitVector &Written) {
  if (!Op.consume_front("[") || !Op.consume_back("]") || Op.contains('-'))
    return std::nullopt;
  auto [Base, Imm] = Op.split('+');
  uint64_t Offset = 0;
  Imm = Imm.trim();
  if (!Imm.empty() && Imm.getAsInteger(0, Offset))
    return std::nullopt;
  if (std::optional<unsigned> N = operandNumber(Base); !N || (*N < Written.size() && Written[*N]))
    return std::nullopt;
  Value *Ptr = addressOf(operandValue(CB, Map, Base));
  if (!Ptr)
    return std::nullopt;
  return std::make_pair(Ptr, Offset);
}

/// A load, store or atomic of global (or generic) memory.
Verdict plainAccess(StringRef Opcode, StringRef Rest, const CallBase &CB, ArrayRef<int> Map,
                    const SmallBitVector &Written, AsmAccess &Out) {
  StringRef Op = Opcode.split('.').first;
  bool Load = Op == "ld" || Op == "ldu", Store = Op == "st",
       Atomic = Op == "atom" || Op == "red";
  uint64_t Bytes = accessBytes(Opcode);
  if (!(Load || Store || Atomic) || !Bytes)
    return Verdict::Unknown;
  std::optional<std::pair<Value *, uint64_t>> Addr;
  for (StringRef O : operandsOf(Rest)) {
    if (!O.starts_with("["))
      continue;
    if (Addr)
      return Verdict::Unknown; // two addresses: not one of these
    Addr = address(O, CB, Map, Written);
    if (!Addr)
      return Verdict::Unknown;
  }
  if (!Addr)
    return Verdict::Unknown;
  Out = {Addr->first, Addr->second + Bytes, /*Reads=*/Load || Atomic, /*Writes=*/Store || Atomic,
         Atomic};
  return Verdict::Access;
}

/// `cp.async.{ca,cg}.shared.global [dst], [src], cp-size`: a read of src.
Verdict asyncCopy(StringRef Opcode, StringRef Rest, const CallBase &CB, ArrayRef<int> Map,
                  const SmallBitVector &Written, AsmAccess &Out) {
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
  if (Ops.size() < 3)
    return Verdict::Unknown;
  std::optional<std::pair<Value *, uint64_t>> Src = address(Ops[1], CB, Map, Written);
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
  Out = {Src->first, Src->second + Bytes, /*Reads=*/true, /*Writes=*/false, /*Atomic=*/false};
  return Verdict::Access;
}

/// A statement's opcode and operand text, without a block's braces (a
/// vector operand's `{$1, $2}` keeps its own) and a guard; empty for none.
std::pair<StringRef, StringRef> opcodeAndRest(StringRef S) {
  S = S.trim().ltrim("{").trim();
  while (S.ends_with("}") && S.count('}') > S.count('{'))
    S = S.drop_back().rtrim();
  if (S.empty() || S.starts_with(".") || S.starts_with("//"))
    return {};
  if (S.starts_with("@")) // a guard: the access may not run, its bound still holds
    S = S.drop_until([](char C) { return isSpace(C); }).trim();
  StringRef Opcode = S.take_until([](char C) { return isSpace(C); });
  return {Opcode, S.drop_front(Opcode.size()).trim()};
}

/// Whether a statement's first operand is what it writes: not for stores,
/// reductions and the like, whose first operand is the address.
bool writesFirstOperand(StringRef Opcode) {
  StringRef Op = Opcode.split('.').first;
  return !(Op == "st" || Op == "red" || Op == "sust" || Op == "sured" || Op == "prefetch" ||
           Op == "prefetchu" || Op == "applypriority" || Op == "discard" || Op == "bra" ||
           Op == "bar" || Op == "barrier" || Op == "membar" || Op == "fence" || Op == "cp" ||
           Op == "multimem" || Op == "mbarrier" || Op == "stmatrix" || Op == "tensormap");
}

/// The register names in an operand's text (`{$1, %r2}`, `[q+8]`, `p|q`),
/// without numbers.
SmallVector<StringRef, 4> registersIn(StringRef O) {
  SmallVector<StringRef, 4> Regs;
  size_t I = 0;
  while (I < O.size()) {
    char C = O[I];
    bool Start = C == '$' || C == '%' || isAlpha(C) || C == '_';
    if (!Start) {
      ++I;
      continue;
    }
    size_t J = I + 1;
    while (J < O.size() && (isAlnum(O[J]) || O[J] == '_' || O[J] == '.'))
      ++J;
    StringRef R = O.slice(I, J);
    // 0f3F800000 and 0d... float literals start with a digit: skipped above.
    Regs.push_back(R);
    I = J;
  }
  return Regs;
}

/// Operand numbers whose register the text may change before using it as
/// an address: destinations of its statements, and inputs tied to an
/// output (`"0"(p)`: the input is the output's register).
SmallBitVector writtenOperands(const InlineAsm &IA, StringRef Text) {
  SmallBitVector W(IA.ParseConstraints().size() + 1);
  unsigned N = 0;
  for (const InlineAsm::ConstraintInfo &CI : IA.ParseConstraints()) {
    if (CI.Type == InlineAsm::isClobber)
      continue;
    if (CI.Type == InlineAsm::isOutput || tiedOutput(CI))
      W.set(N);
    ++N;
  }
  for (StringRef S : ptxStatements(Text)) {
    auto [Opcode, Rest] = opcodeAndRest(S);
    if (Opcode.empty() || !writesFirstOperand(Opcode))
      continue;
    SmallVector<StringRef, 4> Ops = operandsOf(Rest);
    if (Ops.empty() || Ops[0].starts_with("["))
      continue;
    for (StringRef R : registersIn(Ops[0]))
      if (std::optional<unsigned> K = operandNumber(R)) {
        if (*K >= W.size())
          W.resize(*K + 1);
        W.set(*K);
      }
  }
  return W;
}

/// One statement of the asm text.
Verdict statement(StringRef S, const CallBase &CB, ArrayRef<int> Map, const SmallBitVector &Written,
                  AsmAccess &Out) {
  auto [Opcode, Rest] = opcodeAndRest(S);
  if (Opcode.empty())
    return Verdict::Neutral;
  if (Opcode.starts_with("cp.async."))
    return asyncCopy(Opcode, Rest, CB, Map, Written, Out);
  // Cache hints (CUB's DeviceTransform prefetches its tiles to L2): they
  // move lines between caches, never a value into a register or memory.
  StringRef Op = Opcode.split('.').first;
  if (Op == "prefetch" || Op == "prefetchu" || Op == "applypriority")
    return Verdict::Neutral;
  // Register-only statements, and memory instructions of shared, local,
  // constant or parameter space, touch no global memory.
  AsmMemoryUse U = scanAsmMemoryUse(S, GpuArch::NVPTX);
  if (!U.Reads && !U.Writes)
    return Verdict::Neutral;
  return plainAccess(Opcode, Rest, CB, Map, Written, Out);
}

} // namespace

std::optional<SmallVector<AsmAccess, 2>> matchAsmAccesses(const CallBase &CB) {
  const auto *IA = dyn_cast<InlineAsm>(CB.getCalledOperand());
  if (!IA || getGpuArch(*CB.getModule()) != GpuArch::NVPTX)
    return std::nullopt;
  StringRef Text = IA->getAsmString();
  SmallVector<int, 8> Map = operandArgs(*IA);
  const SmallBitVector Written = writtenOperands(*IA, Text);
  SmallVector<AsmAccess, 2> Accesses;
  for (StringRef S : ptxStatements(Text)) {
    AsmAccess A;
    switch (statement(S, CB, Map, Written, A)) {
    case Verdict::Neutral:
      break;
    case Verdict::Access:
      Accesses.push_back(A);
      break;
    case Verdict::Unknown:
      return std::nullopt;
    }
  }
  return Accesses;
}

bool asmAddressesFromPointers(const CallBase &CB) {
  const auto *IA = dyn_cast<InlineAsm>(CB.getCalledOperand());
  if (!IA || getGpuArch(*CB.getModule()) != GpuArch::NVPTX)
    return false;
  SmallVector<int, 8> Map = operandArgs(*IA);
  // Each register's provenance: derived from a pointer operand (by moves
  // and arithmetic) or not. An input tied to an output shares its register:
  // both names map to the output's.
  SmallVector<unsigned, 8> Canon;
  {
    unsigned N = 0;
    for (const InlineAsm::ConstraintInfo &CI : IA->ParseConstraints()) {
      if (CI.Type == InlineAsm::isClobber)
        continue;
      Canon.push_back(tiedOutput(CI).value_or(N));
      ++N;
    }
  }
  auto Key = [&](StringRef R) -> std::string {
    if (std::optional<unsigned> N = operandNumber(R); N && *N < Canon.size())
      return "$" + std::to_string(Canon[*N]);
    return R.str();
  };
  // Each statement: what it writes, what it reads, whether it loads, and
  // the base registers of its global (or generic) addresses.
  struct Statement {
    SmallVector<std::string, 2> Dests;
    SmallVector<std::string, 4> Sources;
    SmallVector<std::string, 2> Addresses;
    bool Loaded = false;
  };
  SmallVector<Statement, 16> Code;
  bool Branches = false;
  for (StringRef S : ptxStatements(IA->getAsmString())) {
    auto [Opcode, Rest] = opcodeAndRest(S);
    if (Opcode.empty())
      continue;
    StringRef Op = Opcode.split('.').first;
    if (Op == "call")
      return false;
    Branches |= Op == "bra" || Op == "brx" || Opcode.ends_with(":");
    SmallVector<StringRef, 4> Ops = operandsOf(Rest);
    AsmMemoryUse U = scanAsmMemoryUse(S, GpuArch::NVPTX);
    const bool Global = U.Reads || U.Writes;
    Statement St;
    for (StringRef O : Ops) {
      if (!O.starts_with("["))
        continue;
      St.Loaded = true;
      SmallVector<StringRef, 4> Regs = registersIn(O);
      if (Global && Regs.empty())
        return false; // a number: memory the analysis cannot name
      if (Global)
        St.Addresses.push_back(Key(Regs.front()));
    }
    if (Global && !St.Loaded)
      return false; // a memory instruction without a visible address
    if (!Ops.empty() && writesFirstOperand(Opcode) && !Ops[0].starts_with("[")) {
      for (StringRef R : registersIn(Ops[0]))
        St.Dests.push_back(Key(R));
      for (StringRef O : ArrayRef<StringRef>(Ops).drop_front())
        for (StringRef R : registersIn(O))
          St.Sources.push_back(Key(R));
    }
    Code.push_back(std::move(St));
  }
  StringMap<bool> Derived;
  for (unsigned N = 0; N < Map.size(); ++N)
    Derived["$" + std::to_string(Canon[N])] =
        Map[N] >= 0 && unsigned(Map[N]) < CB.arg_size() && addressOf(CB.getArgOperand(Map[N]));
  auto IsDerived = [&](const std::string &R) {
    auto It = Derived.find(R);
    return It != Derived.end() && It->second;
  };
  auto FromSources = [&](const Statement &St) {
    return !St.Loaded && llvm::any_of(St.Sources, IsDerived);
  };
  if (!Branches) {
    // Straight-line text, in order: `mul.wide q, idx, 4; add q, q, ptr`
    // ends derived from ptr.
    for (const Statement &St : Code) {
      if (!llvm::all_of(St.Addresses, IsDerived))
        return false;
      const bool From = FromSources(St);
      for (const std::string &D : St.Dests)
        Derived[D] = From;
    }
    return true;
  }
  // Text that branches may run a statement again after a later one: a
  // register counts as derived only if every statement writing it derives
  // it (the greatest such set, from every written register up).
  for (const Statement &St : Code)
    for (const std::string &D : St.Dests)
      Derived.try_emplace(D, true);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Statement &St : Code) {
      if (FromSources(St))
        continue;
      for (const std::string &D : St.Dests)
        if (Derived[D]) {
          Derived[D] = false;
          Changed = true;
        }
    }
  }
  for (const Statement &St : Code)
    if (!llvm::all_of(St.Addresses, IsDerived))
      return false;
  return true;
}

std::optional<AsmAccess> matchAsyncCopyIntrinsic(const CallBase &CB) {
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
  return AsmAccess{II->getArgOperand(1), Bytes, /*Reads=*/true, /*Writes=*/false, /*Atomic=*/false};
}

} // namespace gmem

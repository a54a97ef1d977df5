//===- MatrixFragmentAccesses.cpp - Tiles read and written by wmma --------===//

#include "gmem/passes/MatrixFragmentAccesses.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"

using namespace llvm;

namespace gmem {
namespace {

// "m16n16k16" -> {16, 16, 16}.
bool parseShape(StringRef S, unsigned &M, unsigned &N, unsigned &K) {
  if (!S.consume_front("m"))
    return false;
  size_t NPos = S.find('n'), KPos = S.find('k');
  if (NPos == StringRef::npos || KPos == StringRef::npos || KPos < NPos)
    return false;
  return !S.substr(0, NPos).getAsInteger(10, M) &&
         !S.substr(NPos + 1, KPos - NPos - 1).getAsInteger(10, N) &&
         !S.substr(KPos + 1).getAsInteger(10, K) && M && N && K;
}

// Bytes of one element. Sub-byte types (s4, u4, b1) pack several elements
// per byte with their own stride rules: not matched.
unsigned elemBytes(StringRef T) {
  if (T == "s8" || T == "u8")
    return 1;
  if (T == "f16" || T == "bf16")
    return 2;
  if (T == "f32" || T == "s32" || T == "tf32")
    return 4;
  if (T == "f64")
    return 8;
  return 0;
}

} // namespace

std::optional<MatrixFragmentAccess> matchMatrixFragmentAccess(const CallBase &CB) {
  const Function *Callee = CB.getCalledFunction();
  if (!Callee)
    return std::nullopt;
  StringRef Name = Callee->getName();
  if (!Name.consume_front("llvm.nvvm.wmma."))
    return std::nullopt;
  SmallVector<StringRef, 8> Parts;
  Name.split(Parts, '.');
  // shape . op . frag . layout . "stride" . type [. pN]
  if (Parts.size() < 6 || Parts.size() > 7 || Parts[4] != "stride")
    return std::nullopt;
  if (Parts.size() == 7 && !Parts[6].starts_with("p"))
    return std::nullopt;
  unsigned M, N, K;
  if (!parseShape(Parts[0], M, N, K))
    return std::nullopt;
  bool Load = Parts[1] == "load";
  if (!Load && Parts[1] != "store")
    return std::nullopt;
  unsigned Rows, Cols;
  StringRef Frag = Parts[2];
  if (Frag == "a")
    Rows = M, Cols = K;
  else if (Frag == "b")
    Rows = K, Cols = N;
  else if (Frag == "c" || Frag == "d")
    Rows = M, Cols = N;
  else
    return std::nullopt;
  // Loads take a, b or c; stores write d.
  if (Load == (Frag == "d"))
    return std::nullopt;
  bool RowMajor = Parts[3] == "row";
  if (!RowMajor && Parts[3] != "col")
    return std::nullopt;
  unsigned Bytes = elemBytes(Parts[5]);
  if (!Bytes)
    return std::nullopt;
  // The pointer comes first, the stride (an i32 in elements) last.
  if (CB.arg_size() < 2 || !CB.getArgOperand(0)->getType()->isPointerTy())
    return std::nullopt;
  Value *Stride = CB.getArgOperand(CB.arg_size() - 1);
  if (!Stride->getType()->isIntegerTy(32))
    return std::nullopt;
  MatrixFragmentAccess A;
  A.Ptr = CB.getArgOperand(0);
  A.Stride = Stride;
  A.Lines = RowMajor ? Rows : Cols;
  A.LineElems = RowMajor ? Cols : Rows;
  A.ElemBytes = Bytes;
  A.Reads = Load;
  return A;
}

} // namespace gmem

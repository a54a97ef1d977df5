// Descriptors for runtime tests: hand-built ones shaped like the analysis's
// output, and the ones embedded in PTX files (__gmem_desc_* globals).
#pragma once

#include "gmem/compiler/DescriptorCodec.h"
#include "gmem/compiler/KernelDescriptor.h"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace gmem {
namespace rt {
namespace test {

inline ExprRef C(int64_t V) { return Expr::constant(V); }
inline ExprRef GridX() { return Expr::variable(Var::gridDim(0)); }
inline ExprRef BlockX() { return Expr::variable(Var::blockDim(0)); }
inline ExprRef ArgV(unsigned I) { return Expr::variable(Var::arg(I)); }

/// [0, ElemBytes*min(blockDim.x*gridDim.x, n)) with the analysis's no-wrap check.
inline AccessRegion linearRegion(unsigned NArg, int64_t ElemBytes) {
  AccessRegion R;
  R.Kind = RegionKind::Bounded;
  ExprRef Threads = Expr::mul(BlockX(), GridX());
  R.Ranges.push_back({C(0), Expr::mul(C(ElemBytes), Expr::smin(Threads, ArgV(NArg)))});
  R.Checks.push_back({Expr::sub(Threads, C(1)), INT64_MIN, 2147483647, true});
  return R;
}

inline ParamInfo ptrParam(const std::string &Name) {
  ParamInfo P;
  P.Name = Name;
  P.Type = ScalarType::Ptr;
  P.IsPointer = true;
  return P;
}
inline ParamInfo scalarParam(const std::string &Name, ScalarType T) {
  ParamInfo P;
  P.Name = Name;
  P.Type = T;
  return P;
}

/// vec_add(const float *A, const float *B, float *C, int n): conditional.
inline KernelDescriptor vecAdd(const std::string &Symbol = "_Z7vec_addPKfS0_Pfi") {
  KernelDescriptor K;
  K.Symbol = Symbol;
  K.Name = "vec_add(float const*, float const*, float*, int)";
  K.PlainName = "vec_add";
  K.Target = "nvptx";
  K.Class = IdempotenceClass::Conditional;
  K.ClassReason = "reads 'A' and writes 'C'";
  K.Params = {ptrParam("A"), ptrParam("B"), ptrParam("C"), scalarParam("n", ScalarType::I32)};
  K.Params[0].Read = linearRegion(3, 4);
  K.Params[1].Read = linearRegion(3, 4);
  K.Params[2].Write = linearRegion(3, 4);
  return K;
}

/// increment(float *a, int n): a[i] += 1 (non-idempotent).
inline KernelDescriptor increment(const std::string &Symbol = "_Z9incrementPfi") {
  KernelDescriptor K;
  K.Symbol = Symbol;
  K.Name = "increment(float*, int)";
  K.PlainName = "increment";
  K.Target = "nvptx";
  K.Class = IdempotenceClass::NonIdempotent;
  K.Params = {ptrParam("a"), scalarParam("n", ScalarType::I32)};
  K.Params[0].Read = linearRegion(1, 4);
  K.Params[0].Write = linearRegion(1, 4);
  return K;
}

/// accum(const float *x, float *y, int accumulate, int n): y[i] += x[i] when
/// accumulate, else y[i] = x[i]. Non-idempotent, with a conditional variant
/// for accumulate == 0 (LaunchGuard.h).
inline KernelDescriptor accumFlag(const std::string &Symbol = "_Z5accumPKfPfii") {
  KernelDescriptor K;
  K.Symbol = Symbol;
  K.Name = "accum(float const*, float*, int, int)";
  K.PlainName = "accum";
  K.Target = "nvptx";
  K.Class = IdempotenceClass::NonIdempotent;
  K.ClassReason = "'y' is read and written at the same offset";
  K.Params = {ptrParam("x"), ptrParam("y"), scalarParam("accumulate", ScalarType::I32),
              scalarParam("n", ScalarType::I32)};
  K.Params[0].Read = linearRegion(3, 4);
  K.Params[1].Read = linearRegion(3, 4);
  K.Params[1].Write = linearRegion(3, 4);
  KernelDescriptor V = K;
  V.Class = IdempotenceClass::Conditional;
  V.ClassReason = "reads 'x' and writes 'y'";
  V.Params[1].Read = AccessRegion();
  KernelVariant KV;
  GuardAtom G;
  G.Param = 2;
  G.Bits = 32;
  G.How = GuardView::Same;
  G.Pred = GuardPred::Eq;
  G.Const = 0;
  KV.When = {G};
  KV.D = std::make_shared<const KernelDescriptor>(V);
  K.Variants.push_back(KV);
  return K;
}

/// apply(Pack p): struct Pack { const float *in; float *out; int n; } by
/// value (24 bytes); reads in[0, 4n), writes out[0, 4n).
inline KernelDescriptor packKernel(const std::string &Symbol = "_Z5apply4Pack") {
  KernelDescriptor K;
  K.Symbol = Symbol;
  K.Name = "apply(Pack)";
  K.PlainName = "apply";
  K.Target = "nvptx";
  K.Class = IdempotenceClass::Conditional;
  ParamInfo P = scalarParam("p", ScalarType::Other);
  P.ByteSize = 24;
  K.Params = {P};
  ExprRef N = Expr::variable(Var::argField(0, 16, 4));
  ParamInfo In = ptrParam("p.in"), Out = ptrParam("p.out");
  In.FieldParam = 0;
  In.FieldOffset = 0;
  Out.FieldParam = 0;
  Out.FieldOffset = 8;
  In.Read.Kind = Out.Write.Kind = RegionKind::Bounded;
  In.Read.Ranges.push_back({C(0), Expr::mul(C(4), N)});
  Out.Write.Ranges.push_back({C(0), Expr::mul(C(4), N)});
  K.Fields = {In, Out};
  return K;
}

/// Every __gmem_desc_* blob in a PTX text (symbol -> bytes). PTX
/// initializers may stop early: the remaining bytes are zero.
inline std::vector<std::pair<std::string, std::vector<uint8_t>>> blobsInPtx(const std::string &Ptx) {
  std::vector<std::pair<std::string, std::vector<uint8_t>>> Out;
  const std::string Key = ".b8 __gmem_desc_";
  for (size_t P = Ptx.find(Key); P != std::string::npos; P = Ptx.find(Key, P + 1)) {
    size_t NameBegin = P + Key.size();
    size_t Open = Ptx.find('[', NameBegin), Close = Ptx.find(']', NameBegin);
    size_t Brace = Ptx.find('{', NameBegin), End = Ptx.find('}', NameBegin);
    if (Open == std::string::npos || Close == std::string::npos || Brace == std::string::npos ||
        End == std::string::npos || Ptx.find(';', NameBegin) < Brace)
      continue;
    std::vector<uint8_t> Bytes;
    std::stringstream In(Ptx.substr(Brace + 1, End - Brace - 1));
    std::string Tok;
    while (std::getline(In, Tok, ','))
      Bytes.push_back(uint8_t(std::stoi(Tok)));
    Bytes.resize(std::stoull(Ptx.substr(Open + 1, Close - Open - 1)), 0);
    Out.push_back({Ptx.substr(NameBegin, Open - NameBegin), std::move(Bytes)});
  }
  return Out;
}

inline std::string readFile(const std::string &Path) {
  std::ifstream F(Path, std::ios::binary);
  std::stringstream S;
  S << F.rdbuf();
  return S.str();
}

} // namespace test
} // namespace rt
} // namespace gmem

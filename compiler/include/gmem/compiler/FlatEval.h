// A compiled form of a kernel descriptor for the launch path.
//
// gmem::evaluate walks shared_ptr expression trees and gmem::checkInstance
// builds strings and vectors at every call: several microseconds per launch.
// Here all the expressions of a kernel (region bounds, no-wrap checks,
// disjointness checks) become one table of nodes in SSA form, shared
// sub-expressions merged (hash-consing): the no-wrap check and the bound
// that recur in every parameter's regions are computed once. A launch
// evaluates the table front to back into a value array (int64 with the same
// overflow, division and missing-value rules as gmem::evaluate, a failure
// poisoning every node that uses it), then the instance check runs over
// preallocated scratch buffers.
//
// It lives in compiler/ because it is THE evaluator: libgmemrt decides every
// launch with it and gmem-analyze's instance mode decides with it too (and
// checks the result against checkInstance, the reference).
//
// The semantics are exactly gmem::evaluate's and gmem::checkInstance's: same
// ranges, flags, conflict and reason. test/runtime/FlatEvalTest.cpp checks
// this on tens of thousands of random expressions, on random descriptors and
// launches, and on every descriptor the analysis embeds in the corpus.
#pragma once

#include "gmem/compiler/InstanceCheck.h"
#include "gmem/compiler/KernelDescriptor.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gmem {
namespace flat {

enum class FOp : uint8_t { Const, Slot, Field, Fail, Add, Mul, SMin, SMax, UDiv, SDiv };

/// One node: a leaf (constant, launch value slot, by-value field, "no
/// value") or an n-ary operation over earlier nodes.
struct FNode {
  FOp Op;
  uint32_t N = 0;     ///< operand count
  uint32_t Ops = 0;   ///< first operand in FProgram::Operands
  int64_t Imm = 0;    ///< constant, value slot, or packed ArgField variable
};

struct FProgram {
  std::vector<FNode> Nodes; ///< operands always precede their users
  std::vector<uint32_t> Operands;
};

using InternMap = std::unordered_map<std::string, uint32_t>;

/// Value slots: 0..2 gridDim, 3..5 blockDim, 6+i argument i.
constexpr unsigned ArgSlot0 = 6;

/// Compiles E into P (sharing nodes through Ids) and returns the node that
/// holds its value. NArgs: argument slots (a variable naming a missing
/// argument has no value, as in evaluate).
uint32_t compileExpr(const Expr &E, unsigned NArgs, FProgram &P, InternMap &Ids);

/// Raw bytes of one by-value parameter at a launch (Size 0: not available).
struct ByteView {
  const uint8_t *Data = nullptr;
  size_t Size = 0;
};

/// What the expressions read at one launch.
struct EvalEnv {
  const int64_t *Slots = nullptr;   ///< grid, block, argument values
  const ByteView *Bytes = nullptr;  ///< per parameter (ArgField variables)
  size_t NumBytes = 0;
};

/// Evaluates every node: V[i] its value when Ok[i] (else: evaluate would
/// have said nullopt).
void evalProgram(const FProgram &P, const EvalEnv &Env, int64_t *V, uint8_t *Ok);

struct FCheck {
  uint32_t Value; ///< node
  int64_t Min, Max;
};
struct FRange {
  uint32_t Lo, Hi; ///< nodes
};
struct FRegion {
  RegionKind Kind = RegionKind::Empty;
  uint32_t ChecksBegin = 0, ChecksEnd = 0;
  uint32_t RangesBegin = 0, RangesEnd = 0;
};
struct FParam {
  ScalarType Type = ScalarType::Other;
  bool IsPointer = false;
  bool Accessed = false;
  bool Atomic = false;
  bool RWDisjoint = false;
  FRegion Read, Write;
  uint32_t DisjointBegin = 0, DisjointEnd = 0; ///< into Checks
  int FieldParam = -1;   ///< pointer fields: the by-value parameter holding it
  uint32_t FieldOffset = 0;
};

struct FlatKernel {
  FProgram Prog;
  std::vector<FCheck> Checks;
  std::vector<FRange> Ranges;
  std::vector<FParam> Params;
  std::vector<FParam> Globals;
  std::vector<FParam> Fields;          ///< pointers inside by-value parameters
  std::vector<uint32_t> PointerParams; ///< indices of pointer parameters
  /// Parameters whose raw bytes a launch must supply (by-value aggregates,
  /// and any parameter an ArgField variable or a pointer field reads).
  std::vector<uint8_t> NeedsBytes;
  bool UnknownRead = false, UnknownWrite = false;
  /// The kernel's class is non-idempotent (checkInstance's rule below).
  bool NeverIdempotent = false;
  /// KernelDescriptor::AliasOk (launchAlias decides per launch).
  std::vector<std::pair<uint32_t, uint32_t>> AliasOk;
};

FlatKernel compileKernel(const KernelDescriptor &K);

/// Why a region was widened at a launch (checkInstance's Note, as a code).
enum class WidenWhy : uint8_t { None, CheckFailed, Overflow, Wraps, NoAllocation };

struct FastAccess {
  bool HasAlloc = false;
  Allocation Alloc;
  uint32_t ReadBegin = 0, ReadEnd = 0;   ///< into FastDecision::Pool
  uint32_t WriteBegin = 0, WriteEnd = 0;
  bool ReadAnything = false, WriteAnything = false;
  bool ReadExact = false, WriteExact = false;
  WidenWhy Widened = WidenWhy::None;
};

struct FastDecision {
  bool Idempotent = false;
  bool HasClash = false;
  bool ClashAnything = false; ///< the conflict is "memory the analysis cannot bound"
  Conflict Clash;
  std::vector<FastAccess> Params, Globals, Fields;
  std::vector<ByteRange> Pool;
  // Scratch.
  std::vector<int64_t> Slots, V;
  std::vector<uint8_t> Ok;
};

/// Per-launch input.
struct FastLaunch {
  int64_t Grid[3] = {1, 1, 1};
  int64_t Block[3] = {1, 1, 1};
  const uint64_t *ArgBits = nullptr;
  size_t NumArgs = 0;
  /// Raw bytes of by-value parameters, by index (LaunchConfig::ArgBytes).
  const ByteView *ArgBytes = nullptr;
  size_t NumArgBytes = 0;
  /// Resolved module globals (one per descriptor global); null: none resolved.
  const std::optional<Allocation> *Globals = nullptr;
};

/// checkInstance, compiled. Lookup: bool(uint64_t Ptr, Allocation &Out).
template <typename LookupFn>
void fastCheck(const FlatKernel &K, const FastLaunch &L, LookupFn &&Lookup, FastDecision &D);

/// checkInstance's reason text for a fast decision.
std::string fastReason(const KernelDescriptor &K, const FastDecision &D);

/// Converts to the reference form (tests, GMEM_VERIFY). Notes are not
/// rendered: a widened access gets a non-empty placeholder note.
InstanceDecision toInstanceDecision(const KernelDescriptor &K, const FastDecision &D);

/// Compares a fast decision with checkInstance's; empty when equal, else
/// the first difference.
std::string compareDecisions(const KernelDescriptor &K, const FastDecision &F,
                             const InstanceDecision &R);

// ---------------------------------------------------------------------------

namespace detail {

/// readArgField: an N-byte little-endian signed field of a parameter's bytes.
inline bool readField(const EvalEnv &Env, uint32_t Packed, int64_t &Out) {
  unsigned Param = Packed >> 16 & 0xff, Offset = Packed & 0x3fff, Bytes = 1u << (Packed >> 14 & 3);
  if (!Env.Bytes || Param >= Env.NumBytes)
    return false;
  const ByteView &B = Env.Bytes[Param];
  if (size_t(Offset) + Bytes > B.Size)
    return false;
  uint64_t X = 0;
  for (unsigned I = 0; I < Bytes; ++I)
    X |= uint64_t(B.Data[Offset + I]) << (8 * I);
  unsigned Shift = 64 - 8 * Bytes;
  Out = Shift ? int64_t(X << Shift) >> Shift : int64_t(X);
  return true;
}

/// gmem::argValue, inline (the signed value of a parameter's bits).
inline int64_t argValueInline(ScalarType T, uint64_t Bits) {
  switch (T) {
  case ScalarType::I8: return int8_t(Bits);
  case ScalarType::I16: return int16_t(Bits);
  case ScalarType::I32: return int32_t(Bits);
  default: return int64_t(Bits);
  }
}

struct Ctx {
  const FlatKernel &K;
  const int64_t *V;
  const uint8_t *Ok;
  FastDecision &D;
};

inline bool checksHold(const Ctx &C, uint32_t Begin, uint32_t End) {
  for (uint32_t I = Begin; I < End; ++I) {
    const FCheck &X = C.K.Checks[I];
    if (!C.Ok[X.Value] || C.V[X.Value] < X.Min || C.V[X.Value] > X.Max)
      return false;
  }
  return true;
}

#define GMEM_ALWAYS_INLINE inline __attribute__((always_inline))

// checkInstance's evaluateRegion.
GMEM_ALWAYS_INLINE void evalRegion(const Ctx &C, const FRegion &R, uint64_t Ptr, bool HasAlloc,
                       const Allocation &Alloc, uint32_t &Begin, uint32_t &End, bool &Anything,
                       bool &Exact, WidenWhy &Note) {
  FastDecision &D = C.D;
  Exact = false;
  Begin = End = uint32_t(D.Pool.size());
  switch (R.Kind) {
  case RegionKind::Empty:
    Exact = true;
    return;
  case RegionKind::Anything:
    Anything = true;
    return;
  case RegionKind::Allocation:
    break;
  case RegionKind::Bounded: {
    WidenWhy Why = WidenWhy::None;
    bool Ok = checksHold(C, R.ChecksBegin, R.ChecksEnd);
    if (!Ok)
      Why = WidenWhy::CheckFailed;
    for (uint32_t I = R.RangesBegin; Ok && I < R.RangesEnd; ++I) {
      const FRange &X = C.K.Ranges[I];
      if (!C.Ok[X.Lo] || !C.Ok[X.Hi]) {
        Ok = false;
        Why = WidenWhy::Overflow;
        break;
      }
      int64_t Lo = C.V[X.Lo], Hi = C.V[X.Hi];
      if (Lo >= Hi)
        continue;
      uint64_t ALo = Ptr + uint64_t(Lo), AHi = Ptr + uint64_t(Hi);
      if ((Lo < 0 && ALo > Ptr) || (Lo >= 0 && ALo < Ptr) || (Hi >= 0 && AHi < Ptr) ||
          (Hi < 0 && AHi > Ptr)) {
        Ok = false;
        Why = WidenWhy::Wraps;
        break;
      }
      ByteRange B{ALo, AHi};
      if (HasAlloc) {
        B.Lo = B.Lo > Alloc.Base ? B.Lo : Alloc.Base;
        B.Hi = B.Hi < Alloc.end() ? B.Hi : Alloc.end();
        if (B.Lo >= B.Hi)
          continue;
      }
      D.Pool.push_back(B);
    }
    if (Ok) {
      End = uint32_t(D.Pool.size());
      Exact = true;
      return;
    }
    D.Pool.resize(Begin);
    if (Note == WidenWhy::None)
      Note = Why;
    break;
  }
  }
  if (!HasAlloc) {
    Anything = true;
    if (Note == WidenWhy::None)
      Note = WidenWhy::NoAllocation;
    return;
  }
  D.Pool.push_back({Alloc.Base, Alloc.end()});
  End = Begin + 1;
}

GMEM_ALWAYS_INLINE void evalParam(const Ctx &C, const FParam &P, uint64_t Ptr, bool HasAlloc,
                      const Allocation &Alloc, FastAccess &A) {
  A.HasAlloc = HasAlloc;
  A.Alloc = HasAlloc ? Alloc : Allocation{};
  evalRegion(C, P.Read, Ptr, HasAlloc, A.Alloc, A.ReadBegin, A.ReadEnd, A.ReadAnything,
             A.ReadExact, A.Widened);
  evalRegion(C, P.Write, Ptr, HasAlloc, A.Alloc, A.WriteBegin, A.WriteEnd, A.WriteAnything,
             A.WriteExact, A.Widened);
}

constexpr int UnknownOwner = INT32_MIN;

} // namespace detail

template <typename LookupFn>
void fastCheck(const FlatKernel &K, const FastLaunch &L, LookupFn &&Lookup, FastDecision &D) {
  const size_t NP = K.Params.size(), NG = K.Globals.size(), NF = K.Fields.size();
  D.Idempotent = false;
  D.HasClash = false;
  D.ClashAnything = false;
  D.Pool.clear();
  auto Reset = [](std::vector<FastAccess> &X, size_t N) {
    if (X.size() != N)
      X.resize(N);
    for (FastAccess &A : X)
      A = FastAccess();
  };
  Reset(D.Params, NP);
  Reset(D.Globals, NG);
  Reset(D.Fields, NF);

  // Launch values, then every node of the kernel's expressions.
  if (D.Slots.size() < ArgSlot0 + NP)
    D.Slots.resize(ArgSlot0 + NP);
  int64_t *Slots = D.Slots.data();
  for (int I = 0; I < 3; ++I) {
    Slots[I] = L.Grid[I];
    Slots[3 + I] = L.Block[I];
  }
  for (size_t I = 0; I < NP; ++I)
    Slots[ArgSlot0 + I] =
        I < L.NumArgs ? detail::argValueInline(K.Params[I].Type, L.ArgBits[I]) : 0;
  const size_t NN = K.Prog.Nodes.size();
  if (D.V.size() < NN) {
    D.V.resize(NN);
    D.Ok.resize(NN);
  }
  EvalEnv Env;
  Env.Slots = Slots;
  Env.Bytes = L.ArgBytes;
  Env.NumBytes = L.NumArgBytes;
  evalProgram(K.Prog, Env, D.V.data(), D.Ok.data());
  const detail::Ctx C{K, D.V.data(), D.Ok.data(), D};

  for (size_t I = 0; I < NP; ++I) {
    const FParam &P = K.Params[I];
    if (!P.IsPointer || !P.Accessed)
      continue;
    uint64_t Ptr = I < L.NumArgs ? L.ArgBits[I] : 0;
    Allocation A;
    bool Has = Lookup(Ptr, A);
    detail::evalParam(C, P, Ptr, Has, A, D.Params[I]);
  }
  for (size_t G = 0; G < NG; ++G) {
    bool Has = L.Globals && L.Globals[G].has_value();
    Allocation A = Has ? *L.Globals[G] : Allocation{};
    detail::evalParam(C, K.Globals[G], Has ? A.Base : 0, Has, A, D.Globals[G]);
  }
  for (size_t F = 0; F < NF; ++F) {
    const FParam &P = K.Fields[F];
    if (!P.Accessed)
      continue;
    int64_t Ptr;
    uint32_t Packed = uint32_t(P.FieldParam & 0xff) << 16 | 3u << 14 | (P.FieldOffset & 0x3fff);
    if (P.FieldParam < 0 || P.FieldParam > 255 || P.FieldOffset > 0x3fff ||
        !detail::readField(Env, Packed, Ptr)) {
      FastAccess &A = D.Fields[F];
      A = FastAccess();
      A.ReadAnything = P.Read.Kind != RegionKind::Empty;
      A.WriteAnything = P.Write.Kind != RegionKind::Empty;
      A.Widened = WidenWhy::NoAllocation;
      continue;
    }
    Allocation A;
    bool Has = Lookup(uint64_t(Ptr), A);
    detail::evalParam(C, P, uint64_t(Ptr), Has, A, D.Fields[F]);
  }

  // Sides: parameters, pointer fields, globals, unknown memory, in
  // checkInstance's order; only those that write (read) take part, writers
  // outer, readers inner.
  struct Side {
    const FastAccess *A;
    const FParam *Info; ///< null for unknown memory
    int Owner;
    uint32_t Index;
    bool Resolved;
  };
  const size_t NS = NP + NF + NG + 1;
  FastAccess Unknown;
  Unknown.ReadAnything = K.UnknownRead;
  Unknown.WriteAnything = K.UnknownWrite;
  Side SmallW[32], SmallR[32];
  std::vector<Side> BigW, BigR;
  Side *Ws = SmallW, *Rs = SmallR;
  size_t NW = 0, NR = 0;
  if (NS > 32) {
    BigW.resize(NS);
    BigR.resize(NS);
    Ws = BigW.data();
    Rs = BigR.data();
  }
  auto Add = [&](const FastAccess &A, const FParam *Info, int Owner, size_t Index, bool Resolved) {
    Side S{&A, Info, Owner, uint32_t(Index), Resolved};
    if (A.WriteAnything || A.WriteEnd > A.WriteBegin)
      Ws[NW++] = S;
    if (A.ReadAnything || A.ReadEnd > A.ReadBegin)
      Rs[NR++] = S;
  };
  for (size_t I = 0; I < NP; ++I)
    if (K.Params[I].IsPointer && K.Params[I].Accessed)
      Add(D.Params[I], &K.Params[I], int(I), I, true);
  for (size_t F = 0; F < NF; ++F)
    Add(D.Fields[F], &K.Fields[F], FieldOwnerBase + int(F), NP + F, true);
  for (size_t G = 0; G < NG; ++G)
    Add(D.Globals[G], &K.Globals[G], -int(G) - 1, NP + NF + G, D.Globals[G].HasAlloc);
  Add(Unknown, nullptr, detail::UnknownOwner, NS - 1, true);

  const std::pair<int, int> Alias = launchAlias(
      K.AliasOk, NP, L.ArgBits, L.NumArgs,
      [&](size_t I) { return K.Params[I].IsPointer && K.Params[I].Accessed; },
      [&](size_t I) {
        const FastAccess &A = D.Params[I];
        return (A.ReadEnd == A.ReadBegin || A.ReadExact) &&
               (A.WriteEnd == A.WriteBegin || A.WriteExact) && !A.ReadAnything && !A.WriteAnything;
      });

  for (size_t WI0 = 0; WI0 < NW; ++WI0) {
    const Side &WSide = Ws[WI0];
    const FastAccess &W = *WSide.A;
    for (size_t RI0 = 0; RI0 < NR; ++RI0) {
      const Side &RSide = Rs[RI0];
      const FastAccess &R = *RSide.A;
      if (Alias.first >= 0 && ((RSide.Owner == Alias.first && WSide.Owner == Alias.second) ||
                               (RSide.Owner == Alias.second && WSide.Owner == Alias.first)))
        continue;
      if (W.WriteAnything || R.ReadAnything) {
        D.HasClash = true;
        D.ClashAnything = true;
        D.Clash = Conflict{RSide.Owner, WSide.Owner, {0, UINT64_MAX}};
        return;
      }
      if (RSide.Index == WSide.Index) {
        const FParam *P = RSide.Info;
        if (P && P->RWDisjoint && !P->Atomic && R.ReadExact && R.WriteExact &&
            detail::checksHold(C, P->DisjointBegin, P->DisjointEnd))
          continue;
      } else if (!RSide.Resolved || !WSide.Resolved) {
        continue;
      }
      for (uint32_t WI = W.WriteBegin; WI < W.WriteEnd; ++WI)
        for (uint32_t RI = R.ReadBegin; RI < R.ReadEnd; ++RI) {
          const ByteRange &WR = D.Pool[WI], &RR = D.Pool[RI];
          if (WR.overlaps(RR)) {
            D.HasClash = true;
            D.Clash = Conflict{RSide.Owner, WSide.Owner,
                               {WR.Lo > RR.Lo ? WR.Lo : RR.Lo, WR.Hi < RR.Hi ? WR.Hi : RR.Hi}};
            return;
          }
        }
    }
  }
  D.Idempotent = !K.NeverIdempotent;
}

} // namespace flat
} // namespace gmem

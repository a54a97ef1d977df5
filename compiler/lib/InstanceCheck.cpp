#include "gmem/compiler/InstanceCheck.h"

#include <climits>
#include <cstring>

namespace gmem {
namespace {

constexpr int UnknownMemory = INT_MIN;

/// A check on a float parameter alone is on its bits read as an integer:
/// the sign check of a float the analysis proved non-negative otherwise.
std::string floatSignCheck(const RangeCheck &C, int64_t Bits, const std::vector<std::string> &Names,
                           const std::vector<ParamInfo> *Params) {
  if (!Params || C.Value->op() != ExprOp::Var || C.Value->var().Kind != VarKind::Arg)
    return {};
  unsigned I = C.Value->var().Index;
  if (I >= Params->size())
    return {};
  ScalarType T = (*Params)[I].Type;
  if (T != ScalarType::F32 && T != ScalarType::F64)
    return {};
  double D;
  if (T == ScalarType::F32) {
    uint32_t B = uint32_t(Bits);
    float F;
    std::memcpy(&F, &B, 4);
    D = F;
  } else {
    std::memcpy(&D, &Bits, 8);
  }
  return "launch fails the sign check on " + render(C.Value, Names) + " (= " +
         std::to_string(D) + ", negative)";
}

bool checksHold(const std::vector<RangeCheck> &Checks, const LaunchValues &V, std::string *Why,
                const std::vector<std::string> &Names,
                const std::vector<ParamInfo> *Params = nullptr) {
  for (const RangeCheck &C : Checks) {
    auto X = evaluate(*C.Value, V);
    if (!X || *X < C.Min || *X > C.Max) {
      if (Why) {
        *Why = X ? floatSignCheck(C, *X, Names, Params) : std::string();
        if (Why->empty())
          *Why = "launch fails the no-wrap check on " + render(C.Value, Names) +
                 (X ? " (= " + std::to_string(*X) + ")" : " (overflows)");
      }
      return false;
    }
  }
  return true;
}

// Evaluates one region into absolute byte ranges. Returns false when the
// region must be treated as "anything" (no allocation to widen to).
void evaluateRegion(const AccessRegion &R, uint64_t Ptr, const std::optional<Allocation> &Alloc,
                    const LaunchValues &V, const std::vector<std::string> &Names,
                    const std::vector<ParamInfo> &Params, std::vector<ByteRange> &Out,
                    bool &Anything, bool &Exact, std::string &Note) {
  Exact = false;
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
    std::string Why;
    bool Ok = checksHold(R.Checks, V, &Why, Names, &Params);
    std::vector<ByteRange> Tmp;
    for (size_t I = 0; Ok && I < R.Ranges.size(); ++I) {
      auto Lo = evaluate(*R.Ranges[I].Lo, V);
      auto Hi = evaluate(*R.Ranges[I].Hi, V);
      if (!Lo || !Hi) {
        Ok = false;
        Why = "region bound overflows at this launch";
        break;
      }
      if (*Lo >= *Hi)
        continue; // empty at this launch
      uint64_t ALo = Ptr + uint64_t(*Lo), AHi = Ptr + uint64_t(*Hi);
      // Wrapping around the address space means the bounds are meaningless.
      if ((*Lo < 0 && ALo > Ptr) || (*Lo >= 0 && ALo < Ptr) || (*Hi >= 0 && AHi < Ptr) ||
          (*Hi < 0 && AHi > Ptr)) {
        Ok = false;
        Why = "region wraps the address space";
        break;
      }
      ByteRange B{ALo, AHi};
      if (Alloc) { // accesses outside the allocation are UB: clip
        B.Lo = std::max(B.Lo, Alloc->Base);
        B.Hi = std::min(B.Hi, Alloc->end());
        if (B.Lo >= B.Hi)
          continue;
      }
      Tmp.push_back(B);
    }
    if (Ok) {
      Out.insert(Out.end(), Tmp.begin(), Tmp.end());
      Exact = true;
      return;
    }
    if (Note.empty())
      Note = Why;
    break;
  }
  }
  // Whole allocation.
  if (!Alloc) {
    Anything = true;
    if (Note.empty())
      Note = "pointer is in no known allocation";
    return;
  }
  Out.push_back({Alloc->Base, Alloc->end()});
}

void evaluateParam(const ParamInfo &P, uint64_t Ptr, const std::optional<Allocation> &Alloc,
                   const LaunchValues &V, const std::vector<std::string> &Names,
                   const std::vector<ParamInfo> &Params, ConcreteAccess &A) {
  A.Alloc = Alloc;
  evaluateRegion(P.Read, Ptr, Alloc, V, Names, Params, A.Read, A.ReadAnything, A.ReadExact,
                 A.Note);
  evaluateRegion(P.Write, Ptr, Alloc, V, Names, Params, A.Write, A.WriteAnything, A.WriteExact,
                 A.Note);
}

struct Side {
  int Owner;
  const ConcreteAccess *Access;
};

} // namespace

int64_t argValue(ScalarType T, uint64_t Bits) {
  switch (T) {
  case ScalarType::I8: return int8_t(Bits);
  case ScalarType::I16: return int16_t(Bits);
  case ScalarType::I32: return int32_t(Bits);
  default: return int64_t(Bits);
  }
}

std::string accessOwnerName(const KernelDescriptor &K, int Index) {
  if (Index == UnknownMemory)
    return "unknown memory";
  if (Index >= FieldOwnerBase) {
    size_t F = size_t(Index - FieldOwnerBase);
    return F < K.Fields.size() ? K.Fields[F].Name : "field";
  }
  if (Index >= 0)
    return Index < int(K.Params.size()) && !K.Params[Index].Name.empty()
               ? K.Params[Index].Name
               : "arg" + std::to_string(Index);
  int G = -(Index + 1);
  return G < int(K.Globals.size()) ? K.Globals[G].Name : "global";
}

InstanceDecision checkInstance(const KernelDescriptor &K, const LaunchConfig &L,
                               const AllocationLookup &FindAlloc, const GlobalLookup &FindGlobal) {
  InstanceDecision D;
  LaunchValues V;
  for (int I = 0; I < 3; ++I) {
    V.Grid[I] = L.Grid[I];
    V.Block[I] = L.Block[I];
  }
  V.Args.resize(K.Params.size(), 0);
  V.ArgBytes = &L.ArgBytes;
  for (size_t I = 0; I < K.Params.size() && I < L.ArgBits.size(); ++I)
    V.Args[I] = argValue(K.Params[I].Type, L.ArgBits[I]);
  std::vector<std::string> Names = K.paramNames();

  D.Params.resize(K.Params.size());
  for (size_t I = 0; I < K.Params.size(); ++I) {
    const ParamInfo &P = K.Params[I];
    if (!P.IsPointer || (!P.Read.accessed() && !P.Write.accessed()))
      continue;
    uint64_t Ptr = I < L.ArgBits.size() ? L.ArgBits[I] : 0;
    std::optional<Allocation> Alloc = FindAlloc ? FindAlloc(Ptr) : std::nullopt;
    evaluateParam(P, Ptr, Alloc, V, Names, K.Params, D.Params[I]);
  }
  D.Globals.resize(K.Globals.size());
  for (size_t G = 0; G < K.Globals.size(); ++G) {
    std::optional<Allocation> Alloc = FindGlobal ? FindGlobal(K.Globals[G].Name) : std::nullopt;
    // An unresolved global still gets exact relative ranges: it is its own
    // object, so only the same global can overlap it (keyed below).
    uint64_t Base = Alloc ? Alloc->Base : 0;
    evaluateParam(K.Globals[G], Base, Alloc, V, Names, K.Params, D.Globals[G]);
    if (!Alloc) {
      // Relative ranges of an unresolved global must not be compared with
      // absolute ranges of arguments; mark with a sentinel allocation.
      D.Globals[G].Alloc.reset();
    }
  }

  // Pointers held in by-value aggregates: the pointer is read from the
  // parameter's bytes; without them the target is unknown.
  D.Fields.resize(K.Fields.size());
  for (size_t F = 0; F < K.Fields.size(); ++F) {
    const ParamInfo &P = K.Fields[F];
    if (!P.Read.accessed() && !P.Write.accessed())
      continue;
    auto Ptr = readArgField(V, unsigned(P.FieldParam), P.FieldOffset, 8);
    std::optional<Allocation> Alloc =
        Ptr && FindAlloc ? FindAlloc(uint64_t(*Ptr)) : std::nullopt;
    evaluateParam(P, Ptr ? uint64_t(*Ptr) : 0, Alloc, V, Names, K.Params, D.Fields[F]);
    if (!Ptr) {
      D.Fields[F] = ConcreteAccess();
      D.Fields[F].ReadAnything = P.Read.accessed();
      D.Fields[F].WriteAnything = P.Write.accessed();
      D.Fields[F].Note = "bytes of the aggregate parameter holding this pointer not given";
    }
  }

  std::vector<Side> Sides;
  for (size_t I = 0; I < D.Params.size(); ++I)
    Sides.push_back({int(I), &D.Params[I]});
  for (size_t F = 0; F < D.Fields.size(); ++F)
    Sides.push_back({FieldOwnerBase + int(F), &D.Fields[F]});
  for (size_t G = 0; G < D.Globals.size(); ++G)
    Sides.push_back({-int(G) - 1, &D.Globals[G]});
  ConcreteAccess Unknown;
  Unknown.ReadAnything = K.UnknownRead.accessed();
  Unknown.WriteAnything = K.UnknownWrite.accessed();
  Sides.push_back({UnknownMemory, &Unknown});

  auto GlobalResolved = [&](int Owner) {
    return Owner >= 0 || Owner == UnknownMemory || D.Globals[-(Owner + 1)].Alloc.has_value();
  };
  auto HasRead = [](const ConcreteAccess &A) { return A.ReadAnything || !A.Read.empty(); };
  auto HasWrite = [](const ConcreteAccess &A) { return A.WriteAnything || !A.Write.empty(); };

  // An out-of-place kernel called in place: two pointer parameters with
  // one address whose reads and writes the analysis proved as one object's
  // (AliasOk). Only where they are the launch's one coincidence (the proof
  // took the other objects for apart) and their regions are exact.
  const std::pair<int, int> Alias = launchAlias(
      K.AliasOk, K.Params.size(), L.ArgBits.data(), L.ArgBits.size(),
      [&](size_t I) {
        const ParamInfo &P = K.Params[I];
        return P.IsPointer && (P.Read.accessed() || P.Write.accessed());
      },
      [&](size_t I) {
        const ConcreteAccess &A = D.Params[I];
        return (A.Read.empty() || A.ReadExact) && (A.Write.empty() || A.WriteExact) &&
               !A.ReadAnything && !A.WriteAnything;
      });

  for (const Side &W : Sides) {
    if (!HasWrite(*W.Access))
      continue;
    for (const Side &R : Sides) {
      if (!HasRead(*R.Access))
        continue;
      if (Alias.first >= 0 && ((R.Owner == Alias.first && W.Owner == Alias.second) ||
                               (R.Owner == Alias.second && W.Owner == Alias.first)))
        continue;
      if (W.Access->WriteAnything || R.Access->ReadAnything) {
        D.Clash = Conflict{R.Owner, W.Owner, {0, UINT64_MAX}};
        D.Reason = accessOwnerName(K, W.Owner) + " may write, and " + accessOwnerName(K, R.Owner) +
                   " may read, memory the analysis cannot bound";
        return D;
      }
      if (R.Owner == W.Owner && R.Owner >= 0) {
        const ParamInfo &P = R.Owner >= FieldOwnerBase ? K.Fields[R.Owner - FieldOwnerBase]
                                                       : K.Params[R.Owner];
        std::string Ignored;
        if (P.RWDisjoint && !P.Atomic && R.Access->ReadExact && R.Access->WriteExact &&
            checksHold(P.DisjointChecks, V, &Ignored, Names))
          continue; // proven disjoint for this launch
      }
      if (R.Owner == W.Owner && R.Owner < 0 && R.Owner != UnknownMemory) {
        const ParamInfo &G = K.Globals[-(R.Owner + 1)];
        std::string Ignored;
        if (G.RWDisjoint && !G.Atomic && R.Access->ReadExact && R.Access->WriteExact &&
            checksHold(G.DisjointChecks, V, &Ignored, Names))
          continue;
      }
      // Unresolved globals are distinct objects: only compare with themselves.
      if (R.Owner != W.Owner && (!GlobalResolved(R.Owner) || !GlobalResolved(W.Owner)))
        continue;
      for (const ByteRange &WR : W.Access->Write)
        for (const ByteRange &RR : R.Access->Read)
          if (WR.overlaps(RR)) {
            D.Clash = Conflict{R.Owner, W.Owner,
                               {std::max(WR.Lo, RR.Lo), std::min(WR.Hi, RR.Hi)}};
            D.Reason = "write of " + accessOwnerName(K, W.Owner) + " overlaps read of " +
                       accessOwnerName(K, R.Owner);
            return D;
          }
    }
  }
  // A kernel whose class is non-idempotent is never idempotent at a launch,
  // even where its regions do not overlap: its effect may be one regions do
  // not show (printf output), or a read-modify-write whose bytes happen to
  // be empty at this launch (then saying no costs nothing).
  if (K.Class == IdempotenceClass::NonIdempotent) {
    D.Reason = neverIdempotentReason(K);
    return D;
  }
  D.Idempotent = true;
  D.Reason = IdempotentLaunchReason;
  return D;
}

std::string neverIdempotentReason(const KernelDescriptor &K) {
  return "the kernel is not idempotent (" + K.ClassReason + ")";
}

} // namespace gmem

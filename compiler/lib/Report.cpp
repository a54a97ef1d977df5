#include "gmem/compiler/Report.h"

#include <cstdio>
#include <sstream>

namespace gmem {
namespace {

std::string pad(int N) { return std::string(size_t(N), ' '); }

std::string hex(uint64_t V) {
  char B[32];
  std::snprintf(B, sizeof B, "0x%llx", (unsigned long long)V);
  return B;
}

std::string rangesText(const AccessRegion &R, const std::vector<std::string> &Names) {
  std::string S;
  for (size_t I = 0; I < R.Ranges.size(); ++I)
    S += (I ? " U " : "") + std::string("[") + render(R.Ranges[I].Lo, Names) + ", " +
         render(R.Ranges[I].Hi, Names) + ")";
  return S;
}

std::string regionJson(const AccessRegion &R, const std::vector<std::string> &Names) {
  if (!R.accessed())
    return "null";
  std::string S = "{\"kind\": \"" + std::string(regionKindName(R.Kind)) + "\", \"ranges\": [";
  for (size_t I = 0; I < R.Ranges.size(); ++I)
    S += std::string(I ? ", " : "") + "{\"lo\": \"" + jsonEscape(render(R.Ranges[I].Lo, Names)) +
         "\", \"hi\": \"" + jsonEscape(render(R.Ranges[I].Hi, Names)) + "\"}";
  S += "], \"checks\": [";
  for (size_t I = 0; I < R.Checks.size(); ++I) {
    const RangeCheck &C = R.Checks[I];
    S += std::string(I ? ", " : "") + "{\"value\": \"" + jsonEscape(render(C.Value, Names)) +
         "\", \"min\": " + std::to_string(C.Min) + ", \"max\": " + std::to_string(C.Max) + "}";
  }
  S += "], \"reason\": \"" + jsonEscape(R.Reason) + "\"}";
  return S;
}

std::string paramJson(const ParamInfo &P, int Index, const std::vector<std::string> &Names,
                      bool IsGlobal, int Ind) {
  std::ostringstream O;
  O << pad(Ind) << "{";
  if (IsGlobal)
    O << "\"symbol\": \"" << jsonEscape(P.Name) << "\", ";
  else
    O << "\"index\": " << Index << ", \"name\": \"" << jsonEscape(P.Name) << "\", \"type\": \""
      << scalarTypeName(P.Type) << "\", \"pointer\": " << (P.IsPointer ? "true" : "false") << ", ";
  O << "\"read\": " << (P.Read.accessed() ? "true" : "false")
    << ", \"write\": " << (P.Write.accessed() ? "true" : "false")
    << ", \"atomic\": " << (P.Atomic ? "true" : "false")
    << ", \"read_region\": " << regionJson(P.Read, Names)
    << ", \"write_region\": " << regionJson(P.Write, Names)
    << ", \"rw_disjoint_proven\": " << (P.RWDisjoint ? "true" : "false") << "}";
  return O.str();
}

std::string rangesJson(const std::vector<ByteRange> &V, bool Anything) {
  if (Anything)
    return "[[0, 18446744073709551615]]";
  std::string S = "[";
  for (size_t I = 0; I < V.size(); ++I)
    S += std::string(I ? ", " : "") + "[" + std::to_string(V[I].Lo) + ", " +
         std::to_string(V[I].Hi) + "]";
  return S + "]";
}

} // namespace

std::string jsonEscape(const std::string &S) {
  std::string O;
  for (unsigned char C : S) {
    switch (C) {
    case '"': O += "\\\""; break;
    case '\\': O += "\\\\"; break;
    case '\n': O += "\\n"; break;
    case '\t': O += "\\t"; break;
    default:
      if (C < 0x20) {
        char B[8];
        std::snprintf(B, sizeof B, "\\u%04x", C);
        O += B;
      } else {
        O += char(C);
      }
    }
  }
  return O;
}

std::string regionText(const AccessRegion &R, const std::vector<std::string> &Names) {
  switch (R.Kind) {
  case RegionKind::Empty: return "-";
  case RegionKind::Bounded: return rangesText(R, Names);
  case RegionKind::Allocation: return "whole allocation (" + R.Reason + ")";
  case RegionKind::Anything: return "anything (" + R.Reason + ")";
  }
  return "?";
}

/// One line: how a launch of the kernel can be stopped, and why not better.
std::string preemptionText(const PreemptionSummary &P) {
  std::ostringstream O;
  if (!P.Clone)
    O << "not preemptible (no clone; the runtime launches the kernel itself)";
  else if (P.InLoop)
    O << "in loops (" << P.LoopCheckpoints << " loop checkpoint"
      << (P.LoopCheckpoints == 1 ? "" : "s") << ") and between CTAs";
  else
    O << "between CTAs (no loop checkpoints)";
  if (P.Clone) {
    O << "; " << (P.Persistent ? "persistent" : "grid") << " forms:";
    for (const std::string &F : P.Forms)
      O << " " << F;
  }
  for (const std::string &N : P.Notes)
    O << "; " << N;
  return O.str();
}

std::string preemptionJson(const PreemptionSummary &P) {
  std::ostringstream O;
  O << "{\"clone\": " << (P.Clone ? "true" : "false")
    << ", \"persistent\": " << (P.Persistent ? "true" : "false")
    << ", \"in_loop\": " << (P.InLoop ? "true" : "false")
    << ", \"loop_checkpoints\": " << P.LoopCheckpoints << ", \"forms\": [";
  for (size_t I = 0; I < P.Forms.size(); ++I)
    O << (I ? ", " : "") << "\"" << jsonEscape(P.Forms[I]) << "\"";
  O << "], \"notes\": [";
  for (size_t I = 0; I < P.Notes.size(); ++I)
    O << (I ? ", " : "") << "\"" << jsonEscape(P.Notes[I]) << "\"";
  O << "]}";
  return O.str();
}

std::string variantGuardText(const KernelDescriptor &K, const KernelVariant &V) {
  std::string S;
  for (const GuardAtom &G : V.When)
    S += (S.empty() ? "" : " and ") + guardText(K, G);
  return S.empty() ? "always" : S;
}

std::string formatTable(const std::vector<KernelDescriptor> &Kernels) {
  std::ostringstream O;
  for (const KernelDescriptor &K : Kernels) {
    auto Names = K.paramNames();
    O << "kernel " << K.Name << "  [" << K.Target << "]\n";
    O << "  symbol: " << K.Symbol << "\n";
    O << "  class:  " << className(K.Class) << " -- " << K.ClassReason << "\n";
    for (const KernelVariant &V : K.Variants)
      O << "  when " << variantGuardText(K, V) << ": " << className(V.D->Class) << " -- "
        << V.D->ClassReason << "\n";
    for (const auto &[A, B] : K.AliasOk)
      O << "  when " << Names[A] << " == " << Names[B]
        << " (called in place): proven as one buffer, idempotent if nothing else overlaps\n";
    auto Row = [&](const std::string &Label, const ParamInfo &P) {
      std::string Mode = std::string(P.Read.accessed() ? "R" : "") + (P.Write.accessed() ? "W" : "") +
                         (P.Atomic ? "A" : "");
      O << "  " << Label << "  " << (Mode.empty() ? "-" : Mode) << "\n";
      if (P.Read.accessed())
        O << "      read:  " << regionText(P.Read, Names) << "\n";
      if (P.Write.accessed())
        O << "      write: " << regionText(P.Write, Names) << "\n";
      if (P.RWDisjoint)
        O << "      reads and writes proven disjoint\n";
    };
    for (size_t I = 0; I < K.Params.size(); ++I) {
      const ParamInfo &P = K.Params[I];
      std::string Label = "#" + std::to_string(I) + " " + P.Name + " : " + scalarTypeName(P.Type);
      if (!P.IsPointer) {
        O << "  " << Label << "\n";
        continue;
      }
      Row(Label, P);
    }
    for (const ParamInfo &G : K.Globals)
      Row("global @" + G.Name, G);
    for (const ParamInfo &F : K.Fields)
      Row("field " + F.Name + " : ptr (in #" + std::to_string(F.FieldParam) + " at byte " +
              std::to_string(F.FieldOffset) + ")",
          F);
    if (K.UnknownRead.accessed())
      O << "  unknown memory read:  " << K.UnknownRead.Reason << "\n";
    if (K.UnknownWrite.accessed())
      O << "  unknown memory write: " << K.UnknownWrite.Reason << "\n";
    if (K.Preemption.Known)
      O << "  preempt: " << preemptionText(K.Preemption) << "\n";
    O << "\n";
  }
  return O.str();
}

std::string kernelJson(const KernelDescriptor &K, int Ind) {
  auto Names = K.paramNames();
  std::ostringstream O;
  O << pad(Ind) << "{\n";
  O << pad(Ind + 2) << "\"symbol\": \"" << jsonEscape(K.Symbol) << "\",\n";
  O << pad(Ind + 2) << "\"name\": \"" << jsonEscape(K.Name) << "\",\n";
  O << pad(Ind + 2) << "\"plain_name\": \"" << jsonEscape(K.PlainName) << "\",\n";
  O << pad(Ind + 2) << "\"target\": \"" << jsonEscape(K.Target) << "\",\n";
  O << pad(Ind + 2) << "\"class\": \"" << className(K.Class) << "\",\n";
  O << pad(Ind + 2) << "\"class_reason\": \"" << jsonEscape(K.ClassReason) << "\",\n";
  if (!K.Variants.empty()) {
    O << pad(Ind + 2) << "\"variants\": [";
    for (size_t I = 0; I < K.Variants.size(); ++I) {
      const KernelVariant &V = K.Variants[I];
      O << (I ? ",\n" : "\n") << pad(Ind + 4) << "{\"when\": \"" << jsonEscape(variantGuardText(K, V))
        << "\", \"class\": \"" << className(V.D->Class) << "\", \"class_reason\": \""
        << jsonEscape(V.D->ClassReason) << "\"}";
    }
    O << "\n" << pad(Ind + 2) << "],\n";
  }
  if (!K.AliasOk.empty()) {
    O << pad(Ind + 2) << "\"alias_ok\": [";
    for (size_t I = 0; I < K.AliasOk.size(); ++I)
      O << (I ? ", " : "") << "[" << K.AliasOk[I].first << ", " << K.AliasOk[I].second << "]";
    O << "],\n";
  }
  O << pad(Ind + 2) << "\"args\": [";
  for (size_t I = 0; I < K.Params.size(); ++I)
    O << (I ? ",\n" : "\n") << paramJson(K.Params[I], int(I), Names, false, Ind + 4);
  O << (K.Params.empty() ? "" : "\n" + pad(Ind + 2)) << "],\n";
  O << pad(Ind + 2) << "\"globals\": [";
  for (size_t I = 0; I < K.Globals.size(); ++I)
    O << (I ? ",\n" : "\n") << paramJson(K.Globals[I], int(I), Names, true, Ind + 4);
  O << (K.Globals.empty() ? "" : "\n" + pad(Ind + 2)) << "],\n";
  O << pad(Ind + 2) << "\"fields\": [";
  for (size_t I = 0; I < K.Fields.size(); ++I) {
    const ParamInfo &F = K.Fields[I];
    std::string J = paramJson(F, int(I), Names, true, Ind + 4);
    // {"symbol": name, ...} -> {"param": i, "offset": n, "name": ..., ...}
    J.replace(J.find("\"symbol\""), 8,
              "\"param\": " + std::to_string(F.FieldParam) + ", \"offset\": " +
                  std::to_string(F.FieldOffset) + ", \"name\"");
    O << (I ? ",\n" : "\n") << J;
  }
  O << (K.Fields.empty() ? "" : "\n" + pad(Ind + 2)) << "],\n";
  O << pad(Ind + 2) << "\"unknown_read\": " << regionJson(K.UnknownRead, Names) << ",\n";
  O << pad(Ind + 2) << "\"unknown_write\": " << regionJson(K.UnknownWrite, Names);
  if (K.Preemption.Known)
    O << ",\n" << pad(Ind + 2) << "\"preemption\": " << preemptionJson(K.Preemption);
  O << "\n" << pad(Ind) << "}";
  return O.str();
}

std::string instanceJson(const KernelDescriptor &K, const LaunchConfig &L,
                         const InstanceDecision &D, int Ind) {
  std::ostringstream O;
  O << "{\n";
  O << pad(Ind + 2) << "\"kernel\": \"" << jsonEscape(K.Symbol) << "\",\n";
  O << pad(Ind + 2) << "\"grid\": [" << L.Grid[0] << ", " << L.Grid[1] << ", " << L.Grid[2] << "],\n";
  O << pad(Ind + 2) << "\"block\": [" << L.Block[0] << ", " << L.Block[1] << ", " << L.Block[2]
    << "],\n";
  O << pad(Ind + 2) << "\"idempotent\": " << (D.Idempotent ? "true" : "false") << ",\n";
  O << pad(Ind + 2) << "\"reason\": \"" << jsonEscape(D.Reason) << "\",\n";
  O << pad(Ind + 2) << "\"args\": [";
  bool First = true;
  for (size_t I = 0; I < D.Params.size(); ++I) {
    const ConcreteAccess &A = D.Params[I];
    if (!K.Params[I].IsPointer)
      continue;
    O << (First ? "\n" : ",\n") << pad(Ind + 4) << "{\"index\": " << I << ", \"alloc\": ";
    First = false;
    if (A.Alloc)
      O << "{\"base\": " << A.Alloc->Base << ", \"size\": " << A.Alloc->Size << "}";
    else
      O << "null";
    O << ", \"read\": " << rangesJson(A.Read, A.ReadAnything)
      << ", \"write\": " << rangesJson(A.Write, A.WriteAnything);
    if (!A.Note.empty())
      O << ", \"note\": \"" << jsonEscape(A.Note) << "\"";
    O << "}";
  }
  O << (First ? "" : "\n" + pad(Ind + 2)) << "],\n";
  O << pad(Ind + 2) << "\"fields\": [";
  for (size_t F = 0; F < D.Fields.size() && F < K.Fields.size(); ++F) {
    const ConcreteAccess &A = D.Fields[F];
    O << (F ? ",\n" : "\n") << pad(Ind + 4) << "{\"param\": " << K.Fields[F].FieldParam
      << ", \"offset\": " << K.Fields[F].FieldOffset << ", \"alloc\": ";
    if (A.Alloc)
      O << "{\"base\": " << A.Alloc->Base << ", \"size\": " << A.Alloc->Size << "}";
    else
      O << "null";
    O << ", \"read\": " << rangesJson(A.Read, A.ReadAnything)
      << ", \"write\": " << rangesJson(A.Write, A.WriteAnything) << "}";
  }
  O << (D.Fields.empty() ? "" : "\n" + pad(Ind + 2)) << "],\n";
  O << pad(Ind + 2) << "\"conflict\": ";
  if (D.Clash)
    O << "{\"read_arg\": " << D.Clash->ReadIndex << ", \"write_arg\": " << D.Clash->WriteIndex
      << ", \"read_name\": \"" << jsonEscape(accessOwnerName(K, D.Clash->ReadIndex))
      << "\", \"write_name\": \"" << jsonEscape(accessOwnerName(K, D.Clash->WriteIndex))
      << "\", \"lo\": " << D.Clash->Range.Lo << ", \"hi\": " << D.Clash->Range.Hi << "}";
  else
    O << "null";
  O << "\n" << pad(Ind) << "}";
  return O.str();
}

std::string instanceText(const KernelDescriptor &K, const LaunchConfig &L,
                         const InstanceDecision &D) {
  std::ostringstream O;
  O << "instance " << K.Name << " grid=(" << L.Grid[0] << "," << L.Grid[1] << "," << L.Grid[2]
    << ") block=(" << L.Block[0] << "," << L.Block[1] << "," << L.Block[2] << ")\n";
  for (size_t I = 0; I < D.Params.size(); ++I) {
    const ConcreteAccess &A = D.Params[I];
    if (!K.Params[I].IsPointer || (A.Read.empty() && A.Write.empty() && !A.ReadAnything &&
                                   !A.WriteAnything))
      continue;
    O << "  #" << I << " " << K.Params[I].Name;
    auto Show = [&](const char *What, const std::vector<ByteRange> &V, bool Any) {
      if (Any) {
        O << "  " << What << " anything";
        return;
      }
      for (auto &R : V)
        O << "  " << What << " [" << hex(R.Lo) << ", " << hex(R.Hi) << ")";
    };
    Show("read", A.Read, A.ReadAnything);
    Show("write", A.Write, A.WriteAnything);
    if (!A.Note.empty())
      O << "  (" << A.Note << ")";
    O << "\n";
  }
  for (size_t F = 0; F < D.Fields.size() && F < K.Fields.size(); ++F) {
    const ConcreteAccess &A = D.Fields[F];
    if (A.Read.empty() && A.Write.empty() && !A.ReadAnything && !A.WriteAnything)
      continue;
    O << "  field " << K.Fields[F].Name;
    for (auto &R : A.Read)
      O << "  read [" << hex(R.Lo) << ", " << hex(R.Hi) << ")";
    for (auto &R : A.Write)
      O << "  write [" << hex(R.Lo) << ", " << hex(R.Hi) << ")";
    if (A.ReadAnything || A.WriteAnything)
      O << "  anything";
    if (!A.Note.empty())
      O << "  (" << A.Note << ")";
    O << "\n";
  }
  O << "  idempotent: " << (D.Idempotent ? "yes" : "no") << " -- " << D.Reason << "\n";
  if (D.Clash)
    O << "  conflict: bytes [" << hex(D.Clash->Range.Lo) << ", " << hex(D.Clash->Range.Hi) << ")\n";
  return O.str();
}

} // namespace gmem

// Per-launch evaluation of a kernel descriptor: concrete byte ranges and the
// instance idempotence decision. gmem-analyze's instance mode and the runtime
// both call this, so the two cannot disagree.
#pragma once

#include "gmem/compiler/KernelDescriptor.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gmem {

struct Allocation {
  uint64_t Base = 0;
  uint64_t Size = 0;
  uint64_t end() const { return Base + Size; }
};

/// Maps a device address to the allocation containing it (nullopt: unknown).
using AllocationLookup = std::function<std::optional<Allocation>(uint64_t Addr)>;
/// Maps a module global's symbol to its address range (nullopt: unknown; it
/// is then taken to be an object distinct from every argument allocation).
using GlobalLookup = std::function<std::optional<Allocation>(const std::string &Symbol)>;

struct LaunchConfig {
  int64_t Grid[3] = {1, 1, 1};
  int64_t Block[3] = {1, 1, 1};
  /// Raw bits of each parameter (pointers: the address; integers: the value
  /// zero- or sign-extended, only the low bits of the parameter's width count).
  std::vector<uint64_t> ArgBits;
  /// Raw bytes of by-value aggregate parameters, by index (empty for the
  /// others); struct fields and pointers held in structs are read from here.
  std::vector<std::vector<uint8_t>> ArgBytes;
};

struct ByteRange {
  uint64_t Lo = 0; ///< inclusive
  uint64_t Hi = 0; ///< exclusive
  bool overlaps(const ByteRange &O) const { return Lo < O.Hi && O.Lo < Hi; }
};

/// Concrete access set of one parameter (or global) at this launch.
struct ConcreteAccess {
  std::optional<Allocation> Alloc;
  std::vector<ByteRange> Read;
  std::vector<ByteRange> Write;
  bool ReadAnything = false;  ///< may read any global memory
  bool WriteAnything = false; ///< may write any global memory
  bool ReadExact = false;     ///< read region evaluated bounded, checks held
  bool WriteExact = false;
  std::string Note; ///< why a region was widened at this launch
};

constexpr int FieldOwnerBase = 1 << 20;

struct Conflict {
  /// Owner of an access: parameter index; FieldOwnerBase + field index;
  /// -(1 + global index); INT32_MIN for unknown memory.
  int ReadIndex = -1;
  int WriteIndex = -1;
  ByteRange Range;     ///< overlapping bytes (whole address space for "anything")
};

struct InstanceDecision {
  bool Idempotent = false;
  std::string Reason;
  std::vector<ConcreteAccess> Params;  ///< one per kernel parameter
  std::vector<ConcreteAccess> Globals; ///< one per descriptor global
  std::vector<ConcreteAccess> Fields;  ///< one per pointer field
  std::optional<Conflict> Clash;
};

/// Why a launch is idempotent (checkInstance, the launch path and
/// libgmemrt's records say the same): reads and writes at this launch are
/// apart, but for bytes the kernel rewrites in place to values a run again
/// keeps (in-place maps, a pair of parameters called in place).
inline constexpr const char *IdempotentLaunchReason =
    "no byte read at this launch is also written (other than in place, to a value a run again "
    "keeps)";

/// Signed value of a parameter's bits at its width (what Var::arg means).
int64_t argValue(ScalarType T, uint64_t Bits);

InstanceDecision checkInstance(const KernelDescriptor &K, const LaunchConfig &L,
                               const AllocationLookup &FindAlloc,
                               const GlobalLookup &FindGlobal = nullptr);

/// The pair of pointer parameters a launch may pass one address for
/// (KernelDescriptor::AliasOk): (a, b) when they are the launch's only two
/// accessed pointer parameters with one nonzero address, the pair is
/// listed, and Exact holds for both (their regions were not widened at
/// this launch); else (-1, -1). Accessed(i): parameter i is an accessed
/// pointer. checkInstance and the launch path (FlatEval.h) share it.
template <typename AccessedFn, typename ExactFn>
std::pair<int, int> launchAlias(const std::vector<std::pair<uint32_t, uint32_t>> &AliasOk,
                                size_t NumParams, const uint64_t *ArgBits, size_t NumArgs,
                                AccessedFn &&Accessed, ExactFn &&Exact) {
  const std::pair<int, int> None{-1, -1};
  if (AliasOk.empty())
    return None;
  const size_t N = NumParams < NumArgs ? NumParams : NumArgs;
  std::pair<int, int> Found = None;
  for (size_t I = 0; I < N; ++I) {
    if (!Accessed(I) || ArgBits[I] == 0)
      continue;
    for (size_t J = I + 1; J < N; ++J) {
      if (!Accessed(J) || ArgBits[J] != ArgBits[I])
        continue;
      if (Found.first >= 0)
        return None; // a second coincidence: the proof took it for apart
      Found = {int(I), int(J)};
    }
  }
  if (Found.first < 0 || !Exact(size_t(Found.first)) || !Exact(size_t(Found.second)))
    return None;
  for (const auto &[A, B] : AliasOk)
    if (int(A) == Found.first && int(B) == Found.second)
      return Found;
  return None;
}

/// Why a launch of a kernel whose class is non-idempotent is not idempotent
/// (checkInstance says no for every such launch).
std::string neverIdempotentReason(const KernelDescriptor &K);

/// Human-readable name of an index used in Conflict.
std::string accessOwnerName(const KernelDescriptor &K, int Index);

} // namespace gmem

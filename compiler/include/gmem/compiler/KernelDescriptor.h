// What the compiler knows about one kernel: per pointer parameter (and per
// module global it touches) the byte regions it may read and write, and the
// kernel's idempotence class. This is the in-memory form of the descriptor
// the pass embeds (see include/gmem/descriptor_abi.h for the binary form).
#pragma once

#include "gmem/compiler/LaunchGuard.h"
#include "gmem/compiler/SymExpr.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace gmem {

enum class IdempotenceClass : uint8_t {
  Idempotent = 0,    ///< no launch reads a location it also writes
  Conditional = 1,   ///< idempotent exactly when the launch's regions do not overlap
  NonIdempotent = 2, ///< launches read and write a same location (RMW, atomics)
  Unknown = 3,       ///< the analysis cannot tell; see the reason
};
const char *className(IdempotenceClass C);

/// `Value` must lie in [Min, Max] at a launch for the symbolic bounds that
/// rely on it to be exact (e.g. a 32-bit index that must not wrap). A launch
/// that fails a check gets the widened region instead.
struct RangeCheck {
  ExprRef Value;
  int64_t Min;
  int64_t Max;
  /// Implied by the launch assumptions a static class may rely on: the
  /// expression involves launch geometry only (fewer than 2^31 threads per
  /// dimension), or failing it means a signed 32/64-bit overflow or a
  /// division by zero in the kernel (UB). Other checks (unsigned or narrow
  /// wraps, truncations) describe launches a correct program may make.
  bool Assumed = false;
};

/// Appends C unless an identical check is there (then a semantic use of it
/// makes it semantic).
void addCheckOnce(std::vector<RangeCheck> &Checks, const RangeCheck &C);

/// Half-open byte range [Lo, Hi) relative to the parameter's pointer value.
struct SymRange {
  ExprRef Lo;
  ExprRef Hi;
};

enum class RegionKind : uint8_t {
  Empty = 0,      ///< never accessed
  Bounded = 1,    ///< union of Ranges, valid when every check holds
  Allocation = 2, ///< the whole allocation the pointer points into
  Anything = 3,   ///< any global memory (the target itself is unknown)
};
const char *regionKindName(RegionKind K);

struct AccessRegion {
  RegionKind Kind = RegionKind::Empty;
  std::vector<SymRange> Ranges;
  std::vector<RangeCheck> Checks;
  std::string Reason; ///< why widened, when Kind is Allocation or Anything

  bool accessed() const { return Kind != RegionKind::Empty; }
  /// Sound union: the result covers both.
  void unite(const AccessRegion &O);
  /// Widens to the whole allocation (keeps the first reason given).
  void widenToAllocation(const std::string &Why);
};

enum class ScalarType : uint8_t { Ptr, I8, I16, I32, I64, F16, F32, F64, Other };
const char *scalarTypeName(ScalarType T);
unsigned scalarTypeBits(ScalarType T);

/// One kernel parameter, or one module global (Index is then the position in
/// KernelDescriptor::Globals and Name is the symbol).
struct ParamInfo {
  std::string Name;
  ScalarType Type = ScalarType::Other;
  bool IsPointer = false;
  AccessRegion Read;
  AccessRegion Write;
  bool Atomic = false;
  /// Same-parameter read and write sets proven disjoint for every launch
  /// that passes DisjointChecks and whose regions evaluate bounded (the
  /// runtime checks this per launch; the static class only counts it when
  /// every check is Assumed).
  bool RWDisjoint = false;
  std::vector<RangeCheck> DisjointChecks;
  /// By-value aggregate parameters: their size in bytes (else 0).
  uint32_t ByteSize = 0;
  /// Pointer fields (KernelDescriptor::Fields): the by-value parameter that
  /// holds the pointer and its byte offset there; -1 otherwise.
  int FieldParam = -1;
  uint32_t FieldOffset = 0;
};

/// What the checkpoint pass made of a kernel, as a compiled module shows it
/// (its `__gmem_pre_info_` word, its clones and the pass's notes). Reports
/// only: not part of the encoded descriptor, which the runtime reads apart.
struct PreemptionSummary {
  bool Known = false;      ///< the module was built with the checkpoint pass
  bool Clone = false;      ///< a preemptible clone exists
  bool Persistent = false; ///< its forms loop over virtual CTAs
  bool InLoop = false;     ///< it has loop checkpoints (in-loop stops)
  unsigned LoopCheckpoints = 0;
  std::vector<std::string> Forms; ///< "full", "light", "alt", "free"
  /// Why there is no clone, no in-loop stop or no persistent form (the
  /// pass's own words); empty where nothing was held back.
  std::vector<std::string> Notes;
};

struct KernelDescriptor;

/// The kernel as it behaves at launches where every atom of When holds
/// (LaunchGuard.h): its class and regions with those conditions folded.
struct KernelVariant {
  std::vector<GuardAtom> When;
  std::shared_ptr<const KernelDescriptor> D; ///< same parameters; no variants of its own
};

struct KernelDescriptor {
  std::string Symbol;    ///< mangled name
  std::string Name;      ///< demangled
  std::string PlainName; ///< demangled, without return type and parameters
  std::string Target;    ///< "nvptx" or "amdgpu"
  IdempotenceClass Class = IdempotenceClass::Unknown;
  std::string ClassReason;
  std::vector<ParamInfo> Params;
  std::vector<ParamInfo> Globals;
  /// Pointers held in by-value aggregate parameters (struct/functor fields).
  std::vector<ParamInfo> Fields;
  /// Accesses whose target object is unknown (pointer loaded from memory...).
  AccessRegion UnknownRead;
  AccessRegion UnknownWrite;
  PreemptionSummary Preemption; ///< reports only (not encoded)
  /// Better descriptions for launches whose scalar arguments meet a guard,
  /// best class first (selectVariant picks per launch).
  std::vector<KernelVariant> Variants;
  /// Pointer parameters (a < b) that may hold the same address at a launch:
  /// every read and write through them was proven as if they were one
  /// object (`relu(x, x, n)`: an out-of-place kernel called in place). A
  /// launch uses a pair only where it is the one coincidence among the
  /// parameters (InstanceCheck.cpp).
  std::vector<std::pair<uint32_t, uint32_t>> AliasOk;

  std::vector<std::string> paramNames() const;
};

} // namespace gmem

// Launch guards: conditions on a kernel's scalar arguments that hold for a
// whole launch (every thread sees the same argument values), such as
// `beta == 0`, `accumulate != 0` or `bias == nullptr`.
//
// A kernel whose accesses depend on such a condition can be described more
// precisely for the launches where it holds: `y = a*x + b*y` reads y only
// when b != 0, so its launches with b == 0 write y without reading it (an
// idempotent launch), where the kernel as a whole is non-idempotent. The
// analysis describes those launches with a variant descriptor (the kernel
// analysed again with the condition folded to its value); the runtime picks,
// at each launch, the best variant whose guard holds (selectVariant).
//
// A guard atom is evaluated on the raw bits of one parameter exactly as the
// kernel's IR compares them: the parameter's value at its width, viewed at
// the comparison's width (truncated or extended), compared with a constant.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gmem {

struct KernelDescriptor;
enum class ScalarType : uint8_t;

/// The comparison, LLVM's predicates: integer (signed/unsigned) and
/// floating point (ordered / unordered).
enum class GuardPred : uint8_t {
  Eq, Ne, Slt, Sle, Sgt, Sge, Ult, Ule, Ugt, Uge,
  FOeq, FOne, FOlt, FOle, FOgt, FOge, FOrd, FUno, FUeq, FUne, FUlt, FUle, FUgt, FUge,
  Last = FUge
};

/// How the parameter's value becomes the compared value.
enum class GuardView : uint8_t {
  Same,  ///< compared at the parameter's own width
  Trunc, ///< its low Bits bits
  ZExt,  ///< zero-extended to Bits
  SExt,  ///< sign-extended to Bits
  Bool,  ///< an i1 parameter passed as a byte: holds only for bytes 0 and 1
  Mask,  ///< the parameter's bits and Mask, at its own width (`flags & 4`)
  Last = Mask
};

struct GuardAtom {
  uint32_t Param = 0;  ///< parameter position
  uint8_t Bits = 0;    ///< width of the comparison (floats: 32 or 64)
  GuardView How = GuardView::Same;
  GuardPred Pred = GuardPred::Eq;
  uint64_t Const = 0;  ///< the constant's bits at that width (floats: IEEE)
  uint64_t Mask = 0;   ///< GuardView::Mask only

  bool operator==(const GuardAtom &O) const {
    return Param == O.Param && Bits == O.Bits && How == O.How && Pred == O.Pred &&
           Const == O.Const && Mask == O.Mask;
  }
};

bool isFloatPred(GuardPred P);
/// The predicate that holds exactly when P does not (NaN-aware).
GuardPred inversePred(GuardPred P);

/// Whether the atom is well-formed for a parameter of type T.
bool guardAtomValid(const GuardAtom &G, ScalarType T);

/// Whether the atom holds for a parameter of type T whose raw bits are
/// ParamBits (low bits of the parameter's width count). False where the
/// atom is malformed for T, or for a Bool view of a byte other than 0 / 1.
bool guardHolds(const GuardAtom &G, ScalarType T, uint64_t ParamBits);

/// "b == 0", "accumulate != 0", "bias == null", "(i8)k < 3", "n > 7 (unsigned)".
std::string guardText(const KernelDescriptor &K, const GuardAtom &G);

/// The descriptor to use for a launch with these argument bits: the
/// variant of K with the best class whose every guard atom holds (the first
/// of equals; a variant as good as K is preferred to K), else K itself. ArgBits has one entry per parameter (fewer:
/// guards on missing parameters do not hold).
const KernelDescriptor &selectVariant(const KernelDescriptor &K, const uint64_t *ArgBits,
                                      size_t NumArgs);

} // namespace gmem

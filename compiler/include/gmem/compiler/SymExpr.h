// Symbolic integer expressions over launch parameters.
//
// A region bound such as `4 * min(n, gridDim.x * blockDim.x)` is a SymExpr.
// Expressions are immutable trees shared through ExprRef; the builders below
// fold constants and put sums and products into a canonical order so that two
// bounds that differ only by a constant can be recognised (stencil reads
// a[i-1], a[i], a[i+1] merge into one range).
//
// Values are mathematical integers evaluated in int64 with overflow
// detection: an overflowing evaluation yields "no value" and the caller must
// widen the region. Nothing here depends on LLVM: the runtime links it too.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gmem {

/// What a variable stands for. Launch dimensions are always >= 1.
enum class VarKind : uint8_t {
  GridDim = 0,  ///< gridDim.{x,y,z}  (number of blocks)
  BlockDim = 1, ///< blockDim.{x,y,z} (threads per block)
  Arg = 2,      ///< value of scalar kernel parameter N (signed value of its width)
  ArgField = 3, ///< integer field of a by-value aggregate parameter (struct, functor)
};

/// Variable identity, packed into 32 bits: kind in the top byte, then the
/// dimension (0..2) or the parameter index.
struct Var {
  VarKind Kind;
  uint32_t Index; ///< dimension for Grid/BlockDim, parameter index for Arg

  static Var gridDim(unsigned D) { return {VarKind::GridDim, D}; }
  static Var blockDim(unsigned D) { return {VarKind::BlockDim, D}; }
  static Var arg(unsigned I) { return {VarKind::Arg, I}; }
  /// Field of Bytes (1, 2, 4, 8) bytes at byte Offset (< 16384) of by-value
  /// parameter Param (< 256), read little-endian and sign-extended.
  static Var argField(unsigned Param, unsigned Offset, unsigned Bytes) {
    unsigned Log = Bytes == 8 ? 3 : Bytes == 4 ? 2 : Bytes == 2 ? 1 : 0;
    return {VarKind::ArgField, (Param & 0xff) << 16 | Log << 14 | (Offset & 0x3fff)};
  }
  unsigned fieldParam() const { return Index >> 16 & 0xff; }
  unsigned fieldOffset() const { return Index & 0x3fff; }
  unsigned fieldBytes() const { return 1u << (Index >> 14 & 3); }
  uint32_t pack() const { return (uint32_t(Kind) << 24) | (Index & 0xffffff); }
  static Var unpack(uint32_t P) { return {VarKind(P >> 24), P & 0xffffff}; }
  bool operator==(const Var &O) const { return Kind == O.Kind && Index == O.Index; }
};

enum class ExprOp : uint8_t {
  Const = 0,
  Var = 1,
  Add = 2,  ///< n-ary sum
  Mul = 3,  ///< n-ary product
  SMin = 4, ///< n-ary signed minimum
  SMax = 5, ///< n-ary signed maximum
  UDiv = 6, ///< a / b, both operands required non-negative (else no value)
  SDiv = 7, ///< a / b truncating toward zero (C semantics)
};

class Expr;
using ExprRef = std::shared_ptr<const Expr>;

class Expr {
public:
  ExprOp op() const { return Op; }
  int64_t constant() const { return Value; }
  Var var() const { return Var::unpack(uint32_t(Value)); }
  const std::vector<ExprRef> &operands() const { return Ops; }
  bool isConst() const { return Op == ExprOp::Const; }
  bool isConst(int64_t V) const { return Op == ExprOp::Const && Value == V; }

  /// Canonical text, also used as the structural identity of the node.
  const std::string &str() const { return Text; }

  // Builders. All of them simplify.
  static ExprRef constant(int64_t V);
  static ExprRef variable(Var V);
  static ExprRef add(std::vector<ExprRef> Ops);
  static ExprRef add(ExprRef A, ExprRef B) { return add({std::move(A), std::move(B)}); }
  static ExprRef sub(ExprRef A, ExprRef B);
  static ExprRef mul(std::vector<ExprRef> Ops);
  static ExprRef mul(ExprRef A, ExprRef B) { return mul({std::move(A), std::move(B)}); }
  static ExprRef smin(std::vector<ExprRef> Ops);
  static ExprRef smin(ExprRef A, ExprRef B) { return smin({std::move(A), std::move(B)}); }
  static ExprRef smax(std::vector<ExprRef> Ops);
  static ExprRef smax(ExprRef A, ExprRef B) { return smax({std::move(A), std::move(B)}); }
  static ExprRef udiv(ExprRef A, ExprRef B);
  static ExprRef sdiv(ExprRef A, ExprRef B);

  /// Builds a node without simplification (used by the decoder, which must
  /// reproduce exactly what was encoded).
  static ExprRef raw(ExprOp Op, int64_t Value, std::vector<ExprRef> Ops);

  Expr(ExprOp Op, int64_t Value, std::vector<ExprRef> Ops);

private:
  ExprOp Op;
  int64_t Value = 0; ///< constant, or packed Var
  std::vector<ExprRef> Ops;
  std::string Text;
};

/// Structural equality (canonical text).
bool sameExpr(const ExprRef &A, const ExprRef &B);

/// If A - B simplifies to a constant, returns it.
std::optional<int64_t> constantDifference(const ExprRef &A, const ExprRef &B);

/// True when the expression is provably >= 0 for every launch (launch
/// dimensions are >= 1; scalar arguments have unknown sign).
bool isKnownNonNegative(const ExprRef &E);
/// True when the expression is provably >= 1 for every launch.
bool isKnownPositive(const ExprRef &E);

/// Values of the variables for one launch.
struct LaunchValues {
  int64_t Grid[3] = {1, 1, 1};
  int64_t Block[3] = {1, 1, 1};
  std::vector<int64_t> Args; ///< scalar parameter values (signed, by index)
  /// Raw bytes of by-value aggregate parameters (by index; may be empty).
  const std::vector<std::vector<uint8_t>> *ArgBytes = nullptr;
};

/// Reads an N-byte little-endian signed integer at Offset of parameter
/// Param's bytes; nullopt when those bytes are not available.
std::optional<int64_t> readArgField(const LaunchValues &L, unsigned Param, unsigned Offset,
                                    unsigned Bytes);

/// Evaluates in int64; std::nullopt on overflow, division by zero, a
/// negative operand of UDiv, or a variable with no value.
std::optional<int64_t> evaluate(const Expr &E, const LaunchValues &L);

/// Renders with parameter names (argument N becomes Names[N] when given).
std::string render(const ExprRef &E, const std::vector<std::string> &ArgNames = {});

} // namespace gmem

//===- SymbolicRange.h - Symbolic bounds of SCEV expressions ----*- C++ -*-===//
//
// Bounds a SCEV expression (an index or byte offset) over every thread of
// every launch, as SymExprs over gridDim, blockDim and scalar parameters.
//
// Soundness model: SCEV add/mul are ring operations modulo 2^N, so the
// mathematical value of an add/mul tree is congruent to the machine value.
// Wherever the meaning depends on the interpretation (sign/zero extension,
// unsigned division, min/max, comparisons used as guards) the computed
// mathematical interval must lie inside the type's range; that requirement is
// recorded as a RangeCheck that the runtime evaluates per launch. A launch
// failing a check gets the whole allocation instead. So the bounds are exact
// integer facts for every launch that passes its checks.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_PASSES_SYMBOLICRANGE_H
#define GMEM_PASSES_SYMBOLICRANGE_H

#include "gmem/compiler/KernelDescriptor.h"
#include "gmem/passes/AccessCollector.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstrTypes.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gmem {

/// A branch condition known to hold at a program point: `LHS Pred RHS`.
struct GuardFact {
  const llvm::SCEV *LHS;
  llvm::CmpInst::Predicate Pred;
  const llvm::SCEV *RHS;
};

/// Inclusive bounds; a null side is unbounded.
struct Bounds {
  ExprRef Lo;
  ExprRef Hi;
  bool bounded() const { return Lo && Hi; }
};

class SymbolicRange {
public:
  SymbolicRange(llvm::Function &F, llvm::ScalarEvolution &SE, llvm::DominatorTree &DT,
                llvm::LoopInfo &LI);

  /// The byte region one access covers, relative to its object.
  AccessRegion regionOf(const MemAccess &A);

  /// Inclusive bounds of S at instruction At. Requirements are appended to
  /// Checks; the first reason for an unbounded side goes to Why.
  Bounds bounds(const llvm::SCEV *S, const llvm::Instruction *At, std::vector<RangeCheck> &Checks,
                std::string &Why);

  /// Conditions that hold whenever At executes (dominating branches).
  const std::vector<GuardFact> &guardsAt(const llvm::Instruction *At);
  /// The facts `Cond == Holds` gives (comparisons, through logical and/or
  /// and not), both orientations of each comparison.
  void conditionFacts(llvm::Value *Cond, bool Holds, std::vector<GuardFact> &Out,
                      unsigned Depth = 0);
  /// Bounds on x from `(x & M) == K` (P the comparison as it holds).
  void maskedEqualityFacts(const llvm::ICmpInst *Cmp, llvm::CmpInst::Predicate P,
                           std::vector<GuardFact> &Out);
  /// `(x | y) <u C` (or `<=u`): InstCombine's form of `x < C && y < C` for
  /// a power of two C. x|y is at least x and at least y (unsigned), so each
  /// operand of the `or` holds the same bound.
  void orOperandFacts(const llvm::ICmpInst *Cmp, llvm::CmpInst::Predicate P,
                      std::vector<GuardFact> &Out);

  /// A part of a sum that is Scale * Ext(Guarded) + Offset for a guarded
  /// Guarded, as SCEV flattened it (`c` in `r*N + c`; sext(b*d + t)
  /// distributed into sext(b*d) + sext(t) over an nsw sum; 8*(y) distributed
  /// by a constant; -x - y of a guarded x + y in a trip count m - 2 - x - y,
  /// whose constant is not the guard's: Offset takes the difference).
  struct GuardedPart {
    llvm::SmallVector<const llvm::SCEV *, 4> Ops; ///< operands of the sum it covers
    const llvm::SCEV *Guarded;                    ///< the expression a guard bounds
    int Ext;                                      ///< 0 none, 1 sign-, 2 zero-extended
    int64_t Scale;
    int64_t Offset = 0;
  };
  std::vector<GuardedPart> guardedSubSums(const llvm::SCEV *S, const llvm::Instruction *At);

  /// Guarded recurrences of AR's loop ({x,+,s} for {x+y,+,s}); with
  /// SameStep only those whose step equals AR's.
  std::vector<const llvm::SCEVAddRecExpr *> guardedRecurrences(const llvm::SCEVAddRecExpr *AR,
                                                               const llvm::Instruction *At,
                                                               bool SameStep = true);

  /// Exact expression of a launch-invariant SCEV (parameters, dims), if any.
  ExprRef invariantExpr(const llvm::SCEV *S);

  llvm::ScalarEvolution &scev() { return SE; }
  /// Widths of the integer parameters (for staticallyWithin).
  const std::vector<unsigned> &argBits() const { return ArgBits; }
  llvm::LoopInfo &loops() { return LI; }

private:
  struct Ctx {
    const llvm::Instruction *At;
    std::vector<RangeCheck> &Checks;
    std::string &Why;
    unsigned Depth;
  };
  Bounds walk(const llvm::SCEV *S, Ctx &C);
  Bounds natural(const llvm::SCEV *S, Ctx &C);
  Bounds unknown(const llvm::SCEVUnknown *U, Ctx &C);
  /// `x >> k`, `x / d`, `x % d` on signed values (ashr, sdiv, srem), which
  /// SCEV leaves opaque: from x's bounds as a signed machine value and a
  /// divisor that is a positive constant or checked to be >= 1 at launch.
  std::optional<Bounds> signedDivision(const llvm::BinaryOperator *BO, Ctx &C);
  /// `x % m` on unsigned values with m not a constant power of two, which
  /// SCEV writes x - (x /u m) * m (the terms of x flattened into the sum):
  /// [0, min(x, m - 1)], m checked to be >= 1 (division by zero is UB).
  std::optional<Bounds> unsignedRemainder(const llvm::SCEVAddExpr *S, Ctx &C);
  /// `x % d` on signed values after LLVM's DivRemPairs wrote it
  /// x - (x / d) * d (the sdiv opaque to SCEV, the rest flattened into the
  /// sum S): signedDivision's remainder bounds (SymbolicRangeSums.cpp).
  std::optional<Bounds> signedRemainder(const llvm::SCEVAddExpr *S, Ctx &C);
  /// Bounds of a signed divisor: a positive constant, or checked >= 1 at
  /// launch; nullopt where unbounded or a constant below 1.
  std::optional<Bounds> signedDivisor(const llvm::Value *V, Ctx &C);
  /// Fr's operand is poison only where a no-wrap or exact flag was broken
  /// (signed overflow, which C leaves undefined and the analysis already
  /// takes SCEV's flags for), so Fr is its operand (SymbolicRangeSums.cpp).
  bool poisonOnlyByFlags(const llvm::FreezeInst *Fr) const;
  /// SCEV's own range of S's machine value read as signed (known bits of
  /// shifts and masks, `!range` metadata), where it is not the full set
  /// (nor, unless WholeWords, a whole 32-bit type).
  std::optional<Bounds> machineRange(const llvm::SCEV *S, bool WholeWords = false);
  /// Bounds of AR over its loop. *ByTest (if given) says whether the
  /// latch's test bounded it rather than a trip count.
  Bounds addRec(const llvm::SCEVAddRecExpr *AR, Ctx &C, bool *ByTest = nullptr);
  /// addRec by the trip count, the latch's order test or the latch's
  /// recurrence (without equalityExit).
  Bounds addRecByCount(const llvm::SCEVAddRecExpr *AR, Ctx &C, bool *ByTest);
  /// AR as c * X + d of the recurrence X its loop's latch tests (addRec's
  /// fallback when neither AR's trip count nor its own latch test bounds it).
  Bounds viaLatchRecurrence(const llvm::SCEVAddRecExpr *AR, Ctx &C);
  /// Two ways to bound one value, each worked out on the side. A bound with
  /// a check that may fail at a correct launch (not statically true, and
  /// not assumed, or assumed as geometry only) widens that launch's region
  /// to the whole allocation, so the one with more such checks is dropped,
  /// First on a tie (Second, the latch's own bound, is the exact one);
  /// where neither has any, the result is their intersection under both
  /// sets of checks. Second must bound both sides or is not used.
  Bounds eitherOrBoth(llvm::function_ref<Bounds(Ctx &)> First,
                      llvm::function_ref<Bounds(Ctx &)> Second, Ctx &C, bool *UsedSecond);
  /// Bounds of AR over every iteration of a loop that leaves only where its
  /// latch finds `Y == B` (a recurrence Y of the loop, B invariant): the
  /// start, and AR's value at the exit, c * B + d for AR = c * Y + d.
  /// Unbounded where that does not apply (SymbolicRangeLoops.cpp).
  Bounds equalityExit(const llvm::SCEVAddRecExpr *AR, Ctx &C);
  /// AR through the recurrences of its loop that guardedRecurrences finds
  /// (AR = F * G + D): the tightest; a null side where none bounds it.
  Bounds splitRecurrence(const llvm::SCEVAddRecExpr *AR, Ctx &C);
  /// Bounds of AR's machine value read as signed (Signed) or unsigned, for
  /// AR = c * Y + d of a recurrence Y whose next value (or its extension)
  /// the loop's latch compares with an invariant bound: every value Y takes
  /// after the first passed that test (SymbolicRangeLatch.cpp). inType's
  /// fallback where AR's own bounds are open.
  std::optional<Bounds> latchReading(const llvm::SCEVAddRecExpr *AR, bool Signed, Ctx &C);
  /// What `Ext(Y) P B` (Ext: 0 none, 1 sext, 2 zext) says of Y's Bits-bit
  /// machine value: bounds of its signed (Signed) or unsigned reading.
  struct TestFact {
    Bounds B;
    bool Signed;
  };
  std::optional<TestFact> testFact(int Ext, llvm::CmpInst::Predicate P, const llvm::SCEV *Bound,
                                   unsigned Bits, Ctx &C);
  /// The reading of a value that starts at Start, moves by Step (null:
  /// unknown) and goes on only while `Ext(its next value) P Bound`: the
  /// test's bounds after the first iteration, the start's (or a guard's on
  /// it) at the first.
  std::optional<TestFact> testedRecurrence(const llvm::SCEV *Start, const llvm::SCEV *Step, int Ext,
                                           llvm::CmpInst::Predicate P, const llvm::SCEV *Bound,
                                           Ctx &C);
  /// A loop header phi whose value from the latch is what the latch tests.
  std::optional<Bounds> latchPhi(const llvm::PHINode *Phi, Ctx &C);
  /// AR = F * ext(R) for a narrower recurrence R that SCEV folded the
  /// extension into: F times R's splitRecurrence bounds, checked to lie in
  /// R's type; unbounded where there is no such R.
  Bounds narrowRecurrence(const llvm::SCEVAddRecExpr *AR, Ctx &C);
  /// Takes x and -1 * zext(trunc x) out of the sum S's operands Rest (x
  /// may differ by a constant) and adds their bounds to Acc, where x >= 0
  /// (SymbolicRangeSums.cpp). False when Rest has no such pair.
  bool takeRoundedDown(const llvm::SCEV *S, llvm::SmallVectorImpl<const llvm::SCEV *> &Rest,
                       Bounds &Acc, Ctx &C);
  /// `x & y`, `x | y`, `x ^ y` of non-negative operands (checked >= 0 at
  /// launch where not static), which SCEV leaves opaque
  /// (SymbolicRangeBits.cpp); nullopt otherwise.
  std::optional<Bounds> bitwiseBounds(const llvm::BinaryOperator *BO, Ctx &C);
  /// A float converted to int (fptosi, the NVVM f2i/d2i intrinsics): from
  /// below 0 where the float is non-negative or NaN, from above max(U, 0)
  /// where floatAtMost finds U (SymbolicRangeFloat.cpp); nullopt where
  /// neither.
  std::optional<Bounds> floatToInt(const llvm::Value *V, Ctx &C);
  /// An integer expression U with float V <= U or V NaN, adding the
  /// launch checks that keep the conversions it rests on exact; null where
  /// none is found (SymbolicRangeFloat.cpp).
  ExprRef floatAtMost(const llvm::Value *V, Ctx &C, unsigned Depth);
  /// Whether float V is NaN or >= 0 (-0.0 only where not Strict), adding
  /// the launch checks the proof needs. Open: phis assumed while their
  /// incoming values are proved.
  bool floatNonNegative(const llvm::Value *V, bool Strict, Ctx &C, unsigned Depth,
                        llvm::SmallPtrSetImpl<const llvm::Value *> &Open);
  /// How AR = F * ext(R) extends its narrow recurrence R.
  struct NarrowForm {
    int64_t F = 1;
    bool Signed = false;
    unsigned Bits = 0;
  };
  /// R for AR = F * ext(R) (narrowRecurrence's conditions), or null.
  const llvm::SCEVAddRecExpr *narrowInner(const llvm::SCEVAddRecExpr *AR, NarrowForm &Form);
  /// R for AR = F * ext(R) + D with R (or its previous value) a narrow
  /// recurrence the latch compares, D constant (SCEV pushes an extension
  /// into a min or a sum, so AR's start need not be an extension), or null.
  const llvm::SCEVAddRecExpr *narrowLatchInner(const llvm::SCEVAddRecExpr *AR, NarrowForm &Form,
                                               const llvm::SCEV *&D);
  /// F times R's bounds where R's latch test (an order or an equality)
  /// bounds it, checked to lie in R's type; its checks are added only
  /// where it bounds AR.
  Bounds narrowLatchBounds(const llvm::SCEVAddRecExpr *AR, Ctx &C);
  /// S takes one value per launch: constants, integer parameters and their
  /// fields, gridDim and blockDim only.
  bool launchInvariant(const llvm::SCEV *S) const;
  Bounds applyGuards(const llvm::SCEV *S, Bounds B, Ctx &C);
  /// What a dominating fact G about S says of S's mathematical value (a
  /// side it does not bound is null), given S's bounds B for the checks
  /// that make the fact, which speaks of the machine value, apply to it
  /// (S's wrap flags spare them unless !TrustWrapFlags); nullopt where it
  /// cannot.
  std::optional<Bounds> factBounds(const llvm::SCEV *S, const Bounds &B, const GuardFact &G,
                                   Ctx &C, bool TrustWrapFlags = true);
  /// A fact L < R (or <=, signed or unsigned) carried over to S = L + X
  /// where R + X is launch-invariant: the upper bound it gives S, or
  /// nullopt.
  std::optional<Bounds> transferredFact(const llvm::SCEV *S, const GuardFact &G, Ctx &C);
  /// Bounds of S whose math value must equal its machine value read as
  /// signed (or unsigned) N-bit: adds the checks saying so.
  Bounds inType(const llvm::SCEV *S, bool Signed, Ctx &C);
  /// The checks that B lies in the N-bit type. Assumed (not checked for
  /// the static class) only where a wrap would be C's signed overflow:
  /// WrapIsUB says the value is computed by signed arithmetic (wrapIsUB).
  void requireInType(const Bounds &B, unsigned Bits, bool Signed, Ctx &C, bool WrapIsUB);
  /// Whether S's value leaving its signed type is UB in the kernel: every
  /// instruction of F whose SCEV is S is an add, sub, mul or shl with nsw
  /// (or a loop header phi whose value from the latch is one), and there is
  /// one. A wrap of unsigned arithmetic read as signed, or of a truncation,
  /// is defined behaviour, and SCEV folds that build S anew leave it
  /// without an instruction: neither is assumed away.
  bool wrapIsUB(const llvm::SCEV *S);
  /// A * B: mulBounds, except under CheckFactorSigns, where a factor that
  /// is one launch value of unknown sign (a parameter, a product of them)
  /// is checked >= 0 at launch instead of taking min/max over both signs.
  Bounds productBounds(const Bounds &A, const Bounds &B, Ctx &C);
  /// Assumed: failing the check is UB in the kernel (see RangeCheck).
  void addCheck(Ctx &C, const ExprRef &E, int64_t Min, int64_t Max, bool Assumed);
  /// addCheck for each of Ks (checks worked out on the side, now relied on).
  void addChecks(Ctx &C, const std::vector<RangeCheck> &Ks) {
    for (const RangeCheck &K : Ks)
      addCheck(C, K.Value, K.Min, K.Max, K.Assumed);
  }

  llvm::Function &F;
  llvm::ScalarEvolution &SE;
  /// wrapIsUB's verdict per SCEV of an integer instruction (built once).
  llvm::DenseMap<const llvm::SCEV *, bool> NswComputed;
  bool NswScanned = false;
  llvm::DominatorTree &DT;
  llvm::LoopInfo &LI;
  std::vector<unsigned> ArgBits;
  llvm::DenseMap<const llvm::BasicBlock *, std::vector<GuardFact>> GuardCache;
  /// Facts of the select conditions whose arms are being walked (a clamp
  /// `t < v ? t : v - 1`): applyGuards uses them too, and no walk under them
  /// is memoised (they hold only inside the arm).
  std::vector<GuardFact> SelectFacts;
  /// productBounds checks factor signs (regionOf's second try for an access
  /// whose bounds were too large with every sign kept open).
  bool CheckFactorSigns = false;
  /// applyGuards also reads guards on K * S + D (`i + 3 < n`). Each such
  /// fact adds a min or max to S's bounds; where that takes an access past
  /// the per-launch size limit, regionOf does without them.
  bool OffsetFacts = true;
  /// Which size budget an access region must fit (range_support's
  /// MaxRegionNodes): tree nodes, or (regionOf's last tries, where nothing
  /// fitted that) distinct nodes, which is what the launch path evaluates.
  bool DistinctBudget = false;
  /// regionOf's tries for one setting of OffsetFacts.
  AccessRegion regionWithFacts(const MemAccess &A);
  /// regionWithFacts(A) with Flag set to Value for the time of it, on a
  /// memo of its own.
  AccessRegion retryWith(bool &Flag, bool Value, const MemAccess &A);

  /// Bounds of a SCEV at a block, with every check the computation relied
  /// on (replayed on reuse, so a cached bound never loses a condition).
  struct MemoEntry {
    Bounds B;
    std::vector<RangeCheck> Checks;
    std::string Why;
  };
  std::map<std::pair<const llvm::SCEV *, const llvm::BasicBlock *>, MemoEntry> Memo;
  /// Check lists of the walks in progress: addCheck records into each.
  std::vector<std::vector<RangeCheck> *> Recording;
  /// While alive, checks go only to the Ctx they are added to, not to the
  /// memo entries being recorded (work on the side whose checks are
  /// replayed, with addChecks, only where its result is used).
  struct RecordingPaused {
    std::vector<std::vector<RangeCheck> *> &Live, Saved;
    explicit RecordingPaused(std::vector<std::vector<RangeCheck> *> &R) : Live(R) {
      std::swap(Saved, Live);
    }
    ~RecordingPaused() { std::swap(Saved, Live); }
    RecordingPaused(const RecordingPaused &) = delete;
    RecordingPaused &operator=(const RecordingPaused &) = delete;
  };
  /// A proof worked out on the side, which may fail: run it with aside()
  /// on Sub, and its checks stay in Checks until addChecks relies on them.
  struct SideProof {
    std::vector<RangeCheck> Checks;
    std::string Why;
    Ctx Sub;
    SideProof(const llvm::Instruction *At, unsigned Depth) : Sub{At, Checks, Why, Depth} {}
    SideProof(const SideProof &) = delete;
    SideProof &operator=(const SideProof &) = delete;
  };
  /// Fn() with checks going only to the Ctx they are added to.
  template <typename F> auto aside(F &&Fn) {
    RecordingPaused Pause(Recording);
    return Fn();
  }
};

/// Removes Part's operands from Ops (as a multiset); false if not all there.
bool removeOperands(llvm::SmallVectorImpl<const llvm::SCEV *> &Ops,
                    llvm::ArrayRef<const llvm::SCEV *> Part);

/// Static bounds of an expression from the limits of its variables
/// (gridDim <= 2^31-1, blockDim <= 1024, parameters within their width).
bool staticallyWithin(const ExprRef &E, int64_t Min, int64_t Max,
                      const std::vector<unsigned> &ArgBits);

} // namespace gmem

#endif

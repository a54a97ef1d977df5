//===- CheckpointInserter.h - Preemptible kernel clones ---------*- C++ -*-===//
//
// Makes every kernel of a GPU module preemptible without changing it: the
// kernel stays as it is, and a clone
//
//   __gmem_pre_<mangled>(<kernel's parameters>..., gmem_ctl addrspace(1) *ctl,
//                        u32 grid_x, u32 grid_y, u32 grid_z)
//
// is added, with checkpoints that read the per-launch control block
//
//   struct gmem_ctl { uint32_t request; uint32_t reserved; uint32_t done[]; };
//
// (docs/PREEMPTION_DESIGN.md). request 0 runs, 1 stops CTAs at entry, 2 also
// stops them at loop checkpoints. A CTA that runs to its end without any of
// its threads leaving through a loop checkpoint sets its bit in done[]; a CTA
// whose bit is set returns at entry, so relaunching the clone with the same
// grid, block and control block runs exactly the CTAs that did not finish.
// Where it is safe (NVPTX) the clone is instead persistent: a loop over the
// user's grid (the three trailing parameters) run by however many CTAs the
// runtime launches, with a ticket counter and per-CTA redo words in place of
// the done bitmap (ABI version 2 in docs/PREEMPTION_DESIGN.md).
//
// Next to each clone, a small global `__gmem_pre_info_<mangled>` (see
// CheckpointInfo) tells the runtime what the clone does.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_PASSES_CHECKPOINTINSERTER_H
#define GMEM_PASSES_CHECKPOINTINSERTER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"

#include <cstdint>
#include <string>

namespace gmem {

/// Name prefixes of what the pass adds.
inline constexpr const char *CheckpointClonePrefix = "__gmem_pre_";
inline constexpr const char *CheckpointInfoPrefix = "__gmem_pre_info_";
/// The light twin of a persistent clone (flag HasLight).
inline constexpr const char *CheckpointLightPrefix = "__gmem_prl_";
/// The alternate form of a persistent clone with loop checkpoints (flag
/// HasAlt): its loop state in shared memory instead of registers.
inline constexpr const char *CheckpointAltPrefix = "__gmem_pra_";
/// The free form of a persistent clone (flag HasFree): every thread loops
/// over the virtual CTAs and stops on its own; idempotent launches only.
inline constexpr const char *CheckpointFreePrefix = "__gmem_prf_";

/// Named metadata of {kernel symbol, note} pairs: why a kernel got no clone,
/// no loop checkpoints or no persistent form (reports read it from bitcode).
inline constexpr const char *PreemptionNotesMD = "gmem.preemption.notes";

/// Whether Name is a function of the pass's own: a clone of any form.
inline bool isCheckpointCloneName(llvm::StringRef Name) {
  for (const char *Prefix :
       {CheckpointClonePrefix, CheckpointLightPrefix, CheckpointAltPrefix, CheckpointFreePrefix})
    if (Name.starts_with(Prefix))
      return true;
  return false;
}

std::string checkpointCloneSymbol(llvm::StringRef KernelSymbol);
std::string checkpointLightSymbol(llvm::StringRef KernelSymbol);
std::string checkpointAltSymbol(llvm::StringRef KernelSymbol);
std::string checkpointFreeSymbol(llvm::StringRef KernelSymbol);
std::string checkpointInfoSymbol(llvm::StringRef KernelSymbol);

/// Layout of `__gmem_pre_info_<mangled>` (five little-endian uint32).
struct CheckpointInfo {
  static constexpr uint32_t Magic = 0x31504d47; // "GMP1"
  static constexpr uint32_t Version = 2;
  enum Flag : uint32_t {
    HasLoopCheckpoints = 1u << 0,
    /// Entry checkpoints only (or, with NoClone, none): grid-wide or cluster
    /// synchronisation, or a construct the pass cannot see through.
    EntryOnly = 1u << 1,
    UsesBarriers = 1u << 2,
    /// No clone was emitted (grid sync, cluster sync, `exit` in inline asm,
    /// a loop waiting for another CTA's write, parameters or static shared
    /// memory at their limit):
    /// the runtime launches the kernel itself, not preemptible.
    NoClone = 1u << 3,
    /// The clone loops over virtual CTAs: launched with (P,1,1) CTAs, it
    /// takes tickets from the control block (docs/PREEMPTION_DESIGN.md,
    /// "ABI version 2").
    Persistent = 1u << 4,
    /// A light twin `__gmem_prl_<mangled>` exists: the same persistent clone
    /// (parameters, control block, protocol) without loop checkpoints, with
    /// the late read at the end of a long virtual CTA. It stops only between
    /// virtual CTAs and runs at nearly the kernel's own speed; the runtime
    /// uses it for launches whose CTAs are short, and by timing for those
    /// that stop only between virtual CTAs anyway (not proved idempotent, or
    /// a kernel without loop checkpoints, where it is the main clone plus
    /// the late read).
    HasLight = 1u << 5,
    /// An alternate full clone `__gmem_pra_<mangled>` exists: the same
    /// parameters, protocol and loop checkpoints as `__gmem_pre_`, but the
    /// persistent loop's own state (ticket, coordinates, steps) lives in a
    /// shared-memory array instead of registers. Fewer registers, another
    /// occupancy and another P; which form runs faster depends on the kernel
    /// (ptxas's choices for its loops), so the runtime times both per launch
    /// shape and keeps the faster. With loop checkpoints: only with
    /// HasLight; without: for a balanced tail alone (BalancedTail).
    HasAlt = 1u << 6,
    /// A free clone `__gmem_prf_<mangled>` exists: the same parameters,
    /// control block words and loop checkpoints as `__gmem_pre_`, but no
    /// barrier per virtual CTA: every thread loops over the virtual CTAs on
    /// its own, stops on its own (request != 0 through the CTA's request
    /// cache) and folds the first virtual CTA it has not finished into its
    /// CTA's resume word (atomic min). A relaunch restarts the whole CTA
    /// there, so virtual CTAs some threads finished run again: the runtime
    /// may launch it only for launches proved idempotent. Emitted for
    /// kernels without barriers, warp collectives, shared memory or inline
    /// asm, with or without loop checkpoints.
    HasFree = 1u << 7,
    /// Every persistent form of the kernel reads only the low 16 bits of
    /// its grid_z parameter; the high 16 bits are a check interval K (0 or
    /// 1: every virtual CTA). Forms that can skip their between-virtual-CTA
    /// check (the request read and the barrier that decides) do so for K - 1
    /// of every K virtual CTAs: the barrier-free form always, the others
    /// when the kernel has no shared memory, its loop checkpoints all join a
    /// barrier and the loop state is in registers. A stop then waits for up
    /// to K virtual CTAs; the runtime picks K from the shape's measured
    /// virtual CTA time. GMEM_CHECKPOINT_BATCH=0: not emitted.
    Batched = 1u << 8,
    /// The alternate form hands out the last share of the virtual CTAs
    /// (percent in bits 16..23, at least P from the start) to whichever
    /// persistent CTA asks first: one `atom.add` on control word 1 per
    /// virtual CTA there, by thread 0 at the start of the previous one,
    /// published through shared memory at the end-of-virtual-CTA barrier
    /// (static order leaves the CTAs of barrier-heavy kernels unevenly
    /// loaded). A stopped CTA keeps the ticket it claimed in its resume
    /// word. Only for kernels whose shared memory rules out Batched and that
    /// have barriers; such a kernel without loop checkpoints gets an
    /// alternate form for the tail alone. The runtime launches that form
    /// only where its timing finds it faster. GMEM_CHECKPOINT_TAIL=percent
    /// (default 25; 0: not emitted).
    BalancedTail = 1u << 9,
    /// The light twin hands out its tail too (the same share), chosen by
    /// the same timing.
    LightTail = 1u << 10,
    /// Every form is persistent only because the branches its warp
    /// collectives depend on are taken by whole warps, which holds where
    /// blockDim.x is a multiple of 32 (each warp then lies in one row of
    /// the block): a warp-uniform early return before a shuffle. For any
    /// other block shape a returned lane would keep its warp-mates waiting
    /// at the collective, so the runtime launches the kernel itself there
    /// (not preemptible). GMEM_CHECKPOINT_WARP_ALIGNED=0: such kernels get
    /// the version-1 clone instead.
    WarpAlignedBlock = 1u << 11,
    /// Every persistent form reads grid_z's low 16 bits only; bits 24..25
    /// are a segment scale s (0..3): strip-mined loop segments of the
    /// static K run K << s iterations, paced ones aim at 2^s times their
    /// target. Longer segments cost fewer checks and stop later; the runtime
    /// tries them per launch shape (0, today's segments, when it does not
    /// know the flag). With Batched too, the check interval is bits 16..23.
    /// Only kernels with such a segment, and only under
    /// GMEM_CHECKPOINT_SEG_SCALE=1 (off by default).
    SegmentScale = 1u << 12,
    /// The kernel is one grid-stride loop whose effects depend on its index
    /// alone (GridStrideLoop.h): a launch whose reads and writes are
    /// disjoint leaves the same memory on any grid in x, so the runtime may
    /// run its persistent forms on a larger virtual grid (one trip per
    /// virtual CTA), where they stop between virtual CTAs. The info global
    /// then has a sixth word, the loop's bound (GridStrideLoop::encode),
    /// which the runtime checks so that the index does not wrap on that
    /// grid. GMEM_CHECKPOINT_GRID_STRIDE=0: not emitted.
    GridStride = 1u << 13,
  };
  /// Bits 16..23 of the flags: BalancedTail's and LightTail's share, percent.
  static constexpr unsigned TailPercentShift = 16;
  uint32_t Flags = 0;
  uint32_t LoopCheckpoints = 0; ///< checkpoint sites in loops
  uint32_t IntervalK = 0;       ///< largest iterations-between-checks of a site
  uint32_t GridStrideBound = 0; ///< with GridStride: the sixth word
};

/// Work units (weighted instructions, see CheckpointLoops.cpp) a thread may
/// run between two loop checks. GMEM_CHECKPOINT_BUDGET overrides it.
inline constexpr unsigned DefaultCheckpointBudget = 512;

/// SM cycles (about 0.5 us on an H200) a per-thread loop check may reuse
/// the CTA's cached request value instead of reading the control word
/// again. GMEM_CHECKPOINT_REFRESH overrides it (0: no cache, every check
/// reads the word). Measured 512 / 1024 / 2048 / 8192: im2col +59 / +36 /
/// +34 / +33%, an ALU loop victim's P50 latency +1.2 / +1.7 / +3.8 / +4 us.
inline constexpr unsigned DefaultRefreshCycles = 1024;

/// SM cycles (about 1 us on an H200) a strip-mined loop segment aims at:
/// segments are timed on %clock and settle between this and twice this
/// (CheckpointLoopPace.cpp). GMEM_CHECKPOINT_PACE overrides it (0: segments
/// of the static cost model's K).
inline constexpr unsigned DefaultPaceCycles = 2048;

/// How many times the other loops' segment target a grid-stride loop's aims
/// at (4096 SM cycles, about 2 us, by default): such a loop is entered once
/// per virtual CTA and streams, and its short segments cost the memory
/// pipeline more than a segment end's instructions (H200, same call,
/// bench/preempt/results/parts/pace-grid: at 4096 instead of 2048
/// warp_reduce_sum +13.3% -> +7.1%, saxpy_gs +6.2% -> +2.6%, their stops
/// 4.0 -> 6.5 and 3.4 -> 6.0 us after the write). GMEM_CHECKPOINT_PACE_GRID
/// overrides the target (1: the other loops').
inline constexpr unsigned GridPaceFactor = 2;

/// SM cycles (about 4 us on an H200) a light twin's virtual CTA must have
/// run before its end-of-virtual-CTA decision reads the request again (a
/// late read) when the read at its start saw none. GMEM_CHECKPOINT_LATE
/// overrides it (0: never; the stop then waits for up to two virtual CTAs).
inline constexpr unsigned DefaultLateReadCycles = 8192;

/// The pass. Registered as `gmem-checkpoint`; in clang's pipeline it runs at
/// the end of the optimisation pipeline of device modules (Plugin.cpp).
/// GMEM_CHECKPOINTS=0 in the environment turns it into a no-op.
struct CheckpointInserterPass : llvm::PassInfoMixin<CheckpointInserterPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

/// Runs at the start of clang's pipeline (NVPTX): declares each kernel's
/// clone, with the kernel's `!nvvm.annotations`, long before the inserter
/// fills it. Why: LLVM 19's NVPTX backend caches annotations per Function
/// pointer and never forgets functions deleted during optimisation; a clone
/// allocated at the end of the pipeline may reuse such an address and then
/// lose its "kernel" and launch-bound annotations. A Function that exists
/// before anything is deleted cannot collide.
struct CheckpointReservePass : llvm::PassInfoMixin<CheckpointReservePass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }
};

/// Whether the environment leaves checkpoint insertion on (GMEM_CHECKPOINTS
/// unset, or anything but "0", "off", "false", "no").
bool checkpointsEnabled();

} // namespace gmem

#endif

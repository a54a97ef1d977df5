// The device side of preemption as the scheduler sees it: a kernel's
// preemptible clone and checkpoint facts (emitted by the gmem compiler
// pass), and per-launch control blocks with the events that track them.
//
// ABI version 2 (docs/PREEMPTION_DESIGN.md): for kernel K the pass emits
//   __gmem_pre_<K>(K's parameters..., gmem_ctl *ctl,
//                  uint32_t grid_x, uint32_t grid_y, uint32_t grid_z)
//   __gmem_pre_info_<K> = {magic, version 2, flags, loop_checkpoints, interval_k}
// where grid_* is always the grid the user asked for. request (word 0) is
// 0: run; 1: stop where no work is lost (CTAs not yet started return at
// entry; a persistent CTA stops between virtual CTAs); 2: also leave at loop
// checkpoints (only for launches found idempotent: a CTA cut mid-loop reruns
// from its start). Version-1 clones (no grid parameters) are refused.
//
// Ordinary clone (flag Persistent clear): launched with the user's grid;
//   struct gmem_ctl { uint32_t request; uint32_t reserved; uint32_t done[]; };
// a CTA that finishes sets its bit in done[] (bid = bx + gx*(by + gy*bz)); a
// relaunch with the same grid, block and control block runs only the CTAs
// whose bit is clear.
//
// Persistent clone (flag Persistent): launched with grid (P, 1, 1), any
// P >= 1, the user's block and dynamic shared memory; its CTAs take virtual
// CTAs (tickets) from a counter until total = grid_x*grid_y*grid_z:
//   struct gmem_ctl { uint32_t request; uint32_t next; uint32_t redo[2 * P]; };
// redo[2p], redo[2p+1] hold ticket + 1 of virtual CTAs CTA p took but did
// not finish. A relaunch must use the same P and control block (only request
// back to 0): it runs the redo tickets first, then new ones.
//
// Light twin (flag PreHasLight, persistent clones only): __gmem_prl_<K>,
// same parameters and protocol as the persistent clone but no loop
// checkpoints (it stops between virtual CTAs only) and its own register
// count, hence its own occupancy. No info global of its own. Which of the
// two a launch uses is chosen per launch shape (CloneChoice.h); a launch
// keeps its function and P for every instance.
//
// Alternate form (flag PreHasAlt, persistent clones only): __gmem_pra_<K>,
// same parameters, protocol and loop checkpoints as the persistent clone
// (request 2 arms them: its stops are the full clone's), but its persistent
// loop's state lives in shared memory, not registers: its own occupancy and
// P. No info global of its own; also chosen per launch shape by timing.
//
// Barrier-free form (flag PreHasFree, persistent clones only): __gmem_prf_<K>,
// same parameters, control block, grid (P, 1, 1) and loop checkpoints as the
// persistent clone, but every thread loops over the virtual CTAs on its own
// and folds the first one it has not finished into its CTA's resume word
// (atom.min; redo stays 0). A relaunch restarts the CTA's threads from the
// slowest one's position, so virtual CTAs that faster threads had finished
// run again: launched only for launches proved idempotent, and stopped with
// request 2. Kernels without loop checkpoints (elementwise) may have it as
// their only twin. Its own occupancy and P; chosen per launch shape by timing.
#pragma once

#include "CloneChoice.h"
#include "GridStrideTuner.h"
#include "KernelCache.h"
#include "HostCounters.h"
#include "SchedDriver.h"
#include "VaryingShapes.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace gmem {
namespace rt {
namespace sched {

constexpr uint32_t PreInfoMagic = 0x31504d47; // "GMP1"
constexpr uint32_t PreInfoVersion = 2;
constexpr uint32_t PreInfoBytes = 20;
enum PreInfoFlag : uint32_t {
  PreLoopCheckpoints = 1u << 0, ///< request 2 also stops CTAs in loops
  PreEntryOnly = 1u << 1,       ///< only entry checkpoints (e.g. grid-wide sync)
  PreUsesBarriers = 1u << 2,
  PreNoClone = 1u << 3,    ///< no clone emitted (grid/cluster sync, asm exit, spin waits, limits)
  PrePersistent = 1u << 4, ///< the clone loops over virtual CTAs (grid (P, 1, 1))
  PreHasLight = 1u << 5,   ///< a persistent clone's light twin __gmem_prl_<K> exists
  PreHasAlt = 1u << 6,     ///< a persistent clone's alternate form __gmem_pra_<K> exists
  PreHasFree = 1u << 7,    ///< a persistent clone's barrier-free form __gmem_prf_<K> exists
  /// Every persistent form reads grid_z's low 16 bits only; the high 16
  /// bits are a check interval K (0: 1): forms that can skip their check
  /// between virtual CTAs look at the request every K-th one.
  PreBatched = 1u << 8,
  /// The alternate form hands out its last share of the virtual CTAs
  /// (percent in bits 16..23) on demand from word 1 (`next`), which the
  /// per-launch memset zeroes and a relaunch keeps; a stopped CTA keeps a
  /// claimed ticket in its resume word. Nothing for the runtime to do.
  PreBalancedTail = 1u << 9,
  /// The light twin does the same (the same share). Nothing to do either.
  PreLightTail = 1u << 10,
  /// Every form is persistent only for blocks whose x extent is a multiple
  /// of 32: its warp collectives sit behind branches (warp-uniform early
  /// returns) that whole warps take alike only then. planClone refuses any
  /// other block, so such a launch runs the kernel itself.
  PreWarpAlignedBlock = 1u << 11,
  /// Every persistent form reads grid_z's low 16 bits only; bits 24..25 are
  /// a segment scale s (strip-mined loop segments of K << s iterations,
  /// paced ones at 2^s their target), and with PreBatched the interval is
  /// bits 16..23 (CloneScale.cpp).
  PreSegmentScale = 1u << 12,
  /// The kernel is one grid-stride loop whose effects depend on its index
  /// alone: an idempotent launch leaves the same memory on any grid in x.
  /// The info global's sixth word is the loop's bound (GridStride.h).
  PreGridStride = 1u << 13,
};

/// Parameters the clone has after the kernel's: ctl, grid_x, grid_y, grid_z.
constexpr size_t CloneExtraParams = 4;

/// Resident CTAs per SM of one function for launch shapes. The driver's
/// occupancy query costs more than the rest of a gated launch, and programs
/// launch few shapes; failures are kept too (Blocks 0).
class OccupancyCache {
public:
  static constexpr size_t MaxEntries = 16;
  /// For Threads per CTA and Smem bytes of dynamic shared memory (cached);
  /// 0 when the driver cannot tell.
  int residentPerSm(SchedDriver &D, CUfunction F, uint32_t Threads, uint32_t Smem);

private:
  struct Entry {
    uint32_t Threads = 0, Smem = 0;
    int Blocks = 0;
  };
  std::vector<Entry> Entries;
  size_t Next = 0; ///< the entry replaced when the cache is full
};

/// What the pass emitted next to one kernel, in one context (or why not).
struct CloneInfo {
  bool Ok = false;
  std::string Why;    ///< when !Ok
  std::string Symbol; ///< the kernel's (messages)
  uint32_t Flags = 0, LoopCheckpoints = 0, IntervalK = 0;
  /// With PreGridStride: the info global's sixth word (GridStride.h).
  uint32_t GridStrideBound = 0;
  bool GridStrideLogged = false; ///< the first regridded launch was logged
  GridStrideTuner GridTuner;     ///< GMEM_PREEMPT_GRID_STRIDE=auto
  /// The clone's parameters: K's, then ctl and the three grid words.
  std::vector<uint32_t> Offset, Size;
  uint32_t ArgBytes = 0;  ///< the clone's parameter buffer, grid words included
  /// Which of K's parameters a launch shape's key covers (empty: all).
  /// Pointers are left out: a program that allocates per step would never
  /// repeat a shape, and the work of a CTA rarely depends on an address
  /// (the light clone's re-timing catches the exceptions).
  std::vector<uint8_t> ShapeParam;
  /// One launchable form of the clone, by CloneKind: the full clone
  /// __gmem_pre_<K>; for persistent clones the light twin (PreHasLight),
  /// the alternate full form (PreHasAlt) and the barrier-free form
  /// (PreHasFree, only for launches proved idempotent: a stop makes it run
  /// virtual CTAs again). Each has its own registers, hence occupancy.
  struct Form {
    CUfunction Fn = nullptr; ///< null: not there
    std::string Why;         ///< a twin the flags promised but that is not usable: why
    int MirroredSmem = -1;   ///< dynamic shared memory limit last copied from K
    OccupancyCache Occupancy;
    /// Launched in this context (CloneInfo is per context): its next timed
    /// launches may wait behind the scheduler's latch (Scheduler::latch).
    bool Launched = false;
    /// Local memory per thread (-1: unknown): a first launch needing more
    /// than the context's functions so far grows its local memory, which
    /// the driver does as for an unloaded function (SchedFirstLaunch.cpp).
    int LocalBytes = -1;
  };
  Form Forms[CloneKindCount];
  /// The kernel as compiled launched in this context (Form::Launched).
  bool OriginalLaunched = false;
  CloneChooser Chooser; ///< full, alternate, free or light, per launch shape
  VaryingShapes Shapes; ///< coarse shapes whose launches share a chooser shape

  Form &form(CloneKind K) { return Forms[size_t(K)]; }
  const Form &form(CloneKind K) const { return Forms[size_t(K)]; }
  size_t kernelParams() const { return Size.size() - CloneExtraParams; }
  bool persistent() const { return (Flags & PrePersistent) != 0; }
  bool hasLight() const { return form(CloneKind::Light).Fn != nullptr; }
  bool hasAlt() const { return form(CloneKind::Alt).Fn != nullptr; }
  bool hasFree() const { return form(CloneKind::Free).Fn != nullptr; }
  /// Whether a preemption may also stop CTAs inside loops (request 2),
  /// given that the launch is idempotent.
  bool loopStops() const { return (Flags & PreLoopCheckpoints) && !(Flags & PreEntryOnly); }
  CUfunction function(CloneKind K) const { return form(K).Fn; }
  /// The kind of one of its functions (Full for any other).
  CloneKind kindOf(CUfunction F) const {
    for (CloneKind K : {CloneKind::Light, CloneKind::Alt, CloneKind::Free})
      if (F && F == form(K).Fn)
        return K;
    return CloneKind::Full;
  }
  /// Resident CTAs per SM of the full (light, alternate, free) clone; 0 when
  /// unknown.
  int residentPerSm(SchedDriver &D, uint32_t Threads, uint32_t Smem,
                    CloneKind K = CloneKind::Full) {
    Form &F = form(K);
    return F.Occupancy.residentPerSm(D, F.Fn, Threads, Smem);
  }
};

/// Whether C's forms may run blocks \p BlockX threads wide: with flag
/// PreWarpAlignedBlock, only whole-warp rows (a multiple of 32).
inline bool blockFitsClone(const CloneInfo &C, unsigned BlockX) {
  return !(C.Flags & PreWarpAlignedBlock) || BlockX % 32 == 0;
}

/// Looks up E's clone and checkpoint facts in the current context (and its
/// light twin, alternate and free forms: a missing or mismatched one leaves
/// its form's Fn null, with the reason in its Why, not an error).
CloneInfo resolveClone(SchedDriver &D, const KernelEntry &E);

/// One preemptible launch in flight: its control block, its events, the
/// clone's arguments (kept for relaunches), and its protocol state.
///
/// Device memory: [request][reserved / next][Words: done bitmap or redo][hold],
/// all zero before the first clone instance (relaunches only rewrite
/// request: the bitmap, next and redo carry the progress). A released slot
/// is zeroed on a side stream (SlotPool::release), so that a launch that
/// gets it back zeroed pays no memset in its own stream (H200: ~4.8 us of
/// the program's stream per launch, bench/preempt/micro/RESULTS.md); else
/// the launch's stream zeroes it first (NeedsZero). The launch's stream waits for hold == 0 after the clone; the
/// scheduler sets hold = 1 before raising request and clears it only once a
/// relaunch has finished every CTA.
struct Slot {
  CUdeviceptr Mem = 0;
  uint32_t Words = 0; ///< capacity between word 1 and hold (bitmap or redo words)
  unsigned SizeClass = 0;
  /// EvDrain: after the latest clone instance (first launch or relaunch);
  /// EvDone: after the hold wait in the launch's stream; EvReq: after the
  /// latest stop request; EvCtl: after a relaunch's request = 0 write.
  /// EvDrain is one of EvDrainTimed and EvDrainPlain (no timing), chosen
  /// per launch: only a timed launch or one whose stop would be sampled
  /// (SchedOptions::DrainSampleEvery) needs its timestamp.
  CUevent EvDrain = nullptr, EvDone = nullptr, EvReq = nullptr, EvCtl = nullptr;
  CUevent EvDrainTimed = nullptr, EvDrainPlain = nullptr;
  /// EvZero: after the side stream's memset of a released slot (where the
  /// pool has no host counter; else ZeroSeq: the counter's value after it).
  CUevent EvZero = nullptr;
  uint32_t ZeroSeq = 0;
  /// That memset was issued and nothing has touched the block since: a
  /// launch's stream waits for EvZero instead of zeroing it.
  bool ZeroQueued = false;
  bool NeedsZero = true; ///< not known to be zero: the launch's stream zeroes it

  std::vector<uint8_t> Args;
  size_t ArgSize = 0;
  void *Extra[5] = {};

  // The launch. Grid is what the clone is launched with, every instance:
  // the user's grid, or (P, 1, 1) for a persistent clone, whose redo words
  // are indexed by CTA so that P must never change between instances. Fn
  // likewise: the full, alternate, free and light clones' P differ.
  CloneInfo *Clone = nullptr;
  CUfunction Fn = nullptr;
  unsigned Grid[3] = {1, 1, 1}, UserGrid[3] = {1, 1, 1}, Block[3] = {1, 1, 1}, Shmem = 0;
  int Level = 0;
  /// 2 when the launch is idempotent and loops can stop, and always for the
  /// free form (only launched for idempotent launches)
  uint32_t StopRequest = 1;
  uint64_t Seq = 0;
  /// When the latest instance (launch or relaunch) went onto its stream,
  /// under fair share (0 otherwise): a stop that cuts it is charged the
  /// work it loses.
  uint64_t RunSinceNs = 0;
  /// ClonePlan's Resident, and the spread the launch was made with (timing).
  uint64_t Resident = 0;
  unsigned Spread = 1;

  // Protocol state (under the context's lock).
  bool Preempted = false;  ///< held: hold == 1 until a relaunch completes
  bool Relaunching = false;
  bool Sampled = true;     ///< drain time of the latest preemption taken
  uint32_t PreemptGen = 0, RelaunchGen = 0;
  unsigned RelaunchFailures = 0;

  // Timing for the choice of clone (CloneChoice.h): EvStart is recorded
  // right before the clone of a timed launch (created at the slot's first).
  CUevent EvStart = nullptr;
  bool Timed = false; ///< EvStart .. EvDrain still to be sampled
  /// EvEnd: after EvDone on a timed launch (EvStart .. EvEnd: the program's
  /// stream's time for the launch).
  CUevent EvEnd = nullptr;
  bool TimedEnd = false;
  uint64_t ShapeKey = 0;
  /// The launch's segment scale, and whether it is a stop probe of it
  /// (CloneChoice::StopProbe): 1 to be stopped once it runs, 2 stopped (its
  /// drain goes to the chooser), 0 neither.
  uint8_t Scale = 0;
  uint8_t ScaleProbe = 0;
  uint64_t ProbeAtNs = 0; ///< when the monitor stops the probe (0: not planned yet)
  /// Recorded on the control stream before a probe's stop writes (created
  /// at the slot's first probe): the drain from the request's issue too.
  CUevent EvProbe = nullptr;
  bool ProbeIssued = false; ///< EvProbe recorded for this launch's probe

  /// Whether this launch runs its kernel's light twin.
  bool light() const { return kind() == CloneKind::Light; }
  /// Which of its kernel's clones this launch runs.
  CloneKind kind() const { return Clone ? Clone->kindOf(Fn) : CloneKind::Full; }
  CUdeviceptr request() const { return Mem; }
  CUdeviceptr hold() const { return Mem + 8 + 4ull * Words; }
  size_t words() const { return 2 + size_t(Words) + 1; }
};

/// Control blocks and their events, reused per context. Blocks come in
/// power-of-two size classes of Words; they are never freed while the
/// context lives.
class SlotPool {
public:
  /// Larger grids of ordinary clones are not preemptible (the done bitmap
  /// would be too large); persistent clones need 2P words instead.
  static constexpr uint64_t MaxCtas = 1ull << 20;
  static constexpr uint64_t MaxWords = MaxCtas / 32;

  SlotPool(SchedDriver &D, unsigned MaxSlots) : D(D), MaxSlots(MaxSlots) {}
  SlotPool(const SlotPool &) = delete;
  SlotPool &operator=(const SlotPool &) = delete;

  /// A slot with at least Words words for the bitmap or redo area, or null
  /// (too many in flight, more than MaxWords, or the driver refused memory
  /// or events). The oldest released slot of the size class first; one
  /// whose zeroing has not finished yet only when the pool may not grow
  /// (its NeedsZero is then set).
  Slot *acquire(uint64_t Words);
  /// S's launch is over. With ZeroOn, its memory is zeroed on that stream
  /// (after work the stream already has: none that touches S).
  void release(Slot *S, CUstream ZeroOn = nullptr);
  unsigned inUse() const { return InUse; }
  unsigned capacity() const { return MaxSlots; }
  /// Zeroing is tracked by a host counter of HC (raised on the zeroing
  /// stream after each memset) instead of an event per slot, where HC has
  /// one left: whether a block is zeroed is then a load, not a query.
  void useCounters(HostCounters *HC) {
    Counters = HC;
    ZeroCounter = HC ? HC->take() : -1;
  }

private:
  SchedDriver &D;
  unsigned MaxSlots;
  unsigned InUse = 0;
  HostCounters *Counters = nullptr;
  int ZeroCounter = -1;
  uint32_t ZeroIssued = 0;
  CUstream ZeroStream = nullptr; ///< the latest release's (a full pool waits for it)
  std::vector<std::unique_ptr<Slot>> All;
  std::vector<std::deque<Slot *>> Free; ///< per size class, oldest release first
  /// Whether S's side-stream zeroing has finished (then NeedsZero is off).
  bool zeroed(Slot &S);
};

/// Fills S's parameter buffer for clone C: K's arguments, taken from
/// Params (one pointer per parameter) or from an Extra buffer
/// (CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE) at K's offsets, then the control
/// block's address and the user's grid. False when the arguments cannot be
/// read.
/// BatchK: the check interval, passed in grid_z's high bits to a clone with
/// PreBatched (ignored for others).
/// Scale: the segment scale, passed in grid_z's bits 24..25 to a clone with
/// PreSegmentScale (ignored for others).
bool buildArgs(Slot &S, const CloneInfo &C, const unsigned UserGrid[3], void **Params,
               void **Extra, unsigned BatchK = 0, unsigned Scale = 0);

/// For a persistent clone with PreGridStride: the x extent of the virtual
/// grid its launch (Grid, Block, K's arguments as buildArgs reads them) may
/// run on instead of Grid[0], Trips trips of the loop per virtual CTA
/// (GridStride.h); 0 where it keeps its own. The caller asks only for
/// launches proved idempotent.
uint32_t launchGridStrideX(const CloneInfo &C, const unsigned Grid[3], const unsigned Block[3],
                           void **Params, void **Extra, unsigned Trips = 1);

/// The shape of a launch for the full / light choice: a hash of its grid,
/// block, dynamic shared memory and K's argument bytes (those buildArgs
/// copies; not the control block). False when the arguments cannot be read.
/// Coarse and Family (when given): the hashes of the grid, block and shared
/// memory, and of the block and shared memory alone (VaryingShapes.h).
bool launchShapeKey(const CloneInfo &C, const unsigned Grid[3], const unsigned Block[3],
                    unsigned Shmem, void **Params, void **Extra, uint64_t &Key,
                    uint64_t *Coarse = nullptr, uint64_t *Family = nullptr);
/// launchShapeKey in two parts, for a caller that keys one launch on two
/// grids (a grid-stride launch's own and the one it runs on): the hash of
/// K's argument bytes (false when they cannot be read), then the key of a
/// grid, block and shared memory with those arguments.
bool launchArgsHash(const CloneInfo &C, void **Params, void **Extra, uint64_t &ArgsHash);
uint64_t launchShapeKeyOf(const unsigned Grid[3], const unsigned Block[3], unsigned Shmem,
                          uint64_t ArgsHash, uint64_t *Coarse = nullptr,
                          uint64_t *Family = nullptr);

/// Linear CTA count of a grid (0 for an empty one).
inline uint64_t ctaCount(const unsigned Grid[3]) {
  return uint64_t(Grid[0]) * uint64_t(Grid[1]) * uint64_t(Grid[2]);
}

/// How one launch of a clone is made: its grid and the words its control
/// block needs.
struct ClonePlan {
  unsigned Grid[3] = {1, 1, 1};
  uint64_t Words = 0;
  /// Check interval for a clone with PreBatched (0 or 1: every virtual CTA).
  unsigned BatchK = 0;
  /// Segment scale for a clone with PreSegmentScale (CloneChoice::Scale).
  unsigned Scale = 0;
  /// CTAs of Grid that run at once (a persistent clone's P, or for a
  /// spread launch the resident ones): the divisor of a virtual CTA's time.
  uint64_t Resident = 0;
};

/// The plan for launching clone C (its full function, or for a persistent
/// clone its light twin's, alternate or free form's as Kind says) in place of the
/// user's launch (Grid, Block, Shmem). A persistent clone gets P = min(total, Spread x Sms x
/// resident CTAs per SM of that function), Sms being the device's multiprocessors (unused
/// otherwise). False when the launch cannot be preemptible (empty or too
/// large a grid, occupancy unknown or zero).
bool planClone(SchedDriver &D, CloneInfo &C, int Sms, const unsigned Grid[3],
               const unsigned Block[3], unsigned Shmem, ClonePlan &Out,
               CloneKind Kind = CloneKind::Full, unsigned Spread = 1);

} // namespace sched
} // namespace rt
} // namespace gmem

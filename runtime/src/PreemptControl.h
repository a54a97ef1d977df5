// The device side of preemption as the scheduler sees it: a kernel's
// preemptible clone and checkpoint facts (emitted by the gmem compiler
// pass), and per-launch control blocks with the events that track them.
//
// ABI (docs/PREEMPTION_DESIGN.md): for kernel K the pass emits
//   __gmem_pre_<K>(K's parameters..., gmem_ctl *ctl)     the clone
//   __gmem_pre_info_<K> = {magic, version, flags, loop_checkpoints, interval_k}
// and the clone obeys
//   struct gmem_ctl { uint32_t request; uint32_t reserved; uint32_t done[]; };
// request 0: run; 1: CTAs not yet started return at entry; 2: also leave at
// loop checkpoints (only for launches found idempotent: a CTA cut mid-loop
// reruns from its start). A CTA that finishes sets its bit in done[]
// (bid = bx + gx*(by + gy*bz)); a relaunch with the same grid, block and
// control block runs only the CTAs whose bit is clear.
#pragma once

#include "KernelCache.h"
#include "SchedDriver.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gmem {
namespace rt {
namespace sched {

constexpr uint32_t PreInfoMagic = 0x31504d47; // "GMP1"
constexpr uint32_t PreInfoVersion = 1;
constexpr uint32_t PreInfoBytes = 20;
enum PreInfoFlag : uint32_t {
  PreLoopCheckpoints = 1u << 0, ///< request 2 also stops CTAs in loops
  PreEntryOnly = 1u << 1,       ///< only entry checkpoints (e.g. grid-wide sync)
  PreUsesBarriers = 1u << 2,
};

/// What the pass emitted next to one kernel, in one context (or why not).
struct CloneInfo {
  bool Ok = false;
  std::string Why; ///< when !Ok
  CUfunction Fn = nullptr;
  uint32_t Flags = 0, LoopCheckpoints = 0, IntervalK = 0;
  /// The clone's parameters: K's, then the control-block pointer.
  std::vector<uint32_t> Offset, Size;
  uint32_t ArgBytes = 0;  ///< the clone's parameter buffer, pointer included
  int MirroredSmem = -1;  ///< dynamic shared memory limit last copied from K

  /// Whether a preemption may also stop CTAs inside loops (request 2),
  /// given that the launch is idempotent.
  bool loopStops() const { return (Flags & PreLoopCheckpoints) && !(Flags & PreEntryOnly); }
};

/// Looks up E's clone and checkpoint facts in the current context.
CloneInfo resolveClone(SchedDriver &D, const KernelEntry &E);

/// One preemptible launch in flight: its control block, its events, the
/// clone's arguments (kept for relaunches), and its protocol state.
///
/// Device memory: [request][reserved][done bitmap: Words][hold], zeroed by a
/// memset in the launch's stream before the clone. The launch's stream waits
/// for hold == 0 after the clone; the scheduler sets hold = 1 before raising
/// request and clears it only once a relaunch has finished every CTA.
struct Slot {
  CUdeviceptr Mem = 0;
  uint32_t Words = 0; ///< bitmap capacity (32 CTAs per word)
  unsigned SizeClass = 0;
  /// EvDrain: after the latest clone instance (first launch or relaunch);
  /// EvDone: after the hold wait in the launch's stream; EvReq: after the
  /// latest stop request; EvCtl: after a relaunch's request = 0 write.
  CUevent EvDrain = nullptr, EvDone = nullptr, EvReq = nullptr, EvCtl = nullptr;

  std::vector<uint8_t> Args;
  size_t ArgSize = 0;
  void *Extra[5] = {};

  // The launch.
  const CloneInfo *Clone = nullptr;
  unsigned Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1}, Shmem = 0;
  int Level = 0;
  uint32_t StopRequest = 1; ///< 2 when the launch is idempotent and loops can stop
  uint64_t Seq = 0;

  // Protocol state (under the context's lock).
  bool Preempted = false;  ///< held: hold == 1 until a relaunch completes
  bool Relaunching = false;
  bool Sampled = true;     ///< drain time of the latest preemption taken
  uint32_t PreemptGen = 0, RelaunchGen = 0;
  unsigned RelaunchFailures = 0;

  CUdeviceptr request() const { return Mem; }
  CUdeviceptr hold() const { return Mem + 8 + 4ull * Words; }
  size_t words() const { return 2 + size_t(Words) + 1; }
};

/// Control blocks and their events, reused per context. Bitmaps come in
/// power-of-two size classes; blocks are never freed while the context lives.
class SlotPool {
public:
  static constexpr uint64_t MaxCtas = 1ull << 20; ///< larger grids are not preemptible

  SlotPool(SchedDriver &D, unsigned MaxSlots) : D(D), MaxSlots(MaxSlots) {}
  SlotPool(const SlotPool &) = delete;
  SlotPool &operator=(const SlotPool &) = delete;

  /// A slot whose bitmap covers Ctas, or null (too many in flight, grid
  /// too large, or the driver refused memory or events).
  Slot *acquire(uint64_t Ctas);
  void release(Slot *S);
  unsigned inUse() const { return InUse; }
  unsigned capacity() const { return MaxSlots; }

private:
  SchedDriver &D;
  unsigned MaxSlots;
  unsigned InUse = 0;
  std::vector<std::unique_ptr<Slot>> All;
  std::vector<std::vector<Slot *>> Free; ///< per size class
};

/// Fills S's parameter buffer for clone C: K's arguments, taken from
/// Params (one pointer per parameter) or from an Extra buffer
/// (CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE) at K's offsets, then the control
/// block's address. False when the arguments cannot be read.
bool buildArgs(Slot &S, const CloneInfo &C, void **Params, void **Extra);

/// Linear CTA count of a grid (0 for an empty one).
inline uint64_t ctaCount(const unsigned Grid[3]) {
  return uint64_t(Grid[0]) * uint64_t(Grid[1]) * uint64_t(Grid[2]);
}

} // namespace sched
} // namespace rt
} // namespace gmem

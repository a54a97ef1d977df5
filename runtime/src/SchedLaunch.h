// A launch as the scheduler receives it from libgmemrt's launch hooks: the
// stream's role, the launch itself and the hook's real entry point. Kept
// apart from Scheduler.h (the scheduler class) so that file stays under the
// ~600-line limit; Scheduler.h includes it.
#pragma once

#include "SchedDriver.h"

namespace gmem {
namespace rt {

struct LaunchRequest;

namespace sched {

/// What the scheduler will do with a launch on a stream.
struct StreamRole {
  int Level = -1;           ///< the stream's priority level (-1: not scheduled)
  bool Unpreempted = false; ///< goes to the GPU as it is, never gated nor preempted
  bool WantsRegions = false; ///< ... and its regions are wanted (GMEM_SCHED_L2=persist)
};

/// A launch as an interposed entry point received it.
struct SchedLaunch {
  CUfunction F = nullptr;
  unsigned Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  unsigned Shmem = 0;
  CUstream Stream = nullptr;
  bool PerThreadStream = false; ///< the entry point's null stream is the per-thread one
  int Level = -1; ///< the stream's level when the hook asked already (StreamRole), else -1
  void **Params = nullptr, **Extra = nullptr;
  const CUlaunchAttribute *Attrs = nullptr; ///< cuLaunchKernelEx's
  unsigned NumAttrs = 0;
  bool Cooperative = false; ///< cuLaunchCooperativeKernel
  bool Graph = false;       ///< cuGraphLaunch (F is null): never a clone

  /// From the runtime's view of the launch.
  static SchedLaunch from(const LaunchRequest &L, bool PerThreadStream);
};

/// "Launch exactly as the caller asked" (the hook's real entry point),
/// without allocating.
class OriginalLaunch {
public:
  template <typename Fn>
  explicit OriginalLaunch(Fn &F)
      : Obj(&F), Call([](void *O) -> CUresult { return (*static_cast<Fn *>(O))(); }) {}
  CUresult operator()() const { return Call(Obj); }

private:
  void *Obj;
  CUresult (*Call)(void *);
};

} // namespace sched
} // namespace rt
} // namespace gmem

// Opt-in timing of libgmemrt's launch path (build with
// -DGMEMRT_LAUNCH_PROFILE=ON): per stage, how many calls and how long they
// took, printed on stderr at exit. Off (the default), the macros are empty:
// the hot path carries no clock reads.
//
// Why a build option and not an env var: the stages are ~100 ns each; even a
// predictable branch and a TLS read per stage would show in what is measured.
#pragma once

#ifdef GMEMRT_LAUNCH_PROFILE
#include <atomic>
#include <chrono>
#include <cstdint>

namespace gmem {
namespace rt {
namespace prof {

enum Stage : unsigned {
  HookTop,     ///< interposed launch entry point, driver call included: top level
  HookGated,   ///< ... a launch below the top level (gated: ctl, waits, clone)
  Decide,      ///< Runtime::before (descriptor evaluation, memory side)
  SchedPre,    ///< Scheduler::launch before the launch itself
  Suppress,    ///< Scheduler::suppress, all of it
  StopWrites,  ///< ... the batched control writes
  VictimQuery, ///< ... asking whether a victim's clone has drained
  ReqRecord,   ///< ... the event that times the drain
  Wake,        ///< ... waking the monitor
  Driver,      ///< the real launch call of an ungated launch
  After,       ///< Runtime::after
  Recycle,     ///< Scheduler::recycle (finished slots, their side-stream zeroing)
  GatedPlan,   ///< gated launch: clone choice, slot, arguments
  GatedPre,    ///< ... zeroing (or its wait), gate wait, start mark
  GatedClone,  ///< ... the clone's launch call
  GatedTrack,  ///< ... drain, hold, done (and end mark)
  NumStages
};

/// Set by the scheduler: whether this thread's launch in progress was gated.
inline thread_local bool Gated = false;

/// Adds one sample of Ns to Stage S (lock-free, process-wide).
void add(Stage S, uint64_t Ns);

inline uint64_t now() {
  return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
}

class Scope {
public:
  explicit Scope(Stage S) : S(S), T0(now()) {}
  ~Scope() { add(S, now() - T0); }
  Scope(const Scope &) = delete;
  Scope &operator=(const Scope &) = delete;

private:
  Stage S;
  uint64_t T0;
};

} // namespace prof
} // namespace rt
} // namespace gmem

#define GMEM_PROF_CAT2(A, B) A##B
#define GMEM_PROF_CAT(A, B) GMEM_PROF_CAT2(A, B)
#define GMEM_PROF_SCOPE(S) ::gmem::rt::prof::Scope GMEM_PROF_CAT(GmemProf, __LINE__)(::gmem::rt::prof::S)
#define GMEM_PROF_NOW() ::gmem::rt::prof::now()
#define GMEM_PROF_ADD(S, Ns) ::gmem::rt::prof::add(::gmem::rt::prof::S, Ns)
#define GMEM_PROF_GATED(V) (::gmem::rt::prof::Gated = (V))
#define GMEM_PROF_HOOK(T0)                                                                        \
  ::gmem::rt::prof::add(::gmem::rt::prof::Gated ? ::gmem::rt::prof::HookGated                    \
                                                : ::gmem::rt::prof::HookTop,                     \
                        ::gmem::rt::prof::now() - (T0))
#else
#define GMEM_PROF_GATED(V) ((void)0)
#define GMEM_PROF_HOOK(T0) ((void)0)
#define GMEM_PROF_SCOPE(S) ((void)0)
#define GMEM_PROF_NOW() uint64_t(0)
#define GMEM_PROF_ADD(S, Ns) ((void)0)
#endif

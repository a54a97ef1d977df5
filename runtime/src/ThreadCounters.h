// Per-thread launch counters: counted on the launch path (RuntimeLaunch.cpp),
// summed by the statistics (RuntimeRecords.cpp) and, at construction, taken
// as a runtime's baseline (Runtime.cpp).
#pragma once

#include <atomic>
#include <cstdint>

namespace gmem {
namespace rt {

/// Counters of one thread (single writer; summed by gmemGetStats).
struct ThreadCounters {
  std::atomic<uint64_t> Instrumented{0}, Idempotent{0};
  std::atomic<uint64_t> Evaluated{0}; ///< decisions computed (not taken from the memo)
  ThreadCounters *Next = nullptr;
};
/// Every thread's counters, newest first (countersOf registers them for good).
extern std::atomic<ThreadCounters *> AllCounters;

} // namespace rt
} // namespace gmem

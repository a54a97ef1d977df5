// Unified-memory event counter over CUPTI's activity API
// (CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER): GPU page faults, CPU page
// faults, bytes migrated host->device and device->host (by cause), per
// measured region of the program.
//
// libcupti.so.13 is dlopen'ed only when counting is asked for (PF_CUPTI=1),
// so timing runs carry no CUPTI at all. Regions are host-time intervals in
// CUPTI's clock: each record is attributed to the region its start time falls
// in, so records that arrive late (CUPTI delivers them in buffers) still land
// in the right region; totals are final after finish().
#pragma once

#include <cstdint>
#include <string>

namespace pf {

struct UmCounts {
  uint64_t GpuFaultRecords = 0; ///< GPU page-fault records (fault groups)
  uint64_t GpuFaults = 0;       ///< sum of their values (faults per group)
  uint64_t CpuFaults = 0;       ///< CPU page-fault records
  uint64_t HtoDBytes = 0, DtoHBytes = 0;
  uint64_t HtoDUserBytes = 0;     ///< HtoD caused by a prefetch call (cause USER)
  uint64_t HtoDCoherenceBytes = 0; ///< HtoD caused by faults (cause COHERENCE)
  uint64_t HtoDOtherBytes = 0;    ///< driver's speculative prefetch, eviction, access counters
  uint64_t Thrashing = 0, Throttling = 0, RemoteMaps = 0;
  uint64_t Records = 0;
};

class UmCounter {
public:
  /// Starts counting if PF_CUPTI=1 (call after the CUDA context exists).
  /// Returns false (and prints why) when CUPTI cannot count here.
  static bool init();
  static bool active();
  /// Opens a region; returns its id (>= 0), or -1 when not active.
  static int begin(const std::string &Label);
  /// Closes region Id (synchronise the device before, so its work is done).
  static void end(int Id);
  /// Flushes CUPTI's buffers; afterwards counts() is final for closed regions.
  static void flush();
  static UmCounts counts(int Id);
  /// Records dropped by CUPTI (buffers full): counts are a lower bound if > 0.
  static uint64_t dropped();
  /// Why init() failed, or "".
  static const std::string &error();
};

} // namespace pf

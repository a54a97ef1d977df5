// What libgmemrt believes about managed memory on the device: which byte
// ranges it made resident, which may still be resident, which launches use
// them, and which to evict when a device-memory budget is set.
//
// Pure bookkeeping (no driver calls), so that range merging, residency and
// the eviction choice are unit-tested on the CPU (test/runtime/ResidencyTest.cpp).
// The caller (MemoryManager) serialises access.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

namespace gmem {
namespace rt {

struct Range {
  uint64_t Lo = 0, Hi = 0; ///< half-open, absolute device addresses
  uint64_t size() const { return Hi > Lo ? Hi - Lo : 0; }
  bool empty() const { return Hi <= Lo; }
  friend bool operator==(const Range &A, const Range &B) { return A.Lo == B.Lo && A.Hi == B.Hi; }
};

/// A set of bytes as sorted, disjoint, non-adjacent half-open intervals.
class RangeSet {
public:
  /// Adds [Lo, Hi), merging with overlapping and adjacent intervals.
  void add(uint64_t Lo, uint64_t Hi);
  void add(const Range &R) { add(R.Lo, R.Hi); }
  void add(const RangeSet &S);
  /// Removes [Lo, Hi); returns how many bytes were removed.
  uint64_t remove(uint64_t Lo, uint64_t Hi);
  uint64_t remove(const Range &R) { return remove(R.Lo, R.Hi); }
  bool contains(uint64_t Lo, uint64_t Hi) const;
  bool intersects(uint64_t Lo, uint64_t Hi) const;
  /// The parts of [Lo, Hi) not in the set, in order.
  void missing(uint64_t Lo, uint64_t Hi, std::vector<Range> &Out) const;
  /// The parts of [Lo, Hi) in the set, in order.
  void overlap(uint64_t Lo, uint64_t Hi, std::vector<Range> &Out) const;
  uint64_t bytes() const { return Bytes; }
  bool empty() const { return Map.empty(); }
  void clear() {
    Map.clear();
    Bytes = 0;
  }
  std::vector<Range> ranges() const;
  const std::map<uint64_t, uint64_t> &intervals() const { return Map; }

private:
  std::map<uint64_t, uint64_t> Map; ///< Lo -> Hi
  uint64_t Bytes = 0;
};

/// One launch whose kernel may still be running (submitted, completion not
/// yet observed), with the ranges it touches.
struct InFlightUse {
  uint64_t Seq = 0;
  RangeSet Ranges;
};

/// A piece chosen for eviction, with the in-flight launches that must
/// complete before it may move.
struct Victim {
  Range R;
  std::vector<uint64_t> WaitFor; ///< InFlightUse::Seq values
};

class ResidencyTracker {
public:
  /// Granule of all residency bookkeeping: ranges are widened outward to it
  /// (clipped to their allocation), so the maps stay small.
  static constexpr uint64_t Granule = 64 * 1024;

  // --- allocations ----------------------------------------------------------
  /// A managed allocation [Base, Base+Size) is known (idempotent).
  void addAllocation(uint64_t Base, uint64_t Size) { Allocations[Base] = Size; }
  /// The known allocation containing Ptr (empty range: none).
  Range allocationOf(uint64_t Ptr) const;
  /// The allocation containing Ptr was freed: forget everything in it.
  void removeAllocation(uint64_t Base);
  /// Widens R outward to granules, clipped to the allocation holding R.Lo
  /// (unchanged when no allocation is known).
  Range widen(Range R) const;
  /// R cut at the boundaries of the known allocations it spans: the driver
  /// prefetches and advises within one allocation only, and merged ranges
  /// of adjacent allocations would otherwise be refused whole.
  void splitByAllocation(const Range &R, std::vector<Range> &Out) const;

  // --- residency ------------------------------------------------------------
  /// Made resident by our prefetch (or a pin): later launches skip it.
  void markResident(const Range &R);
  /// May be resident (a kernel touched it without our prefetch): counts
  /// against the budget, but is prefetched again when needed.
  void markPossiblyResident(const Range &R);
  /// The host may have touched managed memory (it synchronised): every
  /// resident range becomes possibly-resident.
  void markAllStale();
  /// Moved to the host, discarded or remote-mapped.
  void markEvicted(const Range &R);
  /// Bytes counted against the budget (resident + possibly resident).
  uint64_t accountedBytes() const { return Resident.bytes() + Stale.bytes(); }
  const RangeSet &resident() const { return Resident; }
  const RangeSet &possiblyResident() const { return Stale; }
  bool isResident(const Range &R) const { return Resident.contains(R.Lo, R.Hi); }
  /// Parts of R our prefetch must still move.
  void toPrefetch(const Range &R, std::vector<Range> &Out) const { Resident.missing(R.Lo, R.Hi, Out); }

  // --- pins -----------------------------------------------------------------
  void pin(const Range &R) { Pinned.add(R); }
  void unpin(const Range &R) { Pinned.remove(R); }
  const RangeSet &pinned() const { return Pinned; }

  // --- use, for the eviction choice -----------------------------------------
  /// Launch Seq touches Ranges (Seq increases over calls).
  void recordUse(uint64_t Seq, const RangeSet &Ranges);
  void addInFlight(InFlightUse U) { InFlight.push_back(std::move(U)); }
  void retire(uint64_t Seq);
  const std::vector<InFlightUse> &inFlight() const { return InFlight; }

  /// Chooses at least Need bytes of accounted ranges to evict, never from
  /// Keep or a pinned range. Order: first ranges no in-flight (queued)
  /// launch touches, those whose next use is predicted farthest away first:
  /// a range used once is predicted never to be used again; a range used
  /// before is predicted to recur after the same distance (cyclic sweeps
  /// over more data than fits, the common oversubscribed pattern, are where
  /// LRU evicts exactly what comes next); ties go least recently used first.
  /// Then ranges in-flight launches touch, those whose users were submitted
  /// earliest first. Returns fewer bytes only when nothing else can go.
  std::vector<Victim> chooseVictims(uint64_t Need, const RangeSet &Keep) const;

private:
  struct Use {
    uint64_t Hi, Seq, Prev; ///< [Lo, Hi) last used by launch Seq, before that by Prev (0: none)
  };
  /// The use record covering Lo (Seq 0: never seen).
  Use useAt(uint64_t Lo) const;
  /// Removes [Lo, Hi) from the use history (the parts outside it stay);
  /// Removed, if given, receives the removed pieces in address order.
  void cutUses(uint64_t Lo, uint64_t Hi, std::vector<std::pair<uint64_t, Use>> *Removed);

  std::map<uint64_t, uint64_t> Allocations; ///< base -> size
  RangeSet Resident, Stale, Pinned;
  /// Lo -> use of [Lo, Hi). Disjoint intervals.
  std::map<uint64_t, Use> LastUse;
  std::vector<InFlightUse> InFlight;
};

} // namespace rt
} // namespace gmem

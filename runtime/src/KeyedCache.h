// A small bounded table of entries keyed by a 64-bit hash, for per-kernel
// state the scheduler learns per launch shape (CloneChooser's shapes,
// VaryingShapes' groups). The entry found last is tried first (programs
// repeat one shape), the rest in order; when full, the slots are reused
// round robin (a forgotten key only costs relearning it).
//
// Entry: default-constructible, with a `uint64_t Key` member.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gmem {
namespace rt {
namespace sched {

template <typename Entry, size_t Max> class KeyedCache {
public:
  /// Key's entry, or null when not remembered.
  const Entry *lookup(uint64_t Key) const {
    if (Last < Entries.size() && Entries[Last].Key == Key)
      return &Entries[Last];
    for (const Entry &E : Entries)
      if (E.Key == Key)
        return &E;
    return nullptr;
  }
  /// lookup(), remembering the entry as the one found last.
  Entry *find(uint64_t Key) {
    const Entry *E = lookup(Key);
    if (!E)
      return nullptr;
    Last = size_t(E - Entries.data());
    return const_cast<Entry *>(E);
  }
  /// Key's entry; a fresh one (default-constructed, Key set) in a new or
  /// reused slot when not remembered, with Added set.
  Entry &findOrAdd(uint64_t Key, bool &Added) {
    Added = false;
    if (Entry *E = find(Key))
      return *E;
    Added = true;
    if (Entries.size() < Max) {
      Entries.emplace_back();
      Last = Entries.size() - 1;
    } else {
      Last = Next;
      Next = (Next + 1) % Max;
      Entries[Last] = Entry();
    }
    Entries[Last].Key = Key;
    return Entries[Last];
  }
  size_t size() const { return Entries.size(); }

private:
  std::vector<Entry> Entries;
  size_t Next = 0; ///< the slot reused next when full
  size_t Last = 0; ///< the entry found last
};

} // namespace sched
} // namespace rt
} // namespace gmem

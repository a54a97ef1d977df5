#include "VaryingShapes.h"

#include <algorithm>

namespace gmem {
namespace rt {
namespace sched {

uint64_t VaryingShapes::keyFor(uint64_t Coarse, uint64_t Exact, bool &Varying) {
  Entry *E = nullptr;
  if (Last < Entries.size() && Entries[Last].Coarse == Coarse) {
    E = &Entries[Last];
  } else {
    for (size_t I = 0; I < Entries.size() && !E; ++I)
      if (Entries[I].Coarse == Coarse) {
        E = &Entries[I];
        Last = I;
      }
    if (!E) {
      if (Entries.size() < MaxCoarse) {
        Entries.emplace_back();
        Last = Entries.size() - 1;
      } else {
        Last = Next;
        Next = (Next + 1) % MaxCoarse;
        Entries[Last] = Entry();
      }
      E = &Entries[Last];
      E->Coarse = Coarse;
    }
  }
  Varying = E->Varying;
  if (Varying)
    return sharedKey(Coarse);
  // Counters saturate long before they could wrap: a shape that has not
  // turned varying in 2^31 launches repeats its shapes.
  if (E->Launches < (1u << 31))
    ++E->Launches;
  if (std::find(E->Keys, E->Keys + E->NKeys, Exact) == E->Keys + E->NKeys) {
    E->Keys[E->NextKey] = Exact;
    E->NextKey = uint8_t((E->NextKey + 1) % Recent);
    E->NKeys = uint8_t(std::min<unsigned>(E->NKeys + 1u, Recent));
    ++E->Arrivals;
    // This launch is still the exact shape's: the shared shape starts
    // with the next one.
    if (E->Arrivals > Recent && 2ull * E->Arrivals > E->Launches)
      E->Varying = true;
  }
  return Exact;
}

bool VaryingShapes::varying(uint64_t Coarse) const {
  for (const Entry &E : Entries)
    if (E.Coarse == Coarse)
      return E.Varying;
  return false;
}

} // namespace sched
} // namespace rt
} // namespace gmem

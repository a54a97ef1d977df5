#include "VaryingShapes.h"

#include "CloneChoice.h"

#include <algorithm>

namespace gmem {
namespace rt {
namespace sched {

static_assert(VaryingShapes::Recent == CloneChooser::MaxShapes,
              "a group remembers as many members as the chooser remembers shapes");
static_assert(VaryingShapes::Recent < 256, "member counts are 8-bit");

bool VaryingShapes::Level::note(uint64_t Key, uint64_t Member) {
  bool Added = false;
  Group *G = &Groups.findOrAdd(Key, Added);
  if (G->Varying)
    return true;
  // "More than half of its launches" counts recent launches: both counts
  // halve every Window launches. Counted since the group's first launch, a
  // kernel run long with fixed arguments (a warm-up, a first phase) would
  // need as many launches again before its arguments could count as
  // varying: gpu_bench's varying launches, after 22,000 repeated ones, all
  // stayed timed first launches of their own shapes (18.7 us of host time
  // each against 4.3 us, H200, bench/preempt/results/session31).
  if (++G->Launches >= Window) {
    G->Launches /= 2;
    G->Arrivals /= 2;
  }
  if (std::find(G->Members, G->Members + G->NMembers, Member) == G->Members + G->NMembers) {
    G->Members[G->NextMember] = Member;
    G->NextMember = uint8_t((G->NextMember + 1) % Recent);
    G->NMembers = uint8_t(std::min<unsigned>(G->NMembers + 1u, Recent));
    ++G->Arrivals;
    // This launch stays its own: the shared shape starts with the next.
    if (G->Arrivals > Recent && 2ull * G->Arrivals > G->Launches)
      G->Varying = true;
  }
  return false;
}

bool VaryingShapes::Level::varying(uint64_t Key) const {
  const Group *G = Groups.lookup(Key);
  return G && G->Varying;
}

uint64_t VaryingShapes::keyFor(uint64_t Family, uint64_t Coarse, uint64_t Exact, bool &Varying) {
  Varying = true;
  // The family first: once grids vary, the coarse shapes below it are each
  // new and would never turn varying themselves.
  if (Families.note(Family, Coarse))
    return familyKey(Family);
  if (Coarses.note(Coarse, Exact))
    return coarseKey(Coarse);
  Varying = false;
  return Exact;
}

} // namespace sched
} // namespace rt
} // namespace gmem

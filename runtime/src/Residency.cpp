#include "Residency.h"

#include <algorithm>
#include <iterator>

namespace gmem {
namespace rt {

// --- RangeSet -----------------------------------------------------------------

void RangeSet::add(uint64_t Lo, uint64_t Hi) {
  if (Hi <= Lo)
    return;
  // First interval that could touch [Lo, Hi): the one starting at or before Lo.
  auto It = Map.upper_bound(Lo);
  if (It != Map.begin() && std::prev(It)->second >= Lo)
    --It;
  while (It != Map.end() && It->first <= Hi) {
    Lo = std::min(Lo, It->first);
    Hi = std::max(Hi, It->second);
    Bytes -= It->second - It->first;
    It = Map.erase(It);
  }
  Map.emplace(Lo, Hi);
  Bytes += Hi - Lo;
}

void RangeSet::add(const RangeSet &S) {
  for (const auto &[Lo, Hi] : S.Map)
    add(Lo, Hi);
}

uint64_t RangeSet::remove(uint64_t Lo, uint64_t Hi) {
  if (Hi <= Lo)
    return 0;
  uint64_t Removed = 0;
  auto It = Map.upper_bound(Lo);
  if (It != Map.begin() && std::prev(It)->second > Lo)
    --It;
  while (It != Map.end() && It->first < Hi) {
    uint64_t A = It->first, B = It->second;
    It = Map.erase(It);
    uint64_t CutLo = std::max(A, Lo), CutHi = std::min(B, Hi);
    Removed += CutHi - CutLo;
    if (A < Lo)
      Map.emplace(A, Lo);
    if (B > Hi)
      It = Map.emplace(Hi, B).first, ++It;
  }
  Bytes -= Removed;
  return Removed;
}

bool RangeSet::contains(uint64_t Lo, uint64_t Hi) const {
  if (Hi <= Lo)
    return true;
  auto It = Map.upper_bound(Lo);
  if (It == Map.begin())
    return false;
  --It;
  return It->first <= Lo && It->second >= Hi;
}

bool RangeSet::intersects(uint64_t Lo, uint64_t Hi) const {
  if (Hi <= Lo)
    return false;
  auto It = Map.lower_bound(Hi); // first interval starting at or after Hi
  if (It == Map.begin())
    return false;
  --It;
  return It->second > Lo;
}

void RangeSet::missing(uint64_t Lo, uint64_t Hi, std::vector<Range> &Out) const {
  if (Hi <= Lo)
    return;
  auto It = Map.upper_bound(Lo);
  if (It != Map.begin() && std::prev(It)->second > Lo)
    --It;
  uint64_t Cur = Lo;
  for (; It != Map.end() && It->first < Hi; ++It) {
    if (It->first > Cur)
      Out.push_back({Cur, It->first});
    Cur = std::max(Cur, It->second);
    if (Cur >= Hi)
      return;
  }
  if (Cur < Hi)
    Out.push_back({Cur, Hi});
}

void RangeSet::overlap(uint64_t Lo, uint64_t Hi, std::vector<Range> &Out) const {
  if (Hi <= Lo)
    return;
  auto It = Map.upper_bound(Lo);
  if (It != Map.begin() && std::prev(It)->second > Lo)
    --It;
  for (; It != Map.end() && It->first < Hi; ++It)
    Out.push_back({std::max(Lo, It->first), std::min(Hi, It->second)});
}

std::vector<Range> RangeSet::ranges() const {
  std::vector<Range> Out;
  Out.reserve(Map.size());
  for (const auto &[Lo, Hi] : Map)
    Out.push_back({Lo, Hi});
  return Out;
}

// --- ResidencyTracker -----------------------------------------------------------

Range ResidencyTracker::allocationOf(uint64_t Ptr) const {
  auto It = Allocations.upper_bound(Ptr);
  if (It == Allocations.begin())
    return {};
  --It;
  if (Ptr - It->first >= It->second)
    return {};
  return {It->first, It->first + It->second};
}

void ResidencyTracker::splitByAllocation(const Range &R, std::vector<Range> &Out) const {
  uint64_t Cur = R.Lo;
  auto It = Allocations.upper_bound(R.Lo);
  if (It != Allocations.begin())
    --It;
  for (; It != Allocations.end() && Cur < R.Hi; ++It) {
    uint64_t B = It->first, E = It->first + It->second;
    if (E <= Cur)
      continue;
    if (B >= R.Hi)
      break;
    if (B > Cur) { // a gap no known allocation covers: keep it as it is
      Out.push_back({Cur, B});
      Cur = B;
    }
    uint64_t Hi = std::min(E, R.Hi);
    Out.push_back({Cur, Hi});
    Cur = Hi;
  }
  if (Cur < R.Hi)
    Out.push_back({Cur, R.Hi});
}

void ResidencyTracker::removeAllocation(uint64_t Base) {
  auto It = Allocations.upper_bound(Base);
  if (It == Allocations.begin())
    return;
  --It;
  if (Base - It->first >= It->second)
    return;
  uint64_t Lo = It->first, Hi = It->first + It->second;
  Allocations.erase(It);
  Resident.remove(Lo, Hi);
  Stale.remove(Lo, Hi);
  Pinned.remove(Lo, Hi);
  // Forget its use history too: a new allocation may reuse the addresses.
  cutUses(Lo, Hi, nullptr);
}

void ResidencyTracker::cutUses(uint64_t Lo, uint64_t Hi,
                               std::vector<std::pair<uint64_t, Use>> *Removed) {
  auto U = LastUse.upper_bound(Lo);
  if (U != LastUse.begin() && std::prev(U)->second.Hi > Lo)
    --U;
  while (U != LastUse.end() && U->first < Hi) {
    uint64_t A = U->first;
    Use X = U->second;
    U = LastUse.erase(U);
    if (A < Lo)
      LastUse.emplace(A, Use{Lo, X.Seq, X.Prev});
    if (X.Hi > Hi)
      U = LastUse.emplace(Hi, X).first, ++U;
    if (Removed)
      Removed->push_back({std::max(A, Lo), Use{std::min(X.Hi, Hi), X.Seq, X.Prev}});
  }
}

Range ResidencyTracker::widen(Range R) const {
  if (R.empty())
    return R;
  uint64_t Lo = R.Lo / Granule * Granule;
  uint64_t Hi = R.Hi > UINT64_MAX - Granule ? UINT64_MAX : (R.Hi + Granule - 1) / Granule * Granule;
  auto It = Allocations.upper_bound(R.Lo);
  if (It != Allocations.begin()) {
    --It;
    uint64_t B = It->first, E = It->first + It->second;
    if (R.Lo >= B && R.Lo < E) {
      Lo = std::max(Lo, B);
      Hi = std::min(Hi, E);
      if (Hi < R.Hi) // R ran past its allocation: keep it whole
        Hi = R.Hi;
    }
  }
  return {Lo, Hi};
}

void ResidencyTracker::markResident(const Range &R) {
  Stale.remove(R);
  Resident.add(R);
}

void ResidencyTracker::markPossiblyResident(const Range &R) {
  // Only what is not already known resident.
  std::vector<Range> Parts;
  Resident.missing(R.Lo, R.Hi, Parts);
  for (const Range &P : Parts)
    Stale.add(P);
}

void ResidencyTracker::markAllStale() {
  Stale.add(Resident);
  Resident.clear();
}

void ResidencyTracker::markEvicted(const Range &R) {
  Resident.remove(R);
  Stale.remove(R);
}

void ResidencyTracker::recordUse(uint64_t Seq, const RangeSet &Ranges) {
  for (const auto &[Lo, Hi] : Ranges.intervals()) {
    // Re-record whatever overlaps [Lo, Hi), remembering its previous use;
    // the parts outside [Lo, Hi) keep theirs.
    std::vector<std::pair<uint64_t, Use>> Old, New;
    cutUses(Lo, Hi, &Old);
    uint64_t Cur = Lo;
    for (const auto &[PLo, X] : Old) {
      if (PLo > Cur)
        New.push_back({Cur, Use{PLo, Seq, 0}});
      New.push_back({PLo, Use{X.Hi, Seq, X.Seq == Seq ? X.Prev : X.Seq}});
      Cur = X.Hi;
    }
    if (Cur < Hi)
      New.push_back({Cur, Use{Hi, Seq, 0}});
    for (auto &[A, U] : New)
      LastUse.emplace(A, U);
  }
}

void ResidencyTracker::retire(uint64_t Seq) {
  InFlight.erase(std::remove_if(InFlight.begin(), InFlight.end(),
                                [Seq](const InFlightUse &U) { return U.Seq == Seq; }),
                 InFlight.end());
}

ResidencyTracker::Use ResidencyTracker::useAt(uint64_t Lo) const {
  auto It = LastUse.upper_bound(Lo);
  if (It != LastUse.begin() && std::prev(It)->second.Hi > Lo)
    return std::prev(It)->second;
  return Use{0, 0, 0};
}

std::vector<Victim> ResidencyTracker::chooseVictims(uint64_t Need, const RangeSet &Keep) const {
  struct Piece {
    Range R;
    bool Busy;
    uint64_t Key;  ///< idle: predicted next use; busy: earliest in-flight user
    uint64_t Last; ///< idle: last use (ties: least recent first)
    std::vector<uint64_t> Users;
  };
  RangeSet Candidates = Resident;
  Candidates.add(Stale);
  for (const auto &[Lo, Hi] : Keep.intervals())
    Candidates.remove(Lo, Hi);
  for (const auto &[Lo, Hi] : Pinned.intervals())
    Candidates.remove(Lo, Hi);

  // Split candidates where last-use or in-flight users change: at every
  // LastUse boundary and every in-flight interval boundary inside them.
  std::vector<uint64_t> Cuts;
  for (const auto &[Lo, V] : LastUse) {
    Cuts.push_back(Lo);
    Cuts.push_back(V.Hi);
  }
  for (const InFlightUse &U : InFlight)
    for (const auto &[Lo, Hi] : U.Ranges.intervals()) {
      Cuts.push_back(Lo);
      Cuts.push_back(Hi);
    }
  std::sort(Cuts.begin(), Cuts.end());
  Cuts.erase(std::unique(Cuts.begin(), Cuts.end()), Cuts.end());

  std::vector<Piece> Pieces;
  for (const auto &[Lo, Hi] : Candidates.intervals()) {
    uint64_t Cur = Lo;
    auto C = std::upper_bound(Cuts.begin(), Cuts.end(), Lo);
    while (Cur < Hi) {
      uint64_t Next = (C != Cuts.end() && *C < Hi) ? *C++ : Hi;
      Piece P{{Cur, Next}, false, 0, 0, {}};
      for (const InFlightUse &U : InFlight)
        if (U.Ranges.intersects(Cur, Next)) {
          P.Users.push_back(U.Seq);
          P.Key = P.Busy ? std::min(P.Key, U.Seq) : U.Seq;
          P.Busy = true;
        }
      if (!P.Busy) {
        // Pieces never straddle a use boundary, so one record describes it.
        Use U = useAt(Cur);
        P.Last = U.Seq;
        P.Key = U.Prev && U.Seq > U.Prev ? U.Seq + (U.Seq - U.Prev) : UINT64_MAX;
      }
      Pieces.push_back(std::move(P));
      Cur = Next;
    }
  }
  std::stable_sort(Pieces.begin(), Pieces.end(), [](const Piece &A, const Piece &B) {
    if (A.Busy != B.Busy)
      return !A.Busy;
    if (A.Busy)
      return A.Key < B.Key; // the earliest-submitted users finish first
    if (A.Key != B.Key)
      return A.Key > B.Key; // next use farthest away first
    return A.Last < B.Last;
  });

  std::vector<Victim> Out;
  uint64_t Got = 0;
  for (Piece &P : Pieces) {
    if (Got >= Need)
      break;
    Range R = P.R;
    uint64_t Want = Need - Got;
    if (R.size() > Want) {
      // Take a granule-rounded prefix: enough, not the whole piece.
      uint64_t Len = (Want + Granule - 1) / Granule * Granule;
      if (Len < R.size())
        R.Hi = R.Lo + Len;
    }
    Got += R.size();
    Out.push_back({R, std::move(P.Users)});
  }
  return Out;
}

} // namespace rt
} // namespace gmem

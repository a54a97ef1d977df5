// Which of a persistent kernel's two preemptible clones a launch uses.
//
// For kernel K with loop checkpoints the gmem pass may emit, next to the
// full persistent clone __gmem_pre_<K>, a light twin __gmem_prl_<K> (info
// flag PreHasLight): same parameters and control block protocol, but no
// checks inside loops, so it stops only between virtual CTAs. The loop
// checks can double the steady-state time of kernels whose CTAs are short
// anyway; for those the light clone's preemption latency (about one virtual
// CTA's run time, tau) is as good, and it runs at full speed. The goal is a
// P99 preemption latency of 10 us with about 6 us of signalling floor: the
// light clone is used where tau <= LightMaxUs (3 us by default).
//
// tau depends on the launch (grid, block, shared memory, arguments), so the
// choice is made per launch shape: the first launch of a shape runs the
// full clone and is timed; its tau decides. Light launches are re-timed now
// and then (a shape turned slow goes back to full), full ones too (a shape
// turned fast gets the light clone). Only timings of launches that ran
// undisturbed count: a preempted launch's time says nothing about tau.
//
// Pure logic, no driver: the scheduler feeds it shape keys and timings
// (under the context's lock).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gmem {
namespace rt {
namespace sched {

enum class CloneKind : uint8_t { Full, Light };

/// How one launch of a shape is made.
struct CloneChoice {
  CloneKind Kind = CloneKind::Full;
  bool Timed = false; ///< record its run time (EvStart .. EvDrain) for record()
};

struct ChooserOptions {
  double LightMaxUs = 3.0;        ///< tau up to which a shape runs light
  unsigned LightTimingEvery = 16; ///< light launches: the first and every 16th timed
  unsigned FullTimingEvery = 64;  ///< full launches of a decided shape: every 64th timed
};

class CloneChooser {
public:
  enum class State : uint8_t { Unknown, Full, Light };
  /// Shapes remembered per clone; beyond, the oldest slot is reused (round
  /// robin): programs launch few shapes, and a forgotten one only costs a
  /// timed full launch.
  static constexpr size_t MaxShapes = 64;

  /// What a timing did to its shape.
  struct Outcome {
    bool Used = false; ///< the shape is still known (else the sample is dropped)
    double TauUs = 0;
    State From = State::Unknown, To = State::Unknown;
    /// Whether the shape's launches now use the other clone (a shape not
    /// yet decided runs full: deciding Full changes nothing).
    bool switched() const { return Used && (From == State::Light) != (To == State::Light); }
  };

  explicit CloneChooser(ChooserOptions O = ChooserOptions()) : Opts(O) {}

  /// The clone for the next launch of shape Key (counts the launch).
  CloneChoice choose(uint64_t Key);
  /// A timed launch of shape Key, made with Kind, ran ElapsedUs without
  /// being preempted, over Total virtual CTAs on P persistent CTAs.
  Outcome record(uint64_t Key, CloneKind Kind, double ElapsedUs, uint64_t Total, uint64_t P);

  /// Shape Key's state (Unknown when not remembered).
  State state(uint64_t Key) const;
  size_t shapes() const { return Entries.size(); }
  const ChooserOptions &options() const { return Opts; }

  /// One virtual CTA's run time: the launch's time over its rounds
  /// (ceil(Total / P): the virtual CTAs one persistent CTA runs in turn).
  static double tauUs(double ElapsedUs, uint64_t Total, uint64_t P);
  static const char *name(State S);

private:
  struct Entry {
    uint64_t Key = 0;
    State St = State::Unknown;
    uint32_t Launches = 0; ///< since the shape entered St
  };
  ChooserOptions Opts;
  std::vector<Entry> Entries;
  size_t Next = 0; ///< the entry replaced when full
  size_t Last = 0; ///< the entry found last (programs repeat one shape)

  Entry *find(uint64_t Key);
  void enter(Entry &E, State S);
};

} // namespace sched
} // namespace rt
} // namespace gmem

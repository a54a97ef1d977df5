// The simulated GPU's jobs, its ABI checks, and one instance of a
// persistent clone (gmem_ctl ABI version 2, flag Persistent), for
// FakeSchedDriver.h.
//
// A persistent clone is launched with grid (P, 1, 1). Its control block:
//   word 0 request, word 1 reserved (stays 0), then per persistent CTA p
//   W[2 + 2p] redo   (virtual CTA + 1 to run again first; 0: none)
//   W[3 + 2p] resume (next virtual CTA of its own + 1; 0: never ran, start at p)
// CTA p runs virtual CTAs p, p + P, p + 2P, ... below total = gx * gy * gz.
// At entry, while request != 0, it leaves and changes nothing; otherwise it
// runs redo - 1 first (clearing the redo word), then goes on at resume - 1
// (p when resume is 0), stepping by P. Between virtual CTAs, while request
// != 0, it stops and writes redo = current + 1 where a loop checkpoint cut
// the current one (the compiled clone ORs its threads' abort flags; the
// request word itself may already be reset by a relaunch), else 0, and
// resume = next + 1. A CTA that runs out of
// virtual CTAs writes redo = 0, resume = total + 1, so that a later relaunch
// runs nothing twice.
//
// A barrier-free clone (Free) stops the same way but never writes redo: its
// resume word is the first virtual CTA some thread of the CTA has not
// finished, here always the current one (a thread that lagged behind), so a
// relaunch runs it again even when it had finished. Allowed under request 2
// (idempotent launches); a free clone stopped with request 1 is an ABI
// violation (FreeRequest1).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gmem {
namespace rt {
namespace sched {
namespace test {

/// Every launch of an original kernel, and every clone launch with a new
/// control block: its (virtual) CTAs' completions and cuts.
struct FakeJob {
  std::string Kernel;
  uint64_t Ctl = 0;
  bool Persistent = false;
  std::vector<unsigned> Completed, Running, Cut;
  /// Persistent: completions of a virtual CTA that had finished already and
  /// was run again by a barrier-free clone's relaunch (allowed: only
  /// idempotent launches run it).
  std::vector<unsigned> Reruns;
  /// Persistent: barrier-free stops on a virtual CTA that had finished
  /// (each allows one rerun).
  std::vector<unsigned> RerunsAllowed;
  std::vector<int> RunBy; ///< persistent: the CTA that last started each virtual CTA
  uint64_t FirstStartStep = 0, LastCompleteStep = 0;
  unsigned LaunchGrid = 0; ///< CTAs of the first instance (a persistent clone's P)

  bool complete() const {
    for (unsigned C : Completed)
      if (C == 0)
        return false;
    return true;
  }
  /// The most completions of one (virtual) CTA, allowed reruns not counted.
  unsigned maxCompletions() const {
    unsigned M = 0;
    for (size_t I = 0; I < Completed.size(); ++I) {
      const unsigned C = Completed[I] - (I < Reruns.size() ? Reruns[I] : 0);
      M = C > M ? C : M;
    }
    return M;
  }
  unsigned cuts() const { return sum(Cut); }
  unsigned reruns() const { return sum(Reruns); }

private:
  static unsigned sum(const std::vector<unsigned> &V) {
    unsigned N = 0;
    for (unsigned X : V)
      N += X;
    return N;
  }
};

/// ABI violations seen by the simulated GPU.
struct FakeAbiChecks {
  unsigned Overlaps = 0;          ///< a CTA of a job started while another instance of it ran
  unsigned GridArgMismatches = 0; ///< an ordinary clone's grid arguments != its grid
  unsigned PChanges = 0;          ///< a persistent relaunch with another P
  unsigned FunctionChanges = 0;   ///< a relaunch of another function (full / light clone)
  unsigned CtlTooSmall = 0;       ///< redo/resume words (and hold) beyond the zeroed block
  /// A virtual CTA of a persistent clone finished again where no stop of a
  /// barrier-free clone allowed it (a redo of a finished one, a resume word
  /// behind).
  unsigned DoubleRuns = 0;
  /// Virtual CTAs a persistent CTA never finished although it ran out of
  /// its own (a redo or resume word lost or skipped ahead).
  unsigned LostVirtualCtas = 0;
  /// A barrier-free clone asked to stop with request 1 (its stops rerun
  /// work: the runtime must use it for idempotent launches only, request 2).
  unsigned FreeRequest1 = 0;
};

/// One instance of a persistent clone on the simulated GPU: its P CTAs take
/// one step each in turn, a virtual CTA taking Iters steps.
class FakePersistentClone {
public:
  using Memory = std::map<uint64_t, uint32_t>; ///< device memory, 32-bit words

  static uint64_t redoWord(uint64_t Ctl, unsigned P) { return Ctl + 8 + 8ull * P; }
  static uint64_t resumeWord(uint64_t Ctl, unsigned P) { return redoWord(Ctl, P) + 4; }

  FakePersistentClone(uint64_t Ctl, unsigned P, uint64_t Total, bool Free = false)
      : Ctl(Ctl), P(P), Total(Total), Free(Free), Ctas(P) {}

  /// One step of the next CTA still running; true when every CTA has left.
  bool step(Memory &W, FakeJob &J, unsigned Iters, bool LoopCheckpoints, uint64_t Clock,
            FakeAbiChecks &Bad) {
    for (unsigned Tries = 0; Tries < P; ++Tries) {
      const unsigned Id = Turn;
      Turn = (Turn + 1) % P;
      Cta &C = Ctas[Id];
      if (C.Left)
        continue;
      if (!C.Entered) {
        C.Entered = true;
        if (word(W, Ctl) != 0) { // a stop at entry: nothing changes
          C.Left = true;
          continue;
        }
        const uint32_t Redo = word(W, redoWord(Ctl, Id)), Resume = word(W, resumeWord(Ctl, Id));
        const uint64_t Start = Resume ? Resume - 1 : Id;
        if (Redo) {
          C.V = Redo - 1;
          C.Next = Start;
          W[redoWord(Ctl, Id)] = 0;
        } else {
          C.V = Start;
          C.Next = Start + P;
        }
        if (C.V >= Total) {
          finish(W, J, Id, Bad);
          continue;
        }
      }
      if (!C.InV) { // starts C.V
        C.InV = true;
        C.Iter = 0;
        if (++J.Running[C.V] > 1)
          ++Bad.Overlaps;
        J.RunBy[C.V] = int(Id);
        if (!J.FirstStartStep)
          J.FirstStartStep = Clock;
      }
      ++C.Iter;
      bool WasCut = false;
      if (C.Iter >= Iters) {
        if (J.Completed[C.V] > 0) {
          if (J.RerunsAllowed[C.V] > 0) {
            --J.RerunsAllowed[C.V];
            ++J.Reruns[C.V];
          } else {
            ++Bad.DoubleRuns;
          }
        }
        ++J.Completed[C.V];
        J.LastCompleteStep = Clock;
      } else if (LoopCheckpoints && word(W, Ctl) == 2) {
        ++J.Cut[C.V];
        WasCut = true;
      } else {
        return false;
      }
      --J.Running[C.V];
      C.InV = false;
      // Between virtual CTAs.
      if (const uint32_t R = word(W, Ctl)) {
        if (Free) {
          W[resumeWord(Ctl, Id)] = uint32_t(C.V + 1); // the slowest thread's
          Bad.FreeRequest1 += R == 1;
        } else {
          W[redoWord(Ctl, Id)] = WasCut ? uint32_t(C.V + 1) : 0;
          W[resumeWord(Ctl, Id)] = uint32_t(C.Next + 1);
        }
        if (Free && J.Completed[C.V] > 0)
          ++J.RerunsAllowed[C.V];
        C.Left = true;
        return false;
      }
      C.V = C.Next;
      C.Next += P;
      if (C.V >= Total)
        finish(W, J, Id, Bad);
      return false; // the next turn starts the next virtual CTA
    }
    return true;
  }

private:
  struct Cta {
    bool Entered = false, Left = false, InV = false;
    uint64_t V = 0, Next = 0; ///< the current virtual CTA and the following one of its own
    unsigned Iter = 0;
  };
  uint64_t Ctl;
  unsigned P;
  uint64_t Total;
  bool Free;
  std::vector<Cta> Ctas;
  unsigned Turn = 0;

  static uint32_t word(const Memory &W, uint64_t A) {
    auto It = W.find(A);
    return It == W.end() ? 0 : It->second;
  }
  /// CTA Id ran out of virtual CTAs: every one of its own must have run.
  void finish(Memory &W, FakeJob &J, unsigned Id, FakeAbiChecks &Bad) {
    W[redoWord(Ctl, Id)] = 0;
    W[resumeWord(Ctl, Id)] = uint32_t(Total + 1);
    for (uint64_t V = Id; V < Total; V += P)
      Bad.LostVirtualCtas += J.Completed[V] == 0;
    Ctas[Id].Left = true;
  }
};

} // namespace test
} // namespace sched
} // namespace rt
} // namespace gmem

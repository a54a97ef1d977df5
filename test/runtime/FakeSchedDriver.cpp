// FakeSchedDriver's longer members (FakeSchedDriver.h), out of the header
// that every scheduler test includes: the simulated GPU at work (step()
// advances each stream's head operation, runs kernels and clones CTA by
// CTA, and holds first launches back under FirstLaunchBarriers) and a
// clone launch read as the gmem_ctl ABI lays out its parameters. Apart
// from the header so that each file stays under ~600 lines.
#include "FakeSchedDriver.h"

#include <cstring>
#include <string>

namespace gmem {
namespace rt {
namespace sched {
namespace test {

bool FakeSchedDriver::step() {
  bool Moved = false;
  for (CUstream S : Order)
    Moved |= advance(Streams[S]);
  ++Clock;
  return Moved;
}

bool FakeSchedDriver::barred(const Stream &S, const Op &O) const {
  if (!FirstLaunchBarriers)
    return false;
  for (const auto &KV : Streams) {
    if (&KV.second == &S)
      continue;
    for (const Op &X : KV.second.Q) {
      if (X.Seq > O.Seq)
        break;
      if (O.Barrier || X.Barrier)
        return true;
    }
  }
  return false;
}

bool FakeSchedDriver::advance(Stream &S) {
  if (S.Q.empty())
    return false;
  Op &O = S.Q.front();
  if (barred(S, O))
    return false;
  switch (O.K) {
  case Op::Memset:
    for (size_t I = 0; I < O.Count; ++I)
      Words[O.Addr + 4 * I] = O.Value;
    JobOfCtl.erase(O.Addr); // a fresh control block: the next clone launch is a new job
    break;
  case Op::WaitEq:
    if (word(O.Addr) != O.Value)
      return false;
    break;
  case Op::WaitGeq:
    if (int32_t(word(O.Addr) - O.Value) < 0)
      return false;
    break;
  case Op::Write:
    if (uint32_t *H = hostWord(O.Addr))
      __atomic_store_n(H, O.Value, __ATOMIC_RELEASE);
    else
      Words[O.Addr] = O.Value;
    break;
  case Op::WaitEvent:
    if (Events[O.Ev].Completed < O.Gen)
      return false;
    break;
  case Op::Record:
    Events[O.Ev].Completed = O.Gen;
    Events[O.Ev].Time = Clock;
    break;
  case Op::Marker:
    Markers[O.Name] = Clock;
    break;
  case Op::Launch:
    if (!runKernel(O))
      return true; // progressed, not finished
    break;
  }
  S.Q.pop_front();
  return true;
}

bool FakeSchedDriver::runKernel(Op &O) {
  const Kernel &K = Kernels[uintptr_t(O.F)];
  const unsigned Ctas = O.Persistent ? O.Total : O.Grid;
  if (O.JobId < 0) {
    if (K.IsClone && JobOfCtl.count(O.Ctl) && Jobs[JobOfCtl[O.Ctl]].Completed.size() == Ctas) {
      O.JobId = JobOfCtl[O.Ctl]; // a relaunch with the same control block
      PChanges += O.Persistent && Jobs[O.JobId].LaunchGrid != O.Grid;
      FunctionChanges += Jobs[O.JobId].Kernel != K.Name;
    } else {
      Jobs.push_back(Job());
      Job &J = Jobs.back();
      J.Kernel = K.Name;
      J.Ctl = O.Ctl;
      J.Persistent = O.Persistent;
      J.LaunchGrid = O.Grid;
      J.Completed.assign(Ctas, 0);
      J.Running.assign(Ctas, 0);
      J.Cut.assign(Ctas, 0);
      if (O.Persistent) {
        J.Reruns.assign(Ctas, 0);
        J.RerunsAllowed.assign(Ctas, 0);
        J.RunBy.assign(Ctas, -1);
      }
      O.JobId = int(Jobs.size() - 1);
      if (K.IsClone)
        JobOfCtl[O.Ctl] = O.JobId;
    }
  }
  Job &J = Jobs[O.JobId];
  if (O.Persistent) {
    if (!O.Pers)
      O.Pers.emplace(O.Ctl, O.Grid, O.Total, K.Free);
    return O.Pers->step(Words, J, K.Iters, K.LoopCheckpoints, Clock, *this);
  }
  auto Done = [&](unsigned C) { return (word(O.Ctl + 8 + 4 * (C / 32)) >> (C % 32)) & 1; };
  while (!O.InCta) {
    if (O.Cta >= O.Grid)
      return true;
    if (K.IsClone && (word(O.Ctl) != 0 || Done(O.Cta))) {
      ++O.Cta; // returns at entry
      continue;
    }
    O.InCta = true;
    O.Iter = 0;
    if (++J.Running[O.Cta] > 1)
      ++Overlaps;
    if (!J.FirstStartStep)
      J.FirstStartStep = Clock;
  }
  ++O.Iter;
  if (O.Iter >= K.Iters) {
    ++J.Completed[O.Cta];
    J.LastCompleteStep = Clock;
    if (K.IsClone)
      Words[O.Ctl + 8 + 4 * (O.Cta / 32)] |= 1u << (O.Cta % 32);
  } else if (K.IsClone && K.LoopCheckpoints && word(O.Ctl) == 2) {
    ++J.Cut[O.Cta];
  } else {
    return false;
  }
  --J.Running[O.Cta];
  O.InCta = false;
  ++O.Cta;
  return false; // the next step starts the next CTA (or finishes)
}

CUresult FakeSchedDriver::launch(const KernelLaunch &K) {
  auto It = Kernels.find(uintptr_t(K.F));
  if (It == Kernels.end())
    return CUDA_ERROR_INVALID_HANDLE;
  if (FailCloneLaunches && It->second.IsClone)
    return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  if (OnCloneLaunch && It->second.IsClone)
    OnCloneLaunch(); // (the launch call in progress: a stall in the driver, say)
  Op O;
  O.K = Op::Launch;
  O.F = K.F;
  O.Grid = K.Grid[0] * K.Grid[1] * K.Grid[2];
  if (It->second.IsClone) {
    // The buffer ends with ctl, grid_x, grid_y, grid_z at the offsets
    // the clone's parameter layout gives.
    const char *Buf = nullptr;
    size_t Size = 0;
    for (size_t I = 0; K.Extra && K.Extra[I] != CU_LAUNCH_PARAM_END; I += 2) {
      if (K.Extra[I] == CU_LAUNCH_PARAM_BUFFER_POINTER)
        Buf = static_cast<const char *>(K.Extra[I + 1]);
      if (K.Extra[I] == CU_LAUNCH_PARAM_BUFFER_SIZE)
        Size = *static_cast<const size_t *>(K.Extra[I + 1]);
    }
    const size_t NP = It->second.ParamSizes.size();
    size_t Off[4] = {}, Sz = 0;
    for (size_t I = 0; I < 4 && NP >= 4; ++I)
      funcGetParamInfo(K.F, NP - 4 + I, &Off[I], &Sz);
    if (!Buf || NP < 4 || Size != Off[3] + 4)
      return CUDA_ERROR_INVALID_VALUE;
    CloneLaunch CL;
    CL.Name = It->second.Name;
    std::memcpy(&O.Ctl, Buf + Off[0], 8);
    for (int I = 0; I < 3; ++I) {
      std::memcpy(&CL.UserGrid[I], Buf + Off[1 + I], 4);
      CL.Grid[I] = K.Grid[I];
      CL.Block[I] = K.Block[I];
    }
    CL.Shmem = K.Shmem;
    CL.Ctl = O.Ctl;
    CL.Args.assign(Buf, Buf + Size);
    CloneLaunches.push_back(CL);
    LastCloneArgs = CL.Args;
    O.Persistent = It->second.Persistent;
    if (O.Persistent) {
      // Every persistent form masks grid_z (a batch interval, a segment
      // scale in its high bits).
      CL.Scale = (CL.UserGrid[2] >> 24) & 3;
      CL.UserGrid[2] &= 0xffff;
      CloneLaunches.back().UserGrid[2] = CL.UserGrid[2];
      CloneLaunches.back().Scale = CL.Scale;
      O.Total = CL.UserGrid[0] * CL.UserGrid[1] * CL.UserGrid[2];
      auto M = MemsetWords.find(O.Ctl);
      if (M == MemsetWords.end() || M->second < 2 + 2 * size_t(O.Grid) + 1)
        ++CtlTooSmall;
    } else {
      O.Total = O.Grid;
      for (int I = 0; I < 3; ++I)
        GridArgMismatches += CL.UserGrid[I] != K.Grid[I];
    }
  }
  logCall(std::string("launch ") + name(K.Stream) + " " + It->second.Name);
  O.Barrier = firstLaunch(K.F);
  push(K.Stream, O);
  return CUDA_SUCCESS;
}

CUresult FakeSchedDriver::funcGetParamInfo(CUfunction F, size_t I, size_t *Off, size_t *Size) {
  auto It = Kernels.find(uintptr_t(F));
  if (It == Kernels.end())
    return CUDA_ERROR_INVALID_HANDLE;
  const auto &S = It->second.ParamSizes;
  if (I >= S.size())
    return CUDA_ERROR_INVALID_VALUE;
  size_t O = 0;
  for (size_t K = 0;; ++K) {
    size_t A = S[K] >= 8 ? 8 : S[K] ? S[K] : 1;
    O = (O + A - 1) / A * A;
    if (K == I)
      break;
    O += S[K];
  }
  *Off = O;
  *Size = S[I];
  return CUDA_SUCCESS;
}

} // namespace test
} // namespace sched
} // namespace rt
} // namespace gmem

// A context's set-up for the scheduler: its control stream, the gates and
// the timing latch (SchedLatch.cpp), checked once against the device.
#include "Scheduler.h"

namespace gmem {
namespace rt {
namespace sched {

bool Scheduler::initContext(Context &C) {
  if (D.ctxGetStreamPriorityRange(&C.PrioLeast, &C.PrioGreatest) != CUDA_SUCCESS)
    C.PrioLeast = C.PrioGreatest = 0;
  CUresult R = D.streamCreate(&C.Ctrl, CU_STREAM_NON_BLOCKING, C.PrioGreatest);
  if (R == CUDA_SUCCESS)
    R = D.memAlloc(&C.Gates, NumLevels * sizeof(uint32_t));
  // The gates start open; one write and one wait prove that the device
  // takes stream memory operations at all.
  if (R == CUDA_SUCCESS)
    R = D.memsetD32Async(C.Gates, 0, NumLevels, C.Ctrl);
  if (R == CUDA_SUCCESS)
    R = D.streamWrite(C.Ctrl, C.Gates, 0);
  if (R == CUDA_SUCCESS)
    R = D.streamWaitEq(C.Ctrl, C.Gates, 0);
  if (R == CUDA_SUCCESS)
    R = D.streamSynchronize(C.Ctrl);
  if (R != CUDA_SUCCESS) {
    error("cannot set up context %llu (error %d); its launches pass through", C.Id, int(R));
    return false;
  }
  // The timing latch's counter, at 0, in pinned host memory; one wait
  // proves the device takes waits on it. Without it no timing is latched.
  void *Host = nullptr;
  if (Opts.LatchIdleTimings) {
    if (D.memHostAllocMapped(&Host, &C.LatchDev, sizeof(uint32_t)) == CUDA_SUCCESS) {
      __atomic_store_n(static_cast<uint32_t *>(Host), 0u, __ATOMIC_RELEASE);
      if (D.streamWaitGeq(C.Ctrl, C.LatchDev, 0) == CUDA_SUCCESS &&
          D.streamSynchronize(C.Ctrl) == CUDA_SUCCESS)
        C.LatchHost = static_cast<uint32_t *>(Host);
    }
    if (!C.LatchHost)
      log("context %llu: no timing latch (pinned host memory or a wait on it refused)", C.Id);
  }
  C.Pool.reset(new SlotPool(D, Opts.MaxSlots));
  // Blocks' zeroing told by a host counter, not events (HostCounters.h);
  // events where the driver refuses it.
  if (C.Counters.init(D, C.Ctrl))
    C.Pool->useCounters(&C.Counters);
  else
    log("context %llu: no host counters (mapped pinned memory or a stream write to it refused); "
        "events instead",
        C.Id);
  C.View.ResumeLingerNs = Opts.ResumeLingerNs;
  C.View.ShareWindowNs = Opts.ShareWindowNs;
  log("context %llu ready: control stream priority %d, relaunch priority %d", C.Id, C.PrioGreatest,
      C.PrioLeast);
  return true;
}

} // namespace sched
} // namespace rt
} // namespace gmem

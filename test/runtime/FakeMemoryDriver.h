// A recording fake of gmem::rt::MemoryDriver: managed allocations are a
// table, and every prefetch, advice, stream wait and event is logged so that
// tests can assert what the memory side asked the driver to do and in which
// order.
#pragma once

#include "MemoryDriver.h"

#include <map>
#include <string>
#include <vector>

namespace gmem {
namespace rt {
namespace test {

class FakeMemoryDriver : public MemoryDriver {
public:
  struct Op {
    std::string Kind; ///< "prefetch", "advise", "discard", "wait", "record"
    uint64_t Lo = 0, Bytes = 0;
    CUdevice Device = 0;
    uintptr_t Stream = 0, Event = 0;
    int Advice = 0;
  };
  std::map<uint64_t, uint64_t> Managed; ///< base -> size
  std::vector<Op> Ops;
  std::map<uintptr_t, bool> EventDone; ///< event -> complete
  bool Capturing = false, DiscardSupported = true;
  uintptr_t NextHandle = 0x1000;
  uint64_t NextAlloc = 0x7e0000000000ull + 0x1000; ///< deliberately not 2 MiB-aligned
  int AllocCalls = 0, FreeCalls = 0;

  uint64_t addManaged(uint64_t Base, uint64_t Size) {
    Managed[Base] = Size;
    return Base;
  }
  int isManaged(uint64_t Ptr) override {
    auto It = Managed.upper_bound(Ptr);
    if (It == Managed.begin())
      return 0;
    --It;
    return Ptr - It->first < It->second ? 1 : 0;
  }
  CUresult ctxGetCurrent(CUcontext *C) override {
    *C = reinterpret_cast<CUcontext>(uintptr_t(0xc0));
    return CUDA_SUCCESS;
  }
  CUresult ctxGetDevice(CUdevice *D) override {
    *D = 0;
    return CUDA_SUCCESS;
  }
  /// Like the driver: a range must lie inside one managed allocation.
  bool insideOne(uint64_t Ptr, uint64_t Bytes) const {
    auto It = Managed.upper_bound(Ptr);
    if (It == Managed.begin())
      return false;
    --It;
    return Ptr >= It->first && Ptr + Bytes <= It->first + It->second;
  }
  CUresult prefetch(uint64_t Ptr, uint64_t Bytes, CUdevice Device, CUstream S) override {
    if (!insideOne(Ptr, Bytes))
      return CUDA_ERROR_INVALID_VALUE;
    Ops.push_back({"prefetch", Ptr, Bytes, Device, uintptr_t(S), 0, 0});
    return CUDA_SUCCESS;
  }
  CUresult advise(uint64_t Ptr, uint64_t Bytes, CUmem_advise A, CUdevice Device) override {
    if (!insideOne(Ptr, Bytes))
      return CUDA_ERROR_INVALID_VALUE;
    Ops.push_back({"advise", Ptr, Bytes, Device, 0, 0, int(A)});
    return CUDA_SUCCESS;
  }
  CUresult discard(uint64_t Ptr, uint64_t Bytes, CUstream S) override {
    if (!DiscardSupported)
      return CUDA_ERROR_NOT_SUPPORTED;
    Ops.push_back({"discard", Ptr, Bytes, 0, uintptr_t(S), 0, 0});
    return CUDA_SUCCESS;
  }
  CUresult streamCreate(CUstream *S) override {
    *S = reinterpret_cast<CUstream>(NextHandle++);
    return CUDA_SUCCESS;
  }
  CUresult streamIsCapturing(CUstream, bool *C) override {
    *C = Capturing;
    return CUDA_SUCCESS;
  }
  CUresult streamWaitEvent(CUstream S, CUevent E) override {
    Ops.push_back({"wait", 0, 0, 0, uintptr_t(S), uintptr_t(E), 0});
    return CUDA_SUCCESS;
  }
  CUresult eventCreate(CUevent *E) override {
    *E = reinterpret_cast<CUevent>(NextHandle++);
    EventDone[uintptr_t(*E)] = false;
    return CUDA_SUCCESS;
  }
  CUresult eventRecord(CUevent E, CUstream S) override {
    Ops.push_back({"record", 0, 0, 0, uintptr_t(S), uintptr_t(E), 0});
    EventDone[uintptr_t(E)] = false;
    return CUDA_SUCCESS;
  }
  CUresult eventQuery(CUevent E) override {
    return EventDone[uintptr_t(E)] ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
  }
  CUresult eventDestroy(CUevent) override { return CUDA_SUCCESS; }
  CUresult memAllocManaged(uint64_t *Ptr, uint64_t Bytes) override {
    ++AllocCalls;
    *Ptr = NextAlloc;
    Managed[NextAlloc] = Bytes;
    NextAlloc += (Bytes + (4ull << 20)) / (2ull << 20) * (2ull << 20) + 0x1000;
    return CUDA_SUCCESS;
  }
  CUresult memFree(uint64_t Ptr) override {
    ++FreeCalls;
    return Managed.erase(Ptr) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
  }
  CUresult memGetInfo(size_t *Free, size_t *Total) override {
    *Free = *Total = size_t(80) << 30;
    return CUDA_SUCCESS;
  }

  void completeAllEvents() {
    for (auto &[E, Done] : EventDone)
      Done = true;
  }
  std::vector<Op> ops(const std::string &Kind) const {
    std::vector<Op> Out;
    for (const Op &O : Ops)
      if (O.Kind == Kind)
        Out.push_back(O);
    return Out;
  }
};

} // namespace test
} // namespace rt
} // namespace gmem

// CUPTI unified-memory counter: see um_counter.h.
#include "um_counter.h"

#include <cupti.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

namespace pf {
namespace {

struct Cupti {
  decltype(&cuptiActivityConfigureUnifiedMemoryCounter) Configure = nullptr;
  decltype(&cuptiActivityRegisterCallbacks) Register = nullptr;
  decltype(&cuptiActivityEnable) Enable = nullptr;
  decltype(&cuptiActivityFlushAll) FlushAll = nullptr;
  decltype(&cuptiActivityGetNextRecord) NextRecord = nullptr;
  decltype(&cuptiActivityGetNumDroppedRecords) Dropped = nullptr;
  decltype(&cuptiGetTimestamp) Timestamp = nullptr;
  decltype(&cuptiGetResultString) ResultString = nullptr;
};

struct Region {
  uint64_t Start = 0, End = UINT64_MAX; ///< CUPTI timestamps, End open until end()
  UmCounts Counts;
};

Cupti Api;
bool Active = false;
std::string Error;
std::mutex Lock; ///< guards Regions and DroppedTotal (buffers complete on CUPTI's thread)
std::vector<Region> Regions;
uint64_t DroppedTotal = 0;
constexpr size_t BufferBytes = 8 << 20;

template <class T> bool load(void *Lib, const char *Name, T &Slot) {
  Slot = reinterpret_cast<T>(dlsym(Lib, Name));
  return Slot != nullptr;
}

const char *resultName(CUptiResult R) {
  const char *S = nullptr;
  if (Api.ResultString)
    Api.ResultString(R, &S);
  return S ? S : "unknown CUPTI error";
}

void CUPTIAPI bufferRequested(uint8_t **Buffer, size_t *Size, size_t *MaxRecords) {
  *Buffer = static_cast<uint8_t *>(std::aligned_alloc(8, BufferBytes));
  *Size = *Buffer ? BufferBytes : 0;
  *MaxRecords = 0;
}

void account(UmCounts &C, const CUpti_ActivityUnifiedMemoryCounter3 &R) {
  ++C.Records;
  switch (R.counterKind) {
  case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT:
    ++C.GpuFaultRecords;
    C.GpuFaults += R.value ? R.value : 1;
    break;
  case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT:
    ++C.CpuFaults;
    break;
  case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD:
    C.HtoDBytes += R.value;
    if (R.flags == CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_USER)
      C.HtoDUserBytes += R.value;
    else if (R.flags == CUPTI_ACTIVITY_UNIFIED_MEMORY_MIGRATION_CAUSE_COHERENCE)
      C.HtoDCoherenceBytes += R.value;
    else
      C.HtoDOtherBytes += R.value;
    break;
  case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH:
    C.DtoHBytes += R.value;
    break;
  case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING:
    ++C.Thrashing;
    break;
  case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING:
    ++C.Throttling;
    break;
  case CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_REMOTE_MAP:
    ++C.RemoteMaps;
    break;
  default:
    break;
  }
}

void CUPTIAPI bufferCompleted(CUcontext Ctx, uint32_t Stream, uint8_t *Buffer, size_t, size_t Valid) {
  std::lock_guard<std::mutex> G(Lock);
  CUpti_Activity *Rec = nullptr;
  while (Api.NextRecord(Buffer, Valid, &Rec) == CUPTI_SUCCESS) {
    if (Rec->kind != CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER)
      continue;
    const auto &U = *reinterpret_cast<const CUpti_ActivityUnifiedMemoryCounter3 *>(Rec);
    // The latest region that had started by then (regions do not overlap).
    for (size_t I = Regions.size(); I-- > 0;) {
      if (U.start >= Regions[I].Start) {
        if (U.start <= Regions[I].End)
          account(Regions[I].Counts, U);
        break;
      }
    }
  }
  size_t Dropped = 0;
  if (Api.Dropped && Api.Dropped(Ctx, Stream, &Dropped) == CUPTI_SUCCESS)
    DroppedTotal += Dropped;
  std::free(Buffer);
}

bool fail(const std::string &Why) {
  Error = Why;
  std::fprintf(stderr, "um_counter: %s\n", Why.c_str());
  return false;
}

} // namespace

bool UmCounter::init() {
  const char *Want = std::getenv("PF_CUPTI");
  if (!Want || std::strcmp(Want, "1") != 0)
    return false;
  void *Lib = dlopen("libcupti.so.13", RTLD_NOW | RTLD_GLOBAL);
  if (!Lib)
    Lib = dlopen("libcupti.so", RTLD_NOW | RTLD_GLOBAL);
  if (!Lib)
    return fail(std::string("cannot load libcupti: ") + dlerror());
  if (!load(Lib, "cuptiActivityConfigureUnifiedMemoryCounter", Api.Configure) ||
      !load(Lib, "cuptiActivityRegisterCallbacks", Api.Register) || !load(Lib, "cuptiActivityEnable", Api.Enable) ||
      !load(Lib, "cuptiActivityFlushAll", Api.FlushAll) ||
      !load(Lib, "cuptiActivityGetNextRecord", Api.NextRecord) || !load(Lib, "cuptiGetTimestamp", Api.Timestamp))
    return fail("libcupti lacks an activity entry point");
  load(Lib, "cuptiActivityGetNumDroppedRecords", Api.Dropped);
  load(Lib, "cuptiGetResultString", Api.ResultString);

  CUptiResult R = Api.Register(bufferRequested, bufferCompleted);
  if (R != CUPTI_SUCCESS)
    return fail(std::string("cuptiActivityRegisterCallbacks: ") + resultName(R));
  const CUpti_ActivityUnifiedMemoryCounterKind Kinds[] = {
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_HTOD,
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_BYTES_TRANSFER_DTOH,
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_CPU_PAGE_FAULT_COUNT,
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_GPU_PAGE_FAULT,
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THRASHING,
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_THROTTLING,
      CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_KIND_REMOTE_MAP};
  std::vector<CUpti_ActivityUnifiedMemoryCounterConfig> Config;
  for (auto K : Kinds) {
    CUpti_ActivityUnifiedMemoryCounterConfig C{};
    C.scope = CUPTI_ACTIVITY_UNIFIED_MEMORY_COUNTER_SCOPE_PROCESS_SINGLE_DEVICE;
    C.kind = K;
    C.deviceId = 0;
    C.enable = 1;
    Config.push_back(C);
  }
  R = Api.Configure(Config.data(), (uint32_t)Config.size());
  if (R != CUPTI_SUCCESS)
    return fail(std::string("cuptiActivityConfigureUnifiedMemoryCounter: ") + resultName(R));
  R = Api.Enable(CUPTI_ACTIVITY_KIND_UNIFIED_MEMORY_COUNTER);
  if (R != CUPTI_SUCCESS)
    return fail(std::string("cuptiActivityEnable(UNIFIED_MEMORY_COUNTER): ") + resultName(R));
  Active = true;
  return true;
}

bool UmCounter::active() { return Active; }

int UmCounter::begin(const std::string &) {
  if (!Active)
    return -1;
  uint64_t T = 0;
  Api.Timestamp(&T);
  std::lock_guard<std::mutex> G(Lock);
  if (!Regions.empty() && Regions.back().End == UINT64_MAX)
    Regions.back().End = T; // an unclosed region ends where the next begins
  Region Rg;
  Rg.Start = T;
  Regions.push_back(Rg);
  return (int)Regions.size() - 1;
}

void UmCounter::end(int Id) {
  if (!Active || Id < 0)
    return;
  uint64_t T = 0;
  Api.Timestamp(&T);
  std::lock_guard<std::mutex> G(Lock);
  Regions[Id].End = T;
}

void UmCounter::flush() {
  if (Active)
    Api.FlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}

UmCounts UmCounter::counts(int Id) {
  std::lock_guard<std::mutex> G(Lock);
  return Id >= 0 && Id < (int)Regions.size() ? Regions[Id].Counts : UmCounts{};
}

uint64_t UmCounter::dropped() {
  std::lock_guard<std::mutex> G(Lock);
  return DroppedTotal;
}

const std::string &UmCounter::error() { return Error; }

} // namespace pf

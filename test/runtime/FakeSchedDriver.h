// A simulated GPU behind the scheduler's driver interface
// (gmem::rt::sched::SchedDriver), for unit tests of gating, preemption,
// relaunch and stream order.
//
// Streams are FIFO queues of operations (memset, 32-bit wait/write, event
// record/wait, kernel, marker); step() advances the head of every stream by
// one unit, in stream creation order. A kernel runs its CTAs one after the
// other, each taking Iters steps. A clone (a kernel with IsClone) follows
// the gmem_ctl ABI, version 2 (its parameters end with ctl, grid_x, grid_y,
// grid_z): a CTA returns at entry while request != 0 or its done bit is
// set, leaves its loop at a step where request == 2 (when the clone has
// loop checkpoints), and sets its done bit when it finishes. A persistent
// clone (Persistent) runs its P CTAs round-robin, one step each, over the
// virtual CTAs of the grid arguments, with per-CTA redo and resume words
// (FakePersistentClone.h). Every launch of an original kernel, and every
// clone launch with a new control block, is a job; a job's (virtual) CTAs
// count their completions and flag two instances of one CTA running at once.
// With FirstLaunchBarriers, a function's first launch behaves as the H200's
// driver was measured to treat it (runtime/src/SchedFirstLaunch.cpp): it
// starts only once every operation queued before it on other streams has
// passed, and operations queued after it on other streams wait for it.
//
// The longer members (the stepping, the clone launch) are defined in
// FakeSchedDriver.cpp.
#pragma once

#include "FakePersistentClone.h"
#include "SchedDriver.h"

#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gmem {
namespace rt {
namespace sched {
namespace test {

class FakeSchedDriver : public SchedDriver, public FakeAbiChecks {
public:
  struct Kernel {
    std::string Name;
    bool IsClone = false;
    unsigned Iters = 4;          ///< steps per CTA
    bool LoopCheckpoints = true; ///< clone: request 2 stops CTAs inside the loop
    bool Persistent = false;     ///< clone: loops over virtual CTAs
    bool Free = false;           ///< persistent clone: barrier-free (FakePersistentClone.h)
    int Occupancy = 2;           ///< resident CTAs per SM (occupancy query)
    std::vector<size_t> ParamSizes;
  };
  using Job = FakeJob;
  struct Op {
    enum Kind { Memset, WaitEq, WaitGeq, Write, WaitEvent, Record, Launch, Marker } K;
    uint64_t Addr = 0;
    uint32_t Value = 0;
    size_t Count = 0;
    CUevent Ev = nullptr;
    uint64_t Gen = 0;
    CUfunction F = nullptr;
    unsigned Grid = 1;
    uint64_t Ctl = 0;
    int JobId = -1;
    unsigned Cta = 0, Iter = 0;
    bool InCta = false;
    std::string Name;
    uint64_t Seq = 0;     ///< enqueue order over all streams
    bool Barrier = false; ///< a first launch under FirstLaunchBarriers
    // A persistent clone: its virtual CTAs, and its CTAs once it runs.
    bool Persistent = false;
    unsigned Total = 0;
    std::optional<FakePersistentClone> Pers;
  };
  /// A clone launch as the scheduler made it.
  struct CloneLaunch {
    std::string Name;
    unsigned Grid[3] = {}, Block[3] = {}, Shmem = 0;
    uint32_t UserGrid[3] = {}; ///< the grid arguments (a persistent clone's z: low 16 bits)
    unsigned Scale = 0;        ///< a persistent clone's grid_z bits 24..25 (segment scale)
    uint64_t Ctl = 0;
    std::vector<uint8_t> Args;
  };
  struct Stream {
    std::deque<Op> Q;
    unsigned Flags = 0;
    int Priority = 0;
    bool Capturing = false;
  };
  struct Event {
    uint64_t Recorded = 0, Completed = 0, Time = 0;
    bool Timing = true;
  };

  // --- configuration by the test -------------------------------------------
  std::map<uintptr_t, Kernel> Kernels;                              ///< CUfunction -> behaviour
  std::map<std::pair<uintptr_t, std::string>, uintptr_t> Functions; ///< (module, name) -> CUfunction
  std::map<std::pair<uintptr_t, std::string>, uint64_t> Globals;    ///< (module, name) -> address
  std::map<uint64_t, std::vector<uint8_t>> GlobalBytes;
  unsigned long long CtxId = 1;
  uintptr_t CtxHandle = 0xC0;
  bool FailCloneLaunches = false;
  /// A function's first launch waits for all earlier work and holds back
  /// all later work (see the top); Barriers counts such launches.
  bool FirstLaunchBarriers = false;
  unsigned Barriers = 0;
  /// eventQuery of an event not reached yet advances the GPU one step (a
  /// host thread that polls while the GPU runs).
  bool StepOnQuery = false;
  std::function<void()> OnCloneLaunch; ///< runs inside each clone launch call
  /// The next RefuseWrites stream writes and memsets on RefuseOn fail.
  CUstream RefuseOn = nullptr;
  unsigned RefuseWrites = 0;
  int SmCount = 4;
  unsigned Queries = 0; ///< streamQuery and eventQuery calls
  bool CaptureBroken = false; ///< a capturing stream was queried
  unsigned CaptureQueries = 0; ///< streamIsCapturing calls
  int L2SetAsideMax = 30 << 20, L2MaxWindow = 128 << 20;
  CUresult L2WindowResult = CUDA_SUCCESS;
  CUresult SmCountResult = CUDA_SUCCESS, OccupancyResult = CUDA_SUCCESS;
  /// Set: every elapsed time between two completed timing events (launch
  /// timings for the full / light choice, drain times); else one step is 1 us.
  std::optional<float> ElapsedMs;

  // --- observable state ----------------------------------------------------
  std::map<uint64_t, uint32_t> Words; ///< device memory, 32-bit words
  std::map<CUstream, Stream> Streams;
  std::vector<CUstream> Order;
  std::map<CUevent, Event> Events;
  std::vector<Job> Jobs;
  std::map<std::string, uint64_t> Markers; ///< marker name -> step it ran at
  std::vector<std::string> Calls;          ///< the scheduler's driver calls, in order
  /// Pinned host memory mapped for the device (memHostAllocMapped): device
  /// address -> its words, which the host reads and writes directly.
  std::map<uint64_t, std::vector<uint32_t>> HostMapped;
  /// The first host-mapped word's value at each call in Calls (0 before
  /// any): the timing latch as the host had it then.
  std::vector<uint32_t> HostWordAtCall;
  bool RefuseHostAlloc = false; ///< memHostAllocMapped fails
  std::map<uint64_t, int> JobOfCtl;
  uint64_t Clock = 1;
  unsigned Allocs = 0, EventsCreated = 0;
  struct OccupancyQuery {
    uintptr_t F;
    int Threads;
    size_t Smem;
  };
  std::vector<OccupancyQuery> OccupancyQueries;
  unsigned SmCountQueries = 0;
  std::vector<CloneLaunch> CloneLaunches;
  std::map<uint64_t, size_t> MemsetWords; ///< control block -> words its memset cleared
  // ABI violations seen by the simulated GPU: FakeAbiChecks.

  FakeSchedDriver() {
    stream(CU_STREAM_LEGACY);
    stream(CU_STREAM_PER_THREAD);
  }

  /// A stream the program created.
  CUstream userStream() {
    CUstream S = reinterpret_cast<CUstream>(NextHandle += 0x100);
    stream(S);
    return S;
  }
  Stream &stream(CUstream S) {
    auto It = Streams.find(S);
    if (It == Streams.end()) {
      Order.push_back(S);
      It = Streams.emplace(S, Stream()).first;
    }
    return It->second;
  }
  void addKernel(uintptr_t F, uintptr_t Module, const std::string &Name, Kernel K) {
    K.Name = Name;
    Kernels[F] = K;
    Functions[{Module, Name}] = F;
  }
  /// __gmem_pre_info_<Symbol> in Module.
  /// Sixth: the sixth word (a grid-stride kernel's bound), where given.
  void addInfo(uintptr_t Module, const std::string &Symbol, uint32_t Flags,
               uint32_t Magic = 0x31504d47, uint32_t Version = 2,
               std::optional<uint32_t> Sixth = std::nullopt) {
    uint32_t W[6] = {Magic, Version, Flags, Flags & 1 ? 1u : 0u, 16, Sixth.value_or(0)};
    uint64_t A = NextAddr;
    NextAddr += 0x1000;
    GlobalBytes[A].assign(reinterpret_cast<uint8_t *>(W),
                          reinterpret_cast<uint8_t *>(W) + (Sixth ? 24 : 20));
    Globals[{Module, "__gmem_pre_info_" + Symbol}] = A;
  }
  /// What the real driver does for the program's own launch of F.
  CUresult userLaunch(CUfunction F, unsigned Grid, CUstream S) {
    Op O;
    O.K = Op::Launch;
    O.F = F;
    O.Grid = Grid;
    O.Barrier = firstLaunch(F);
    push(S, O);
    return CUDA_SUCCESS;
  }
  /// An operation of the program the scheduler does not see (a copy, an
  /// event, a host function): records the step it ran at.
  void marker(CUstream S, const std::string &Name) {
    Op O;
    O.K = Op::Marker;
    O.Name = Name;
    push(S, O);
  }
  /// The program's cuStreamWaitEvent / cuEventRecord (not through the scheduler).
  void userWaitEvent(CUstream S, CUevent E) { streamWaitEvent(S, E); }
  void userRecord(CUevent E, CUstream S) { eventRecord(E, S); }

  bool idle() const {
    for (auto &KV : Streams)
      if (!KV.second.Q.empty())
        return false;
    return true;
  }
  /// Advances every stream by one unit; false when nothing moved.
  bool step();
  void run(unsigned Steps) {
    for (unsigned I = 0; I < Steps; ++I)
      step();
  }
  /// Steps until nothing moves (blocked or idle); the number of steps.
  unsigned settle(unsigned Max = 100000) {
    unsigned N = 0;
    while (N < Max && step())
      ++N;
    return N;
  }
  uint32_t word(uint64_t A) const {
    if (const uint32_t *H = hostWord(A))
      return __atomic_load_n(H, __ATOMIC_ACQUIRE);
    auto It = Words.find(A);
    return It == Words.end() ? 0 : It->second;
  }
  /// The host's copy of the mapped word at device address A (null: A is
  /// device memory).
  uint32_t *hostWord(uint64_t A) const {
    auto It = HostMapped.upper_bound(A);
    if (It == HostMapped.begin())
      return nullptr;
    --It;
    const uint64_t I = (A - It->first) / 4;
    return I < It->second.size() ? const_cast<uint32_t *>(&It->second[I]) : nullptr;
  }
  void logCall(std::string C) {
    Calls.push_back(std::move(C));
    HostWordAtCall.resize(Calls.size() - 1); // (tests clear Calls)
    HostWordAtCall.push_back(HostMapped.empty() ? 0 : word(HostMapped.begin()->first));
  }
  const Job *jobOfCtl(uint64_t Ctl) const {
    auto It = JobOfCtl.find(Ctl);
    return It == JobOfCtl.end() ? nullptr : &Jobs[It->second];
  }
  size_t count(const std::string &Prefix) const {
    size_t N = 0;
    for (auto &C : Calls)
      N += C.compare(0, Prefix.size(), Prefix) == 0;
    return N;
  }

  // --- SchedDriver ---------------------------------------------------------
  bool available() override { return true; }
  CUresult ctxGetCurrent(CUcontext *C) override {
    *C = reinterpret_cast<CUcontext>(CtxHandle);
    return CUDA_SUCCESS;
  }
  CUresult ctxSetCurrent(CUcontext) override { return CUDA_SUCCESS; }
  CUresult ctxGetId(CUcontext, unsigned long long *Id) override {
    *Id = CtxId;
    return CUDA_SUCCESS;
  }
  CUresult ctxGetStreamPriorityRange(int *Least, int *Greatest) override {
    *Least = 0;
    *Greatest = -5;
    return CUDA_SUCCESS;
  }
  CUresult exchangeCaptureMode(CUstreamCaptureMode *) override { return CUDA_SUCCESS; }
  CUresult streamCreate(CUstream *S, unsigned Flags, int Priority) override {
    *S = reinterpret_cast<CUstream>(NextHandle += 0x100);
    Stream &St = stream(*S);
    St.Flags = Flags;
    St.Priority = Priority;
    logCall("streamCreate prio=" + std::to_string(Priority));
    return CUDA_SUCCESS;
  }
  CUresult streamDestroy(CUstream) override { return CUDA_SUCCESS; }
  CUresult streamIsCapturing(CUstream S, CUstreamCaptureStatus *St) override {
    ++CaptureQueries;
    *St = stream(S).Capturing ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
    return CUDA_SUCCESS;
  }
  CUresult streamSynchronize(CUstream S) override {
    for (unsigned I = 0; I < 100000 && !stream(S).Q.empty(); ++I)
      step();
    return stream(S).Q.empty() ? CUDA_SUCCESS : CUDA_ERROR_LAUNCH_TIMEOUT;
  }
  CUresult streamQuery(CUstream S) override {
    ++Queries;
    if (stream(S).Capturing) { // as the real driver: refused, and the capture is lost
      CaptureBroken = true;
      return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
    }
    return stream(S).Q.empty() ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
  }
  CUresult streamWaitEq(CUstream S, CUdeviceptr A, uint32_t V) override {
    return wait(S, Op::WaitEq, "==", A, V);
  }
  CUresult streamWaitGeq(CUstream S, CUdeviceptr A, uint32_t V) override {
    return wait(S, Op::WaitGeq, ">=", A, V);
  }
  CUresult streamWrite(CUstream S, CUdeviceptr A, uint32_t V) override {
    // Writes to mapped host memory (the scheduler's host counters) are
    // logged apart from control-word writes.
    logCall((hostWord(A) ? "hostwrite " : "write ") + name(S) + " " + hex(A) + "=" +
            std::to_string(V));
    if (refuse(S))
      return CUDA_ERROR_UNKNOWN;
    Op O;
    O.K = Op::Write;
    O.Addr = A;
    O.Value = V;
    push(S, O);
    return CUDA_SUCCESS;
  }
  CUresult streamWaitEvent(CUstream S, CUevent E) override {
    logCall("waitEvent " + name(S));
    Op O;
    O.K = Op::WaitEvent;
    O.Ev = E;
    O.Gen = Events[E].Recorded;
    push(S, O);
    return CUDA_SUCCESS;
  }
  CUresult eventCreate(CUevent *E, unsigned Flags) override {
    *E = reinterpret_cast<CUevent>(NextHandle += 0x100);
    Events[*E].Timing = !(Flags & CU_EVENT_DISABLE_TIMING);
    ++EventsCreated;
    return CUDA_SUCCESS;
  }
  CUresult eventDestroy(CUevent E) override {
    Events.erase(E);
    return CUDA_SUCCESS;
  }
  CUresult eventRecord(CUevent E, CUstream S) override {
    logCall("record " + name(S));
    Op O;
    O.K = Op::Record;
    O.Ev = E;
    O.Gen = ++Events[E].Recorded;
    push(S, O);
    return CUDA_SUCCESS;
  }
  CUresult eventQuery(CUevent E) override {
    ++Queries;
    if (StepOnQuery && Events[E].Completed < Events[E].Recorded)
      step();
    const Event &Ev = Events[E];
    return Ev.Completed >= Ev.Recorded ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
  }
  CUresult eventElapsed(float *Ms, CUevent A, CUevent B) override {
    const Event &EA = Events[A], &EB = Events[B];
    if (!EA.Timing || !EB.Timing || EA.Completed < EA.Recorded || EB.Completed < EB.Recorded)
      return CUDA_ERROR_INVALID_HANDLE;
    *Ms = ElapsedMs ? *ElapsedMs : (float(EB.Time) - float(EA.Time)) * 1e-3f; // one step = 1 us
    return CUDA_SUCCESS;
  }
  CUresult memAlloc(CUdeviceptr *P, size_t N) override {
    *P = NextAddr;
    NextAddr += (N + 0xfff) / 0x1000 * 0x1000 + 0x1000;
    ++Allocs;
    return CUDA_SUCCESS;
  }
  CUresult memFree(CUdeviceptr) override { return CUDA_SUCCESS; }
  CUresult memHostAllocMapped(void **Host, CUdeviceptr *Dev, size_t Bytes) override {
    logCall("hostalloc " + std::to_string(Bytes));
    if (RefuseHostAlloc)
      return CUDA_ERROR_OUT_OF_MEMORY;
    *Dev = NextAddr;
    NextAddr += std::max<uint64_t>(0x2000, (Bytes + 0xfff) / 0x1000 * 0x1000 + 0x1000);
    std::vector<uint32_t> &W = HostMapped[*Dev];
    W.assign((Bytes + 3) / 4, 0xDEADBEEF); // (not zeroed: the caller must)
    *Host = W.data();
    return CUDA_SUCCESS;
  }
  CUresult memsetD32Async(CUdeviceptr P, uint32_t V, size_t N, CUstream S) override {
    logCall("memset " + name(S) + " " + hex(P) + " x" + std::to_string(N));
    if (refuse(S))
      return CUDA_ERROR_UNKNOWN;
    MemsetWords[P] = N;
    Op O;
    O.K = Op::Memset;
    O.Addr = P;
    O.Value = V;
    O.Count = N;
    push(S, O);
    return CUDA_SUCCESS;
  }
  CUresult readDevice(void *Dst, CUdeviceptr Src, size_t N) override {
    auto It = GlobalBytes.find(Src);
    if (It == GlobalBytes.end() || It->second.size() < N)
      return CUDA_ERROR_INVALID_VALUE;
    std::memcpy(Dst, It->second.data(), N);
    return CUDA_SUCCESS;
  }
  CUresult moduleGetFunction(CUfunction *F, CUmodule M, const char *N) override {
    auto It = Functions.find({uintptr_t(M), N});
    if (It == Functions.end())
      return CUDA_ERROR_NOT_FOUND;
    *F = reinterpret_cast<CUfunction>(It->second);
    return CUDA_SUCCESS;
  }
  CUresult moduleGetGlobal(CUdeviceptr *P, size_t *B, CUmodule M, const char *N) override {
    auto It = Globals.find({uintptr_t(M), N});
    if (It == Globals.end())
      return CUDA_ERROR_NOT_FOUND;
    *P = It->second;
    *B = GlobalBytes[It->second].size();
    return CUDA_SUCCESS;
  }
  CUresult libraryGetKernel(CUkernel *K, CUlibrary L, const char *N) override {
    return moduleGetFunction(reinterpret_cast<CUfunction *>(K), reinterpret_cast<CUmodule>(L), N);
  }
  CUresult libraryGetGlobal(CUdeviceptr *P, size_t *B, CUlibrary L, const char *N) override {
    return moduleGetGlobal(P, B, reinterpret_cast<CUmodule>(L), N);
  }
  CUresult kernelGetFunction(CUfunction *F, CUkernel K) override {
    *F = reinterpret_cast<CUfunction>(K);
    return CUDA_SUCCESS;
  }
  CUresult funcGetParamInfo(CUfunction F, size_t I, size_t *Off, size_t *Size) override;
  std::map<std::pair<uintptr_t, int>, int> Attributes;
  CUresult funcGetAttribute(int *V, CUfunction_attribute A, CUfunction F) override {
    *V = Attributes[{uintptr_t(F), int(A)}];
    return CUDA_SUCCESS;
  }
  CUresult funcSetAttribute(CUfunction F, CUfunction_attribute A, int V) override {
    Attributes[{uintptr_t(F), int(A)}] = V;
    return CUDA_SUCCESS;
  }
  CUresult occupancyMaxActiveBlocks(int *Blocks, CUfunction F, int Threads, size_t Smem) override {
    OccupancyQueries.push_back({uintptr_t(F), Threads, Smem});
    auto It = Kernels.find(uintptr_t(F));
    if (It == Kernels.end())
      return CUDA_ERROR_INVALID_HANDLE;
    if (OccupancyResult != CUDA_SUCCESS)
      return OccupancyResult;
    *Blocks = It->second.Occupancy;
    return CUDA_SUCCESS;
  }
  CUresult deviceGetAttribute(int *V, CUdevice_attribute A) override {
    if (A == CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE) {
      *V = L2SetAsideMax;
      return CUDA_SUCCESS;
    }
    if (A == CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE) {
      *V = L2MaxWindow;
      return CUDA_SUCCESS;
    }
    if (A != CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
      return CUDA_ERROR_INVALID_VALUE;
    ++SmCountQueries;
    if (SmCountResult != CUDA_SUCCESS)
      return SmCountResult;
    *V = SmCount;
    return CUDA_SUCCESS;
  }
  CUresult ctxSetPersistingL2(size_t Bytes) override {
    logCall("l2 set aside " + std::to_string(Bytes));
    return CUDA_SUCCESS;
  }
  CUresult streamSetL2Window(CUstream S, CUdeviceptr Base, size_t Bytes, float Ratio) override {
    char Buf[96];
    std::snprintf(Buf, sizeof Buf, " %s %zu %.2f", hex(Base).c_str(), Bytes, Ratio);
    logCall("l2 window " + name(S) + Buf);
    return L2WindowResult;
  }
  CUresult launch(const KernelLaunch &K) override;
  std::vector<uint8_t> LastCloneArgs;

  bool refuse(CUstream S) {
    if (S != RefuseOn || !RefuseWrites)
      return false;
    --RefuseWrites;
    Calls.back() += " (refused)";
    return true;
  }
  /// The stream the scheduler created with the greatest priority (its
  /// control stream), or null.
  CUstream controlStream() const {
    for (const auto &KV : Streams)
      if (KV.second.Priority == -5)
        return KV.first;
    return nullptr;
  }
  /// A 32-bit wait of kind K on S, named in Calls with Test ("==", ">=").
  CUresult wait(CUstream S, Op::Kind K, const char *Test, CUdeviceptr A, uint32_t V) {
    logCall("wait " + name(S) + " " + hex(A) + Test + std::to_string(V));
    Op O;
    O.K = K;
    O.Addr = A;
    O.Value = V;
    push(S, O);
    return CUDA_SUCCESS;
  }

  std::string name(CUstream S) const {
    if (S == CU_STREAM_LEGACY)
      return "legacy";
    if (S == CU_STREAM_PER_THREAD)
      return "ptds";
    auto It = Names.find(S);
    return It != Names.end() ? It->second : hex(reinterpret_cast<uint64_t>(S));
  }
  std::map<CUstream, std::string> Names;
  static std::string hex(uint64_t V) {
    char B[24];
    std::snprintf(B, sizeof B, "0x%llx", (unsigned long long)V);
    return B;
  }

private:
  uint64_t NextAddr = 0x10000000;
  uint64_t NextHandle = 0x7000;
  uint64_t NextSeq = 0;
  std::set<uintptr_t> Loaded;

  void push(CUstream S, Op &O) {
    O.Seq = ++NextSeq;
    stream(S).Q.push_back(O);
  }
  bool firstLaunch(CUfunction F) {
    if (!FirstLaunchBarriers || !Loaded.insert(uintptr_t(F)).second)
      return false;
    ++Barriers;
    return true;
  }
  /// Under FirstLaunchBarriers: whether O (the head of S) must wait, for a
  /// first launch queued before it elsewhere, or being one, for anything
  /// queued before it elsewhere.
  bool barred(const Stream &S, const Op &O) const;

  bool advance(Stream &S);

  /// One step of a kernel; true when it has finished.
  bool runKernel(Op &O);
};

} // namespace test
} // namespace sched
} // namespace rt
} // namespace gmem

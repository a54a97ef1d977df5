// The runtime's set-up: options from the environment, construction, the
// events the interposed entry points report, and the C API (gmem.h). The
// launch path is in RuntimeLaunch.cpp, kernel handles are resolved in
// RuntimeResolve.cpp, and recorded launches read back in RuntimeRecords.cpp.
#include "Runtime.h"
#include "ThreadCounters.h"

#include "gmem/descriptor_abi.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#ifndef GMEMRT_VERSION
#define GMEMRT_VERSION "0.1.0"
#endif

namespace gmem {
namespace rt {
namespace {

std::atomic<uint64_t> NextRuntimeId{1};
std::atomic<Runtime *> TestOverride{nullptr};

bool envTrue(const char *Name) {
  const char *V = std::getenv(Name);
  return V && *V && std::strcmp(V, "0") != 0 && std::strcmp(V, "no") != 0 &&
         std::strcmp(V, "false") != 0;
}

int parseLogMask(const char *S) {
  if (!S || !*S)
    return GMEM_LOG_ERRORS;
  char *End = nullptr;
  long N = std::strtol(S, &End, 0);
  if (End && *End == 0)
    return int(N);
  int Mask = 0;
  std::string Text(S);
  size_t Pos = 0;
  while (Pos <= Text.size()) {
    size_t Comma = Text.find_first_of(",:+ ", Pos);
    std::string W = Text.substr(Pos, Comma == std::string::npos ? std::string::npos : Comma - Pos);
    if (W == "launches" || W == "launch")
      Mask |= GMEM_LOG_LAUNCHES;
    else if (W == "descriptors" || W == "descriptor" || W == "kernels")
      Mask |= GMEM_LOG_DESCRIPTORS;
    else if (W == "memory" || W == "prefetch")
      Mask |= GMEM_LOG_MEMORY;
    else if (W == "driver" || W == "entrypoints")
      Mask |= GMEM_LOG_DRIVER;
    else if (W == "errors" || W == "error")
      Mask |= GMEM_LOG_ERRORS;
    else if (W == "all")
      Mask |= GMEM_LOG_ERRORS | GMEM_LOG_LAUNCHES | GMEM_LOG_DESCRIPTORS;
    else if (W == "none" || W == "off")
      Mask = 0;
    if (Comma == std::string::npos)
      break;
    Pos = Comma + 1;
  }
  // Asking for launch lines does not silence errors.
  if (Mask & (GMEM_LOG_LAUNCHES | GMEM_LOG_DESCRIPTORS))
    Mask |= GMEM_LOG_ERRORS;
  return Mask;
}

} // namespace

Options Options::fromEnvironment() {
  Options O;
  O.Disabled = envTrue("GMEM_DISABLE");
  O.LogMask = parseLogMask(std::getenv("GMEM_LOG"));
  O.Verify = envTrue("GMEM_VERIFY");
  const char *Eval = std::getenv("GMEM_EVAL");
  O.Reference = Eval && std::strcmp(Eval, "reference") == 0;
  O.EvalAll = Eval && std::strcmp(Eval, "all") == 0;
  const char *Gl = std::getenv("GMEM_GLOBALS");
  O.ResolveGlobals = !(Gl && (std::strcmp(Gl, "0") == 0 || std::strcmp(Gl, "no") == 0));
  const char *M = std::getenv("GMEM_MEMO");
  O.Memo = !(M && (std::strcmp(M, "0") == 0 || std::strcmp(M, "no") == 0 || std::strcmp(M, "off") == 0));
  O.Mem = MemoryOptions::fromEnvironment(&O.MemError);
  return O;
}

Runtime::Runtime(DriverApi &D, const Options &O, MemoryDriver *M)
    : Allocs(D), Mem(M ? *M : realMemoryDriver(), O.Mem), Drv(D), Opts(O),
      Id(NextRuntimeId.fetch_add(1)), LogMask(O.LogMask), Ring(new RingSlot[RingSize]) {
  if (!O.MemError.empty() && (O.LogMask & GMEM_LOG_ERRORS))
    std::fprintf(stderr, "gmem: %s\n", O.MemError.c_str());
  // Pool blocks are allocations of their own for the launch check.
  Mem.setPoolObserver([this](uint64_t Base, uint64_t Size, bool Live) {
    if (Live)
      Allocs.registerBlock(Base, Size);
    else
      Allocs.unregisterBlock(Base);
  });
  for (ThreadCounters *C = AllCounters.load(std::memory_order_acquire); C; C = C->Next) {
    BaseInstrumented += C->Instrumented.load(std::memory_order_relaxed);
    BaseIdempotent += C->Idempotent.load(std::memory_order_relaxed);
  }
}

Runtime::~Runtime() = default;

Runtime &Runtime::global() {
  if (Runtime *T = TestOverride.load(std::memory_order_acquire))
    return *T;
  // Never destroyed: launches may happen from atexit handlers and other
  // libraries' destructors.
  static Runtime *R = new Runtime(realDriver(), Options::fromEnvironment());
  return *R;
}

void Runtime::setGlobalForTesting(Runtime *R) { TestOverride.store(R, std::memory_order_release); }

void Runtime::onModuleUnload(CUmodule M) {
  Kernels.invalidate([M](const KernelEntry &E) { return !E.ViaLibrary && E.Module == M; });
  Allocs.invalidateAll(); // module globals go away too
}

void Runtime::onLibraryUnload(CUlibrary L) {
  // Functions of a library's kernels (cuKernelGetFunction) have modules we
  // cannot relate to the library: forget everything.
  (void)L;
  Kernels.invalidate([](const KernelEntry &) { return true; });
  Allocs.invalidateAll();
}

void Runtime::onContextDestroy() {
  Kernels.invalidate([](const KernelEntry &) { return true; });
  Allocs.invalidateAll();
  Mem.onContextDestroy();
}

} // namespace rt
} // namespace gmem

// ---------------------------------------------------------------------------
// C API

using gmem::rt::Runtime;

extern "C" {

GMEM_API const char *gmemVersion(void) {
  static const std::string V = std::string("libgmemrt ") + GMEMRT_VERSION + " (descriptor ABI " +
                               std::to_string(GMEM_DESC_VERSION) + ", API " +
                               std::to_string(GMEM_API_VERSION) + ")";
  return V.c_str();
}

GMEM_API int gmemGetLastLaunchInfo(gmemLaunchInfo *Out) { return Runtime::global().lastLaunch(Out); }

GMEM_API int gmemGetRecentLaunches(gmemLaunchInfo *Out, int Max) {
  return Runtime::global().recentLaunches(Out, Max);
}

GMEM_API int gmemSetLogging(int Mask) { return Runtime::global().setLogging(Mask); }

GMEM_API int gmemIsEnabled(void) { return Runtime::global().enabled() ? 1 : 0; }

GMEM_API int gmemGetStats(gmemStats *Out) {
  if (!Out)
    return GMEM_ERROR_INVALID_VALUE;
  Runtime::global().stats(Out);
  return GMEM_SUCCESS;
}

GMEM_API int gmemAdvise(const void *Ptr, uint64_t Bytes, int Hint) {
  return Runtime::global().Mem.advise(reinterpret_cast<uint64_t>(Ptr), Bytes, Hint);
}

GMEM_API int gmemMallocManaged(void **Ptr, uint64_t Bytes) {
  if (!Ptr)
    return GMEM_ERROR_INVALID_VALUE;
  uint64_t P = 0;
  int R = Runtime::global().Mem.mallocManaged(&P, Bytes);
  *Ptr = R == GMEM_SUCCESS ? reinterpret_cast<void *>(P) : nullptr;
  return R;
}

GMEM_API int gmemFreeManaged(void *Ptr) {
  return Runtime::global().Mem.freeManaged(reinterpret_cast<uint64_t>(Ptr));
}

GMEM_API int gmemGetMemoryStats(gmemMemoryStats *Out) {
  if (!Out)
    return GMEM_ERROR_INVALID_VALUE;
  Runtime::global().Mem.stats(Out);
  return GMEM_SUCCESS;
}

GMEM_API const char *gmemClassName(int C) {
  switch (C) {
  case GMEM_CLASS_IDEMPOTENT: return "idempotent";
  case GMEM_CLASS_CONDITIONAL: return "conditional";
  case GMEM_CLASS_NON_IDEMPOTENT: return "non-idempotent";
  case GMEM_CLASS_UNKNOWN: return "unknown";
  default: return "none";
  }
}

} // extern "C"

// The few CUDA driver calls the runtime makes on its own behalf, behind an
// interface so that unit tests can fake the driver (test/runtime/FakeDriver.h)
// and the library never links libcuda at build time.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

namespace gmem {
namespace rt {

class DriverApi {
public:
  virtual ~DriverApi() = default;

  /// False when no driver could be loaded at all.
  virtual bool available() = 0;

  virtual CUresult funcGetName(const char **Name, CUfunction F) = 0;
  virtual CUresult funcGetModule(CUmodule *M, CUfunction F) = 0;
  virtual CUresult funcGetParamInfo(CUfunction F, size_t Index, size_t *Offset, size_t *Size) = 0;
  virtual CUresult moduleGetGlobal(CUdeviceptr *Ptr, size_t *Bytes, CUmodule M, const char *Name) = 0;

  virtual CUresult kernelGetFunction(CUfunction *F, CUkernel K) = 0;
  virtual CUresult kernelGetLibrary(CUlibrary *L, CUkernel K) = 0;
  virtual CUresult kernelGetName(const char **Name, CUkernel K) = 0;
  virtual CUresult libraryGetGlobal(CUdeviceptr *Ptr, size_t *Bytes, CUlibrary L, const char *Name) = 0;

  virtual CUresult ctxGetCurrent(CUcontext *C) = 0;
  virtual CUresult memGetAddressRange(CUdeviceptr *Base, size_t *Size, CUdeviceptr Ptr) = 0;

  /// Copies device bytes to the host without joining any stream capture
  /// and without synchronising with the program's streams (descriptor reads
  /// happen inside the program's launch call).
  virtual CUresult readDevice(void *Dst, CUdeviceptr Src, size_t Bytes) = 0;
};

/// The process's real driver (libcuda.so.1, loaded at first use).
DriverApi &realDriver();

/// dlsym that is not interposed by libgmemrt (see Interpose.cpp).
void *realDlsym(void *Handle, const char *Name);
/// The handle of libcuda.so.1 (dlopen at first use), or null.
void *libcudaHandle();

/// The packed argument buffer of a launch's `extra` array
/// (CU_LAUNCH_PARAM_BUFFER_POINTER / _SIZE); false when either is missing.
inline bool launchParamBuffer(void **Extra, const char **Buf, size_t *Size) {
  *Buf = nullptr;
  bool HaveSize = false;
  for (size_t K = 0; Extra && K < 64 && Extra[K] != CU_LAUNCH_PARAM_END; K += 2) {
    if (Extra[K] == CU_LAUNCH_PARAM_BUFFER_POINTER)
      *Buf = static_cast<const char *>(Extra[K + 1]);
    else if (Extra[K] == CU_LAUNCH_PARAM_BUFFER_SIZE && Extra[K + 1]) {
      *Size = *static_cast<const size_t *>(Extra[K + 1]);
      HaveSize = true;
    }
  }
  return *Buf && HaveSize;
}

/// A libcuda.so.1 entry point by name, resolved past libgmemrt's own
/// wrappers, or null.
template <typename Fn> Fn driverSymbol(const char *Name) {
  void *H = libcudaHandle();
  return H ? reinterpret_cast<Fn>(realDlsym(H, Name)) : nullptr;
}

/// Body of a driver-table method: in a class with a load() member that fills
/// entry-point pointers (driverSymbol), load once, then call P, or answer
/// CUDA_ERROR_NOT_SUPPORTED where this libcuda lacks the entry point.
#define GMEM_CALL(P, ...)                                                                          \
  do {                                                                                             \
    load();                                                                                        \
    return P ? P(__VA_ARGS__) : CUDA_ERROR_NOT_SUPPORTED;                                          \
  } while (0)

} // namespace rt
} // namespace gmem

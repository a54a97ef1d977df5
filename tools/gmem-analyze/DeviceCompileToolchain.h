//===- DeviceCompileToolchain.h - CUDA and ROCm lookup ----------*- C++ -*-===//
//
// Part of gmem. Where a device compile finds its CUDA toolkit, and how a
// HIP file gets its runtime headers (a ROCm install, the user's HIP
// headers, or the bundled shim). Not part of the DeviceCompile.h interface;
// findClang, the clang half of the toolchain, is public: declared in
// DeviceCompile.h, defined in DeviceCompileToolchain.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef GMEM_TOOLS_GMEM_ANALYZE_DEVICECOMPILETOOLCHAIN_H
#define GMEM_TOOLS_GMEM_ANALYZE_DEVICECOMPILETOOLCHAIN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace gmem {
namespace tool {
namespace detail {

/// Root of the CUDA installation for a CUDA compile.
llvm::Expected<std::string> findCudaRoot(llvm::StringRef Src,
                                         llvm::ArrayRef<std::string> ExtraArgs);

/// How a HIP file gets its runtime headers.
struct HipSetup {
  enum { Shim, RocmRoot, UserHeaders } Mode = Shim;
  std::string RocmPath; // RocmRoot: value for --rocm-path (empty: user's own)
  bool NoGpuLib = true; // pass -nogpulib
  std::string Note;     // for Verbose
};

llvm::Expected<HipSetup> chooseHipSetup(llvm::StringRef Src,
                                        llvm::ArrayRef<std::string> ExtraArgs);

} // namespace detail
} // namespace tool
} // namespace gmem

#endif // GMEM_TOOLS_GMEM_ANALYZE_DEVICECOMPILETOOLCHAIN_H

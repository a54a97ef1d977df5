//===- DeviceCompile.h - .cu/.hip -> device LLVM bitcode / PTX --*- C++ -*-===//
//
// Part of gmem. Turns a CUDA or HIP source file into the device-side LLVM
// module that gmem-analyze works on, by running an external clang (19) in
// device-only mode. Toolchain mismatches are hidden from the user:
//
//  * CUDA newer than clang knows (e.g. CUDA 13 with clang 19): the version
//    warning is silenced and empty stand-ins are provided for the CUDA
//    headers that clang's CUDA wrapper still includes but the toolkit no
//    longer ships (texture_fetch_functions.h, texture_indirect_functions.h).
//  * No ROCm install: a small bundled HIP shim header (threadIdx & co,
//    __syncthreads, atomics, shuffles, math, host API declarations) is
//    force-included so that typical .hip files compile with -nogpuinc.
//
// All helper headers are embedded in the binary and written to a private
// temporary directory that is removed after each compile.
//
// See docs/DEVICE_COMPILE.md for details and environment variables.
//
//===----------------------------------------------------------------------===//

#ifndef GMEM_TOOLS_GMEM_ANALYZE_DEVICECOMPILE_H
#define GMEM_TOOLS_GMEM_ANALYZE_DEVICECOMPILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>
#include <vector>

namespace gmem {
namespace tool {

struct DeviceCompileOptions {
  /// User flags (-I, -D, -std=..., ...), passed to clang unchanged, after the
  /// flags this module adds (so they can override e.g. -O or -std).
  std::vector<std::string> ExtraArgs;
  /// --cuda-gpu-arch for .cu inputs. Always passed (ptxas rejects < sm_75).
  std::string CudaArch = "sm_90";
  /// --offload-arch for .hip inputs.
  std::string HipArch = "gfx90a";
  std::string OptLevel = "-O2";
  /// Print the clang command (and clang's full stderr) to stderr.
  bool Verbose = false;
};

enum class SourceKind { CUDA, HIP, LLVMIR, Bitcode, Unknown };

/// Classify by extension (case-insensitive): .cu/.cuh -> CUDA, .hip -> HIP,
/// .ll -> LLVMIR, .bc -> Bitcode, anything else -> Unknown.
SourceKind classifySource(llvm::StringRef Path);

/// Device-only compile of a .cu/.cuh/.hip file to LLVM bitcode in memory.
/// Errors are llvm::StringError with one-line messages:
///   "<path>: no such file"
///   "<path>: device compile failed: <first error line of clang's stderr>"
///   "<path>: no CUDA installation found ..." (CUDA inputs only)
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
compileDeviceBitcode(llvm::StringRef Path, const DeviceCompileOptions &Opts);

/// Device-only compile of a .cu/.cuh file to PTX text written to OutPath
/// (for the GPU harness). HIP inputs are rejected (PTX is NVIDIA-only).
llvm::Error compileDevicePTX(llvm::StringRef Path, llvm::StringRef OutPath,
                             const DeviceCompileOptions &Opts);

/// The clang driver used: $GMEM_CLANG (name or path), else the compile-time
/// GMEM_CLANG_PATH define if that file exists, else clang++-19 / clang++ /
/// clang-19 / clang found on PATH.
llvm::Expected<std::string> findClang();

} // namespace tool
} // namespace gmem

#endif // GMEM_TOOLS_GMEM_ANALYZE_DEVICECOMPILE_H

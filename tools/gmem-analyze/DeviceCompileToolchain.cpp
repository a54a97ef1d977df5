//===- DeviceCompileToolchain.cpp - CUDA and ROCm lookup ------------------===//
//
// Part of gmem. See DeviceCompileToolchain.h and docs/DEVICE_COMPILE.md.
//
//===----------------------------------------------------------------------===//

#include "DeviceCompileToolchain.h"
#include "DeviceCompile.h"
#include "DeviceCompileUtil.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

using namespace llvm;

namespace gmem {
namespace tool {
namespace detail {

//===----------------------------------------------------------------------===//
// Toolchain discovery
//===----------------------------------------------------------------------===//

/// Root of the CUDA installation for a CUDA compile.
Expected<std::string> findCudaRoot(StringRef Src,
                                   ArrayRef<std::string> ExtraArgs) {
  auto Valid = [](StringRef Root) {
    return isFile(Twine(Root) + "/include/cuda.h");
  };
  if (auto UserPath = findFlagValue(ExtraArgs, "--cuda-path")) {
    // The user chose; clang reports problems itself.
    return *UserPath;
  }
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"}) {
    if (auto V = getEnv(Var)) {
      if (Valid(*V))
        return *V;
      return makeError(Src + ": " + Var + "=" + *V +
                       " is not a CUDA installation (no include/cuda.h); "
                       "point it at the CUDA toolkit root");
    }
  }
  if (Valid("/usr/local/cuda"))
    return std::string("/usr/local/cuda");
  return makeError(Src +
                   ": no CUDA installation found (CUDA_PATH and CUDA_HOME "
                   "unset, /usr/local/cuda missing); install the CUDA toolkit "
                   "or set CUDA_PATH to its root");
}

namespace {
bool isRocmRoot(StringRef Root) {
  return isFile(Twine(Root) + "/include/hip/hip_runtime.h");
}
bool hasRocmDeviceLibs(StringRef Root) {
  return isFile(Twine(Root) + "/amdgcn/bitcode/ocml.bc");
}
} // namespace

Expected<HipSetup> chooseHipSetup(StringRef Src,
                                  ArrayRef<std::string> ExtraArgs) {
  HipSetup S;
  // 1. The user named a ROCm/HIP install on the command line.
  auto UserRocm = findFlagValue(ExtraArgs, "--rocm-path");
  auto UserHip = findFlagValue(ExtraArgs, "--hip-path");
  if (UserRocm || UserHip) {
    S.Mode = HipSetup::RocmRoot;
    StringRef Root = UserRocm ? *UserRocm : *UserHip;
    S.NoGpuLib = !(UserRocm && hasRocmDeviceLibs(*UserRocm));
    S.Note = ("using ROCm from the command line (" + Root + ")").str();
    return S;
  }
  // 2. GMEM_HIP_PATH (must be valid) or ROCM_PATH (ignored if not a ROCm).
  if (auto P = getEnv("GMEM_HIP_PATH")) {
    if (!isRocmRoot(*P))
      return makeError(Src + ": GMEM_HIP_PATH=" + *P +
                       " is not a ROCm/HIP installation (no "
                       "include/hip/hip_runtime.h)");
    S.Mode = HipSetup::RocmRoot;
    S.RocmPath = *P;
    S.NoGpuLib = !hasRocmDeviceLibs(*P);
    S.Note = "using ROCm from GMEM_HIP_PATH=" + *P;
    return S;
  }
  std::string RocmNote;
  if (auto P = getEnv("ROCM_PATH")) {
    if (isRocmRoot(*P)) {
      S.Mode = HipSetup::RocmRoot;
      S.RocmPath = *P;
      S.NoGpuLib = !hasRocmDeviceLibs(*P);
      S.Note = "using ROCm from ROCM_PATH=" + *P;
      return S;
    }
    RocmNote = "; ROCM_PATH=" + *P + " ignored (no include/hip/hip_runtime.h)";
  }
  // 3. Real HIP headers on the user's include path.
  for (const std::string &D : userIncludeDirs(ExtraArgs)) {
    if (!isFile(Twine(D) + "/hip/hip_runtime.h"))
      continue;
    SmallString<256> Parent(D);
    sys::path::remove_dots(Parent, /*remove_dot_dot=*/true);
    if (sys::path::filename(Parent) == "include") {
      sys::path::remove_filename(Parent);
      if (isFile(Twine(Parent) + "/include/hip/hip_version.h")) {
        S.Mode = HipSetup::RocmRoot;
        S.RocmPath = std::string(Parent);
        S.NoGpuLib = !hasRocmDeviceLibs(Parent);
        S.Note = "using ROCm at " + S.RocmPath + " (found via " + D + ")";
        return S;
      }
    }
    S.Mode = HipSetup::UserHeaders;
    S.Note = "using the HIP headers in " + D + RocmNote;
    return S;
  }
  // 4. Nothing: the bundled shim.
  S.Mode = HipSetup::Shim;
  S.Note =
      "no ROCm/HIP installation found; using the bundled HIP shim" + RocmNote;
  return S;
}

} // namespace detail

using namespace detail;

Expected<std::string> findClang() {
  if (auto Env = getEnv("GMEM_CLANG")) {
    if (StringRef(*Env).contains('/')) {
      if (sys::fs::can_execute(*Env) && !sys::fs::is_directory(*Env))
        return *Env;
      return makeError("GMEM_CLANG=" + *Env + " is not an executable");
    }
    if (ErrorOr<std::string> P = sys::findProgramByName(*Env))
      return *P;
    return makeError("GMEM_CLANG=" + *Env + " not found on PATH");
  }
#ifdef GMEM_CLANG_PATH
  {
    StringRef Built = GMEM_CLANG_PATH;
    if (!Built.empty()) {
      if (Built.contains('/')) {
        if (sys::fs::can_execute(Built) && !sys::fs::is_directory(Built))
          return Built.str();
      } else if (ErrorOr<std::string> P = sys::findProgramByName(Built)) {
        return *P;
      }
    }
  }
#endif
  for (const char *Name : {"clang++-19", "clang++", "clang-19", "clang"})
    if (ErrorOr<std::string> P = sys::findProgramByName(Name))
      return *P;
  return makeError("no clang found: install clang 19 or set GMEM_CLANG to a "
                   "clang++ executable");
}

} // namespace tool
} // namespace gmem

//===- DeviceCompile.cpp - .cu/.hip -> device LLVM bitcode / PTX ----------===//
//
// Part of gmem. See DeviceCompile.h and docs/DEVICE_COMPILE.md.
//
// Runs an external clang in device-only mode:
//   CUDA: clang++ -x cuda --cuda-device-only --cuda-gpu-arch=<sm>
//         -Wno-unknown-cuda-version --cuda-path=<cuda> [-isystem <stubs>]
//         [-isystem <cuda>/include/cccl]
//   HIP:  clang++ -x hip --cuda-device-only --offload-arch=<gfx>
//         -nogpulib -nogpuinc -isystem <shim> -include <shim>/gmem_hip_shim.h
//         (or --rocm-path=<rocm> when a real ROCm install is available)
// The helper headers are embedded below and written to a private temporary
// directory per compile, which is removed afterwards.
//
//===----------------------------------------------------------------------===//

#include "DeviceCompile.h"
#include "DeviceCompileToolchain.h"
#include "DeviceCompileUtil.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>

using namespace llvm;

namespace gmem {
namespace tool {

using namespace detail;

namespace {

//===----------------------------------------------------------------------===//
// Embedded headers
//===----------------------------------------------------------------------===//

/// Stand-in for CUDA headers that clang 19's __clang_cuda_runtime_wrapper.h
/// includes but newer toolkits (CUDA 13) no longer ship. Only written for the
/// headers the CUDA installation lacks, so older toolkits keep the real ones.
const char CudaStubHeader[] =
    "// gmem-analyze: empty stand-in for a CUDA header that this CUDA\n"
    "// toolkit no longer ships but clang's CUDA wrapper still includes.\n"
    "#pragma once\n";
const char *const CudaStubNames[] = {"texture_fetch_functions.h",
                                     "texture_indirect_functions.h"};

/// CUDA's cache-operator loads and stores (__ldcs, __stcs, ...), which clang
/// 19 lacks: force-included into every CUDA compile (CudaCacheHints.inc).
#include "CudaCacheHints.inc"

/// HipShimHeader: the minimal HIP device environment, force-included when no
/// ROCm is available (HipShimHeader.inc).
#include "HipShimHeader.inc"

/// hip/hip_runtime.h (and hip_runtime_api.h) in the shim directory, so that
/// sources which #include <hip/hip_runtime.h> find something.
const char HipRuntimeForwarder[] =
    "// gmem-analyze: forwards to the bundled HIP shim.\n"
    "#pragma once\n"
    "#include \"../gmem_hip_shim.h\"\n";

//===----------------------------------------------------------------------===//
// Running clang: its temporary directory and its errors
//===----------------------------------------------------------------------===//

/// Private temporary directory, removed on destruction unless
/// GMEM_KEEP_TEMPS is set.
class TempDir {
public:
  static Expected<TempDir> create() {
    TempDir T;
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("gmem-devcc", T.Dir))
      return makeError("cannot create a temporary directory: " + EC.message());
    T.Keep = getEnv("GMEM_KEEP_TEMPS").has_value();
    return T;
  }
  TempDir() = default;
  TempDir(TempDir &&O) : Dir(std::move(O.Dir)), Keep(O.Keep) { O.Dir.clear(); }
  TempDir &operator=(TempDir &&) = delete;
  TempDir(const TempDir &) = delete;
  ~TempDir() {
    if (!Dir.empty() && !Keep)
      sys::fs::remove_directories(Dir);
  }
  std::string path(const Twine &Child) const {
    SmallString<256> P(Dir);
    sys::path::append(P, Child);
    return std::string(P);
  }
  StringRef dir() const { return Dir; }
  bool keep() const { return Keep; }

private:
  SmallString<128> Dir;
  bool Keep = false;
};

/// The line to report from clang's stderr: the first line mentioning
/// "error:", else the first non-empty line.
std::string firstErrorLine(StringRef Stderr) {
  SmallVector<StringRef, 32> Lines;
  Stderr.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef L : Lines)
    if (L.contains("error:"))
      return L.trim().str();
  for (StringRef L : Lines)
    if (!L.trim().empty())
      return L.trim().str();
  return "";
}

//===----------------------------------------------------------------------===//
// The compile
//===----------------------------------------------------------------------===//

enum class OutputKind { Bitcode, PTX };

struct ClangRun {
  int RC = 0;
  bool ExecFailed = false;
  std::string ExecErr;
  std::string Stderr;
};

/// Run the clang command line Args (Args[0] is the program), stdin from
/// /dev/null, stdout/stderr into files in Tmp.
ClangRun runClang(ArrayRef<std::string> Args, const TempDir &Tmp,
                  bool Verbose) {
  if (Verbose) {
    errs() << "gmem:";
    for (const std::string &A : Args)
      errs() << ' ' << shellQuote(A);
    errs() << "\n";
  }
  std::string StdoutFile = Tmp.path("clang.out");
  std::string StderrFile = Tmp.path("clang.err");
  // ExecuteAndWait's redirection does not truncate: start from empty files.
  sys::fs::remove(StdoutFile);
  sys::fs::remove(StderrFile);
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(StdoutFile),
                                          StringRef(StderrFile)};
  SmallVector<StringRef, 32> ArgRefs(Args.begin(), Args.end());
  ClangRun R;
  R.RC = sys::ExecuteAndWait(Args[0], ArgRefs, /*Env=*/std::nullopt, Redirects,
                             /*SecondsToWait=*/0, /*MemoryLimit=*/0, &R.ExecErr,
                             &R.ExecFailed);
  if (auto Buf = MemoryBuffer::getFile(StderrFile, /*IsText=*/true,
                                       /*RequiresNullTerminator=*/false,
                                       /*IsVolatile=*/true))
    R.Stderr = (*Buf)->getBuffer().str();
  if (Verbose && !R.Stderr.empty()) {
    errs() << R.Stderr;
    if (!StringRef(R.Stderr).ends_with("\n"))
      errs() << "\n";
  }
  return R;
}

/// The one-line error for a failed run (or success).
Error checkRun(StringRef Src, const ClangRun &R, StringRef Clang,
               StringRef OutFile) {
  if (R.ExecFailed)
    return makeError(Src + ": device compile failed: cannot run " + Clang +
                     (R.ExecErr.empty() ? "" : ": " + R.ExecErr));
  if (R.RC != 0) {
    std::string Line = firstErrorLine(R.Stderr);
    if (Line.empty())
      Line = R.RC < 0 ? (Clang + " crashed" +
                         (R.ExecErr.empty() ? "" : ": " + R.ExecErr))
                            .str()
                      : (Clang + " exited with status " + Twine(R.RC)).str();
    return makeError(Src + ": device compile failed: " + Line);
  }
  if (!isFile(OutFile))
    return makeError(Src + ": device compile failed: clang produced no output" +
                     (R.Stderr.empty() ? "" : ": " + firstErrorLine(R.Stderr)));
  // clang 19 drops CUDA's __cluster_dims__ with a warning: what it built
  // would run without its thread-block cluster (cluster barriers and
  // distributed shared memory on a cluster of one CTA). Refuse it.
  if (StringRef(R.Stderr).contains("unknown attribute 'cluster_dims' ignored"))
    return makeError(Src + ": __cluster_dims__ is ignored by clang 19, so the kernel would "
                           "run without its thread-block cluster; build this file with nvcc, "
                           "or drop the attribute and launch with a cluster dimension "
                           "(cudaLaunchKernelEx, cudaLaunchAttributeClusterDimension)");
  return Error::success();
}

/// Run clang on Src (a CUDA or HIP file) writing OutFile (inside Tmp).
Error runDeviceCompile(StringRef Src, SourceKind Kind,
                       const DeviceCompileOptions &Opts, OutputKind Out,
                       const TempDir &Tmp, StringRef OutFile) {
  Expected<std::string> Clang = findClang();
  if (!Clang)
    return makeError(Src + ": " + toString(Clang.takeError()));

  // Pass the path as given (so clang's diagnostics name it the way the user
  // did) unless it could be mistaken for an option.
  SmallString<256> SrcArg(Src);
  if (Src.starts_with("-"))
    if (std::error_code EC = sys::fs::make_absolute(SrcArg))
      return makeError(Src + ": " + EC.message());

  std::vector<std::string> Args;
  Args.push_back(*Clang);
  const std::vector<std::string> &Extra = Opts.ExtraArgs;
  std::string Note;
  bool LinkedDeviceLibs = false; // HIP with a ROCm whose device libs we link

  if (Kind == SourceKind::CUDA) {
    Expected<std::string> Cuda = findCudaRoot(Src, Extra);
    if (!Cuda)
      return Cuda.takeError();
    Args.insert(Args.end(), {"-x", "cuda", "--cuda-device-only"});
    if (!hasFlagPrefix(Extra, "--cuda-gpu-arch") &&
        !hasFlagPrefix(Extra, "--offload-arch"))
      Args.push_back("--cuda-gpu-arch=" + (Opts.CudaArch.empty()
                                               ? std::string("sm_90")
                                               : Opts.CudaArch));
    Args.push_back("-Wno-unknown-cuda-version");
    if (!findFlagValue(Extra, "--cuda-path"))
      Args.push_back("--cuda-path=" + *Cuda);
    // Stubs for headers clang's CUDA wrapper wants but the toolkit lacks.
    std::string StubDir = Tmp.path("cuda-stubs");
    bool AnyStub = false;
    for (const char *H : CudaStubNames) {
      if (isFile(Twine(*Cuda) + "/include/" + H))
        continue;
      if (!AnyStub) {
        if (std::error_code EC = sys::fs::create_directory(StubDir))
          return makeError(Src + ": cannot create " + StubDir + ": " +
                           EC.message());
        AnyStub = true;
      }
      if (Error E = writeFile(StubDir + "/" + H, CudaStubHeader))
        return makeError(Src + ": " + toString(std::move(E)));
    }
    if (AnyStub)
      Args.insert(Args.end(), {"-isystem", StubDir});
    std::string Hints = Tmp.path("gmem_cuda_cache_hints.h");
    if (Error E = writeFile(Hints, CudaCacheHintsHeader))
      return makeError(Src + ": " + toString(std::move(E)));
    Args.insert(Args.end(), {"-include", Hints});
    // CUDA 13 moved CCCL (cub, thrust, libcu++: <cuda/std/...>, needed by
    // cooperative_groups.h) to include/cccl, which nvcc adds by itself and
    // clang 19 does not know about.
    std::string Cccl = *Cuda + "/include/cccl";
    if (sys::fs::is_directory(Cccl))
      Args.insert(Args.end(), {"-isystem", Cccl});
    Note = "CUDA at " + *Cuda;
  } else {
    Expected<HipSetup> Setup = chooseHipSetup(Src, Extra);
    if (!Setup)
      return Setup.takeError();
    Args.insert(Args.end(), {"-x", "hip", "--cuda-device-only"});
    if (!hasFlagPrefix(Extra, "--offload-arch") &&
        !hasFlagPrefix(Extra, "--cuda-gpu-arch"))
      Args.push_back("--offload-arch=" + (Opts.HipArch.empty()
                                              ? std::string("gfx90a")
                                              : Opts.HipArch));
    if (Setup->NoGpuLib)
      Args.push_back("-nogpulib");
    else
      LinkedDeviceLibs = !hasFlagPrefix(Extra, "-nogpulib");
    switch (Setup->Mode) {
    case HipSetup::RocmRoot:
      if (!Setup->RocmPath.empty())
        Args.push_back("--rocm-path=" + Setup->RocmPath);
      break;
    case HipSetup::UserHeaders:
      Args.push_back("-nogpuinc");
      break;
    case HipSetup::Shim: {
      Args.push_back("-nogpuinc");
      std::string ShimDir = Tmp.path("hip-shim");
      if (std::error_code EC = sys::fs::create_directories(ShimDir + "/hip"))
        return makeError(Src + ": cannot create " + ShimDir + ": " +
                         EC.message());
      std::string Shim = ShimDir + "/gmem_hip_shim.h";
      if (Error E = writeFile(Shim, HipShimHeader))
        return makeError(Src + ": " + toString(std::move(E)));
      for (const char *F : {"/hip/hip_runtime.h", "/hip/hip_runtime_api.h"})
        if (Error E = writeFile(ShimDir + F, HipRuntimeForwarder))
          return makeError(Src + ": " + toString(std::move(E)));
      Args.insert(Args.end(), {"-isystem", ShimDir, "-include", Shim});
      break;
    }
    }
    Note = Setup->Note;
  }

  if (!Opts.OptLevel.empty())
    Args.push_back(Opts.OptLevel);
  Args.insert(Args.end(), Extra.begin(), Extra.end());
  if (Out == OutputKind::Bitcode)
    Args.insert(Args.end(), {"-c", "-emit-llvm"});
  else
    Args.push_back("-S");
  Args.insert(Args.end(), {"-o", OutFile.str(), std::string(SrcArg)});

  if (Opts.Verbose)
    errs() << "gmem: " << Src << ": " << Note << "\n";

  ClangRun R = runClang(Args, Tmp, Opts.Verbose);
  if (R.RC != 0 && !R.ExecFailed && LinkedDeviceLibs) {
    // ROCm's device libraries are LLVM bitcode from ROCm's own LLVM, which
    // this clang may not read. They only matter for math and ockl helper
    // bodies, so retry without them rather than fail.
    if (Opts.Verbose)
      errs() << "gmem: " << Src
             << ": retrying without the ROCm device libraries (-nogpulib)\n";
    Args.insert(Args.end() - 3, "-nogpulib");
    R = runClang(Args, Tmp, Opts.Verbose);
  }
  if (Opts.Verbose && Tmp.keep())
    errs() << "gmem: temporaries kept in " << Tmp.dir() << "\n";
  return checkRun(Src, R, *Clang, OutFile);
}

/// Common checks on the input file.
Error checkInput(StringRef Path, SourceKind Kind, bool PTX) {
  if (!sys::fs::exists(Path))
    return makeError(Path + ": no such file");
  if (sys::fs::is_directory(Path))
    return makeError(Path + ": is a directory");
  if (PTX) {
    if (Kind != SourceKind::CUDA)
      return makeError(Path + ": PTX output needs a CUDA source (.cu/.cuh)");
  } else if (Kind != SourceKind::CUDA && Kind != SourceKind::HIP) {
    return makeError(Path +
                     ": not a CUDA or HIP source (expected .cu, .cuh or .hip)");
  }
  return Error::success();
}

} // namespace

//===----------------------------------------------------------------------===//
// Public API
//===----------------------------------------------------------------------===//

SourceKind classifySource(StringRef Path) {
  std::string Ext = sys::path::extension(Path).lower();
  if (Ext == ".cu" || Ext == ".cuh")
    return SourceKind::CUDA;
  if (Ext == ".hip")
    return SourceKind::HIP;
  if (Ext == ".ll")
    return SourceKind::LLVMIR;
  if (Ext == ".bc")
    return SourceKind::Bitcode;
  return SourceKind::Unknown;
}

Expected<std::unique_ptr<MemoryBuffer>>
compileDeviceBitcode(StringRef Path, const DeviceCompileOptions &Opts) {
  SourceKind Kind = classifySource(Path);
  if (Error E = checkInput(Path, Kind, /*PTX=*/false))
    return E;
  Expected<TempDir> Tmp = TempDir::create();
  if (!Tmp)
    return makeError(Path + ": " + toString(Tmp.takeError()));
  std::string Out = Tmp->path("device.bc");
  if (Error E =
          runDeviceCompile(Path, Kind, Opts, OutputKind::Bitcode, *Tmp, Out))
    return E;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Out, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false,
                            /*IsVolatile=*/true);
  if (!Buf)
    return makeError(
        Path + ": cannot read compiled bitcode: " + Buf.getError().message());
  // Name the buffer after the source (the temporary file goes away).
  return MemoryBuffer::getMemBufferCopy((*Buf)->getBuffer(), Path);
}

Error compileDevicePTX(StringRef Path, StringRef OutPath,
                       const DeviceCompileOptions &Opts) {
  SourceKind Kind = classifySource(Path);
  if (Error E = checkInput(Path, Kind, /*PTX=*/true))
    return E;
  Expected<TempDir> Tmp = TempDir::create();
  if (!Tmp)
    return makeError(Path + ": " + toString(Tmp.takeError()));
  std::string Out = Tmp->path("device.ptx");
  if (Error E = runDeviceCompile(Path, Kind, Opts, OutputKind::PTX, *Tmp, Out))
    return E;
  // Copy (not rename: the temporary directory may be on another file system).
  if (std::error_code EC = sys::fs::copy_file(Out, OutPath))
    return makeError(OutPath + ": cannot write PTX: " + EC.message());
  return Error::success();
}

} // namespace tool
} // namespace gmem

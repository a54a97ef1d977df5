// gmem-analyze: reports what each GPU kernel may read and write, its
// idempotence class, and (instance mode) the decision for one launch.
//
//   gmem-analyze [options] INPUT...            INPUT: .cu .hip .ll .bc
//   gmem-analyze FILE --kernel NAME --grid X[,Y,Z] --block X[,Y,Z]
//                [--alloc BASE:SIZE]... --arg V...   (one --arg per parameter)
//   gmem-analyze FILE.cu --emit-ptx OUT.ptx
#include "DeviceCompile.h"
#include "PreemptionReport.h"

#include "gmem/compiler/DescriptorCodec.h"
#include "gmem/compiler/FlatEval.h"
#include "gmem/compiler/InstanceCheck.h"
#include "gmem/compiler/Report.h"
#include "gmem/passes/DescriptorEmitter.h"
#include "gmem/passes/GpuTarget.h"
#include "gmem/passes/KernelAnalysis.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

using namespace llvm;
using namespace gmem;

namespace {

const char *Usage = R"(usage: gmem-analyze [options] INPUT...
  INPUT is a CUDA (.cu), HIP (.hip) source, or device LLVM IR (.ll, .bc).

Report:
  --json                 JSON output (schema: docs/JSON_SCHEMA.md)
Instance mode (the decision the runtime makes at a launch):
  --kernel NAME          mangled, demangled or plain name
  --grid X[,Y,Z]         grid dimensions (blocks)
  --block X[,Y,Z]        block dimensions (threads)
  --alloc BASE:SIZE      a device allocation (hex base, byte size); repeatable
  --global SYM:BASE:SIZE where a module global the kernel uses lives (default:
                         an object apart from every --alloc)
  --arg V                one per kernel parameter, in order:
                         ptr:0xADDR i32:N u32:N i64:N u64:N f32:X f64:X;
                         by-value structs: struct:KIND:V,... (C layout) or bytes:HEX
Compilation of .cu/.hip inputs:
  --emit-ptx OUT         write the device PTX (with gmem descriptors) of a .cu input
  --cuda-arch ARCH       default sm_90        --hip-arch ARCH   default gfx90a
  -Xclang-arg FLAG       pass FLAG to clang (repeatable); also: -- FLAGS...
  -v, --verbose          show the clang command
  --stats                per input: device-compile and analysis wall time (stderr)
  -h, --help             this text
)";

[[noreturn]] void fail(const Twine &Msg) {
  errs() << "gmem-analyze: error: " << Msg << "\n";
  std::exit(1);
}

std::optional<uint64_t> parseUnsigned(StringRef S) {
  uint64_t V;
  if (S.empty() || S.getAsInteger(0, V))
    return std::nullopt;
  return V;
}

std::optional<int64_t> parseSigned(StringRef S) {
  int64_t V;
  if (S.empty() || S.getAsInteger(0, V))
    return std::nullopt;
  return V;
}

void parseDims(StringRef Flag, StringRef S, int64_t Out[3]) {
  SmallVector<StringRef, 3> Parts;
  S.split(Parts, ',');
  if (Parts.empty() || Parts.size() > 3)
    fail(Flag + " takes X[,Y,Z], got '" + S + "'");
  for (size_t I = 0; I < 3; ++I) {
    if (I >= Parts.size()) {
      Out[I] = 1;
      continue;
    }
    auto V = parseUnsigned(Parts[I].trim());
    if (!V || *V == 0 || *V > UINT32_MAX)
      fail(Flag + ": '" + Parts[I] + "' is not a positive 32-bit integer");
    Out[I] = int64_t(*V);
  }
}

Allocation parseAlloc(StringRef S) {
  auto [B, Sz] = S.split(':');
  std::string Base = B.str();
  if (!StringRef(Base).starts_with_insensitive("0x"))
    Base = "0x" + Base;
  auto BV = parseUnsigned(Base);
  auto SV = parseUnsigned(Sz);
  if (!BV || !SV || *SV == 0)
    fail("--alloc takes BASE:SIZE (hex base, byte size > 0), got '" + S + "'");
  if (*BV + *SV < *BV)
    fail("--alloc '" + S + "' wraps the address space");
  return {*BV, *SV};
}

uint64_t parseArg(StringRef S, const ParamInfo &P, unsigned Index);

/// Bytes of a by-value aggregate --arg: `bytes:HEX` (little-endian memory
/// order) or `struct:KIND:V,KIND:V,...` laid out as C does (each field at
/// its natural alignment, zero padding).
std::vector<uint8_t> parseAggregate(StringRef S, const ParamInfo &P, unsigned Index) {
  auto Bad = [&](const Twine &Why) -> std::vector<uint8_t> {
    fail("--arg #" + Twine(Index) + " for by-value parameter '" + P.Name + "' (" +
         Twine(P.ByteSize) + " bytes): " + Why);
  };
  std::vector<uint8_t> Out;
  auto [Kind, Val] = S.split(':');
  if (Kind == "bytes") {
    std::string Hex = Val.str();
    if (StringRef(Hex).starts_with_insensitive("0x"))
      Hex = Hex.substr(2);
    if (Hex.size() % 2)
      return Bad("odd number of hex digits");
    for (size_t I = 0; I < Hex.size(); I += 2) {
      unsigned B;
      if (StringRef(Hex).substr(I, 2).getAsInteger(16, B))
        return Bad("not hex");
      Out.push_back(uint8_t(B));
    }
  } else if (Kind == "struct") {
    SmallVector<StringRef, 8> Fields;
    Val.split(Fields, ',');
    for (StringRef F : Fields) {
      auto [FK, FV] = F.split(':');
      unsigned Bytes = FK == "ptr" || FK == "i64" || FK == "u64" || FK == "f64" ? 8
                       : FK == "i32" || FK == "u32" || FK == "f32"              ? 4
                       : FK == "i16" || FK == "u16"                             ? 2
                       : FK == "i8" || FK == "u8"                               ? 1
                                                                                : 0;
      if (!Bytes || FV.empty())
        return Bad("field '" + F + "' is not KIND:VALUE (ptr i64 u64 f64 i32 u32 f32 i16 u16 i8 u8)");
      while (Out.size() % Bytes)
        Out.push_back(0);
      ParamInfo Scalar;
      Scalar.Name = P.Name;
      Scalar.Type = FK == "ptr" ? ScalarType::Ptr : ScalarType::I64;
      std::string Norm = (FK == "ptr" ? "ptr" : FK.starts_with("f") ? FK : (Bytes == 8 ? "i64" : "i64")).str();
      uint64_t V = parseArg(Norm + ":" + FV.str(), Scalar, Index);
      if (FK == "f32") { // parseArg gives the float's bits for f32
      } else if (Bytes < 8 && !FK.starts_with("f")) {
        int64_t SV = int64_t(V);
        int64_t Lo = FK[0] == 'u' ? 0 : -(int64_t(1) << (8 * Bytes - 1));
        int64_t Hi = FK[0] == 'u' ? (int64_t(1) << (8 * Bytes)) - 1 : (int64_t(1) << (8 * Bytes - 1)) - 1;
        if (SV < Lo || SV > Hi)
          return Bad("field '" + F + "' out of range");
      }
      for (unsigned I = 0; I < Bytes; ++I)
        Out.push_back(uint8_t(V >> (8 * I)));
    }
    while (Out.size() < P.ByteSize)
      Out.push_back(0);
  } else {
    return Bad("give bytes:HEX or struct:KIND:V,...");
  }
  if (P.ByteSize && Out.size() != P.ByteSize)
    return Bad("got " + Twine(Out.size()) + " bytes");
  return Out;
}

/// Bits of one --arg, checked against the parameter it is for.
uint64_t parseArg(StringRef S, const ParamInfo &P, unsigned Index) {
  auto [Kind, Val] = S.split(':');
  auto Bad = [&](const Twine &Why) -> uint64_t {
    fail("--arg #" + Twine(Index) + " '" + S + "' for parameter '" + P.Name + "' (" +
         scalarTypeName(P.Type) + "): " + Why);
  };
  if (Val.empty())
    return Bad("expected KIND:VALUE");
  if (P.Type == ScalarType::Other)
    return Bad("a by-value aggregate takes bytes:HEX or struct:KIND:V,...");
  if (Kind == "ptr") {
    if (P.Type != ScalarType::Ptr)
      return Bad("parameter is not a pointer");
    auto V = parseUnsigned(Val);
    return V ? *V : Bad("not an address");
  }
  if (P.Type == ScalarType::Ptr)
    return Bad("parameter is a pointer; use ptr:0xADDR");
  if (Kind == "f32" || Kind == "f64") {
    char *End = nullptr;
    std::string T = Val.str();
    errno = 0;
    double D = std::strtod(T.c_str(), &End);
    if (!End || *End || errno)
      return Bad("not a number");
    if (Kind == "f32") {
      float F = float(D);
      uint32_t Bits;
      std::memcpy(&Bits, &F, 4);
      return Bits;
    }
    uint64_t Bits;
    std::memcpy(&Bits, &D, 8);
    return Bits;
  }
  unsigned Width = Kind == "i32" || Kind == "u32" ? 32 : Kind == "i64" || Kind == "u64" ? 64 : 0;
  if (!Width)
    return Bad("unknown kind (use ptr, i32, u32, i64, u64, f32, f64)");
  bool Unsigned = Kind[0] == 'u';
  if (Unsigned) {
    auto V = parseUnsigned(Val);
    if (!V || (Width == 32 && *V > UINT32_MAX))
      return Bad("out of range");
    return *V;
  }
  auto V = parseSigned(Val);
  if (!V || (Width == 32 && (*V < INT32_MIN || *V > INT32_MAX)))
    return Bad("out of range");
  return Width == 32 ? uint64_t(uint32_t(int32_t(*V))) : uint64_t(*V);
}

struct Options {
  std::vector<std::string> Inputs;
  bool Json = false;
  bool Stats = false;
  std::string Kernel, EmitPTX;
  bool HaveGrid = false, HaveBlock = false;
  int64_t Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  std::vector<Allocation> Allocs;
  std::map<std::string, Allocation> Globals;
  std::vector<std::string> Args;
  tool::DeviceCompileOptions Compile;
};

Options parseCommandLine(int argc, char **argv) {
  Options O;
  for (int I = 1; I < argc; ++I) {
    StringRef A = argv[I];
    auto Value = [&]() -> StringRef {
      if (I + 1 >= argc)
        fail(A + " needs a value");
      return argv[++I];
    };
    if (A == "-h" || A == "--help") {
      outs() << Usage;
      std::exit(0);
    } else if (A == "--stats") {
      O.Stats = true;
    } else if (A == "--json") {
      O.Json = true;
    } else if (A == "--kernel") {
      O.Kernel = Value().str();
    } else if (A == "--grid") {
      parseDims("--grid", Value(), O.Grid);
      O.HaveGrid = true;
    } else if (A == "--block") {
      parseDims("--block", Value(), O.Block);
      O.HaveBlock = true;
    } else if (A == "--alloc") {
      O.Allocs.push_back(parseAlloc(Value()));
    } else if (A == "--global") {
      auto [Sym, Rest] = Value().split(':');
      if (Sym.empty() || Rest.empty())
        fail("--global takes SYM:BASE:SIZE");
      O.Globals[Sym.str()] = parseAlloc(Rest);
    } else if (A == "--arg") {
      O.Args.push_back(Value().str());
    } else if (A == "--emit-ptx") {
      O.EmitPTX = Value().str();
    } else if (A == "--cuda-arch") {
      O.Compile.CudaArch = Value().str();
    } else if (A == "--hip-arch") {
      O.Compile.HipArch = Value().str();
    } else if (A == "-Xclang-arg") {
      O.Compile.ExtraArgs.push_back(Value().str());
    } else if (A == "-v" || A == "--verbose") {
      O.Compile.Verbose = true;
    } else if (A == "--") {
      for (++I; I < argc; ++I)
        O.Compile.ExtraArgs.push_back(argv[I]);
    } else if (A.starts_with("-") && A != "-") {
      fail("unknown option '" + A + "' (see --help)");
    } else {
      O.Inputs.push_back(A.str());
    }
  }
  if (O.Inputs.empty())
    fail("no input files (see --help)");
  bool Instance = !O.Kernel.empty();
  if (!Instance && (O.HaveGrid || O.HaveBlock || !O.Allocs.empty() || !O.Args.empty() ||
                    !O.Globals.empty()))
    fail("--grid/--block/--alloc/--global/--arg need --kernel");
  if (Instance && (!O.HaveGrid || !O.HaveBlock))
    fail("instance mode needs --grid and --block");
  return O;
}

/// Strips optnone so that -O0 IR can be brought to the form the analysis
/// expects (SSA values, canonical loops).
bool isUnoptimized(const Module &M) {
  for (const Function &F : M)
    if (!F.isDeclaration() && F.hasFnAttribute(Attribute::OptimizeNone))
      return true;
  return false;
}

void optimizeForAnalysis(Module &M) {
  for (Function &F : M) {
    F.removeFnAttr(Attribute::OptimizeNone);
    F.removeFnAttr(Attribute::NoInline);
  }
  PipelineTuningOptions PTO;
  PTO.LoopUnrolling = false; // keep loops whole: one induction, one region
  PassBuilder PB(nullptr, PTO);
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  PB.buildPerModuleDefaultPipeline(OptimizationLevel::O2).run(M, MAM);
}

/// The pass plugin next to this tool (build/lib), or $GMEM_PLUGIN.
std::string findPlugin() {
  if (const char *Env = std::getenv("GMEM_PLUGIN"))
    return sys::fs::exists(Env) ? std::string(Env) : std::string();
  static int Anchor;
  std::string Exe = sys::fs::getMainExecutable("gmem-analyze", &Anchor);
  SmallString<256> P(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(P, "lib", "GmemPlugin.so");
  return sys::fs::exists(P) ? std::string(P) : std::string();
}

/// What the compiler embedded, else a fresh in-process analysis.
std::vector<KernelDescriptor> descriptorsOf(Module &M, const std::string &Path) {
  std::vector<std::string> Errors;
  std::vector<KernelDescriptor> Embedded = readDescriptors(M, &Errors);
  if (!Errors.empty())
    fail(Path + ": malformed gmem descriptor " + Errors.front());
  if (!Embedded.empty())
    return Embedded;
  return analyzeModule(M);
}

std::unique_ptr<Module> loadModule(const std::string &Path, const Options &O, LLVMContext &Ctx) {
  tool::SourceKind Kind = tool::classifySource(Path);
  if (!sys::fs::exists(Path))
    fail(Path + ": no such file");
  if (sys::fs::is_directory(Path))
    fail(Path + ": is a directory");
  std::unique_ptr<Module> M;
  if (Kind == tool::SourceKind::CUDA || Kind == tool::SourceKind::HIP) {
    tool::DeviceCompileOptions C = O.Compile;
    // Compile as a gmem build does: the plugin analyses before unrolling and
    // embeds the descriptors, which we then read back. Without the plugin,
    // analyse in-process with whole loops. Source names label parameters;
    // the user's own flags come after ours and win.
    std::string Plugin = findPlugin();
    if (!Plugin.empty())
      C.ExtraArgs.insert(C.ExtraArgs.begin(),
                         {"-fpass-plugin=" + Plugin, "-fno-discard-value-names"});
    else
      C.ExtraArgs.insert(C.ExtraArgs.begin(), {"-fno-unroll-loops", "-fno-discard-value-names"});
    auto Buf = tool::compileDeviceBitcode(Path, C);
    if (!Buf)
      fail(toString(Buf.takeError()));
    auto MOrErr = parseBitcodeFile((*Buf)->getMemBufferRef(), Ctx);
    if (!MOrErr)
      fail(Path + ": cannot read the compiled bitcode: " + toString(MOrErr.takeError()));
    M = std::move(*MOrErr);
  } else if (Kind == tool::SourceKind::LLVMIR || Kind == tool::SourceKind::Bitcode) {
    SMDiagnostic Err;
    M = parseIRFile(Path, Err, Ctx);
    if (!M) {
      std::string Msg = Err.getMessage().str();
      fail(Path + (Err.getLineNo() > 0 ? ":" + Twine(Err.getLineNo()) : Twine("")) +
           ": invalid LLVM IR: " + Msg);
    }
    if (isUnoptimized(*M))
      optimizeForAnalysis(*M);
  } else {
    fail(Path + ": unknown input kind (expected .cu, .hip, .ll or .bc)");
  }
  if (getGpuArch(*M) == GpuArch::None)
    fail(Path + ": not GPU device code (target triple '" + M->getTargetTriple() +
         "'); give a .cu/.hip source or NVPTX/AMDGPU IR");
  return M;
}

const KernelDescriptor &pickKernel(const std::vector<KernelDescriptor> &All, const std::string &N) {
  std::vector<const KernelDescriptor *> Hits;
  for (int Pass = 0; Pass < 3 && Hits.empty(); ++Pass)
    for (const KernelDescriptor &K : All) {
      // Last name component (after ::) and that without template arguments.
      StringRef Plain = K.PlainName, Last = Plain.rsplit("::").second;
      if (Last.empty())
        Last = Plain;
      bool Match = Pass == 0   ? (K.Symbol == N || K.Name == N)
                   : Pass == 1 ? K.PlainName == N
                               : Last == N || Last.split('<').first == N ||
                                     Plain.split('<').first == N;
      if (Match)
        Hits.push_back(&K);
    }
  if (Hits.empty()) {
    std::string Known;
    for (const KernelDescriptor &K : All)
      Known += (Known.empty() ? "" : ", ") + K.PlainName;
    fail("kernel '" + N + "' not found (kernels: " + (Known.empty() ? "none" : Known) + ")");
  }
  if (Hits.size() > 1) {
    std::string Syms;
    for (auto *K : Hits)
      Syms += " " + K->Symbol;
    fail("kernel name '" + N + "' is ambiguous; use a mangled name:" + Syms);
  }
  return *Hits.front();
}

} // namespace

int main(int argc, char **argv) {
  Options O = parseCommandLine(argc, argv);

  if (!O.EmitPTX.empty()) {
    if (O.Inputs.size() != 1)
      fail("--emit-ptx takes exactly one .cu input");
    if (tool::classifySource(O.Inputs[0]) != tool::SourceKind::CUDA)
      fail(O.Inputs[0] + ": --emit-ptx needs a .cu input");
    // The PTX carries the descriptors, as a gmem build's would.
    tool::DeviceCompileOptions C = O.Compile;
    std::string Plugin = findPlugin();
    // Same flags as analysis mode, so the PTX carries the same descriptors.
    if (!Plugin.empty())
      C.ExtraArgs.insert(C.ExtraArgs.begin(),
                         {"-fpass-plugin=" + Plugin, "-fno-discard-value-names"});
    if (Error E = tool::compileDevicePTX(O.Inputs[0], O.EmitPTX, C))
      fail(toString(std::move(E)));
    return 0;
  }

  LLVMContext Ctx;
  std::vector<KernelDescriptor> Kernels;
  using Clock = std::chrono::steady_clock;
  auto Ms = [](Clock::duration D) { return std::chrono::duration<double, std::milli>(D).count(); };
  for (const std::string &In : O.Inputs) {
    auto T0 = Clock::now();
    std::unique_ptr<Module> M = loadModule(In, O, Ctx);
    auto T1 = Clock::now();
    std::vector<KernelDescriptor> Found = descriptorsOf(*M, In);
    tool::fillPreemption(*M, Found);
    auto T2 = Clock::now();
    // With the plugin the analysis ran inside clang; time it here in-process
    // on the same module so that --stats always has an analysis figure.
    if (O.Stats && !readDescriptors(*M).empty()) {
      T1 = Clock::now();
      (void)analyzeModule(*M);
      T2 = Clock::now();
    }
    if (O.Stats)
      errs() << "gmem-stats: input=" << In << " kernels=" << Found.size()
             << " compile_ms=" << format("%.3f", Ms(T1 - T0))
             << " analysis_ms=" << format("%.3f", Ms(T2 - T1)) << "\n";
    for (KernelDescriptor &K : Found)
      Kernels.push_back(std::move(K));
  }

  if (O.Kernel.empty()) {
    if (O.Json) {
      outs() << "{\n  \"schema\": 1,\n  \"inputs\": [";
      for (size_t I = 0; I < O.Inputs.size(); ++I)
        outs() << (I ? ", " : "") << "\"" << jsonEscape(O.Inputs[I]) << "\"";
      outs() << "],\n  \"kernels\": [";
      for (size_t I = 0; I < Kernels.size(); ++I)
        outs() << (I ? ",\n" : "\n") << kernelJson(Kernels[I], 4);
      outs() << (Kernels.empty() ? "]\n}\n" : "\n  ]\n}\n");
    } else {
      if (Kernels.empty())
        errs() << "gmem-analyze: note: no GPU kernels in the input\n";
      outs() << formatTable(Kernels);
    }
    return 0;
  }

  // Instance mode goes through the binary descriptor, as the runtime does.
  const KernelDescriptor &Picked = pickKernel(Kernels, O.Kernel);
  std::vector<uint8_t> Blob = encodeDescriptor(Picked);
  KernelDescriptor K;
  std::string DecodeErr;
  if (!decodeDescriptor(Blob.data(), Blob.size(), K, &DecodeErr))
    fail("internal: descriptor does not round-trip: " + DecodeErr);
  if (O.Args.size() != K.Params.size())
    fail("kernel '" + K.PlainName + "' has " + Twine(K.Params.size()) + " parameters, got " +
         Twine(O.Args.size()) + " --arg");
  LaunchConfig L;
  for (int I = 0; I < 3; ++I) {
    L.Grid[I] = O.Grid[I];
    L.Block[I] = O.Block[I];
  }
  L.ArgBytes.resize(K.Params.size());
  for (size_t I = 0; I < K.Params.size(); ++I) {
    if (K.Params[I].Type == ScalarType::Other) {
      L.ArgBytes[I] = parseAggregate(O.Args[I], K.Params[I], unsigned(I));
      L.ArgBits.push_back(0);
    } else {
      L.ArgBits.push_back(parseArg(O.Args[I], K.Params[I], unsigned(I)));
    }
  }
  for (size_t I = 0; I < O.Allocs.size(); ++I)
    for (size_t J = I + 1; J < O.Allocs.size(); ++J)
      if (O.Allocs[I].Base < O.Allocs[J].end() && O.Allocs[J].Base < O.Allocs[I].end())
        fail("--alloc ranges overlap");
  auto Find = [&](uint64_t P) -> std::optional<Allocation> {
    for (const Allocation &A : O.Allocs)
      if (P >= A.Base && P < A.end())
        return A;
    return std::nullopt;
  };
  auto FindGlobal = [&](const std::string &Sym) -> std::optional<Allocation> {
    auto It = O.Globals.find(Sym);
    return It == O.Globals.end() ? std::nullopt : std::optional<Allocation>(It->second);
  };
  // The variant the runtime would use for these arguments (LaunchGuard.h).
  const KernelDescriptor &KV = selectVariant(K, L.ArgBits.data(), L.ArgBits.size());
  // Decide with the evaluator libgmemrt uses at every launch (compiled
  // descriptor, compiler/FlatEval), then confirm it against the reference
  // checkInstance, whose form also carries the notes printed below.
  flat::FlatKernel FK = flat::compileKernel(KV);
  flat::FastLaunch FL;
  for (int I = 0; I < 3; ++I) {
    FL.Grid[I] = L.Grid[I];
    FL.Block[I] = L.Block[I];
  }
  FL.ArgBits = L.ArgBits.data();
  FL.NumArgs = L.ArgBits.size();
  std::vector<flat::ByteView> Views;
  for (const std::vector<uint8_t> &B : L.ArgBytes)
    Views.push_back({B.data(), B.size()});
  FL.ArgBytes = Views.data();
  FL.NumArgBytes = Views.size();
  std::vector<std::optional<Allocation>> GlobalAllocs;
  for (const ParamInfo &G : KV.Globals)
    GlobalAllocs.push_back(FindGlobal(G.Name));
  FL.Globals = GlobalAllocs.data();
  flat::FastDecision FD;
  flat::fastCheck(FK, FL,
                  [&](uint64_t P, Allocation &Out) {
                    auto A = Find(P);
                    if (A)
                      Out = *A;
                    return A.has_value();
                  },
                  FD);
  InstanceDecision D = checkInstance(KV, L, Find, FindGlobal);
  std::string Diff = flat::compareDecisions(KV, FD, D);
  if (!Diff.empty())
    fail("internal: the launch evaluator and the reference disagree: " + Diff);
  if (O.Json) {
    outs() << "{\n  \"schema\": 1,\n  \"inputs\": [";
    for (size_t I = 0; I < O.Inputs.size(); ++I)
      outs() << (I ? ", " : "") << "\"" << jsonEscape(O.Inputs[I]) << "\"";
    outs() << "],\n  \"kernels\": [\n" << kernelJson(K, 4) << "\n  ],\n  \"instance\": "
           << instanceJson(KV, L, D, 2) << "\n}\n";
  } else {
    outs() << formatTable({K});
    if (&KV != &K)
      for (const KernelVariant &V : K.Variants)
        if (V.D.get() == &KV)
          outs() << "launch variant: " << variantGuardText(K, V) << " holds at this launch\n";
    outs() << instanceText(KV, L, D);
  }
  return 0;
}

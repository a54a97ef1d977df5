//===- Plugin.cpp - gmem's LLVM new-PM plugin ----------------------------===//
//
// Usable as `opt -load-pass-plugin=GmemPlugin.so -passes=gmem-print` and as
// `clang -fpass-plugin=GmemPlugin.so`. Passes:
//   gmem-print       text report of every kernel's regions and class
//   gmem-print-json  the same in the JSON schema of docs/JSON_SCHEMA.md
//   gmem-embed       embed each kernel's descriptor (DescriptorEmitter.h)
//   gmem-checkpoint  add each kernel's preemptible clone (CheckpointInserter.h)
//   gmem-checkpoint-reserve  declare the clones early (clang runs it first)
// Under clang the analysis runs at the start of the optimisation pipeline
// (after inlining, before unrolling and vectorisation) and writes its report
// where GMEM_REPORT names (a file, or '-' for stderr), and the descriptors
// are embedded for the runtime. Host modules have no
// kernels, so the host half of a CUDA/HIP compile is left untouched.
// The preemptible clones are added at the end of the optimisation pipeline
// (GMEM_CHECKPOINTS=0 turns that off): the analysis and the descriptors see
// only the user's kernels, and each clone copies its kernel's optimised body
// (declared at the pipeline start: CheckpointReservePass says why).
//
//===----------------------------------------------------------------------===//

#include "gmem/compiler/Report.h"
#include "gmem/passes/CheckpointInserter.h"
#include "gmem/passes/DescriptorEmitter.h"
#include "gmem/passes/GpuTarget.h"
#include "gmem/passes/KernelAnalysis.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;

namespace {

std::string renderReport(const std::vector<gmem::KernelDescriptor> &Kernels, bool Json,
                         StringRef Source) {
  if (!Json)
    return gmem::formatTable(Kernels);
  std::string S = "{\n  \"schema\": 1,\n  \"inputs\": [\"" + gmem::jsonEscape(Source.str()) +
                  "\"],\n  \"kernels\": [";
  for (size_t I = 0; I < Kernels.size(); ++I)
    S += (I ? ",\n" : "\n") + gmem::kernelJson(Kernels[I], 4);
  S += Kernels.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return S;
}

/// Prints the analysis of every kernel (opt's -passes=gmem-print).
struct KernelReportPrinter : PassInfoMixin<KernelReportPrinter> {
  bool Json;
  explicit KernelReportPrinter(bool Json) : Json(Json) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    outs() << renderReport(gmem::analyzeModule(M), Json, M.getSourceFileName());
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

/// The pass clang runs: analysis, and the report where GMEM_REPORT says.
struct KernelReportWriter : PassInfoMixin<KernelReportWriter> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (gmem::getGpuArch(M) == gmem::GpuArch::None)
      return PreservedAnalyses::all();
    const char *Where = std::getenv("GMEM_REPORT");
    if (!Where || !*Where)
      return PreservedAnalyses::all();
    const char *Fmt = std::getenv("GMEM_REPORT_FORMAT");
    bool Json = Fmt && StringRef(Fmt) == "json";
    std::string Text = renderReport(gmem::analyzeModule(M), Json, M.getSourceFileName());
    if (StringRef(Where) == "-") {
      errs() << Text;
    } else {
      std::error_code EC;
      raw_fd_ostream OS(Where, EC, sys::fs::OF_Append);
      if (EC)
        errs() << "gmem: cannot write report to '" << Where << "': " << EC.message() << "\n";
      else
        OS << Text;
    }
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "gmem-print") {
          MPM.addPass(KernelReportPrinter(false));
          return true;
        }
        if (Name == "gmem-print-json") {
          MPM.addPass(KernelReportPrinter(true));
          return true;
        }
        if (Name == "gmem-embed") {
          MPM.addPass(gmem::DescriptorEmitterPass());
          return true;
        }
        if (Name == "gmem-checkpoint") {
          MPM.addPass(gmem::CheckpointInserterPass());
          return true;
        }
        if (Name == "gmem-checkpoint-reserve") {
          MPM.addPass(gmem::CheckpointReservePass());
          return true;
        }
        if (Name == "gmem-report") {
          MPM.addPass(KernelReportWriter());
          return true;
        }
        return false;
      });
  PB.registerAnalysisRegistrationCallback(
      [](ModuleAnalysisManager &MAM) { MAM.registerPass([] { return gmem::KernelRegionAnalysis(); }); });
  PB.registerOptimizerEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(KernelReportWriter());
        MPM.addPass(gmem::DescriptorEmitterPass());
      });
  PB.registerPipelineStartEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
    MPM.addPass(gmem::CheckpointReservePass());
  });
  PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM, OptimizationLevel) {
    MPM.addPass(gmem::CheckpointInserterPass());
  });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "gmem", "0.1", registerCallbacks};
}

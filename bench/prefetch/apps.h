// Workloads of the oversubscription benchmark (part 2 of bench/prefetch):
// PolyBench-GPU-like kernels (polybench.cu) and Rodinia-like applications
// (rodinia.cu) over managed memory, each sized to a target footprint.
//
// Every workload is decomposed so that one launch touches at most about an
// eighth of the footprint (row panels, bands, planes, rows): under a device
// budget of F/2 every launch still fits, and the budget decides how much of
// the rest stays resident between launches. A launch whose own working set
// exceeds the budget is a different case (GMEM_PREFETCH_UNBOUNDED, demand
// paging inside the kernel) and is not measured here.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace pf {

struct AppBuffer {
  std::string Name;
  float *Ptr = nullptr;
  size_t Elems = 0;
  bool Output = false; ///< checksummed after the run
  size_t bytes() const { return Elems * sizeof(float); }
};

struct App {
  std::string Name;
  std::string Shape; ///< problem dimensions, for the report
  std::vector<AppBuffer> Buffers;
  /// One repetition: launches only (the caller synchronises and times).
  std::function<void()> Run;
  /// Launches per repetition and the largest bytes one launch touches.
  size_t LaunchesPerRep = 0, MaxLaunchBytes = 0;
  size_t footprint() const {
    size_t F = 0;
    for (const auto &B : Buffers)
      F += B.bytes();
    return F;
  }
};

/// Allocates (cudaMallocManaged, not filled) the buffers of workload Name for
/// a footprint of at most TargetBytes; false if Name is unknown.
bool makePolybenchApp(const std::string &Name, size_t TargetBytes, App &Out);
bool makeRodiniaApp(const std::string &Name, size_t TargetBytes, App &Out);

/// Appends a managed buffer of Elems floats to A.
float *addBuffer(App &A, const std::string &Name, size_t Elems, bool Output);

/// Row panels of the matrix workloads.
constexpr int Panels = 8;

} // namespace pf

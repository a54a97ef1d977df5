// Human-readable and JSON renderings of kernel descriptors and instance
// decisions (schema: docs/JSON_SCHEMA.md). Shared by gmem-analyze, the
// plugin's printing pass and the runtime's log.
#pragma once

#include "gmem/compiler/InstanceCheck.h"
#include "gmem/compiler/KernelDescriptor.h"

#include <string>
#include <vector>

namespace gmem {

std::string regionText(const AccessRegion &R, const std::vector<std::string> &Names);
/// "b == 0 and bias == null": a variant's guard.
std::string variantGuardText(const KernelDescriptor &K, const KernelVariant &V);
std::string formatTable(const std::vector<KernelDescriptor> &Kernels);
std::string jsonEscape(const std::string &S);
/// The "preempt:" line of the table and the "preemption" object of the schema.
std::string preemptionText(const PreemptionSummary &P);
std::string preemptionJson(const PreemptionSummary &P);
/// One KERNEL object of the schema.
std::string kernelJson(const KernelDescriptor &K, int Indent);
/// The INSTANCE object of the schema.
std::string instanceJson(const KernelDescriptor &K, const LaunchConfig &L,
                         const InstanceDecision &D, int Indent);
std::string instanceText(const KernelDescriptor &K, const LaunchConfig &L,
                         const InstanceDecision &D);

} // namespace gmem

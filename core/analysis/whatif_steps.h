#pragma once
// What-if, the step of every kernel (docs/analysis.md, What-if): with NVTX step ranges, the range
// that holds the kernel's launch call (a kernel without a launch row: the last range that began
// at or before its start); else, where a group's steps were inferred from its op period, the step
// of the rank's latest collective of that group that started at or before the kernel. Steps are
// numbered 1.. (per process, in time order, for NVTX ranges); 0 is no step.

#include <cstdint>
#include <vector>

#include "analysis/step_pattern.h"
#include "analysis/whatif_graph.h"

namespace skew {

struct KernelSteps {
    std::vector<uint32_t> step;  // per lane-order id
    uint32_t count = 0;          // the largest step
    StepSource source = StepSource::None;
};

KernelSteps kernelSteps(const Profile& p, const Analysis& a, const ReplayKernels& k, const StepPattern& pattern);

}  // namespace skew

#pragma once
// Stage 6 (docs/analysis.md, Steps): each collective's training step and its offset in the step.
// From NVTX: the outermost ranges whose text matches the step pattern, numbered 1.. in time order
// per process; a collective belongs to the range that holds its early arriver's start (or, since
// GPU work trails the CPU range that launched it, the last range that began before it). Without
// such ranges: inferred from the group's op period (a sequence of one op has none).

#include "analysis/analysis.h"

namespace skew {

// Per process: the outermost NVTX ranges matching `pattern`, in time order ([start, end)).
std::vector<std::vector<std::pair<int64_t, int64_t>>> stepRanges(const Profile& p, const StepPattern& pattern);

// The smallest period P (2 <= P <= n/2) with ops[i] == ops[i + P] throughout, or 0.
uint32_t opPeriod(const std::vector<CollOp>& ops);

// Fills Collective::step/offsetInStepNs and Group::stepsSource/stepCount/inferredPeriod.
void assignSteps(const Profile& p, Analysis& a, const StepPattern& pattern);

}  // namespace skew

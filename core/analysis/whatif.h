#pragma once
// What-if, the scenarios (docs/analysis.md, What-if): the replay graph built once, replayed with
// captured inputs (its error says how well it reproduces the capture), then with the scenarios'
// inputs: no_slow_kernels, no_late_launches, ideal, and one replay per rank for by_rank, in
// parallel. Fills Analysis::whatIf; a scenario that cannot be computed gets a warning with why.

#include "analysis/analysis.h"
#include "analysis/step_pattern.h"

namespace skew {

void computeWhatIf(const Profile& p, Analysis& a, const StepPattern& pattern);

}  // namespace skew

#pragma once
// What-if, the scenarios (docs/analysis.md, What-if): the replay graph built once, replayed with
// captured inputs (its error says how well it reproduces the capture), then with the scenarios'
// inputs: no_slow_kernels, no_late_launches, ideal, and one replay per rank for by_rank, in
// parallel. Fills Analysis::whatIf; a scenario that cannot be computed gets a warning with why.
// analyze() runs it as its last stage; an analysis made without it (AnalysisOptions::whatIf false:
// the viewer, whose first picture does not need it) gets it later from computeWhatIf + fillWhatIf.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "analysis/analysis.h"
#include "analysis/step_pattern.h"
#include "util/memory_budget.h"

namespace skew {

// analyze()'s stage: Analysis::whatIf and its warnings (appended to Analysis::warnings)
void computeWhatIf(const Profile& p, Analysis& a, const StepPattern& pattern);

// The what-if of an analysis made without it, computed apart (the analysis is only read: a copy of
// the result goes in later, on the thread that owns it). `stop` is asked between the stages and
// between the replays; true throws Cancelled.
struct WhatIfOutcome {
    WhatIf whatIf;
    std::vector<std::string> warnings;  // the what-if's, in the order analyze() appends them
};
WhatIfOutcome computeWhatIf(const Profile& p, const Analysis& a, const std::function<bool()>& stop = {});
// The memory the what-if's replay of `kernels` kernels takes at its peak (bytes), `members` the
// members of the analysis' collectives, `packed` whether the sweeps read records packed once. A
// what-if that would need more than the budget (util/memory_budget.h: SKEWSCOPE_WHATIF_MAX_MB, else
// the memory available) is left out: WhatIf::notComputed and a warning say why.
uint64_t whatIfBytes(uint64_t kernels, uint64_t members, bool packed);
// Why a replay of `kernels` kernels (whatIfBytes, plus `extraPerKernel` bytes each) would not fit
// in `budget` (memoryBudget("SKEWSCOPE_WHATIF_MAX_MB")), or "": the what-if's check, and the ideal
// schedule's (its recorded starts and ends).
std::string replayMemoryProblem(const Analysis& a, uint64_t kernels, bool packed, uint64_t extraPerKernel, const MemoryBudget& budget);
// Puts it in `a` as analyze() would have: Analysis::whatIf, and its warnings after the others.
void fillWhatIf(Analysis& a, WhatIfOutcome o);

}  // namespace skew

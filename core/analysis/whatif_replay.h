#pragma once
// What-if, the replay (docs/analysis.md, What-if): one sweep over the replay graph (whatif_graph.h)
// in its order, each kernel starting at its latest bound plus its residual gap, each coupled
// collective ending its members at the latest member's start plus their transfer times. What a
// scenario replaces is said per rank: durations (captured or the counterparts' median) and launch
// bounds (kept or dropped). Several scenarios go through one sweep together, so that the graph's
// arrays are read once for all of them (the sweep is bound by memory, not by arithmetic).

#include <cstdint>
#include <vector>

#include "analysis/whatif_graph.h"

namespace skew {

// Scenarios that go through one sweep together.
constexpr size_t kReplayBatch = 16;

struct ReplayInputs {
    std::vector<uint8_t> median;      // per rank: 1 = durations are the counterparts' median
    std::vector<uint8_t> dropLaunch;  // per rank: 1 = launch bounds dropped (but where keepLaunch)
    bool measureError = false;        // compare each start with the captured one
};

struct ReplayOutcome {
    std::vector<int64_t> stepStart, stepEnd;  // per step (index 0 unused): first start, last end over ranks
    int64_t maxErrorNs = 0;                   // largest |replayed start - captured start|
    uint64_t kernels = 0;
};

// Captured inputs: every rank with captured durations and launches, the error measured.
ReplayInputs capturedInputs(size_t ranks);

// One replay that also writes every kernel's start and end (per lane-order id, g.size() each): the
// ideal schedule (whatif_schedule.h).
ReplayOutcome replayRecorded(const ReplayGraph& g, const ReplayInputs& in, int64_t* start, int64_t* end);

// One outcome per input, in one sweep.
std::vector<ReplayOutcome> replay(const ReplayGraph& g, const std::vector<ReplayInputs>& in);

}  // namespace skew

#pragma once
// What-if, the ideal schedule (docs/analysis.md, What-if): every kernel's start and end in the
// `ideal` scenario's replay (no slow kernels, no late launches), for the timeline's ghost bars and
// the exports. The report needs only step times, so this is computed on demand: it builds the
// replay graph again and replays once (about half a second for 6M kernels on 2 cores).

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/whatif_graph.h"

namespace skew {

struct IdealSchedule {
    ReplayKernels kernels;            // lane-order ids per (rank, lane): the window's kernels
    std::vector<int64_t> start, end;  // per lane-order id, aligned ns
    std::string why;                  // when there is no schedule: why (no steps, no launch rows, ...)

    bool empty() const { return start.empty(); }
    // The ideal [start, end) of kernel k of (rank, lane); false for a kernel outside the window.
    bool at(int rank, int lane, uint32_t k, int64_t& s, int64_t& e) const;
    // Kernels [first, last) of (rank, lane) whose ideal time may overlap [a, b): searched on the
    // ideal ends and starts, which stream order keeps increasing (but for the capture's own overlaps
    // on a stream, which the replay keeps). Lane indexes as Profile's; empty outside the window.
    std::pair<uint32_t, uint32_t> kernelsIn(int rank, int lane, double a, double b) const;
};

// The ideal schedule of the analysis's window; empty with `why` when the what-if has no ideal
// scenario (no training steps, no launch rows, no kernels, not enough memory: whatif.h). `cancelled`
// is asked between stages.
IdealSchedule idealSchedule(const Profile& p, const Analysis& a, const std::function<bool()>& cancelled = {});

}  // namespace skew

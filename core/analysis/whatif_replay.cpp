#include "analysis/whatif_replay.h"

#include <algorithm>
#include <climits>
#include <cstdlib>

namespace skew {

ReplayInputs capturedInputs(size_t ranks) {
    ReplayInputs in;
    in.median.assign(ranks, 0);
    in.dropLaunch.assign(ranks, 0);
    in.measureError = true;
    return in;
}

ReplayOutcome replay(const ReplayGraph& g, const ReplayInputs& in, ReplayScratch& scratch) {
    const size_t n = g.size();
    ReplayOutcome out;
    out.kernels = n;
    out.stepStart.assign(size_t(g.steps) + 1, INT64_MAX);
    out.stepEnd.assign(size_t(g.steps) + 1, INT64_MIN);
    // every end and member start is written before it is read (the order is topological)
    scratch.end.resize(n);
    scratch.memberStart.resize(g.memberNode.size());
    int64_t* const end = scratch.end.data();
    int64_t* const memberStart = scratch.memberStart.data();
    int64_t* const stepStart = out.stepStart.data();
    int64_t* const stepEnd = out.stepEnd.data();
    const bool measure = in.measureError;
    int64_t maxError = 0;
    for (const SweepRun& run : g.order) {
        if (run.lane == kFire) {
            int64_t latest = INT64_MIN;
            for (uint32_t m = g.memberBegin[run.begin]; m < g.memberBegin[run.begin + 1]; ++m) latest = std::max(latest, memberStart[m]);
            for (uint32_t m = g.memberBegin[run.begin]; m < g.memberBegin[run.begin + 1]; ++m) {
                const uint32_t x = g.memberNode[m];
                end[x] = latest + g.transfer[m];
                if (const uint32_t s = g.step[x]) stepEnd[s] = std::max(stepEnd[s], end[x]);
            }
            continue;
        }
        const uint32_t rank = g.laneRank[run.lane];
        const bool drop = in.dropLaunch[rank];
        const int64_t* const dur = in.median[rank] && !g.median.empty() ? g.median.data() : g.duration.data();
        for (uint32_t i = run.begin; i < run.end; ++i) {
            int64_t t = drop && !g.keepLaunch[i] ? kNoBound : g.launch[i];
            if (i > g.laneBase[run.lane]) t = std::max(t, end[i - 1] + g.prevLag[i]);
            if (g.cross[i] >= 0) t = std::max(t, end[size_t(g.cross[i])]);
            const int64_t start = t + g.gap[i];
            if (measure) maxError = std::max<int64_t>(maxError, std::llabs(start - g.start[i]));
            const uint32_t s = g.step[i];
            if (s) stepStart[s] = std::min(stepStart[s], start);
            if (g.member[i] >= 0) {
                memberStart[size_t(g.member[i])] = start;
                continue;
            }
            end[i] = start + dur[i];
            if (s) stepEnd[s] = std::max(stepEnd[s], end[i]);
        }
    }
    out.maxErrorNs = maxError;
    return out;
}

}  // namespace skew

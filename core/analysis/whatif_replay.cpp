#include "analysis/whatif_replay.h"

#include <algorithm>
#include <climits>
#include <cstdlib>

namespace skew {

ReplayInputs capturedInputs(size_t ranks) {
    ReplayInputs in;
    in.median.assign(ranks, 0);
    in.dropLaunch.assign(ranks, 0);
    return in;
}

ReplayOutcome replay(const ReplayGraph& g, const ReplayInputs& in, ReplayScratch& scratch) {
    const size_t n = g.nodes.size();
    ReplayOutcome out;
    out.kernels = n;
    out.stepStart.assign(size_t(g.steps) + 1, INT64_MAX);
    out.stepEnd.assign(size_t(g.steps) + 1, INT64_MIN);
    // every end and member start is written before it is read (the order is topological)
    scratch.end.resize(n);
    scratch.memberStart.resize(g.memberNode.size());
    int64_t* const end = scratch.end.data();
    int64_t* const memberStart = scratch.memberStart.data();
    int64_t maxError = 0;
    size_t nextFire = 0;
    const size_t fires = g.fireAfter.size();
    auto fire = [&](size_t c) {
        int64_t latest = INT64_MIN;
        for (uint32_t m = g.memberBegin[c]; m < g.memberBegin[c + 1]; ++m) latest = std::max(latest, memberStart[m]);
        for (uint32_t m = g.memberBegin[c]; m < g.memberBegin[c + 1]; ++m) {
            const uint32_t x = g.memberNode[m];
            end[x] = latest + g.transfer[m];
            const uint32_t s = g.nodes[x].step;
            if (s) out.stepEnd[s] = std::max(out.stepEnd[s], end[x]);
        }
    };
    for (size_t i = 0; i < n; ++i) {
        while (nextFire < fires && g.fireAfter[nextFire] == i) fire(nextFire++);
        const ReplayNode& nd = g.nodes[i];
        int64_t t = nd.launch;
        if (in.dropLaunch[nd.rank] && !nd.keepLaunch) t = kNoBound;
        if (nd.prev >= 0) t = std::max(t, end[size_t(nd.prev)] + nd.prevLag);
        if (nd.cross >= 0) t = std::max(t, end[size_t(nd.cross)]);
        if (t == kNoBound) t = nd.launch;
        const int64_t start = t + nd.gap;
        maxError = std::max<int64_t>(maxError, std::llabs(start - g.capturedStart[i]));
        if (nd.step) out.stepStart[nd.step] = std::min(out.stepStart[nd.step], start);
        if (nd.member >= 0) {
            memberStart[size_t(nd.member)] = start;
            continue;
        }
        end[i] = start + (in.median[nd.rank] ? nd.median : nd.duration);
        if (nd.step) out.stepEnd[nd.step] = std::max(out.stepEnd[nd.step], end[i]);
    }
    while (nextFire < fires) fire(nextFire++);
    out.maxErrorNs = maxError;
    return out;
}

}  // namespace skew

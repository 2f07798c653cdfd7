#include "analysis/whatif_steps.h"

#include <algorithm>

#include "analysis/steps.h"
#include "util/parallel.h"

namespace skew {
namespace {

using Ranges = std::vector<std::pair<int64_t, int64_t>>;

// 1-based index of the last range that began at or before t, 0 when none; with `within`, 0 also
// when t is at or after that range's end.
uint32_t rangeAt(const Ranges& r, int64_t t, bool within) {
    auto it = std::upper_bound(r.begin(), r.end(), t, [](int64_t x, const std::pair<int64_t, int64_t>& y) { return x < y.first; });
    if (it == r.begin()) return 0;
    --it;
    if (within && t >= it->second) return 0;
    return uint32_t(it - r.begin()) + 1;
}

// Lanes in parallel: each writes only its own kernels' steps.
void nvtxSteps(const Profile& p, const ReplayKernels& k, const std::vector<Ranges>& ranges, size_t threads, KernelSteps& out) {
    std::vector<uint32_t> most(k.lanes.size(), 0);
    parallelFor(k.lanes.size(), threads, [&](size_t x) {
        const ReplayLane& l = k.lanes[x];
        const Rank& r = p.ranks[size_t(l.rank)];
        const KernelLane& kl = r.lanes[size_t(l.lane)];
        const Ranges& rr = ranges[size_t(r.process)];
        for (uint32_t i = l.lo; i < l.hi; ++i) {
            const bool launched = kl.hasLaunch(i);
            const uint32_t s = rangeAt(rr, launched ? kl.launchStart(i) : kl.start[i], launched);
            out.step[l.base + (i - l.lo)] = s;
            most[x] = std::max(most[x], s);
        }
    });
    for (uint32_t m : most) out.count = std::max(out.count, m);
}

// Per rank of the group: (start of its member, step) of its collectives with a step, in order;
// each kernel of the rank takes the step of the last one that started at or before it.
void inferredSteps(const Profile& p, const Analysis& a, const Group& g, const ReplayKernels& k, KernelSteps& out) {
    for (size_t s = 0; s < g.width(); ++s) {
        const GroupSlot& gl = g.lanes[s];
        const KernelLane& nl = p.ranks[size_t(gl.rank)].lanes[size_t(gl.lane)];
        std::vector<std::pair<int64_t, uint32_t>> marks;
        for (uint32_t c = 0; c < g.count; ++c) {
            const Collective& col = a.collectives[g.firstCollective + c];
            const uint32_t kk = a.slotKernel(col, s);
            if (col.step && kk != kMissing && (marks.empty() || marks.back().second != col.step)) marks.emplace_back(nl.start[kk], col.step);
        }
        for (size_t l = k.firstLane[size_t(gl.rank)]; l < k.firstLane[size_t(gl.rank) + 1]; ++l) {
            const ReplayLane& rl = k.lanes[l];
            const KernelLane& kl = p.ranks[size_t(gl.rank)].lanes[size_t(rl.lane)];
            for (uint32_t i = rl.lo; i < rl.hi; ++i) {
                auto it = std::upper_bound(marks.begin(), marks.end(), kl.start[i],
                                           [](int64_t t, const std::pair<int64_t, uint32_t>& m) { return t < m.first; });
                const uint32_t step = it == marks.begin() ? 0 : std::prev(it)->second;
                out.step[rl.base + (i - rl.lo)] = step;
                out.count = std::max(out.count, step);
            }
        }
    }
}

}  // namespace

KernelSteps kernelSteps(const Profile& p, const Analysis& a, const ReplayKernels& k, const StepPattern& pattern) {
    KernelSteps out;
    out.step.assign(k.count, 0);
    const std::vector<Ranges> ranges = stepRanges(p, pattern);
    if (std::any_of(ranges.begin(), ranges.end(), [](const Ranges& r) { return !r.empty(); })) {
        nvtxSteps(p, k, ranges, a.options.threads, out);
        if (out.count) out.source = StepSource::Nvtx;
        return out;
    }
    for (const Group& g : a.groups) {
        if (g.stepsSource != StepSource::Inferred) continue;
        inferredSteps(p, a, g, k, out);
        if (out.count) out.source = StepSource::Inferred;
        return out;
    }
    return out;
}

}  // namespace skew

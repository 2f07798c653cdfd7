#include "analysis/steps.h"

#include <algorithm>
#include <map>

namespace skew {

std::vector<std::vector<std::pair<int64_t, int64_t>>> stepRanges(const Profile& p, const StepPattern& pattern) {
    std::vector<std::vector<std::pair<int64_t, int64_t>>> out(p.processes.size());
    std::vector<int8_t> textMatches(p.strings.size(), -1);  // per string id: -1 not looked at, 0/1
    // the work matching will take, bounded before any of it (a pathological pattern on long texts)
    if (!pattern.source().empty()) {  // (the default pattern is exempt: StepPattern::checkWork)
        uint64_t distinct = 0, bytes = 0;
        for (const Process& pr : p.processes)
            for (size_t i = 0; i < pr.nvtx.size(); ++i)
                if (int8_t& seen = textMatches[pr.nvtx.text[i]]; seen == -1) {
                    seen = -2;
                    ++distinct;
                    bytes += p.strings.str(pr.nvtx.text[i]).size();
                }
        pattern.checkWork(distinct, bytes);
        std::fill(textMatches.begin(), textMatches.end(), int8_t(-1));
    }
    for (size_t pi = 0; pi < p.processes.size(); ++pi) {
        const NvtxRanges& r = p.processes[pi].nvtx;
        auto& ranges = out[pi];
        for (size_t i = 0; i < r.size(); ++i) {
            int8_t& m = textMatches[r.text[i]];
            if (m < 0) m = pattern.matches(p.strings.str(r.text[i])) ? 1 : 0;
            if (!m) continue;
            if (!ranges.empty() && r.start[i] < ranges.back().second) continue;  // nested in the previous step
            ranges.emplace_back(r.start[i], r.end(i));
        }
    }
    return out;
}

uint32_t opPeriod(const std::vector<CollOp>& ops) {
    // the smallest P with ops[i] == ops[i + P] everywhere is n - (the longest proper border), from
    // the prefix function in linear time; P = 1 is a sequence of one op: no steps to infer
    const uint32_t n = uint32_t(ops.size());
    if (n < 2) return 0;
    std::vector<uint32_t> border(n, 0);
    for (uint32_t i = 1; i < n; ++i) {
        uint32_t k = border[i - 1];
        while (k > 0 && ops[i] != ops[k]) k = border[k - 1];
        if (ops[i] == ops[k]) ++k;
        border[i] = k;
    }
    uint32_t P = n - border[n - 1];
    return P >= 2 && P * 2 <= n ? P : 0;
}

namespace {

// Each collective's 1-based place among its group's collectives of the same step.
void assignPositions(const Group& g, std::vector<Collective>& cs) {
    std::vector<uint32_t> seen(g.stepCount + 1, 0);
    for (uint32_t c = 0; c < g.count; ++c) {
        Collective& col = cs[g.firstCollective + c];
        if (col.step) col.positionInStep = ++seen[col.step];
    }
}

}  // namespace

void assignSteps(const Profile& p, Analysis& a, const StepPattern& pattern) {
    const auto ranges = stepRanges(p, pattern);
    for (Group& g : a.groups) {
        uint32_t maxStep = 0;
        bool nvtx = false;
        std::map<uint32_t, int64_t> durations;  // step -> duration of the range its first collective fell in
        for (uint32_t c = 0; c < g.count; ++c) {
            Collective& col = a.collectives[g.firstCollective + c];
            if (col.earlySlot < 0) continue;
            const auto& sr = ranges[size_t(p.ranks[size_t(g.lanes[size_t(col.earlySlot)].rank)].process)];
            auto it = std::upper_bound(sr.begin(), sr.end(), col.minStart,
                                       [](int64_t t, const std::pair<int64_t, int64_t>& r) { return t < r.first; });
            if (it == sr.begin()) continue;
            --it;
            col.step = uint32_t(it - sr.begin()) + 1;
            col.offsetInStepNs = col.minStart - it->first;
            durations.emplace(col.step, it->second - it->first);
            maxStep = std::max(maxStep, col.step);
            nvtx = true;
        }
        if (nvtx) {
            g.stepsSource = StepSource::Nvtx;
            g.stepCount = maxStep;
            std::vector<int64_t> d;
            for (auto [step, ns] : durations) d.push_back(ns);
            g.stepMedianNs = percentileRounded(std::move(d), 50);
            assignPositions(g, a.collectives);
            continue;
        }
        const uint32_t period = opPeriod(g.positionOps);
        if (!period) continue;
        g.stepsSource = StepSource::Inferred;
        g.inferredPeriod = period;
        g.stepCount = (g.count + period - 1) / period;
        for (uint32_t c = 0; c < g.count; ++c) {
            Collective& col = a.collectives[g.firstCollective + c];
            col.step = c / period + 1;
            col.offsetInStepNs = col.minStart - a.collectives[g.firstCollective + (c / period) * period].minStart;
        }
        assignPositions(g, a.collectives);
    }
}

}  // namespace skew

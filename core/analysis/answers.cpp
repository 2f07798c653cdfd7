#include "analysis/answers.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "util/saturating.h"
#include "util/text.h"

namespace skew {

const char* verdictName(WhoVerdict v) {
    switch (v) {
    case WhoVerdict::Persistent: return "persistent";
    case WhoVerdict::OftenLastSmall: return "often_last_small";
    default: return "rotating";
    }
}

namespace {

void whoAnswer(const Analysis& a, const Group& g, Answers& ans) {
    const size_t k = g.width();
    std::vector<uint32_t> last(k, 0);
    for (uint32_t c = 0; c < g.count; ++c) {
        const Collective& col = a.collectives[g.firstCollective + c];
        if (!col.complete || col.big) continue;
        ++last[size_t(col.lateSlot)];
        ++ans.considered;
    }
    size_t top = 0;
    for (size_t s = 1; s < k; ++s)
        if (last[s] > last[top]) top = s;  // ties: the first in rank order
    const double n = ans.considered;
    ans.topRank = g.lanes[top].rank;
    ans.topLastCount = last[top];
    ans.lastShare = n > 0 ? double(last[top]) / n : 0;
    if (n > 0 && k >= 2) {
        const double expected = n / double(k);
        for (uint32_t x : last) ans.chi2 += (double(x) - expected) * (double(x) - expected) / expected;
        ans.chi2P = chiSquareUpperTail(ans.chi2, double(k - 1));
    }
    std::vector<int64_t> others;
    for (size_t s = 0; s < k; ++s) {
        const int64_t m = g.perRank[s].meanLatenessExclBigNs;
        if (ans.meanExclBigMinRank < 0 || m < ans.meanExclBigMinNs) ans.meanExclBigMinNs = m, ans.meanExclBigMinRank = g.lanes[s].rank;
        if (ans.meanExclBigMaxRank < 0 || m > ans.meanExclBigMaxNs) ans.meanExclBigMaxNs = m, ans.meanExclBigMaxRank = g.lanes[s].rank;
        if (s != top) others.push_back(m);
    }
    const double othersMedian = percentile(others, 50);
    ans.othersMedianExclBigNs = int64_t(std::llround(othersMedian));
    const double topMean = double(g.perRank[top].meanLatenessExclBigNs);
    if (n > 0 && 2.0 * last[top] >= n && topMean >= 2.0 * othersMedian) ans.verdict = WhoVerdict::Persistent;
    else if (n > 0 && ans.chi2P < kOftenLastP) ans.verdict = WhoVerdict::OftenLastSmall;
    else ans.verdict = WhoVerdict::Rotating;
    // a verdict that names a rank: on how much it rests
    if (ans.verdict != WhoVerdict::Rotating) {
        VerdictEvidence& ve = ans.verdictEvidence;
        ve.fewCollectives = ans.considered < kVerdictCollectives;
        ve.twoRanks = ans.verdict == WhoVerdict::Persistent && k == 2;
        ve.notSignificant = ans.verdict == WhoVerdict::Persistent && ans.chi2P >= kOftenLastP;
    }
}

void positionsAnswer(const Analysis& a, const Group& g, Answers& ans) {
    std::map<uint32_t, BigPosition> byPosition;
    std::map<uint32_t, std::vector<int64_t>> offsets;
    for (uint32_t c = 0; c < g.count; ++c) {
        const Collective& col = a.collectives[g.firstCollective + c];
        const uint32_t position = col.positionInStep;
        if (!position || !col.complete || !col.big) continue;
        BigPosition& bp = byPosition[position];
        bp.position = position;
        bp.steps.push_back(col.step);
        bp.lateRanks.push_back(a.lateRank(col));
        bp.collectives.push_back(g.firstCollective + c);
        offsets[position].push_back(col.offsetInStepNs);
    }
    for (auto& [position, bp] : byPosition) {
        if (std::set<uint32_t>(bp.steps.begin(), bp.steps.end()).size() < 2) continue;  // recurring: in two steps or more
        // steps ascending, late ranks and collectives aligned with them
        std::vector<size_t> order(bp.steps.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return bp.steps[x] < bp.steps[y]; });
        BigPosition sorted;
        sorted.position = position;
        for (size_t i : order) {
            sorted.steps.push_back(bp.steps[i]);
            sorted.lateRanks.push_back(bp.lateRanks[i]);
            sorted.collectives.push_back(bp.collectives[i]);
        }
        sorted.offsetMedianNs = percentileRounded(offsets[position], 50);
        ans.positions.push_back(std::move(sorted));
    }
    // rotating big events: two ranks or more, none late in more than half of them
    ans.bigLateCount.clear();
    for (int r : ans.bigLateRanks) ++ans.bigLateCount[r];
    ans.bigMostLate = 0;
    for (auto [r, n] : ans.bigLateCount) ans.bigMostLate = std::max(ans.bigMostLate, n);
    ans.bigRotate = ans.bigLateCount.size() >= 2 && 2 * ans.bigMostLate <= ans.bigLateRanks.size();
}

void causeAnswer(const Profile& p, const Analysis& a, const Group& g, Answers& ans) {
    std::map<std::pair<StrId, int32_t>, size_t> predIndex;
    for (uint32_t c = 0; c < g.count; ++c) {
        const Collective& col = a.collectives[g.firstCollective + c];
        if (!col.complete) continue;
        if (!col.big) {
            ++ans.restCauses[size_t(col.cause)];
            ans.restCpuNs = satAdd(ans.restCpuNs, col.cpuNs);
            ans.restGpuNs = satAdd(ans.restGpuNs, col.gpuNs);
            continue;
        }
        ++ans.bigCauses[size_t(col.cause)];
        if (col.cause != Cause::GpuDependency) continue;
        if (col.launched) {
            if (!ans.hasGpuGap || col.launchToStartNs < ans.gpuGapMinNs) ans.gpuGapMinNs = col.launchToStartNs;
            if (!ans.hasGpuGap || col.launchToStartNs > ans.gpuGapMaxNs) ans.gpuGapMaxNs = col.launchToStartNs;
            ans.hasGpuGap = true;
        }
        const KernelLane& pl = p.ranks[size_t(col.predRank)].lanes[size_t(col.predLane)];
        auto key = std::make_pair(pl.name[col.predKernel], pl.stream);
        auto [it, fresh] = predIndex.emplace(key, ans.predecessors.size());
        if (fresh) ans.predecessors.push_back({key.first, key.second, 0, 0, col.predIsGemm});
        ++ans.predecessors[it->second].count;
        ans.predecessors[it->second].sameStream += col.predSameStream ? 1 : 0;
    }
    std::stable_sort(ans.predecessors.begin(), ans.predecessors.end(),
                     [](const PredecessorCount& x, const PredecessorCount& y) { return x.count > y.count; });
}

void caveats(const Profile& p, const Group& g, Answers& ans) {
    if (g.stepsSource == StepSource::None) ans.caveats.push_back("no steps (no NVTX step ranges, no repeating op sequence): positions in the step are unknown");
    else if (g.stepCount < 3)
        ans.caveats.push_back("only " + plural(g.stepCount, "step") +
                              ": a position that recurs is not established");
    const size_t big = ans.big.size();
    if (big > 0 && big < 3)
        ans.caveats.push_back("only " + plural(big, "big event") +
                              ": whether they rotate, and their causes, rest on little");
    if (const size_t partial = g.validation.partial.size(); partial > 0)
        ans.caveats.push_back(partial == 1 ? std::string("1 collective lacks a rank and is left out")
                                           : std::to_string(partial) + " collectives lack a rank and are left out");
    std::set<int> files;
    for (const auto& gl : g.lanes) files.insert(p.ranks[size_t(gl.rank)].file);
    for (int f : files)
        if (!p.inputs[size_t(f)].missingDevices.empty())
            ans.caveats.push_back("ranks may be missing: " + p.inputs[size_t(f)].missingDevices);
    if (ans.considered > 0 && ans.considered < 10)
        ans.caveats.push_back("only " + std::to_string(ans.considered) + " collectives that are not big: the chi-square test is weak");
}

}  // namespace

void answerQuestions(const Profile& p, Analysis& a) {
    for (Group& g : a.groups) {
        Answers ans;
        for (uint32_t c = 0; c < g.count; ++c) {
            const Collective& col = a.collectives[g.firstCollective + c];
            if (!col.complete || !col.big) continue;
            ans.big.push_back(g.firstCollective + c);
            ans.bigLateRanks.push_back(a.lateRank(col));
        }
        whoAnswer(a, g, ans);
        positionsAnswer(a, g, ans);
        causeAnswer(p, a, g, ans);
        caveats(p, g, ans);
        g.answers = std::move(ans);
    }
}

}  // namespace skew

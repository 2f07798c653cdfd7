#pragma once
// The answers of docs/analysis.md (Answers) computed from the generator's truth alone: member start
// times and launch ends, the planted late arrivers and their GEMMs, the step ranges' starts. The
// oracle of the answers tests (test_answers.cpp, test_cli_analyze.cpp); it shares no code with
// core/analysis.

#include <algorithm>
#include <climits>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "chi_square_oracle.h"
#include "gen_fixture.h"

namespace testutil {

// Big events at positions 13 and 20 of every step of 5, a different rank each time (dev 2 and
// dev 3 twice: 8 ranks among 10), GPU-caused (each behind a stretched GEMM).
inline skewgen::GenConfig fixedPositionsConfig() {
    constexpr int64_t kMs = 1'000'000;
    skewgen::GenConfig cfg;
    cfg.ranks = 8;
    cfg.steps = 5;
    cfg.seed = 11;
    for (int s = 1; s <= 5; ++s) {
        cfg.late.push_back({s, 13, (2 * s) % 8, (24 + 3 * s) * kMs, skewgen::LateKind::Gpu});
        cfg.late.push_back({s, 20, (2 * s + 1) % 8, (30 + 2 * s) * kMs, skewgen::LateKind::Gpu});
    }
    return cfg;
}

// One collective of the truth as the specification reads it (ranks as spec ids).
struct TruthView {
    const skewgen::TruthCollective* tc = nullptr;
    int64_t minStart = 0, lateness = 0, cpuNs = 0;
    int lateRank = -1, earlyRank = -1;       // spec ids
    const skewgen::TruthMember* late = nullptr;
    const skewgen::TruthMember* early = nullptr;
    bool complete = false, big = false;
    uint32_t position = 0;                   // 1-based among the group's collectives of its step
    std::string cause;                       // every generated kernel has its launch and a kernel before it
};

struct TruthPredecessor {
    std::string name;
    int stream = 0;
    uint32_t count = 0;
};

struct TruthPosition {
    uint32_t position = 0;
    std::vector<uint32_t> steps;
    std::vector<int> lateRanks;
    int64_t offsetMedianNs = 0;
};

struct TruthAnswers {
    std::vector<TruthView> collectives;  // the group's, in index order
    std::vector<int> bigIndices, bigLateRanks;
    uint32_t considered = 0;
    std::vector<uint32_t> last;          // per spec rank, over complete collectives that are not big
    std::vector<int64_t> meanExclBig;    // per spec rank, rounded
    double chi2 = 0, chi2P = 1;
    int topRank = -1;
    std::string verdict;
    std::map<std::string, uint32_t> bigCauses, restCauses;
    int64_t restCpuNs = 0, restGpuNs = 0;
    bool hasGap = false;
    int64_t gapMinNs = 0, gapMaxNs = 0;
    std::vector<TruthPredecessor> predecessors;  // most frequent first, then in collective order
    std::vector<TruthPosition> positions;
    bool bigRotate = false;
    int64_t meanMin() const { return *std::min_element(meanExclBig.begin(), meanExclBig.end()); }
    int64_t meanMax() const { return *std::max_element(meanExclBig.begin(), meanExclBig.end()); }
};

namespace truth {

inline std::vector<int> specIds(const skewgen::GenResult& r) {
    std::vector<int> spec(r.specOrder.size());
    for (size_t i = 0; i < r.specOrder.size(); ++i) spec[size_t(r.specOrder[i])] = int(i);
    return spec;
}

// The group's collectives as the specification reads them: late and early arriver (ties to the
// first spec id), lateness, CPU split, cause, position in the step.
inline std::vector<TruthView> views(const skewgen::GenResult& r, int group, int ranks, int64_t bigNs) {
    const std::vector<int> spec = specIds(r);
    std::vector<TruthView> out;
    std::map<int, uint32_t> perStep;
    for (const auto& tc : r.collectives) {
        if (tc.group != group) continue;
        TruthView v;
        v.tc = &tc;
        v.complete = int(tc.members.size()) == ranks;
        v.position = ++perStep[tc.step];
        for (const auto& m : tc.members) {
            const int s = spec[size_t(m.rank)];
            if (!v.late || m.startNs > v.late->startNs || (m.startNs == v.late->startNs && s < v.lateRank)) v.late = &m, v.lateRank = s;
            if (!v.early || m.startNs < v.early->startNs || (m.startNs == v.early->startNs && s < v.earlyRank)) v.early = &m, v.earlyRank = s;
        }
        v.minStart = v.early->startNs;
        v.lateness = v.late->startNs - v.minStart;
        v.big = v.lateness > bigNs;
        v.cpuNs = std::clamp<int64_t>(v.late->launchEndNs - v.minStart, 0, v.lateness);
        v.cause = 2 * v.cpuNs >= v.lateness ? "cpu_launch" : "gpu_dependency";
        out.push_back(v);
    }
    return out;
}

// Big events, last counts, means without big events, the rest's causes and lateness split.
inline void tally(const skewgen::GenResult& r, int ranks, TruthAnswers& t) {
    const std::vector<int> spec = specIds(r);
    std::vector<int64_t> sum(size_t(ranks), 0);
    t.last.assign(size_t(ranks), 0);
    for (const TruthView& v : t.collectives) {
        if (!v.complete) continue;
        if (v.big) {
            t.bigIndices.push_back(v.tc->index);
            t.bigLateRanks.push_back(v.lateRank);
            ++t.bigCauses[v.cause];
            if (v.cause == "gpu_dependency") {
                const int64_t gap = v.late->startNs - v.late->launchEndNs;
                t.gapMinNs = t.hasGap ? std::min(t.gapMinNs, gap) : gap;
                t.gapMaxNs = t.hasGap ? std::max(t.gapMaxNs, gap) : gap;
                t.hasGap = true;
            }
            continue;
        }
        ++t.considered;
        ++t.last[size_t(v.lateRank)];
        for (const auto& m : v.tc->members) sum[size_t(spec[size_t(m.rank)])] += m.startNs - v.minStart;
        ++t.restCauses[v.cause];
        t.restCpuNs += v.cpuNs;
        t.restGpuNs += v.lateness - v.cpuNs;
    }
    for (int s = 0; s < ranks; ++s)
        t.meanExclBig.push_back(t.considered ? std::llround(double(sum[size_t(s)]) / double(t.considered)) : 0);
}

// The verdict, by the specification's rule.
inline void verdict(int ranks, TruthAnswers& t) {
    const double n = t.considered, expected = n / ranks;
    for (uint32_t x : t.last) t.chi2 += (x - expected) * (x - expected) / expected;
    t.chi2P = chi2TailClosedForm(t.chi2, ranks - 1);
    t.topRank = int(std::max_element(t.last.begin(), t.last.end()) - t.last.begin());  // the first of the largest
    std::vector<int64_t> others;
    for (int s = 0; s < ranks; ++s)
        if (s != t.topRank) others.push_back(t.meanExclBig[size_t(s)]);
    std::sort(others.begin(), others.end());
    const size_t m = others.size();
    const double median = m % 2 ? double(others[m / 2]) : (double(others[m / 2 - 1]) + double(others[m / 2])) / 2;
    if (2.0 * t.last[size_t(t.topRank)] >= n && double(t.meanExclBig[size_t(t.topRank)]) >= 2 * median) t.verdict = "persistent";
    else if (t.chi2P < 0.001) t.verdict = "often_last_small";
    else t.verdict = "rotating";
}

// The planted GEMMs behind the GPU-caused big events, in collective order, counted per (name, stream).
inline void predecessors(const skewgen::GenResult& r, int group, TruthAnswers& t) {
    std::vector<skewgen::TruthLate> planted = r.late;
    std::stable_sort(planted.begin(), planted.end(), [](const auto& x, const auto& y) { return x.index < y.index; });
    for (const auto& tl : planted) {
        if (tl.group != group || tl.planted.kind != skewgen::LateKind::Gpu) continue;
        bool big = false;
        for (const TruthView& v : t.collectives) big |= v.tc->index == tl.index && v.complete && v.big && v.cause == "gpu_dependency";
        if (!big) continue;
        auto it = std::find_if(t.predecessors.begin(), t.predecessors.end(),
                               [&](const TruthPredecessor& p) { return p.name == tl.predecessorName && p.stream == tl.predecessorStream; });
        if (it == t.predecessors.end()) t.predecessors.push_back({tl.predecessorName, tl.predecessorStream, 1});
        else ++it->count;
    }
    std::stable_sort(t.predecessors.begin(), t.predecessors.end(), [](const auto& x, const auto& y) { return x.count > y.count; });
}

// Recurring positions of big events, offsets from the early arriver's step range start (NVTX) or
// the step's first collective's earliest start (inferred); whether big events rotate.
inline void positions(const skewgen::GenResult& r, bool nvtxSteps, TruthAnswers& t) {
    std::map<int, int64_t> stepFirstStart;
    std::map<uint32_t, std::vector<const TruthView*>> bigAt;
    for (const TruthView& v : t.collectives) {
        if (!stepFirstStart.count(v.tc->step)) stepFirstStart[v.tc->step] = v.minStart;
        if (v.complete && v.big) bigAt[v.position].push_back(&v);
    }
    for (auto& [position, at] : bigAt) {
        std::map<uint32_t, bool> steps;
        for (const TruthView* v : at) steps[uint32_t(v->tc->step)] = true;
        if (steps.size() < 2) continue;
        TruthPosition tp;
        tp.position = position;
        std::vector<int64_t> offsets;
        for (const TruthView* v : at) {
            tp.steps.push_back(uint32_t(v->tc->step));
            tp.lateRanks.push_back(v->lateRank);
            const int64_t origin = nvtxSteps ? r.stepRangeStartNs[size_t(v->early->rank)][size_t(v->tc->step - 1)]
                                             : stepFirstStart[v->tc->step];
            offsets.push_back(v->minStart - origin);
        }
        std::sort(offsets.begin(), offsets.end());
        const size_t m = offsets.size();
        tp.offsetMedianNs = m % 2 ? offsets[m / 2] : std::llround((double(offsets[m / 2 - 1]) + double(offsets[m / 2])) / 2);
        t.positions.push_back(tp);
    }
    std::map<int, size_t> lateCount;
    size_t most = 0;
    for (int rk : t.bigLateRanks) most = std::max(most, ++lateCount[rk]);
    t.bigRotate = lateCount.size() >= 2 && 2 * most <= t.bigLateRanks.size();
}

}  // namespace truth

// `nvtxSteps`: steps from the ProfilerStep ranges; else inferred from the op period.
inline TruthAnswers truthAnswers(const Generated& gen, int group, int ranks, int64_t bigNs, bool nvtxSteps) {
    TruthAnswers t;
    t.collectives = truth::views(gen.result, group, ranks, bigNs);
    truth::tally(gen.result, ranks, t);
    truth::verdict(ranks, t);
    truth::predecessors(gen.result, group, t);
    truth::positions(gen.result, nvtxSteps, t);
    return t;
}

}  // namespace testutil
